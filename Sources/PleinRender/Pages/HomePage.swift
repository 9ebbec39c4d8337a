import PleinMarkdown
import Foundation
import PleinCore
import PleinModel
import PleinMustache

extension Renderer {
    /// `/`: what is new, and a door to every section.
    func home() -> Page {
        let reports = reportOrder.prefix(8).map { reportCard($0) }
        let albums = listedAlbums.prefix(4).map { albumCard($0) }
        let completions = listedCompletions.prefix(6).map { goalContext($0) }
        let listedGroups = groupOrder.filter { groupModel($0)!.isListed }
        let tiles: [(SiteSection, String, String, String, String)] = [
            (.members, "nav_members", "home_members_text", routes.members, strings.count("member_count", memberOrder.count)),
            (.divers, "nav_divers", "home_divers_text", routes.divers,
             strings.count("diver_count", memberOrder.compactMap(memberModel).filter { $0.diving != nil }.count)),
            (.groups, "nav_groups", "home_groups_text", routes.groups, strings.count("group_count", listedGroups.count)),
            (.reports, "nav_reports", "home_reports_text", routes.areas, strings.count("report_count", reportOrder.count)),
            (.study, "nav_locations", "home_locations_text", routes.locations, strings.count("location_count", locationModels.count)),
            (.now, "nav_now", "home_now_text", routes.now, strings.count("present_count", locationModels.reduce(0) { $0 + $1.present.count })),
        ]
        let sections = tiles.filter { site.has($0.0) }.map { ($0.1, $0.2, $0.3, $0.4) }
        var page = Page(
            template: "home", path: routes.home, title: site.title, description: site.description, section: .home)
        page.context = [
            "reports": .list(Array(reports)),
            "albums": .list(Array(albums)),
            "completions": .list(Array(completions)),
            "sections": .list(sections.map { label, text, path, count in
                ["label": .text(strings[label]), "text": .text(strings[text]), "url": .text(routes.url(path)), "count": .text(count)]
            }),
            "areas_url": .text(routes.url(routes.areas)),
            "groups_url": .text(routes.url(routes.groups)),
        ]
        page.feeds = [siteFeedLink]
        return page
    }

    var siteFeedLink: Page.Feed {
        Page.Feed(title: strings.format("feed_site", ["site": site.title]), path: routes.siteFeed, type: "application/atom+xml")
    }
}
