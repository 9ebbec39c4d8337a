import Foundation
import GRDB
import GRDBSQLite
import PleinCheck
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// `plein build` after edits of records in place, or new or deleted reports of one file and
/// replies (`StoreSession.editedRecordFiles`): `plein serve`'s update of the same edit
/// (`ContentChange.records`), made from the build store instead of a site in memory. The stages are serve's: the part of the content the edited records reach
/// is loaded as the last build read it (`ContentSlice`, from the store's records), the edited
/// records made again in it (`ContentLoader.reloadInPlace`), checked (`Checker.check(_:records:)`)
/// and modelled (`ModelBuilder.replace(records:…)`) in the model the store keeps (every piece but
/// the reports', of which those the edit reads); then the bodies and facts of the pieces made
/// again, compared with the store's. The outputs that read a fact that changed are found in the
/// store's record of what each output read, and rendered from the pieces of the model they read
/// (`StoredModel`); the spare is fixed up in the paths the store names, and the store is changed
/// in those rows only. Its cost follows the edit, not the size of the site.
///
/// Whenever the edit reaches further, it gives way, before it has changed anything, to the build
/// that loads everything (nil): an edit serve's update would not take record by record (but for
/// files with warnings, which this edit takes); an error, or problems this build cannot tell
/// from the last build's; a change of what the media
/// are made from (a member's home, an album's map); outputs that may be others than before (but
/// for a report's page, added or taken out with it, and its reply feed, with its first reply or
/// its last); a
/// change of which search shards there are, or Pagefind failing (the shards whose records read a
/// changed fact are made again, `searchChange`); pages of a members-only group
/// (sealed with keys the build that loads everything derives). With `PLEIN_TIMINGS` it says why.
///
/// The update itself, up to the outputs to render and what renders them, is `RecordUpdate`,
/// over any memory of the last build (`BuildMemory`); this is its `plein build`: over the store
/// (`StoreMemory`), rendering into the spare, and saving what changed in the store.
struct RecordEdit {
    let options: BuildOptions
    let store: BuildStore
    let previous: BuildStore.Snapshot
    let next: BuildStore.Snapshot
    /// Whether the store vouches for the spare: the new files go there and the two are swapped.
    let spareVouched: Bool
    /// The update, over what the store remembers of the last build.
    let update: RecordUpdate

    init(options: BuildOptions, store: BuildStore, previous: BuildStore.Snapshot, next: BuildStore.Snapshot, files: [String],
         added: Set<String>, removed: Set<String>, themeEdited: Bool = false, spareVouched: Bool) {
        (self.options, self.store, self.previous, self.next, self.spareVouched) = (options, store, previous, next, spareVouched)
        update = RecordUpdate(options: options, memory: StoreMemory(store: store, previous: previous, next: next), files: files, added: added,
                              removed: removed, themeEdited: themeEdited)
    }

    /// Nil, for the build that loads everything, and why (with `PLEIN_TIMINGS`).
    private func giveUp(_ reason: String, _ timer: inout PhaseTimer) -> BuildReport? {
        timer.lap("record by record no further: " + reason)
        return nil
    }

