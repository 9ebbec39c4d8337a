public import PleinCore
public import PleinCheck
public import PleinLoad
public import PleinModel
public import PleinRender
import Foundation
import PleinImages
import PleinMarkdown
import Synchronization

/// Everything a build made, kept so that the next build after an edit redoes only what the edit
/// touched: files read, image variants, rendered Markdown and each output with what it read.
///
/// `plein build` makes one of these and writes it out; `plein serve` keeps one and updates it.
public struct SiteState: Sendable {
    public let options: BuildOptions
    /// Whether each output's dependencies are recorded (for incremental updates).
    let tracking: Bool

    private var contentState: ContentState
    private var content: Content
    private var images: ImageStage
    private var theme: Theme?
    private var themeDiagnostics: [Diagnostic] = []
    private var loadDiagnostics: [Diagnostic] = []
    private var leaflet: Leaflet?
    private var threadKeys: ThreadKeys?
    /// When each content file was committed (git), read again only when HEAD moves.
    private var history = GitHistory.empty
    /// The first reading, started before loading so that both run at once.
    private var firstHistory: HistoryReading?

    /// What the last successful build made: the base the next update compares with.
    private var model: SiteModel?
    private var bodies = Bodies()
    private var bodyJobs: [String: Bodies.Job] = [:]
    private var catalog = ImageCatalog()
    /// Derived images published as they are: cache file → output path.
    private var imageLinks: [(String, String)] = []
    /// Report attachments published as they are: content-relative source → output path.
    private var attachments: [(String, String)] = []
    /// For serving from memory: checked copies of the attachments (output path → copy).
    private var servedCopies: ServedCopies
    private var attachmentCopies: [String: String] = [:]
    private var outputs: [OutputID: (file: OutputFile, dependencies: Set<Dependency>)] = [:]
    private var assets: [OutputFile] = []

    /// Problems of the current content and theme, with paths as the user sees them.
    public private(set) var diagnostics: [Diagnostic] = []
    public private(set) var sources: [String: String] = [:]
    public private(set) var notes: [String] = []
    public private(set) var imagesMade = 0
    public private(set) var imagesReused = 0

    /// Whether the current content built (no errors); when false, the outputs are the last good ones.
    public var succeeded: Bool { !diagnostics.hasErrors && model != nil }

    // MARK: Building

    /// Where outputs are written as they are rendered (a one-off build); nil keeps them in memory.
    private let stream: OutputWriter?
    /// The first failure to write a streamed output.
    private var streamFailure: OutputWriter.Failure?

    /// Loads, checks and (when the content has no errors) renders the whole site. With
    /// `streamingTo`, outputs are written there as they are rendered and not kept (the state
    /// then cannot serve files or be updated).
    public init(_ options: BuildOptions, tracking: Bool, streamingTo stream: OutputWriter? = nil) {
        self.options = options
        self.tracking = tracking
        self.stream = stream
        var timer = PhaseTimer()
        firstHistory = options.history ? HistoryReading(content: options.content) : nil
        let (loaded, state) = ContentLoader.loadKeepingState(.disk(options.content))
        timer.lap("load")
        contentState = state
        content = loaded.content
        if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
        images = ImageStage(contentRoot: options.content, cacheRoot: options.cacheRoot, maxPixels: content.site.maxPixels)
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
        _ = renderIfPossible(previous: nil, changedTemplates: nil)
    }

    private mutating func loadTheme() {
        (theme, themeDiagnostics) = ThemeLoader.load(options.themeFiles, language: content.site.language)
    }

    /// Collects the diagnostics of content, image headers and theme.
    private mutating func check() {
        let root = content.displayRoot
        var found = loadDiagnostics + Checker.check(content) + images.headerDiagnostics(maxPixels: content.site.maxPixels)
        if let theme { found += Self.labelProblems(content, theme: theme) }
        found = found.sorted().map { $0.under(root) }
        diagnostics = found + themeDiagnostics
        var texts: [String: String] = [:]
        for (file, text) in content.sources { texts[root + "/" + file] = text }
        if let theme { texts.merge(theme.sources) { a, _ in a } }
        sources = texts
    }

