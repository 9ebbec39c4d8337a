import Foundation
import PleinMustache
import PleinText
import Testing

/// Markup is a type: a record's text cannot be passed where a page expects HTML. This does not
/// compile (TrustedHTML has no initializer from a `String` outside PleinText, except the
/// `TrustedMarkup` one these tests keep to its two users):
///
///     let title: String = report.title
///     let value: TemplateValue = .html(title)
///     // error: cannot convert value of type 'String' to expected argument type 'TrustedHTML'
///
/// What can make markup, the writers, escape every text and attribute value they are given.
@Suite struct TrustedHTMLTests {
    static let hostile = "\"'><script>alert(1)</script>&amp;\u{0}\u{7}"

    /// The files that may make a `TrustedHTML` of any string: PleinText (where it is defined),
    /// PleinMarkdown (cmark-gfm's output, raw HTML left out) and the build store's bodies (what
    /// PleinMarkdown made in an earlier build). Any other file that imports the way in fails here.
    @Test func onlyMarkdownAndTheStoredBodiesMakeMarkupOfAString() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources").path
        var users: [String] = []
        let files = try #require(FileManager.default.enumerator(atPath: sources))
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            if text.contains("@_spi(TrustedMarkup)") { users.append(file) }
        }
        #expect(users.sorted() == ["PleinBuild/Incremental/StoredBodies.swift", "PleinMarkdown/Markdown.swift", "PleinText/Markup.swift"])
    }

    @Test func theMarkupWriterEscapesTextAndAttributes() {
        var writer = MarkupWriter()
        writer.open("a", .init("href", Self.hostile), .init("title", Self.hostile))
        writer.element("title", text: Self.hostile)
        writer.text(Self.hostile)
        writer.empty("img", .init("alt", Self.hostile), void: true)
        writer.close("a")
        let markup = writer.html.markup
        #expect(!markup.contains("<script") && !markup.contains("\"'>"))
        #expect(markup.hasPrefix("<a href=\"&quot;&apos;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;\" title="))
        #expect(!markup.unicodeScalars.contains { $0.value < 0x20 }, "control characters are dropped")
        #expect(markup.hasSuffix("<img alt=\"&quot;&apos;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;\"></a>"))
    }

    @Test func aTemplateWritesMarkupAsItIsAndTextEscaped() throws {
        var library = TemplateLibrary()
        library.register(try Template("{{{svg}}}|{{{name}}}"), named: "main")
        var writer = MarkupWriter()
        writer.element("desc", text: Self.hostile)
        let out = String(decoding: try #require(library.render(["svg": .html(writer.html), "name": .text(Self.hostile)], withTemplate: "main")),
                         as: UTF8.self)
        #expect(!out.contains("<script"))
        #expect(out.hasPrefix("<desc>&quot;"))
    }

    /// A report's images made responsive: the element is replaced by what the writer made of
    /// its attributes (read unescaped), everything around it kept as it was.
    @Test func anElementIsReplacedByWhatTheWriterMakesOfIt() {
        var writer = MarkupWriter()
        writer.element("p", text: "<b>a & b</b>")
        let body = writer.html
        var image = MarkupWriter()
        image.empty("img", .init("src", "lamp%20post.jpg"), .init("alt", Self.hostile), void: true)
        let html = body + image.html + body
        var seen: [String?] = []
        let replaced = html.replacingElements("img") { attribute in
            seen = [attribute("src"), attribute("alt"), attribute("title")]
            var out = MarkupWriter()
            out.element("span", text: attribute("alt") ?? "")
            return out.html
        }
        #expect(seen == ["lamp%20post.jpg", Self.hostile.filter { $0 != "\u{0}" && $0 != "\u{7}" }, nil])
        #expect(replaced.markup.hasPrefix(body.markup) && replaced.markup.hasSuffix(body.markup) && !replaced.markup.contains("<img"))
        #expect(!replaced.markup.contains("<script>"))
        #expect(html.replacingElements("img") { _ in nil } == html)
    }

    @Test func jsonLDCannotEndItsScript() {
        let html = TrustedHTML.jsonLD(.object([("name", .string("</script><script>alert(1)</script>"))])).markup
        #expect(html.hasPrefix("<script type=\"application/ld+json\">") && html.hasSuffix("</script>"))
        #expect(html.components(separatedBy: "</script>").count == 2, "\(html)")
    }

    /// A value cannot start a property of its own: line breaks in TEXT are escaped, other
    /// control characters (a CR alone) dropped, and every line is folded at 75 octets.
    @Test func iCalendarValuesStayInTheirProperty() {
        var ics = ICalendarWriter()
        ics.text("SUMMARY", "Feest; met taart, en\nATTACH:https://evil.example/\r\nX:1")
        ics.value("URL;VALUE=URI", "https://example.org/a\r\nATTACH:https://evil.example/")
        ics.text("DESCRIPTION", String(repeating: "é", count: 60))
        let lines = ics.text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { !$0.hasPrefix("ATTACH") && !$0.hasPrefix("X:") }, "\(lines)")
        #expect(lines.first == "SUMMARY:Feest\\; met taart\\, en\\nATTACH:https://evil.example/\\nX:1")
        #expect(lines.dropFirst().first == "URL;VALUE=URI:https://example.org/aATTACH:https://evil.example/")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.filter { $0.hasPrefix(" ") }.count >= 1, "the long description is folded")
    }
}
