import PleinText
import PleinModel
import PleinMarkdown
import Foundation
import PleinCore
import PleinMustache

extension Renderer {
    /// `1094 · Dapperbuurt`; the name alone when the id is only the name in lower case
    /// (`oosterschelde` → `Oosterschelde`).
    func areaName(_ area: AreaModel) -> String {
        guard let name = area.name else { return area.id }
        if Slug.make(name) == area.id { return name }
        return "\(area.id) · \(name)"
    }

    /// `/reports/`: the postcode areas.
    func areaList() -> Page {
        let areas = areaModels.map { area -> TemplateContext in
            var c: TemplateContext = [
                "id": .text(area.id),
                "name": .text(area.name),
                "url": .text(routes.url(routes.area(area.id))),
                "count": .text(strings.count("report_count", area.reports.count)),
                "feed_url": .text(routes.url(routes.areaFeed(area.id))),
                "categories": .list(categoryCounts(area.reports)),
            ]
            if let latest = area.reports.first.flatMap({ reportModel($0) }) {
                c["latest"] = .object(["title": .text(latest.title), "url": .text(routes.url(routes.report(latest.id))),
                                       "at": .object(time(latest.at))])
            }
            return c
        }
        var page = Page(
            template: "areas", path: routes.areas, title: strings["areas_title"],
            description: strings.format("areas_description", ["site": site.title]), section: .reports)
        let map = mapContext(id: "map-reports", title: strings["areas_title"], features: features(.reports), geoJSON: routes.reportsMap)
        page.context = [
            "areas": .list(areas),
            "recent": .list(reportOrder.prefix(6).map { reportCard($0) }),
            "map": map.map { .object($0) },
        ]
        page.hasMap = map != nil
        page.feeds = [siteFeedLink] + areaModels.map(areaFeedLink)
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    func areaFeedLink(_ area: AreaModel) -> Page.Feed {
        Page.Feed(title: strings.format("feed_area", ["area": areaName(area)]), path: routes.areaFeed(area.id), type: "application/atom+xml")
    }

    /// Report counts per category (only categories that occur), for filters and summaries.
    func categoryCounts(_ reports: [String]) -> [TemplateContext] {
        Category.allCases.compactMap { category in
            let n = reports.count { reportModel($0)?.category == category }
            guard n > 0 else { return nil }
            var c = categoryContext(category)
            c["count"] = .text(strings.number(n))
            return c
        }
    }

    /// `/reports/<area>/`: the area's reports, newest first, with a filter by category.
    func areaPage(_ id: String) -> Page {
        let area = areaModel(id)!
        var c: TemplateContext = [
            "id": .text(area.id),
            "name": .text(area.name),
            "title": .text(areaName(area)),
            "reports": .list(area.reports.map { reportCard($0) }),
            "categories": .list(categoryCounts(area.reports)),
            "count": .text(strings.count("report_count", area.reports.count)),
            "feed_url": .text(routes.url(routes.areaFeed(id))),
        ]
        let map = mapContext(id: "map-area", title: areaName(area), features: features(.area(id)), geoJSON: routes.areaMap(id))
        c["map"] = map.map { .object($0) }
        let newest = area.reports.first.flatMap { reportModel($0) }?.at
        let today = newest.map { site.clock.civil($0).isoDate } ?? "2026-01-01"
        if let new = newFileURL(folder: ContentLayout.areaFolder(id), name: strings.format("prefill_report_name", ["date": today]),
                                text: prefill(report: true, around: newest)) {
            c["new_report_url"] = .text(new)
        }
        var page = Page(
            template: "area", path: routes.area(id), title: areaName(area),
            description: strings.format("area_description", ["area": areaName(area), "n": strings.number(area.reports.count)]),
            section: .reports, context: ["area": .object(c)])
        page.hasMap = map != nil
        page.feeds = [areaFeedLink(area)]
        page.source = area.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_reports"], routes.areas)]
        return page
    }

    /// `/reports/<area>/<slug>/`: one report with its replies.
    func reportPage(_ id: String) -> Page {
        let r = reportModel(id)!
        let area = areaModel(r.area)
        let replies = r.replies.map { reply -> TemplateContext in
            var c: TemplateContext = [
                "anchor": .text(reply.anchor),
                "author": .object(memberLink(reply.author)),
                "at": .object(time(reply.at)),
                "edited": time(reply.revision?.edited),
            ]
            if let html = bodyOf(reply.file)?.html { c["body"] = .html(html) }
            if let edit = editURL(reply.file) { c["edit_url"] = .text(edit) }
            return c
        }
        var c: TemplateContext = [
            "title": .text(r.title),
            "category": .object(categoryContext(r.category)),
            "author": .object(memberLink(r.author)),
            "at": .object(time(r.at)),
            "edited": time(r.revision?.edited),
            "area": .text(area.map(areaName) ?? r.area),
            "area_url": .text(routes.url(routes.area(r.area))),
            "replies": .list(replies),
            "reply_count": .text(strings.count("reply_count", r.replies.count)),
            "followers": .text(r.followers.isEmpty ? nil : strings.count("follower_count", r.followers.count)),
            "feed_url": .text(routes.url(routes.reportFeed(id))),
        ]
        if let html = bodyOf(r.file)?.html { c["body"] = .html(html) }
        if let location = r.location {
            c["location"] = .object([
                "lat": .text(coordinateText(location.lat)), "lon": .text(coordinateText(location.lon)),
                "osm": .text("https://www.openstreetmap.org/?mlat=\(coordinateText(location.lat))&mlon=\(coordinateText(location.lon))#map=17/\(coordinateText(location.lat))/\(coordinateText(location.lon))"),
            ])
        }
        let outline = area.flatMap(areaFeature).map { [$0] } ?? []
        let map = mapContext(
            id: "map-report", title: r.title, features: outline + (reportFeature(id).map { [$0] } ?? []),
            geoJSON: routes.areaMap(r.area), highlight: routes.report(id))
        c["map"] = map.map { .object($0) }
        let folder = r.file == ContentLayout.report(id, bundle: true) ? ContentLayout.replies(id) : nil
        if let folder, let url = newFileURL(folder: folder, name: strings["prefill_reply_name"],
                                            text: prefill(report: false, around: r.replies.last?.at ?? r.at)) {
            c["reply_url"] = .text(url)
        } else if folder == nil, site.repository != nil {
            c["bundle_hint"] = .flag(true)
        }
        var page = Page(
            template: "report", path: routes.report(id), title: r.title,
            description: summary(bodyOf(r.file)?.text ?? r.title, limit: 200), section: .reports,
            context: ["report": .object(c)])
        page.hasMap = map != nil
        if let first = r.resources.first(where: { ["jpg", "jpeg", "png", "webp"].contains(($0.split(separator: ".").last ?? "").lowercased()) }),
           let image = imageOf(ContentLayout.attachment(id, file: first)) {
            page.image = (image.preview ?? image.display).path
        }
        page.feeds = [
            Page.Feed(title: strings.format("feed_report", ["title": r.title]), path: routes.reportFeed(id), type: "application/atom+xml"),
        ] + (area.map { [areaFeedLink($0)] } ?? [])
        page.source = r.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_reports"], routes.areas),
                            (area.map(areaName) ?? r.area, routes.area(r.area))]
        return page
    }

    func coordinateText(_ value: Double) -> String { FixedPoint.text(value, digits: 6) }
}

extension Renderer {
    /// The text of a new report or reply, for the forge's "new file" page: placeholders in the
    /// site's language, and the UTC offset of the site's zone at `moment` (the newest content
    /// there, so the link does not depend on when the site was built).
    func prefill(report: Bool, around moment: Moment?) -> String {
        let offset = SiteClock.offsetText(site.clock.offset(at: moment?.seconds ?? 0))
        let at = strings["prefill_time"] + (offset == "Z" ? "+00:00" : offset)
        let author = strings["thread_your_id"]
        if report {
            return "---\ntitle: \ncategory: message\nat: \(at)\nauthor: \(author)\nlocation: {lat: , lon: }\n---\n\n"
        }
        return "---\nauthor: \(author)\nat: \(at)\n---\n\n"
    }
}
