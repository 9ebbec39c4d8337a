import Foundation
import PleinCore
@testable import PleinBuild
import PleinRender
import Testing

@Suite(.serialized) struct BuildTests {
    @Test func demoContentChecksClean() {
        let result = Pipeline.check(content: Repo.content)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map { "\($0.file): \($0.message)" })")
    }

    @Test func buildingTwiceGivesIdenticalOutput() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let first = Pipeline.build(BuildOptions.test(content: Repo.content, output: dir.path + "/a", suite: "build"))
        let second = Pipeline.build(BuildOptions.test(content: Repo.content, output: dir.path + "/b", suite: "build"))
        #expect(first.succeeded && second.succeeded)
        let a = snapshotTree(dir.path + "/a"), b = snapshotTree(dir.path + "/b")
        #expect(a.count > 20)
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, bytes) in a where b[path] != bytes {
            Issue.record("\(path) differs between builds")
        }
    }

    /// An attachment is published from the file that was checked: one that became a link out
    /// of the content (or to a member's file) after loading is refused, and a FIFO does not
    /// block the build. What is published is a copy: writing into it leaves the content alone.
    @Test func onlyCheckedContentFilesArePublished() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let root = dir.path + "/content"
        try dir.write(["reports/1094/a/plan.txt": "plan", "reports/1094/a/inside.txt": "inside", "users/anna.md": "---\nemail: a@b.nl\n---\n"],
                      under: "content")
        #expect(symlink("/etc/passwd", root + "/reports/1094/a/outside.txt") == 0)
        #expect(symlink("plan.txt", root + "/reports/1094/a/alias.txt") == 0)
        #expect(symlink("../../../users/anna.md", root + "/reports/1094/a/anna.txt") == 0)
        #expect(mkfifo(root + "/reports/1094/a/pipe.txt", 0o644) == 0)
        let writer = try OutputWriter(output: dir.path + "/public")
        try writer.copyContent(root: root, "reports/1094/a/plan.txt", as: "reports/1094/a/plan.txt")
        try writer.copyContent(root: root, "reports/1094/a/alias.txt", as: "reports/1094/a/alias.txt")
        #expect(throws: OutputWriter.Failure.self) { try writer.copyContent(root: root, "reports/1094/a/outside.txt", as: "x.txt") }
        #expect(throws: OutputWriter.Failure.self) { try writer.copyContent(root: root, "reports/1094/a/anna.txt", as: "w.txt") }
        #expect(throws: OutputWriter.Failure.self) { try writer.copyContent(root: root, "reports/1094/a/pipe.txt", as: "y.txt") }
        #expect(throws: OutputWriter.Failure.self) { try writer.copyContent(root: root, "../../etc/passwd", as: "z.txt") }
        try writer.commit()
        let published = dir.path + "/public/reports/1094/a/"
        #expect(try String(contentsOfFile: published + "alias.txt", encoding: .utf8) == "plan")
        var info = stat(), source = stat()
        #expect(lstat(published + "alias.txt", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "a file, not a link")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public/x.txt"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public/w.txt"))
        #expect(lstat(published + "plan.txt", &info) == 0 && stat(root + "/reports/1094/a/plan.txt", &source) == 0)
        #expect(info.st_ino != source.st_ino && info.st_nlink == 1, "a copy, not a hard link to the content")
        let handle = try #require(FileHandle(forWritingAtPath: published + "plan.txt"))
        handle.seekToEndOfFile()
        handle.write(Data(" and more".utf8))
        handle.closeFile()
        #expect(try String(contentsOfFile: root + "/reports/1094/a/plan.txt", encoding: .utf8) == "plan")
    }

    /// A file of the recycled spare that nothing else links to is brought up to date in place
    /// from its first changed byte, longer or shorter; one shared with the output as a hard link is
    /// replaced, never written into; the output is whole after every swap.
    @Test func theSpareIsWrittenInPlaceOnlyWhereItOwnsAFile() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/public"
        func publish(_ files: [String: String]) throws {
            let writer = try OutputWriter(output: output)
            for (path, text) in files.sorted(by: { $0.key < $1.key }) { try writer.write(OutputFile(path: path, bytes: Array(text.utf8))) }
            try writer.commit()
            for (path, text) in files { #expect(try String(contentsOfFile: output + "/" + path, encoding: .utf8) == text, "\(path)") }
        }
        func inode(_ path: String) -> (inode: UInt64, links: Int) {
            var info = stat()
            return stat(path, &info) == 0 ? (UInt64(info.st_ino), Int(info.st_nlink)) : (0, 0)
        }
        let long = String(repeating: "feature,", count: 20_000)
        try publish(["map.geojson": "[" + long + "]", "same.txt": "kept"])
        try publish(["map.geojson": "[" + long + "new]", "same.txt": "kept"])
        // The spare now holds the first map (its own file) and the same text (shared with the output).
        let spare = OutputWriter.sparePath(for: output)
        let ownMap = inode(spare + "/map.geojson"), shared = inode(spare + "/same.txt")
        #expect(ownMap.links == 1 && shared.links == 2)
        try publish(["map.geojson": "[" + long + "newer, and longer]", "same.txt": "changed"])
        #expect(inode(output + "/map.geojson").inode == ownMap.inode, "the spare's own file was written into and swapped in")
        #expect(inode(output + "/same.txt").inode != shared.inode, "a shared file is replaced")
        #expect(try String(contentsOfFile: spare + "/same.txt", encoding: .utf8) == "kept", "and the old output keeps its bytes")
        try publish(["map.geojson": "[short]", "same.txt": "changed"])
        try publish(["map.geojson": "[" + long + "]", "same.txt": "changed"])
    }

    /// `public/` owns its bytes: no file of it is a file of the content or the cache (photo
    /// variants, videos, attachments were hard links to both), so a deploy step that writes into
    /// the output can change neither, and the next build, `--fresh` or not, publishes what it made.
    @Test func theOutputSharesNoFileWithTheContentOrTheCache() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/public"
        let options = BuildOptions.test(content: Repo.content, output: output, suite: "owned")
        #expect(Pipeline.build(options).succeeded)
        #expect(Pipeline.build(options).succeeded, "a second build, from the spare")
        func identities(_ root: String) -> [String: String] {
            var found: [String: String] = [:]
            guard let walker = FileManager.default.enumerator(atPath: root) else { return found }
            while let relative = walker.nextObject() as? String {
                var info = stat()
                if lstat(root + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { found["\(info.st_dev):\(info.st_ino)"] = relative }
            }
            return found
        }
        let published = identities(output)
        let others = identities(options.cacheRoot).merging(identities(Repo.content)) { first, _ in first }
        let shared = published.filter { others[$0.key] != nil }.map(\.value).sorted()
        #expect(shared.isEmpty, "shared with the content or the cache: \(shared.prefix(5))")
        #expect(published.values.contains { $0.hasPrefix("media/") && $0.hasSuffix(".webp") }, "photo variants are there to compare")
        // Writing into a published variant leaves the cache alone: a fresh build publishes the image as made.
        let variant = try #require(published.values.first { $0.hasPrefix("media/") && $0.hasSuffix(".webp") })
        let made = try Data(contentsOf: URL(fileURLWithPath: output + "/" + variant))
        let handle = try #require(FileHandle(forWritingAtPath: output + "/" + variant))
        handle.write(Data("corrupt".utf8))
        handle.closeFile()
        var fresh = options
        fresh.fresh = true
        #expect(Pipeline.build(fresh).succeeded)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/" + variant)) == made)
    }

    @Test func rebuildingIntoTheSameOutputReplacesIt() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/public"
        try FileManager.default.createDirectory(atPath: output + "/stale", withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: output + "/stale/page.html"))
        try Data().write(to: URL(fileURLWithPath: output + "/.gitkeep"))
        let report = Pipeline.build(BuildOptions.test(content: Repo.content, output: output, suite: "build"))
        #expect(report.succeeded)
        #expect(!FileManager.default.fileExists(atPath: output + "/stale/page.html"))
        #expect(FileManager.default.fileExists(atPath: output + "/.gitkeep"), "hidden files at the top are kept")
        #expect(FileManager.default.fileExists(atPath: output + "/index.html"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".plein-staging") || $0.contains(".plein-old") }
        #expect(leftovers.isEmpty, "no staging folder is left behind")
    }

    /// Rebuilds reuse the site before the previous one as their staging folder: whatever that
    /// spare holds (stale pages, files edited or added by hand, a file where a folder belongs),
    /// the result must be exactly a fresh build, and the output must never be written in place.
    /// (Without the build store: with it, the store vouches for the spare, plein's own folder.)
    @Test func rebuildsFromTheSpareEqualFreshBuilds() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/public", spare = dir.path + "/.public.plein-spare"
        try copyTree(Repo.content, to: dir.path + "/content")
        var options = BuildOptions.test(content: dir.path + "/content", output: output, suite: "build")
        options.remember = false
        #expect(Pipeline.build(options).succeeded)
        #expect(Pipeline.build(options).succeeded)
        #expect(FileManager.default.fileExists(atPath: spare + "/index.html"), "the previous site is kept as the spare")

        // Edit content, and tamper with the spare the next build will reuse.
        let reportFolder = dir.path + "/content/reports"
        let area = try FileManager.default.contentsOfDirectory(atPath: reportFolder).sorted().first { !$0.hasPrefix(".") }!
        let report = try FileManager.default.contentsOfDirectory(atPath: reportFolder + "/" + area).sorted().first { $0.hasSuffix(".md") }!
        let reportPath = reportFolder + "/" + area + "/" + report
        try (String(contentsOfFile: reportPath, encoding: .utf8) + "\nEen zin die er net bij kwam.\n").write(toFile: reportPath, atomically: true, encoding: .utf8)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: spare + "/index.html"))
        try Data("by hand".utf8).write(to: URL(fileURLWithPath: spare + "/users/extra.html"))
        try FileManager.default.removeItem(atPath: spare + "/groups")
        try Data("a file where a folder belongs".utf8).write(to: URL(fileURLWithPath: spare + "/groups"))
        try FileManager.default.removeItem(atPath: spare + "/robots.txt")
        try FileManager.default.createDirectory(atPath: spare + "/robots.txt/odd", withIntermediateDirectories: true)
        let liveBefore = snapshotTree(output)

        #expect(Pipeline.build(options).succeeded)
        let fresh = dir.path + "/fresh"
        #expect(Pipeline.build(BuildOptions.test(content: dir.path + "/content", output: fresh, suite: "build")).succeeded)
        let rebuilt = snapshotTree(output), expected = snapshotTree(fresh)
        let extra = Set(rebuilt.keys).subtracting(expected.keys), missing = Set(expected.keys).subtracting(rebuilt.keys)
        #expect(extra.isEmpty && missing.isEmpty, "extra: \(extra.sorted()), missing: \(missing.sorted())")
        for (path, bytes) in expected where rebuilt[path] != nil && rebuilt[path] != bytes { Issue.record("\(path) differs from a fresh build") }
        // The site that was live a moment ago is now the spare, unchanged: nothing was written in place.
        #expect(snapshotTree(spare) == liveBefore)
    }

    /// The look at the output for a file changed since the last build (`OutputCheck`): a file
    /// written into or gone is found, wherever it is among the paths, and none when none is.
    @Test func theOutputCheckFindsAFileChangedOrGone() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var paths: [String] = []
        for folder in 0..<50 {
            try FileManager.default.createDirectory(atPath: dir.path + "/f\(folder)", withIntermediateDirectories: true)
            for file in 0..<100 {
                let path = "f\(folder)/page-\(file).html"
                try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path + "/" + path))
                paths.append(path)
            }
        }
        let bytes: [UInt8] = paths.flatMap { Array($0.utf8) + [UInt8(0)] }
        for victim in [paths[3], paths[2_600], paths.last!] {
            usleep(20_000)
            let since = OutputCheck.now(near: dir.path + "/none")
            #expect(OutputCheck.firstChanged(in: dir.path, among: bytes, count: paths.count, since: since) == nil)
            usleep(20_000)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.path + "/" + victim))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("by hand".utf8))
            try handle.close()
            #expect(OutputCheck.firstChanged(in: dir.path, among: bytes, count: paths.count, since: since) == victim)
            try FileManager.default.removeItem(atPath: dir.path + "/" + victim)
            #expect(OutputCheck.firstChanged(in: dir.path, among: bytes, count: paths.count, since: since) == victim, "a file gone is found")
            try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path + "/" + victim))
        }
    }

    /// What is upcoming depends on the day of the build: a build on the next day with nothing
    /// edited is not a build in which nothing changed. It renders again only the outputs that
    /// show upcoming events, record by record from the build store (it once made the whole
    /// site: the first build of every day, 93 s at 100,000 reports), and gives what a fresh
    /// build on that day gives; so does an edit on the day after.
    @Test func aBuildOnAnotherDayMovesEventsThatPassed() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/public"
        try copyTree(Repo.content, to: dir.path + "/content")
        var options = BuildOptions.test(content: dir.path + "/content", output: output, suite: "build")
        options.history = false
        // 2026-12-05 at 11:00 in Amsterdam: the photo walk in the Oosterpark is on, the lichtjesavond to come.
        options.now = Moment(seconds: 1_796_464_800)
        #expect(Pipeline.build(options).succeeded)
        let again = Pipeline.build(options)
        #expect(again.unchanged, "the same day, nothing edited: nothing to do")
        let before = try String(contentsOfFile: output + "/events/index.html", encoding: .utf8)
        #expect(before.components(separatedBy: "events-past")[0].contains("Winterwandeling met de camera"), "upcoming all day long")

        // The next day the walk has passed.
        options.now = Moment(seconds: 1_796_464_800 + 86_400)
        let nextDay = Pipeline.build(options)
        #expect(nextDay.succeeded && !nextDay.unchanged)
        #expect(nextDay.recordByRecord, "the next day: \(nextDay.fullBuildReason ?? "no reason given")")
        #expect(Pipeline.build(options).unchanged, "the same day again: nothing to do")
        #expect(Set(nextDay.renderedOutputs).isSuperset(of: ["home", "events", "group:oosterpark-fotografen"]))
        #expect(!nextDay.renderedOutputs.contains("report:1094/2026-08-16-buurtbarbecue-javaplein"), "a page that shows no upcoming events is kept")
        let after = try String(contentsOfFile: output + "/events/index.html", encoding: .utf8)
        #expect(after.components(separatedBy: "id=\"events-past\"")[1].contains("Winterwandeling met de camera"))

        var freshOptions = BuildOptions.test(content: dir.path + "/content", output: dir.path + "/fresh", suite: "build")
        freshOptions.history = false
        freshOptions.now = options.now
        freshOptions.remember = false
        #expect(Pipeline.build(freshOptions).succeeded)
        #expect(snapshotTree(output) == snapshotTree(dir.path + "/fresh"))

        // A day later, an edit of a report's text: the day and the edit, record by record.
        options.now = Moment(seconds: 1_796_464_800 + 2 * 86_400)
        freshOptions.now = options.now
        let report = dir.path + "/content/reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        try (try String(contentsOfFile: report, encoding: .utf8) + "\nEen dag later.\n").write(toFile: report, atomically: true, encoding: .utf8)
        let edited = Pipeline.build(options)
        #expect(edited.succeeded && edited.recordByRecord, "an edit a day later: \(edited.fullBuildReason ?? "no reason given")")
        try? FileManager.default.removeItem(atPath: dir.path + "/fresh")
        #expect(Pipeline.build(freshOptions).succeeded)
        #expect(snapshotTree(output) == snapshotTree(dir.path + "/fresh"))
    }

    /// `--output some/new/public`: the missing folders are made; an output that cannot be made
    /// stops the build before its work, with the reason.
    @Test func anOutputInFoldersThatDoNotExistIsMade() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/some/new/public"
        #expect(Pipeline.build(BuildOptions.test(output: output, suite: "build")).succeeded)
        #expect(FileManager.default.fileExists(atPath: output + "/index.html"))
        try Data("a file".utf8).write(to: URL(fileURLWithPath: dir.path + "/file"))
        let blocked = Pipeline.build(BuildOptions.test(output: dir.path + "/file/in/public", suite: "build"))
        #expect(!blocked.succeeded && blocked.pages == 0)
        #expect(blocked.failure?.contains("cannot create the output's folder") == true, "\(blocked.failure ?? "")")
    }

    @Test func aFailedBuildLeavesThePreviousOutputUntouched() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let output = dir.path + "/public"
        #expect(Pipeline.build(BuildOptions.test(content: Repo.content, output: output, suite: "build")).succeeded)
        let before = snapshotTree(output)

        try copyTree(Repo.content, to: dir.path + "/content")
        try dir.write(["users/kapot.md": "---\nname: [unclosed\n---\n"], under: "content")
        let failed = Pipeline.build(BuildOptions.test(content: dir.path + "/content", output: output, suite: "build"))
        #expect(!failed.succeeded)
        #expect(failed.diagnostics.contains { $0.file.hasSuffix("users/kapot.md") && $0.severity == .error })
        #expect(snapshotTree(output) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".plein-staging") || $0.contains(".plein-old") }
        #expect(leftovers.isEmpty)
    }

    @Test func noEmailAddressReachesTheOutput() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        // A folder inside the temporary one, so the spare kept beside the output goes with it.
        let output = dir.path + "/public"
        let report = Pipeline.build(BuildOptions.test(content: Repo.content, output: output, suite: "build"))
        #expect(report.succeeded)
        let emails = Pipeline.check(content: Repo.content).content.members.map(\.email)
        #expect(emails.count >= 15)
        for (path, email) in occurrences(of: emails, in: output, ignoringCase: true) {
            Issue.record("\(email) appears in \(path)")
        }
    }

    @Test func aCorruptPhotoFailsTheBuildWithItsPath() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try copyTree(Repo.content, to: dir.path + "/content")
        let photo = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland/zonsondergang-brouwershaven.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/content/" + photo))
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: dir.path + "/content/" + photo))
        let report = Pipeline.build(BuildOptions.test(content: dir.path + "/content", output: dir.path + "/public", suite: "build"))
        #expect(!report.succeeded)
        let problems = report.diagnostics.filter { $0.severity == .error }
        #expect(problems.count == 1)
        #expect(problems.first?.file == dir.path + "/content/" + photo)
        #expect(problems.first.map { if case .corruptImage = $0.problem { true } else { false } } == true)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public"))
    }

    /// The first build of the demo is the one that made the shared media (`SharedMedia`, made
    /// cold by another build of this run); this build, in a cache of its own that holds links to
    /// them, and the one after it make no image again and reuse every variant.
    @Test func aSecondBuildMakesNoImageAgain() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let cache = dir.path + "/cache"
        SharedMedia.seed(cache)
        var options = BuildOptions(content: Repo.content, templates: Repo.templates, output: dir.path + "/public", cache: cache)
        // A full build each time (the build store would find nothing changed and stop at once).
        options.remember = false
        let second = Pipeline.build(options)
        #expect(second.succeeded)
        #expect(second.imagesMade == 0)
        #expect(second.imagesReused > 100, "every variant of the demo's photos and its video's poster: \(second.imagesReused)")
        let third = Pipeline.build(options)
        #expect(third.succeeded && third.imagesMade == 0 && third.imagesReused == second.imagesReused)
    }
}
