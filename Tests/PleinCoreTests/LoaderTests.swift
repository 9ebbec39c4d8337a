@testable import PleinCore
@testable import PleinLoad
import PleinTestSupport
import Testing

@Suite struct LoaderTests {
    func load(_ files: [String: String]) -> LoadResult {
        var all = files.mapValues { Array($0.utf8) }
        all["site.yaml"] = all["site.yaml"] ?? Array(Txtar.defaultSite.utf8)
        return ContentLoader.load(.memory(all))
    }

    @Test func acceptsByteOrderMarkAndCRLF() throws {
        let result = load(["users/anna.md": "\u{FEFF}---\r\nname: Anna\r\nemail: anna@example.org\r\n---\r\nHallo\r\nwereld\r\n"])
        #expect(result.diagnostics.isEmpty)
        let anna = try #require(result.content.members.first)
        #expect(anna.name == "Anna")
        #expect(anna.body.markdown == "Hallo\nwereld\n")
        #expect(anna.body.line == 5)
    }

    @Test func readsEveryRecordKind() throws {
        let fixture = try Txtar.fixture("clean")
        let loaded = ContentLoader.load(fixture.fs)
        let c = loaded.content
        #expect(loaded.diagnostics.isEmpty)
        #expect(c.site.title == "Test")
        #expect(c.places.map(\.name) == ["Zandvoort"])
        #expect(c.members.map(\.id) == ["anna-de-vries", "bram"])
        let anna = c.members[0]
        #expect(anna.home == .place("Zandvoort"))
        #expect(anna.diving == Member.Diving(certification: "PADI Open Water", years: 3, dives: 41))
        #expect(anna.follows.map(\.value) == ["1094/2026-10-02-fiets-gestolen"])
        #expect(c.members[1].home == .coordinate(Coordinate(lat: 52.36, lon: 4.92)))
        #expect(c.groups.map(\.id) == ["duikclub"])
        #expect(c.groups[0].members.map(\.value) == ["anna-de-vries", "bram@example.org"])
        #expect(c.goals.map(\.id) == ["dertig-meter"])
        #expect(c.goals[0].points == 10)
        #expect(c.areas.map(\.id) == ["1094"])
        #expect(c.areas[0].boundary.count == 3)
        #expect(c.reports.map(\.id) == ["1094/2026-10-02-fiets-gestolen"])
        #expect(c.reports[0].category == .suspicious)
        #expect(c.reports[0].replies.map(\.author.value) == ["anna-de-vries"])
        #expect(c.locations.map(\.id) == ["oba"])
        let hours = try #require(c.locations[0].openingHours)
        #expect(hours.days[0] == [OpeningHours.Range(start: 540, end: 1320)])
        #expect(hours.days[6] == [])
        #expect(c.checkIns.count == 2)
        #expect(c.checkIns[1].checkOut == nil)
        #expect(c.threads.map(\.id) == ["buddy"])
        #expect(c.threads[0].messages.count == 1)
    }

    @Test func dateAloneIsMidnightInTheSiteTimeZone() throws {
        let result = load(["users/anna.md": "---\nname: Anna\nemail: a@example.org\njoined: 2026-07-01\n---\n"])
        let joined = try #require(result.content.members.first?.joined)
        #expect(joined.isDateOnly)
        #expect(result.content.site.clock.rfc3339(joined) == "2026-07-01T00:00:00+02:00")
    }

