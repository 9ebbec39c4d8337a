internal import CCmarkGFM
import Foundation
@_spi(TrustedMarkup) public import PleinText

/// GitHub-flavoured Markdown in, safe HTML out.
///
/// Raw HTML is never passed through (cmark-gfm's safe mode) and dangerous link targets are
/// removed before rendering, so the returned HTML can be placed in a page as it is.
public enum Markdown {
    /// Renders `source` and reports the links and images it contains.
    ///
    /// - Parameters:
    ///   - headingOffset: added to every heading level (capped at 6), so a body's `#` heading
    ///     sits below the page's own `<h1>`.
    ///   - idPrefix: prefixed to footnote ids, so several bodies can share one page.
    ///   - absoluteURL: when given, a second rendering is made in which every link and image
    ///     target has been passed through it (for feeds, which need absolute URLs).
    public static func render(
        _ source: String,
        headingOffset: Int = 1,
        idPrefix: String = "",
        absoluteURL: ((String) -> String)? = nil
    ) -> RenderedMarkdown {
        Engine.shared.render(source, headingOffset: headingOffset, idPrefix: idPrefix, absoluteURL: absoluteURL)
    }

    /// One text to render with `render(_:)`: what `render(_:headingOffset:idPrefix:absoluteURL:)` takes.
    public struct Text {
        public let source: String
        public let headingOffset: Int
        public let idPrefix: String
        public let absoluteURL: ((String) -> String)?

        public init(_ source: String, headingOffset: Int = 1, idPrefix: String = "", absoluteURL: ((String) -> String)? = nil) {
            (self.source, self.headingOffset, self.idPrefix, self.absoluteURL) = (source, headingOffset, idPrefix, absoluteURL)
        }
    }

    /// Renders several texts, in order, as `render(_:headingOffset:idPrefix:absoluteURL:)` renders
    /// each: the part of cmark-gfm's parse that runs one text at a time in the process (see
    /// `Engine`) is taken once for them all, so that threads rendering batches side by side
    /// wait for each other once a batch, not once a text.
    public static func render(_ texts: [Text]) -> [RenderedMarkdown] {
        Engine.shared.render(texts)
    }

    /// The version of the cmark-gfm library plein runs with.
    public static var libraryVersion: String { String(cString: cmark_version_string()) }

    /// Whether a link target may appear in output: no `javascript:`, `vbscript:`, `file:`,
    /// and `data:` only for raster images.
    public static func isSafeURL(_ url: String) -> Bool {
        // (Without a colon there is no scheme: most of a site's own links.)
        guard url.utf8.contains(58) else { return true }
        let trimmed = url.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        // Browsers ignore ASCII control characters and whitespace inside the scheme.
        let scheme = String(trimmed.prefix { $0 != ":" }.filter { !$0.isWhitespace && !($0.asciiValue.map { $0 < 0x20 } ?? false) }).lowercased()
        guard trimmed.utf8.contains(58), scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else {
            return true
        }
        switch scheme {
        case "javascript", "vbscript", "file", "livescript", "mocha":
            return false
        case "data":
            let rest = trimmed.dropFirst(5).lowercased()
            return ["image/png", "image/gif", "image/jpeg", "image/webp"].contains { rest.hasPrefix($0) }
        default:
            return true
        }
    }
}

/// The result of rendering one Markdown document.
public struct RenderedMarkdown: Sendable, Equatable {
    /// HTML for a page.
    public let html: TrustedHTML
    /// HTML with every link and image target made absolute; `nil` unless asked for.
    public let absoluteHTML: TrustedHTML?
    /// Link and image targets in document order (after removing dangerous ones).
    public let links: [Link]
    /// The text without markup, whitespace collapsed: for descriptions and summaries.
    public let text: String

    public init(html: TrustedHTML, absoluteHTML: TrustedHTML?, links: [Link], text: String) {
        self.html = html
        self.absoluteHTML = absoluteHTML
        self.links = links
        self.text = text
    }

    /// A link or image target found in the document.
    public struct Link: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case link, image }
        public let kind: Kind
        public let url: String

        public init(kind: Kind, url: String) {
            self.kind = kind
            self.url = url
        }
    }
}

/// Wraps cmark-gfm's C API; the one place that touches it.
private final class Engine: Sendable {
    static let shared = Engine()

    /// Serialises `cmark_parser_finish`, which flips a table shared by every parser in this
    /// cmark-gfm version (upstream PR #176). Parsing and rendering stay parallel.
    private let finishLock = NSLock()
    private let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
    /// Fenced code keeps its info string as `<code class="language-…">` (not GitHub's
    /// `<pre lang>`, which is no valid language tag).
    private let options = CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES

    private init() {
        cmark_gfm_core_extensions_ensure_registered()
    }

