import PleinText
@testable import PleinCore
import Foundation
import Testing

@Suite struct TimeTests {
    @Test func parsesTheFormsAuthorsWrite() {
        #expect(ISO8601.parse("2026-05-01") == .success(.date(CivilTime(year: 2026, month: 5, day: 1))))
        #expect(ISO8601.parse("2026-05-01T10:30:00+02:00") == .success(.zoned(CivilTime(year: 2026, month: 5, day: 1, hour: 10, minute: 30), offset: 7200)))
        #expect(ISO8601.parse("2026-05-01 10:30Z") == .success(.zoned(CivilTime(year: 2026, month: 5, day: 1, hour: 10, minute: 30), offset: 0)))
        #expect(ISO8601.parse("2026-05-01T10:30:15.250-0330") == .success(.zoned(CivilTime(year: 2026, month: 5, day: 1, hour: 10, minute: 30, second: 15), offset: -12600)))
        #expect(ISO8601.parse("2026-05-01T10:30") == .success(.local(CivilTime(year: 2026, month: 5, day: 1, hour: 10, minute: 30))))
    }

    @Test(arguments: ["2025-02-29", "2026-04-31", "2026-00-10", "2026-01-01T24:00", "2026-01-01T10:60", "20260101", "2026-1-1", "yesterday", "2026-01-01T10:00+19:00"])
    func rejectsImpossibleTimes(_ text: String) {
        guard case .failure = ISO8601.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test func leapYears() {
        #expect(CivilTime.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilTime.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilTime.daysIn(month: 2, year: 2000) == 29)
    }

    @Test func civilRoundTrip() {
        for seconds: Int64 in [0, 86_399, 951_782_400, 1_700_000_000, -86_400, 4_102_444_800] {
            #expect(CivilTime(secondsSinceEpoch: seconds).secondsAsUTC == seconds)
        }
        #expect(CivilTime(year: 1970, month: 1, day: 1).weekday == 4)
        #expect(CivilTime(year: 2026, month: 11, day: 21).weekday == 6)
    }

    @Test func isoWeeks() {
        #expect(CivilTime(year: 2026, month: 1, day: 1).isoWeek == (2026, 1))
        #expect(CivilTime(year: 2027, month: 1, day: 1).isoWeek == (2026, 53))
        #expect(CivilTime(year: 2024, month: 12, day: 30).isoWeek == (2025, 1))
        #expect(CivilTime(year: 2026, month: 11, day: 21).isoWeek == (2026, 47))
    }

    @Test func siteClockKnowsDaylightSavingTime() throws {
        let clock = try #require(SiteClock(identifier: "Europe/Amsterdam"))
        let summer = clock.instant(of: CivilTime(year: 2026, month: 7, day: 1, hour: 12))
        #expect(clock.rfc3339(Moment(seconds: summer)) == "2026-07-01T12:00:00+02:00")
        let winter = clock.instant(of: CivilTime(year: 2026, month: 1, day: 1))
        #expect(clock.rfc3339(Moment(seconds: winter)) == "2026-01-01T00:00:00+01:00")
        // 02:30 on 2026-03-29 does not exist: read with the offset before the change.
        let gap = clock.instant(of: CivilTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30))
        #expect(clock.rfc3339(Moment(seconds: gap)) == "2026-03-29T03:30:00+02:00")
        // 02:30 on 2026-10-25 happens twice: the earlier one.
        let overlap = clock.instant(of: CivilTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30))
        #expect(clock.rfc3339(Moment(seconds: overlap)) == "2026-10-25T02:30:00+02:00")
    }

    @Test func durationsComeFromInstants() {
        // 01:30+02:00 to 03:30+01:00 on the night the clocks go back lasts three hours.
        let start = CivilTime(year: 2026, month: 10, day: 25, hour: 1, minute: 30).secondsAsUTC - 7200
        let end = CivilTime(year: 2026, month: 10, day: 25, hour: 3, minute: 30).secondsAsUTC - 3600
        #expect(end - start == 3 * 3600)
    }
}

