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
/// show (with the content's git history). Past `RenderOptions.sitemapSplit` reports it is a
/// sitemap index of parts (`SitemapPart`): the pages that are no report's nor an area's, and
/// one per area with its reports.
struct Sitemap: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        guard SitemapPart.splits(reports: view.reportOrder.count, past: inputs.options.sitemapSplit) else {
            return urlset(entries(), path: routes.sitemap)
        }
        var xml = MarkupWriter(capacity: 4096)
        xml.append(literal: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        xml.open("sitemapindex", .init("xmlns", "http://www.sitemaps.org/schemas/sitemap/0.9"))
        for part in [SitemapPart.pages] + view.areaIDs.map(SitemapPart.area) {
            xml.append(literal: "\n  ")
            xml.open("sitemap")
            xml.element("loc", text: routes.absolute(routes.sitemapPart(part)))
            xml.close("sitemap")
        }
        xml.append(literal: "\n")
        xml.close("sitemapindex")
        xml.append(literal: "\n")
        return OutputFile(path: routes.sitemap, bytes: xml.bytes)
    }

    /// One part of a sitemap in parts.
    func render(_ part: SitemapPart) -> OutputFile {
        switch part {
        case .pages:
            return urlset(pageEntries(groupAndAreaPages(areas: false)) + pagesAfterReports().map { entry($0)[...] }, path: routes.sitemapPart(part))
        case .area(let id):
            // (The area's reports, each one's entry kept as in the whole sitemap.)
            let reports = view.area(id)?.reports.sortedByBytes() ?? []
            return urlset([entry((routes.area(id), nil))[...]] + reportEntries("sitemap:area:" + id, ids: reports), path: routes.sitemapPart(part))
        }
    }

    private func urlset(_ entries: [ArraySlice<UInt8>], path: String) -> OutputFile {
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
        return OutputFile(path: path, bytes: xml.bytes)
    }

    /// Each page's `<url>`; a report's kept from the last build while its headline is the same,
    /// a member's while their card is.
    func entries() -> [ArraySlice<UInt8>] {
        var entries = pageEntries(groupAndAreaPages(areas: true))
        entries += view.readingEvery { reportEntries("sitemap:reports", ids: view.reportIDs) }
        return entries + pagesAfterReports().map { entry($0)[...] }
    }

    /// The reports' entries, kept in the list `key` (a report's is the same in every list).
    private func reportEntries(_ key: String, ids: [String]) -> [ArraySlice<UInt8>] {
        view.entries(key, each: "sitemap:report:", ids: ids) { id in
            view.headline(id).map { entry((routes.report(id), $0.changed)) } ?? []
        }.filter { !$0.isEmpty }
    }

    /// The entries before the reports: the home page and the lists, the members and their
    /// progress, then `groupsAndAreas`.
    private func pageEntries(_ groupsAndAreas: [(path: String, changed: Moment?)]) -> [ArraySlice<UInt8>] {
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
        return entries + groupsAndAreas.map { entry($0)[...] }
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

    /// The groups' pages, their albums' and photos', and (with `areas`) the areas'.
    private func groupAndAreaPages(areas: Bool) -> [(path: String, changed: Moment?)] {
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
        return areas ? pages + view.areaIDs.map { (routes.area($0), nil) } : pages
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
