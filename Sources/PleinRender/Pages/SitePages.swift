import PleinMarkdown
import Foundation
import PleinCore
import PleinMustache

extension Renderer {
    func notFound() -> Page {
        var page = Page(
            template: "not-found", path: "404.html", title: strings["not_found_title"],
            description: strings["not_found_text"], section: .none)
        page.noindex = true
        page.fileName = "404.html"
        page.context = ["home_url": .text(routes.url(routes.home))]
        return page
    }

    /// Every listed page, for search engines. Unlisted groups and message threads stay out.
    func sitemap() -> String {
        let lists: [(SiteSection, String)] = [(.members, routes.members), (.groups, routes.groups), (.reports, routes.areas),
                                              (.study, routes.locations), (.now, routes.now), (.divers, routes.divers)]
        var paths: [String] = [routes.home] + lists.filter { site.has($0.0) }.map(\.1)
        if site.has(.members) {
            paths += memberOrder.map { routes.member($0) }
            paths += memberOrder.filter { !sessions(of: $0).isEmpty }.map { routes.progress($0) }
        }
        for gid in groupOrder where groupModel(gid)!.isListed {
            let g = groupModel(gid)!
            paths.append(routes.group(gid))
            paths.append(routes.leaderboard(gid))
            for album in g.albums {
                paths.append(routes.album(album.key))
                paths += album.photos.map { routes.photo(album.key, $0.slug) }
            }
        }
        paths += areaModels.map { routes.area($0.id) }
        paths += reportOrder.sorted().map { routes.report($0) }
        paths += locationModels.map { routes.location($0.id) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for path in paths {
            xml += "  <url><loc>\(XML.escape(routes.absolute(path)))</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }

    func robots() -> String {
        """
        User-agent: *
        Disallow: \(routes.url("messages/"))

        Sitemap: \(routes.absolute("sitemap.xml"))

        """
    }
}
