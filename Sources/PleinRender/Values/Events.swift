import PleinText
import PleinCore
import PleinModel
import PleinMustache

/// One event of the site, from an event report or from a group, as lists, pages, feeds and
/// calendars show it.
struct EventEntry {
    let title: String
    let starts: Moment
    let ends: Moment?
    let place: String?
    let location: Coordinate?
    /// The file whose body describes it.
    let file: String
    /// Its page.
    let path: String
    /// When it was last changed, else posted: the calendar's `DTSTAMP`.
    let stamp: Moment
    /// The area or group it belongs to: name and page.
    let context: (name: String, path: String)
}

extension Rendering {
    /// The events of `scope`, by start (then by page, for events that start together).
    func events(_ scope: CalendarID) -> [EventEntry] {
        var reports: [String] = []
        var groups: [String] = []
        switch scope {
        case .site:
            if site.has(.reports) { reports = eventReports() }
            if site.has(.groups) { groups = view.groupOrder.filter { view.groupEvents($0)?.isListed == true } }
        case .area(let aid):
            reports = areaEventReports(aid)
        case .group(let gid):
            groups = [gid]
        case .member(let mid):
            guard let m = view.member(mid) else { return [] }
            reports = Array(Set(m.reports + m.follows))
            if site.has(.groups) { groups = m.groups.filter { view.groupEvents($0)?.isListed == true } }
        case .report(let rid):
            return reportEvent(rid).map { [$0] } ?? []
        case .groupEvent(let key):
            guard let g = view.groupEvents(key.group), let e = g.events.first(where: { $0.id == key.event }) else { return [] }
            return [groupEvent(e, in: g)]
        }
        // (Chosen by their times, which neither a reply nor a title changes; for the site's, the
        // event reports kept from the last build.)
        var found: [EventEntry]
        switch scope {
        case .site, .area: found = reports.compactMap(reportEvent)
        default: found = reports.filter { view.reportTimes($0)?.starts != nil }.compactMap(reportEvent)
        }
        for gid in groups {
            guard let g = view.groupEvents(gid) else { continue }
            found += g.events.map { groupEvent($0, in: g) }
        }
        return found.sorted { $0.starts != $1.starts ? $0.starts < $1.starts : $0.path < $1.path }
    }

    func reportEvent(_ id: String) -> EventEntry? {
        guard let r = view.headline(id), let starts = r.starts else { return nil }
        return EventEntry(
            title: r.title, starts: starts, ends: r.ends, place: r.place, location: r.location, file: r.file,
            path: routes.report(id), stamp: r.changed ?? r.at, context: (names.area(id: r.area), routes.area(r.area)))
    }

    func groupEvent(_ e: GroupEventModel, in g: GroupEvents) -> EventEntry {
        EventEntry(
            title: e.title, starts: e.starts, ends: e.ends, place: e.place, location: e.location, file: e.file,
            path: routes.groupEvent(e.key), stamp: e.revision?.changed ?? e.revision?.created ?? e.starts, context: (g.name, routes.group(g.id)))
    }

    /// Upcoming events by start, and past ones newest first. An event is upcoming until the end
    /// of the day it ends, counted from the day of the build; without one, every event is.
    func upcomingAndPast(_ events: [EventEntry]) -> (upcoming: [EventEntry], past: [EventEntry]) {
        guard let today = view.today else { return (events, []) }
        var upcoming: [EventEntry] = [], past: [EventEntry] = []
        for e in events {
            if site.clock.civil(e.ends ?? e.starts).isoDate >= today { upcoming.append(e) } else { past.append(e) }
        }
        return (upcoming, past.reversed())
    }

    /// When an event is, as one line of text: "za 22 aug 2026 14:00 – 20:00".
    func eventWhen(starts: Moment, ends: Moment?) -> String {
        time(starts).text + (eventEnd(starts: starts, ends: ends).map { " – " + $0.text } ?? "")
    }

    /// An event's end as shown after its start: only the time when it ends on the day it starts.
    func eventEnd(starts: Moment, ends: Moment?) -> TimeValue? {
        guard let ends else { return nil }
        let end = time(ends)
        let (a, b) = (site.clock.civil(starts), site.clock.civil(ends))
        guard !starts.isDateOnly, !ends.isDateOnly, a.dateOnly == b.dateOnly else { return end }
        return TimeValue(iso: end.iso, text: b.hourMinute, dateOnly: false)
    }

    /// A list row of an event.
    func eventItem(_ e: EventEntry, showContext: Bool = true) -> EventItem {
        EventItem(
            title: e.title, url: routes.url(e.path), starts: time(e.starts), ends: eventEnd(starts: e.starts, ends: e.ends),
            place: e.place, context: showContext ? e.context.name : nil, contextURL: showContext ? routes.url(e.context.path) : nil)
    }

