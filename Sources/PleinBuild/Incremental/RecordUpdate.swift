import Foundation
import GRDB
import GRDBSQLite
import PleinCheck
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// The update of edited records, over what a memory of the last build holds (`BuildMemory`):
/// what `RecordEdit` renders, writes and keeps (see there); nil wherever the edit reaches
/// further, for the build that loads everything.
struct RecordUpdate {
    let options: BuildOptions
    let memory: any BuildMemory
    let files: [String]
    /// Of `files`, the new ones: reports of one file, replies, events, goals, pages and members.
    let added: Set<String>
    /// Of `files`, the deleted ones: reports of one file, replies, events and goals.
    let removed: Set<String>
    /// Whether the theme changed since the last build: the outputs that read one of its templates
    /// that changed are rendered again.
    var themeEdited = false
    /// The files whose history moved with HEAD since the last build, and their revisions now
    /// (`GitHistory.moved`), in place of those the last model had.
    var historyMoved: (files: Set<String>, history: History) = ([], History())

    /// What the memory could not give.
    private struct Unfit: Error { var reason = "" }

    /// The last model's history with the files whose history moved as it is now (a file no
    /// longer in it has none).
    private func revised(_ history: History) -> History {
        var history = history
        for file in historyMoved.files { history.files[file] = historyMoved.history.files[file] }
        return history
    }

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
        // A new member's address written in a text is a warning there, which only the rules over
        // every text find: the build that loads everything looks.
        let addresses = added.compactMap { path in FileRole.of(path).isMember ? content.members.first { $0.file == path }?.email : nil }
        if !addresses.isEmpty {
            guard let writing = try? memory.files(writing: addresses), writing.isEmpty else {
                return giveUp("a new member's address may be written in a text", &timer)
            }
        }
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
                                                history: revised(model.revisions), captureTimes: captureTimes.merging(media.captureTimes) { _, new in new },
                                                sealed: [], times: times, now: options.buildTime),
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
            let settings = Facts.settings(content.sources[ContentLayout.site] ?? "")
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
}
