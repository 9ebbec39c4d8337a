import PleinText
import PleinModel
import PleinMarkdown
import Foundation
import PleinCore
import PleinMustache

extension Renderer {
    /// Opening hours as rows: days as written, hours as written (`closed` translated).
    func hoursContext(_ hours: OpeningHours?) -> [TemplateContext] {
        guard let hours else { return [] }
        return hours.written.map { entry in
            let days = entry.days.lowercased().split(separator: "-").map { day -> String in
                OpeningHours.dayNames.firstIndex(of: String(day)).map { strings.weekday($0 + 1) } ?? String(day)
            }.joined(separator: " – ")
            let closed = entry.hours.lowercased() == "closed" || entry.hours.lowercased() == "gesloten"
            return ["days": .text(days), "hours": .text(closed ? strings["closed"] : entry.hours.replacingOccurrences(of: "-", with: " – "))]
        }
    }

    /// Opening hours as the script reads them: day index (0 = Monday) → [[start, end]] in minutes.
    func hoursData(_ hours: OpeningHours?) -> String? {
        guard let hours else { return nil }
        let days: [(String, JSON)] = hours.days.enumerated().compactMap { i, ranges in
            guard let ranges else { return nil }
            return (String(i), .array(ranges.map { .array([.int($0.start), .int($0.end)]) }))
        }
        return JSON.object(days).serialized()
    }

    /// schema.org structured data: the place, its position and its opening hours.
    func locationJSONLD(_ l: LocationModel) -> String {
        var fields: [(String, JSON)] = [
            ("@context", .string("https://schema.org")), ("@type", .string("Place")), ("name", .string(l.name)),
            ("url", .string(routes.absolute(routes.location(l.id)))),
        ]
        if let address = l.address {
            fields.append(("address", .object([("@type", .string("PostalAddress")), ("streetAddress", .string(address))])))
        }
        if let c = l.location {
            fields.append(("geo", .object([("@type", .string("GeoCoordinates")), ("latitude", .number(round6(c.lat))), ("longitude", .number(round6(c.lon)))])))
        }
        if let seats = l.seats { fields.append(("maximumAttendeeCapacity", .int(seats))) }
        if let hours = l.openingHours {
            // Days with the same hours share one specification.
            let names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
            var groups: [(OpeningHours.Range, [String])] = []
            for (i, ranges) in hours.days.enumerated() {
                for range in ranges ?? [] {
                    if let index = groups.firstIndex(where: { $0.0 == range }) {
                        groups[index].1.append(names[i])
                    } else {
                        groups.append((range, [names[i]]))
                    }
                }
            }
            func clock(_ minutes: Int) -> String {
                let m = minutes >= 24 * 60 ? (minutes == 24 * 60 ? 23 * 60 + 59 : minutes - 24 * 60) : minutes
                return pad2(m / 60) + ":" + pad2(m % 60)
            }
            fields.append(("openingHoursSpecification", .array(groups.map { range, days in
                .object([
                    ("@type", .string("OpeningHoursSpecification")),
                    ("dayOfWeek", .array(days.map { .string("https://schema.org/" + $0) })),
                    ("opens", .string(clock(range.start))), ("closes", .string(clock(range.end))),
                ])
            })))
        }
        return "<script type=\"application/ld+json\">" + JSON.object(fields).serialized() + "</script>"
    }

    func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    func occupancy(_ l: LocationModel) -> TemplateContext {
        var c: TemplateContext = ["present": .text(strings.count("present_count", l.present.count))]
        if let seats = l.seats, seats > 0 {
            let percent = min(100, l.present.count * 100 / seats)
            c["seats"] = .text(strings.count("seat_count", seats))
            c["percent"] = .number(percent)
            c["free"] = .text(strings.count("free_seat_count", max(0, seats - l.present.count)))
        }
        return c
    }

