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
        case .area(let aid): return strings.format("calendar_area", ["area": view.area(aid).map(names.area) ?? aid])
        case .group(let gid): return strings.format("calendar_group", ["group": view.group(gid)?.name ?? gid])
        case .member(let mid): return strings.format("calendar_member", ["name": view.member(mid)?.name ?? mid])
        case .report, .groupEvent: return events().first?.title ?? site.title
        }
    }

    func render() -> OutputFile {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//plein//plein \(PleinVersion.number)//\(site.language.rawValue.uppercased())",
            "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:" + ICalendar.text(name),
        ]
        for event in events() {
            lines.append("BEGIN:VEVENT")
            lines.append("UID:" + ICalendar.text(event.path.trimmingSlash + "@" + host))
            lines.append("DTSTAMP:" + ICalendar.utc(event.stamp))
            lines += times(starts: event.starts, ends: event.ends)
            lines.append("SUMMARY:" + ICalendar.text(event.title))
            let summary = summary(of: event.file, limit: 280)
            if !summary.isEmpty { lines.append("DESCRIPTION:" + ICalendar.text(summary)) }
            if let place = event.place { lines.append("LOCATION:" + ICalendar.text(place)) }
            if let location = event.location { lines.append("GEO:\(Geo.round6(location.lat));\(Geo.round6(location.lon))") }
            lines.append("URL;VALUE=URI:" + routes.absolute(event.path))
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return OutputFile(path: routes.calendar(id), text: lines.map(ICalendar.fold).joined())
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
    func times(starts: Moment, ends: Moment?) -> [String] {
        let clock = site.clock
        func day(_ moment: Moment, plus days: Int64 = 0) -> String {
            let civil = clock.civil(moment).dateOnly
            return ICalendar.date(CivilTime(secondsSinceEpoch: civil.secondsAsUTC + days * 86_400))
        }
        if starts.isDateOnly {
            return ["DTSTART;VALUE=DATE:" + day(starts), "DTEND;VALUE=DATE:" + day(ends ?? starts, plus: 1)]
        }
        var lines = ["DTSTART:" + ICalendar.utc(starts)]
        if let ends {
            if ends.isDateOnly {
                let next = CivilTime(secondsSinceEpoch: clock.civil(ends).dateOnly.secondsAsUTC + 86_400)
                lines.append("DTEND:" + ICalendar.utc(Moment(seconds: clock.instant(of: next))))
            } else {
                lines.append("DTEND:" + ICalendar.utc(ends))
            }
        }
        return lines
    }
}

/// The text rules of RFC 5545.
enum ICalendar {
    /// A TEXT value: backslash, semicolon, comma and line breaks escaped (section 3.3.11).
    static func text(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default:
                // Other control characters are not allowed in a value.
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A UTC DATE-TIME: `20260822T140000Z` (RFC 3339's form without its separators).
    static func utc(_ moment: Moment) -> String { moment.rfc3339UTC.filter { $0 != "-" && $0 != ":" } }

    /// A DATE: `20260822`.
    static func date(_ c: CivilTime) -> String { c.isoDate.filter { $0 != "-" } }

    /// One content line, folded so that no line is longer than 75 octets (a continuation line
    /// starts with a space), never inside a UTF-8 sequence, and ended with CRLF (section 3.1).
    static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 70 * 3 + 2)
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var end = start + limit
            // Back up to the start of a character: continuation bytes are 10xxxxxx.
            while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            out += bytes[start..<end]
            out += [13, 10, 32]
            start = end
            limit = 74
        }
        out += bytes[start...]
        out += [13, 10]
        return String(decoding: out, as: UTF8.self)
    }
}
