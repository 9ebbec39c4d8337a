public import PleinCore
public import PleinLoad
public import PleinModel
public import PleinRender
import Foundation
import PleinImages

/// A site as the last build left it, kept so that the next build after an edit redoes only what
/// the edit touched. It runs the stages (load → check → images → model → bodies → render →
/// write, each in `Stages/`) and remembers what they made (`LastBuild`).
///
/// `plein build` makes one of these and writes it out; `plein serve` keeps one and updates it.
public struct SiteState: Sendable {
    public let options: BuildOptions
    /// Whether each output's dependencies are recorded (for incremental updates).
    let tracking: Bool

    var contentState: ContentState
    var content: Content
    var loadDiagnostics: [Diagnostic] = []
    /// What the rules that span records found in `content` (`CheckStage.rules`).
    var checked: [Diagnostic]?
    /// What changed in the content since the last model was made (`last.model`): everything
    /// until a first model is made, and after an edit that reached beyond records edited in place.
    private var unrendered = ContentChange.everything
    /// Whether the theme was read again since the last model was made: its assets are published
    /// again, and the outputs that read a template or text that changed are found by their facts.
    private var themeUnrendered = false
    /// The templates of the theme the last model was rendered with (a template gone since takes
    /// its fact with it).
    private var renderedTemplates: Set<String> = []
    /// How far the last update's reload reached, and the pieces its model made again (nil: the
    /// whole model; for tests and timings).
    private(set) var lastChange: (loaded: ContentChange, modelled: ModelChange?) = (.everything, nil)
    var images: ImageStage
    var videos: VideoStage
    var theme: Theme?
    var themeDiagnostics: [Diagnostic] = []
    private var modelStage: ModelStage
    let leaflet: Leaflet?
    let threadKeys: ThreadKeys?
    /// The members-only groups published sealed (with a strong passphrase), their keys derived once.
    var sealingStage = SealingStage()
    var sealing: Sealing = [:]
    var servedCopies: ServedCopies
    var last = LastBuild()
    /// For `plein build` with the build store: the last build's snapshot and the next one.
    private(set) var remembered: Remembered?
    /// The parts of outputs `plein serve` made (`ModelView.fragment`), kept across its builds.
    private let fragments = MemoryFragments()
    /// For `plein serve`: the build store's records, read and written back.
    private let keeper: RecordKeeper?

    /// Problems of the current content and theme, with paths as the user sees them.
    public internal(set) var diagnostics: [Diagnostic] = []
    public internal(set) var sources: [String: String] = [:]
    public private(set) var notes: [String] = []
    public internal(set) var imagesMade = 0
    public internal(set) var imagesReused = 0
    /// Videos ffmpeg made in the last update (not found in the cache).
    public internal(set) var videosMade = 0

    /// Where outputs are written as they are rendered (a one-off build); nil keeps them in memory.
    let stream: OutputWriter?
    /// The first failure to write a streamed output.
    var streamFailure: OutputWriter.Failure?

    /// Loads, checks and (when the content has no errors) renders the whole site. With
    /// `streamingTo`, outputs are written there as they are rendered and not kept (the state
    /// then cannot serve files or be updated).
    /// With `sharingRecords` (for `plein serve`), files whose records the build store keeps are
    /// not parsed again, and the records read are written back there.
    public init(_ options: BuildOptions, tracking: Bool, streamingTo stream: OutputWriter? = nil, sharingRecords: Bool = false) {
        self.init(options, tracking: tracking, streamingTo: stream, remembering: nil, keeper: sharingRecords ? RecordKeeper(options) : nil)
    }

