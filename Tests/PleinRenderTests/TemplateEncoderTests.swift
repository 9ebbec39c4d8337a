import PleinMustache
@testable import PleinRender
import PleinText
import Testing

/// Template values come from the typed values' fields: the names and kinds a template reads.
@Suite struct TemplateEncoderTests {
    struct Item: TemplateValues, Encodable {
        let label: String
    }

    struct Chip: HandWrittenTemplate {
        let name: String
        var template: TemplateContext { ["name": .text(name), "written": .flag(true)] }
    }

    struct Values: TemplateValues, Encodable {
        let title: String
        let areaURL: String
        let feedURL: String?
        let summary: String
        let count: Int
        let share: Double
        let unlisted: Bool
        let body: TrustedHTML?
        let icon: TrustedHTML
        let items: [Item]
        let words: [String]
        let chip: Chip
        let missing: Item?
    }

    static func render(_ template: String, _ values: some TemplateValues) throws -> String {
        var library = TemplateLibrary()
        library.register(try Template(template), named: "main")
        return String(decoding: try #require(library.render(values.template, withTemplate: "main")), as: UTF8.self)
    }

    @Test func fieldsAreNamedOnceInSnakeCase() {
        #expect(TemplateEncoder.snakeCase("areaURL") == "area_url")
        #expect(TemplateEncoder.snakeCase("dateOnly") == "date_only")
        #expect(TemplateEncoder.snakeCase("webcalURL") == "webcal_url")
        #expect(TemplateEncoder.snakeCase("URLValue") == "url_value")
        #expect(TemplateEncoder.snakeCase("osm") == "osm")
    }

    @Test func valuesBecomeWhatTemplatesRead() throws {
        let values = Values(
            title: "<b>Tom & Jerry</b>", areaURL: "/a/", feedURL: nil, summary: "", count: 3, share: 0.5, unlisted: false,
            body: .empty, icon: TrustedHTML(literal: "<svg/>"), items: [Item(label: "x"), Item(label: "y")], words: ["p", "q"],
            chip: Chip(name: "Ann"), missing: nil)
        let out = try Self.render(
            "{{title}}|{{{title}}}|{{area_url}}|{{#feed_url}}feed{{/feed_url}}|{{^summary}}no summary{{/summary}}|{{count}}|{{share}}"
                + "|{{^unlisted}}listed{{/unlisted}}|{{^body}}no body{{/body}}|{{{icon}}}|{{#items}}{{label}}{{/items}}|{{#words}}{{.}}{{/words}}"
                + "|{{#chip}}{{name}}{{written}}{{/chip}}|{{^missing}}none{{/missing}}",
            values)
        #expect(out == "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;|&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;|/a/||no summary|3|0.5|listed|no body|<svg/>|xy|pq|Anntrue|none")
    }
}
