import PleinText
import Foundation
import PleinCore
import PleinModel

/// Writes a `Feed` as Atom (RFC 4287, with RFC 4685 threading) and as JSON Feed 1.1.
struct FeedWriter: Rendering {
    let inputs: RenderInputs

    static let generatorURI = "https://github.com/plein-ssg/plein"

    func atom(_ feed: Feed) -> OutputFile {
        var x = XMLBuilder(capacity: 2048 + feed.entries.reduce(0) { $0 + $1.content.markup.utf8.count + 1024 })
        x.declaration()
        x.open("feed", [("xmlns", "http://www.w3.org/2005/Atom"), ("xmlns:thr", "http://purl.org/syndication/thread/1.0"),
                        ("xml:lang", site.language.rawValue)])
        x.element("id", feed.id)
        x.element("title", feed.title)
        if !feed.subtitle.isEmpty { x.element("subtitle", feed.subtitle) }
        x.element("updated", (feed.updated ?? Moment(seconds: 946_684_800)).rfc3339UTC)
        x.open("author")
        x.element("name", site.title)
        x.element("uri", routes.baseURL)
        x.close("author")
        x.empty("link", [("rel", "self"), ("type", "application/atom+xml"), ("href", routes.absolute(feed.atomPath))])
        x.empty("link", [("rel", "alternate"), ("type", "text/html"), ("href", routes.absolute(feed.pagePath))])
        if let json = feed.jsonPath { x.empty("link", [("rel", "alternate"), ("type", "application/feed+json"), ("href", routes.absolute(json))]) }
        // WebSub: the hub that readers subscribe at, which the CI tells of this feed's changes.
        if let hub = site.websubHub { x.empty("link", [("rel", "hub"), ("href", hub)]) }
        x.element("generator", "plein", [("uri", Self.generatorURI), ("version", PleinVersion.number)])
        x.element("icon", routes.absolute(inputs.theme.asset("icon.svg")))
        for entry in feed.entries {
            x.open("entry")
            x.element("id", entry.id)
            x.element("title", entry.title)
            x.element("published", entry.published.rfc3339UTC)
            x.element("updated", entry.updated.rfc3339UTC)
            if let author = entry.author {
                x.open("author")
                x.element("name", author.name)
                if let uri = author.uri { x.element("uri", uri) }
                x.close("author")
            }
            x.empty("link", [("rel", "alternate"), ("type", "text/html"), ("href", entry.link)])
            for category in entry.categories { x.empty("category", [("term", category.term), ("label", category.label)]) }
            if let reply = entry.inReplyTo {
                x.empty("thr:in-reply-to", [("ref", reply.ref), ("href", reply.href), ("type", "text/html")])
            }
            if let summary = entry.summary, !summary.isEmpty { x.element("summary", summary) }
            x.element("content", entry.content.markup, [("type", "html")])
            x.close("entry")
        }
        x.close("feed")
        return OutputFile(path: feed.atomPath, bytes: x.bytes)
    }

    /// The feed as JSON Feed: only for a feed that has a JSON twin (`jsonPath`).
    func json(_ feed: Feed) -> OutputFile {
        let path = feed.jsonPath!
        func author(_ p: FeedEntry.Person) -> JSON {
            var fields: [(String, JSON)] = [("name", .string(p.name))]
            if let uri = p.uri { fields.append(("url", .string(uri))) }
            return .object(fields)
        }
        let items: [JSON] = feed.entries.map { e in
            var fields: [(String, JSON)] = [
                ("id", .string(e.id)),
                ("url", .string(e.link)),
                ("title", .string(JSONText.clean(e.title))),
                ("content_html", .string(JSONText.clean(e.content.markup))),
                ("date_published", .string(e.published.rfc3339UTC)),
                ("date_modified", .string(e.updated.rfc3339UTC)),
            ]
            if let summary = e.summary, !summary.isEmpty { fields.append(("summary", .string(JSONText.clean(summary)))) }
            if let a = e.author { fields.append(("authors", .array([author(a)]))) }
            if !e.categories.isEmpty { fields.append(("tags", .array(e.categories.map { .string($0.label) }))) }
            if let reply = e.inReplyTo { fields.append(("external_url", .string(reply.href))) }
            return .object(fields)
        }
        var fields: [(String, JSON)] = [
            ("version", .string("https://jsonfeed.org/version/1.1")),
            ("title", .string(JSONText.clean(feed.title))),
            ("home_page_url", .string(routes.absolute(feed.pagePath))),
            ("feed_url", .string(routes.absolute(path))),
        ]
        if !feed.subtitle.isEmpty { fields.append(("description", .string(JSONText.clean(feed.subtitle)))) }
        fields += [
            ("icon", .string(routes.absolute(inputs.theme.asset("icon.svg")))),
            ("language", .string(site.language.rawValue)),
            ("authors", .array([.object([("name", .string(site.title)), ("url", .string(routes.baseURL))])])),
            ("items", .array(items)),
        ]
        if let hub = site.websubHub { fields.insert(("hubs", .array([.object([("type", .string("WebSub")), ("url", .string(hub))])])), at: fields.count - 1) }
        var out: [UInt8] = []
        out.reserveCapacity(2048 + feed.entries.reduce(0) { $0 + $1.content.markup.utf8.count + 1024 })
        JSON.object(fields).write(to: &out, pretty: true, indent: 0)
        out.append(10)
        return OutputFile(path: path, bytes: out)
    }
}

/// JSON can carry any character, but feed readers display text: drop the same control
/// characters the Atom twin drops, so both feeds say the same thing.
enum JSONText {
    static func clean(_ text: String) -> String {
        // Only control bytes and the lead byte of U+FFFE/U+FFFF can start a forbidden character.
        guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x9 && $0 != 0xA && $0 != 0xD) || $0 == 0xEF }),
              text.unicodeScalars.contains(where: { !XML.isAllowed($0) })
        else { return text }
        var out = ""
        out.unicodeScalars.append(contentsOf: text.unicodeScalars.filter(XML.isAllowed))
        return out
    }
}
