import PleinCore
import PleinModel
import PleinMustache

/// `/`: a tile per section, the latest reports, new albums and goals completed.
struct HomePage: PageRenderer {
    let inputs: RenderInputs

    struct Tile: TemplateValues, Encodable {
        let label: String
        let text: String
        let url: String
        let count: String
    }

    struct Values: TemplateValues, Encodable {
        let reports: [ReportCard]
        let albums: [AlbumCard]
        let completions: [GoalItem]
        let sections: [Tile]
        let areasURL: String
        let groupsURL: String
        let events: EventsBlock?
    }

    /// The members who dive: kept from build to build (`ModelView.updated`), so that an edit
    /// looks again only at the members whose cards it changed, not at every member's.
    private func divers() -> [String] {
        let order = view.memberOrder
        return view.updated("divers:members", every: [.memberOrder] + order.map { .memberCard($0) }, update: { kept, changed -> [String]? in
            let prefix = Dependency.memberCard("").key
            let touched = Set(changed.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
            var ids = Set(kept.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
            ids.subtract(touched)
            ids.formUnion(touched.filter { view.card($0)?.diving != nil })
            return ids.intersection(order).sorted()
        }, make: {
            order.filter { view.card($0)?.diving != nil }.sorted()
        }, bytes: { ids in ids.flatMap { Array($0.utf8) + [0] } })
    }

    func page() -> Page {
        let listedGroups = view.groupOrder.filter { view.groupCard($0)?.isListed == true }
        let tiles: [(SiteSection, String, String, String, () -> String)] = [
            (.members, "nav_members", "home_members_text", routes.members, { strings.count("member_count", view.memberOrder.count) }),
            (.divers, "nav_divers", "home_divers_text", routes.divers,
             { strings.count("diver_count", divers().count) }),
            (.groups, "nav_groups", "home_groups_text", routes.groups, { strings.count("group_count", listedGroups.count) }),
            (.reports, "nav_reports", "home_reports_text", routes.areas, { strings.count("report_count", view.reportOrder.count) }),
            (.study, "nav_locations", "home_locations_text", routes.locations, { strings.count("location_count", view.locations.count) }),
            (.now, "nav_now", "home_now_text", routes.now,
             { strings.count("present_count", view.locations.reduce(0) { $0 + $1.present.count }) }),
        ]
        let values = Values(
            reports: view.reportOrder.prefix(8).compactMap(cards.report),
            albums: view.newestAlbums(4).map(cards.album),
            completions: view.newestCompletions(6).map(cards.goal),
            sections: tiles.filter { site.has($0.0) }.map {
                Tile(label: strings[$0.1], text: strings[$0.2], url: routes.url($0.3), count: $0.4())
            },
            areasURL: routes.url(routes.areas), groupsURL: routes.url(routes.groups),
            events: eventsBlock(.site, limit: 5, past: false, allURL: routes.url(routes.events)))
        var page = Page(kind: .home, path: routes.home, title: site.title, description: site.description, section: .home)
        page.values = values
        page.feeds = [siteFeed] + calendarLinks(.site)
        return page
    }
}
