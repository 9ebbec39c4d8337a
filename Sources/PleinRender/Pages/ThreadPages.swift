import Foundation
import PleinModel
import PleinCore
import PleinMarkdown
import PleinMustache

extension Renderer {
    func thread(_ id: String) -> (ThreadModel, key: String) {
        let thread = threadModel(id)!
        return (thread, options.threadKeys!.key(for: id))
    }

    /// `/messages/<key>/`: a thread for those who have its address. Linked from nowhere,
    /// `noindex, nofollow`, and left out of every list, feed and sitemap.
    func threadPage(_ id: String) -> Page {
        let (t, key) = thread(id)
        let messages = t.messages.map { m -> TemplateContext in
            var c: TemplateContext = [
                "anchor": .text("message-" + Slug.make(m.name)),
                "author": .object(memberLink(m.author)),
                "at": .object(time(m.at)),
            ]
            if let html = bodyOf(m.file)?.html { c["body"] = .html(html) }
            return c
        }
        var page = Page(
            template: "thread", path: routes.thread(key), title: t.subject,
            description: strings.format("thread_description", ["n": strings.number(t.participants.count)]), section: .none)
        page.context = [
            "subject": .text(t.subject),
            "participants": .list(t.participants.map { memberLink($0) }),
            "messages": .list(messages),
            "count": .text(strings.count("message_count", t.messages.count)),
            "feed_url": .text(routes.url(routes.threadFeed(key))),
        ]
        page.noindex = true
        page.nofollow = true
        page.feeds = [Page.Feed(title: strings.format("feed_thread", ["subject": t.subject]), path: routes.threadFeed(key), type: "application/atom+xml")]
        return page
    }

    /// The thread's own feed, for its participants.
    func threadFeed(_ id: String) -> Feed {
        let (t, key) = thread(id)
        let page = routes.thread(key)
        let entries = t.messages.map { m -> FeedEntry in
            let name = memberModel(m.author)?.name ?? m.author
            return FeedEntry(
                id: tagURI(m.at, page + m.name), title: strings.format("feed_message_title", ["name": name, "subject": t.subject]),
                published: m.at, updated: m.at, author: person(m.author),
                link: routes.absolute(page) + "#message-" + Slug.make(m.name), content: absoluteHTML(m.file),
                summary: nil, categories: [], inReplyTo: nil)
        }
        return Feed(
            id: routes.absolute(routes.threadFeed(key)), title: strings.format("feed_thread", ["subject": t.subject]),
            subtitle: strings["feed_thread_subtitle"], atomPath: routes.threadFeed(key), jsonPath: routes.jsonFeed(routes.threadFeed(key)), pagePath: page,
            entries: Array(entries.sorted(by: FeedEntry.newestFirst).prefix(site.feedLimit)))
    }
}
