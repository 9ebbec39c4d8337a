import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// `/events/`: every public event, upcoming ones by start and past ones newest first.
struct EventListPage: PageRenderer {
    let inputs: RenderInputs

    struct Values: TemplateValues, Encodable {
        let count: String
        let events: EventsBlock?
    }

    func page() -> Page {
        let block = eventsBlock(.site, past: true)
        var page = Page(
            kind: .events, path: routes.events, title: strings["events_title"],
            description: strings.format("events_description", ["site": site.title]), section: .none)
        page.values = Values(count: strings.count("upcoming_count", block?.upcoming.count ?? 0), events: block)
        page.feeds = [siteFeed] + calendarLinks(.site)
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}

/// `/groups/<group>/events/<event>/`: when and where, who organises it, and what it is.
struct GroupEventPage: PageRenderer {
    let inputs: RenderInputs
    let key: GroupEventKey

    struct Values: TemplateValues, Encodable {
        let event: Event
        /// `<script type="application/ld+json">`, made by plein.
        let jsonld: TrustedHTML
    }

    struct Event: Encodable {
        let title: String
        let group: String
        let groupURL: String
        let by: MemberChip?
        let unlisted: Bool
        /// Published sealed, for those with the group's passphrase.
        let membersOnly: Bool
        let starts: TimeValue
        let ends: TimeValue?
        let place: String?
        let position: PositionValue?
        let body: TrustedHTML?
        /// The group's calendar and this event alone ("add to your calendar"); nil for a
        /// members-only group, whose calendars are not published.
        let calendarURL: String?
        let webcalURL: String?
        let eventCalendarURL: String?
    }

    func page() -> Page {
        guard let g = view.group(key.group), let e = g.events.first(where: { $0.id == key.event }) else {
            return missingPage("event \(key.group)/\(key.event)", kind: .groupEvent, path: routes.groupEvent(key), section: .groups)
        }
        let entry = groupEvent(e, in: GroupEvents(g))
        let calendar = routes.calendar(.group(g.id))
        // A members-only group's calendars are not published.
        let open = !sealed(g.id)
        var page = Page(
            kind: .groupEvent, path: routes.groupEvent(key), title: e.title,
            description: summary(of: e.file, limit: 200, otherwise: eventWhen(starts: e.starts, ends: e.ends)), section: .groups)
        page.values = Values(event: Event(
            title: e.title, group: g.name, groupURL: routes.url(routes.group(g.id)), by: e.by.map(chip), unlisted: g.visibility == .unlisted,
            membersOnly: g.visibility == .members,
            starts: time(e.starts), ends: eventEnd(starts: e.starts, ends: e.ends), place: e.place, position: e.location.map { PositionValue($0, names: names) },
            body: view.body(e.file)?.html, calendarURL: open ? routes.url(calendar) : nil, webcalURL: open ? routes.webcal(calendar) : nil,
            eventCalendarURL: open ? routes.url(routes.calendar(.groupEvent(key))) : nil), jsonld: eventJSONLD(entry, organizer: e.by.flatMap { view.card($0)?.name }))
        page.noindex = !g.isListed
        page.feeds = groupFeeds(g) + calendarLinks(.group(g.id))
        page.source = e.file
        page.breadcrumbs = groupCrumbs(g)
        return page
    }
}
