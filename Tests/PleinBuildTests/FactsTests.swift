import Foundation
import PleinCore
@testable import PleinBuild
import PleinModel
import PleinRender
import Testing

/// The build store compares facts made in different runs of plein: a fact must describe its
/// value the same way in every run. Swift orders a dictionary's or a set's elements differently
/// in each process, so no value the facts describe may hold one.
@Suite(.serialized) struct FactsTests {
    /// The demo's model, made once for both tests.
    static let model: SiteModel = {
        let checked = Pipeline.check(content: Repo.content)
        var stage = ModelStage(content: Repo.content, readsHistory: false, environment: [:])
        return stage.run(checked.content, captureTimes: checked.captureTimes, threadKeys: ThreadKeys(secret: Array("facts".utf8)), now: Moment(seconds: 1_792_490_400)).0
    }()

    /// Fails for every dictionary or set inside `value`, naming where it is.
    func expectNoUnorderedCollections(_ value: Any, at path: String, _ found: inout [String]) {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set {
            found.append(path)
            return
        }
        for (index, child) in mirror.children.enumerated() {
            expectNoUnorderedCollections(child.value, at: path + "." + (child.label ?? String(index)), &found)
        }
    }

    /// Every kind of read is a piece of the table (`ModelPieces`), a view of one (`ModelViews`), or
    /// one of the few the facts make otherwise (a body and its summaries, when a page's file
    /// changed, whether a member has check-ins, the theme, the reads of every record): a kind added
    /// to `Dependency.Kind` and to neither table fails here, not in a build that forgot it.
    @Test func everyKindOfReadIsInTheTables() {
        let pieces = Set(ModelPieces.every.map(\.kind)), views = Set(ModelViews.every.map(\.kind))
        let others: Set<Dependency.Kind> = Set([.changed, .summary, .checkedIn, .body, .template, .theme]).union(Dependency.everies.map(\.kind))
        #expect(pieces.isDisjoint(with: views) && pieces.isDisjoint(with: others) && views.isDisjoint(with: others))
        #expect(pieces.union(views).union(others) == Set(Dependency.Kind.allCases),
                "\(Set(Dependency.Kind.allCases).subtracting(pieces.union(views).union(others)))")
        #expect(ModelPieces.every.count == pieces.count && ModelViews.every.count == views.count)
        // A key names its read, for every kind.
        for kind in Dependency.Kind.allCases {
            let read = Dependency(kind, "reports/1094/x.md")
            #expect(Dependency(key: read.key) == read, "\(read.key)")
        }
    }

    @Test func theModelsPiecesHoldNoDictionaryOrSet() throws {
        let model = Self.model
        var found: [String] = []
        for member in model.members.values { expectNoUnorderedCollections(member, at: "member \(member.id)", &found) }
        for group in model.groups.values { expectNoUnorderedCollections(group, at: "group \(group.id)", &found) }
        for report in model.reports.values { expectNoUnorderedCollections(report, at: "report \(report.id)", &found) }
        expectNoUnorderedCollections(model.areas, at: "areas", &found)
        expectNoUnorderedCollections(model.locations, at: "locations", &found)
        expectNoUnorderedCollections(model.threads, at: "threads", &found)
        expectNoUnorderedCollections(model.sessions, at: "sessions", &found)
        expectNoUnorderedCollections(model.places, at: "places", &found)
        #expect(found.isEmpty, "facts would differ between runs: \(found.prefix(5))")
        #expect(!model.reports.isEmpty && !model.groups.isEmpty)
    }

    /// The build store keeps every piece of the model as a value (`ModelValues`, in
    /// `ValueCoding`'s form) for the builds after an edit of reports: each reads back as the
    /// value it was, property for property (its fingerprint is the same).
    @Test func everyPieceReadsBackAsItWasStored() throws {
        let model = Self.model
        func readsBack<T: Codable>(_ value: T) -> Bool {
            guard let read = ModelValues.decode(T.self, ModelValues.encode(value)) else { return false }
            return FingerprintEncoder.fingerprint(read) == FingerprintEncoder.fingerprint(value)
        }
        var wrong: [String] = []
        let pieces = ModelValues.pieces(of: model, images: ImageCatalog())
        for (key, piece) in pieces.sorted(by: { $0.key < $1.key }) {
            guard let codable = piece as? any Codable, readsBack(codable) else {
                wrong.append(key)
                continue
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(pieces.count > 50)
        // (The settings hold a set, whose order differs from process to process: compared as values.)
        #expect(ModelValues.decode(SiteConfig.self, ModelValues.encode(model.site)) == model.site)
        let index = MemberIndex(Pipeline.check(content: Repo.content).content.members)
        #expect(ModelValues.decode(MemberIndex.self, ModelValues.encode(index)) == index)
        #expect(!index.byEmail.isEmpty)
        // The members' index as the store keeps it: an address two members give names the first.
        #expect(MemberIndex(packed: index.packed) == index)
        let shared = MemberIndex([("zoe", "Z@Example.org"), ("anna", "z@example.org"), ("bram", "")])
        #expect(MemberIndex(packed: shared.packed) == shared && shared.resolve("z@EXAMPLE.org") == "zoe")
        #expect(MemberIndex(packed: Array(shared.packed.dropLast())) == nil && MemberIndex(packed: [])?.ids.isEmpty == true)
        // Scalars at their edges, and a damaged value is refused rather than misread.
        let edges: [Int64] = [0, -1, 1, .min, .max]
        #expect(ModelValues.decode([Int64].self, ModelValues.encode(edges)) == edges)
        #expect(ModelValues.decode([String: Double].self, ModelValues.encode(["a": 0.1, "ë": -2.5e300])) == ["a": 0.1, "ë": -2.5e300])
        #expect(ModelValues.decode(ReportModel.self, Array(ModelValues.encode(model.reports.values.first).dropLast(3))) == nil)
    }

    @Test func aFactChangesWithItsPieceOnly() throws {
        let model = Self.model
        let before = Facts(model, settings: "title: a", bodies: ["a.md": [1]], texts: Bodies(), images: ImageCatalog())
        let again = Facts(model, settings: "title: a", bodies: ["a.md": [1]], texts: Bodies(), images: ImageCatalog())
        #expect(before.changes(to: again).isEmpty)
        let other = Facts(model, settings: "title: b", bodies: ["a.md": [2], "b.md": [3]], texts: Bodies(), images: ImageCatalog())
        #expect(before.changes(to: other) == [Facts.siteKey, "body:a.md", "body:b.md"])
    }

    /// The dev server keeps a piece's fingerprint when its value equals the last model's: the
    /// facts it makes so are exactly those made by hashing every piece.
    @Test func factsKeptFromTheLastModelEqualFactsMadeAgain() throws {
        let model = Self.model
        let dir = TempDir()
        defer { dir.cleanup() }
        try copyTree(Repo.content, to: dir.path + "/content")
        let file = "reports/1011/2026-08-22-nachtmarkt-nieuwmarkt.md", first = "1011/2026-08-22-nachtmarkt-nieuwmarkt"
        let text = try String(contentsOfFile: dir.path + "/content/" + file, encoding: .utf8)
        let retitled = text.replacingOccurrences(of: "\ntitle: ", with: "\ntitle: Bewerkt: ")
        #expect(retitled != text)
        try retitled.write(toFile: dir.path + "/content/" + file, atomically: true, encoding: .utf8)
        let checked = Pipeline.check(content: dir.path + "/content")
        var stage = ModelStage(content: dir.path + "/content", readsHistory: false, environment: [:])
        let edited = stage.run(checked.content, captureTimes: checked.captureTimes, threadKeys: ThreadKeys(secret: Array("facts".utf8)),
                               now: Moment(seconds: 1_792_490_400)).0
        let before = Facts(model, settings: "title: a", bodies: [:], texts: Bodies(), images: ImageCatalog())
        let kept = Facts(edited, settings: "title: a", bodies: [:], texts: Bodies(), images: ImageCatalog(), previous: before,
                         before: (model, ImageCatalog()))
        let made = Facts(edited, settings: "title: a", bodies: [:], texts: Bodies(), images: ImageCatalog())
        #expect(kept == made)
        let changed = before.changes(to: kept)
        #expect(changed.contains("report:" + first) && changed.contains("reportHeadline:" + first))
        #expect(!changed.contains { $0.hasPrefix("report:") && $0 != "report:" + first }, "\(changed.sorted())")
    }

    @Test func aFingerprintSeesNestedProperties() throws {
        // Closures stay outside `#require` (see ImageTests: Swift 6.3 can mix them up).
        let firstMember = Self.model.members.values.sorted { $0.id < $1.id }.first
        var member = try #require(firstMember)
        let before = FingerprintEncoder.fingerprint(member)
        #expect(FingerprintEncoder.fingerprint(member) == before, "the same value, the same fingerprint")
        member.friends.append("someone-new")
        #expect(FingerprintEncoder.fingerprint(member) != before)
        let replied = Self.model.reports.values.sorted { $0.id < $1.id }.first { !$0.replies.isEmpty }
        var report = try #require(replied)
        let withReplies = FingerprintEncoder.fingerprint(report)
        report.replies.removeLast()
        #expect(FingerprintEncoder.fingerprint(report) != withReplies)
    }

    /// A list of ids (the order of every report) is fingerprinted by a shorter path that feeds
    /// the bytes the containers would: the same fingerprint as a value encoded element by element.
    @Test func aListOfIdsHasTheFingerprintOfItsElements() {
        struct OneByOne: Encodable {
            let ids: [String]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                for id in ids { try container.encode(id) }
            }
        }
        for ids in [[], ["1011/2026-08-22-nachtmarkt"], Self.model.reportOrder, ["é", "", "a\u{0}b"]] {
            #expect(FingerprintEncoder.fingerprint(ids) == FingerprintEncoder.fingerprint(OneByOne(ids: ids)), "\(ids.prefix(3))")
        }
        #expect(FingerprintEncoder.fingerprint(["a", "b"]) != FingerprintEncoder.fingerprint(["ab"]))
    }
}
