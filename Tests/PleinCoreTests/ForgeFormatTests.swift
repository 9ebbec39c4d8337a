import Foundation
@testable import PleinCheck
@testable import PleinLoad
@testable import PleinCore
import PleinTestSupport
import Testing

/// `plein check --format github` and `--format gitlab` on a fixture with several diagnostics,
/// compared with files beside the fixture (re-record with RECORD_SNAPSHOTS=1), and the escaping
/// both formats require.
@Suite struct ForgeFormatTests {
    static func diagnostics() throws -> (DiagnosticFormatter, [Diagnostic]) {
        let fixture = try Txtar.fixture("five-files")
        let loaded = ContentLoader.load(fixture.fs)
        let diagnostics = (loaded.diagnostics + Checker.check(loaded.content)).sorted().map { $0.under("content") }
        return (DiagnosticFormatter(sources: [:]), diagnostics)
    }

    func matches(_ actual: String, _ name: String) throws {
        let file = Txtar.fixtureFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(actual == (try String(contentsOf: file, encoding: .utf8)), "\(name) differs; re-record with RECORD_SNAPSHOTS=1 if intended")
    }

    @Test func githubWorkflowCommands() throws {
        let (formatter, diagnostics) = try Self.diagnostics()
        let text = formatter.github(diagnostics, path: { "site/" + $0 })
        #expect(text.split(separator: "\n").count == diagnostics.count)
        #expect(text.hasPrefix("::error file=site/content/groups/club/goals/dertig.md,line=3,col=9,"))
        try matches(text, "five-files.github.txt")
    }

    @Test func gitlabCodeQualityReport() throws {
        let (formatter, diagnostics) = try Self.diagnostics()
        let text = formatter.gitlab(diagnostics, path: { "site/" + $0 })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(report.count == diagnostics.count)
        #expect(Set(report.compactMap { $0["fingerprint"] as? String }).count == report.count, "fingerprints are unique")
        let first = try #require(report.first)
        #expect((first["location"] as? [String: Any])?["path"] as? String == "site/content/groups/club/goals/dertig.md")
        #expect(first["severity"] as? String == "major")
        try matches(text, "five-files.gitlab.json")
    }

    @Test func escapingFollowsEachFormat() {
        let d = Diagnostic(.unknownField("a,b: 50%", suggestion: "x\r\ny"), in: "content/we:ird,name.md", at: Span(line: 2, column: 3, length: 4))
        let line = DiagnosticFormatter(sources: [:]).github([d])
        #expect(line == "::error file=content/we%3Aird%2Cname.md,line=2,col=3,endColumn=7,title=plein check%3A unknown-field"
            + "::unknown field 'a,b: 50%25'%0Adid you mean 'x%0D%0Ay'?\n")
        let json = DiagnosticFormatter(sources: [:]).gitlab([d])
        #expect(json.contains("\"description\": \"unknown field 'a,b: 50%' (did you mean 'x\\r\\ny'?)\""))
    }
}