    /// With `remembering`, the outputs whose facts did not change since the build the store
    /// describes are not rendered again (the writer keeps them), and bodies come from the store.
    init(_ options: BuildOptions, tracking: Bool, streamingTo stream: OutputWriter?, remembering: Remembered?, keeper: RecordKeeper? = nil) {
        self.options = options
        self.keeper = keeper
        self.tracking = tracking || remembering != nil
        self.stream = stream
        remembered = remembering
        if let bodies = remembering?.previous?.bodies { last.bodies = bodies }
        var timer = PhaseTimer(enabled: options.timings)
        modelStage = ModelStage(content: options.content, readsHistory: options.history, environment: options.environment)
        let (loaded, state) = ContentLoader.loadKeepingState(.disk(options.content), known: remembering?.known ?? keeper?.known,
                                                               timings: options.timings)
        timer.lap("load")
        keeper?.keep(state)
        contentState = state
        content = loaded.content
        if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
        images = ImageStage(contentRoot: options.content, cacheRoot: options.cacheRoot, maxPixels: content.site.maxPixels, avif: content.site.avif)
        videos = VideoStage(contentRoot: options.content, ffmpeg: content.videos.isEmpty ? nil : options.ffmpeg, cache: images.processor.cache)
        servedCopies = ServedCopies(cacheRoot: options.cacheRoot)
        images.inspect(content)
        timer.lap("image headers")
        leaflet = Leaflet(folder: options.leaflet)
        threadKeys = options.secret.flatMap(ThreadKeys.init(secret:))
        loadDiagnostics = loaded.diagnostics
        loadTheme()
        timer.lap("theme")
        check()
        timer.lap("check")
        if stream != nil {
            // A one-off build needs the files' texts no more (but those its problems point into).
            let keep = Set(diagnostics.map(\.file).filter { $0.hasPrefix(content.displayRoot + "/") }
                .map { String($0.dropFirst(content.displayRoot.count + 1)) }).union([ContentLayout.site])
            contentState.forgetTexts(keeping: keep)
            content.sources = content.sources.filter { keep.contains($0.key) }
        }
        remembered?.next.loaded = contentState
        // (The records read go into the store while the content is checked, on one core.)
        if let remembered, let ahead = remembered.ahead {
            ahead.records(contentState, gone: remembered.next.recordPaths.filter { remembered.next.content[$0] == nil })
        }
        _ = renderIfPossible()
        // `plein serve`: ready for the first edit.
        if tracking, remembered == nil, stream == nil { last.prepare() }
    }

    /// Looks at everything again after events were lost (the watcher's queue overflowed):
    /// every content file is read, and the theme too; the facts tell what really changed.
    public mutating func rescan() -> Update {
        update(content: [""], rereadTheme: true)
    }

    /// Applies edits: `content` and `templates` are paths relative to their folders.
    /// With `first`, the pages of records edited in place are rendered first and handed to it,
    /// then those of the outputs at `open` (output paths: the pages open in browsers) that the
    /// edit changes, then the rest.
    public mutating func update(content changedContent: Set<String>, templates changedTemplates: Set<String>, first: FirstPages? = nil,
                                open: Set<String> = []) -> Update {
        update(content: changedContent, rereadTheme: !changedTemplates.isEmpty, first: first, open: open)
    }

    private mutating func update(content changedContent: Set<String>, rereadTheme: Bool, first: FirstPages? = nil,
                                 open: Set<String> = []) -> Update {
        notes = []
        var timer = PhaseTimer(enabled: options.timings)
        let languageBefore = content.site.language, appBefore = content.site.app
        var change = ContentChange.nothing
        if !changedContent.isEmpty {
            // In place: the content and its state are not copied for an edit of a few records.
            change = ContentLoader.reload(&contentState, content: &content, diagnostics: &loadDiagnostics, fs: .disk(options.content),
                                          changed: changedContent, timings: options.timings)
            keeper?.keep(contentState)
            // (`site.yaml` taken in place: the address the options give stands.)
            if change != .everything, changedContent.contains(ContentLayout.site), let base = options.baseURL {
                content.site = content.site.with(baseURL: base)
            }
            if change == .everything {
                // (An edit of reports' texts only touches no image.)
                if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
                let touchedImages = Set(changedContent.filter { path in content.images[path] != nil })
                    .union(content.images.keys.filter { images.headers[$0] == nil })
                images.inspect(content, only: touchedImages)
            } else if changedContent.contains(where: { if case .photo = FileRole.of($0) { true } else { false } }) {
                // (Photos of an album added, replaced or deleted, taken in record by record.)
                images.inspect(content, only: Set(changedContent.filter { path in content.images[path] != nil }))
            }
            timer.lap("reload")
        }
        if rereadTheme || content.site.language != languageBefore || content.site.app != appBefore {
            loadTheme()
            timer.lap("theme")
            themeUnrendered = true
            // An edit of the theme alone leaves the content, its problems and its model as they
            // were: the outputs that read a template or a text it changed are found by their
            // facts (`Facts.update(theme:before:)`). The site's language or app (an edit of `site.yaml`)
            // is an edit of everything.
            if !tracking || remembered != nil || content.site.language != languageBefore || content.site.app != appBefore { change = .everything }
        }
        lastChange = (change, nil)
        check(change)
        timer.lap(change == .everything ? "check" : "check (\(change.files?.count ?? 0) records' files)")
        unrendered = unrendered.then(change)
        return renderIfPossible(first: first, open: open)
    }

