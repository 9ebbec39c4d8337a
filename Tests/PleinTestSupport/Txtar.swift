public import Foundation
public import PleinCheck
public import PleinLoad
public import PleinCore

/// A whole test site in one text file, as Hugo's tests write them:
///
///     -- users/anna.md --
///     ---
///     name: Anna
///     ---
///     -- expect --
///     content/users/anna.md:2:1: error: 'email' is required
///
/// `-- path (hex) --` holds bytes written as hex; `-- path -> target --` is a symbolic link.
public struct Txtar {
    public var files: [String: [UInt8]] = [:]
    public var symlinks: [String: String] = [:]
    public var expect: [String] = []

    public init(_ text: String) {
        var current: String?
        var lines: [Substring] = []
        func flush() {
            guard let name = current else { return }
            let body = lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
            if name == "expect" {
                expect = lines.map(String.init).filter { !$0.isEmpty }
            } else if name.hasSuffix(" (hex)") {
                let path = String(name.dropLast(6))
                let hex = body.filter { $0.isHexDigit }
                var bytes: [UInt8] = []
                var index = hex.startIndex
                while index < hex.endIndex {
                    let next = hex.index(index, offsetBy: 2)
                    bytes.append(UInt8(hex[index..<next], radix: 16)!)
                    index = next
                }
                files[path] = bytes
            } else if let arrow = name.range(of: " -> ") {
                symlinks[String(name[..<arrow.lowerBound])] = String(name[arrow.upperBound...])
            } else {
                files[name] = Array(body.utf8)
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- "), line.hasSuffix(" --"), line.count > 6 {
                flush()
                current = String(line.dropFirst(3).dropLast(3))
                lines = []
            } else if current != nil {
                lines.append(line)
            }
        }
        flush()
        // The last line of a file section is followed by the next marker, not by content.
        for (path, bytes) in files where bytes.last == 10 && !path.hasSuffix(" (hex)") {
            files[path] = bytes
        }
    }

    public static let defaultSite = """
        title: Test
        base_url: https://example.org/
        language: en
        timezone: Europe/Amsterdam

        """

    /// The site as an in-memory content folder (with a default `site.yaml` unless it has one).
    public var fs: ContentFS {
        var all = files
        if all["site.yaml"] == nil { all["site.yaml"] = Array(Txtar.defaultSite.utf8) }
        return .memory(all, symlinks: symlinks, displayRoot: "content")
    }

    /// Loads and checks the site; diagnostics as the user would see them (header and hint).
    public func check() -> [String] {
        let loaded = ContentLoader.load(fs)
        let diagnostics = (loaded.diagnostics + Checker.check(loaded.content)).sorted()
        return diagnostics.map { d in
            let shown = d.under("content")
            var line = "\(shown.file):\(d.span.line):\(d.span.column): \(d.severity.rawValue): \(d.message)"
            if let hint = d.suggestion { line += "\n  = \(hint)" }
            return line
        }.flatMap { $0.split(separator: "\n").map(String.init) }
    }

    /// The checker fixtures live in `Tests/PleinCoreTests/Fixtures`.
    public static let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PleinCoreTests/Fixtures")

    public static func fixture(_ name: String) throws -> Txtar {
        Txtar(try String(contentsOf: fixtureFolder.appendingPathComponent("\(name).txtar"), encoding: .utf8))
    }

    /// Writes the site's files (with a default `site.yaml`) under `folder` on disk.
    public func write(to folder: String) throws {
        var all = files
        if all["site.yaml"] == nil { all["site.yaml"] = Array(Txtar.defaultSite.utf8) }
        for (path, bytes) in all {
            let url = URL(fileURLWithPath: folder + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
    }

    public static func allFixtures() -> [String] {
        let dir = fixtureFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".txtar") }.map { String($0.dropLast(6)) }.sorted()
    }
}
