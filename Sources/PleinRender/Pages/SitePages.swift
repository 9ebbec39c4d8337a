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
        let entries = entries()
        var xml = MarkupWriter(capacity: 256 + entries.reduce(0) { $0 + $1.count + 3 })
        xml.append(literal: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        xml.open("urlset", .init("xmlns", "http://www.sitemaps.org/schemas/sitemap/0.9"))
        for entry in entries {
            xml.append(literal: "\n  ")
            xml.append(made: entry)
        }
        xml.append(literal: "\n")
        xml.close("urlset")
        xml.append(literal: "\n")
        return OutputFile(path: routes.sitemap, bytes: xml.bytes)
    }

    /// Each page's `<url>`; a report's kept from the last build while its headline is the same,
    /// a member's while their card is.
    func entries() -> [ArraySlice<UInt8>] {
        let lists: [(SiteSection, String)] = [(.members, routes.members), (.groups, routes.groups), (.reports, routes.areas),
                                              (.study, routes.locations), (.now, routes.now), (.divers, routes.divers)]
        var entries = ([routes.home] + lists.filter { site.has($0.0) }.map(\.1)).map { entry(($0, nil))[...] }
        if site.has(.members) {
            let everyone = view.memberOrder + view.formerMembers
            entries += view.entries("sitemap:members", each: "sitemap:member:", ids: everyone) { id in
                entry((routes.member(id), view.card(id)?.changed))
            }
            entries += view.entries("sitemap:progress", each: "sitemap:progress:", ids: everyone) { id in
                view.hasCheckIns(id) ? entry((routes.progress(id), nil)) : []
            }.filter { !$0.isEmpty }
        }
        entries += groupAndAreaPages().map { entry($0)[...] }
        entries += view.readingEvery {
            view.entries("sitemap:reports", each: "sitemap:report:", ids: view.reportIDs) { id in
                view.headline(id).map { entry((routes.report(id), $0.changed)) } ?? []
            }.filter { !$0.isEmpty }
        }
        return entries + pagesAfterReports().map { entry($0)[...] }
    }

    private func entry(_ page: (path: String, changed: Moment?)) -> [UInt8] {
        var xml = MarkupWriter(capacity: 128)
        xml.open("url")
        xml.element("loc", text: routes.absolute(page.path))
        if let changed = page.changed { xml.element("lastmod", text: changed.rfc3339UTC) }
        xml.close("url")
        return xml.bytes
    }

    /// The pages listed after the reports: the study places, the site's own pages, its events.
    private func pagesAfterReports() -> [(path: String, changed: Moment?)] {
        var pages = view.locationIDs.map { (routes.location($0), view.changed(.location($0))) }
        pages += view.pageIDs.map { (routes.page($0), view.changed(.page($0))) }
        if hasEvents(.site) { pages.append((routes.events, nil)) }
        return pages
    }

    /// The pages listed before the reports: the home page and the lists, the members, the
    /// groups with their albums and events, the areas.
    /// The groups' pages, their albums' and photos', and the areas'.
    private func groupAndAreaPages() -> [(path: String, changed: Moment?)] {
        var pages: [(path: String, changed: Moment?)] = []
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
        return pages + view.areas.map { (routes.area($0.id), nil) }
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