@Suite struct SuggestionTests {
    @Test func suggestsTheClosestName() {
        #expect(Suggestions.closest(to: "anne-de-vries", in: ["anna-de-vries", "bram"]) == "anna-de-vries")
        #expect(Suggestions.closest(to: "freinds", in: ["friends", "follows"]) == "friends")
        #expect(Suggestions.closest(to: "xyz", in: ["friends", "follows"]) == nil)
        #expect(Suggestions.closest(to: "Zandvort", in: ["Zandvoort", "Zierikzee"]) == "Zandvoort")
    }

    /// Whether a text may write an address (a new member's), as the rule that warns of one finds
    /// it: case aside, anywhere, the `@` itself looked for first.
    @Test func anAddressWrittenInATextIsFoundCaseAside() {
        func written(_ key: String, _ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { Email.mayBeWritten(key, in: $0) }
        }
        #expect(written("lot.later@example.org", "Mail Lot.Later@Example.ORG voor de sleutel."))
        #expect(written("lot.later@example.org", "lot.later@example.org"))
        #expect(written("a@b.nl", "x a@b.nl"))
        #expect(!written("lot.later@example.org", "Mail lot.later@example.or"))
        #expect(!written("lot.later@example.org", "ot.later@example.org and @ and later@example.org"))
        #expect(!written("lot.later@example.org", "no address here"))
        #expect(!written("lot.later@example.org", ""))
        // An address beyond ASCII: any `@` may be it.
        #expect(written("zoë@example.org", "mail ZOË@example.org"))
        #expect(written("zoë@example.org", "x@y"))
        #expect(!written("zoë@example.org", "no address"))
    }

    @Test func slugs() {
        #expect(Slug.isValid("anna-de-vries"))
        #expect(Slug.isValid("1094"))
        #expect(!Slug.isValid("Anna"))
        #expect(!Slug.isValid("a--b"))
        #expect(!Slug.isValid("-a"))
        #expect(!Slug.isValid("a_b"))
        #expect(Slug.make("Zoë van 't Hof") == "zoe-van-t-hof")
        #expect(Slug.make("IMG_2034") == "img-2034")
        #expect(Slug.make("  --Hello,  World!-- ") == "hello-world")
        #expect(Slug.make("Straße café 42") == "strasse-cafe-42")
        // Letters are transliterated, never dropped.
        #expect(Slug.make("Zoë Çelik-Ødegård") == "zoe-celik-odegard")
        #expect(Slug.make("Łódź Æsir") == "lodz-aesir")
        #expect(Slug.make("Зоя Иванова") == "zoa-ivanova")
        #expect(Slug.make("") == "" && Slug.make("!!!") == "")
    }

    @Test func fixedPointText() {
        #expect(FixedPoint.text(52.3, digits: 6) == "52.3")
        #expect(FixedPoint.text(4.05, digits: 6) == "4.05")
        #expect(FixedPoint.text(52.3012345678, digits: 6) == "52.301235")
        #expect(FixedPoint.text(12.0, digits: 1) == "12")
        #expect(FixedPoint.text(12.34, digits: 1) == "12.3")
        #expect(FixedPoint.text(-0.46, digits: 1) == "-0.5")
        #expect(FixedPoint.text(0.04, digits: 1) == "0")
        #expect(FixedPoint.text(1e300, digits: 2) == "1e+300")
        for value in stride(from: -180.0, through: 180.0, by: 0.123457) {
            var printed = String(format: "%.6f", (value * 1_000_000).rounded() / 1_000_000)
            while printed.hasSuffix("0") { printed.removeLast() }
            if printed.hasSuffix(".") { printed.removeLast() }
            if printed == "-0" { printed = "0" }
            #expect(FixedPoint.text(value, digits: 6) == printed)
        }
    }
}
