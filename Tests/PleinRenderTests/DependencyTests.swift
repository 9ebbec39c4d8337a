import PleinCore
@testable import PleinRender
import Testing

/// A read inside `readingEvery` is recorded as the read of every record's view that stands for
/// it (`Dependency.every`); the facts of those reads are sums of the facts whose keys
/// `Dependency.every(covering:)` names. The two must agree, or an output would not be rendered
/// again when a view it read changed.
@Suite struct DependencyTests {
    @Test func aReadOfEveryRecordStandsForTheFactsItCovers() {
        let reads: [Dependency] = [
            .reportHeadline("1094/a"), .reportTimes("1094/a"), .reportReplies("1094/a"), .memberJoined("zoë"),
            .summary("reports/1094/a.md"), .summary("reports/1094/b/index.md"), .summary("reports/1094/b/replies/20261120T1000-zoë.md"),
            .summary("groups/g/index.md"), .report("1094/a"), .member("zoë"), .memberCard("zoë"), .body("reports/1094/a.md"),
            .areaCard("1094"), .groupActivity("g"), .locationName("ub"), .checkedIn("zoë"),
        ]
        for read in reads {
            #expect(read.every == Dependency.every(covering: read.key), "\(read.key)")
        }
        #expect(reads.compactMap(\.every).count == 6)
        // A reply's summary, or a group's, is not a report's own text: it is read one by one.
        #expect(Dependency.summary("reports/1094/b/replies/20261120T1000-zoë.md").every == nil)
        #expect(Set(reads.compactMap(\.every)) == Set(Dependency.everies))
        // The reads of every record are not themselves covered by one.
        #expect(Dependency.everies.allSatisfy { $0.every == nil && Dependency.every(covering: $0.key) == nil })
    }

    /// The fragment memory keeps a part's reads by their keys and records them again from
    /// there (`Dependency(key:)`): every dependency is read back from its key as itself.
    @Test func everyDependencyIsReadBackFromItsKey() {
        let all: [Dependency] = [
            .member("zoë"), .group("g"), .report("1094/a"), .reportTimes("1094/a"), .reportReplies("1094/a"), .memberJoined("zoë"),
            .memberCard("zoë"), .groupEvents("g"), .groupCard("g"), .groupActivity("g"), .areaCard("1094"), .changed("page:over"),
            .reportHeadline("1094/a"), .summary("reports/1094/a.md"), .area("1094"), .location("ub"), .locationName("ub"),
            .checkedIn("zoë"), .thread("t"), .sessions("zoë"), .page("over"), .pageOrder, .menu, .formerMembers, .memberOrder,
            .groupOrder, .reportOrder, .areaOrder, .locationOrder, .places, .asOf, .today, .body("users/zoë.md"),
            .image("groups/g/albums/a/1.jpg"), .everyReportHeadline, .everyReportTimes, .everyReportReplies, .everyReportSummary,
            .everyMemberJoined, .template("report"), .theme,
        ]
        for dependency in all {
            #expect(Dependency(key: dependency.key) == dependency, "\(dependency.key)")
        }
        #expect(Set(all.map(\.key)).count == all.count)
        #expect(Dependency(key: "nothing:x") == nil && Dependency(key: "nothing") == nil)
    }

    /// A list's entry is taken while none of its reads is among the facts changed; the reads
    /// are compared whole, not by prefix. Entries are found by their ids' bytes.
    @Test func aKeptListsEntryIsTakenWhileNoneOfItsReadsChanged() {
        func reads(_ keys: [String]) -> [UInt8] { keys.flatMap { Array($0.utf8) + [0] } }
        let entries: [(id: String, reads: [UInt8], bytes: [UInt8])] = [
            ("1094/a", reads(["reportHeadline:1094/a", "summary:reports/1094/a.md"]), [1]),
            ("1094/ab", reads([]), [3]),
            ("1094/b", reads([]), [2]),
            ("1094/é", reads(["reportHeadline:1094/é"]), [4]),
        ]
        func list(_ changed: Set<String>, recorded: [String] = []) -> KeptList {
            var storage: [UInt8] = []
            var rows: [KeptList.Row] = []
            func put(_ bytes: [UInt8]) -> Range<Int> {
                storage += bytes
                return (storage.count - bytes.count)..<storage.count
            }
            for entry in entries { rows.append(KeptList.Row(id: put(Array(entry.id.utf8)), reads: put(entry.reads), bytes: put(entry.bytes))) }
            return KeptList(recorded: recorded, storage: storage, rows: rows, changed: changed)
        }
        func find(_ list: KeptList, _ id: String) -> Int? {
            var hint = 0
            return list.find(id, hint: &hint)
        }
        func bytes(_ list: KeptList, _ id: String) -> [UInt8]? { find(list, id).flatMap(list.bytes(at:)).map(Array.init) }
        let unchanged = list([], recorded: ["every:reportHeadline"])
        #expect(bytes(unchanged, "1094/a") == [1] && bytes(unchanged, "1094/b") == [2] && bytes(unchanged, "1094/ab") == [3])
        #expect(bytes(unchanged, "1094/é") == [4] && bytes(unchanged, "1094/c") == nil && bytes(unchanged, "1094/") == nil)
        #expect(find(unchanged, "1094/c") == nil && unchanged.id(at: 1) == "1094/ab")
        // Ids asked for in order are found from the last one found; others by bisection.
        var hint = 0
        #expect(["1094/a", "1094/ab", "1094/b", "1094/é"].map { unchanged.find($0, hint: &hint) } == [0, 1, 2, 3] && hint == 4)
        #expect(["1094/b", "1094/a", "1094/zz", "1094/ab"].map { unchanged.find($0, hint: &hint) } == [2, 0, nil, 1])
        let other = list(["reportHeadline:1094/b", "reportHeadline:1094/", "summary:reports/1094/a"])
        #expect(bytes(other, "1094/a") == [1] && bytes(other, "1094/b") == [2])
        let summary = list(["summary:reports/1094/a.md"])
        #expect(bytes(summary, "1094/a") == nil && find(summary, "1094/a") != nil && bytes(summary, "1094/b") == [2])
        let headline = list(["reportHeadline:1094/a", "reportHeadline:1094/é"])
        #expect(bytes(headline, "1094/a") == nil && bytes(headline, "1094/é") == nil && bytes(headline, "1094/ab") == [3])
    }
}
