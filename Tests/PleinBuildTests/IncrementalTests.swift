import Foundation
import GRDB
import PleinCore
import PleinLoad
import PleinModel
import PleinRender
@testable import PleinBuild
import PleinImages
import Testing

/// The dev server rebuilds only what an edit touches; what it then serves must be exactly what
/// a fresh full build of the same files gives.
@Suite(.serialized) struct IncrementalTests {
    struct Site {
        let dir = TempDir()
        var content: String { dir.path + "/content" }
        var templates: String { dir.path + "/templates" }
        var options: BuildOptions {
            var o = BuildOptions(content: content, templates: templates, output: dir.path + "/public", cache: Repo.cache("incremental"))
            o.secret = Array("incremental-secret".utf8)
            return o
        }

        init() throws {
            try copyTree(Repo.content, to: dir.path + "/content")
            try copyTree(Repo.templates, to: dir.path + "/templates")
        }

        /// Options for `plein build` with a build store of its own (the shared media seeded).
        func storeOptions() -> BuildOptions {
            var o = options
            o.cache = dir.path + "/cache"
            SharedMedia.seed(dir.path + "/cache")
            return o
        }

        /// Options for `plein build` with a build store of its own and no search, and for a
        /// clean build of the same files beside it (no store; the same media).
        func storeAndClean() -> (store: BuildOptions, clean: BuildOptions) {
            var store = storeOptions()
            store.pagefind = nil
            var clean = options
            (clean.output, clean.remember, clean.pagefind, clean.cache) = (dir.path + "/clean", false, nil, store.cache)
            return (store, clean)
        }

        func edit(_ path: String, _ change: (String) -> String) throws {
            let text = try String(contentsOfFile: content + "/" + path, encoding: .utf8)
            let changed = change(text)
            #expect(changed != text, "the edit of \(path) changed nothing")
            try changed.write(toFile: content + "/" + path, atomically: true, encoding: .utf8)
        }

        func write(_ path: String, _ text: String) throws {
            try FileManager.default.createDirectory(atPath: ((content + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: content + "/" + path, atomically: true, encoding: .utf8)
        }
    }

    /// Served files as comparable values.
    func flatten(_ files: ServedFiles) -> [String: String] {
        files.dictionary.mapValues { served in
            switch served {
            case .bytes(let b): return "bytes:" + Hashing.sha256Hex(b)
            case .disk(let path): return "disk:" + path
            }
        }
    }

    func expectSameAsFullBuild(_ state: SiteState, _ site: Site, _ label: String) {
        let fresh = SiteState(site.options, tracking: false)
        let built = fresh.succeeded
        let problems = fresh.diagnostics.filter { $0.severity == .error }.map { "\($0.file): \($0.message)" }
        #expect(built, "\(label): \(problems)")
        let a = flatten(state.files), b = flatten(fresh.files)
        #expect(a.keys.sorted() == b.keys.sorted(), "\(label): different files: \(Set(a.keys).symmetricDifference(b.keys).sorted().prefix(8))")
        let differing = a.keys.filter { b[$0] != nil && a[$0] != b[$0] }.sorted()
        #expect(differing.isEmpty, "\(label): incremental output differs in \(differing.prefix(8))")
        #expect(state.diagnostics == fresh.diagnostics, "\(label): the problems differ: \(Set(state.diagnostics).symmetricDifference(fresh.diagnostics).map(\.message).prefix(4))")
    }

    /// The facts an update changed in place are those made of the whole model.
    func expectFactsOfTheWholeModel(_ state: SiteState, _ site: Site, _ label: String) {
        if let model = state.last.model, let settings = try? String(contentsOfFile: site.content + "/site.yaml", encoding: .utf8) {
            let whole = Facts(model, settings: settings, bodies: state.last.bodies.digests, texts: state.last.bodies.bodies,
                              images: state.last.catalog, theme: state.theme)
            #expect(state.last.facts == whole, "\(label): facts as made of the whole model")
        }
    }

    /// Aggregates update only when an edit changes what they show: editing the end of an old
    /// report's body (past its summary, outside the feeds' window) renders its own page and
    /// feeds and its author's feeds, not the site feed, the area list, the maps or the sitemap.
    @Test func anEditOutsideWhatAggregatesShowRendersOnlyWhatShowsIt() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let options = site.storeOptions()
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "limit: 50", with: "limit: 3") }
        let report = "reports/1011/2026-08-22-nachtmarkt-nieuwmarkt.md", id = "1011/2026-08-22-nachtmarkt-nieuwmarkt"
        let paragraph = "\n" + String(repeating: "Een lange alinea over de nachtmarkt, zodat de samenvatting vol is. ", count: 8) + "\n"
        try site.edit(report) { $0 + paragraph }
        #expect(Pipeline.build(options).succeeded)
        try site.edit(report) { $0 + "\nEen zin aan het eind.\n" }
        let edited = Pipeline.build(options)
        #expect(edited.succeeded)
        let allowed: Set = ["report:" + id, "atom:report/" + id, "json-feed:report/" + id]
        let others = edited.renderedOutputs.filter { !allowed.contains($0) && !$0.hasPrefix("atom:member/") && !$0.hasPrefix("json-feed:member/") }
        #expect(edited.renderedOutputs.contains("report:" + id))
        #expect(others == [], "rendered again although what they show did not change")