    func render(
        _ source: String,
        headingOffset: Int,
        idPrefix: String,
        absoluteURL: ((String) -> String)?
    ) -> RenderedMarkdown {
        render([Markdown.Text(source, headingOffset: headingOffset, idPrefix: idPrefix, absoluteURL: absoluteURL)])[0]
    }

    func render(_ texts: [Markdown.Text]) -> [RenderedMarkdown] {
        // A text cmark-gfm would take minutes over is never given to it: `plein check` and the
        // build's check refuse it at its line; shown as it is, should it be rendered anyway.
        let excessive = texts.map { MarkdownBounds.excess($0.source) != nil }
        let parsers = zip(texts, excessive).map { text, excessive in excessive ? nil : parse(text.source) }
        defer { for parser in parsers { if let parser { cmark_parser_free(parser) } } }
        finishLock.lock()
        let documents = parsers.map { parser in parser.flatMap { cmark_parser_finish($0) } }
        finishLock.unlock()
        return texts.indices.map { index in
            let (text, parser, document) = (texts[index], parsers[index], documents[index])
            if excessive[index] {
                var writer = MarkupWriter(capacity: text.source.utf8.count + 16)
                writer.element("pre", text: text.source)
                return RenderedMarkdown(html: writer.html, absoluteHTML: nil, links: [], text: "")
            }
            guard let parser, let document else { return RenderedMarkdown(html: .empty, absoluteHTML: nil, links: [], text: "") }
            defer { cmark_node_free(document) }
            return render(document, parser: parser, text)
        }
    }

