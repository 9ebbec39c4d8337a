import Foundation
import PleinCore
import PleinLoad
@testable import PleinModel
import PleinRender
@testable import PleinBuild
import Testing

/// The two memories of the last build (`BuildMemory`): the build store's (`StoreMemory`, after
/// `plein build`) and `plein serve`'s (`ServeMemory`, after its build of the same files) give the
/// same answers to every question an update asks.
@Suite(.serialized) struct BuildMemoryTests {
    /// The demo built both ways, and each memory of it.
    private static func memories() throws -> (site: IncrementalTests.Site, options: BuildOptions, state: SiteState, stored: StoreMemory, served: ServeMemory) {
        let site = try IncrementalTests.Site()
        let (options, _) = site.storeAndClean()
        let report = Pipeline.build(options)
        #expect(report.succeeded, "\(report.failure ?? "") \(report.diagnostics.filter { $0.severity == .error })")
        let store = try BuildStore.open(cacheRoot: options.cacheRoot).store
        let previous = try #require(try store.readHead().snapshot)
        var next = BuildStore.Snapshot()
        next.scan = ContentScan(root: options.content, previous: previous.scan).index
        let state = SiteState(options, tracking: true)
        #expect(state.succeeded)
        let served = try #require(state.memory)
        return (site, options, state, StoreMemory(store: store, previous: previous, next: next), served)
    }

    /// The bytes of a file served from memory.
    private static func bytes(_ served: SiteState.Served?) -> [UInt8]? {
        guard case .bytes(let bytes)? = served else { return nil }
        return bytes
    }

    /// Both memories' answers to `piece` for `key`, encoded.
    private static func piece<Value: Codable>(_ key: String, _ type: Value.Type, _ a: any BuildMemory, _ b: any BuildMemory) throws -> ([UInt8]?, [UInt8]?) {
        (try a.piece(key, as: type).map(ModelValues.encode), try b.piece(key, as: type).map(ModelValues.encode))
    }