    /// `/locations/`: study places with their occupancy as of the content's latest check-in.
    func locationList() -> Page {
        let locations = locationModels.map { l -> TemplateContext in
            [
                "name": .text(l.name),
                "url": .text(routes.url(routes.location(l.id))),
                "address": .text(l.address),
                "occupancy": .object(occupancy(l)),
                "student_id": .flag(l.studentIDRequired),
                "hours": .list(hoursContext(l.openingHours)),
                "hours_data": .text(hoursData(l.openingHours)),
            ]
        }
        var page = Page(
            template: "locations", path: routes.locations, title: strings["locations_title"],
            description: strings.format("locations_description", ["site": site.title]), section: .locations)
        let map = mapContext(id: "map-locations", title: strings["locations_title"], features: features(.locations), geoJSON: routes.locationsMap)
        page.context = [
            "locations": .list(locations),
            "as_of": time(asOf),
            "map": map.map { .object($0) },
            "timezone": .text(site.clock.identifier),
        ]
        page.hasMap = map != nil
        page.feeds = [siteFeedLink]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    /// `/locations/<id>/`: one study place in full.
    func locationPage(_ id: String) -> Page {
        let l = locationModel(id)!
        var c: TemplateContext = [
            "name": .text(l.name),
            "address": .text(l.address),
            "occupancy": .object(occupancy(l)),
            "student_id": .flag(l.studentIDRequired),
            "hours": .list(hoursContext(l.openingHours)),
            "present": .list(l.present.map { memberLink($0) }),
            "as_of": time(asOf),
            "hours_data": .text(hoursData(l.openingHours)),
            "timezone": .text(site.clock.identifier),
        ]
        if let html = bodyOf(l.file)?.html, !html.isEmpty { c["body"] = .html(html) }
        let map = locationFeature(l).flatMap { mapContext(id: "map-location", title: l.name, features: [$0], geoJSON: routes.locationsMap, highlight: $0.path) }
        c["map"] = map.map { .object($0) }
        if let location = l.location {
            c["location"] = .object([
                "lat": .text(coordinateText(location.lat)), "lon": .text(coordinateText(location.lon)),
                "osm": .text("https://www.openstreetmap.org/?mlat=\(coordinateText(location.lat))&mlon=\(coordinateText(location.lon))#map=17/\(coordinateText(location.lat))/\(coordinateText(location.lon))"),
            ])
        }
        var page = Page(
            template: "location", path: routes.location(id), title: l.name,
            description: summary(bodyOf(l.file)?.text ?? l.name, limit: 200), section: .locations,
            context: ["location": .object(c), "jsonld": .html(locationJSONLD(l))])
        page.hasMap = map != nil
        page.feeds = [siteFeedLink]
        page.source = l.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_locations"], routes.locations)]
        return page
    }

    /// `/users/<id>/progress/`: a member's check-ins and study time.
    func progressPage(_ member: String) -> Page {
        let m = memberModel(member)!
        let sessions = self.sessions(of: member).sorted { $0.start > $1.start }
        let rows = sessions.map { s -> TemplateContext in
            let location = locationModel(s.location)
            var c: TemplateContext = [
                "date": .object(time(Moment(seconds: s.start.seconds))),
                "location": .text(location?.name ?? s.location),
                "location_url": .text(routes.url(routes.location(s.location))),
                "start": .text(site.clock.civil(s.start).hourMinute),
            ]
            if let end = s.end {
                c["end"] = .text(site.clock.civil(end).hourMinute)
                c["duration"] = .text(strings.duration(seconds: end.seconds - s.start.seconds))
            } else {
                c["open"] = .flag(true)
            }
            return c
        }
        let study = StudyTime(sessions: sessions, clock: site.clock)
        let weeks = study.everyWeek
        var page = Page(
            template: "progress", path: routes.progress(member), title: strings.format("progress_title", ["name": m.name]),
            description: strings.format("progress_description", ["name": m.name]), section: .members)
        page.context = [
            "member": .object(memberLink(member)),
            "sessions": .list(rows),
            "total": .text(strings.duration(seconds: study.total)),
            "count": .text(strings.count("session_count", study.finished)),
            "weeks": .list(weeks.reversed().map { week in
                [
                    "label": .text(strings.format("week_label", ["week": String(week.week), "year": String(week.year)])),
                    "monday": .object(time(Moment(seconds: site.clock.instant(of: week.monday), isDateOnly: true))),
                    "hours": .text(strings.duration(seconds: week.seconds)),
                ]
            }),
            "days": .list(study.days.reversed().map { day in
                [
                    "date": .object(time(Moment(seconds: site.clock.instant(of: day.date), isDateOnly: true))),
                    "weekday": .text(strings.weekday(day.date.weekday)),
                    "hours": .text(strings.duration(seconds: day.seconds)),
                ]
            }),
        ]
        if !weeks.isEmpty {
            let busiest = weeks.max { ($0.seconds, $1.week) < ($1.seconds, $0.week) }!
            let bars = weeks.map { week in
                Charts.Bar(
                    label: strings.format("week_short", ["week": String(week.week)]), value: Double(week.seconds) / 3600,
                    detail: strings.format("week_label", ["week": String(week.week), "year": String(week.year)]) + ": "
                        + strings.duration(seconds: week.seconds))
            }
            page.context["chart"] = .html(Charts.bars(
                id: "weeks-chart", title: strings.format("chart_weeks_title", ["name": m.name]),
                description: strings.format("chart_weeks_description", [
                    "n": strings.number(weeks.count), "total": strings.duration(seconds: study.total),
                    "week": String(busiest.week), "hours": strings.duration(seconds: busiest.seconds),
                ]),
                unit: strings["hours_unit"], bars: bars, strings: strings))
        }
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_members"], routes.members), (m.name, routes.member(member))]
        return page
    }

    /// `/now/`: who is checked in where, as of the latest check-in in the content.
    func nowPage() -> Page {
        let places = locationModels.filter { !$0.present.isEmpty }.map { l -> TemplateContext in
            [
                "name": .text(l.name),
                "url": .text(routes.url(routes.location(l.id))),
                "occupancy": .object(occupancy(l)),
                "people": .list(l.present.map { id -> TemplateContext in
                    var c = memberLink(id)
                    if let since = sessions(of: id).last(where: { $0.end == nil })?.start {
                        c["since"] = .object(time(since))
                    }
                    return c
                }),
            ]
        }
        var page = Page(
            template: "now", path: routes.now, title: strings["now_title"],
            description: strings.format("now_description", ["site": site.title]), section: .now)
        page.context = [
            "places": .list(places),
            "as_of": time(asOf),
            "count": .text(strings.count("present_count", locationModels.reduce(0) { $0 + $1.present.count })),
        ]
        page.feeds = [siteFeedLink]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    /// `/divers/`: a search by distance from a place (done by a script from `index.json`), and
    /// without JavaScript every diver, grouped by the place they live near.
    func diversPage() -> Page {
        let divers = memberOrder.filter { memberModel($0)?.diving != nil }
        var byPlace: [String: [String]] = [:]
        for id in divers { byPlace[memberModel(id)!.nearPlace ?? "", default: []].append(id) }
        let groups = byPlace.keys.sorted { a, b in a.isEmpty != b.isEmpty ? !a.isEmpty : a < b }.map { place -> TemplateContext in
            [
                "place": .text(place.isEmpty ? strings["divers_elsewhere"] : place),
                "divers": .list(byPlace[place]!.map(diverCard)),
            ]
        }
        var page = Page(
            template: "divers", path: routes.divers, title: strings["divers_title"],
            description: strings.format("divers_description", ["site": site.title]), section: .divers)
        page.context = [
            "groups": .list(groups),
            "count": .text(strings.count("diver_count", divers.count)),
            "places": .list(places.map { ["name": .text($0.name)] }),
            "data_url": .text(routes.url(routes.diversIndex)),
            "page_url": .text(routes.url(routes.divers)),
            "radius_min": .number(5), "radius_max": .number(100), "radius_default": .number(25),
        ]
        page.feeds = [siteFeedLink]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    func diverCard(_ id: String) -> TemplateContext {
        let m = memberModel(id)!
        var c = memberLink(id)
        c["certification"] = .text(m.diving?.certification)
        c["dives"] = .text(m.diving?.dives.map { strings.number($0) })
        c["years"] = .text(m.diving?.years.map { strings.count("years_count", $0) })
        c["near"] = .text(m.nearPlace)
        return c
    }

    /// `/divers/index.json`: what the search needs. Homes are the coarsened points of the model,
    /// so the page can never reveal more than the privacy grid.
    func diversIndex() -> String {
        let divers: [JSON] = memberOrder.compactMap { id in
            guard let m = memberModel(id), let d = m.diving, let home = m.home else { return nil }
            var fields: [(String, JSON)] = [
                ("id", .string(id)), ("name", .string(m.name)), ("url", .string(routes.url(routes.member(id)))),
                ("lat", .number(round6(home.lat))), ("lon", .number(round6(home.lon))),
            ]
            if let avatar = m.avatar, let image = imageOf(avatar) { fields.append(("avatar", .string(routes.url((image.variants.first ?? image.display).path)))) }
            if let c = d.certification { fields.append(("certification", .string(c))) }
            if let n = d.dives { fields.append(("dives", .int(n))) }
            if let y = d.years { fields.append(("years", .int(y))) }
            if let near = m.nearPlace { fields.append(("near", .string(near))) }
            return .object(fields)
        }
        let places: [JSON] = places.map {
            .object([("name", .string($0.name)), ("lat", .number(round6($0.coordinate.lat))), ("lon", .number(round6($0.coordinate.lon)))])
        }
        return JSON.object([
            ("precision_km", .number(site.locationPrecisionKm)),
            ("places", .array(places)),
            ("divers", .array(divers)),
        ]).serialized(pretty: true) + "\n"
    }
}