    /// A parser with the extensions and `source` fed to it: its blocks parsed, its inlines not yet.
    private func parse(_ source: String) -> OpaquePointer? {
        guard let parser = cmark_parser_new(options) else { return nil }
        for name in extensionNames {
            if let ext = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, ext)
            }
        }
        var source = source
        source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        return parser
    }

    /// The HTML, links and text of a parsed document.
    private func render(_ document: OpaquePointer, parser: OpaquePointer, _ text: Markdown.Text) -> RenderedMarkdown {
        let links = prepare(document, headingOffset: text.headingOffset)
        let extensions = cmark_parser_get_syntax_extensions(parser)
        let html = finishHTML(takeString(cmark_render_html(document, options, extensions)), prefix: text.idPrefix)
        var absoluteHTML: String?
        // Rendering again only pays when a target changes (relative links; most are absolute).
        if let absoluteURL = text.absoluteURL, links.contains(where: { absoluteURL($0.url) != $0.url }) {
            rewriteURLs(document, with: absoluteURL)
            absoluteHTML = finishHTML(takeString(cmark_render_html(document, options, extensions)), prefix: text.idPrefix)
        } else if text.absoluteURL != nil {
            absoluteHTML = html
        }
        let plain = plainText(document)
        // cmark-gfm's safe mode left raw HTML out, and `prepare` removed dangerous targets.
        return RenderedMarkdown(html: TrustedHTML(madeByPlein: html), absoluteHTML: absoluteHTML.map { TrustedHTML(madeByPlein: $0) },
                                links: links, text: plain)
    }

    /// The text of a body, for summaries and feeds: cmark's plain text, with every table as its
    /// cells' text (not `| a | b |` rows and `|---|` rules).
    private func plainText(_ document: OpaquePointer) -> String {
        var text = takeString(cmark_render_plaintext(document, options, 0))
        var tables: [OpaquePointer] = []
        walk(document) { node in
            if let type = cmark_node_get_type_string(node), strcmp(type, "table") == 0 { tables.append(node) }
        }
        for table in tables {
            let rendered = takeString(cmark_render_plaintext(table, options, 0)).trimmingCharacters(in: .whitespacesAndNewlines)
            var cells = ""
            walk(table) { node in
                if let type = cmark_node_get_type_string(node), strcmp(type, "table_cell") == 0 {
                    cells += " "
                } else if let literal = cmark_node_get_literal(node),
                          ![CMARK_NODE_IMAGE, CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK].contains(cmark_node_get_type(node)) {
                    cells += String(cString: literal)
                }
            }
            if !rendered.isEmpty, let range = text.range(of: rendered) { text.replaceSubrange(range, with: cells) }
        }
        return collapseWhitespace(text)
    }

    /// Shifts headings, removes dangerous URLs and collects the remaining link targets.
    /// A link with a dangerous target keeps its text with an empty `href`; an image without a
    /// usable source becomes its alt text (an `<img src="">` is invalid HTML).
    private func prepare(_ document: OpaquePointer, headingOffset: Int) -> [RenderedMarkdown.Link] {
        var links: [RenderedMarkdown.Link] = []
        var brokenImages: [OpaquePointer] = []
        walk(document) { node in
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_HEADING, headingOffset != 0 {
                let level = Int(cmark_node_get_heading_level(node)) + headingOffset
                cmark_node_set_heading_level(node, Int32(min(max(level, 1), 6)))
            } else if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if type == CMARK_NODE_IMAGE, url.isEmpty || !Markdown.isSafeURL(url) {
                    brokenImages.append(node)
                } else if !Markdown.isSafeURL(url) {
                    cmark_node_set_url(node, "")
                } else if !url.isEmpty {
                    links.append(.init(kind: type == CMARK_NODE_IMAGE ? .image : .link, url: url))
                }
            }
        }
        // Innermost first: an image can sit in another's description, and replacing the outer one
        // frees the inner one (a use after free found by fuzzing).
        for image in brokenImages.reversed() { replaceWithText(image) }
        return links
    }

    /// Replaces a node by the plain text of its children.
    private func replaceWithText(_ node: OpaquePointer) {
        var text = ""
        walk(node) { child in
            if let literal = cmark_node_get_literal(child), cmark_node_get_type(child) != CMARK_NODE_IMAGE {
                text += String(cString: literal)
            }
        }
        guard let replacement = cmark_node_new(CMARK_NODE_TEXT) else { return }
        cmark_node_set_literal(replacement, text)
        cmark_node_replace(node, replacement)
        cmark_node_free(node)
    }

    private func rewriteURLs(_ document: OpaquePointer, with absoluteURL: (String) -> String) {
        walk(document) { node in
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE,
                  let url = cmark_node_get_url(node).map({ String(cString: $0) }), !url.isEmpty
            else { return }
            cmark_node_set_url(node, absoluteURL(url))
        }
    }

    /// Calls `visit` once for every node, on entering it.
    private func walk(_ document: OpaquePointer, _ visit: (OpaquePointer) -> Void) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) {
                visit(node)
            }
        }
    }

    private func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Footnote ids are `fn-1`, `fnref-1` in every document; a prefix keeps them unique per page.
    private func finishHTML(_ html: String, prefix: String) -> String {
        // HTML, not XHTML: `<br />` becomes `<br>`. Text never holds a raw " />" (cmark escapes `>`).
        var html = ByteSearch.replacing(html, " />", ">")
        if ByteSearch.contains(html, "<input type=\"checkbox\"") { html = Self.labelTaskItems(html) }
        guard ByteSearch.contains(html, "data-footnote") else { return html }
        // The footnote list has no heading of its own: a `div`, not a `section` (raw HTML is
        // never passed through, so this is the only section a body can hold).
        var out = html.replacingOccurrences(of: "<section class=\"footnotes\" data-footnotes>", with: "<div class=\"footnotes\" data-footnotes>")
        if let end = out.range(of: "</section>", options: .backwards) { out.replaceSubrange(end, with: "</div>") }
        guard !prefix.isEmpty else { return out }
        for (old, new) in [
            ("id=\"fn-", "id=\"fn-\(prefix)-"), ("id=\"fnref-", "id=\"fnref-\(prefix)-"),
            ("href=\"#fn-", "href=\"#fn-\(prefix)-"), ("href=\"#fnref-", "href=\"#fnref-\(prefix)-"),
        ] {
            out = ByteSearch.replacing(out, old, new)
        }
        return out
    }

    /// A task list's checkbox is labelled by its item's text: `<label>` round the box and the
    /// text up to the end of the item's first line (before a nested list or the item's end).
    static func labelTaskItems(_ html: String) -> String {
        // On bytes, each search from where the last ended: linear in the page however many items
        // it has (Foundation's searches of a Substring began again at its start: a list of ten
        // thousand tasks took minutes).
        var out = ""
        var rest = Substring(html)
        let box = Array("<input type=\"checkbox\"".utf8)
        let ends = ["\n", "</li>", "</p>", "<ul", "<ol"].map { Array($0.utf8) }
        while let start = first(of: [box], in: rest) {
            out += rest[..<start]
            let after = rest[start...]
            let end = first(of: ends, in: after) ?? after.endIndex
            out += "<label>" + after[..<end] + "</label>"
            rest = after[end...]
        }
        return out + rest
    }

    /// Where the first of `patterns` (byte strings) begins in `text`.
    private static func first(of patterns: [[UInt8]], in text: Substring) -> Substring.Index? {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            for pattern in patterns where pattern[0] == byte && bytes[index...].starts(with: pattern) { return index }
            bytes.formIndex(after: &index)
        }
        return nil
    }

    /// Runs of ASCII whitespace become one space; leading and trailing ones go (on bytes: this
    /// runs for every body of the site).
    private func collapseWhitespace(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 32 || byte == 10 || byte == 9 || byte == 13 || byte == 12 {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(32) }
                pendingSpace = false
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