    func build(start: DispatchTime, timer: inout PhaseTimer) -> BuildReport? {
        // An edit written into the output itself could be cut off half-way by a kill, leaving
        // neither site: without a spare the store vouches for, the build that loads everything
        // writes the site beside it and swaps it in.
        guard spareVouched else { return giveUp("no spare the store vouches for", &timer) }
        guard let plan = update.plan(&timer) else { return nil }
        let (loaded, model, diagnostics, problemCounts) = (plan.loaded, plan.model, plan.diagnostics, plan.problemCounts)
        let (changedFacts, gone, bodies, changedBodies) = (plan.changedFacts, plan.gone, plan.bodies, plan.changedBodies)
        let (stale, newOutputs, vanished, source, renderer, search) = (plan.stale, plan.newOutputs, plan.vanished, plan.source, plan.renderer, plan.search)
        let media = plan.media
        let content = loaded.content
        let warnings = previous.warnings + plan.warningsAdded
        // (The spare's differences from the output.)
        var differences: (all: Set<String>, vanished: Set<String>) = ([], [])
        do {
            try store.queue.read { db in
                for row in try Row.fetchAll(db, sql: "SELECT path, vanished FROM differences") {
                    differences.all.insert(row[0])
                    if row[1] as Int != 0 { differences.vanished.insert(row[0]) }
                }
            }
        } catch {
            return giveUp("the store could not give the spare's differences", &timer)
        }

        // From here on the spare is worked on: a failure is a failed build, as in a full one.
        do throws(BuildStore.Damaged) { try store.forgetSpare() } catch { return giveUp("the store could not be changed", &timer) }
        var failure: String?
        var missing: String?
        var outputs: [RenderStage.Rendered] = []
        if !stale.isEmpty || !newOutputs.isEmpty || !vanished.isEmpty || !search.writes.isEmpty || !search.removed.isEmpty || !media.writes.isEmpty
            || !media.removed.isEmpty {
            do throws(OutputWriter.Failure) {
                var steps = PhaseTimer(enabled: options.timings)
                let writer = try OutputWriter(output: options.output, knownSpare: differences.all)
                var stage = RenderStage(renderer: renderer, tracking: true, stream: writer, timings: options.timings)
                stage.hashing = true
                let (made, streamFailure) = stage.run(stale.map(\.id) + newOutputs)
                outputs = made
                steps.lap("  render")
                if let streamFailure { writer.discard(); throw streamFailure }
                // A piece the store should hold and did not give: these outputs are not right.
                let lacking = source.damaged() + renderer.missingPieces
                if let piece = lacking.first {
                    writer.discard()
                    missing = "the build cache lacks \(piece)" + (lacking.count > 1 ? " and \(lacking.count - 1) more" : "")
                    throw OutputWriter.Failure(path: options.output, reason: missing!)
                }
                for (source, target) in search.writes { try writer.copy(source, as: target) }
                for path in search.removed { writer.remove(path) }
                steps.lap("  the search's files (\(search.writes.count) written, \(search.removed.count) removed)")
                for (source, target) in media.writes { try writer.copy(source, as: target) }
                for path in media.removed { writer.remove(path) }
                if !media.writes.isEmpty || !media.removed.isEmpty {
                    steps.lap("  the photos' files (\(media.writes.count) written, \(media.removed.count) removed)")
                }
                // (The spare's differences left are those of the last edit that this one did not
                // write: a new output among them, at the path of one an edit took out, stays.)
                var paths = Set(stale.map(\.path))
                paths.formUnion(made.map(\.file.path))
                paths.formUnion(search.writes.map(\.target) + search.removed + media.writes.map(\.target) + media.removed)
                let gone = Set(vanished.values)
                for path in differences.all.sorted() where !paths.contains(path) && !gone.contains(path) {
                    if differences.vanished.contains(path) { writer.remove(path) } else { try writer.keep(path) }
                }
                for path in gone.sorted() where !paths.contains(path) { writer.remove(path) }
                steps.lap("  the spare's other differences (\(differences.all.count))")
                try writer.commit()
                steps.lap("  commit")
            } catch {
                failure = error.description
            }
        }
        timer.lap("render and write (\(outputs.count) outputs\(outputs.count <= 12 ? ": " + outputs.map(\.id.key).sorted().joined(separator: ", ") : ""))")
        var notes = previous.notes
        let old = Dictionary(uniqueKeysWithValues: stale.map { ($0.key, $0) })
        let changedPaths = (outputs.filter { old[$0.id.key]?.hash != $0.hash }.map(\.file.path) + search.writes.map(\.target)
                            + media.writes.map(\.target)).sorted()
        let addedPaths = outputs.filter { old[$0.id.key] == nil }.map(\.file.path) + search.added + media.added
        let removedPaths = Set(vanished.values).subtracting(outputs.map(\.file.path)).union(search.removed).union(media.removed).sorted()
        let (pages, files) = (previous.pages + addedPaths.count { $0.hasSuffix(".html") } - removedPaths.count { $0.hasSuffix(".html") },
                              previous.files + addedPaths.count - removedPaths.count)
        if failure == nil {
            // A build that changed most files (a title, a layout) leaves the spare the output's
            // twin, on another thread while the store saves, so that the edit after it does not
            // link them all (`StoreSession.twinSpare`).
            let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
            // (Before the twin is begun, which works on the spare under another name.)
            let spareInode = StoreSession.inode(OutputWriter.sparePath(for: output))
            let twin = changedPaths.count + removedPaths.count >= options.twinSpareAfter
                ? Background { [differences = Set(changedPaths + removedPaths), vanished = Set(removedPaths), timings = options.timings] in
                    StoreSession.twinSpare(output: output, spare: OutputWriter.sparePath(for: output), differences, vanished: vanished, timings: timings)
                } : nil
            do throws(BuildStore.Damaged) {
                var values = changedFacts.map { fact in (fact.key, source.pieces[fact.key]) }.filter { $0.1 != nil || gone.contains($0.0) }
                if changedFacts.contains(where: { $0.key == Facts.siteKey }) { values.append((ModelValues.siteKey, model.site)) }
                try save(loaded.state, spareInode: spareInode, facts: changedFacts, values: values, bodies: bodies, changedBodies: changedBodies,
                         outputs: outputs, old: old,
                         gone: (outputs: Array(vanished.keys), paths: removedPaths), fragments: source.made(),
                         search: search, media: (media.identities, media.removed), differences: changedPaths.isEmpty && removedPaths.isEmpty ? nil : changedPaths,
                         problems: problemCounts == previous.problemCounts && warnings == previous.warnings ? nil : (problemCounts, warnings),
                         counts: addedPaths.isEmpty && removedPaths.isEmpty ? nil : (pages, files, previous.images + media.count))
                if twin?.value == true {
                    try store.forgetDifferences()
                    // (Last: the twin linked the output's files, which moves their change time.)
                    try store.stampOutput(output)
                }
            } catch {
                _ = twin?.value
                notes.append("the build cache could not be saved (\(error.reason)): the next build is a full one")
                do throws(BuildStore.Damaged) { try store.clear() } catch {}
            }
            timer.lap("store: save")
        } else {
            // The output may have been changed by hand: the next build trusts nothing.
            do throws(BuildStore.Damaged) { try store.clear() } catch {}
        }
        // (The texts the problems shown point into, by the path they are shown with.)
        var sources: [String: String] = [:]
        for file in Set(diagnostics.map(\.file)) where file.hasPrefix(content.displayRoot + "/") {
            sources[file] = content.sources[String(file.dropFirst(content.displayRoot.count + 1))]
        }
        var report = BuildReport(
            diagnostics: diagnostics, sources: sources, succeeded: failure == nil, pages: pages, files: files,
            images: previous.images + media.count, imagesMade: media.made, imagesReused: 0, seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
            failure: failure, notes: notes)
        report.warnings = warnings
        report.videos = previous.videos
        report.recordByRecord = true
        // (The store emptied: the build that loads everything follows, in this run.)
        report.redoFully = missing
        // (A one-off build leaves the model and what it loaded, tens of thousands of objects, to
        // the process's end.)
        if options.leavesMemoryToExit { Leftovers.keep((loaded, model, source, outputs)) }
        guard failure == nil else { return report }
        report.unchanged = outputs.isEmpty && removedPaths.isEmpty && search.writes.isEmpty && media.writes.isEmpty && warnings == previous.warnings
        // (The cache folders of the indexes made again: the output holds copies of their files.)
        for key in search.replacedKeys { SearchStage.remove(key, in: options.cacheRoot + "/search") }
        report.changes = OutputChanges(added: addedPaths.sorted(), changed: changedPaths.filter { !addedPaths.contains($0) }, removed: removedPaths)
        report.rendered = outputs.count
        report.renderedOutputs = outputs.map(\.id.key).sorted()
        return report
    }
}

