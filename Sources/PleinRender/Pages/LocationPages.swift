import Foundation
import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// How full a study place is, as of the content's latest check-in.
struct Occupancy: HandWrittenTemplate {
    struct Seats {
        let seats: String
        let percent: Int
        let free: String
    }

    let present: String
    let seats: Seats?

    var template: TemplateContext {
        var c: TemplateContext = ["present": .text(present)]
        if let seats {
            c["seats"] = .text(seats.seats)
            c["percent"] = .number(seats.percent)
            c["free"] = .text(seats.free)
        }
        return c
    }
}

/// Opening hours as rows (days and hours as written, `closed` translated) and as the script
/// reads them.
struct HoursValue {
    struct Row: TemplateValues, Encodable {
        let days: String
        let hours: String
    }

    let rows: [Row]
    /// Day index (0 = Monday) → [[start, end]] in minutes, as JSON.
    let data: String?
}

/// What the study-place pages share.
struct StudyPlaces: Rendering {
    let inputs: RenderInputs

    func occupancy(_ l: LocationModel) -> Occupancy {
        Occupancy(
            present: strings.count("present_count", l.present.count),
            seats: l.seats.flatMap { seats in
                seats > 0
                    ? .init(seats: strings.count("seat_count", seats), percent: min(100, l.present.count * 100 / seats),
                            free: strings.count("free_seat_count", max(0, seats - l.present.count)))
                    : nil
            })
    }

    func hours(_ hours: OpeningHours?) -> HoursValue {
        guard let hours else { return HoursValue(rows: [], data: nil) }
        let rows = hours.written.map { entry in
            let days = entry.days.lowercased().split(separator: "-").map { day -> String in
                OpeningHours.dayNames.firstIndex(of: String(day)).map { strings.weekday($0 + 1) } ?? String(day)
            }.joined(separator: " – ")
            let closed = entry.hours.lowercased() == "closed" || entry.hours.lowercased() == "gesloten"
            return HoursValue.Row(days: days, hours: closed ? strings["closed"] : entry.hours.replacingOccurrences(of: "-", with: " – "))
        }
        let days: [(String, JSON)] = hours.days.enumerated().compactMap { i, ranges in
            guard let ranges else { return nil }
            return (String(i), .array(ranges.map { .array([.int($0.start), .int($0.end)]) }))
        }
        return HoursValue(rows: rows, data: JSON.object(days).serialized())
    }
}

/// `/locations/`: study places with their occupancy as of the content's latest check-in.
struct LocationListPage: PageRenderer {
    let inputs: RenderInputs

    struct Row: HandWrittenTemplate {
        let name: String
        let url: String
        let address: String?
        let occupancy: Occupancy
        let studentID: Bool
        let hours: HoursValue

        var template: TemplateContext {
            [
                "name": .text(name), "url": .text(url), "address": .text(address), "occupancy": .of(occupancy),
                "student_id": .flag(studentID), "hours": .list(hours.rows), "hours_data": .text(hours.data),
            ]
        }
    }

    struct Values: TemplateValues, Encodable {
        let locations: [Row]
        let asOf: TimeValue?
        let map: MapBlock?
        let timezone: String
    }

    func page() -> Page {
        let places = StudyPlaces(inputs: inputs)
        let rows = view.locations.map { l in
            Row(name: l.name, url: routes.url(routes.location(l.id)), address: l.address, occupancy: places.occupancy(l),
                studentID: l.studentIDRequired, hours: places.hours(l.openingHours))
        }
        var page = Page(
            kind: .locations, path: routes.locations, title: strings["locations_title"],
            description: strings.format("locations_description", ["site": site.title]), section: .locations)
        let map = maps.block(
            id: "map-locations", title: strings["locations_title"], features: maps.features.features(.locations), geoJSON: routes.locationsMap)
        page.values = Values(locations: rows, asOf: time(view.asOf), map: map, timezone: site.clock.identifier)
        page.hasMap = map != nil
        page.feeds = [siteFeed]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}

/// `/locations/<id>/`: one study place in full, with schema.org data for search engines.
struct LocationPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Values: TemplateValues {
        let name: String
        let address: String?
        let occupancy: Occupancy
        let studentID: Bool
        let hours: HoursValue
        let present: [MemberChip]
        let asOf: TimeValue?
        let timezone: String
        let body: TrustedHTML?
        let map: MapBlock?
        let position: PositionValue?
        /// `<script type="application/ld+json">`, made by plein.
        let jsonLD: TrustedHTML

