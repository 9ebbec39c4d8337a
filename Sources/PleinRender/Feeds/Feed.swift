import PleinText
import Foundation
import PleinCore
import PleinModel

/// Which feed: one per kind of thing people follow (PRODUCT.md, "Feeds").
public enum FeedID: Hashable, Sendable {
    case site
    case area(String)
    case report(String)
    case group(String)
    case member(String)
    case following(String)

    /// Whether the feed is also written as JSON Feed: the site's, the areas' and the groups'
    /// feeds, a few per site, serve JSON Feed readers. The feeds of a single record (a report's
    /// replies, a member's activity, what a member follows) are Atom only, which every reader
    /// that reads JSON Feed reads too: a twin of each would be a file more per member.
    var hasJSONTwin: Bool {
        switch self {
        case .site, .area, .group: return true
        case .report, .member, .following: return false
        }
    }
}

/// A feed before it is written as Atom or JSON Feed: the same entries for both.
struct Feed {
    let id: String
    let title: String
    let subtitle: String
    /// Site-relative paths.
    let atomPath: String
    /// Nil for a feed written as Atom only.
    let jsonPath: String?
    let pagePath: String
    let entries: [FeedEntry]

    /// The content's own time: the latest entry, never the build's clock.
    var updated: Moment? { entries.map(\.updated).max() }
}

struct FeedEntry {
    struct Person {
        let name: String
        let uri: String?
    }

    struct Category {
        let term: String
        let label: String
    }

    /// A tag URI (RFC 4151) that never changes.
    let id: String
    let title: String
    let published: Moment
    let updated: Moment
    let author: Person?
    /// Absolute URL of the entry's page.
    let link: String
    /// HTML with absolute URLs.
    let content: TrustedHTML
    let summary: String?
    let categories: [Category]
    /// RFC 4685: the entry this one replies to (its id and page).
    let inReplyTo: (ref: String, href: String)?

    /// The entry as its summary with a link, for feeds that need not carry whole bodies; an
    /// entry of a few lines, or without a summary, stays as it is.
    var brief: FeedEntry {
        guard content.markup.utf8.count > 1024, let text = summary, !text.isEmpty else { return self }
        return FeedEntry(
            id: id, title: title, published: published, updated: updated, author: author, link: link,
            content: Self.paragraph(text), summary: summary, categories: categories, inReplyTo: inReplyTo)
    }

    /// `<p>text</p>`, with a line break after it when asked.
    static func paragraph(_ text: String, lineBreak: Bool = false) -> TrustedHTML {
        var p = MarkupWriter(capacity: text.utf8.count + 16)
        p.element("p", text: text)
        if lineBreak { p.append(literal: "\n") }
        return p.html
    }

    /// Newest first; ties broken by id, so order never depends on anything but the content.
    static func newestFirst(_ a: FeedEntry, _ b: FeedEntry) -> Bool {
        a.published != b.published ? a.published > b.published : a.id < b.id
    }
}
