import Foundation
@testable import PleinBuild
import PleinCore

/// Paths and helpers for tests that build real sites on disk.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let content = root + "/content"
    static let templates = root + "/templates"

    /// A derived-image cache for one serialized suite: builds in it reuse thumbnails, and no
    /// other suite prunes it while a build runs.
    static func cache(_ suite: String) -> String {
        NSTemporaryDirectory() + "plein-test-cache-" + suite
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
        path = NSTemporaryDirectory() + "plein-test-" + UUID().uuidString
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
