import PleinText
import PleinCore
import PleinModel
import PleinMustache

/// `/divers/`: a search by distance from a place (done by a script from `index.json`), and
/// without JavaScript every diver, grouped by the place they live near.
struct DiversPage: PageRenderer {
    let inputs: RenderInputs

    struct Diver: HandWrittenTemplate {
        let chip: MemberChip
        let certification: String?
        let dives: String?
        let years: String?
        let near: String?

        var template: TemplateContext {
            var c = chip.template
            c["certification"] = .text(certification)
            c["dives"] = .text(dives)
            c["years"] = .text(years)
            c["near"] = .text(near)
            return c
        }
    }

    struct Place: TemplateValues, Encodable {
        let place: String
        let divers: [Diver]
    }

    struct Values: TemplateValues {
        let groups: [Place]
        let count: String
        let places: [String]
        let nearPlaceholder: String
        let dataURL: String
        let pageURL: String

        var template: TemplateContext {
            [
                "groups": .list(groups), "count": .text(count), "places": .list(places.map { ["name": .text($0)] }),
                "near_placeholder": .text(nearPlaceholder), "data_url": .text(dataURL), "page_url": .text(pageURL),
                "radius_min": .number(5), "radius_max": .number(100), "radius_default": .number(25),
            ]
        }
    }

    func page() -> Page {
        let divers = view.memberOrder.filter { view.card($0)?.diving != nil }
        var byPlace: [String: [String]] = [:]
        for id in divers { byPlace[view.card(id)?.nearPlace ?? "", default: []].append(id) }
        let groups = byPlace.keys.sorted { a, b in a.isEmpty != b.isEmpty ? !a.isEmpty : a < b }.map { place in
            Place(place: place.isEmpty ? strings["divers_elsewhere"] : place, divers: byPlace[place]!.compactMap(diver))
        }
        var page = Page(
            kind: .divers, path: routes.divers, title: strings["divers_title"],
            description: strings.format("divers_description", ["site": site.title]), section: .divers)
        page.values = Values(
            groups: groups, count: strings.count("diver_count", divers.count), places: view.places.map(\.name),
            nearPlaceholder: nearPlaceholder, dataURL: routes.url(routes.diversIndex), pageURL: routes.url(routes.divers))
        page.feeds = [siteFeed]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    /// The search field's example: the site's first named place and its position, so that it
    /// reads as the club's own ("for example Lee-on-Solent, or 50.80,-1.20").
    var nearPlaceholder: String {
        guard let place = view.places.first else { return strings["divers_near_any"] }
        func hundredths(_ degrees: Double) -> String {
            let n = Int((degrees * 100).rounded())
            return "\(n < 0 ? "-" : "")\(abs(n) / 100).\(abs(n) % 100 < 10 ? "0" : "")\(abs(n) % 100)"
        }
        let coordinates = hundredths(place.coordinate.lat) + "," + hundredths(place.coordinate.lon)
        return strings.format("divers_near_example", ["place": place.name, "coordinates": coordinates])
    }

    func diver(_ id: String) -> Diver? {
        guard let m = view.card(id) else { return view.miss("member \(id)", nil) }
        return Diver(
            chip: chip(id), certification: m.diving?.certification, dives: m.diving?.dives.map { strings.number($0) },
            years: m.diving?.years.map { strings.count("years_count", $0) }, near: m.nearPlace)
    }
}

/// `/divers/index.json`: what the search needs. Homes are the coarsened points of the model, so
/// the page can never reveal more than the privacy grid.
struct DiversIndex: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        let divers: [JSON] = view.memberOrder.compactMap { id in
            guard let m = view.card(id), let d = m.diving, let home = m.home else { return nil }
            var fields: [(String, JSON)] = [
                ("id", .string(id)), ("name", .string(m.name)), ("url", .string(routes.url(routes.member(id)))),
                ("lat", .number(Geo.round6(home.lat))), ("lon", .number(Geo.round6(home.lon))),
            ]
            if let avatar = m.avatar, let image = view.image(avatar) {
                fields.append(("avatar", .string(routes.url((image.variants.first ?? image.display).path))))
            }
            if let c = d.certification { fields.append(("certification", .string(c))) }
            if let n = d.dives { fields.append(("dives", .int(n))) }
            if let y = d.years { fields.append(("years", .int(y))) }
            if let near = m.nearPlace { fields.append(("near", .string(near))) }
            return .object(fields)
        }
        let places: [JSON] = view.places.map {
            .object([("name", .string($0.name)), ("lat", .number(Geo.round6($0.coordinate.lat))), ("lon", .number(Geo.round6($0.coordinate.lon)))])
        }
        let json = JSON.object([
            ("precision_km", .number(site.locationPrecisionKm)), ("places", .array(places)), ("divers", .array(divers)),
        ])
        return OutputFile(path: routes.diversIndex, text: json.serialized(pretty: true) + "\n")
    }
}
