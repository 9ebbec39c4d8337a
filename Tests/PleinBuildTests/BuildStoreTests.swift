import Foundation
@testable import PleinBuild
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinText
import PleinModel
import PleinRender
import Testing

/// The build store's own promises, below the builds that use it.
@Suite struct BuildStoreTests {
    /// A build reads the store in several transactions (the parts in parallel): if another build
    /// saved in between, the parts may not fit together, and the read must say so.
    @Test func partsOfDifferentSavesAreNotMixed() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try BuildStore.open(cacheRoot: dir.path).store
        var first = BuildStore.Snapshot()
        first.fingerprint = "f"
        first.outputs["page"] = BuildStore.Output(path: "index.html", hash: [1], dependencies: [], reads: [])
        try store.save(first, previous: nil)
        var head = try #require(try store.readHead().snapshot)
        var read = head
        _ = try store.readRest(into: &read, recordsMatching: [:])
        #expect(read.outputs["page"]?.path == "index.html")

        var second = first
        second.outputs["page"] = BuildStore.Output(path: "index.html", hash: [2], dependencies: [], reads: [])
        try store.save(second, previous: first)
        #expect(throws: BuildStore.Damaged.self) { try store.readRest(into: &head, recordsMatching: [:]) }
    }

    /// Records survive emptying the store (they stand for a file's bytes, whatever the build),
    /// but not a store started again because it could not be trusted.
    @Test func recordsOutliveAClearButNotAReset() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try BuildStore.open(cacheRoot: dir.path).store
        let hash = [UInt8](repeating: 7, count: 32)
        try store.saveRecords(["users/anna.md": (hash, [1, 2, 3])], context: "c", gone: [])
        let content = ["users/anna.md": ContentScan.Entry(size: 1, modified: 0, inode: 0, hash: hash)]
        try store.clear()
        #expect(try store.readRecords(matching: content).known.records["users/anna.md"]?.encoded == [1, 2, 3])
        let changed = ["users/anna.md": ContentScan.Entry(size: 1, modified: 0, inode: 0, hash: [UInt8](repeating: 8, count: 32))]
        #expect(try store.readRecords(matching: changed).known.records.isEmpty, "a record is for the bytes it was read from")
        #expect(try store.readRecords(matching: content).paths == ["users/anna.md"])
        try store.clear(keepingRecords: false)
        #expect(try store.readRecords(matching: content).known.records.isEmpty)
    }

    /// What an output read, as the store keeps it beside the reads: the same however the reads
    /// are ordered, whichever side made it (the graph of a full build, the keys a build after an
    /// edit rendered with), and another when one read more or other.
    @Test func theDigestOfReadsIsTheirsAlone() {
        let keys = ["report:1094/a", "reportHeadline:1094/a", "theme", "body:reports/1094/a.md"]
        #expect(ReadsDigest.digest(keys: keys) == ReadsDigest.digest(keys: keys.reversed()))
        #expect(ReadsDigest.digest(keys: keys).count == 16)
        #expect(ReadsDigest.digest(keys: keys) != ReadsDigest.digest(keys: keys.dropLast()))
        #expect(ReadsDigest.digest(keys: ["ab", "c"]) != ReadsDigest.digest(keys: ["a", "bc"]))
        var graph = QueryGraph(keys: ["theme"], reads: [:])
        graph.record("home", read: [.report("1094/a"), .reportHeadline("1094/a"), .theme, .body("reports/1094/a.md")])
        #expect(graph.digest(of: "home") == ReadsDigest.digest(keys: keys))
        // (Dependencies hashed as their keys, without making them; `theme` is a key of one.)
        let reads: Set<Dependency> = [.report("1094/a"), .reportHeadline("1094/a"), .theme, .body("reports/1094/a.md")]
        #expect(ReadsDigest.digest(reads.lazy.map(ReadsDigest.hash)) == ReadsDigest.digest(keys: keys))
        for read in reads { #expect(ReadsDigest.hash(read) == ReadsDigest.hash(read.key), "\(read.key)") }
    }

    /// A body's feed HTML is kept as the spans where it differs from its page HTML (the targets
    /// made absolute) and comes back byte for byte: targets of several kinds, one link many
    /// times, footnotes; HTML that differs elsewhere, or across a line, is kept whole.
    @Test func feedHTMLIsKeptAsWhereItDiffers() {
        let page = "https://buurt.example/reports/1001/a/"
        let resolve: (String) -> String = { $0.hasPrefix("https:") ? $0 : $0.hasPrefix("/") ? "https://buurt.example" + $0 : page + $0 }
        let texts = ["Zie [de melding](/reports/1002/b/ \"titel\"), ![foto](foto.jpg) en [x](/reports/1002/b/).[^1]\n\n[^1]: [Noot](../c/?a=1&b=2).\n",
                     "[één](/users/émile/) <https://e.org> [leeg]() [hier](#boven)\n", "Geen links.\n"]
        for text in texts {
            let body = PleinMarkdown.Markdown.render(text, idPrefix: "r", absoluteURL: resolve)
            let (html, feed) = (body.html.markup, body.absoluteHTML!.markup)
            let stored = BuildStore.stored(absolute: feed, html: html)
            #expect(BuildStore.absolute(stored, html: html) == feed, "\(text)")
            if feed != html { #expect(stored.hasPrefix("\u{1}") && stored.utf8.count < feed.utf8.count, "\(text)") }
        }
        for (html, feed) in [("<p>a</p>", "<p>b</p>"), ("<a href=\"x\">", "<a href=\"y\nz\">"), ("<p>a</p>", "<p>a</p>\n")] {
            #expect(BuildStore.stored(absolute: feed, html: html) == feed)
        }
    }

    /// The views the store keeps in a compact form come back as they went in, and bytes of
    /// another form or cut short are no such value (the build that loads everything takes over).
    @Test func compactValuesComeBackAsTheyWent() {
        let day = Moment(seconds: 1_790_000_000, isDateOnly: true)
        let times = [ReportTimes(at: Moment(seconds: 1_790_000_123), starts: nil), ReportTimes(at: day, starts: Moment(seconds: -5))]
        for value in times {
            #expect(ModelValues.decode(ReportTimes.self, ModelValues.encode(value)) == value)
        }
        let replies = ReportReplies(replies: [.init(name: "20261130T0900-zoë-jansen", at: day), .init(name: "", at: Moment(seconds: 0))])
        let bytes = ModelValues.encode(replies)
        #expect(ModelValues.decode(ReportReplies.self, bytes) == replies)
        #expect(ModelValues.decode(ReportReplies.self, Array(bytes.dropLast())) == nil)
        #expect(ModelValues.decode(ReportTimes.self, bytes) == nil)
        #expect(ModelValues.decode(Facts.At.self, ModelValues.encode(Facts.At(at: nil)))?.at == nil)
        #expect(ModelValues.decode(Facts.At.self, ModelValues.encode(Facts.At(at: day)))?.at == day)
        for headline in [
            ReportHeadline(id: "1094/a", area: "1094", file: "reports/1094/a.md", title: "Lamp « kapot »", category: .event, at: day, author: "zoë",
                           location: Coordinate(lat: 52.363_75, lon: -4.9374), starts: day, ends: nil, place: "Plein", changed: Moment(seconds: 7)),
            ReportHeadline(id: "x/y", area: "x", file: "", title: "", category: .message, at: Moment(seconds: 0), author: "",
                           location: nil, starts: nil, ends: day, place: nil, changed: nil),
        ] {
            #expect(ModelValues.decode(ReportHeadline.self, ModelValues.encode(headline)) == headline)
        }
        // A member: every property set, and none; a property added to `MemberModel` must be
        // added to its compact form too (this count says so).
        #expect(Mirror(reflecting: MemberModel(stored: "", file: "", revision: nil, name: "", avatar: nil, joined: nil, home: nil, nearPlace: nil,
                                               postcode: nil, diving: nil, bio: .empty, friends: [], groups: [], reports: [], follows: [],
                                               replies: [], albums: [], completedGoals: [], left: nil)).children.count == 19)
        let members = [
            MemberModel(stored: "zoë-jansen", file: "users/zoë-jansen.md", revision: Revision(created: day, changed: Moment(seconds: 1_790_000_999)),
                        name: "Zoë « Jansen »", avatar: "users/zoë.jpg", joined: day, home: Coordinate(lat: 52.36, lon: -4.93), nearPlace: "Plein",
                        postcode: "1094", diving: Member.Diving(certification: "AOWD", years: 3, dives: -1), bio: Body(markdown: "Hoi\n*jij*", line: 7),
                        friends: ["a", "b"], groups: ["g"], reports: ["1094/a"], follows: ["1094/b", ""], replies: [ReplyRef(report: "1094/a", index: 2)],
                        albums: [AlbumKey(group: "g", album: "x")], completedGoals: [GoalKey(group: "g", goal: "y")], left: Moment(seconds: 5)),
            MemberModel(stored: "", file: "", revision: nil, name: "", avatar: nil, joined: nil, home: nil, nearPlace: nil, postcode: nil,
                        diving: Member.Diving(certification: nil, years: nil, dives: nil), bio: .empty, friends: [], groups: [], reports: [],
                        follows: [], replies: [], albums: [], completedGoals: [], left: nil),
        ]
        for member in members {
            let bytes = ModelValues.encode(member)
            #expect(ModelValues.decode(MemberModel.self, bytes) == member)
            #expect(ModelValues.decode(MemberModel.self, Array(bytes.dropLast())) == nil)
        }
    }
}