    /// `site.yaml` labels for texts the theme does not have.
    static func labelProblems(_ content: Content, theme: Theme) -> [Diagnostic] {
        let keys = Array(theme.strings.table.keys)
        let lines = content.sources["site.yaml"]?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        return content.site.labels.keys.sorted().filter { theme.strings.table[$0] == nil }.map { key in
            let line = lines.firstIndex { $0.drop { $0 == " " }.hasPrefix(key + ":") }.map { $0 + 1 } ?? 1
            let column = line > 1 || lines.first?.drop(while: { $0 == " " }).hasPrefix(key + ":") == true
                ? (lines[line - 1].prefix { $0 == " " }.count + 1) : 1
            return Diagnostic(.unknownLabel(key, suggestion: Suggestions.closest(to: key, in: keys)), in: "site.yaml",
                              at: Span(line: line, column: column, length: key.count))
        }
    }

    /// What an update changed in the output.
    public struct Update: Sendable {
        /// Output paths written again (new or changed bytes).
        public var changed: [String] = []
        /// Output paths that no longer exist.
        public var removed: [String] = []
        /// Outputs rendered (for measuring how incremental an update was).
        public var rendered = 0
    }

    /// Looks at everything again after events were lost (the watcher's queue overflowed):
    /// every content file is read, and the theme is compared with the one in use, so that only
    /// what really changed is rendered again.
    public mutating func rescan() -> Update {
        let before = theme
        var result = update(content: [""], templates: [], rereadTheme: true)
        if let before, let theme, before.strings.table == theme.strings.table,
           before.assets.mapValues(\.output) == theme.assets.mapValues(\.output), before.templates.keys == theme.templates.keys {
            let edited = Set(theme.templates.keys.filter { before.templates[$0] != theme.templates[$0] })
            if !edited.isEmpty { result = update(content: [], templates: Set(edited.map { "pages/\($0).mustache" }), rereadTheme: false) }
            return result
        }
        // The theme's text, assets or template set changed: render everything.
        return update(content: [], templates: ["i18n"], rereadTheme: false)
    }

    /// Applies edits: `content` and `templates` are paths relative to their folders.
    public mutating func update(content changedContent: Set<String>, templates changedTemplates: Set<String>) -> Update {
        update(content: changedContent, templates: changedTemplates, rereadTheme: !changedTemplates.isEmpty)
    }

