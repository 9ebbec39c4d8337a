import Foundation
import PleinCore
@testable import PleinBuild
import Testing

/// The build store's scan (`ContentScan`, `ScanIndex`): it decides that nothing changed without
/// reading a file, so every way a file's bytes can change must show in what it compares.
@Suite struct ContentScanTests {
    /// A clock ten seconds ahead: the files just written are old enough to be vouched for by
    /// their times (else each scan reads them again, as it must for a file changed this second).
    static func later() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int64(time.tv_sec) + 10) * 1_000_000_000
    }

    func site() throws -> TempDir {
        let dir = TempDir()
        try dir.write([
            "site.yaml": "title: x\n", "users/anna.md": "---\nname: Anna\n---\n", "users/.hidden.md": "x", "users/bob.md~": "backup",
            "reports/1094/2026-01-01-a.md": "---\ntitle: A\n---\nbody\n",
            "reports/1094/2026-01-02-b/index.md": "---\ntitle: B\n---\n",
            "reports/1094/2026-01-02-b/replies/20260103T1200-anna.md": "---\nauthor: anna\n---\nreply\n",
        ], under: "content")
        return dir
    }

    func write(_ dir: TempDir, _ path: String, _ text: String) throws {
        try text.write(toFile: dir.path + "/content/" + path, atomically: false, encoding: .utf8)
    }

    @Test func aFirstScanSeesEveryFileAndNothingHidden() throws {
        let dir = try site()
        defer { dir.cleanup() }
        let scan = ContentScan(root: dir.path + "/content", previous: nil, now: Self.later())
        let files = ["reports/1094/2026-01-01-a.md", "reports/1094/2026-01-02-b/index.md", "reports/1094/2026-01-02-b/replies/20260103T1200-anna.md",
                     "site.yaml", "users/anna.md"]
        #expect(scan.files.keys.sorted() == files)
        #expect(scan.changes.keys.sorted() == files)
        #expect(scan.changes.values.allSatisfy { $0.old == nil && $0.new != nil })
        #expect(scan.files["site.yaml"]?.hash == Hashing.sha256(Array("title: x\n".utf8)))
        #expect(scan.complete)
        // The index reads back as it was written, and finds single files and folders.
        let again = ScanIndex(chunks: scan.index.chunks)
        #expect(again.files == scan.files)
        #expect(again.entries(["users/anna.md", "reports/1094/2026-01-02-b/index.md", "users/none.md"]).keys.sorted()
                == ["reports/1094/2026-01-02-b/index.md", "users/anna.md"])
        #expect(again.folder("")?.items.map(\.name) == ["site.yaml"])
        #expect(ScanIndex.chunk(of: "reports/1094/2026-01-02-b/replies") == "reports/1094")
    }

    @Test func nothingChangedIsSeenFromTheTimesAlone() throws {
        let dir = try site()
        defer { dir.cleanup() }
        let root = dir.path + "/content"
        let first = ContentScan(root: root, previous: nil, now: Self.later())
        let second = ContentScan(root: root, previous: first.index, now: Self.later())
        #expect(second.isUnchanged)
        #expect(second.changedChunks.isEmpty)
        #expect(second.index == first.index)
        // A file whose bytes are read anew but are the same (a `touch`) is no change either.
        let path = root + "/users/anna.md"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
        let touched = ContentScan(root: root, previous: second.index, now: Self.later())
        #expect(touched.isUnchanged)
        #expect(touched.changedChunks.keys.sorted() == ["users"], "its new times are kept, so the next scan need not read it")
        #expect(ContentScan(root: root, previous: touched.index, now: Self.later()).changedChunks.isEmpty)
    }

    @Test func everyKindOfChangeIsSeen() throws {
        let dir = try site()
        defer { dir.cleanup() }
        let root = dir.path + "/content"
        var last = ContentScan(root: root, previous: nil, now: Self.later()).index
        func scan() -> ContentScan {
            let made = ContentScan(root: root, previous: last, now: Self.later())
            last = made.index
            return made
        }
        // Bytes changed in place, the size and the modification time as they were (`cp -p`):
        // the inode's change time tells.
        let path = root + "/reports/1094/2026-01-01-a.md"
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        try write(dir, "reports/1094/2026-01-01-a.md", "---\ntitle: A\n---\nBODY\n")
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        var made = scan()
        #expect(made.changes.keys.sorted() == ["reports/1094/2026-01-01-a.md"])
        #expect(made.changes.values.first?.old != nil && made.changes.values.first?.new != nil)
        // A reply added in a folder the last scan knew; a new folder with a file in a folder below it.
        try write(dir, "reports/1094/2026-01-02-b/replies/20260104T0900-anna.md", "---\nauthor: anna\n---\nnog een\n")
        try dir.write(["groups/duikclub/albums/zee/index.md": "---\ntitle: Zee\n---\n"], under: "content")
        made = scan()
        #expect(made.changes.keys.sorted() == ["groups/duikclub/albums/zee/index.md", "reports/1094/2026-01-02-b/replies/20260104T0900-anna.md"])
        #expect(made.changes.values.allSatisfy { $0.old == nil })
        // A file removed; a folder removed with what is in it.
        try FileManager.default.removeItem(atPath: root + "/users/anna.md")
        try FileManager.default.removeItem(atPath: root + "/reports/1094/2026-01-02-b")
        made = scan()
        #expect(made.changes.keys.sorted() == ["reports/1094/2026-01-02-b/index.md", "reports/1094/2026-01-02-b/replies/20260103T1200-anna.md",
                                                "reports/1094/2026-01-02-b/replies/20260104T0900-anna.md", "users/anna.md"])
        #expect(made.changes.values.allSatisfy { $0.new == nil })
        #expect(made.index.folder("reports/1094/2026-01-02-b") == nil && made.index.folder("reports/1094/2026-01-02-b/replies") == nil)
        // A file where a folder was, and a folder where a file was.
        try write(dir, "reports/1094/2026-01-02-b", "now a file")
        try FileManager.default.removeItem(atPath: path)
        try dir.write(["reports/1094/2026-01-01-a.md/index.md": "a folder"], under: "content")
        made = scan()
        #expect(made.changes.keys.sorted() == ["reports/1094/2026-01-01-a.md", "reports/1094/2026-01-01-a.md/index.md", "reports/1094/2026-01-02-b"])
        #expect(made.changes["reports/1094/2026-01-01-a.md"]?.new == nil)
        #expect(scan().isUnchanged)
        #expect(last.files == ContentScan(root: root, previous: nil, now: Self.later()).files, "as a scan from nothing sees it")
    }

    /// A file changed this second may change again within the same tick of the clock, its
    /// times unmoved: the scan keeps it as not vouched for, and the next one reads it again.
    @Test func aFileChangedThisSecondIsReadAgain() throws {
        let dir = try site()
        defer { dir.cleanup() }
        let root = dir.path + "/content"
        let now = ContentScan(root: root, previous: nil)
        #expect(now.index.entries(["site.yaml"])["site.yaml"]?.modified == ScanIndex.Status.racy)
        #expect(now.index.folder("users")?.status.modified == ScanIndex.Status.racy)
        try write(dir, "site.yaml", "title: y\n")
        let next = ContentScan(root: root, previous: now.index)
        #expect(next.changes.keys.sorted() == ["site.yaml"])
    }

    @Test func linksAreSeenThroughOrKeptByTheirTarget() throws {
        let dir = try site()
        defer { dir.cleanup() }
        let root = dir.path + "/content"
        try FileManager.default.createSymbolicLink(atPath: root + "/users/link.md", withDestinationPath: "anna.md")
        try FileManager.default.createSymbolicLink(atPath: root + "/users/broken.md", withDestinationPath: "nobody.md")
        var made = ContentScan(root: root, previous: nil, now: Self.later())
        #expect(made.files["users/link.md"]?.hash == made.files["users/anna.md"]?.hash)
        #expect(made.files["users/broken.md"]?.hash == Hashing.sha256(Array("link:nobody.md".utf8)))
        #expect(made.complete)
        // The file a link names changes: so does the link's.
        try write(dir, "users/anna.md", "---\nname: Anna B\n---\n")
        made = ContentScan(root: root, previous: made.index, now: Self.later())
        #expect(made.changes.keys.sorted() == ["users/anna.md", "users/link.md"])
        // A broken link comes to lead somewhere, though nothing in its folder moved.
        try write(dir, "users/nobody.md", "x")
        try FileManager.default.removeItem(atPath: root + "/users/nobody.md")
        try FileManager.default.createSymbolicLink(atPath: root + "/users/nobody.md", withDestinationPath: "../site.yaml")
        made = ContentScan(root: root, previous: made.index, now: Self.later())
        #expect(made.changes.keys.sorted() == ["users/broken.md", "users/nobody.md"])
        // A link to a folder is never walked, and no scan then vouches that nothing changed.
        try FileManager.default.createSymbolicLink(atPath: root + "/groups", withDestinationPath: "reports")
        made = ContentScan(root: root, previous: made.index, now: Self.later())
        #expect(!made.complete && !made.isUnchanged)
        #expect(made.files.keys.contains("groups") && !made.files.keys.contains { $0.hasPrefix("groups/") })
        #expect(!ContentScan(root: root, previous: made.index, now: Self.later()).complete)
    }

    @Test func aDamagedIndexIsReadAsFarAsItGoesAndTheScanStillSeesEverything() throws {
        let dir = try site()
        defer { dir.cleanup() }
        let root = dir.path + "/content"
        let first = ContentScan(root: root, previous: nil, now: Self.later())
        let damaged = ScanIndex(chunks: first.index.chunks.mapValues { Array($0.prefix($0.count / 2)) + [0xFF, 0x00, 0x13] })
        _ = damaged.files
        let scan = ContentScan(root: root, previous: damaged, now: Self.later())
        #expect(scan.files == first.files)
    }
}
