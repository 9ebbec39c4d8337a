import Foundation
import PleinCheck
import PleinCore
@testable import PleinBuild
import PleinScaffold
import Testing

@Suite(.serialized) struct ScaffoldTests {
    @Test func everyKindOfNewFileChecksClean() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let site = dir.path + "/site"
        let root = site + "/content"
        let written = try Scaffold.site(at: site, title: "Buurt \"Oost\"", baseURL: "https://example.org/", language: .nl, timezone: "Europe/Amsterdam")
        #expect(written.contains(site + "/.plein/schemas/member.json"))
        for file in ["settings", "tasks", "extensions"] {
            // Each .vscode file is JSON VS Code can read (Tests/Output/editor_tasks.py runs the tasks).
            let bytes = try #require(FileManager.default.contents(atPath: site + "/.vscode/\(file).json"))
            #expect(written.contains(site + "/.vscode/\(file).json"))
            #expect((try? JSONSerialization.jsonObject(with: bytes)) is [String: Any])
        }
        #expect(written.contains(site + "/.gitignore"))
        #expect(SiteLayout.find(from: root + "/users") == SiteLayout(root: "../.."))
        #expect(Pipeline.check(content: root).diagnostics.isEmpty)

        let now = Moment(seconds: CivilTime(year: 2026, month: 11, day: 21, hour: 13, minute: 30).secondsAsUTC)
        func s() -> Scaffold { Scaffold(contentRoot: root, now: now) }
        #expect(try s().member(name: "Zoë de Wit", email: "zoe@example.org") == root + "/users/zoe-de-wit.md")
        let bram = try s().member(
            name: "Bram", email: "bram@example.org", joined: "2019-04-01", home: .placeOrCoordinate("52.36, 4.94"), postcode: "1094",
            diving: Scaffold.Diving(certification: "CMAS **", dives: 120), friends: ["zoe-de-wit"])
        #expect(try String(contentsOfFile: bram, encoding: .utf8).hasPrefix("""
            ---
            name: "Bram"
            email: "bram@example.org"
            joined: 2019-04-01
            home:
              lat: 52.36
              lon: 4.94
            postcode: "1094"
            diving:
              certification: "CMAS **"
              dives: 120
            friends: [zoe-de-wit]
            ---
            """))
        _ = try s().group(name: "Duikclub", members: ["zoe-de-wit", "bram@example.org"], visibility: "unlisted")
        _ = try s().album(group: "duikclub", title: "Eerste duik", date: "2026-11-01", by: "bram")
        _ = try s().goal(group: "duikclub", title: "Dertig meter", points: 10, addedBy: "bram")
        #expect(try s().event(group: "duikclub", title: "Nachtduik", starts: "2026-12-05T19:30", ends: "2026-12-05T22:00", place: "Den Osse, bij de steiger", by: "bram")
            == root + "/groups/duikclub/events/nachtduik.md")
        _ = try s().event(group: "duikclub", title: "Weekend Zeeland", starts: "2027-01-09", ends: "2027-01-10", place: nil, by: nil)
        let report = try s().report(area: "1094", title: "Fiets: gestolen!", category: "suspicious", author: "bram", lat: 52.36, lon: 4.94, at: nil)
        #expect(report == root + "/reports/1094/2026-11-21-fiets-gestolen.md")
        // A reply to a report that is one file goes in a folder of its name; the report stays.
        let reply = try s().reply(report: "1094/2026-11-21-fiets-gestolen", author: "zoe-de-wit", at: nil)
        #expect(reply == root + "/reports/1094/2026-11-21-fiets-gestolen/replies/20261121T1430-zoe-de-wit.md")
        #expect(FileManager.default.fileExists(atPath: root + "/reports/1094/2026-11-21-fiets-gestolen.md"))
        #expect(!FileManager.default.fileExists(atPath: root + "/reports/1094/2026-11-21-fiets-gestolen/index.md"))
        _ = try s().location(name: "OBA Oost", address: "Linnaeusstraat 1", lat: 52.36, lon: 4.93, seats: 20)
        _ = try s().location(name: "UB", address: nil, lat: 52.37, lon: 4.89, seats: 300, studentIDRequired: true,
                             openingHours: [("mon-sat", "08:30-23:00"), ("sun", "closed")])
        _ = try s().checkIn(member: "bram", location: "oba-oost", at: "2026-11-20T09:00:00+01:00", out: "2026-11-20T12:00:00+01:00")
        _ = try s().checkIn(member: "bram", location: "oba-oost", at: "2026-11-21T09:00:00+01:00", out: nil)
        _ = try s().message(thread: "duiken", author: "bram", participants: ["zoe-de-wit"], subject: "Duiken?", at: nil)
        _ = try s().message(thread: "duiken", author: "zoe-de-wit", participants: [], subject: nil, at: "2026-11-21T15:00:00+01:00")

        let check = Pipeline.check(content: root)
        #expect(check.diagnostics.filter { $0.severity == .error }.isEmpty, "\(check.diagnostics.map(\.message))")
        #expect(check.diagnostics.contains { $0.file.hasSuffix("events/nachtduik.md") && $0.message.contains(Placeholders.event) },
                "the text plein new wrote for an event is pointed out like any other")
        #expect(check.content.checkIns.count == 2)
        #expect(check.content.events.map(\.starts.isDateOnly) == [false, true])
        #expect(check.content.threads.first?.messages.count == 2)
        #expect(check.content.site.title == "Buurt \"Oost\"")
    }

    @Test func refusesToOverwriteOrToWriteNonsense() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let site = dir.path + "/site"
        let root = site + "/content"
        _ = try Scaffold.site(at: site, title: "T", baseURL: "https://example.org/", language: .en, timezone: "UTC")
        _ = try Scaffold(contentRoot: root).member(name: "Anna", email: "anna@example.org")
        #expect(throws: Scaffold.Failure.self) { try Scaffold(contentRoot: root).member(name: "Anna", email: "other@example.org") }
        #expect(throws: Scaffold.Failure.self) { try Scaffold(contentRoot: root).member(name: "Ann", email: "anna@example.org") }
        #expect(throws: Scaffold.Failure.self) { try Scaffold(contentRoot: root).group(name: "G", members: ["nobody"]) }
        _ = try Scaffold(contentRoot: root).group(name: "G", members: ["anna"])
        #expect(throws: Scaffold.Failure.self) {
            try Scaffold(contentRoot: root).event(group: "g", title: "Back to front", starts: "2026-12-05T19:30", ends: "2026-12-04", place: nil, by: nil)
        }
        #expect(throws: Scaffold.Failure.self) {
            try Scaffold(contentRoot: root).report(area: "1094", title: "X", category: "rumour", author: "anna", lat: 1, lon: 1, at: nil)
        }
        #expect(throws: Scaffold.Failure.self) { try Scaffold.site(at: site, title: "T", baseURL: "https://example.org/", language: .en, timezone: "UTC") }
    }

    /// The theme travels with plein: a new site builds without a templates/ folder, and one
    /// changed partial or stylesheet in templates/ replaces only that file.
    @Test func aSiteUsesTheBuiltInThemeWithItsOwnChangesOverIt() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let site = dir.path + "/site"
        _ = try Scaffold.site(at: site, title: "Duikclub", baseURL: "https://example.org/", language: .en, timezone: "UTC")
        _ = try Scaffold(contentRoot: site + "/content").member(name: "Anna", email: "anna@example.org")
        _ = try Scaffold(contentRoot: site + "/content").report(area: "1094", title: "Lost fins", category: "message", author: "anna",
                                                               lat: 52.36, lon: 4.94, at: "2026-11-01T10:00:00Z")
        var options = BuildOptions(content: site + "/content", templates: site + "/templates", output: site + "/public", cache: site + "/.plein-cache")
        options.templatesOverBuiltInTheme = true
        #expect(Pipeline.build(options).succeeded)
        let plain = try String(contentsOfFile: site + "/public/users/anna/index.html", encoding: .utf8)
        #expect(plain.contains("Anna"))

        try dir.write(["site/templates/partials/member-chip.mustache": "<span class=\"chip\">CHIP {{name}}</span>",
                       "site/templates/assets/style.css": "body { color: rebeccapurple }\n"], under: "")
        #expect(Pipeline.build(options).succeeded)
        let area = try String(contentsOfFile: site + "/public/reports/1094/index.html", encoding: .utf8)
        #expect(area.contains("CHIP Anna"), "the site's partial is used")
        let css = try FileManager.default.contentsOfDirectory(atPath: site + "/public/assets").filter { $0.hasPrefix("style.") }
        #expect(css.count == 1)
        #expect(try String(contentsOfFile: site + "/public/assets/" + css[0], encoding: .utf8).contains("rebeccapurple"))
        #expect(FileManager.default.fileExists(atPath: site + "/public/assets/" + (try FileManager.default.contentsOfDirectory(atPath: site + "/public/assets").first { $0.hasPrefix("plein.") } ?? "none")),
                "the theme's other assets are still there")

        // The copied theme builds the same site as the built-in one.
        let copied = try Scaffold.theme(into: dir.path + "/copy")
        #expect(copied.count > 20)
        #expect(try Scaffold.theme(into: dir.path + "/copy").isEmpty, "nothing is overwritten")
    }
}