    @Test func serveAndTheStoreRememberTheSameBuild() throws {
        let (_, options, state, stored, served) = try Self.memories()
        let site = try #require(try stored.settings())
        let servedSite = try #require(try served.settings())
        #expect(servedSite == site)
        let model = try #require(try served.model(site: site, reports: [], membersAndGroups: true, members: []))
        let reports = Array(model.reportOrder.prefix(5)) + model.reportOrder.suffix(5)
        #expect(!reports.isEmpty && !model.members.isEmpty && !model.groups.isEmpty)

        // Every fact; every member's and group's piece, and the reports' above with their views.
        let keys = try #require(state.last.facts).values.keys
        #expect(keys.count > model.members.count + model.reportOrder.count)
        #expect(try stored.facts(keys) == served.facts(keys) && stored.facts(keys).count == keys.count)
        for id in model.members.keys {
            let (a, b) = try Self.piece(ModelPieces.member.key(id), MemberModel.self, stored, served)
            #expect(a != nil && a == b, "member \(id)")
        }
        for id in model.groups.keys {
            let (a, b) = try Self.piece(ModelPieces.group.key(id), GroupModel.self, stored, served)
            #expect(a != nil && a == b, "group \(id)")
        }
        for id in reports {
            let (a, b) = try Self.piece(ModelPieces.report.key(id), ReportModel.self, stored, served)
            #expect(a != nil && a == b, "report \(id)")
            let (times, timesServed) = try Self.piece(Dependency.reportTimes(id).key, ReportTimes.self, stored, served)
            #expect(times != nil && times == timesServed, "the times of report \(id)")
            let (replies, repliesServed) = try Self.piece(Dependency.reportReplies(id).key, ReportReplies.self, stored, served)
            #expect(replies != nil && replies == repliesServed, "the replies of report \(id)")
        }
        let (order, orderServed) = try Self.piece(ModelPieces.reportOrder.key(), [String].self, stored, served)
        #expect(order != nil && order == orderServed)

        // Every body's digest.
        let files = model.reportOrder.compactMap { model.reports[$0]?.file } + model.members.values.map(\.file)
        let digests = try stored.bodyDigests(files)
        #expect(digests.count > model.members.count / 2)
        #expect(try served.bodyDigests(files) == digests)

        // The content a member's edit and a report's reach, as each loaded it (the store the
        // slice, from its records; serve all of it): its members, its reports, their problems.
        let member = try #require(model.members.values.sorted { $0.id < $1.id }.first)
        let report = try #require(model.reports[reports[0]])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var timer = PhaseTimer(enabled: false)
        for edited in [member.file, report.file] {
            let slice = ContentSlice(changed: [edited], followed: [])
            let a = try stored.contentBefore(slice, edited: [edited], added: [], removed: [], options: options, timer: &timer)
            let b = try served.contentBefore(slice, edited: [edited], added: [], removed: [], options: options, timer: &timer)
            #expect(edited == member.file ? a.content.members.count == model.members.count : a.content.reportPosition(of: report.id) != nil, "\(edited)")
            let members = Dictionary(uniqueKeysWithValues: b.content.members.map { ($0.id, $0) })
            for one in a.content.members {
                #expect(try encoder.encode(one) == encoder.encode(members[one.id]), "member \(one.id) for \(edited)")
            }
            for one in a.content.reports {
                #expect(b.content.reportPosition(of: one.id).map { b.content.reports[$0] } == one, "report \(one.id) for \(edited)")
            }
            let files = Set(a.content.reports.map(\.file) + a.content.members.map(\.file))
            #expect(a.diagnostics.filter { files.contains($0.file) } == b.diagnostics.filter { files.contains($0.file) }, "\(edited)")
        }

        // The outputs that read a member, a report, the order of reports; where outputs are.
        for read in [ModelPieces.member.key(member.id), ModelPieces.report.key(reports[0]), ModelPieces.reportOrder.key(), Dependency.body(report.file).key] {
            let (a, b) = (try stored.readers(of: [read]), try served.readers(of: [read]))
            #expect(!a.isEmpty, "readers of \(read)")
            #expect(a.map(\.key).sorted() == b.map(\.key).sorted(), "readers of \(read)")
            let byKey = Dictionary(uniqueKeysWithValues: b.map { ($0.key, $0) })
            for output in a {
                #expect(byKey[output.key]?.path == output.path && byKey[output.key]?.hash == output.hash
                        && byKey[output.key]?.reads == output.reads, "output \(output.key)")
            }
            let paths = try #require(try stored.paths(of: Set(a.map(\.key))))
            #expect(try served.paths(of: Set(a.map(\.key))) == paths)
        }
        #expect(try stored.paths(of: ["report:no/such-report"]) == nil && served.paths(of: ["report:no/such-report"]) == nil)
        #expect(try stored.searchIndexes(reading: []).map(\.name) == served.searchIndexes(reading: []).map(\.name))

