import Foundation
import PleinCore
@testable import PleinBuild
import PleinModel
import Testing

/// The content's history from git: a report posted, edited in a later commit, then replied to.
@Suite(.serialized) struct HistoryTests {
    /// A repository with a scripted history.
    struct Repository {
        let dir = TempDir()
        var root: String { dir.path + "/repo" }
        var content: String { root + "/content" }

        init() throws {
            try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: true)
            try git("init", "-q", "-b", "main")
        }

        @discardableResult
        func git(_ arguments: String..., at date: String = "2026-10-01T10:00:00+02:00", in folder: String? = nil) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", folder ?? root] + arguments
            var environment = ProcessInfo.processInfo.environment
            for (key, value) in ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_NAME": "Anna", "GIT_COMMITTER_NAME": "Anna",
                                 "GIT_AUTHOR_EMAIL": "anna@example.org", "GIT_COMMITTER_EMAIL": "anna@example.org"] {
                environment[key] = value
            }
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            guard process.terminationStatus == 0 else { throw Failure(text: "git \(arguments): \(text)") }
            return text
        }

        struct Failure: Error { let text: String }

        func write(_ relative: String, _ text: String) throws {
            let path = content + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func commit(_ message: String, at date: String) throws {
            try git("add", "-A", at: date)
            try git("commit", "-q", "-m", message, at: date)
        }
    }

    static let report = "reports/1094/2026-10-01-fiets/index.md"
    static let reportText = """
        ---
        title: Fiets gestolen
        category: suspicious
        at: 2026-10-01T09:00:00+02:00
        author: anna
        location: {lat: 52.36, lon: 4.94}
        ---
        Mijn fiets is weg.

        """

    /// Posted on 1 October, edited on 3 October, a reply on 4 October.
    static func history() throws -> Repository {
        let repo = try Repository()
        try repo.write("site.yaml", "title: Buurt\nbase_url: https://buurt.example.org/\nlanguage: en\ntimezone: Europe/Amsterdam\n")
        try repo.write("users/anna.md", "---\nname: Anna\nemail: anna@example.org\n---\n")
        try repo.write("users/bram.md", "---\nname: Bram\nemail: bram@example.org\n---\n")
        try repo.write(report, reportText)
        try repo.commit("A report", at: "2026-10-01T10:00:00+02:00")
        try repo.write(report, reportText + "Hij is blauw.\n")
        try repo.commit("Edit the report", at: "2026-10-03T12:00:00+02:00")
        try repo.write("reports/1094/2026-10-01-fiets/replies/20261004T0800-bram.md",
                       "---\nauthor: bram\nat: 2026-10-04T08:00:00+02:00\n---\nIk heb hem gezien.\n")
        try repo.commit("A reply", at: "2026-10-04T08:05:00+02:00")
        return repo
    }

    func build(_ content: String, output: String) -> SiteState {
        let options = BuildOptions(content: content, templates: Repo.templates, output: output, cache: Repo.cache("history"))
        return SiteState(options, tracking: false)
    }

    func text(_ state: SiteState, _ path: String) -> String {
        guard case .bytes(let bytes)? = state.files[path] else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func anEditedReportSaysSoInItsPageFeedAndSitemap() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        let state = build(repo.content, output: repo.dir.path + "/public")
        #expect(state.succeeded)
        #expect(state.notes.allSatisfy { !$0.contains("git") }, "\(state.notes)")

        let page = text(state, "reports/1094/2026-10-01-fiets/index.html")
        #expect(page.contains("<span class=\"edited\">· edited <time class=\"dt-updated\" datetime=\"2026-10-03T12:00:00+02:00\""))
        #expect(page.components(separatedBy: "class=\"edited\"").count == 2, "the reply, committed once, is not edited: \(page.components(separatedBy: "class=\"edited\"").dropFirst().map { $0.prefix(120) })")

        let feed = text(state, "reports/1094/feed.xml")
        #expect(feed.contains("<published>2026-10-01T07:00:00Z</published>"), "published stays the report's own time")
        #expect(feed.contains("<updated>2026-10-03T10:00:00Z</updated>"), "updated is the edit's commit")
        let replies = text(state, "reports/1094/2026-10-01-fiets/feed.xml")
        #expect(replies.contains("<published>2026-10-04T06:00:00Z</published>") && replies.contains("<updated>2026-10-04T06:00:00Z</updated>"))
        let json = text(state, "reports/1094/feed.json")
        #expect(json.contains("\"date_modified\": \"2026-10-03T10:00:00Z\""))

        let sitemap = text(state, "sitemap.xml")
        #expect(sitemap.contains("<loc>https://buurt.example.org/reports/1094/2026-10-01-fiets/</loc><lastmod>2026-10-04T06:05:00Z</lastmod>"))
        #expect(sitemap.contains("<loc>https://buurt.example.org/users/anna/</loc><lastmod>2026-10-01T08:00:00Z</lastmod>"))
    }

    @Test func rebuildingTheSameCommitIsByteIdenticalAndUncommittedEditsDoNotCount() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        let first = build(repo.content, output: repo.dir.path + "/a")
        let second = build(repo.content, output: repo.dir.path + "/b")
        #expect(first.files.keys.sorted() == second.files.keys.sorted())
        for (path, served) in first.files {
            if case .bytes(let a) = served, case .bytes(let b)? = second.files[path] { #expect(a == b, "\(path)") }
        }
        try repo.write("users/bram.md", "---\nname: Bram\nemail: bram@example.org\n---\nNog niet vastgelegd.\n")
        let dirty = build(repo.content, output: repo.dir.path + "/c")
        #expect(!text(dirty, "users/bram/index.html").contains("class=\"edited\""))
        #expect(text(dirty, "sitemap.xml").contains("<loc>https://buurt.example.org/users/bram/</loc><lastmod>2026-10-01T08:00:00Z</lastmod>"))
    }

    @Test func withoutAWholeHistoryTheBuildGoesOnAndSaysWhy() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        let shallow = repo.dir.path + "/shallow"
        try repo.git("clone", "-q", "--depth", "1", "file://" + repo.root, shallow, in: repo.dir.path)
        let state = build(shallow + "/content", output: repo.dir.path + "/public")
        #expect(state.succeeded)
        #expect(state.notes.contains { $0.contains("shallow clone") })
        #expect(!text(state, "reports/1094/2026-10-01-fiets/index.html").contains("class=\"edited\""))

        let plain = repo.dir.path + "/plain"
        try copyTree(repo.content, to: plain)
        let outside = build(plain, output: repo.dir.path + "/public2")
        #expect(outside.succeeded)
        #expect(outside.notes.contains { $0.contains("not in a git repository") })
    }

    /// `plein serve` asks git again only when what HEAD is made of changed on disk: an edit not
    /// committed leaves the history as it was, a commit is seen at the next update.
    @Test func aServedSiteReadsTheHistoryAgainAfterACommitOnly() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        let stamp = GitStamp(content: repo.content, environment: [:])
        #expect(stamp != nil)
        #expect(GitStamp(content: repo.content, environment: [:]) == stamp)
        let options = BuildOptions(content: repo.content, templates: Repo.templates, output: repo.dir.path + "/public", cache: Repo.cache("history"))
        var state = SiteState(options, tracking: true)
        let page = "reports/1094/2026-10-01-fiets/index.html"
        #expect(text(state, page).contains("edited <time class=\"dt-updated\" datetime=\"2026-10-03T12:00:00+02:00\""))

        try repo.write(Self.report, Self.reportText + "Hij is blauw.\nMet een mand.\n")
        #expect(GitStamp(content: repo.content, environment: [:]) == stamp, "an edit is not a commit")
        _ = state.update(content: [Self.report], templates: [])
        #expect(text(state, page).contains("Met een mand."))
        #expect(text(state, page).contains("edited <time class=\"dt-updated\" datetime=\"2026-10-03T12:00:00+02:00\""))

        try repo.commit("Edit again", at: "2026-10-05T09:00:00+02:00")
        #expect(GitStamp(content: repo.content, environment: [:]) != stamp)
        _ = state.update(content: [Self.report], templates: [])
        #expect(text(state, page).contains("edited <time class=\"dt-updated\" datetime=\"2026-10-05T09:00:00+02:00\""))
    }

    /// `plein serve` after a commit of another record than the one edited: the edit is taken
    /// record by record, with the committed record's history (only the files the new commits
    /// touched are read from git again), and the site is a fresh build's.
    @Test func aServedSiteTakesACommitRecordByRecord() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        let options = BuildOptions(content: repo.content, templates: Repo.templates, output: repo.dir.path + "/public", cache: Repo.cache("history"))
        var state = SiteState(options, tracking: true)
        try repo.write("users/bram.md", "---\nname: Bram\nemail: bram@example.org\n---\nFietst veel.\n")
        _ = state.update(content: ["users/bram.md"], templates: [])
        try repo.commit("Bram", at: "2026-10-07T09:00:00+02:00")
        try repo.write(Self.report, Self.reportText + "Hij is blauw.\nMet een mand.\n")
        _ = state.update(content: [Self.report], templates: [])
        #expect(state.lastChange.modelled?.members.contains("bram") == true && state.lastChange.modelled?.reports.isEmpty == false,
                "the report and the committed member made again: \(String(describing: state.lastChange.modelled))")
        #expect(text(state, "sitemap.xml").contains("<loc>https://buurt.example.org/users/bram/</loc><lastmod>2026-10-07T07:00:00Z</lastmod>"))
        let fresh = SiteState(options, tracking: false)
        #expect(state.files.keys.sorted() == fresh.files.keys.sorted())
        for path in fresh.files.keys where text(state, path) != text(fresh, path) { Issue.record("\(path) differs from a fresh build") }

        // A reply deleted and committed, then another edit: the deleted file's history moved, and
        // it is in neither the content nor the model.
        let reply = "reports/1094/2026-10-01-fiets/replies/20261004T0800-bram.md"
        unlink(repo.content + "/" + reply)
        _ = state.update(content: [reply], templates: [])
        try repo.commit("No reply", at: "2026-10-08T09:00:00+02:00")
        try repo.write("users/anna.md", "---\nname: Anna\nemail: anna@example.org\n---\nWoont hier.\n")
        _ = state.update(content: ["users/anna.md"], templates: [])
        #expect(state.succeeded && state.lastChange.modelled != nil)
        let again = SiteState(options, tracking: false)
        #expect(state.files.keys.sorted() == again.files.keys.sorted())
        for path in again.files.keys where text(state, path) != text(again, path) { Issue.record("\(path) differs from a fresh build after a deletion") }
    }

    /// A build with the build store after HEAD moved redoes, record by record, the records whose
    /// history moved with it (their "edited" dates), and nothing for a commit that left the
    /// content alone; an amended commit moves what it touched. Each build equals a clean one.
    @Test func aBuildAfterACommitRedoesTheRecordsItTouched() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        var options = BuildOptions.test(content: repo.content, output: repo.dir.path + "/public", suite: "history")
        options.cache = repo.dir.path + "/cache"
        var clean = options
        (clean.output, clean.remember, clean.cache) = (repo.dir.path + "/clean", false, repo.dir.path + "/clean-cache")
        let page = "reports/1094/2026-10-01-fiets/index.html"
        func pageText() -> String { (try? String(contentsOfFile: options.output + "/" + page, encoding: .utf8)) ?? "" }
        #expect(Pipeline.build(options).succeeded)

        // A commit of the report's text: its page says when.
        try repo.write(Self.report, Self.reportText + "Hij is blauw.\nMet een mand.\n")
        try repo.commit("Edit again", at: "2026-10-05T09:00:00+02:00")
        let committed = Pipeline.build(options)
        #expect(committed.succeeded && committed.recordByRecord, "after a commit: \(committed.fullBuildReason ?? "no reason given")")
        #expect(pageText().contains("edited <time class=\"dt-updated\" datetime=\"2026-10-05T09:00:00+02:00\""))
        IncrementalTests.expectSame(options, asClean: clean, "after a commit of a report")

        // A commit outside the content: nothing to do.
        try "Over de site.\n".write(toFile: repo.root + "/README.md", atomically: true, encoding: .utf8)
        try repo.commit("A readme", at: "2026-10-06T09:00:00+02:00")
        let outside = Pipeline.build(options)
        #expect(outside.succeeded && outside.unchanged, "a commit outside the content changes nothing")
        #expect(Pipeline.build(options).unchanged, "and the store knows the new HEAD")
        try "".write(toFile: repo.content + "/reports/.gitkeep", atomically: true, encoding: .utf8)
        try repo.commit("Keep the folder", at: "2026-10-06T10:00:00+02:00")
        #expect(Pipeline.build(options).unchanged, "a commit of a file no record is made of changes nothing")

        // The member's file committed once more, and the commit amended a day later: a commit
        // taken back and another made, with only a reply's file edited in the working tree.
        try repo.write("users/bram.md", "---\nname: Bram\nemail: bram@example.org\n---\nFietst veel.\n")
        try repo.commit("Bram", at: "2026-10-07T09:00:00+02:00")
        #expect(Pipeline.build(options).recordByRecord)
        try repo.git("commit", "-q", "--amend", "--no-edit", "--date", "2026-10-08T09:00:00+02:00", at: "2026-10-08T09:00:00+02:00")
        try repo.write("reports/1094/2026-10-01-fiets/replies/20261004T0800-bram.md",
                       "---\nauthor: bram\nat: 2026-10-04T08:00:00+02:00\n---\nIk heb hem gezien, bij het station.\n")
        let amended = Pipeline.build(options)
        #expect(amended.succeeded && amended.recordByRecord, "after an amend: \(amended.fullBuildReason ?? "no reason given")")
        let sitemap = (try? String(contentsOfFile: options.output + "/sitemap.xml", encoding: .utf8)) ?? ""
        #expect(sitemap.contains("<loc>https://buurt.example.org/users/bram/</loc><lastmod>2026-10-08T07:00:00Z</lastmod>"),
                "the sitemap says when the amended commit was made")
        IncrementalTests.expectSame(options, asClean: clean, "after an amended commit")

        // A merge that keeps one side's version of a file both sides changed, and takes another
        // file from the other side: the member's last change is the other side's (later) commit,
        // which the log of that file alone would hide, and the whole history shows.
        try repo.commit("The reply", at: "2026-10-09T09:00:00+02:00")
        try repo.git("checkout", "-q", "-b", "side")
        try repo.write("users/anna.md", "---\nname: Anna\nemail: anna@example.org\n---\nVan de zijtak.\n")
        try repo.write("users/bram.md", "---\nname: Bram\nemail: bram@example.org\n---\nFietst veel, ook 's winters.\n")
        try repo.commit("Side", at: "2026-10-12T09:00:00+02:00")
        try repo.git("checkout", "-q", "main")
        try repo.write("users/anna.md", "---\nname: Anna\nemail: anna@example.org\n---\nVan main.\n")
        try repo.commit("Main", at: "2026-10-11T09:00:00+02:00")
        #expect(Pipeline.build(options).succeeded)
        _ = try? repo.git("merge", "-q", "side", "-m", "Merge", at: "2026-10-13T09:00:00+02:00")
        try repo.git("checkout", "--ours", "content/users/anna.md")
        try repo.commit("Merge", at: "2026-10-13T09:00:00+02:00")
        let merged = Pipeline.build(options)
        #expect(merged.succeeded && merged.recordByRecord, "a merge: \(merged.fullBuildReason ?? "no reason given")")
        let after = (try? String(contentsOfFile: options.output + "/sitemap.xml", encoding: .utf8)) ?? ""
        #expect(after.contains("<loc>https://buurt.example.org/users/anna/</loc><lastmod>2026-10-12T07:00:00Z</lastmod>"),
                "the member's last change is the side's commit, as the whole history says (\(merged.recordByRecord ? "record by record" : "whole"))")
        IncrementalTests.expectSame(options, asClean: clean, "after a merge that kept one side's version of a file")
    }

    /// git runs in the environment the build is given (`BuildOptions.environment`, the one the
    /// command line was started with), not in the process's: a repository kept elsewhere through
    /// `GIT_DIR` is read with it, and not without it.
    @Test func gitRunsInTheEnvironmentTheBuildIsGiven() throws {
        let repo = try Self.history()
        defer { repo.dir.cleanup() }
        let elsewhere = repo.dir.path + "/kept-elsewhere.git"
        try FileManager.default.moveItem(atPath: repo.root + "/.git", toPath: elsewhere)
        let page = "reports/1094/2026-10-01-fiets/index.html"
        var options = BuildOptions(content: repo.content, templates: Repo.templates, output: repo.dir.path + "/with", cache: Repo.cache("history"))
        options.environment = ["GIT_DIR": elsewhere, "GIT_WORK_TREE": repo.root]
        let with = SiteState(options, tracking: false)
        #expect(with.succeeded && with.notes.allSatisfy { !$0.contains("not in a git repository") })
        #expect(text(with, page).contains("edited <time class=\"dt-updated\" datetime=\"2026-10-03T12:00:00+02:00\""))
        let without = build(repo.content, output: repo.dir.path + "/without")
        #expect(without.notes.contains { $0.contains("not in a git repository") })
    }

    @Test func aGitInitAboveTheContentChangesTheStamp() throws {
        let repo = try Repository()
        defer { repo.dir.cleanup() }
        try FileManager.default.removeItem(atPath: repo.root + "/.git")
        let outside = GitStamp(content: repo.content, environment: [:])
        #expect(outside != nil && GitStamp(content: repo.content, environment: [:]) == outside)
        try repo.git("init", "-q", "-b", "main")
        #expect(GitStamp(content: repo.content, environment: [:]) != outside)
    }
}