        // The same edit at the start of the body changes the summaries lists and maps show.
        try site.edit(report) { text in
            let end = text.range(of: "\n---\n")!.upperBound
            return String(text[..<end]) + "Vooraf: " + String(text[end...])
        }
        let early = Pipeline.build(options)
        #expect(early.renderedOutputs.contains("geojson:reports") && early.renderedOutputs.contains("area:1011"))
        var fresh = options
        fresh.output = site.dir.path + "/fresh"
        fresh.fresh = true
        #expect(Pipeline.build(fresh).succeeded)
        #expect(snapshotTree(options.output) == snapshotTree(fresh.output))
    }

    /// The theme is an input like the content: `plein build` after an edit of one partial renders
    /// only the pages whose template uses it (no feed, map or page without it), from the build
    /// store, without loading the content (`RecordEdit`), alone or with an edit of a record; an
    /// edit of its assets (every page's) too; and the output equals a fresh build's.
    @Test func aPartialEditRendersOnlyThePagesThatUseIt() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (options, clean) = site.storeAndClean()
        let first = Pipeline.build(options)
        #expect(first.succeeded)
        let partial = site.templates + "/partials/report-card.mustache"
        let text = try String(contentsOfFile: partial, encoding: .utf8)
        try text.replacingOccurrences(of: "class=\"summary\"", with: "class=\"summary card-text\"").write(toFile: partial, atomically: true, encoding: .utf8)
        let edited = Pipeline.build(options)
        #expect(edited.succeeded && edited.fullBuildReason == nil, "\(edited.fullBuildReason ?? "")")
        #expect(edited.recordByRecord, "a template's edit is taken from the store")
        #expect(!edited.unchanged && !edited.renderedOutputs.isEmpty)
        let theme = try #require(ThemeLoader.load(options.themeFiles, language: .nl).0)
        let users = Set(theme.templates.keys.filter { theme.closure(of: $0).contains("report-card") })
        #expect(users.contains("area") && !users.contains("report"), "\(users.sorted())")
        let strays = edited.renderedOutputs.filter { key in
            let template = OutputID.Kind(rawValue: String(key.prefix { $0 != ":" }))?.template
            return !users.contains(template ?? "")
        }
        #expect(strays == [], "rendered although their template does not use the partial")
        #expect(edited.rendered ?? 0 < first.files / 4)
        Self.expectSame(options, asClean: clean, "a partial")
        // A page template and a report at once; then the stylesheet (an asset every page names).
        let group = site.templates + "/pages/group.mustache"
        try (try String(contentsOfFile: group, encoding: .utf8)).replacingOccurrences(of: "{{/main}}", with: "<p>Groepsvoet</p>\n{{/main}}")
            .write(toFile: group, atomically: true, encoding: .utf8)
        try site.edit("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md") { $0 + "\nEen zin erbij.\n" }
        let both = Pipeline.build(options)
        #expect(both.succeeded && both.recordByRecord, "a template and a report: \(both.fullBuildReason ?? "no reason given")")
        #expect(both.renderedOutputs.contains("group:duikclub-de-zeehond") && both.renderedOutputs.contains { $0.hasPrefix("report:") },
                "\(both.renderedOutputs)")
        Self.expectSame(options, asClean: clean, "a template and a report")
        let style = site.templates + "/assets/style.css"
        try (try String(contentsOfFile: style, encoding: .utf8) + "\n.groepsvoet { color: red; }\n").write(toFile: style, atomically: true, encoding: .utf8)
        #expect(Pipeline.build(options).succeeded)
        Self.expectSame(options, asClean: clean, "the stylesheet")
    }

    /// A members-only group's pages are written where `Routes.path(of:)` puts them too (their
    /// sealed addresses), and its feeds and data are not listed at all.
    @Test func aSealedGroupsOutputsAreWrittenWhereRoutesPutsThem() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var options = BuildOptions.test(output: dir.path + "/public", suite: "incremental")
        options.secret = Array("incremental-secret".utf8)
        options.passphrases = ["PLEIN_PASSPHRASE_ZEEHOND_LEDEN": "kelder-fles-ventiel-lamp-2027"]
        let state = SiteState(options, tracking: true)
        #expect(state.sealing["zeehond-leden"] != nil)
        let renderer = try #require(state.searchingRenderer(sealing: state.sealing))
        let outputs = renderer.outputs()
        let sealed = outputs.filter { renderer.file(of: $0).contains("/sealed/") }
        // (Its albums, photos, events and leaderboard; its own page keeps its address.)
        #expect(sealed.count >= 5 && sealed.allSatisfy(\.isGroupPage), "\(sealed.map(\.key))")
        #expect(!outputs.contains(.atom(.group("zeehond-leden"))) && !outputs.contains(.calendar(.group("zeehond-leden"))))
        for id in outputs {
            #expect(renderer.render(id).path == renderer.file(of: id), "\(id.key)")
        }
    }

    /// `OutputID.Kind` is the one table of what each kind of output is rendered with: every page
    /// of the demo (threads and the search page included) reads exactly its kind's template, and
    /// feeds, maps and data read none. A kind whose renderer asked for another template than the
    /// table says would escape the theme's check (`Theme.requiredTemplates`) and the graph. And
    /// each output's key names it (`OutputID(key:)`), and it is written where `Routes.path(of:)`
    /// says, for every kind.
    @Test func everyOutputReadsTheTemplateItsKindNames() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var options = BuildOptions.test(output: dir.path + "/public", suite: "incremental")
        options.secret = Array("incremental-secret".utf8)
        let state = SiteState(options, tracking: true)
        let renderer = try #require(state.searchingRenderer())
        var kinds: Set<OutputID.Kind> = []
        for id in renderer.outputs() {
            kinds.insert(id.kind)
            // The build store names outputs by key; a build after an edit renders them from it.
            #expect(OutputID(key: id.key) == id, "\(id.key) does not name its output")
            let (file, reads) = renderer.renderTracked(id)
            // `Routes.path(of:)` is the one table of where outputs live: each renderer writes there.
            #expect(file.path == renderer.file(of: id), "\(id.key) was written to \(file.path), not to \(renderer.file(of: id))")
            let templates = reads.compactMap { dependency -> String? in
                dependency.kind == .template ? dependency.id : nil
            }
            // A thread's page is sealed into the page that opens it (`SealedPage`).
            // The service worker's version is a hash of what it keeps, the offline page among it.
            let sealed = id.kind == .thread ? ["sealed"] : id.kind == .serviceWorker ? ["offline"] : []
            #expect(Set(templates) == Set((id.template.map { [$0] } ?? []) + sealed) && templates.count == Set(templates).count,
                    "\(id.key) read the templates \(templates)")
        }
        // (The demo's sitemap is one file: its parts are `aLargeSitemapIsAnIndexOfParts`'s.)
        #expect(kinds == Set(OutputID.Kind.allCases).subtracting([.sitemapPart]), "the demo lacks \(Set(OutputID.Kind.allCases).subtracting(kinds))")

        // Pages that read a view of every report (the sitemap, the site's feed, the map of every
        // report, the list of areas) record it as one read (`Dependency.everies`), not one per
        // report; a page of some reports (an area's) records each. (That the fact of the one
        // read changes with those it stands for, `Facts.update` included, is
        // `recordEditsAreRedoneRecordByRecord`'s.)
        func reads(_ id: OutputID) -> Set<Dependency> { renderer.renderTracked(id).1 }
        func perReport(_ reads: Set<Dependency>) -> [Dependency] {
            reads.filter { [.reportHeadline, .reportTimes].contains($0.kind) }.sorted { $0.key < $1.key }
        }
        // (The site's feed, the list of areas and the sitemap's events read the few reports they
        // show, each.)
        for id in [OutputID.sitemap, .atom(.site), .areas, .geoJSON(.reports)] {
            let read = reads(id)
            let each = perReport(read).filter { $0.kind == .reportTimes || id == .geoJSON(.reports) }
            #expect(each.isEmpty, "\(id.key) read \(each.prefix(3).map(\.key))")
            #expect(!read.isDisjoint(with: [.everyReportHeadline, .everyReportTimes]), "\(id.key) read no view of every report")
        }
        let area = try #require(renderer.outputs().first { if case .area = $0 { true } else { false } })
        #expect(!perReport(reads(area)).isEmpty && !reads(area).contains(.everyReportHeadline))
    }

    /// `plein serve` starts from the records a build kept (reading only the files edited since),
    /// serves what a full build makes, and keeps the records it read for the next build.
    @Test func serveSharesTheRecordsOfTheBuildStore() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let options = site.options
        #expect(Pipeline.build(options).succeeded)
        let report = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        try site.edit(report) { $0 + "\nEen zin die er net bij kwam.\n" }

        var state = SiteState(options, tracking: true, sharingRecords: true)
        state.finishKeepingRecords()
        expectSameAsFullBuild(state, site, "serve from the build's records")
        try site.edit(report) { $0 + "\nNog een zin.\n" }
        _ = state.update(content: [report], templates: [])
        state.finishKeepingRecords()
        expectSameAsFullBuild(state, site, "serve after an edit")

        let store = try BuildStore.open(cacheRoot: options.cacheRoot).store
        let scan = ContentScan(root: site.content, previous: nil)
        let known = try store.readRecords(matching: scan.files).known
        #expect(known.records[report] != nil, "the record serve read is kept, for the file as it is now")
        // The demo has no file with a problem: every record is kept.
        let readable = scan.files.keys.filter { ($0.hasSuffix(".md") || $0.hasSuffix(".yaml")) && $0 != "site.yaml" }
        #expect(Set(readable).subtracting(known.records.keys).sorted() == [])
    }

    /// Not a byte of a private group: the demo's private family album (two photos and a video)
    /// gives no file, in `serve` or in `build`, and a group turned private takes every file made
    /// from its photos with it, though its variants stay in the cache.
    @Test func aPrivateGroupsPhotosAndVideoAreNeitherWrittenNorServed() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let group = "groups/familie-bakker/index.md"
        let album = site.content + "/groups/familie-bakker/albums/kerst-bij-opa-en-oma"
        let originals = try FileManager.default.contentsOfDirectory(atPath: album).filter { !$0.hasSuffix(".md") }.sorted()
        #expect(originals.count == 3, "the demo's private album holds two photos and a video: \(originals)")
        // Every file made from a photo or video is published in a folder named by the original's hash.
        let folders = try originals.map { name in
            "media/" + Hashing.sha256Hex(Array(try Data(contentsOf: URL(fileURLWithPath: album + "/" + name)))).prefix(16) + "/"
        }
        func derived(_ paths: some Sequence<String>) -> [String] {
            paths.filter { path in folders.contains { path.hasPrefix($0) } }.sorted()
        }

        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        #expect(derived(state.files.keys) == [], "served while private")
        try site.edit(group) { $0.replacingOccurrences(of: "visibility: private", with: "visibility: public") }
        _ = state.update(content: [group], templates: [])
        let published = derived(state.files.keys)
        #expect(published.count > 10, "public, the album's photos, video and poster are served: \(published)")
        try site.edit(group) { $0.replacingOccurrences(of: "visibility: public", with: "visibility: private") }
        let update = state.update(content: [group], templates: [])
        #expect(derived(state.files.keys) == [], "served after the group turned private")
        #expect(Set(published).isSubset(of: Set(update.removed)), "the update names what it removed")
        expectSameAsFullBuild(state, site, "a group turned private")

        // `plein build` with the build store and --changed, public and then private again.
        var options = site.options
        options.listsChanges = true
        #expect(Pipeline.build(options).succeeded)
        #expect(derived(snapshotTree(options.output).keys) == [], "written while private")
        try site.edit(group) { $0.replacingOccurrences(of: "visibility: private", with: "visibility: public") }
        let opened = Pipeline.build(options)
        #expect(derived(opened.changes?.added ?? []) == published, "--changed lists the album's files as added")
        try site.edit(group) { $0.replacingOccurrences(of: "visibility: public", with: "visibility: private") }
        let closed = Pipeline.build(options)
        #expect(closed.succeeded)
        #expect(derived(snapshotTree(options.output).keys) == [], "written after the group turned private")
        #expect(derived(closed.changes?.removed ?? []) == published, "--changed lists the album's files as removed")
        #expect(derived(closed.changes?.added ?? []) + derived(closed.changes?.changed ?? []) == [])
    }

    @Test func incrementalEqualsFullForSingleEdits() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        let built = state.succeeded
        #expect(built)
        let total = state.outputCount

        let report = "reports/1094/2026-10-25-omgevallen-boom-timorplein.md"
        try site.edit(report) { $0.replacingOccurrences(of: "title: Omgewaaide boom", with: "title: Omgevallen boom") }
        var update = state.update(content: [report], templates: [])
        #expect(update.rendered > 0 && update.rendered < total / 4, "a title edit re-renders \(update.rendered) of \(total)")
        #expect(update.changed.contains("reports/1094/2026-10-25-omgevallen-boom-timorplein/index.html"))
        expectSameAsFullBuild(state, site, "change a report's title")

        let reply = "reports/1094/2026-10-10-auto-inbraken-celebesstraat/replies/20261121T0900-bram-van-dijk.md"
        try site.write(reply, "---\nauthor: bram-van-dijk\nat: 2026-11-21T09:00:00+01:00\n---\nIk heb ook iets gezien.\n")
        update = state.update(content: [reply], templates: [])
        #expect(update.changed.contains("reports/1094/2026-10-10-auto-inbraken-celebesstraat/feed.xml"))
        expectSameAsFullBuild(state, site, "add a reply")

        let goal = try FileManager.default.contentsOfDirectory(atPath: site.content + "/groups/oosterpark-fotografen/goals").sorted()
            .first { name in !((try? String(contentsOfFile: site.content + "/groups/oosterpark-fotografen/goals/" + name, encoding: .utf8))?.contains("completed_by") ?? true) }
        let goalPath = "groups/oosterpark-fotografen/goals/" + (try #require(goal))
        try site.edit(goalPath) { $0.replacingOccurrences(of: "\n---\n", with: "\ncompleted_by: anna-de-vries\ncompleted_at: 2026-11-20T18:00:00+01:00\n---\n") }
        update = state.update(content: [goalPath], templates: [])
        #expect(update.changed.contains("groups/oosterpark-fotografen/leaderboard/index.html"))
        expectSameAsFullBuild(state, site, "complete a goal")

        let checkins = "checkins/lucas-de-graaf.yaml"
        try site.edit(checkins) { $0 + "- location: oba-oosterdok\n  in: 2026-09-01T09:00:00+02:00\n  out: 2026-09-01T11:30:00+02:00\n" }
        _ = state.update(content: [checkins], templates: [])
        expectSameAsFullBuild(state, site, "add a check-in")

        let member = "users/anna-de-vries.md"
        try site.edit(member) { $0.replacingOccurrences(of: "name: Anna de Vries", with: "name: Anna de Vries-Bakker") }
        _ = state.update(content: [member], templates: [])
        expectSameAsFullBuild(state, site, "rename a member")

        let leaving = "users/lotte-smit.md"
        try site.edit(leaving) { $0.replacingOccurrences(of: "\n---\n", with: "\nleft: 2026-11-20\n---\n") }
        update = state.update(content: [leaving], templates: [])
        #expect(update.changed.contains("users/index.html") && update.changed.contains("users/lotte-smit/index.html"))
        expectSameAsFullBuild(state, site, "a member leaves")

        // A page of the site's own: a new one is linked from every menu; an edit of its text
        // renders its page (and the search), not every page with the menu.
        let page = "pages/zwemtijden.md"
        try site.write(page, "---\ntitle: Zwemtijden\norder: 5\n---\nElke dinsdag om **20:00**.\n")
        update = state.update(content: [page], templates: [])
        #expect(update.changed.contains("zwemtijden/index.html") && update.changed.contains("index.html"))
        expectSameAsFullBuild(state, site, "add a page of the site's own")
        try site.edit(page) { $0.replacingOccurrences(of: "20:00", with: "20:30") }
        update = state.update(content: [page], templates: [])
        #expect(update.changed.contains("zwemtijden/index.html") && !update.changed.contains("index.html") && update.rendered < 8,
                "an edit of a page's text re-renders \(update.rendered) outputs")
        expectSameAsFullBuild(state, site, "edit a page's text")

        let removed = "reports/1011"
        let victim = try FileManager.default.contentsOfDirectory(atPath: site.content + "/" + removed).sorted().first { $0.hasSuffix(".md") }!
        try FileManager.default.removeItem(atPath: site.content + "/" + removed + "/" + victim)
        update = state.update(content: [removed + "/" + victim], templates: [])
        #expect(!update.removed.isEmpty)
        expectSameAsFullBuild(state, site, "delete a report")

        let template = "partials/report-card.mustache"
        let templateText = try String(contentsOfFile: site.templates + "/" + template, encoding: .utf8)
        try templateText.replacingOccurrences(of: "class=\"summary\"", with: "class=\"summary card-text\"")
            .write(toFile: site.templates + "/" + template, atomically: true, encoding: .utf8)
        update = state.update(content: [], templates: [template])
        #expect(update.rendered < total, "a partial edit re-renders only the pages that use it")
        #expect(state.lastChange.modelled != nil, "a partial edit leaves the model as it was")
        expectSameAsFullBuild(state, site, "edit a template")
        expectFactsOfTheWholeModel(state, site, "edit a template")
        // The stylesheet: every page names it anew, and it is published under its new name.
        let style = site.templates + "/assets/style.css"
        try (try String(contentsOfFile: style, encoding: .utf8) + "\n.groepsvoet { color: red; }\n").write(toFile: style, atomically: true, encoding: .utf8)
        update = state.update(content: [], templates: ["assets/style.css"])
        #expect(state.lastChange.modelled != nil && update.changed.contains { $0.hasPrefix("assets/style.") && $0.hasSuffix(".css") },
                "\(update.changed.filter { $0.hasPrefix("assets/") })")
        expectSameAsFullBuild(state, site, "edit the stylesheet")
        expectFactsOfTheWholeModel(state, site, "edit the stylesheet")
        // A partial no page uses, added and taken away again: its fact comes and goes.
        let extra = "partials/extra-note.mustache"
        try "<p>{{title}}</p>\n".write(toFile: site.templates + "/" + extra, atomically: true, encoding: .utf8)
        _ = state.update(content: [], templates: [extra])
        expectFactsOfTheWholeModel(state, site, "a partial added")
        try FileManager.default.removeItem(atPath: site.templates + "/" + extra)
        _ = state.update(content: [], templates: [extra])
        expectSameAsFullBuild(state, site, "a partial taken away")
        expectFactsOfTheWholeModel(state, site, "a partial taken away")
    }

    /// The site's feed keeps its newest reports and replies from build to build and brings them
    /// up to date with the reports an edit changed: with six entries a feed (three of them group
    /// events), the kept ones are fewer than the reports, and new replies and a report whose time
    /// changed are chosen as a clean build chooses them.
    @Test func theSiteFeedBringsItsNewestReportsUpToDate() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "  limit: 50", with: "  limit: 6") }
        let (options, clean) = site.storeAndClean()
        #expect(Pipeline.build(options).succeeded)
        try Self.leaveAVouchedSpare(site, options)
        let replies = "reports/1018/2026-09-15-boomkap-plantage-middenlaan/replies/"
        let other = "reports/1094/2026-08-16-buurtbarbecue-javaplein/replies/"
        func reply(_ at: String, _ text: String) -> String { "---\nauthor: anna-de-vries\nat: \(at)\n---\n\(text)\n" }
        // (A report's time changed is a full build, which keeps the newest entries for the next edit.)
        let steps: [(String, () throws -> Void)] = [
            ("a reply, the newest of all", { try site.write(replies + "20261201T0900-anna-de-vries.md", reply("2026-12-01T09:00:00+01:00", "Eerste.")) }),
            ("a reply to another report, newer still", { try site.write(other + "20261202T0900-anna-de-vries.md", reply("2026-12-02T09:00:00+01:00", "Tweede.")) }),
            ("the newest report, earlier that day", {
                try site.edit("reports/1094/2026-11-19-inloop-energiecoach.md") { $0.replacingOccurrences(of: "at: 2026-11-19T15:25:00+01:00", with: "at: 2026-11-19T07:25:00+01:00") }
            }),
            ("a third reply, the newest", { try site.write(replies + "20261203T0900-anna-de-vries.md", reply("2026-12-03T09:00:00+01:00", "Derde.")) }),
        ]
        for (label, step) in steps {
            try step()
            let report = Pipeline.build(options)
            #expect(report.succeeded)
            if label.contains("reply") {
                #expect(report.recordByRecord && report.renderedOutputs.contains("atom:site"), "\(label): \(report.renderedOutputs)")
            }
            #expect(Pipeline.build(clean).succeeded)
            for feed in ["feed.xml", "feed.json"] {
                let (a, b) = (try? String(contentsOfFile: options.output + "/" + feed, encoding: .utf8), try? String(contentsOfFile: clean.output + "/" + feed, encoding: .utf8))
                #expect(a != nil && a == b, "\(label): \(feed) differs from a clean build's")
            }
        }
    }

    /// `serve` after an edit of `site.yaml` in what only pages show of it (the title) takes it in
    /// place, with the records edited beside it; after any other, it reads again only the files
    /// the edit changed (itself, and a report edited or a reply added in the same moment), unless
    /// the time zone changed, with which every date is read: then every file is read again. The
    /// site is a full build's every time.
    @Test func aNewSiteTitleReadsOnlyTheFilesThatChanged() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        let report = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        // A new title alone, and with a report: taken in place (every output renders again, the
        // model is the last one with the new settings).
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: ", with: "title: Het ") }
        let titled = state.update(content: ["site.yaml"], templates: [])
        #expect(state.lastChange.loaded == .records(["site.yaml"]) && state.lastChange.modelled?.settings == true)
        #expect(titled.rendered == state.last.ids.count, "a new title renders every output")
        expectSameAsFullBuild(state, site, "a new title")
        expectFactsOfTheWholeModel(state, site, "a new title")
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: Het ", with: "title: ") }
        try site.edit(report) { $0 + "\nEen regel vooraf.\n" }
        _ = state.update(content: ["site.yaml", report], templates: [])
        #expect(state.lastChange.loaded == .records(["site.yaml", report]) && state.lastChange.modelled?.settings == true)
        expectSameAsFullBuild(state, site, "the title back, and a report")
        expectFactsOfTheWholeModel(state, site, "the title back, and a report")
        // Settings that reach further than pages (the feeds' length) read the files again.
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: ", with: "title: De nieuwe ").replacingOccurrences(of: "limit: 50", with: "limit: 40") }
        try site.edit(report) { $0 + "\nEen zin erbij.\n" }
        // (With the path of a file an editor saved and renamed, gone before it was listed.)
        _ = state.update(content: ["site.yaml", report, "sedX4b2Qa"], templates: [])
        #expect(state.readAgain == [report, "site.yaml"])
        expectSameAsFullBuild(state, site, "a new title and a report")
        // (A new file: every folder listed again, the files not changed still taken as they were.)
        let reply = "reports/1011/2026-09-09-fietswrakken-oude-schans/replies/20261001T0900-kees-brouwer.md"
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: De nieuwe ", with: "title: Weer een ") }
        try site.write(reply, "---\nauthor: kees-brouwer\nat: 2026-10-01T09:00:00+02:00\n---\nDe fietsen zijn weg.\n")
        _ = state.update(content: ["site.yaml", reply], templates: [])
        // (The title alone changed since: taken in place.)
        #expect(state.readAgain == [reply] && state.lastChange.modelled?.settings == true)
        expectSameAsFullBuild(state, site, "a new title and a new reply")
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "Europe/Amsterdam", with: "Europe/Brussels") }
        _ = state.update(content: ["site.yaml"], templates: [])
        #expect(state.readAgain.count > 100 && state.readAgain.contains(report))
        expectSameAsFullBuild(state, site, "another time zone")
    }

    /// A build that changes most files (the site's title) makes the spare the output's twin at
    /// once (`StoreSession.twinSpare`): the store names no difference, the spare's files hold the
    /// output's bytes, and the next edit goes record by record as a clean build would. A file the
    /// build changed keeps its two files, one in each tree, each written in place from then on:
    /// no file is made or let go (on ext4 without a journal, making files just after thousands
    /// were let go took a new title's render seconds longer).
    @Test func aBuildThatChangesMostFilesLeavesTheSpareTheOutputsTwin() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (withStore, clean) = site.storeAndClean()
        var options = withStore
        options.twinSpareAfter = 10
        #expect(Pipeline.build(options).succeeded)
        let spare = OutputWriter.sparePath(for: options.output)
        let pages = ["index.html", "users/index.html", "reports/1094/index.html"]
        func inode(_ path: String) -> (inode: UInt, links: UInt)? {
            var info = stat()
            return lstat(path, &info) == 0 ? (UInt(info.st_ino), UInt(info.st_nlink)) : nil
        }
        let first = pages.map { inode(options.output + "/" + $0)?.inode }
        // (A new title and feeds' length: the build that loads everything.)
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: ", with: "title: De nieuwe ").replacingOccurrences(of: "limit: 50", with: "limit: 49") }
        let whole = Pipeline.build(options)
        #expect(whole.succeeded && !whole.recordByRecord && (whole.changes?.changed.count ?? 0) > 100)
        let store = try DatabaseQueue(path: options.cacheRoot + "/build.sqlite")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM differences") } == 0)
        let second = pages.map { inode(options.output + "/" + $0)?.inode }
        for (index, page) in pages.enumerated() {
            #expect(FileManager.default.contentsEqual(atPath: options.output + "/" + page, andPath: spare + "/" + page), "\(page)")
            // (The spare's file is the one the output had, brought up to its bytes in place.)
            #expect(inode(spare + "/" + page)?.inode == first[index] && inode(spare + "/" + page)?.links == 1, "\(page)")
        }
        // Another title (record by record, from the store): written into the spare's files, which
        // become the output's, and the spare made the output's twin again.
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: De nieuwe ", with: "title: De nieuwste ") }
        let titled = Pipeline.build(options)
        #expect(titled.succeeded && titled.recordByRecord, "\(titled.fullBuildReason ?? "no reason given")")
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM differences") } == 0)
        for (index, page) in pages.enumerated() {
            #expect(inode(options.output + "/" + page)?.inode == first[index] && inode(spare + "/" + page)?.inode == second[index], "\(page)")
            #expect(FileManager.default.contentsEqual(atPath: options.output + "/" + page, andPath: spare + "/" + page), "\(page)")
        }
        try site.edit("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md") { $0 + "\nEen zin erbij.\n" }
        let edit = Pipeline.build(options)
        #expect(edit.succeeded && edit.recordByRecord, "\(edit.fullBuildReason ?? "no reason given")")
        Self.expectSame(options, asClean: clean, "an edit after the spare was made the output's twin")
    }

    /// A report whose time has no UTC offset (a warning) moved to another area, built record by
    /// record: its warning counts once, as in a clean build (the new report's reading problems
    /// were once counted twice).
    @Test func aReportWithAWarningMovedCountsItOnce() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (options, clean) = site.storeAndClean()
        let from = "reports/1011/2026-08-22-nachtmarkt-nieuwmarkt.md", to = "reports/1094/2026-08-22-nachtmarkt-nieuwmarkt.md"
        try site.edit(from) { $0.replacingOccurrences(of: "at: 2026-08-22T10:15:00+02:00", with: "at: 2026-08-22T10:15:00") }
        let first = Pipeline.build(options)
        #expect(first.succeeded)
        try FileManager.default.moveItem(atPath: site.content + "/" + from, toPath: site.content + "/" + to)
        let moved = Pipeline.build(options)
        #expect(moved.succeeded && moved.recordByRecord, "\(moved.fullBuildReason ?? "no reason given")")
        let reference = Pipeline.build(clean)
        #expect(reference.succeeded && moved.warnings == reference.diagnostics.warningCount,
                "\(moved.warnings) warnings, a clean build \(reference.diagnostics.warningCount)")
        #expect(moved.diagnostics.count { $0.file.hasSuffix(to) } == 1, "\(moved.diagnostics.map(\.file))")
    }

    /// A build that stops on an error in the content (a member's file whose YAML does not
    /// parse, found by reading that file alone) writes nothing, and leaves the spare as the store
    /// described it: the edit that
    /// fixes the error, whatever it writes, goes record by record (it once found no spare the
    /// store vouched for and made the whole site again: 93 s at 100,000 reports), and its
    /// output is a clean build's. A failed build that wrote into the staging folder still
    /// leaves the next one to make the whole site.
    @Test func theEditThatFixesAnErrorGoesRecordByRecord() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (options, clean) = site.storeAndClean()
        #expect(Pipeline.build(options).succeeded)
        try site.edit("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md") { $0 + "\nEen zin erbij.\n" }
        #expect(Pipeline.build(options).recordByRecord)
        let member = "users/anna-de-vries.md"
        try site.edit(member) { $0.replacingOccurrences(of: "name: Anna de Vries", with: "name: \"Anna de Vries") }
        let broken = Pipeline.build(options)
        #expect(!broken.succeeded && broken.diagnostics.contains { $0.file.hasSuffix(member) && $0.severity == .error })
        // (Found by reading the edited file alone: the rest of the content is not loaded.)
        #expect(broken.recordByRecord && broken.sources.keys.contains { $0.hasSuffix(member) }, "\(broken.sources.keys.sorted())")
        try site.edit(member) { $0.replacingOccurrences(of: "name: \"Anna de Vries", with: "name: Anna de Vries-Bakker") }
        let fixed = Pipeline.build(options)
        #expect(fixed.succeeded && fixed.recordByRecord, "the fix: \(fixed.fullBuildReason ?? "no reason given")")
        Self.expectSame(options, asClean: clean, "the edit that fixed an error")
        // Twice in a row, and a fix back to what the last good build had (nothing changed).
        try site.edit(member) { $0.replacingOccurrences(of: "name: Anna de Vries-Bakker", with: "name: [Anna") }
        #expect(!Pipeline.build(options).succeeded)
        try site.edit(member) { $0.replacingOccurrences(of: "name: [Anna", with: "name: [Anna]]") }
        #expect(!Pipeline.build(options).succeeded)
        try site.edit(member) { $0.replacingOccurrences(of: "name: [Anna]]", with: "name: Anna de Vries-Bakker") }
        #expect(Pipeline.build(options).unchanged)
        try site.edit("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md") { $0 + "\nNog een zin.\n" }
        let after = Pipeline.build(options)
        #expect(after.succeeded && after.recordByRecord, "after two failed builds: \(after.fullBuildReason ?? "no reason given")")
        Self.expectSame(options, asClean: clean, "an edit after two failed builds")

        // An error only the rules over the whole content find (a report by a member there is
        // not): the build that loads everything says so, writes nothing, and gives the spare back.
        let report = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        try site.edit(report) { $0.replacingOccurrences(of: "author: anna-de-vries", with: "author: niemand-hier") }
        let unknown = Pipeline.build(options)
        #expect(!unknown.succeeded && !unknown.recordByRecord && unknown.diagnostics.contains { $0.file.hasSuffix(report) && $0.severity == .error })
        try site.edit(report) { $0.replacingOccurrences(of: "author: niemand-hier", with: "author: anna-de-vries") + "\nEn nog een.\n" }
        let mended = Pipeline.build(options)
        #expect(mended.succeeded && mended.recordByRecord, "after the rules' error: \(mended.fullBuildReason ?? "no reason given")")
        Self.expectSame(options, asClean: clean, "the edit that fixed an error the rules found")
    }

    /// A new member goes record by record: their page and feeds are new outputs, the lists of
    /// members and the site's feed are rendered again, the store learns who the members are
    /// (a report written by them next goes record by record too). A new member whose address a
    /// text already holds makes a warning there: the build that loads everything finds it.
    @Test func aNewMemberGoesRecordByRecord() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (options, clean) = site.storeAndClean()
        #expect(Pipeline.build(options).succeeded)
        try site.write("users/mees-nieuw.md", "---\nname: Mees Nieuw\nemail: mees@example.org\njoined: 2026-11-02\nhome: {lat: 50.8514, lon: 5.6910}\n"
                       + "friends: [anna-de-vries]\n---\nIk woon sinds kort in de buurt.\n")
        let joined = Pipeline.build(options)
        #expect(joined.succeeded && joined.recordByRecord, "a new member: \(joined.fullBuildReason ?? "no reason given")")
        #expect(joined.changes?.added.contains { $0.contains("mees-nieuw") } == true, "\(String(describing: joined.changes))")
        Self.expectSame(options, asClean: clean, "a new member")
        try site.write("reports/1094/2026-11-20-een-nieuwe-bank.md", "---\ntitle: Een nieuwe bank\ncategory: message\nat: 2026-11-20T10:00:00+01:00\n"
                       + "location: {lat: 52.3601, lon: 4.9301}\nauthor: mees-nieuw\n---\nBij de speeltuin staat een nieuwe bank.\n")
        let theirs = Pipeline.build(options)
        #expect(theirs.succeeded && theirs.recordByRecord, "a report by the new member: \(theirs.fullBuildReason ?? "no reason given")")
        Self.expectSame(options, asClean: clean, "a report by the new member")

        let report = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        try site.edit(report) { $0 + "\nMail Lot.Later@Example.org voor de sleutel.\n" }
        #expect(Pipeline.build(options).recordByRecord)
        try site.write("users/lot-later.md", "---\nname: Lot Later\nemail: lot.later@example.org\njoined: 2026-11-03\n---\nHallo.\n")
        let written = Pipeline.build(options)
        #expect(written.succeeded && !written.recordByRecord)
        #expect(written.diagnostics.contains { $0.file.hasSuffix(report) && "\($0.problem)".contains("registeredAddressInText") },
                "\(written.diagnostics.map { "\($0.file): \($0.problem)" })")
        Self.expectSame(options, asClean: clean, "a new member whose address a text holds")
    }

    /// A group's new goal (its pieces change, not which outputs there are) and a new page of the
    /// site's own (its page new, and every page again when it is in the menu) go record by
    /// record, and so does a goal or an event deleted; a group's last event deleted (its calendar
    /// goes) and a group's first goal (its leaderboard new) go the whole way.
    @Test func newAndDeletedGoalsEventsAndPagesGoRecordByRecord() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (options, clean) = site.storeAndClean()
        #expect(Pipeline.build(options).succeeded)
        try site.write("groups/duikclub-de-zeehond/goals/duik-in-de-oosterschelde.md",
                       "---\ntitle: Duik in de Oosterschelde\npoints: 15\nadded: 2026-11-20\n---\nBij de Zeelandbrug, met de club.\n")
        let goal = Pipeline.build(options)
        #expect(goal.succeeded && goal.recordByRecord, "a new goal: \(goal.fullBuildReason ?? "no reason given")")
        #expect(goal.changes?.changed.contains { $0.contains("duikclub-de-zeehond") } == true, "\(String(describing: goal.changes))")
        Self.expectSame(options, asClean: clean, "a new goal")
        for (name, menu) in [("spelregels", "menu: false\n"), ("contact", "")] {
            try site.write("pages/\(name).md", "---\ntitle: \(name.capitalized)\n\(menu)---\nZo doen we het hier.\n")
            let page = Pipeline.build(options)
            #expect(page.succeeded && page.recordByRecord, "a new page: \(page.fullBuildReason ?? "no reason given")")
            #expect(page.changes?.added.contains("\(name)/index.html") == true, "\(String(describing: page.changes?.added))")
            Self.expectSame(options, asClean: clean, "a new page (\(menu.isEmpty ? "in the menu" : "not in it"))")
        }
        // Deleted: the goal again, and an event of a group that keeps another (its page and
        // calendar go).
        try FileManager.default.removeItem(atPath: site.content + "/groups/duikclub-de-zeehond/goals/duik-in-de-oosterschelde.md")
        let goalGone = Pipeline.build(options)
        #expect(goalGone.succeeded && goalGone.recordByRecord, "a goal deleted: \(goalGone.fullBuildReason ?? "no reason given")")
        Self.expectSame(options, asClean: clean, "a goal deleted")
        try FileManager.default.removeItem(atPath: site.content + "/groups/duikclub-de-zeehond/events/tweedaagse-oosterschelde.md")
        let eventGone = Pipeline.build(options)
        #expect(eventGone.succeeded && eventGone.recordByRecord, "an event deleted: \(eventGone.fullBuildReason ?? "no reason given")")
        #expect(eventGone.changes?.removed.contains { $0.contains("tweedaagse-oosterschelde") } == true, "\(String(describing: eventGone.changes))")
        Self.expectSame(options, asClean: clean, "an event deleted")
        try FileManager.default.removeItem(atPath: site.content + "/groups/duikclub-de-zeehond/events/nieuwjaarsduik-vinkeveen.md")
        let lastGone = Pipeline.build(options)
        #expect(lastGone.succeeded && !lastGone.recordByRecord)
        Self.expectSame(options, asClean: clean, "a group's last event deleted")
        try site.write("groups/buurtmoestuin/index.md", "---\nname: Buurtmoestuin\nmembers: [anna-de-vries, bram-van-dijk]\n---\nSamen tuinieren.\n")
        #expect(Pipeline.build(options).succeeded)
        try site.write("groups/buurtmoestuin/goals/eerste-oogst.md", "---\ntitle: Een eerste oogst\npoints: 5\nadded: 2026-11-21\n---\nSamen.\n")
        let first = Pipeline.build(options)
        #expect(first.succeeded && !first.recordByRecord)
        Self.expectSame(options, asClean: clean, "a group's first goal")
    }

    /// `plein build` after an edit of one record's file in place redoes that record and what it
    /// reaches only, from the build store (`RecordEdit`), for every kind of record: a report, a
    /// reply, a member (their text, their name), a group, an album with photos and a video, a goal, an event, a page, a
    /// study location, check-ins and a message. After each, the output is a clean build's.
    @Test func aBuildAfterAnEditOfARecordRedoesThatRecordFromTheStore() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let (options, clean) = site.storeAndClean()
        func expectSameAsClean(_ label: String) { Self.expectSame(options, asClean: clean, label) }
        #expect(Pipeline.build(options).succeeded)
        // The first edit after a site's first build, made where there was no output folder: its
        // spare is an empty folder the store vouches for, into which the edit links every file.
        #expect(FileManager.default.fileExists(atPath: OutputWriter.sparePath(for: options.output)))
        try site.edit("pages/over-buurtboek.md") { $0 + "\nEen eerste zin erbij.\n" }
        let first = Pipeline.build(options)
        #expect(first.succeeded && first.recordByRecord, "the first edit after a first build: \(first.fullBuildReason ?? "no reason given")")
        #expect(first.changes?.changed.contains { $0.contains("over-buurtboek") } == true, "\(String(describing: first.changes))")
        expectSameAsClean("the first edit after a first build")
        // A build without a snapshot over an output folder (`--fresh`, or a new plein) leaves that
        // output as a spare the store vouches for, once it has taken out of it what the new site
        // lacks (a file and a folder put there by hand): the next edit goes record by record.
        try "put here by hand\n".write(toFile: options.output + "/stray.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: options.output + "/stray/deeper", withIntermediateDirectories: true)
        try "also\n".write(toFile: options.output + "/stray/deeper/index.html", atomically: false, encoding: .utf8)
        var fresh = options
        fresh.fresh = true
        #expect(Pipeline.build(fresh).succeeded)
        try site.edit("users/anna-de-vries.md") { $0 + "\nZe wandelt graag.\n" }
        let afterFresh = Pipeline.build(options)
        #expect(afterFresh.succeeded && afterFresh.recordByRecord, "after --fresh: \(afterFresh.fullBuildReason ?? "no reason given")")
        expectSameAsClean("the first edit after a fresh build")
        // A build that is not record by record (the site's settings changed in more than what
        // pages show) leaves a spare the store vouches for: the edits below are written there
        // and the two swapped.
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "limit: 50", with: "limit: 49") }
        let whole = Pipeline.build(options)
        #expect(whole.succeeded && !whole.recordByRecord)
        // The site's title (and a comment): every output, from the store; the spare is left the
        // output's twin (the edit after it writes what it changes, not every file again).
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: Buurtboek Oost", with: "title: Buurtboek Oost en Centrum") + "# A comment.\n" }
        var fewer = options
        fewer.twinSpareAfter = 10
        let titled = Pipeline.build(fewer)
        #expect(titled.succeeded && titled.recordByRecord && (titled.rendered ?? 0) > 100,
                "the title: \(titled.fullBuildReason ?? "no reason given"), \(titled.rendered ?? 0) rendered")
        expectSameAsClean("the site's title")
        #expect(Pipeline.build(options).unchanged, "nothing changed after the title")
        try site.edit("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md") { $0 + "\nNa de titel.\n" }
        let afterTitle = Pipeline.build(options)
        #expect(afterTitle.succeeded && afterTitle.recordByRecord, "after the title: \(afterTitle.fullBuildReason ?? "no reason given")")
        expectSameAsClean("the first edit after the site's title")
        func append(_ line: String) -> (String) -> String { { $0 + "\n" + line + "\n" } }
        let edits: [(String, (String) -> String)] = [
            ("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md", append("Een zin die er net bij kwam.")),
            // (An event report a day later: the site's events, kept from build to build, in another order.)
            ("reports/1018/2026-11-18-lichtjesavond-plantage.md", {
                $0.replacingOccurrences(of: "starts: 2026-12-12T17:00:00+01:00", with: "starts: 2026-12-13T17:00:00+01:00")
                    .replacingOccurrences(of: "ends: 2026-12-12T21:30:00+01:00", with: "ends: 2026-12-13T21:30:00+01:00")
            }),
            ("reports/1018/2026-09-15-boomkap-plantage-middenlaan/replies/20260915T1748-lucas-de-graaf.md", append("Nog iets.")),
            ("users/anna-de-vries.md", append("Ze fietst graag.")),
            // (Members' names: their places in every list of members by name, a group's and its
            // leaderboard, friends', who is at a study place.)
            ("users/bram-van-dijk.md", { $0.replacingOccurrences(of: "name: ", with: "name: Dr. ") }),
            ("users/emma-kok.md", { $0.replacingOccurrences(of: "name: ", with: "name: Zuster ") }),
            ("groups/duikclub-de-zeehond/index.md", append("Nieuwe leden zijn welkom.")),
            ("groups/duikclub-de-zeehond/albums/duikweekend-zeeland/index.md", append("Een koud maar mooi weekend.")),
            ("groups/duikclub-de-zeehond/goals/nachtduik-vinkeveen.md", { $0.replacingOccurrences(of: "title: Nachtduik", with: "title: Een nachtduik") }),
            ("groups/duikclub-de-zeehond/events/nieuwjaarsduik-vinkeveen.md", { $0.replacingOccurrences(of: "title: Nieuwjaarsduik", with: "title: De nieuwjaarsduik") }),
            ("pages/over-buurtboek.md", append("Nog een zin.")),
            ("locations/ub-singel.md", append("Stil op zondag.")),
            ("checkins/emma-kok.yaml", { $0.replacingOccurrences(of: "out: 2026-09-29T18:45:00+02:00", with: "out: 2026-09-29T18:30:00+02:00") }),
            ("threads/buddyduik-vinkeveen/20260920T2015-zoe-jansen.md", append("Groet, Zoë")),
        ]
        // New records: a reply to a report that has replies, a report of one file, and an event
        // of a group that has events (its page and its calendar are new outputs).
        let reply = "reports/1018/2026-09-15-boomkap-plantage-middenlaan/replies/20260916T0900-anna-de-vries.md"
        let newReport = "reports/1094/2026-09-20-lantaarnpaal-kapot-javastraat.md"
        let newEvent = "groups/duikclub-de-zeehond/events/voorjaarsduik-grevelingen.md"
        let written: [(String, (String) -> String)] = [
            (reply, { _ in "---\nauthor: anna-de-vries\nat: 2026-09-16T09:00:00+02:00\n---\nFijn om te horen.\n" }),
            (newReport, { _ in "---\ntitle: Lantaarnpaal kapot\ncategory: complaint\nat: 2026-09-20T21:10:00+02:00\nauthor: anna-de-vries\n"
                + "location:\n  lat: 52.3637\n  lon: 4.9374\n---\nDe lantaarnpaal voor nummer 12 brandt niet.\n" }),
            (newEvent, { _ in "---\ntitle: Voorjaarsduik in de Grevelingen\nstarts: 2027-04-10T10:00:00+02:00\nends: 2027-04-10T16:00:00+02:00\n---\n"
                + "De eerste duik van het voorjaar.\n" }),
        ]
        for (path, change) in edits + written {
            if FileManager.default.fileExists(atPath: site.content + "/" + path) { try site.edit(path, change) } else { try site.write(path, change("")) }
            let report = Pipeline.build(options)
            #expect(report.succeeded && report.recordByRecord, "\(path): built record by record (\(report.fullBuildReason ?? "no reason given"))")
            #expect(report.rendered ?? .max < 200, "\(path): \(report.rendered ?? 0) outputs rendered again")
            expectSameAsClean(path)
        }
        // New album photos (one with the position and time its camera gave it, taking its place
        // among the album's photos by when it was taken): their variants and pages, the album's.
        let album = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland/"
        for (name, source) in [("kreeft-nog-een-keer.jpg", "kreeft-onder-steiger.jpg"), ("nog-een-zeenaald.jpg", "zeenaald-grevelingen.jpg")] {
            try FileManager.default.copyItem(atPath: site.content + "/" + album + source, toPath: site.content + "/" + album + name)
            let report = Pipeline.build(options)
            #expect(report.succeeded && report.recordByRecord, "\(name): built record by record (\(report.fullBuildReason ?? "no reason given"))")
            #expect(report.changes?.added.contains { $0.hasPrefix("media/") } == true, "\(name): its variants are published")
            #expect(report.rendered ?? .max < 200, "\(name): \(report.rendered ?? 0) outputs rendered again")
            expectSameAsClean("a new photo, " + name)
        }
        // One of them replaced by another photo's bytes (its old variants go); then both deleted.
        try FileManager.default.removeItem(atPath: site.content + "/" + album + "nog-een-zeenaald.jpg")
        try FileManager.default.copyItem(atPath: site.content + "/" + album + "schol-op-zandbodem.jpg", toPath: site.content + "/" + album + "nog-een-zeenaald.jpg")
        let replaced = Pipeline.build(options)
        #expect(replaced.succeeded && replaced.recordByRecord, "a photo replaced: built record by record (\(replaced.fullBuildReason ?? "no reason given"))")
        #expect(replaced.changes?.removed.contains { $0.hasPrefix("media/") } == true, "a photo replaced: its old variants go")
        expectSameAsClean("a photo replaced")
        for name in ["nog-een-zeenaald.jpg", "kreeft-nog-een-keer.jpg"] {
            try FileManager.default.removeItem(atPath: site.content + "/" + album + name)
            let deleted = Pipeline.build(options)
            #expect(deleted.succeeded && deleted.recordByRecord, "\(name) deleted: built record by record (\(deleted.fullBuildReason ?? "no reason given"))")
            #expect(deleted.changes?.removed.contains { $0.hasPrefix("media/") } == true, "\(name) deleted: its variants go")
            expectSameAsClean(name + " deleted")
        }
        // An album's first photo with a position brings its map, record by record; the photo
        // replaced by a copy without one takes it away.
        let empty = "groups/duikclub-de-zeehond/albums/lege-map/"
        try site.write(empty + "index.md", "---\ntitle: Nog leeg\ndate: 2026-10-01\n---\nHier komen de foto's.\n")
        #expect(Pipeline.build(options).succeeded)
        try FileManager.default.copyItem(atPath: site.content + "/" + album + "den-osse-instap.jpg", toPath: site.content + "/" + empty + "eerste.jpg")
        let placed = Pipeline.build(options)
        #expect(placed.succeeded && placed.recordByRecord && placed.changes?.added.contains(empty + "map.geojson") == true,
                "an album's first placed photo: \(placed.fullBuildReason ?? String(describing: placed.changes?.added.filter { $0.hasPrefix(empty) }))")
        expectSameAsClean("an album's first placed photo")
        let bare = site.dir.path + "/zonder-positie.jpg"
        #expect((try? ImageIO.write(site.content + "/" + album + "den-osse-instap.jpg", to: bare, width: 0, square: false, format: .jpeg,
                                    quality: 80).get()) != nil)
        try FileManager.default.removeItem(atPath: site.content + "/" + empty + "eerste.jpg")
        try FileManager.default.moveItem(atPath: bare, toPath: site.content + "/" + empty + "eerste.jpg")
        let unplaced = Pipeline.build(options)
        #expect(unplaced.succeeded && unplaced.recordByRecord && unplaced.changes?.removed.contains(empty + "map.geojson") == true,
                "the photo replaced by one without a position: \(unplaced.fullBuildReason ?? String(describing: unplaced.changes?.removed))")
        expectSameAsClean("an album's placed photo replaced by one without a position")
        // A report taken out (record by record too: its page leaves the output, and the store
        // notes it as gone from it) and written again: the edit that puts it back writes its
        // page, and the next edit keeps it.
        try FileManager.default.removeItem(atPath: site.content + "/" + newReport)
        let out = Pipeline.build(options)
        #expect(out.succeeded && out.recordByRecord && out.changes?.removed.count == 1, "taken out: built record by record")
        expectSameAsClean("a report taken out")
        try site.write(newReport, written[1].1(""))
        let back = Pipeline.build(options)
        #expect(back.succeeded && back.recordByRecord, "written again: built record by record (\(back.fullBuildReason ?? "no reason given"))")
        expectSameAsClean("a report taken out and written again")
        try site.edit(newReport) { $0.replacingOccurrences(of: "title: Lantaarnpaal kapot", with: "title: Lantaarnpaal weer kapot") }
        let next = Pipeline.build(options)
        #expect(next.succeeded && next.recordByRecord && next.renderedOutputs.contains("geojson:reports"),
                "the edit after it: \(String(describing: next.renderedOutputs))")
        expectSameAsClean("the edit after a report written again")
        // An older report of the same area: the lists the new report's edits kept anew (the
        // area's map, its GeoJSON, its part of the sitemap) saved only the reads the store did
        // not hold for their heads; this report's are among those it held, and still forget them.
        let older = "reports/1094/2026-09-24-kat-gevonden-sumatrastraat.md"
        let olderTitle = try #require(try String(contentsOfFile: site.content + "/" + older, encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("title: ") })
        try site.edit(older) { $0.replacingOccurrences(of: String(olderTitle), with: "title: Rode kat gevonden") }
        let olderEdit = Pipeline.build(options)
        #expect(olderEdit.succeeded && olderEdit.recordByRecord && olderEdit.renderedOutputs.contains("geojson:area/1094"),
                "an older report's title: \(String(describing: olderEdit.renderedOutputs))")
        expectSameAsClean("an older report's title after a new report in its area")
        // A full build that changes a report's title (with a report taken out, and a new member
        // who follows a report, which only a full build takes in) forgets the parts of outputs kept for edits that show
        // it (the maps, the sitemap): the next edit takes the others, and shows the new title.
        let other = "reports/1094/2026-11-19-inloop-energiecoach.md"
        try site.edit("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md") {
            $0.replacingOccurrences(of: "title: Scooters op de stoep van de Javastraat", with: "title: Weer scooters op de stoep")
        }
        let removed = try String(contentsOfFile: site.content + "/" + other, encoding: .utf8)
        try FileManager.default.removeItem(atPath: site.content + "/" + other)
        try site.write("users/zoe-nieuw.md", "---\nname: Zoë Nieuw\nemail: zoe@example.org\nfollows: [1094/2026-09-03-scooters-op-de-stoep-javastraat]\n---\nNieuw hier.\n")
        let full = Pipeline.build(options)
        #expect(full.succeeded && !full.recordByRecord)
        try site.write(other, removed)
        let after = Pipeline.build(options)
        #expect(after.succeeded && after.recordByRecord && after.renderedOutputs.contains("geojson:reports"),
                "a new report after a full build: \(String(describing: after.renderedOutputs))")
        expectSameAsClean("a new report after a full build that changed another report's title")
    }

    /// Past `sitemapSplit` reports the sitemap is an index of parts (the pages, and each area's
    /// page with its reports) that together list what the one sitemap lists; a new report goes
    /// record by record and writes its area's part, and one that makes the sitemap one file
    /// again, or parts again, gives way to the full build. Each time the output is a clean build's.
    @Test func aLargeSitemapIsAnIndexOfParts() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var options = site.storeOptions()
        options.pagefind = nil
        var whole = site.options
        (whole.output, whole.remember, whole.pagefind) = (site.dir.path + "/whole", false, nil)
        #expect(Pipeline.build(whole).succeeded)
        options.sitemapSplit = 10
        var clean = whole
        (clean.output, clean.sitemapSplit) = (site.dir.path + "/clean", options.sitemapSplit)
        func read(_ root: String, _ path: String) -> String { (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "" }
        func locs(_ xml: String) -> [String] {
            xml.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        }
        #expect(Pipeline.build(options).succeeded)
        let index = read(options.output, "sitemap.xml")
        #expect(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"))
        let parts = locs(index)
        #expect(parts.count == 4 && parts[0].hasSuffix("/sitemaps/pages.xml") && parts[1].hasSuffix("/sitemaps/area-1011.xml"), "\(parts)")
        let base = parts[0].replacingOccurrences(of: "sitemaps/pages.xml", with: "")
        let listed = parts.flatMap { locs(read(options.output, String($0.dropFirst(base.count)))) }
        #expect(listed.sorted() == locs(read(whole.output, "sitemap.xml")).sorted(), "the parts list what the one sitemap lists")
        func expectSameAsClean(_ label: String) { Self.expectSame(options, asClean: clean, label) }
        func report(_ day: Int) -> String {
            "---\ntitle: Lantaarnpaal \(day) kapot\ncategory: complaint\nat: 2026-09-\(day)T21:10:00+02:00\nauthor: anna-de-vries\n"
                + "location:\n  lat: 52.3637\n  lon: 4.9374\n---\nDe lantaarnpaal brandt niet.\n"
        }
        try site.write("reports/1094/2026-09-20-lantaarnpaal-kapot.md", report(20))
        let new = Pipeline.build(options)
        #expect(new.succeeded && new.recordByRecord && new.changes?.changed.contains("sitemaps/area-1094.xml") == true
                && new.changes?.changed.contains("sitemaps/pages.xml") == false, "\(String(describing: new.changes))")
        expectSameAsClean("a new report in a sitemap of parts")
        // (The count of reports at the split: one more makes parts, one fewer one file again.)
        let count = snapshotTree(whole.output).keys.count { $0.hasPrefix("reports/") && $0.hasSuffix("/index.html") && $0.split(separator: "/").count == 4 } + 1
        options.sitemapSplit = count
        clean.sitemapSplit = count
        #expect(Pipeline.build(options).succeeded)
        #expect(!read(options.output, "sitemap.xml").contains("<sitemapindex"))
        try site.write("reports/1094/2026-09-21-lantaarnpaal-kapot.md", report(21))
        let split = Pipeline.build(options)
        #expect(split.succeeded && !split.recordByRecord && read(options.output, "sitemap.xml").contains("<sitemapindex"))
        expectSameAsClean("a new report that splits the sitemap")
        try FileManager.default.removeItem(atPath: site.content + "/reports/1094/2026-09-21-lantaarnpaal-kapot.md")
        let one = Pipeline.build(options)
        #expect(one.succeeded && !one.recordByRecord && !read(options.output, "sitemap.xml").contains("<sitemapindex"))
        expectSameAsClean("a report deleted that makes the sitemap one file again")
    }

    /// Past a thousand reports the list of areas draws only the newest thousand's markers, says
    /// so under the drawing, and keeps the map of every report for the interactive map; a
    /// thousand more reports in one area are still each on that area's map.
    @Test func theListOfAreasDrawsTheNewestReports() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let limit = 1000
        for i in 0..<limit {
            let (hour, minute) = (i / 60, i % 60)
            try site.write(String(format: "reports/1094/2026-12-01-melding-%04d.md", i), String(format: """
                ---
                title: Melding %d
                category: attention
                at: 2026-12-01T%02d:%02d:00+01:00
                author: anna-de-vries
                location:
                  lat: 52.36%03d
                  lon: 4.937400
                ---
                Melding.

                """, i, hour, minute, i))
        }
        let state = SiteState(site.options, tracking: false)
        #expect(state.succeeded)
        func text(_ path: String) -> String {
            guard case .bytes(let bytes)? = state.files[path] else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        }
        let areas = text("reports/index.html")
        #expect(areas.components(separatedBy: "class=\"map-marker\"").count - 1 == limit)
        #expect(areas.contains("melding-0999/") && !areas.contains("scooters-op-de-stoep-javastraat/\" class=\"map-marker\""))
        #expect(areas.contains("class=\"map-note\">De tekening toont de nieuwste 1000 van "), "the note under the drawing")
        let area = text("reports/1094/index.html")
        #expect(area.contains("scooters-op-de-stoep-javastraat/\" class=\"map-marker\""), "the area's own map draws every report of it")
        #expect(text("reports/map.geojson").contains("Scooters op de stoep"), "the map of every report keeps them all")
    }

    /// That `options.output` holds what a clean build (`clean`, built now) makes, file by file.
    static func expectSame(_ options: BuildOptions, asClean clean: BuildOptions, _ label: String) {
        #expect(Pipeline.build(clean).succeeded)
        let (a, b) = (snapshotTree(options.output), snapshotTree(clean.output))
        #expect(a.keys.sorted() == b.keys.sorted(), "\(label): different files: \(Set(a.keys).symmetricDifference(b.keys).sorted().prefix(5))")
        let differing = a.keys.filter { b[$0] != nil && a[$0] != b[$0] }.sorted()
        #expect(differing.isEmpty, "\(label): the output differs from a clean build's in \(differing.prefix(5))")
    }

    /// An edit after a site's first build, whose spare differs from the output in every path:
    /// the edits after it find a spare that differs in what they changed.
    static func leaveAVouchedSpare(_ site: Site, _ options: BuildOptions) throws {
        try site.edit("pages/over-buurtboek.md") { $0 + "\nEen zin vooraf.\n" }
        #expect(Pipeline.build(options).succeeded)
    }

    /// A piece of the model the build store should hold and does not (a row missing or damaged)
    /// is never a trap: the edit that needs it empties the store and loads everything, and the
    /// output is a clean build's.
    @Test func aBuildStoreLackingAPieceGivesWayToAFullBuild() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var options = site.storeOptions()
        options.pagefind = nil
        #expect(Pipeline.build(options).succeeded)
        try Self.leaveAVouchedSpare(site, options)
        // (The member's page shows the cards of their reports: each one's headline is read from
        // the store, else its whole record.)
        let (store, _) = try BuildStore.open(cacheRoot: options.cacheRoot)
        let dropped = try store.queue.write { db in
            try db.execute(sql: "DELETE FROM model_values WHERE key IN ('reportHeadline:1094/2026-09-03-scooters-op-de-stoep-javastraat', "
                           + "'report:1094/2026-09-03-scooters-op-de-stoep-javastraat')")
            return db.changesCount
        }
        #expect(dropped == 2)
        try site.edit("users/anna-de-vries.md") { $0 + "\nZe fietst graag.\n" }
        let report = Pipeline.build(options)
        #expect(report.succeeded && !report.recordByRecord, "\(report.failure ?? "")")
        #expect(report.fullBuildReason?.contains("lacks report") == true, "\(report.fullBuildReason ?? "no reason given")")
        var clean = site.options
        (clean.output, clean.remember, clean.pagefind, clean.cache) = (site.dir.path + "/clean", false, nil, options.cache)
        #expect(Pipeline.build(clean).succeeded)
        #expect(snapshotTree(options.output) == snapshotTree(clean.output))
        // The store is whole again: after one edit that goes the whole way (no spare it vouches
        // for), the next goes record by record.
        try Self.leaveAVouchedSpare(site, options)
        try site.edit("users/anna-de-vries.md") { $0 + "\nEn ze zwemt.\n" }
        let next = Pipeline.build(options)
        #expect(next.succeeded && next.recordByRecord, "\(next.fullBuildReason ?? "no reason given")")
    }
}