        var template: TemplateContext {
            var c: TemplateContext = [
                "name": .text(name), "address": .text(address), "occupancy": .of(occupancy), "student_id": .flag(studentID),
                "hours": .list(hours.rows), "present": .list(present), "as_of": .of(asOf), "hours_data": .text(hours.data),
                "timezone": .text(timezone),
            ]
            if let body, !body.isEmpty { c["body"] = .html(body) }
            c["map"] = .of(map)
            if let position { c["location"] = .of(position) }
            return ["location": .object(c), "jsonld": .html(jsonLD)]
        }
    }

    func page() -> Page {
        guard let l = view.location(id) else { return missingPage("study place \(id)", kind: .location, path: routes.location(id), section: .locations) }
        let places = StudyPlaces(inputs: inputs)
        let map = maps.features.locationFeature(l).flatMap {
            maps.block(id: "map-location", title: l.name, features: [$0], geoJSON: routes.locationsMap, highlight: $0.path)
        }
        var page = Page(
            kind: .location, path: routes.location(id), title: l.name, description: summary(of: l.file, limit: 200, otherwise: l.name),
            section: .locations)
        page.values = Values(
            name: l.name, address: l.address, occupancy: places.occupancy(l), studentID: l.studentIDRequired,
            hours: places.hours(l.openingHours), present: l.present.map(chip), asOf: time(view.asOf), timezone: site.clock.identifier,
            body: view.body(l.file)?.html, map: map, position: l.location.map { PositionValue($0, names: names) }, jsonLD: jsonLD(l))
        page.hasMap = map != nil
        page.feeds = [siteFeed]
        page.source = l.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_locations"], routes.locations)]
        return page
    }

    /// schema.org structured data: the place, its position and its opening hours.
    func jsonLD(_ l: LocationModel) -> TrustedHTML {
        var fields: [(String, JSON)] = [
            ("@context", .string("https://schema.org")), ("@type", .string("Place")), ("name", .string(l.name)),
            ("url", .string(routes.absolute(routes.location(l.id)))),
        ]
        if let address = l.address {
            fields.append(("address", .object([("@type", .string("PostalAddress")), ("streetAddress", .string(address))])))
        }
        if let c = l.location {
            fields.append(("geo", .object([
                ("@type", .string("GeoCoordinates")), ("latitude", .number(Geo.round6(c.lat))), ("longitude", .number(Geo.round6(c.lon))),
            ])))
        }
        if let seats = l.seats { fields.append(("maximumAttendeeCapacity", .int(seats))) }
        if let hours = l.openingHours { fields.append(("openingHoursSpecification", .array(specifications(hours)))) }
        return .jsonLD(.object(fields))
    }

    /// Days with the same hours share one specification.
    func specifications(_ hours: OpeningHours) -> [JSON] {
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
        func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        func clock(_ minutes: Int) -> String {
            let m = minutes >= 24 * 60 ? (minutes == 24 * 60 ? 23 * 60 + 59 : minutes - 24 * 60) : minutes
            return pad2(m / 60) + ":" + pad2(m % 60)
        }
        return groups.map { range, days in
            .object([
                ("@type", .string("OpeningHoursSpecification")), ("dayOfWeek", .array(days.map { .string("https://schema.org/" + $0) })),
                ("opens", .string(clock(range.start))), ("closes", .string(clock(range.end))),
            ])
        }
    }
}
