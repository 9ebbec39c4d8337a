import Foundation
@testable import PleinBuild
import PleinTestSupport
import Testing

/// Representative pages and feeds of a small fixture site, compared byte for byte with the
/// files in `Snapshots/`. Re-record with `RECORD_SNAPSHOTS=1 swift test --filter SnapshotTests`
/// and read the diff before committing it.
@Suite(.serialized) struct SnapshotTests {
    static let outputs = [
        "index.html", "users/index.html", "users/anna-de-vries/index.html", "groups/duikclub/index.html",
        "reports/1094/index.html", "reports/1094/2026-10-02-fiets-gestolen/index.html", "locations/oba/index.html",
        "feed.xml", "reports/1094/2026-10-02-fiets-gestolen/feed.xml", "users/anna-de-vries/feed.json", "sitemap.xml",
        "robots.txt",
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Asset names carry a content hash; a theme tweak should not rewrite every snapshot.
    static func normalized(_ text: String) -> String {
        text.replacing(/\.[0-9a-f]{10}\.(css|js|svg)/) { ".HASH.\($0.output.1)" }
            .replacing(/leaflet\.[0-9a-f]{10}\//) { _ in "leaflet.HASH/" }
    }

    @Test(arguments: outputs)
    func matchesSnapshot(_ output: String) throws {
        let built = try Self.site()
        let actual = Self.normalized(try String(contentsOfFile: built + "/" + output, encoding: .utf8))
        let file = Self.folder.appendingPathComponent(output.replacingOccurrences(of: "/", with: "__"))
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(output) differs from its snapshot; re-record with RECORD_SNAPSHOTS=1 if intended")
    }

    /// Builds the `clean` checker fixture once per test process.
    static func site() throws -> String {
        try built.get()
    }

    private static let built: Result<String, any Error> = Result {
        let dir = TempDir()
        try Txtar.fixture("clean").write(to: dir.path + "/content")
        let report = Pipeline.build(BuildOptions.test(content: dir.path + "/content", output: dir.path + "/public", suite: "snapshots"))
        guard report.succeeded else { throw BuildFailed(diagnostics: report.diagnostics.map(\.message)) }
        return dir.path + "/public"
    }

    struct BuildFailed: Error { let diagnostics: [String] }
}
