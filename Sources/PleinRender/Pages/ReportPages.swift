import PleinCore
import PleinModel
import PleinMustache

/// `/reports/`: the postcode areas, the latest reports and the map of all of them.
struct AreaListPage: PageRenderer {
    let inputs: RenderInputs
    /// How many of the newest reports the drawn map shows at most.
    static let drawnReports = 1000

    struct Latest: TemplateValues, Encodable {
        let title: String
        let url: String
        let at: TimeValue
    }

    struct Row: TemplateValues, Encodable {
        let id: String
        let name: String?
        let url: String
        let count: String
        let feedURL: String
        let categories: [CategoryBadge]
        let latest: Latest?
    }

    struct Values: TemplateValues, Encodable {
        let areas: [Row]
        let recent: [ReportCard]
        let map: MapBlock?
        /// The CMS's new report, when the site has a CMS.
        let newReportURL: String?
    }

    func page() -> Page {
        let areas = view.areas
        // (Every report's headline, as one read.)
        let rows = view.readingEvery { zip(areas, cards.categoryCounts(areas: areas.map(\.id))).map { area, categories in
            Row(
                id: area.id, name: area.name, url: routes.url(routes.area(area.id)), count: strings.count("report_count", area.reports.count),
                feedURL: routes.url(routes.areaFeed(area.id)), categories: categories,
                latest: area.reports.first.flatMap(view.headline).map {
                    Latest(title: $0.title, url: routes.url(routes.report($0.id)), at: time($0.at))
                })
        } }
        var page = Page(
            kind: .areas, path: routes.areas, title: strings["areas_title"],
            description: strings.format("areas_description", ["site": site.title]), section: .reports)
        let drawn = maps.features.drawnReports(newest: Self.drawnReports, link: maps.link)
        var map = maps.block(id: "map-reports", title: strings["areas_title"], features: drawn.features, markers: drawn.markers, geoJSON: routes.reportsMap)
        if drawn.total > drawn.markers.count {
            map?.note = strings.format("map_newest", ["n": strings.number(drawn.markers.count), "total": strings.number(drawn.total)])
        }
        page.values = Values(areas: rows, recent: view.reportOrder.prefix(6).compactMap(cards.report), map: map,
                             newReportURL: cms.newReport(area: nil))
        page.hasMap = map != nil
        page.feeds = [siteFeed] + areas.map(areaFeed) + calendarLinks(.site)
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}

/// `/reports/<area>/`: the area's reports, newest first, with a filter by category.
struct AreaPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Values: TemplateValues, Encodable {
        let area: AreaPageValues
    }

    struct AreaPageValues: Encodable {
        let id: String
        let name: String?
        let title: String
        let reports: [ListItem]
        let categories: [CategoryBadge]
        let count: String
        let feedURL: String
        let map: MapBlock?
        let newReportURL: String?
        let events: EventsBlock?
    }

    func page() -> Page {
        guard let area = view.area(id) else { return missingPage("area \(id)", kind: .area, path: routes.area(id), section: .reports) }
        let title = names.area(area)
        let drawn = maps.features.drawn(.area(id), link: maps.link)
        let map = maps.block(id: "map-area", title: title, features: drawn.features, markers: drawn.markers, geoJSON: routes.areaMap(id))
        let newest = area.reports.first.flatMap(view.report)?.at
        let today = newest.map { site.clock.civil($0).isoDate } ?? "2026-01-01"
        var page = Page(
            kind: .area, path: routes.area(id), title: title,
            description: strings.format("area_description", ["area": title, "n": strings.number(area.reports.count)]), section: .reports)
        // (Each report's card as the section rendered it, while what it read is the same.)
        let (reports, kept) = view.items("cards:area:" + id, template: OutputID.Kind.area.template!, ids: area.reports) { cards.report($0)?.template }
        page.values = Values(area: AreaPageValues(
            id: area.id, name: area.name, title: title, reports: reports,
            categories: cards.categoryCounts(area: area.id), count: strings.count("report_count", area.reports.count),
            feedURL: routes.url(routes.areaFeed(id)), map: map,
            newReportURL: cms.newReport(area: id) ?? forge.newFile(
                folder: ContentLayout.areaFolder(id), name: strings.format("prefill_report_name", ["date": today]),
                text: forge.prefill(report: true, around: newest)),
            // Past events are among the reports below.
            events: eventsBlock(.area(id), past: false, showContext: false)))
        page.hasMap = map != nil
        page.keptLists = kept.map { [$0] } ?? []
        page.feeds = [areaFeed(area)] + calendarLinks(.area(id))
        page.source = area.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_reports"], routes.areas)]
        return page
    }
}

extension Rendering {
    /// An area's feed, linked from its pages.
    func areaFeed(_ area: AreaModel) -> Page.Feed { areaFeed(id: area.id, title: names.area(area)) }

    func areaFeed(id: String, title: String) -> Page.Feed {
        .atom(strings.format("feed_area", ["area": title]), routes.areaFeed(id), jsonTwin: FeedID.area(id).hasJSONTwin)
    }

    /// The calendar of `id` for a page's links, when it holds events (`CalendarID.all` makes
    /// exactly those).
}

/// A position as numbers and as a link to OpenStreetMap.
struct PositionValue: TemplateValues, Encodable {
    let lat: String
    let lon: String
    /// The place on OpenStreetMap.
    let osm: String

    init(_ c: Coordinate, names: Names) {
        lat = names.coordinate(c.lat)
        lon = names.coordinate(c.lon)
        osm = "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)"
    }
}
