import PleinText
import PleinCore
public import PleinModel

/// Which events a calendar (or a list of events) holds.
public enum CalendarID: Hashable, Sendable {
    /// Every public event: event reports and the events of listed groups.
    case site
    /// The event reports of one area.
    case area(String)
    /// The events of one group (also an unlisted one, on its own pages).
    case group(String)
    /// The events a member posted or follows, and those of the listed groups they are in.
    case member(String)
    /// One event report: what "add to your calendar" on its page adds.
    case report(String)
    /// One event of a group.
    case groupEvent(GroupEventKey)

    /// Every calendar the model calls for: one per scope that has events.
    static func all(_ model: SiteModel) -> [CalendarID] {
        let reportEvents = model.site.has(.reports) ? model.reports.values.filter { $0.starts != nil } : []
        let groups = model.site.has(.groups) ? model.groupOrder.compactMap { model.groups[$0] }.filter { !$0.events.isEmpty } : []
        let listed = Set(groups.filter(\.isListed).map(\.id))
        guard !reportEvents.isEmpty || !groups.isEmpty else { return [] }
        var ids: [CalendarID] = reportEvents.isEmpty && listed.isEmpty ? [] : [.site]
        let areas = Set(reportEvents.map(\.area))
        ids += model.areas.map(\.id).filter(areas.contains).map { .area($0) }
        ids += groups.map { .group($0.id) }
        // Each event's own, for "add to your calendar" on its page.
        ids += reportEvents.map(\.id).sorted().map { .report($0) }
        ids += groups.flatMap { g in g.events.map { CalendarID.groupEvent($0.key) } }
        if model.site.has(.members) {
            let eventIDs = Set(reportEvents.map(\.id))
            for id in model.memberOrder {
                guard let member = model.members[id] else { continue }
                if (member.reports + member.follows).contains(where: eventIDs.contains) || member.groups.contains(where: listed.contains) {
                    ids.append(.member(id))
                }
            }
        }
        return ids
    }
}

/// An iCalendar file (RFC 5545) of events: one `VEVENT` per event report, with a `UID` that
/// never changes, a `DTSTAMP` from the content (so that building unchanged content again gives
/// the same bytes), times in UTC (a date alone is an all-day event), CRLF line endings and lines
/// folded at 75 octets.
struct CalendarFile: Rendering {
    let inputs: RenderInputs
    let id: CalendarID

    /// The calendar's events, by start.
    func events() -> [EventEntry] { events(id) }

    var name: String {
        switch id {
        case .site: return strings.format("calendar_site", ["site": site.title])
        case .area(let aid): return strings.format("calendar_area", ["area": names.area(id: aid)])
        case .group(let gid): return strings.format("calendar_group", ["group": view.groupCard(gid)?.name ?? gid])
        case .member(let mid): return strings.format("calendar_member", ["name": view.card(mid)?.name ?? mid])
        case .report, .groupEvent: return events().first?.title ?? site.title
        }
    }

    func render() -> OutputFile {
        var ics = ICalendarWriter()
        ics.value("BEGIN", "VCALENDAR")
        ics.value("VERSION", "2.0")
        ics.value("PRODID", "-//plein//plein \(PleinVersion.number)//\(site.language.rawValue.uppercased())")
        ics.value("CALSCALE", "GREGORIAN")
        ics.value("METHOD", "PUBLISH")
        ics.text("X-WR-CALNAME", name)
        for event in events() {
            ics.value("BEGIN", "VEVENT")
            ics.text("UID", event.path.trimmingSlash + "@" + host)
            ics.value("DTSTAMP", ICalendar.utc(event.stamp))
            times(starts: event.starts, ends: event.ends, into: &ics)
            ics.text("SUMMARY", event.title)
            let summary = summary(of: event.file, limit: 280)
            if !summary.isEmpty { ics.text("DESCRIPTION", summary) }
            if let place = event.place { ics.text("LOCATION", place) }
            if let location = event.location { ics.value("GEO", "\(Geo.round6(location.lat));\(Geo.round6(location.lon))") }
            ics.value("URL;VALUE=URI", routes.absolute(event.path))
            ics.value("END", "VEVENT")
        }
        ics.value("END", "VCALENDAR")
        return OutputFile(path: routes.calendar(id), text: ics.text)
    }

    /// The site's host name, for `UID`s that are unique beyond the site.
    var host: String {
        let base = routes.baseURL
        let afterScheme = base.firstRange(of: "://").map { base[$0.upperBound...] } ?? base[...]
        return String(afterScheme.prefix { $0 != "/" && $0 != ":" })
    }

    /// `DTSTART` and `DTEND`: dates for an all-day event (the end is the day after the last, as
    /// RFC 5545 counts), else UTC times. An end given as a date alone after a timed start ends
    /// at midnight after that day, in the site's time zone.
    func times(starts: Moment, ends: Moment?, into ics: inout ICalendarWriter) {
        let clock = site.clock
        func day(_ moment: Moment, plus days: Int64 = 0) -> String {
            let civil = clock.civil(moment).dateOnly
            return ICalendar.date(CivilTime(secondsSinceEpoch: civil.secondsAsUTC + days * 86_400))
        }
        if starts.isDateOnly {
            ics.value("DTSTART;VALUE=DATE", day(starts))
            ics.value("DTEND;VALUE=DATE", day(ends ?? starts, plus: 1))
            return
        }
        ics.value("DTSTART", ICalendar.utc(starts))
        if let ends {
            if ends.isDateOnly {
                let next = CivilTime(secondsSinceEpoch: clock.civil(ends).dateOnly.secondsAsUTC + 86_400)
                ics.value("DTEND", ICalendar.utc(Moment(seconds: clock.instant(of: next))))
            } else {
                ics.value("DTEND", ICalendar.utc(ends))
            }
        }
    }
}

/// iCalendar's forms of dates and times (RFC 5545); `ICalendarWriter` writes the lines.
enum ICalendar {
    /// A UTC DATE-TIME: `20260822T140000Z` (RFC 3339's form without its separators).
    static func utc(_ moment: Moment) -> String { moment.rfc3339UTC.filter { $0 != "-" && $0 != ":" } }

    /// A DATE: `20260822`.
    static func date(_ c: CivilTime) -> String { c.isoDate.filter { $0 != "-" } }
}