    /// schema.org `Event` as JSON-LD, for an event's page.
    func eventJSONLD(_ e: EventEntry, organizer: String?) -> TrustedHTML {
        func date(_ m: Moment) -> String { m.isDateOnly ? site.clock.civil(m).isoDate : site.clock.rfc3339(m) }
        var fields: [(String, JSON)] = [
            ("@context", .string("https://schema.org")), ("@type", .string("Event")), ("name", .string(e.title)),
            ("startDate", .string(date(e.starts))), ("url", .string(routes.absolute(e.path))),
            ("eventStatus", .string("https://schema.org/EventScheduled")),
        ]
        if let ends = e.ends { fields.append(("endDate", .string(date(ends)))) }
        let description = summary(of: e.file, limit: 280)
        if !description.isEmpty { fields.append(("description", .string(description))) }
        if e.place != nil || e.location != nil {
            var place: [(String, JSON)] = [("@type", .string("Place"))]
            place.append(("name", .string(e.place ?? e.context.name)))
            if let c = e.location {
                place.append(("geo", .object([
                    ("@type", .string("GeoCoordinates")), ("latitude", .number(Geo.round6(c.lat))), ("longitude", .number(Geo.round6(c.lon))),
                ])))
            }
            fields.append(("location", .object(place)))
        }
        if let organizer { fields.append(("organizer", .object([("@type", .string("Person")), ("name", .string(organizer))]))) }
        return .jsonLD(.object(fields))
    }

    /// The events of a page: its upcoming ones (the first `limit`) and, with `past`, the past
    /// ones, with its calendar and, with `allURL`, a link to every event. Nil without events.
    func eventsBlock(_ scope: CalendarID, limit: Int = .max, past: Bool, showContext: Bool = true, allURL: String? = nil) -> EventsBlock? {
        let all = events(scope)
        guard !all.isEmpty else { return nil }
        let split = upcomingAndPast(all)
        let calendar = routes.calendar(scope)
        // A members-only group's calendar is not published.
        var published = true
        if case .group(let group) = scope { published = !sealed(group) }
        return EventsBlock(
            upcoming: split.upcoming.prefix(limit).map { eventItem($0, showContext: showContext) },
            past: past ? split.past.map { eventItem($0, showContext: showContext) } : [],
            calendarURL: published ? routes.url(calendar) : nil, webcalURL: published ? routes.webcal(calendar) : nil, allURL: allURL)
    }

    /// The links to the calendar of `scope`, when it has events.
    func calendarLinks(_ scope: CalendarID) -> [Page.Feed] {
        if case .group(let group) = scope, sealed(group) { return [] }
        let calendar = CalendarFile(inputs: inputs, id: scope)
        return hasEvents(scope) ? [.calendar(calendar.name, routes.calendar(scope))] : []
    }

    /// Whether `scope` has an event: its calendar (and, for the site, its events page) exists.
    /// For the site, without every event made and sorted.
    func hasEvents(_ scope: CalendarID) -> Bool {
        if case .area(let id) = scope { return !areaEventReports(id).isEmpty }
        guard case .site = scope else { return !events(scope).isEmpty }
        if site.has(.groups), view.groupOrder.contains(where: { view.groupEvents($0).map { $0.isListed && !$0.events.isEmpty } == true }) {
            return true
        }
        return site.has(.reports) && !eventReports().isEmpty
    }

    /// The ids of an area's reports that are events, in the area's order: kept while what the
    /// area lists and its reports' times are the same (`ModelView.fragment`), so that an area's
    /// page rendered again for a card (a member's new name, a reply) does not look at the times
    /// of its thousands of reports, twice (its events, and whether it has a calendar).
    func areaEventReports(_ id: String) -> [String] {
        let kept = view.fragment("events:area:" + id) {
            var bytes: [UInt8] = []
            for report in view.area(id)?.reports ?? [] where view.reportTimes(report)?.starts != nil {
                bytes += report.utf8
                bytes.append(0)
            }
            return bytes
        }
        return kept.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The ids of the reports that are events (with a start, `ReportTimes`), in order: kept
    /// from build to build (`ModelView.updated`), so that an edit looks again only at the
    /// reports whose times it changed (or added, or took out), not at every report's.
    func eventReports() -> [String] {
        view.readingEvery {
            view.updated("events:reports", every: [.everyReportTimes, .reportOrder], update: { kept, changed -> [String]? in
                let prefix = Dependency.reportTimes("").key
                let touched = Set(changed.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
                var ids = Set(kept.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
                ids.subtract(touched)
                ids.formUnion(touched.filter { view.reportTimes($0)?.starts != nil })
                return ids.sorted()
            }, make: {
                view.reportOrder.filter { view.reportTimes($0)?.starts != nil }.sorted()
            }, bytes: { ids in ids.flatMap { Array($0.utf8) + [0] } })
        }
    }
}

/// An event in a list: its title and page, when and where, and the area or group it belongs to.
struct EventItem: TemplateValues, Encodable {
    let title: String
    let url: String
    let starts: TimeValue
    let ends: TimeValue?
    let place: String?
    let context: String?
    let contextURL: String?
}

/// Upcoming and past events of a page, with the calendar to subscribe to.
struct EventsBlock: TemplateValues, Encodable {
    let upcoming: [EventItem]
    let past: [EventItem]
    let hasUpcoming: Bool
    let hasPast: Bool
    let calendarURL: String?
    let webcalURL: String?
    /// The page with every event, when this block shows only some.
    let allURL: String?

    init(upcoming: [EventItem], past: [EventItem], calendarURL: String?, webcalURL: String?, allURL: String?) {
        self.upcoming = upcoming
        self.past = past
        hasUpcoming = !upcoming.isEmpty
        hasPast = !past.isEmpty
        self.calendarURL = calendarURL
        self.webcalURL = webcalURL
        self.allURL = allURL
    }
}
