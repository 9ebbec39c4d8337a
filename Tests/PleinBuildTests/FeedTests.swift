import Foundation
@testable import PleinBuild
import Testing

@Suite(.serialized) struct FeedTests {
    /// Feeds that hold the reply, found by the reply's entry id.
    func feeds(in site: [String: Data], containing needle: String) -> Set<String> {
        Set(site.filter { $0.key.hasSuffix(".xml") || $0.key.hasSuffix(".json") }
            .filter { String(decoding: $0.value, as: UTF8.self).contains(needle) }.keys)
    }

    @Test func editingOneReplyChangesOnlyItsEntryInTheFeedsThatHoldIt() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try copyTree(Repo.content, to: dir.path + "/content")
        let options = BuildOptions.test(content: dir.path + "/content", output: dir.path + "/public", suite: "feeds")
        #expect(Pipeline.build(options).succeeded)
        let before = snapshotTree(dir.path + "/public")

        let reply = "reports/1094/2026-08-16-buurtbarbecue-javaplein/replies/20260822T2140-zoe-jansen.md"
        let path = dir.path + "/content/" + reply
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "Wat een avond.", with: "Wat een geweldige avond.")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(Pipeline.build(options).succeeded)
        let after = snapshotTree(dir.path + "/public")

        let holders = feeds(in: before, containing: "replies/20260822T2140-zoe-jansen")
        #expect(holders.contains("reports/1094/2026-08-16-buurtbarbecue-javaplein/feed.xml"))
        #expect(holders.contains("users/zoe-jansen/feed.xml"))
        let changedFeeds = Set(after.keys.filter { ($0.hasSuffix(".xml") || $0.hasSuffix(".json")) && before[$0] != after[$0] })
        #expect(changedFeeds == holders)
        // In each, only the entry's text changed: `updated` comes from the content's times.
        for feed in changedFeeds where feed.hasSuffix(".xml") {
            let old = String(decoding: before[feed]!, as: UTF8.self).split(separator: "\n")
            let new = String(decoding: after[feed]!, as: UTF8.self).split(separator: "\n")
            #expect(old.count == new.count)
            let differing = zip(old, new).filter { $0 != $1 }
            #expect(differing.allSatisfy { $0.0.contains("Wat een avond") || $0.0.contains("<summary>") }, "\(feed): \(differing)")
        }
    }

    @Test func theDemoBuildsInEnglishToo() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try copyTree(Repo.content, to: dir.path + "/content")
        let sitePath = dir.path + "/content/site.yaml"
        let site = try String(contentsOfFile: sitePath, encoding: .utf8).replacingOccurrences(of: "language: nl", with: "language: en")
        try site.write(toFile: sitePath, atomically: true, encoding: .utf8)
        let report = Pipeline.build(BuildOptions.test(content: dir.path + "/content", output: dir.path + "/public", suite: "feeds"))
        #expect(report.succeeded, "\(report.diagnostics.map(\.message))")
        let home = try String(contentsOfFile: dir.path + "/public/index.html", encoding: .utf8)
        #expect(home.contains("<html lang=\"en\">"))
        #expect(home.contains(">Members</a>"))
        #expect(!home.contains(">Leden</a>"))
    }
}
