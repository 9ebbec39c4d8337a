import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// `/reports/<area>/<slug>/`: one report with its replies.
struct ReportPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Reply: TemplateValues, Encodable {
        let anchor: String
        let author: MemberChip
        let at: TimeValue
        let edited: TimeValue?
        let body: TrustedHTML?
        let editURL: String?
    }

    /// When and where an event is: its start, its end and its place, when given.
    struct EventValue: TemplateValues, Encodable {
        let starts: TimeValue
        let ends: TimeValue?
        let place: String?
        /// This event alone, for "add to your calendar".
        let calendarURL: String
    }

    struct Values: TemplateValues {
        let title: String
        let category: CategoryBadge
        let author: MemberChip
        let at: TimeValue
        let edited: TimeValue?
        let area: String
        let areaURL: String
        let replies: [Reply]
        let replyCount: String
        let followers: String?
        /// Nil until the report has a reply (and with it a feed of replies).
        let feedURL: String?
        let areaFeedURL: String
        let body: TrustedHTML?
        let location: PositionValue?
        let map: MapBlock?
        /// How a reader adds a reply: the CMS's new reply for this report, or a prefilled new file
        /// in the report's `replies/` folder on the forge.
        let replyURL: String?
        let event: EventValue?
        /// schema.org `Event` for an event report.
        let jsonLD: TrustedHTML?

        var template: TemplateContext {
            var c: TemplateContext = [
                "title": .text(title), "category": .of(category), "author": .of(author), "at": .of(at), "edited": .of(edited),
                "area": .text(area), "area_url": .text(areaURL), "replies": .list(replies), "reply_count": .text(replyCount),
                "followers": .text(followers), "feed_url": .text(feedURL),
                "area_feed_url": .text(areaFeedURL), "reply_url": .text(replyURL),
            ]
            if let body { c["body"] = .html(body) }
            if let location { c["location"] = .of(location) }
            if let event { c["event"] = .of(event) }
            c["map"] = .of(map)
            var values: TemplateContext = ["report": .object(c)]
            if let jsonLD { values["jsonld"] = .html(jsonLD) }
            return values
        }
    }

    func page() -> Page {
        guard let r = view.report(id) else { return missingPage("report \(id)", kind: .report, path: routes.report(id), section: .reports) }
        // (What a report's page shows of its area is its card: a new report in it leaves the page as it is.)
        let area = view.areaCard(r.area)
        let areaTitle = area.map(names.area) ?? r.area
        let features = maps.features
        let outline = area.flatMap { features.outline(of: $0) }.map { [$0] } ?? []
        let map = maps.block(
            id: "map-report", title: r.title, features: outline + (features.reportFeature(id).map { [$0] } ?? []),
            geoJSON: routes.areaMap(r.area), highlight: routes.report(id))
        // The report's own photos, as its text links them (a reply's too: it is on the same page).
        let folder = ContentLayout.reportFolder(id)
        var page = Page(
            kind: .report, path: routes.report(id), title: r.title, description: summary(of: r.file, limit: 200, otherwise: r.title),
            section: .reports)
        page.values = Values(
            title: r.title, category: cards.category(r.category), author: chip(r.author), at: time(r.at), edited: time(r.revision?.edited),
            area: areaTitle, areaURL: routes.url(routes.area(r.area)),
            replies: r.replies.map { reply in
                Reply(anchor: reply.anchor, author: chip(reply.author), at: time(reply.at), edited: time(reply.revision?.edited),
                      body: BodyImages.responsive(view.body(reply.file)?.html, folder: folder, view: view, routes: routes), editURL: forge.edit(reply.file))
            },
            replyCount: strings.count("reply_count", r.replies.count),
            followers: r.followers.isEmpty ? nil : strings.count("follower_count", r.followers.count),
            feedURL: r.replies.isEmpty ? nil : routes.url(routes.reportFeed(id)), areaFeedURL: routes.url(routes.areaFeed(r.area)),
            body: BodyImages.responsive(view.body(r.file)?.html, folder: folder, view: view, routes: routes),
            location: r.location.map { PositionValue($0, names: names) }, map: map, replyURL: replyURL(r),
            event: r.starts.map {
                EventValue(starts: time($0), ends: eventEnd(starts: $0, ends: r.ends), place: r.place,
                           calendarURL: routes.url(routes.calendar(.report(id))))
            },
            jsonLD: reportEvent(id).map { eventJSONLD($0, organizer: view.card(r.author)?.name) })
        page.hasMap = map != nil
        if let first = r.resources.first(where: { FileRole.webImageExtensions.contains(FileRole.splitExtension($0).ext.lowercased()) }),
           let image = view.image(ContentLayout.attachment(id, file: first)) {
            page.image = (image.preview ?? image.display).path
        }
        page.feeds = (r.replies.isEmpty ? [] : [.atom(strings.format("feed_report", ["title": r.title]), routes.reportFeed(id), jsonTwin: FeedID.report(id).hasJSONTwin)])
            + (area.map { [areaFeed(id: $0.id, title: areaTitle)] } ?? [])
        if r.starts != nil { page.feeds += calendarLinks(.area(r.area)) }
        page.source = r.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_reports"], routes.areas), (areaTitle, routes.area(r.area))]
        return page
    }

    /// A report that is one file takes replies too: they go in a folder of its name.
    func replyURL(_ r: ReportModel) -> String? {
        if let cms = cms.newReply(area: r.area, report: r.slug) { return cms }
        return forge.newFile(
            folder: ContentLayout.replies(id), name: strings["prefill_reply_name"],
            text: forge.prefill(report: false, around: r.replies.last?.at ?? r.at))
    }
}
