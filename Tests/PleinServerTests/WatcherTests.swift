import Foundation
@testable import PleinServer
import Testing

/// Each kind of save produces exactly one batch, with the paths that changed.
@Suite(.serialized) struct WatcherTests {
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "plein-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path + "/users", withIntermediateDirectories: true)
        try "a".write(toFile: path + "/users/anna.md", atomically: false, encoding: .utf8)
        return path
    }

    /// Polls until a batch arrives, then checks that no second one follows.
    func nextBatch(_ watcher: Watcher) async throws -> (Watcher.Batch?, Watcher.Batch?) {
        var first: Watcher.Batch?
        for _ in 0..<100 {
            if let batch = watcher.poll() { first = batch; break }
            try await Task.sleep(for: .milliseconds(20))
        }
        var second: Watcher.Batch?
        for _ in 0..<15 {
            if let batch = watcher.poll() { second = batch; break }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (first, second)
    }

    @Test func anEditIsOneBatch() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try Watcher(roots: ["content": root])
        let handle = try #require(FileHandle(forWritingAtPath: root + "/users/anna.md"))
        handle.seekToEndOfFile()
        handle.write(Data("bc".utf8))
        handle.write(Data("d".utf8))
        try handle.close()
        let (batch, extra) = try await nextBatch(watcher)
        #expect(batch == ["content": ["users/anna.md"]])
        #expect(extra == nil)
    }

    @Test func aNewFileInANewFolderIsSeen() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try Watcher(roots: ["content": root])
        try FileManager.default.createDirectory(atPath: root + "/reports/1094/2026-11-21-nieuw/replies", withIntermediateDirectories: true)
        try "x".write(toFile: root + "/reports/1094/2026-11-21-nieuw/index.md", atomically: false, encoding: .utf8)
        let (batch, extra) = try await nextBatch(watcher)
        let paths = try #require(batch?["content"])
        #expect(paths.contains("reports/1094/2026-11-21-nieuw/index.md"))
        #expect(paths.contains("reports"))
        #expect(extra == nil)
        // Its folder is watched now: a later edit there is seen too.
        try "y".write(toFile: root + "/reports/1094/2026-11-21-nieuw/index.md", atomically: false, encoding: .utf8)
        let (later, _) = try await nextBatch(watcher)
        #expect(later?["content"]?.contains("reports/1094/2026-11-21-nieuw/index.md") == true)
    }

    @Test func anAtomicRenameIsOneBatchWithoutTheTemporaryFile() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try Watcher(roots: ["content": root])
        // Editors save by writing a scratch file and renaming it over the original.
        try "new".write(toFile: root + "/users/.anna.md.swp", atomically: false, encoding: .utf8)
        try "new".write(toFile: root + "/users/anna.md.tmp", atomically: false, encoding: .utf8)
        #expect(rename(root + "/users/anna.md.tmp", root + "/users/anna.md") == 0)
        try "new".write(toFile: root + "/users/anna.md", atomically: true, encoding: .utf8)
        let (batch, extra) = try await nextBatch(watcher)
        #expect(batch == ["content": ["users/anna.md"]])
        #expect(extra == nil)
    }

    @Test func lostEventsAreSaidSoAndLaterEditsAreStillSeen() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try Watcher(roots: ["content": root])
        // Fill the kernel's queue while nobody reads it: each file is three events.
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
        for number in 0..<(limit / 3 + 200) {
            let path = root + "/users/burst-\(number).md"
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
            unlink(path)
        }
        try "edited".write(toFile: root + "/users/anna.md", atomically: false, encoding: .utf8)
        let (batch, _) = try await nextBatch(watcher)
        #expect(batch?.overflowed == true)
        // Watching goes on after the overflow.
        try "again".write(toFile: root + "/users/anna.md", atomically: false, encoding: .utf8)
        let (later, _) = try await nextBatch(watcher)
        #expect(later == ["content": ["users/anna.md"]])
    }

    @Test func aFolderMovedOutOfTheRootIsNoLongerWatched() async throws {
        let root = try folder()
        let outside = NSTemporaryDirectory() + "plein-moved-" + UUID().uuidString
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        let watcher = try Watcher(roots: ["content": root])
        #expect(rename(root + "/users", outside) == 0)
        let (moved, _) = try await nextBatch(watcher)
        #expect(moved == ["content": ["users"]])
        try "new".write(toFile: outside + "/anna.md", atomically: false, encoding: .utf8)
        let (after, _) = try await nextBatch(watcher)
        #expect(after == nil, "an edit outside the root is not content: \(String(describing: after))")
    }

    @Test func editorScratchFilesAreIgnored() {
        for name in [".anna.md.swp", "anna.md~", "4913", "anna.md.tmp", ".#anna.md", "x.dat.nosync1a2b"] {
            #expect(Watcher.ignored(name), "\(name)")
        }
        #expect(!Watcher.ignored("anna.md"))
    }
}
