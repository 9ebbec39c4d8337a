import PleinText
import PleinCore
import PleinModel
import PleinMustache

/// `404.html`: what the web server shows for a page that does not exist.
struct NotFoundPage: PageRenderer {
    let inputs: RenderInputs

    struct Values: TemplateValues, Encodable {
        let homeURL: String
    }

    func page() -> Page {
        var page = Page(
            kind: .notFound, path: Routes.notFound, title: strings["not_found_title"], description: strings["not_found_text"],
            section: .none)
        page.noindex = true
        page.fileName = Routes.notFound
        page.values = Values(homeURL: routes.url(routes.home))
        page.feeds = [siteFeed]
        return page
    }
}

/// `sitemap.xml`: every listed page, for search engines. Unlisted groups and message threads
/// stay out. Pages made from a record carry `lastmod`, the last commit that changed what they
/// show (with the content's git history).
struct Sitemap: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        let pages = pages()
        var xml = MarkupWriter(capacity: 256 + pages.count * 120)
        xml.append(literal: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        xml.open("urlset", .init("xmlns", "http://www.sitemaps.org/schemas/sitemap/0.9"))
        for page in pages {
            xml.append(literal: "\n  ")
            xml.open("url")
            xml.element("loc", text: routes.absolute(page.path))
            if let changed = page.changed { xml.element("lastmod", text: changed.rfc3339UTC) }
            xml.close("url")
        }
        xml.append(literal: "\n")
        xml.close("urlset")
        xml.append(literal: "\n")
        return OutputFile(path: routes.sitemap, text: xml.html.markup)
    }

    func pages() -> [(path: String, changed: Moment?)] {
        let lists: [(SiteSection, String)] = [(.members, routes.members), (.groups, routes.groups), (.reports, routes.areas),
                                              (.study, routes.locations), (.now, routes.now), (.divers, routes.divers)]
        var pages: [(path: String, changed: Moment?)] = ([routes.home] + lists.filter { site.has($0.0) }.map(\.1)).map { ($0, nil) }
        if site.has(.members) {
            let everyone = view.memberOrder + view.formerMembers
            pages += everyone.map { (routes.member($0), view.card($0)?.changed) }
            pages += everyone.filter(view.hasCheckIns).map { (routes.progress($0), nil) }
        }
        for gid in view.groupOrder {
            guard let g = view.groupCard(gid), g.isListed else { continue }
            pages.append((routes.group(gid), g.changed))
            if g.hasGoals { pages.append((routes.leaderboard(gid), nil)) }
            if site.has(.groups) { pages += (view.groupEvents(gid)?.events ?? []).map { (routes.groupEvent($0.key), $0.revision?.changed) } }
            for album in g.albums {
                pages.append((routes.album(album.key), album.changed))
                pages += album.photos.map { (routes.photo(album.key, $0), nil) }
            }
        }
        pages += view.areas.map { (routes.area($0.id), nil) }
        pages += view.readingEvery {
            view.reportOrder.sorted().map { id in (routes.report(id), view.headline(id)!.changed) }
        }
        pages += view.locationIDs.map { (routes.location($0), view.changed(.location($0))) }
        pages += view.pageIDs.map { (routes.page($0), view.changed(.page($0))) }
        if !events(.site).isEmpty { pages.append((routes.events, nil)) }
        return pages
    }
}

/// `robots.txt`: message threads are not for crawlers; the sitemap is.
struct Robots: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        OutputFile(path: routes.robots, text: """
            User-agent: *
            Disallow: \(routes.url(routes.threads))

            Sitemap: \(routes.absolute(routes.sitemap))

            """)
    }
}
