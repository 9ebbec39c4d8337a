import PleinText
import PleinMarkdown
import Foundation
import PleinCore
import PleinModel
import PleinMustache

extension Renderer {
    func notFound() -> Page {
        var page = Page(
            template: "not-found", path: Routes.notFound, title: strings["not_found_title"],
            description: strings["not_found_text"], section: .none)
        page.noindex = true
        page.fileName = Routes.notFound
        page.context = ["home_url": .text(routes.url(routes.home))]
        return page
    }

    /// Every listed page, for search engines. Unlisted groups and message threads stay out.
    /// Every listed page; pages made from a record carry `lastmod`, the last commit that
    /// changed what they show (with the content's git history).
    func sitemap() -> String {
        let lists: [(SiteSection, String)] = [(.members, routes.members), (.groups, routes.groups), (.reports, routes.areas),
                                              (.study, routes.locations), (.now, routes.now), (.divers, routes.divers)]
        var pages: [(path: String, changed: Moment?)] = ([routes.home] + lists.filter { site.has($0.0) }.map(\.1)).map { ($0, nil) }
        if site.has(.members) {
            pages += memberOrder.map { (routes.member($0), memberModel($0)?.revision?.changed) }
            pages += memberOrder.filter { !sessions(of: $0).isEmpty }.map { (routes.progress($0), nil) }
        }
        for gid in groupOrder where groupModel(gid)!.isListed {
            let g = groupModel(gid)!
            pages.append((routes.group(gid), g.revision?.changed))
            pages.append((routes.leaderboard(gid), nil))
            for album in g.albums {
                pages.append((routes.album(album.key), album.revision?.changed))
                pages += album.photos.map { (routes.photo(album.key, $0.slug), nil) }
            }
        }
        pages += areaModels.map { (routes.area($0.id), nil) }
        pages += reportOrder.sorted().map { id in
            let report = reportModel(id)!
            return (routes.report(id), ([report.revision?.changed] + report.replies.map { $0.revision?.changed }).compactMap { $0 }.max())
        }
        pages += locationModels.map { (routes.location($0.id), $0.revision?.changed) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in pages {
            let lastmod = page.changed.map { "<lastmod>\($0.rfc3339UTC)</lastmod>" } ?? ""
            xml += "  <url><loc>\(XML.escape(routes.absolute(page.path)))</loc>\(lastmod)</url>\n"
        }
        return xml + "</urlset>\n"
    }

    func robots() -> String {
        """
        User-agent: *
        Disallow: \(routes.url(routes.threads))

        Sitemap: \(routes.absolute(routes.sitemap))

        """
    }
}
