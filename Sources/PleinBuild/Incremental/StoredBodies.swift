import GRDB
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
        return RenderedMarkdown(html: made, absoluteHTML: absolute.map { $0.isEmpty ? made : TrustedHTML(madeByPlein: $0) }, links: Self.links(links), text: text)
    }

    static func bodyStatement(_ db: Database) throws -> RawStatement {
        try RawStatement(db, "INSERT OR REPLACE INTO bodies (file, digest, html, absolute, text, links) VALUES (?, ?, ?, ?, ?, ?)")
    }

    /// Writes a body's row through `statement` (`bodyStatement`): `absolute` is stored only when it
    /// differs from `html` ('' when the same; most bodies).
    static func put(_ body: RenderedMarkdown, file: String, digest: [UInt8], with statement: RawStatement) throws {
        let absolute = body.absoluteHTML.map { $0 == body.html ? "" : $0.markup }
        try statement.run(.text(file), .blob(digest), .text(body.html.markup), absolute.map { .text($0) } ?? .null, .text(body.text), .text(text(body.links)))
    }

    /// Links as lines: `l <url>` or `i <url>` (a URL holds no line break after rendering).
    private static func text(_ links: [RenderedMarkdown.Link]) -> String {
        links.map { ($0.kind == .image ? "i " : "l ") + $0.url }.joined(separator: "\n")
    }

    private static func links(_ text: String) -> [RenderedMarkdown.Link] {
        text.split(separator: "\n").map { line in
            RenderedMarkdown.Link(kind: line.hasPrefix("i ") ? .image : .link, url: String(line.dropFirst(2)))
        }
    }
}
