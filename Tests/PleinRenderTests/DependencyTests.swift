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
    /// are compared whole, not by prefix.
    @Test func aKeptListsEntryIsTakenWhileNoneOfItsReadsChanged() {
        func reads(_ keys: [String]) -> [UInt8] { keys.flatMap { Array($0.utf8) + [0] } }
        let entries: [String: (reads: [UInt8], bytes: [UInt8])] = [
            "1094/a": (reads(["reportHeadline:1094/a", "summary:reports/1094/a.md"]), [1]),
            "1094/b": (reads([]), [2]),
        ]
        let unchanged = KeptList(recorded: ["every:reportHeadline"], entries: entries, changed: [])
        #expect(unchanged.bytes("1094/a") == [1] && unchanged.bytes("1094/b") == [2] && unchanged.bytes("1094/c") == nil)
        let other = KeptList(recorded: [], entries: entries, changed: ["reportHeadline:1094/b", "reportHeadline:1094/", "summary:reports/1094/a"])
        #expect(other.bytes("1094/a") == [1] && other.bytes("1094/b") == [2])
        let summary = KeptList(recorded: [], entries: entries, changed: ["summary:reports/1094/a.md"])
        #expect(summary.bytes("1094/a") == nil && summary.bytes("1094/b") == [2])
        let headline = KeptList(recorded: [], entries: entries, changed: ["reportHeadline:1094/a"])
        #expect(headline.bytes("1094/a") == nil)
    }
}