        // What each renders from: the same pages, with a piece made again in place of its own.
        let theme = try #require(ThemeLoader.load(options.themeFiles, language: site.language).0)
        let dropped = reports[0]
        var after = model
        after.reportOrder.removeAll { $0 == dropped }
        after.reports[dropped] = nil
        // (Gone with the report: its views, as the facts of an edit that takes it out say.)
        let gone = Set([ModelPieces.report.key(dropped)] + (ModelViews.byBase[ModelPieces.report.kind] ?? []).map { Dependency($0.kind, dropped).key })
        let ids: [OutputID] = [.home, .member(member.id), .report(reports[1]), .geoJSON(.reports), .areas, .sitemap]
        var pages: [[OutputFile]] = []
        for memory in [stored as any BuildMemory, served] {
            let source = memory.source(model: after, images: ImageCatalog(), gone: gone, bodies: [:], changed: [ModelPieces.reportOrder.key()] + gone)
            let renderer = Renderer(source: source.model, theme: theme,
                                    options: RenderOptions(threadKeys: options.secret.flatMap(ThreadKeys.init(secret:)), sitemapSplit: options.sitemapSplit))
            pages.append(renderer.render(batch: ids))
            #expect(source.damaged().isEmpty)
        }
        #expect(pages[0].map(\.path) == pages[1].map(\.path))
        for (a, b) in zip(pages[0], pages[1]) {
            let (x, y) = (String(decoding: a.bytes, as: UTF8.self), String(decoding: b.bytes, as: UTF8.self))
            let first = Array(zip(x, y)).firstIndex { $0 != $1 } ?? min(x.count, y.count)
            #expect(x == y, "\(a.path) differs at \(first): \(x.dropFirst(max(0, first - 80)).prefix(200)) ≠ \(y.dropFirst(max(0, first - 80)).prefix(200))")
        }
        let map = try #require(pages[1].first { $0.path.hasSuffix("map.geojson") })
        #expect(!String(decoding: map.bytes, as: UTF8.self).contains(dropped) && pages[1].allSatisfy { !$0.bytes.isEmpty })
    }

    /// An update of edited records over `serve`'s memory (`RecordUpdate` over `ServeMemory`,
    /// the update `plein build` makes over the store's) renders every output `serve`'s own update
    /// of the same edit changes, each with the same bytes, and takes out what it takes out: a
    /// member's, a report's, a group's, an album's, a goal's and a page's text, a new reply, a new
    /// report, a report deleted.
    @Test(arguments: [
        ("users/anna-de-vries.md", "edit"),
        ("reports/1011/2026-08-22-nachtmarkt-nieuwmarkt.md", "edit"),
        ("reports/1011/2026-09-09-fietswrakken-oude-schans/replies/20261001T0900-kees-brouwer.md", "reply"),
        ("reports/1094/2026-11-20-lekkende-brandkraan.md", "report"),
        ("reports/1094/2026-11-19-inloop-energiecoach.md", "delete"),
        ("groups/moestuin-dapperbuurt/index.md", "edit"),
        ("groups/duikclub-de-zeehond/albums/duikweekend-zeeland/index.md", "edit"),
        ("groups/duikclub-de-zeehond/goals/honderd-clubduiken.md", "edit"),
        ("pages/over-buurtboek.md", "edit"),
    ])
    func anUpdateOverServesMemoryRendersWhatServeDoes(edited: String, how: String) throws {
        let site = try IncrementalTests.Site()
        let (options, _) = site.storeAndClean()
        var state = SiteState(options, tracking: true)
        #expect(state.succeeded)
        let memory = try #require(state.memory)
        switch how {
        case "reply":
            try site.write(edited, "---\nauthor: kees-brouwer\nat: 2026-10-01T09:00:00+02:00\n---\nDe fietsen zijn weg, de gemeente heeft ze vanochtend opgehaald.\n")
        case "report":
            try site.write(edited, "---\ntitle: Lekkende brandkraan\ncategory: attention\nat: 2026-11-20T08:30:00+01:00\nauthor: kees-brouwer\nlocation: {lat: 52.3635, lon: 4.9401}\n---\nDe brandkraan op de hoek lekt al een dag.\n")
        case "delete":
            try FileManager.default.removeItem(atPath: site.content + "/" + edited)
        default:
            try site.edit(edited) { $0 + "\nEen regel erbij, om te zien wie haar toont.\n" }
        }
        var timer = PhaseTimer(enabled: false)
        let added: Set<String> = how == "reply" || how == "report" ? [edited] : []
        let update = RecordUpdate(options: options, memory: memory, files: [edited], added: added, removed: how == "delete" ? [edited] : [])
        let plan = try #require(update.plan(&timer))
        let (rendered, failure) = RenderStage(renderer: plan.renderer, tracking: true, stream: nil, timings: false)
            .run(plan.stale.map(\.id) + plan.newOutputs)
        #expect(failure == nil && plan.source.damaged().isEmpty && !rendered.isEmpty)

        let served = state.update(content: [edited], templates: [])
        #expect(state.succeeded && !(served.changed + served.removed).isEmpty)
        #expect(Set(served.removed) == Set(plan.vanished.values))
        let byPath = Dictionary(uniqueKeysWithValues: rendered.map { ($0.file.path, $0.file.bytes) })
        for path in served.changed {
            let bytes = try #require(byPath[path], "\(path), changed by serve's update, is not among those rendered over its memory")
            #expect(Self.bytes(state.files[path]) == bytes, "\(path)")
        }
        // (What it rendered and serve did not change is as serve has it.)
        for output in rendered where !served.changed.contains(output.file.path) {
            #expect(Self.bytes(state.files[output.file.path]) == output.file.bytes, "\(output.file.path)")
        }
    }
}