    /// Renders what changed since the last build (everything when there is none): the outputs
    /// that read a fact that changed (`QueryGraph`). Keeps the last good outputs when there are errors.
    private mutating func renderIfPossible(first: FirstPages? = nil, open: Set<String> = []) -> Update {
        guard let theme, !diagnostics.hasErrors else { return Update() }
        var timer = PhaseTimer(enabled: options.timings)
        // After edits of records in place (no file appeared, vanished or changed but theirs), the
        // media, attachments and their copies are what the last render made of them; but for an
        // album's file (its photos' order, captions and map) or a member's (their home, near
        // which no photo's position is published).
        let media: Media
        let mediaAsBefore: Bool
        if tracking, remembered == nil, let files = unrendered.files, let kept = last.media, files.allSatisfy(Self.keepsMedia) {
            (media, mediaAsBefore) = (kept, true)
            (videosMade, imagesMade, imagesReused) = (0, 0, 0)
            diagnostics += videos.diagnostics.map { $0.under(content.displayRoot) }
        } else {
            guard let made = makeMedia(&timer) else { return Update() }
            (media, mediaAsBefore) = (made, false)
        }
        let catalog = media.catalog
        // A model made from the last one piece by piece is that in the stages after, which then
        // look at those pieces only; else they look at everything.
        let (model, modelNotes, piecesOnly) = modelStage.run(content, change: tracking && remembered == nil ? unrendered : .everything,
                                                             last: &last.model, captureTimes: media.captureTimes, threadKeys: threadKeys,
                                                             now: options.buildTime, sealed: Set(sealing.keys))
        lastChange.modelled = piecesOnly
        timer.lap(piecesOnly == nil ? "model" : "model (pieces made again)")
        notes = modelNotes
        notes += mediaNotes(media)
        // After a model made piece by piece, the last build's bodies and facts are taken and
        // changed in place (a copy would cost what the edit does many times over); `last` gets
        // them back below.
        var bodies = BodiesStage()
        let changedBodies: Set<String>
        if let piecesOnly {
            swap(&bodies, &last.bodies)
            changedBodies = bodies.update(model, change: piecesOnly, threadKeys: threadKeys)
        } else {
            (bodies, changedBodies) = last.bodies.run(model, threadKeys: threadKeys)
        }
        timer.lap("markdown (\(changedBodies.count) bodies)")

        let searching = content.site.search && options.pagefind != nil
        if content.site.search, options.pagefind == nil {
            notes.append("search is off: Pagefind is not installed (`make site` installs it, or `pip install pagefind-bin`)")
        }
        // (`plein serve` keeps the parts of outputs it made, checked by the facts found below.)
        // (A full build with the build store keeps the parts brought up to date for the edit after it.)
        let memory = tracking && remembered == nil ? fragments : nil
        memory?.use(nil)
        let updated = remembered != nil ? UpdatedParts() : nil
        let renderer = Renderer(
            model: model, theme: theme, bodies: bodies.bodies, images: catalog,
            options: RenderOptions(pageFooterInjection: options.pageFooterInjection, leaflet: leaflet?.assets, threadKeys: threadKeys,
                                   search: searching, sealing: sealing, sitemapSplit: options.sitemapSplit),
            fragments: memory.map { $0 as any FragmentMemory } ?? updated)
        var stage = RenderStage(renderer: renderer, tracking: tracking, stream: stream, timings: options.timings)
        stage.hashing = remembered != nil
        // The search index is made from the model, not from the pages: a build that writes its
        // pages as they are rendered starts Pagefind now, so that its processes share the cores
        // with the rendering and take those it leaves idle (the long outputs at its end, which
        // keep one core); the index is waited for after rendering. (`plein serve` starts it
        // after rendering, which its edits' first pages must not wait on, and makes again only
        // the shards whose records read what the edit changed: `LastBuild.search`.)
        let serving = tracking && remembered == nil && stream == nil
        let searchStage = options.pagefind.map { SearchStage(root: options.cacheRoot + "/search", pagefind: Pagefind(executable: $0), timings: options.timings) }
        let search = searching && !serving ? searchStage.map { stage in
            SearchRun(stage: stage, renderer: renderer, tracked: remembered != nil, language: content.site.language.rawValue,
                      routes: Routes(baseURL: model.site.baseURL), early: stream != nil)
        } : nil
        // The pages of the edited records first (those that show their texts), served at once,
        // before the facts and the outputs to render are found; then the rest of what the edit
        // changed.
        var early = (update: Update(), keys: Set<String>())
        if let first, let piecesOnly, remembered == nil, stream == nil, let files = unrendered.files {
            let own = editedRecordsPages(files, change: piecesOnly, model: model)
            if !own.isEmpty {
                let (made, _) = stage.run(own)
                early.update = last.take(rendered: made, of: nil)
                early.update.first = early.update.changed
                early.keys = Set(own.map(\.key))
                first(last.served, early.update.changed)
                timer.lap("render the edited records' pages first (\(made.count) outputs)")
            }
        }
        // The outputs: after a model made piece by piece, the same as last time unless its
        // pieces may change which there are (`ModelChange.outputsMayChange`), or a photo's
        // position does (an album's map is there while one of its photos has one).
        var ids = piecesOnly?.outputsMayChange == false && piecesOnly?.images.isEmpty == true && !last.ids.isEmpty ? last.ids : renderer.outputs()
        let sameOutputs = piecesOnly != nil && !last.ids.isEmpty && (ids.count == last.ids.count && ids == last.ids)
        if sameOutputs { ids = last.ids }
        // The facts: what outputs read, each with a fingerprint (for a build without the store or
        // the dev server, there is nothing to compare them with).
        var changedFacts: Set<String>?
        let facts: Facts?
        if let piecesOnly, var updated = last.facts.take() {
            changedFacts = updated.update(piecesOnly, model: model, images: catalog, bodies: bodies.digests, texts: bodies.bodies,
                                          changedBodies: changedBodies)
                .union(themeUnrendered ? updated.update(theme: theme, before: renderedTemplates) : [])
                .union(piecesOnly.settings ? updated.update(settings: content.sources[ContentLayout.site] ?? "") : [])
            facts = updated
        } else {
            facts = tracking
            ? Facts(model, settings: content.sources[ContentLayout.site] ?? "", bodies: bodies.digests, texts: bodies.bodies, images: catalog,
                    theme: theme, previous: remembered?.previous?.facts ?? last.facts,
                    before: remembered == nil ? last.model.map { ($0, last.catalog) } : nil)
            : nil
        }
        if facts != nil { timer.lap("facts") }
        // The facts that changed since the outputs kept were made (those the update changed in
        // place, or the comparison with the last build's, the store's for `plein build`); nil
        // when none are kept, and every output is rendered. Then the outputs to render: those
        // that read one of them, and those never rendered.
        // (When the site's settings changed, every output is: the other facts are not compared.)
        let changed = changedFacts ?? facts.flatMap { now -> Set<String>? in
            guard let before = remembered.map({ $0.previous?.facts }) ?? last.facts else { return nil }
            return before.values[Facts.siteKey] != now.values[Facts.siteKey] ? [Facts.siteKey] : before.changes(to: now)
        }
        let todo = changed.map { changed in
            remembered != nil ? remembered!.outputsToRender(ids, changed: changed) : last.outputsToRender(ids, changed: changed, same: sameOutputs)
        } ?? ids
        timer.lap("outputs to render (\(todo.count) of \(ids.count))")
        // (The edited records' pages were rendered first, above.)
        var rest = todo.filter { !early.keys.contains($0.key) }
        memory?.use(facts, changed: changed)
        // Then the pages open in browsers that the edit changes, served and reloaded before the rest.
        if let first, remembered == nil, stream == nil, !open.isEmpty {
            let shown = rest.filter { open.contains(renderer.file(of: $0)) }
            if !shown.isEmpty {
                let (made, _) = stage.run(shown)
                let taken = last.take(rendered: made, of: nil)
                (early.update.changed, early.update.rendered, early.update.first) = (early.update.changed + taken.changed,
                                                                                     early.update.rendered + taken.rendered,
                                                                                     early.update.first + taken.changed)
                early.keys.formUnion(shown.map(\.key))
                rest = rest.filter { !early.keys.contains($0.key) }
                first(last.served, taken.changed)
                timer.lap("render the open pages the edit changes (\(made.count) outputs)")
            }
        }
        if let first, serving { handOver(&rest, stage: stage, into: &early.update, first: first) }
        let (rendered, failure) = stage.run(rest)
        streamFailure = failure
        // (A record an output needed and the model did not have: a fault of plein's, never a trap.)
        if streamFailure == nil, let piece = renderer.missingPieces.first {
            streamFailure = OutputWriter.Failure(path: options.output, reason: "plein's model lacks \(piece), which a page needs (a fault of plein's: please report it)")
        }
        timer.lap("render (\(rendered.count) outputs)")
        var publishedLinks = media.links
        var searchLinks: [(String, String)] = []
        var searchIndexes: [(name: String, key: String, reads: Set<Dependency>)] = []
        var searchReplaced: [String] = []
        var searchLinksChanged: (before: [(String, String)], now: [(String, String)])?
        if searching, serving, let searchStage {
            let made = last.search(renderer, stage: searchStage, changed: changed, language: content.site.language.rawValue,
                                   routes: Routes(baseURL: model.site.baseURL))
            notes += made.problems.map { "search: \($0); that part of the site is missing from search" }
            (searchReplaced, searchLinksChanged) = (made.replaced, made.changedLinks)
            timer.lap("search (\(made.remade) of \(made.shards) indexes made again, \(made.indexed) by Pagefind)")
        } else if let search {
            let (shards, outcome, took) = search.result()
            searchIndexes = zip(shards, outcome.keys).map { shard, key in (shard.0.name, key, shard.1) }
            searchLinks = outcome.links
            publishedLinks += outcome.links
            notes += outcome.problems.map { "search: \($0); that part of the site is missing from search" }
            // (Begun before rendering, the lap is the wait for its end; the stage's own time is
            // said in it.)
            timer.lap("search (\(outcome.indexed) of \(outcome.shards) indexes made, in \(took) ms\(search.early ? ", begun before rendering" : ""))")
        }

        // A build with the store keeps its outputs' account there (and streamed pages no bytes).
        var update = remembered == nil ? last.take(rendered: rendered, of: sameOutputs ? nil : ids) : Update(rendered: rendered.count)
        (update.changed, update.rendered, update.first) = (early.update.changed + update.changed, early.update.rendered + update.rendered,
                                                           early.update.first)
        if remembered == nil {
            last.facts = facts
            if !serving { last.searchIndexes = searchIndexes.map { ServedIndex(name: $0.name, key: $0.key, reads: [], links: []) } }
        }
        // Assets: Leaflet's and the theme's (named by content hash).
        let assets = (leaflet?.files ?? []) + theme.assets.sorted { $0.key < $1.key }.map { OutputFile(path: $0.value.output, bytes: $0.value.bytes) }
        // (The files published as they are, when the media, the search index or the assets may
        // be others than before.)
        if mediaAsBefore, !searching || searchLinksChanged != nil, !themeUnrendered || assets == last.assets {
            // (Of the search's files, those of the indexes made again under another key.)
            if let (before, now) = searchLinksChanged, !(before.isEmpty && now.isEmpty) { last.replace(links: before, with: now, into: &update) }
            update.changed.sort()
            update.removed.sort()
        } else {
            // (serve's search files as `LastBuild.search` left them: gathered only when taken in again.)
            if searching, serving { publishedLinks += last.searchIndexes.flatMap(\.links) }
            last.take(assets: assets, imageLinks: publishedLinks, attachments: media.attachments, copies: media.copies, into: &update)
        }
        for key in searchReplaced { SearchStage.remove(key, in: options.cacheRoot + "/search") }
        if let facts, var memory = remembered {
            memory.take(ids: ids, rendered: rendered, facts: facts, bodies: bodies,
                        published: published(assets: assets, imageLinks: media.links, searchLinks: searchLinks, attachments: media.attachments))
            memory.take(searchIndexes: searchIndexes)
            (memory.next.model, memory.next.catalog, memory.next.memberIndex) = (model, catalog, content.memberIndex)
            memory.next.fragments = updated?.made ?? [:]
            remembered = memory
        }
        last.model = model
        unrendered = .nothing
        themeUnrendered = false
        renderedTemplates = Set(theme.templates.keys)
        last.bodies = bodies
        last.catalog = catalog
        last.media = media
        timer.lap("collect")
        return update
    }

    /// Waits until the records read so far are in the build store.
    public func finishKeepingRecords() {
        keeper?.finish()
    }
}
