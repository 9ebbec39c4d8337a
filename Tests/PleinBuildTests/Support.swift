import Foundation
@testable import PleinBuild
import PleinCore
import Synchronization

/// Paths and helpers for tests that build real sites on disk.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let content = root + "/content"
    static let templates = root + "/templates"

    /// The cache of one serialized suite, for this test run, seeded with the shared media: its
    /// builds find the demo's photo variants and video made, and no other suite prunes it
    /// while a build runs.
    static func cache(_ suite: String) -> String {
        let folder = TestRun.folder + "/cache-" + suite
        SharedMedia.seed(folder)
        return folder
    }
}

/// This test process's own folder for caches, removed when it exits; folders left by test
/// processes that were killed are removed when the next one starts.
enum TestRun {
    static let folder: String = {
        let prefix = "plein-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + name)
            }
        }
        let path = NSTemporaryDirectory() + prefix + String(getpid())
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "plein-tests-" + String(getpid())) }
        return path
    }()
}

/// Photo variants and video copies made once per test run and shared by every suite's cache
/// through hard links (as `Tests/Output/media.py` does for the output checks): a cold build of
/// the demo spends nearly all its time making them. plein writes cache files under temporary
/// names and renames them, and prunes by unlinking, so a build never changes a shared file.
/// `make test` makes them before the suites start and names the folder in `PLEIN_TEST_MEDIA`;
/// without it, the first suite that asks builds the demo and the hostile fixture here once, with
/// their private groups made public so that their variants are shared too.
/// ImageTests and VideoTests, whose subject is making media, use caches of their own.
enum SharedMedia {
    static let kinds = ["images", "videos"]

    /// Cache folders whose `images/` and `videos/` every suite's cache links to.
    static let roots: [String] = {
        if let named = ProcessInfo.processInfo.environment["PLEIN_TEST_MEDIA"], FileManager.default.fileExists(atPath: named) {
            return [named]
        }
        return [Repo.content, Repo.root + "/Tests/Fixtures/hostile"].enumerated().map { i, content in
            let cache = TestRun.folder + "/media-\(i)"
            // Private groups built as if public, as media.py does: their variants are shared too.
            let opened = TestRun.folder + "/media-content-\(i)"
            try? copyTree(content, to: opened)
            for group in (try? FileManager.default.contentsOfDirectory(atPath: opened + "/groups")) ?? [] {
                let index = opened + "/groups/" + group + "/index.md"
                if let text = try? String(contentsOfFile: index, encoding: .utf8) {
                    try? text.replacingOccurrences(of: "\nvisibility: private\n", with: "\nvisibility: public\n")
                        .write(toFile: index, atomically: true, encoding: .utf8)
                }
            }
            var options = BuildOptions(content: opened, templates: Repo.templates, output: TestRun.folder + "/media-site-\(i)", cache: cache)
            options.pagefind = nil
            options.remember = false
            _ = Pipeline.build(options)
            return cache
        }
    }()

    private static let seeded = Mutex<Set<String>>([])

    /// Links the shared media into `cache`, once per cache folder and process.
    static func seed(_ cache: String) {
        let roots = Self.roots
        seeded.withLock { done in
            guard done.insert(cache).inserted else { return }
            for root in roots {
                for kind in kinds { linkTree(root + "/" + kind, to: cache + "/" + kind) }
            }
        }
    }

    /// Hard links to every file under `source`, in the same places under `target`.
    static func linkTree(_ source: String, to target: String) {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: source) else { return }
        try? fm.createDirectory(atPath: target, withIntermediateDirectories: true)
        while let relative = walker.nextObject() as? String {
            let from = source + "/" + relative, to = target + "/" + relative
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: from, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                try? fm.createDirectory(atPath: to, withIntermediateDirectories: true)
            } else if link(from, to) != 0, errno != EEXIST {
                try? fm.copyItem(atPath: from, toPath: to)
            }
        }
    }
}

extension BuildOptions {
    /// The demo (or another content folder) built with the repository's theme, on a fixed day
    /// (2026-10-20), so that what is upcoming does not depend on when the tests run.
    static func test(content: String = Repo.content, output: String, suite: String) -> BuildOptions {
        var options = BuildOptions(content: content, templates: Repo.templates, output: output, cache: Repo.cache(suite))
        options.now = Moment(seconds: 1_792_490_400)
        // Search only in the tests that ask for it: it needs Pagefind, and indexing takes time.
        options.pagefind = nil
        return options
    }
}

/// A fresh temporary folder, removed by `cleanup()`.
struct TempDir {
    let path: String

    init() {
        // Inside the test process's folder: removed at its end even when a test does not clean up.
        path = TestRun.folder + "/plein-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes files given as relative path → text.
    func write(_ files: [String: String], under folder: String) throws {
        for (relative, text) in files {
            let url = URL(fileURLWithPath: path + "/" + folder + "/" + relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: false, encoding: .utf8)
        }
    }
}

/// Every regular file under `root`, relative path → bytes.
func snapshotTree(_ root: String) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
    while let relative = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let full = root + "/" + relative
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[relative] = FileManager.default.contents(atPath: full)
        }
    }
    return files
}

/// Copies a folder (for breaking a copy of the demo content).
func copyTree(_ source: String, to target: String) throws {
    try FileManager.default.copyItem(atPath: source, toPath: target)
}

/// Where in a built site any of `needles` occurs (ignoring ASCII case when asked), searched as
/// bytes in every text file: pages, feeds, JSON, GeoJSON, XML and robots.txt.
func occurrences(of needles: [String], in root: String, ignoringCase: Bool = false) -> [(path: String, needle: String)] {
    let textExtensions: Set<String> = ["html", "xml", "json", "geojson", "txt", "js", "css", "svg"]
    var found: [(String, String)] = []
    let patterns = needles.map { needle in Data((ignoringCase ? needle.lowercased() : needle).utf8) }
    for (path, data) in snapshotTree(root) where textExtensions.contains((path as NSString).pathExtension) {
        let bytes = ignoringCase ? Data(data.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }) : data
        for (needle, pattern) in zip(needles, patterns) where !pattern.isEmpty && bytes.range(of: pattern) != nil {
            found.append((path, needle))
        }
    }
    return found
}