    private mutating func update(content changedContent: Set<String>, templates changedTemplates: Set<String>, rereadTheme: Bool) -> Update {
        notes = []
        let languageBefore = content.site.language
        if !changedContent.isEmpty {
            let (loaded, state) = ContentLoader.reload(contentState, fs: .disk(options.content), changed: changedContent)
            contentState = state
            content = loaded.content
            if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
            loadDiagnostics = loaded.diagnostics
            let touchedImages = Set(changedContent.filter { path in content.images[path] != nil })
                .union(content.images.keys.filter { images.headers[$0] == nil })
            images.inspect(content, only: touchedImages)
        }
        if rereadTheme || content.site.language != languageBefore { loadTheme() }
        check()
        let templateNames = Set(changedTemplates.map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".mustache", with: "") })
        let wholeTheme = changedTemplates.contains { !$0.hasSuffix(".mustache") }
        return renderIfPossible(previous: model, changedTemplates: wholeTheme ? nil : templateNames)
    }

    /// Renders what changed since `previous` (everything when there is no previous model or
    /// when `changedTemplates` is nil). Keeps the last good outputs when there are errors.
    private mutating func renderIfPossible(previous: SiteModel?, changedTemplates: Set<String>?) -> Update {
        guard let theme, !diagnostics.hasErrors else { return Update() }
        var timer = PhaseTimer()
        let counts = images.process(content, progress: options.progress)
        timer.lap("images")
        imagesMade = counts.made
        imagesReused = counts.reused
        let imageProblems = images.processingDiagnostics.map { $0.under(content.displayRoot) }
        guard imageProblems.isEmpty else {
            diagnostics += imageProblems
            return Update()
        }
        // Attachments published as they are: checked now, so a served site reads only copies.
        var newAttachments: [(String, String)] = []
        for report in content.reports {
            for resource in report.resources where content.images[ContentLayout.attachment(report.id, file: resource)] == nil {
                newAttachments.append((ContentLayout.attachment(report.id, file: resource), Routes.attachment(report.id, file: resource)))
            }
        }
        var newCopies: [String: String] = [:]
        if stream == nil {
            var refused: [Diagnostic] = []
            for (source, target) in newAttachments {
                switch servedCopies.copy(root: options.content, source) {
                case .success(let copy): newCopies[target] = copy
                case .failure(let refusal): refused.append(Diagnostic(.unreadable(refusal.reason), in: source).under(content.displayRoot))
                }
            }
            guard refused.isEmpty else {
                diagnostics += refused
                return Update()
            }
            servedCopies.prune(keeping: Set(newCopies.values))
        }
        let times = images.captureTimes(clock: content.site.clock)
        if let reading = firstHistory {
            history = reading.finish()
            firstHistory = nil
        } else if options.history {
            history = GitHistory.refresh(history, content: options.content)
        }
        timer.lap("history")
        if let why = history.unavailable { notes.append(why) }
        let newModel = ModelBuilder.build(content, captureTimes: times, history: history.history)
        timer.lap("model")
        if threadKeys == nil, !newModel.threads.isEmpty {
            notes.append("\(newModel.threads.count) message thread\(newModel.threads.count == 1 ? " was" : "s were") not rendered: set PLEIN_SECRET or pass --secret-file")
        }
        if leaflet == nil {
            notes.append("Leaflet was not found in \(options.leaflet) (Debian package libjs-leaflet): maps are drawn without the interactive layer")
        }
        let (newCatalog, newLinks) = images.catalog(captureTimes: times)

        // Markdown: only bodies whose text or page changed are rendered again.
        let routes = Routes(baseURL: newModel.site.baseURL)
        let jobs = Bodies.jobs(newModel, routes: routes, threadKeys: threadKeys)
        var jobIndex: [String: Bodies.Job] = [:]
        for job in jobs { jobIndex[job.file] = job }
        let stale = jobs.filter { job in bodyJobs[job.file].map { $0.markdown != job.markdown || $0.page != job.page } ?? true }
        var newBodies = bodies
        newBodies.merge(Bodies.render(stale, routes: routes))
        newBodies.keep(Set(jobIndex.keys))
        let changedBodies = Set(stale.map(\.file)).union(Set(bodyJobs.keys).subtracting(jobIndex.keys))
        timer.lap("markdown (\(stale.count) bodies)")

        let renderer = Renderer(
            model: newModel, theme: theme, bodies: newBodies, images: newCatalog,
            options: RenderOptions(pageFooterInjection: options.pageFooterInjection, leaflet: leaflet?.assets, threadKeys: threadKeys))
        let ids = renderer.outputs()

        // What to render: everything, or the outputs that read something that changed.
        var todo: [OutputID]
        let everything = previous == nil || changedTemplates == nil || previous!.site != newModel.site
        if everything {
            todo = ids
        } else {
            var changed = Self.changes(from: previous!, to: newModel)
            changed.formUnion(changedBodies.map { .body($0) })
            for path in Set(catalog.images.keys).union(newCatalog.images.keys) where catalog.images[path] != newCatalog.images[path] {
                changed.insert(.image(path))
            }
            let templates = changedTemplates!
            let affected = templates.isEmpty ? Set<String>() : Set(theme.templates.keys.filter { !theme.closure(of: $0).isDisjoint(with: templates) })
            todo = ids.filter { id in
                guard let old = outputs[id] else { return true }
                if let template = id.template, affected.contains(template) { return true }
                return !old.dependencies.isDisjoint(with: changed)
            }
        }

        let profile = KindProfile()
        let failures = Mutex<OutputWriter.Failure?>(nil)
        let rendered: [(OutputID, OutputFile, Set<Dependency>)] = parallelMap(OutputID.batches(todo)) { [tracking, stream] batch in
            let start = DispatchTime.now().uptimeNanoseconds
            defer { profile.add(batch[0], DispatchTime.now().uptimeNanoseconds - start) }
            if tracking {
                let (files, dependencies) = renderer.renderTracked(batch: batch)
                return zip(batch, files).map { ($0, $1, dependencies) }
            }
            let files = renderer.render(batch: batch)
            guard let stream else { return zip(batch, files).map { ($0, $1, []) } }
            return zip(batch, files).map { id, file in
                do throws(OutputWriter.Failure) { try stream.write(file) } catch { failures.withLock { $0 = $0 ?? error } }
                return (id, OutputFile(path: file.path, bytes: []), [])
            }
        }.flatMap { $0 }
        streamFailure = failures.withLock { $0 }
        profile.report()
        timer.lap("render (\(rendered.count) outputs)")
        var update = Update(rendered: rendered.count)
        let keep = Set(ids)
        for (id, old) in outputs where !keep.contains(id) {
            outputs.removeValue(forKey: id)
            update.removed.append(old.file.path)
        }
        for (id, file, dependencies) in rendered {
            if outputs[id]?.file != file { update.changed.append(file.path) }
            outputs[id] = (file, dependencies)
        }

        // Assets: the theme's (named by content hash) and Leaflet's.
        var newAssets = leaflet?.files ?? []
        for (_, asset) in theme.assets.sorted(by: { $0.key < $1.key }) {
            newAssets.append(OutputFile(path: asset.output, bytes: asset.bytes))
        }
        let oldAssetPaths = Set(assets.map(\.path))
        update.changed += newAssets.map(\.path).filter { !oldAssetPaths.contains($0) }
        update.removed += oldAssetPaths.subtracting(newAssets.map(\.path))
        assets = newAssets

        // Files published as they are: image variants and report attachments.
        let oldLinks = Dictionary(imageLinks.map { ($0.1, $0.0) } + attachments.map { ($0.1, attachmentCopies[$0.1] ?? $0.0) },
                                  uniquingKeysWith: { a, _ in a })
        let newLinkIndex = Dictionary(newLinks.map { ($0.1, $0.0) } + newAttachments.map { ($0.1, newCopies[$0.1] ?? $0.0) },
                                      uniquingKeysWith: { a, _ in a })
        update.changed += newLinkIndex.filter { oldLinks[$0.key] != $0.value }.keys
        update.removed += oldLinks.keys.filter { newLinkIndex[$0] == nil }
        imageLinks = newLinks
        attachments = newAttachments
        attachmentCopies = newCopies

        model = newModel
        bodies = newBodies
        bodyJobs = jobIndex
        catalog = newCatalog
        update.changed.sort()
        update.removed.sort()
        timer.lap("collect")
        return update
    }

    /// The pieces of the model that differ between two builds.
    static func changes(from a: SiteModel, to b: SiteModel) -> Set<Dependency> {
        var changed: Set<Dependency> = []
        func compare<T: Equatable>(_ x: [String: T], _ y: [String: T], _ make: (String) -> Dependency) {
            for key in Set(x.keys).union(y.keys) where x[key] != y[key] { changed.insert(make(key)) }
        }
        compare(a.members, b.members, Dependency.member)
        compare(a.groups, b.groups, Dependency.group)
        compare(a.reports, b.reports, Dependency.report)
        compare(Dictionary(a.areas.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x }),
                Dictionary(b.areas.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x }), Dependency.area)
        compare(Dictionary(a.locations.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x }),
                Dictionary(b.locations.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x }), Dependency.location)
        compare(Dictionary(a.threads.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x }),
                Dictionary(b.threads.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x }), Dependency.thread)
        compare(Dictionary(grouping: a.sessions, by: \.member), Dictionary(grouping: b.sessions, by: \.member), Dependency.sessions)
        if a.memberOrder != b.memberOrder { changed.insert(.memberOrder) }
        if a.groupOrder != b.groupOrder { changed.insert(.groupOrder) }
        if a.reportOrder != b.reportOrder { changed.insert(.reportOrder) }
        if a.areas.map(\.id) != b.areas.map(\.id) { changed.insert(.areaOrder) }
        if a.locations.map(\.id) != b.locations.map(\.id) { changed.insert(.locationOrder) }
        if a.places != b.places { changed.insert(.places) }
        if a.asOf != b.asOf { changed.insert(.asOf) }
        return changed
    }

    // MARK: Reading the result

    /// A file of the site: bytes in memory, or a file plein made in its cache (image variants,
    /// checked copies of attachments). Never a file of the content folder itself.
    public enum Served: Sendable {
        case bytes([UInt8])
        case disk(String)
    }

    /// Every file of the current site by output path (not for a streamed build).
    public var files: [String: Served] {
        precondition(stream == nil, "a streamed build keeps no files")
        var all: [String: Served] = [:]
        for (_, output) in outputs { all[output.file.path] = .bytes(output.file.bytes) }
        for asset in assets { all[asset.path] = .bytes(asset.bytes) }
        for (source, target) in imageLinks { all[target] = .disk(source) }
        for (target, copy) in attachmentCopies { all[target] = .disk(copy) }
        return all
    }

    public var pageCount: Int { outputs.values.count { $0.file.path.hasSuffix(".html") } }
    public var imageCount: Int { catalog.images.count }
    public var outputCount: Int { outputs.count + assets.count + imageLinks.count + attachments.count }

    /// Writes the site to `options.output` all at once (or not at all), then prunes the cache.
    public func write() throws(OutputWriter.Failure) {
        try write(finishing: OutputWriter(output: options.output))
    }

    /// Writes what `writer` lacks (everything, unless the outputs were streamed to it) and swaps
    /// the result in.
    func write(finishing writer: OutputWriter) throws(OutputWriter.Failure) {
        var timer = PhaseTimer()
        do throws(OutputWriter.Failure) {
            if let streamFailure { throw streamFailure }
            let files = (stream == nil ? outputs.values.map(\.file) : []) + assets
            let failures = parallelMap(files) { file -> OutputWriter.Failure? in
                do throws(OutputWriter.Failure) { try writer.write(file) } catch { return error }
                return nil
            }
            if let failure = failures.compactMap({ $0 }).first { throw failure }
            for (source, target) in imageLinks { try writer.link(source, as: target) }
            for (source, target) in attachments { try writer.linkContent(root: options.content, source, as: target) }
            timer.lap("write")
            try writer.commit()
            timer.lap("swap")
        } catch {
            writer.discard()
            throw error
        }
        _ = images.processor.cache.finish()
    }
}

/// With `PLEIN_TIMINGS`: where render time goes, by kind of output.
final class KindProfile: Sendable {
    private let totals = Mutex<[String: (count: Int, nanoseconds: UInt64)]>([:])
    private let enabled = ProcessInfo.processInfo.environment["PLEIN_TIMINGS"] != nil

    func add(_ id: OutputID, _ nanoseconds: UInt64) {
        guard enabled else { return }
        let kind = String(String(describing: id).prefix { $0 != "(" })
        totals.withLock { $0[kind, default: (0, 0)].count += 1; $0[kind]!.nanoseconds += nanoseconds }
    }

    func report() {
        guard enabled else { return }
        for (kind, total) in totals.withLock({ $0 }).sorted(by: { $0.value.nanoseconds > $1.value.nanoseconds }) {
            FileHandle.standardError.write(Data("    \(kind): \(total.count) in \(total.nanoseconds / 1_000_000) ms\n".utf8))
        }
    }
}
