import PleinText
import PleinCore
import PleinModel
import PleinMustache

/// `/users/<id>/progress/`: a member's check-ins and study time.
struct ProgressPage: PageRenderer {
    let inputs: RenderInputs
    let member: String

    struct Row: HandWrittenTemplate {
        let date: TimeValue
        let location: String
        let locationURL: String
        let start: String
        /// The end and the duration; nil while the member is still checked in.
        let end: (time: String, duration: String)?

        var template: TemplateContext {
            var c: TemplateContext = ["date": .of(date), "location": .text(location), "location_url": .text(locationURL), "start": .text(start)]
            if let end {
                c["end"] = .text(end.time)
                c["duration"] = .text(end.duration)
            } else {
                c["open"] = .flag(true)
            }
            return c
        }
    }

    struct Week: TemplateValues, Encodable {
        let label: String
        let monday: TimeValue
        let hours: String
    }

    struct Day: TemplateValues, Encodable {
        let date: TimeValue
        let weekday: String
        let hours: String
    }

    struct Values: TemplateValues, Encodable {
        let member: MemberChip
        let sessions: [Row]
        let total: String
        let count: String
        let weeks: [Week]
        let days: [Day]
        /// Hours per week, an SVG drawing.
        let chart: TrustedHTML?
    }

    func page() -> Page {
        guard let m = view.member(member) else { return missingPage("member \(member)", kind: .progress, path: routes.progress(member), section: .members) }
        let sessions = view.sessions(of: member).sorted { $0.start > $1.start }
        let rows = sessions.map { s in
            Row(
                date: time(Moment(seconds: s.start.seconds)), location: view.locationName(s.location) ?? s.location,
                locationURL: routes.url(routes.location(s.location)), start: site.clock.civil(s.start).hourMinute,
                end: s.end.map { (site.clock.civil($0).hourMinute, strings.duration(seconds: $0.seconds - s.start.seconds)) })
        }
        let study = StudyTime(sessions: sessions, clock: site.clock)
        var page = Page(
            kind: .progress, path: routes.progress(member), title: strings.format("progress_title", ["name": m.name]),
            description: strings.format("progress_description", ["name": m.name]), section: .members)
        page.values = Values(
            member: chip(member), sessions: rows, total: strings.duration(seconds: study.total),
            count: strings.count("session_count", study.finished),
            weeks: study.everyWeek.reversed().map { week in
                Week(label: weekLabel(week), monday: time(Moment(seconds: site.clock.instant(of: week.monday), isDateOnly: true)),
                     hours: strings.duration(seconds: week.seconds))
            },
            days: study.days.reversed().map { day in
                Day(date: time(Moment(seconds: site.clock.instant(of: day.date), isDateOnly: true)), weekday: strings.weekday(day.date.weekday),
                    hours: strings.duration(seconds: day.seconds))
            },
            chart: chart(m, study))
        page.feeds = [.atom(strings.format("feed_member", ["name": m.name]), routes.memberFeed(member), jsonTwin: FeedID.member(member).hasJSONTwin)]
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_members"], routes.members), (m.name, routes.member(member))]
        return page
    }

    func weekLabel(_ week: StudyTime.Week) -> String {
        strings.format("week_label", ["week": String(week.week), "year": String(week.year)])
    }

    /// Hours per week as bars; nil without a finished check-in.
    func chart(_ m: MemberModel, _ study: StudyTime) -> TrustedHTML? {
        let weeks = study.everyWeek
        guard let busiest = weeks.max(by: { ($0.seconds, $1.week) < ($1.seconds, $0.week) }) else { return nil }
        let bars = weeks.map { week in
            Charts.Bar(
                label: strings.format("week_short", ["week": String(week.week)]), value: Double(week.seconds) / 3600,
                detail: weekLabel(week) + ": " + strings.duration(seconds: week.seconds))
        }
        return Charts.bars(
            id: "weeks-chart", title: strings.format("chart_weeks_title", ["name": m.name]),
            description: strings.format("chart_weeks_description", [
                "n": strings.number(weeks.count), "total": strings.duration(seconds: study.total),
                "week": String(busiest.week), "hours": strings.duration(seconds: busiest.seconds),
            ]),
            unit: strings["hours_unit"], bars: bars, strings: strings)
    }
}