/// The update of edited records, over what a memory of the last build holds (`BuildMemory`):
/// what `RecordEdit` renders, writes and keeps (see there); nil wherever the edit reaches
/// further, for the build that loads everything.
struct RecordUpdate {
    let options: BuildOptions
    let memory: any BuildMemory
    let files: [String]
    /// Of `files`, the new ones: reports of one file and replies.
    let added: Set<String>
    /// Of `files`, the deleted ones: reports of one file and replies.
    let removed: Set<String>
    /// Whether the theme changed since the last build: the outputs that read one of its templates
    /// that changed are rendered again.
    var themeEdited = false

    /// What the memory could not give.
    private struct Unfit: Error { var reason = "" }

    /// Nil, for the build that loads everything, and why (with `PLEIN_TIMINGS`).
    private func giveUp(_ reason: String, _ timer: inout PhaseTimer) -> Plan? {
        timer.lap("record by record no further: " + reason)
        return nil
    }

    /// The content the edit reaches, before and after it.
    struct Loaded {
        var content: Content
        let before: Content
        /// The problems the load found, before the edit.
        let diagnostics: [Diagnostic]
        /// The edited files' problems of reading and of their records alone, after it.
        let problems: [Diagnostic]
        let state: ContentState
    }

    /// What the update found, to render and keep: the outputs to render again (`stale`, and the
    /// new ones) and what to render them with; the facts that changed, the pieces and bodies
    /// made again; the problems of the files it checked.
    struct Plan {
        let loaded: Loaded
        let model: SiteModel
        /// The problems to show (of the edited files, and of those whose problems changed).
        let diagnostics: [Diagnostic]
        /// The last build's problems by content file, with those of the files checked now.
        let problemCounts: [String: Int]
        /// How many warnings more (or fewer) than the last build's.
        let warningsAdded: Int
        let changedFacts: [(key: String, value: [UInt8]?)]
        /// The keys of the pieces the edit took out.
        let gone: Set<String>
        let bodies: BodiesStage
        let changedBodies: Set<String>
        /// The outputs that read a changed fact, as the last build left them.
        let stale: [RememberedOutput]
        let newOutputs: [OutputID]
        /// The outputs taken out, by key, with their paths.
        let vanished: [String: String]
        let source: RememberedSource
        let renderer: Renderer
        let search: SearchChange
        /// The edited album photos' published forms and files.
        let media: MediaChange
    }

