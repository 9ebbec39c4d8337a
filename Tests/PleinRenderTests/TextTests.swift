import PleinText
import PleinCore
@testable import PleinRender
import Testing

@Suite struct TextTests {
    let nl = Strings(language: .nl, table: [
        "month_10": "oktober", "date_time": "{date} om {time}", "reply_count_one": "{n} reactie",
        "reply_count_other": "{n} reacties", "duration_hours_minutes": "{h} u {m} min",
    ])
    let en = Strings(language: .en, table: [:])

    @Test func numbersFollowTheLanguage() {
        #expect(nl.number(1234) == "1234")
        #expect(nl.number(12345) == "12.345")
        #expect(en.number(1234) == "1,234")
        #expect(en.number(-1234567) == "-1,234,567")
        #expect(nl.decimal(2.5, digits: 1) == "2,5")
        #expect(en.decimal(2.5, digits: 1) == "2.5")
        #expect(nl.decimal(-0.25, digits: 1) == "-0,3")
    }

    @Test func datesAndCounts() {
        #expect(nl.dateTime(CivilTime(year: 2026, month: 10, day: 3, hour: 14, minute: 5)) == "3 oktober 2026 om 14:05")
        #expect(nl.count("reply_count", 1) == "1 reactie")
        #expect(nl.count("reply_count", 3) == "3 reacties")
        #expect(nl.duration(seconds: 8100) == "2 u 15 min")
    }

    @Test func xmlEscapingDropsForbiddenCharacters() {
        #expect(XML.escape("a < b & \"c\" 'd' ]]>") == "a &lt; b &amp; &quot;c&quot; &apos;d&apos; ]]&gt;")
        #expect(XML.escape("bell\u{07}tab\tnul\u{0}") == "belltab\tnul")
    }

    @Test func resolvesRelativeLinks() {
        let page = "https://example.org/sub/reports/1094/x/"
        #expect(resolve("foto.jpg", against: page) == "https://example.org/sub/reports/1094/x/foto.jpg")
        #expect(resolve("../y/", against: page) == "https://example.org/sub/reports/1094/y/")
        #expect(resolve("/users/a/", against: page) == "https://example.org/users/a/")
        #expect(resolve("#reply-1", against: page) == "https://example.org/sub/reports/1094/x/#reply-1")
        #expect(resolve("https://other.org/", against: page) == "https://other.org/")
        #expect(resolve("mailto:x@example.org", against: page) == "mailto:x@example.org")
        #expect(resolve("../../../../../../etc", against: page) == "https://example.org/etc")
    }

    @Test func routesKeepTheBasePath() {
        let routes = Routes(baseURL: "https://example.org/buurt")
        #expect(routes.basePath == "/buurt/")
        #expect(routes.url(routes.member("anna")) == "/buurt/users/anna/")
        #expect(routes.absolute(routes.report("1094/2026-10-02-x")) == "https://example.org/buurt/reports/1094/2026-10-02-x/")
        #expect(routes.file(routes.home) == "index.html")
    }

    /// The files no attachment may be published as are exactly those plein writes into a
    /// report's folder (its page, its reply feed and that feed's JSON twin).
    @Test func aReportsOwnFilesAreTheOnesAttachmentsMayNotTake() {
        let routes = Routes(baseURL: "https://example.org/")
        let folder = "reports/1094/2026-10-02-x/"
        let own = [routes.file(routes.report("1094/2026-10-02-x")), routes.reportFeed("1094/2026-10-02-x"),
                   routes.jsonFeed(routes.reportFeed("1094/2026-10-02-x"))]
        #expect(Set(own.map { String($0.dropFirst(folder.count)) }) == AttachmentType.reportOwnFiles)
        #expect(own.allSatisfy { $0.hasPrefix(folder) })
    }

    /// A member's initials: the first and last capital among the words' first letters, or the
    /// first and last letters when none is a capital.
    @Test func initialsAreTheFirstAndLastCapitals() {
        let cases = ["Anna de Vries": "AV", "Bram": "B", "bram": "b", "jan van dam": "jd", "Émile  Zola": "ÉZ", "": "",
                     "ösz Ülker Çelik": "ÜÇ", "Ana María de la Cruz": "AC", "  ": "", "Ζωή Παπαδοπούλου": "ΖΠ", "李 小龍": "李小"]
        for (name, initials) in cases { #expect(TextCut.initials(name) == initials, "\(name)") }
    }
}
