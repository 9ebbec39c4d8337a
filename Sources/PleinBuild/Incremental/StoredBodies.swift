import GRDB
import PleinCore
import PleinMarkdown
@_spi(TrustedMarkup) import PleinText

/// The rendered Markdown bodies in the store: the one place outside PleinMarkdown that makes a
/// `TrustedHTML` of a string, for the bodies PleinMarkdown made in an earlier build.
extension BuildStore {
    /// A body as the store keeps it.
    static func body(_ db: Database, file: String) throws -> RenderedMarkdown? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT html, absolute, text, links FROM bodies WHERE file = ?"), arguments: [file]) else {
            return nil
        }
        return body(html: row[0], absolute: row[1], text: row[2], links: row[3])
    }

    static func body(html: String, absolute: String?, text: String, links: String) -> RenderedMarkdown {
        // Bodies PleinMarkdown made in an earlier build, keyed by the hash of their source.
        let made = TrustedHTML(madeByPlein: html)
        return RenderedMarkdown(html: made, absoluteHTML: absolute.map { $0.isEmpty ? made : TrustedHTML(madeByPlein: Self.absolute($0, html: html)) },
                                links: Self.links(links), text: text)
    }

    /// A body's row as the store keeps it: its HTML, its feed HTML only where it differs from
    /// that ('' when the same, most bodies; `stored(absolute:html:)`; nil when it has none), its
    /// text and its links.
    struct BodyRow: Sendable {
        let file: String
        let digest: [UInt8]
        let html: String
        let absolute: String?
        let text: String
        let links: String

        init(_ body: RenderedMarkdown, file: String, digest: [UInt8]) {
            (self.file, self.digest, html, text) = (file, digest, body.html.markup, body.text)
            absolute = body.absoluteHTML.map { $0 == body.html ? "" : BuildStore.stored(absolute: $0.markup, html: body.html.markup) }
            links = BuildStore.text(body.links)
        }
    }

    /// Writes bodies' rows, made on every core a batch at a time.
    static func put(_ bodies: [(file: String, body: RenderedMarkdown, digest: [UInt8])], _ db: Database) throws {
        let statement = try RawStatement(db, "INSERT OR REPLACE INTO bodies (file, digest, html, absolute, text, links) VALUES (?, ?, ?, ?, ?, ?)")
        try forEachParallelMapped(bodies, batch: 512, { BodyRow($0.body, file: $0.file, digest: $0.digest) }) { row in
            try statement.run(.text(row.file), .blob(row.digest), .text(row.html), row.absolute.map { .text($0) } ?? .null, .text(row.text), .text(row.links))
        }
    }

    /// A body's feed HTML (every target absolute) as the store keeps it, when it is not its page's
    /// HTML: the spans in which the two differ, each running to the closing quote of an attribute
    /// (the link and image targets made absolute: a body of 3 KB with links to the site's own
    /// pages kept its 3 KB twice), written `\u{1}` and a line per span: where it begins and how
    /// long it is in the page HTML's bytes, and what the feed HTML holds there. Else whole (a
    /// body's HTML begins with a tag, never with `\u{1}`). Checked before it is kept: the spans
    /// give back the feed HTML, byte for byte, or it is kept whole.
    static func stored(absolute: String, html: String) -> String {
        let (page, feed) = (Array(html.utf8), Array(absolute.utf8))
        var (i, j) = (0, 0)
        var spans: [String] = []
        while i < page.count, j < feed.count {
            if page[i] == feed[j] {
                (i, j) = (i + 1, j + 1)
                continue
            }
            guard let endOfPage = page[i...].firstIndex(of: 0x22), let endOfFeed = feed[j...].firstIndex(of: 0x22),
                  !feed[j..<endOfFeed].contains(0x0A) else { return absolute }
            spans.append("\(i) \(endOfPage - i) " + String(decoding: feed[j..<endOfFeed], as: UTF8.self))
            (i, j) = (endOfPage, endOfFeed)
        }
        guard i == page.count, j == feed.count else { return absolute }
        let stored = "\u{1}" + spans.joined(separator: "\n")
        return Self.absolute(stored, html: html) == absolute ? stored : absolute
    }

    /// The feed HTML a stored form gives back (`stored(absolute:html:)`).
    static func absolute(_ stored: String, html: String) -> String {
        guard stored.hasPrefix("\u{1}") else { return stored }
        let page = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(page.count + stored.utf8.count)
        var at = 0
        for line in stored.utf8.dropFirst().split(separator: 0x0A, omittingEmptySubsequences: false) {
            let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let start = Int(String(decoding: parts[0], as: UTF8.self)),
                  let length = Int(String(decoding: parts[1], as: UTF8.self)), start >= at, start + length <= page.count else { return "" }
            out += page[at..<start]
            out += parts[2]
            at = start + length
        }
        out += page[at...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Links as lines: `l <url>` or `i <url>` (a URL holds no line break after rendering).
    static func text(_ links: [RenderedMarkdown.Link]) -> String {
        links.map { ($0.kind == .image ? "i " : "l ") + $0.url }.joined(separator: "\n")
    }

    private static func links(_ text: String) -> [RenderedMarkdown.Link] {
        text.split(separator: "\n").map { line in
            RenderedMarkdown.Link(kind: line.hasPrefix("i ") ? .image : .link, url: String(line.dropFirst(2)))
        }
    }
}
