import Foundation
@testable import PleinCore
import PleinTestSupport
import Testing

/// Each fixture is a tiny site with one class of bad input and the exact diagnostics it must
/// produce: file, line, column, severity, message and hint.
@Suite struct FixtureTests {
    @Test(arguments: Txtar.allFixtures())
    func fixtureReportsExactlyItsDiagnostics(_ name: String) throws {
        let fixture = try Txtar.fixture(name)
        let actual = fixture.check()
        if ProcessInfo.processInfo.environment["RECORD_FIXTURES"] == "1" {
            print("---- \(name)\n" + actual.joined(separator: "\n"))
        }
        #expect(actual == fixture.expect, "\(name):\n\(actual.joined(separator: "\n"))")
    }

    @Test func everyFixtureExpectsSomething() {
        for name in Txtar.allFixtures() where name != "clean" {
            #expect((try? Txtar.fixture(name).expect.isEmpty) == false, "\(name) expects nothing")
        }
    }
}