    @Test func diagnosticsAreEquatableValues() {
        let result = load(["users/anna.md": "---\nname: Anna\nemial: a@example.org\n---\n"])
        #expect(result.diagnostics == [
            Diagnostic(.unknownField("emial", suggestion: "email"), in: "users/anna.md", at: Span(line: 3, column: 1, length: 5)),
        ])
        // The e-mail address is optional; a name is not.
        #expect(load(["users/anna.md": "---\njoined: 2026-07-01\n---\n"]).diagnostics == [
            Diagnostic(.missingField("name"), in: "users/anna.md", at: Span(line: 2, column: 1)),
        ])
    }

    /// Records kept from an earlier load (as the build store keeps them) give exactly the
    /// content and problems that reading the files gives, and spare reading them.
    @Test(arguments: ["clean", "five-files", "checkins", "goals", "ids"])
    func knownRecordsLoadWhatReadingLoads(_ name: String) throws {
        let fixture = try Txtar.fixture(name)
        let (first, state) = ContentLoader.loadKeepingState(fixture.fs)
        let records = state.newRecords
        #expect(!records.isEmpty)
        let known = KnownRecords(records: records, context: state.recordContext)
        let (again, againState) = ContentLoader.loadKeepingState(fixture.fs, known: known)
        #expect(canonical(again.content) == canonical(first.content))
        #expect(again.diagnostics == first.diagnostics)
        #expect(againState.newRecords.isEmpty, "no file with a known record was read again")

        // Records read with another plein or time zone, or that do not decode, are read again.
        let other = KnownRecords(records: records, context: "plein 0 records 1 zone UTC")
        #expect(ContentLoader.loadKeepingState(fixture.fs, known: other).1.newRecords.count == records.count)
        let garbled = KnownRecords(records: records.mapValues { ($0.hash, Array($0.encoded.dropLast())) }, context: state.recordContext)
        let (reread, rereadState) = ContentLoader.loadKeepingState(fixture.fs, known: garbled)
        #expect(canonical(reread.content) == canonical(first.content))
        #expect(rereadState.newRecords.count == records.count)
    }

    /// A record keeps a body that ends its file as its length, and a body reading changed (a
    /// bidirectional control taken out) whole: both read back as they were read.
    @Test func aKnownRecordKeepsItsBodyWhetherOrNotItEndsTheText() throws {
        let files: [String: [UInt8]] = [
            "site.yaml": Array("title: T\nbase_url: https://example.org/\nlanguage: en\ntimezone: UTC\n".utf8),
            "users/anna.md": Array("---\nname: Anna\n---\nHallo wereld, één keer.\n".utf8),
            "users/bram.md": Array("---\nname: Bram\n---\nEen \u{202E}omgekeerde\u{202C} zin.\n".utf8),
            "users/cees.md": Array("---\nname: Cees\n---\n".utf8),
        ]
        let fs = ContentFS.memory(files)
        let (first, state) = ContentLoader.loadKeepingState(fs)
        #expect(first.content.members.first { $0.id == "bram" }?.body.markdown.contains("\u{202E}") == false)
        #expect(first.content.members.first { $0.id == "anna" }?.body.markdown == "Hallo wereld, één keer.\n")
        let known = KnownRecords(records: state.newRecords, context: state.recordContext)
        #expect(known.records.keys.sorted() == ["users/anna.md", "users/bram.md", "users/cees.md"])
        let (again, againState) = ContentLoader.loadKeepingState(fs, known: known)
        #expect(againState.newRecords.isEmpty)
        #expect(canonical(again.content) == canonical(first.content))
    }

    /// A value's description in which dictionaries and sets are in sorted order (their order in
    /// memory is not part of their value).
    func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        let parts = mirror.children.map { child in (child.label.map { $0 + ": " } ?? "") + canonical(child.value) }
        switch mirror.displayStyle {
        case .dictionary, .set: return "[" + parts.sorted().joined(separator: ", ") + "]"
        case _ where parts.isEmpty: return String(reflecting: value)
        default: return "\(mirror.subjectType)(" + parts.joined(separator: ", ") + ")"
        }
    }

    /// A file with a problem is never kept: its problems come from reading it.
    @Test func filesWithProblemsAreNotKept() {
        var files = ["users/anna.md": "---\nname: Anna\nemial: anna@example.org\n---\n", "users/bram.md": "---\nname: Bram\nemail: bram@example.org\n---\n"]
        files["site.yaml"] = Txtar.defaultSite
        let (_, state) = ContentLoader.loadKeepingState(.memory(files.mapValues { Array($0.utf8) }))
        #expect(state.newRecords.keys.sorted() == ["users/bram.md"])
    }
}