    func plan(_ timer: inout PhaseTimer) -> Plan? {
        guard let site = (try? memory.settings()) ?? nil else { return giveUp("the memory of the last build lacks the site's settings", &timer) }
        let searching = site.search && options.pagefind != nil
        // `site.yaml` edited only in what pages show of it (its title, its description): every
        // output reads it, nothing else does (checked below, once it is read).
        let settingsEdited = files.contains(ContentLayout.site)
        let changed = Set(files).subtracting([ContentLayout.site])
        // New album photos are edits of their albums' records (`ContentLoader.reloadInPlace`).
        let photos = self.photos
        let albums = Set(photos.compactMap { path -> String? in
            guard case .photo(let group, let id) = FileRole.of(path) else { return nil }
            return ContentLayout.album(group: group, id: id)
        })
        guard albums.isDisjoint(with: changed) else { return giveUp("an album's file edited with its new photos", &timer) }
        // (The theme is read on another thread while the edit loads.)
        let themeRead = Background { [files = options.themeFiles, site, cacheRoot = options.cacheRoot] () -> Theme? in
            let (theme, problems) = ThemeLoader.load(files, language: site.language)
            guard problems.isEmpty, let theme else { return nil }
            // (Icons that cannot be made now: the full build says why.)
            let (withIcons, iconProblems) = AppIcons.add(to: theme, site: site, cacheRoot: cacheRoot)
            return iconProblems.isEmpty ? withIcons : nil
        }
        var model: SiteModel
        let loaded: Loaded
        do {
            // The reports the edited members follow, and those edited.
            var followed: Set<String> = []
            var reports: Set<String> = []
            for path in changed {
                switch FileRole.of(path) {
                case .member(let id): followed.formUnion(try memory.piece(ModelPieces.member.key(id), as: MemberModel.self)?.follows ?? [])
                case .report(let area, let name, _), .reply(let area, let name, _): reports.insert(area + "/" + name)
                default: break
                }
            }
            let slice = ContentSlice(changed: changed.union(albums), followed: followed)
            var parts = PhaseTimer(enabled: options.timings)
            // (An edit that models members and groups again reads every one's pieces on another
            // thread while the files load.)
            let ahead = !changed.union(albums).contains(where: ContentSlice.readsMembersAndGroups) ? nil
                : Background { [memory, site, ids = reports.union(followed)] in
                    Result { try memory.model(site: site, reports: ids, membersAndGroups: true, members: []) }
                }
            loaded = try load(slice: slice, changed: changed, albums: albums, timer: &parts)
            let restored = try ahead.map { try $0.value.get() }
                ?? memory.model(site: site, reports: reports.union(followed), membersAndGroups: false, members: authors(loaded))
            guard let restored else { throw Unfit(reason: "the model's pieces") }
            model = restored
            parts.lap("    the model's pieces (\(model.members.count) members, \(model.reports.count) reports)")
        } catch {
            let reason = (error as? Unfit)?.reason ?? (error as? MemoryLacks)?.reason ?? "\(error)"
            return giveUp("the memory of the last build lacks what the edit reaches (\(reason))", &timer)
        }
        let content = loaded.content
        guard let theme = themeRead.value else { return giveUp("the theme has problems", &timer) }
        // (The slice holds `site.yaml` as it is now.)
        if settingsEdited {
            guard content.site.differsOnlyInWhatPagesShow(from: site) else {
                return giveUp("the site's settings changed in more than what pages show of them", &timer)
            }
            // (Its problems, and a thread secret the new title makes weak, are the full build's to show.)
            guard !loaded.diagnostics.contains(where: { $0.file == ContentLayout.site }), memory.problemCounts()[ContentLayout.site] ?? 0 == 0,
                  options.secret.map({ Passphrase.secretWeakness($0, siteTitle: content.site.title) == nil }) ?? true else {
                return giveUp("site.yaml has problems", &timer)
            }
            model = model.with(site: content.site)
        }
        // Pages of a members-only group are sealed with keys the build that loads everything derives.
        if !options.passphrases.isEmpty, content.groups.contains(where: { $0.visibility == .members }) { return giveUp("a members-only group", &timer) }
        timer.lap("load the files of \(changed.count) edited record\(changed.count == 1 ? "" : "s") and what they reach (\(content.members.count) members, \(content.reports.count) reports)")

        // The rules over the files whose problems the edit can reach, after the edit and before
        // it: what they find before it must be what the last build found there (else a problem
        // this build cannot see, a photo's, counts), and the difference is the edit's.
        // A deleted report's rules would look again at the members who follow it, or follow one
        // that is not there, among every report; the slice holds few. The model takes it out only
        // when none follows it (`ModelBuilder.replace`), and a report followed that is not there
        // is an error the last build did not have: none of its rules is left; its own problems
        // before were those of its reading.
        let goneReports = removed.filter { FileRole.of($0).isReport }
        var (checked, problems) = Checker.check(content, records: changed.subtracting(goneReports))
        let (checkedBefore, problemsBefore) = Checker.check(loaded.before, records: checked.subtracting(added).subtracting(goneReports))
        checked.formUnion(goneReports)
        // (Without passphrases, the members-only groups' warnings: nothing of them is published.)
        func unsealed(_ content: Content) -> [Diagnostic] {
            var sealing = SealingStage()
            return options.passphrases.isEmpty ? sealing.run(content, passphrases: [:]).1 : []
        }
        let found = (loaded.diagnostics.filter { diagnostic in
            if albums.contains(diagnostic.file), case .emptyAlbum = diagnostic.problem { return false }
            return !changed.contains(diagnostic.file) || ContentLoader.isOfJoinedFiles(diagnostic.problem)
        } + loaded.problems
                     + problems + unsealed(content) + CheckStage.labelProblems(content, theme: theme)).filter { checked.contains($0.file) }
        // (A deleted report's own problems before it, a link in its text among them, from its
        // rules over the slice: any other its rules find there would not be the last build's,
        // and gives way below.)
        let goneBefore = goneReports.isEmpty ? [] : Checker.check(loaded.before, records: goneReports).1.filter { goneReports.contains($0.file) }
        let foundBefore = (loaded.diagnostics + problemsBefore + goneBefore + unsealed(loaded.before) + CheckStage.labelProblems(loaded.before, theme: theme))
            .filter { checked.contains($0.file) }
        let lastCounts = memory.problemCounts()
        var (counts, countsBefore): ([String: Int], [String: Int]) = ([:], [:])
        for problem in found { counts[problem.file, default: 0] += 1 }
        for problem in foundBefore { countsBefore[problem.file, default: 0] += 1 }
        guard !found.hasErrors, problems.allSatisfy({ checked.contains($0.file) }),
              checked.subtracting(added).subtracting(goneReports).isSubset(of: checkedBefore),
              checked.allSatisfy({ countsBefore[$0] ?? 0 == lastCounts[$0] ?? 0 }) else {
            return giveUp("the rules found problems the last build did not, or this build cannot see some it did", &timer)
        }
        // The problems of the files whose problems changed, and of the edited ones, shown as a
        // full build shows them; the others were shown by the builds that found them.
        let shown = Set(changed.subtracting(removed)).union(checked.filter { counts[$0] ?? 0 != countsBefore[$0] ?? 0 })
        let diagnostics = found.filter { shown.contains($0.file) }.sorted().map { $0.under(content.displayRoot) }
        var problemCounts = lastCounts
        for file in checked { problemCounts[file] = counts[file] }
        let warningsAdded = checked.reduce(0) { $0 + (counts[$1] ?? 0) - (countsBefore[$1] ?? 0) }
        guard let captureTimes = mediaAsBefore(loaded, model: model) else { return giveUp("the media are made from other things", &timer) }
        timer.lap("check (\(checked.count) files)")
        guard let media = mediaChange(content, model: model, site: site) else { return giveUp("a photo cannot be published by itself", &timer) }
        if !photos.isEmpty { timer.lap("images (\(photos.count) edited, \(media.made) variants made)") }
        // (The photos of the albums the edit changes, by file, with their slugs before it.)
        let keys = albums.compactMap { file -> AlbumKey? in
            guard case .album(let group, let id) = FileRole.of(file) else { return nil }
            return AlbumKey(group: group, album: id)
        }
        let slugsBefore = Dictionary(uniqueKeysWithValues: keys.map { key in
            (key, Dictionary((model.album(key)?.photos ?? []).map { ($0.file, $0.slug) }, uniquingKeysWith: { a, _ in a }))
        })

        // (The orders of reports read when the others were written: from the memory, report by report.)
        let times: @Sendable (String) -> ReportClock? = { [memory] id in
            guard let times = (try? memory.piece(Dependency.reportTimes(id).key, as: ReportTimes.self)) ?? nil,
                  let replies = (try? memory.piece(Dependency.reportReplies(id).key, as: ReportReplies.self)) ?? nil else { return nil }
            return ReportClock(at: times.at, replies: replies.replies.map(\.at))
        }
        guard let change = ModelBuilder.replace(records: changed.union(albums), added: added.subtracting(photos), in: &model, from: content,
                                                history: model.revisions, captureTimes: captureTimes.merging(media.captureTimes) { _, new in new },
                                                sealed: [], times: times),
              let photoPages = photoOutputs(slugsBefore, model: model).map({ ($0.new + media.maps.new.map { .geoJSON(.album($0)) },
                                                                              $0.gone + media.maps.gone.map { .geoJSON(.album($0)) }) }),
              let (newOutputs, goneOutputs) = outputChanges(change, loaded, model, photoPages: photoPages) else {
            return giveUp("the model changes further than its pieces", &timer)
        }
        timer.lap("model (pieces made again)")

        // Bodies, then facts: those of the pieces made again, compared with the memory's.
        let threadKeys = options.secret.flatMap(ThreadKeys.init(secret:))
        let jobs = BodiesStage.jobs(model, change: change, threadKeys: threadKeys)
        var bodies = BodiesStage()
        var facts: [(key: String, value: [UInt8]?)] = []
        var oldFacts: [String: [UInt8]] = [:]
        let changedBodies: Set<String>
        do {
            bodies.digests = try memory.bodyDigests(jobs.map(\.file))
            changedBodies = bodies.update(model, change: change, threadKeys: threadKeys)
            facts = Facts.facts(of: change, model: model, images: media.catalog, bodies: bodies.digests, texts: bodies.bodies,
                                changedBodies: changedBodies)
            oldFacts = try memory.facts(facts.map(\.key))
        } catch {
            return giveUp("the bodies or facts could not be read", &timer)
        }
        var changedFacts = facts.filter { oldFacts[$0.key] != $0.value }
        if settingsEdited {
            let settings = Hashing.sha256(Array((content.sources[ContentLayout.site] ?? "").utf8))
            guard let before = try? memory.facts([Facts.siteKey]) else { return giveUp("the facts could not be read", &timer) }
            if before[Facts.siteKey] != settings { changedFacts.append((Facts.siteKey, settings)) }
        }
        // An edit of the theme's templates: their facts (its texts and assets, which every page
        // reads and the output publishes, are the build's that loads everything).
        if themeEdited {
            let now = Facts.theme(theme)
            guard let before = try? memory.facts(now.keys) else { return giveUp("the facts could not be read", &timer) }
            guard before[Dependency.theme.key] == now[Dependency.theme.key] else { return giveUp("the theme's texts or assets changed", &timer) }
            changedFacts += now.filter { before[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { ($0.key, Optional($0.value)) }
        }
        // The reads of every report's or member's views, from the facts they stand for.
        do {
            let keys = Set(changedFacts.compactMap { Dependency.every(covering: $0.key)?.key })
            let sums = try memory.facts(keys)
            let changes = changedFacts.map { (key: $0.key, old: oldFacts[$0.key], new: $0.value) }
            guard let everies = Facts.everies(after: changes, current: { sums[$0] }) else { return giveUp("the facts could not be summed", &timer) }
            changedFacts += everies.filter { sums[$0.key] != $0.value }.map { ($0.key, Optional($0.value)) }
        } catch {
            return giveUp("the facts could not be read", &timer)
        }
        timer.lap("markdown (\(changedBodies.count) bodies) and facts (\(changedFacts.count) changed\(changedFacts.count <= 12 ? ": " + changedFacts.map(\.key).sorted().joined(separator: ", ") : ""))")

        // The outputs that read a changed fact, from what each output read at the last build,
        // but for those the edit takes out; and where those were.
        let stale: [RememberedOutput]
        let vanished: [String: String]
        do {
            let goneKeys = Set(goneOutputs.map(\.key))
            stale = try memory.readers(of: Set(changedFacts.map(\.key))).filter { !goneKeys.contains($0.key) }
            guard let paths = try memory.paths(of: goneKeys) else { throw Unfit(reason: "an output taken out") }
            vanished = paths
        } catch {
            return giveUp("the outputs' reads could not be read", &timer)
        }
        timer.lap("outputs to render (\(stale.count)\(newOutputs.isEmpty ? "" : ", and \(newOutputs.count) new")\(vanished.isEmpty ? "" : "; \(vanished.count) gone"))")

        // What renders: the model the update made, over the memory's; without the pieces the edit
        // took out (their facts are no more).
        let gone = Set(changedFacts.filter { $0.value == nil }.map(\.key))
        let rendered = Dictionary(uniqueKeysWithValues: changedBodies.compactMap { file in bodies.bodies[file].map { (file, $0) } })
        let source = memory.source(model: model, images: media.catalog, gone: gone, bodies: rendered, changed: changedFacts.map(\.key))
        let renderer = Renderer(
            source: source.model, theme: theme,
            options: RenderOptions(pageFooterInjection: options.pageFooterInjection, leaflet: Leaflet(folder: options.leaflet)?.assets,
                                   threadKeys: threadKeys, search: searching, sitemapSplit: options.sitemapSplit))
        // The search index's shards whose records read a changed fact, made again (Pagefind runs
        // before anything is written: a failure still leaves the edit to the full build).
        var search = SearchChange()
        if searching {
            guard let change = searchChange(renderer, site: site, changed: Set(changedFacts.map(\.key))) else {
                return giveUp("the search index changes further than its shards, or Pagefind failed", &timer)
            }
            search = change
            timer.lap("search (\(search.remade.count) of its indexes again, \(search.indexed) by Pagefind)")
        }
        return Plan(loaded: loaded, model: model, diagnostics: diagnostics, problemCounts: problemCounts, warningsAdded: warningsAdded,
                    changedFacts: changedFacts, gone: gone, bodies: bodies, changedBodies: changedBodies, stale: stale,
                    newOutputs: newOutputs, vanished: vanished, source: source, renderer: renderer, search: search, media: media)
    }

    /// The slice of the content as the last build read it (each file's record from the store,
    /// the edited files' as they were), then with the edited records made again in place.
    private func load(slice: ContentSlice, changed: Set<String>, albums: Set<String>, timer: inout PhaseTimer) throws -> Loaded {
        let loaded = try memory.contentBefore(slice, edited: changed.subtracting(photos), added: added, removed: removed, options: options,
                                              timer: &timer)
        var (state, content) = (loaded.state, loaded.content)
        // (An edit of the theme alone: the content as it was.)
        if changed.isEmpty { return Loaded(content: content, before: content, diagnostics: loaded.diagnostics, problems: [], state: state) }
        guard let (new, problems, joined) = ContentLoader.reloadInPlace(&state, content: &content, diagnostics: loaded.diagnostics,
                                                                        fs: loaded.fs, changed: changed, tolerating: true),
              new == added.subtracting(photos), joined == albums else {
            throw Unfit(reason: "the edited files read again")
        }
        timer.lap("    the edited records made again")
        return Loaded(content: content, before: loaded.content, diagnostics: loaded.diagnostics, problems: problems, state: state)
    }

    /// The members whose lists a new or deleted report or reply changes: its author; for a
    /// reply, every author of a reply to the same report, before and after.
    private func authors(_ loaded: Loaded) -> Set<String> {
        var authors: Set<String> = []
        for path in added.union(removed) {
            let id: String
            switch FileRole.of(path) {
            case .report(let area, let name, _), .reply(let area, let name, _): id = area + "/" + name
            default: continue
            }
            for content in [loaded.before, loaded.content] {
                guard let report = content.reportPosition(of: id).map({ content.reports[$0] }) else { continue }
                let replies = FileRole.of(path).isReport ? [] : report.replies.map(\.author.value)
                authors.formUnion(([report.author.value] + replies).compactMap(content.memberIndex.resolve))
            }
        }
        return authors
    }

    /// The outputs the edit adds (a new report's page; a report's reply feed at its first reply)
    /// and those it takes out (a deleted report's page; a reply feed whose last reply is
    /// deleted), when it changes which outputs there are only so; nil when it changes them
    /// otherwise (an event's calendars; check-ins of a member who had none).
    private func outputChanges(_ change: ModelChange, _ loaded: Loaded, _ model: SiteModel,
                               photoPages: (new: [OutputID], gone: [OutputID])) -> (new: [OutputID], gone: [OutputID])? {
        // (A photo replaced by one with a position, or without, may bring its album's map or take it.)
        guard change.outputsMayChange || !photoPages.new.isEmpty || !photoPages.gone.isEmpty else { return ([], []) }
        guard change.sessions == nil else { return nil }
        var ids: Set<String> = []
        for path in added.union(removed).subtracting(photos) {
            switch FileRole.of(path) {
            case .report(let area, let name, _), .reply(let area, let name, _): ids.insert(area + "/" + name)
            default: return nil
            }
        }
        var (new, gone): ([OutputID], [OutputID]) = photoPages
        for id in ids.sorted() {
            let old = loaded.before.reportPosition(of: id).map { loaded.before.reports[$0] }
            let now = model.reports[id]
            guard old?.starts == nil, now?.starts == nil else { return nil }
            let (had, has) = (old.map { !$0.replies.isEmpty } ?? false, now.map { !$0.replies.isEmpty } ?? false)
            switch (old != nil, now != nil) {
            case (false, true): new.append(.report(id))
            case (true, false): gone.append(.report(id))
            default: break
            }
            if has && !had { new.append(.atom(.report(id))) }
            if had && !has { gone.append(.atom(.report(id))) }
        }
        // (A sitemap that becomes an index of parts, or one file again, is other outputs.)
        let reports = model.reportOrder.count
        let before = reports - new.count { if case .report = $0 { true } else { false } } + gone.count { if case .report = $0 { true } else { false } }
        guard SitemapPart.splits(reports: reports, past: options.sitemapSplit) == SitemapPart.splits(reports: before, past: options.sitemapSplit) else { return nil }
        return new.isEmpty && gone.isEmpty ? nil : (new, gone)
    }

    /// The pages of new album photos, and those of deleted ones: nil when the edit changes the
    /// slug of a photo that stays (a new one takes a name another had, or frees one). (Their
    /// albums' maps: `MediaChange.maps`.)
    private func photoOutputs(_ before: [AlbumKey: [String: String]], model: SiteModel) -> (new: [OutputID], gone: [OutputID])? {
        var pages: (new: [OutputID], gone: [OutputID]) = ([], [])
        for (key, old) in before.sorted(by: { $0.key.group + "/" + $0.key.album < $1.key.group + "/" + $1.key.album }) {
            // (An album of a group that is not published has no pages, before or after.)
            guard let album = model.album(key) else {
                if old.isEmpty { continue } else { return nil }
            }
            let now = Dictionary(album.photos.map { ($0.file, $0.slug) }, uniquingKeysWith: { a, _ in a })
            guard now.allSatisfy({ file, slug in old[file].map { $0 == slug } ?? true }) else { return nil }
            pages.new += now.filter { old[$0.key] == nil }.map(\.value).sorted().map { .photo(key, $0) }
            pages.gone += old.filter { now[$0.key] == nil }.map(\.value).sorted().map { .photo(key, $0) }
        }
        return pages
    }

    /// When each photo and video of the edited albums was taken, as far as their order needs it
    /// (their places in the last model's album); nil when an edit changes what the media are made
    /// of (a member's home, near which no photo's position is published; an album's map), or
    /// leaves a photo to be placed by a time the last model did not place it by.
    private func mediaAsBefore(_ loaded: Loaded, model: SiteModel) -> [String: Moment]? {
        var times: [String: Moment] = [:]
        for path in files {
            switch FileRole.of(path) {
            case .member(let id):
                guard let old = loaded.before.members.first(where: { $0.id == id }), let new = loaded.content.members.first(where: { $0.id == id }),
                      old.home == new.home else { return nil }
            case .album(let group, let id):
                guard let old = loaded.before.albums.first(where: { $0.group == group && $0.id == id }),
                      let new = loaded.content.albums.first(where: { $0.group == group && $0.id == id }), old.map == new.map else { return nil }
                // The photos no entry names are in the order they were taken; those were so before.
                func unnamed(_ album: Album) -> Set<String> { Set(album.imageFiles).subtracting(album.entries.map(\.file.value)) }
                guard unnamed(new).isSubset(of: unnamed(old)) else { return nil }
                for (place, photo) in (model.album(AlbumKey(group: group, album: id))?.photos ?? []).enumerated() {
                    times[photo.path] = Moment(seconds: Int64(place))
                }
            default:
                break
            }
        }
        return times
    }
}

extension RecordEdit {
    /// Changes the store's rows that this build changed, in one transaction: the edited files'
    /// scan rows and records, the facts that changed and the pieces whose fact changed, the
    /// bodies that changed, the outputs rendered (their hashes and what they read), the parts of
    /// outputs made for the fragment memory (`StoredFragments`), and the spare's differences
    /// (nil: nothing was written, the spare is as it was).
    private func save(_ loaded: ContentState, spareInode: UInt64, facts: [(key: String, value: [UInt8]?)], values: [(String, (any Encodable & Sendable)?)],
                      bodies: BodiesStage, changedBodies: Set<String>, outputs: [RenderStage.Rendered], old: [String: RememberedOutput],
                      gone: (outputs: [String], paths: [String]), fragments: [String: StoredFragments.Part], search: SearchChange,
                      media: (written: [(path: String, identity: String)], removed: [String]), differences: [String]?, problems: (counts: [String: Int], warnings: Int)?,
                      counts: (pages: Int, files: Int, images: Int)?) throws(BuildStore.Damaged) {
        let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
        var timer = PhaseTimer(enabled: options.timings)
        do {
            try store.queue.write { db in
                let putMeta = try db.makeStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                try putMeta.execute(arguments: ["saved", UUID().uuidString])
                try putMeta.execute(arguments: ["theme", next.theme])
                try putMeta.execute(arguments: ["live_inode", String(StoreSession.inode(output))])
                try putMeta.execute(arguments: ["spare_inode", String(spareInode)])
                // (The output was swapped and the spare written before: nothing of plein's changes them after this.)
                try putMeta.execute(arguments: ["output_time", String(OutputCheck.now(near: output))])
                if let problems {
                    let files = problems.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
                    try putMeta.execute(arguments: ["problem_files", files.joined(separator: "\n")])
                    try putMeta.execute(arguments: ["warnings", String(problems.warnings)])
                }
                if let counts {
                    try putMeta.execute(arguments: ["pages", String(counts.pages)])
                    try putMeta.execute(arguments: ["files", String(counts.files)])
                    try putMeta.execute(arguments: ["images", String(counts.images)])
                }
                try BuildStore.putScan(db, next.scanChanges)
                try BuildStore.putRecords(db, from: loaded, gone: update.removed)
                let dropBody = try db.makeStatement(sql: "DELETE FROM bodies WHERE file = ?")
                for file in update.removed { try dropBody.execute(arguments: [file]) }
                timer.lap("    save: meta, scan and records")
                let putFact = try db.makeStatement(sql: "INSERT OR REPLACE INTO facts (key, hash) VALUES (?, ?)")
                let dropFact = try db.makeStatement(sql: "DELETE FROM facts WHERE key = ?")
                for (key, hash) in facts {
                    if let hash { try putFact.execute(arguments: [key, Data(hash)]) } else { try dropFact.execute(arguments: [key]) }
                }
                let putValue = try db.makeStatement(sql: "INSERT OR REPLACE INTO model_values (key, value) VALUES (?, ?)")
                let dropValue = try db.makeStatement(sql: "DELETE FROM model_values WHERE key = ?")
                for (key, value) in values {
                    if let value { try putValue.execute(arguments: [key, Data(ModelValues.encode(value))]) } else { try dropValue.execute(arguments: [key]) }
                }
                timer.lap("    save: facts and values")
                let putBody = try BuildStore.bodyStatement(db)
                for file in changedBodies.sorted() {
                    guard let body = bodies.bodies[file] else { continue }
                    try BuildStore.put(body, file: file, digest: bodies.digests[file] ?? [], with: putBody)
                }
                var keyIDs: [String: Int32] = [:]
                var nextID = try Int32.fetchOne(db, sql: "SELECT coalesce(max(id), -1) + 1 FROM dependency_keys") ?? 0
                // (Tens of thousands of keys for a page that lists every report: through SQLite's own calls.)
                let findKey = try RawStatement(db, "SELECT id FROM dependency_keys WHERE key = ?")
                let putKey = try RawStatement(db, "INSERT INTO dependency_keys (id, key) VALUES (?, ?)")
                let putOutput = try db.makeStatement(sql: "INSERT OR REPLACE INTO outputs (id, path, hash, dependencies, reads) VALUES (?, ?, ?, ?, ?)")
                let putHash = try db.makeStatement(sql: "UPDATE outputs SET hash = ? WHERE id = ?")
                func ids(_ dependencies: Set<Dependency>) throws -> [Int32] {
                    var reads: [Int32] = []
                    for key in dependencies.map(\.key) {
                        if let id = keyIDs[key] {
                            reads.append(id)
                        } else if let id = try findKey.integer(.text(key)).map(Int32.init) {
                            keyIDs[key] = id
                            reads.append(id)
                        } else {
                            try putKey.run(.integer(Int64(nextID)), .text(key))
                            keyIDs[key] = nextID
                            reads.append(nextID)
                            nextID += 1
                        }
                    }
                    return reads.sorted()
                }
                timer.lap("    save: bodies")
                for output in outputs {
                    // An output that read what it read before keeps its reads; its hash is written.
                    let digest = ReadsDigest.digest(output.dependencies.lazy.map(ReadsDigest.hash))
                    if let before = old[output.id.key], before.reads == digest {
                        if before.hash != output.hash { try putHash.execute(arguments: [Data(output.hash), output.id.key]) }
                        continue
                    }
                    try putOutput.execute(arguments: [output.id.key, output.file.path, Data(output.hash), BuildStore.pack(try ids(output.dependencies)), Data(digest)])
                }
                // The search index's shards made again, and their files.
                let putIndex = try db.makeStatement(sql: "UPDATE search_indexes SET key = ?, dependencies = ? WHERE name = ?")
                for index in search.remade { try putIndex.execute(arguments: [index.key, BuildStore.pack(try ids(index.reads)), index.name]) }
                let putPublished = try db.makeStatement(sql: "INSERT OR REPLACE INTO published (path, identity) VALUES (?, ?)")
                for (path, identity) in search.identities + media.written { try putPublished.execute(arguments: [path, identity]) }
                let dropPublished = try db.makeStatement(sql: "DELETE FROM published WHERE path = ?")
                for path in search.removed + media.removed { try dropPublished.execute(arguments: [path]) }
                let dropOutput = try db.makeStatement(sql: "DELETE FROM outputs WHERE id = ?")
                for key in gone.outputs { try dropOutput.execute(arguments: [key]) }
                timer.lap("    save: outputs and the search's files")
                try StoredFragments.forget(readersOf: facts.map(\.key), db)
                try StoredFragments.save(fragments, db)
                timer.lap("    save: fragments")
                if let differences {
                    try db.execute(sql: "DELETE FROM differences")
                    let putDifference = try db.makeStatement(sql: "INSERT INTO differences (path, vanished) VALUES (?, ?)")
                    for path in differences { try putDifference.execute(arguments: [path, 0]) }
                    for path in gone.paths { try putDifference.execute(arguments: [path, 1]) }
                }
            }
        } catch {
            throw BuildStore.Damaged(reason: "\(error)")
        }
    }
}
