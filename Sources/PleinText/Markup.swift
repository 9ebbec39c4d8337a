/// Markup that plein made, which a template writes as it is (`TemplateValue.html`). Nothing
/// outside this module and PleinMarkdown can turn a `String` into one: markup is made by
/// `MarkupWriter` (every text and attribute value escaped, element and attribute names from
/// plein's own source), from a literal in plein's source, or by rendering Markdown. A record's
/// text cannot reach a page unescaped by being passed where HTML is expected: that does not
/// compile (`Tests/PleinRenderTests/TrustedHTMLTests.swift` shows it).
///
/// `TrustedMarkup` is the one way in for markup made elsewhere: PleinMarkdown (cmark-gfm's
/// output, with raw HTML left out) and the build store, which gives back bodies PleinMarkdown
/// made in an earlier build. A test lists the files that import it.
public struct TrustedHTML: Sendable, Hashable {
    public let markup: String

    init(_ markup: String) {
        self.markup = markup
    }

    @_spi(TrustedMarkup) public init(madeByPlein markup: String) {
        self.markup = markup
    }

    /// Markup written in plein's source (a string literal: never content).
    public init(literal: StaticString) {
        markup = literal.description
    }

    public static let empty = TrustedHTML("")

    public var isEmpty: Bool { markup.isEmpty }

    /// The pieces one after another.
    public static func + (a: TrustedHTML, b: TrustedHTML) -> TrustedHTML {
        TrustedHTML(a.markup + b.markup)
    }

    /// A `<script type="application/ld+json">` holding `json` (whose strings escape `<`, `>` and
    /// `&`: nothing in a value can end the script).
    public static func jsonLD(_ json: JSON) -> TrustedHTML {
        TrustedHTML("<script type=\"application/ld+json\">" + json.serialized() + "</script>")
    }
}

extension TrustedHTML {
    /// This markup with each void element `<name …>` (as cmark writes an image: double-quoted
    /// attributes) replaced by what `replace` makes of it, given a reader of its attributes'
    /// values (unescaped); nil keeps the element as it was. What is around the elements is kept
    /// as it is, so the result is as trusted as this markup and the replacements.
    public func replacingElements(_ name: StaticString, _ replace: (_ attribute: (String) -> String?) -> TrustedHTML?) -> TrustedHTML {
        let opening = "<\(name) "
        guard ByteSearch.contains(markup, opening) else { return self }
        var out = ""
        var rest = markup[...]
        var changed = false
        while let start = rest.firstRange(of: opening), let end = rest[start.upperBound...].firstIndex(of: ">") {
            let tag = rest[start.lowerBound...end]
            out += rest[..<start.lowerBound]
            if let made = replace({ Self.attribute($0, in: tag) }) {
                out += made.markup
                changed = true
            } else {
                out += tag
            }
            rest = rest[rest.index(after: end)...]
        }
        return changed ? TrustedHTML(out + rest) : self
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.firstRange(of: " " + name + "=\""), let end = tag[start.upperBound...].firstIndex(of: "\"") else { return nil }
        let value = String(tag[start.upperBound..<end])
        guard value.contains("&") else { return value }
        return value.replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&apos;", with: "'")
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }
}

/// Encoded as its markup (a template's encoder makes it `.html`; see PleinRender's `TemplateEncoder`).
extension TrustedHTML: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(markup)
    }
}

/// Writes HTML or SVG element by element. Element and attribute names are static strings (in
/// plein's source, never from content); every text and attribute value is escaped as XML
/// (which HTML reads the same), without the characters XML forbids. What it made is `html`.
public struct MarkupWriter {
    private var out: [UInt8] = []

    public init(capacity: Int = 1024) {
        out.reserveCapacity(capacity)
    }

    /// An attribute: its name and its value (escaped when written).
    public struct Attribute {
        let name: StaticString
        let value: String

        public init(_ name: StaticString, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    private mutating func start(_ name: StaticString, _ attributes: [Attribute]) {
        out.append(60)
        Escaping.append(name, to: &out)
        for attribute in attributes {
            out.append(32)
            Escaping.append(attribute.name, to: &out)
            out.append(61)
            out.append(34)
            Escaping.appendXML(attribute.value, to: &out)
            out.append(34)
        }
    }

    /// `<name attributes>`: the contents follow, then `close(name)`.
    public mutating func open(_ name: StaticString, _ attributes: Attribute...) {
        open(name, attributes: attributes)
    }

    public mutating func open(_ name: StaticString, attributes: [Attribute]) {
        start(name, attributes)
        out.append(62)
    }

    public mutating func close(_ name: StaticString) {
        Escaping.append("</", to: &out)
        Escaping.append(name, to: &out)
        out.append(62)
    }

    /// `<name attributes>text</name>`.
    public mutating func element(_ name: StaticString, _ attributes: Attribute..., text: String) {
        start(name, attributes)
        out.append(62)
        Escaping.appendXML(text, to: &out)
        close(name)
    }

    /// `<name attributes/>` (SVG's empty elements) or, for HTML's void elements, `<name attributes>`.
    public mutating func empty(_ name: StaticString, _ attributes: Attribute..., void: Bool = false) {
        empty(name, attributes: attributes, void: void)
    }

    public mutating func empty(_ name: StaticString, attributes: [Attribute], void: Bool = false) {
        start(name, attributes)
        Escaping.append(void ? ">" : "/>", to: &out)
    }

    /// Text between elements, escaped.
    public mutating func text(_ text: String) {
        Escaping.appendXML(text, to: &out)
    }

    /// Markup already made.
    public mutating func append(_ html: TrustedHTML) {
        out.append(html.markup)
    }

    /// Markup of plein's source.
    public mutating func append(literal: StaticString) {
        Escaping.append(literal, to: &out)
    }

    /// Markup another writer made (`bytes`), as it was kept (a part of a page the fragment
    /// memory keeps).
    public mutating func append(made bytes: [UInt8]) {
        out += bytes
    }

    public mutating func append(made bytes: ArraySlice<UInt8>) {
        out += bytes
    }

    public var html: TrustedHTML { TrustedHTML(String(decoding: out, as: UTF8.self)) }
    /// What it made, as UTF-8.
    public var bytes: [UInt8] { out }
}
