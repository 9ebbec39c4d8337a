import PleinCore
import PleinModel
import PleinMustache

/// `/now/`: who is checked in where, as of the latest check-in in the content.
struct NowPage: PageRenderer {
    let inputs: RenderInputs

    struct Person: HandWrittenTemplate {
        let chip: MemberChip
        let since: TimeValue?

        var template: TemplateContext {
            var c = chip.template
            if let since { c["since"] = .of(since) }
            return c
        }
    }

    struct Place: TemplateValues, Encodable {
        let name: String
        let url: String
        let occupancy: Occupancy
        let people: [Person]
    }

    struct Values: TemplateValues, Encodable {
        let places: [Place]
        let asOf: TimeValue?
        let count: String
    }

    func page() -> Page {
        let locations = view.locations
        let study = StudyPlaces(inputs: inputs)
        let places = locations.filter { !$0.present.isEmpty }.map { l in
            Place(
                name: l.name, url: routes.url(routes.location(l.id)), occupancy: study.occupancy(l),
                people: l.present.map { id in
                    Person(chip: chip(id), since: view.sessions(of: id).last(where: { $0.end == nil }).map { time($0.start) })
                })
        }
        var page = Page(
            kind: .now, path: routes.now, title: strings["now_title"],
            description: strings.format("now_description", ["site": site.title]), section: .now)
        page.values = Values(
            places: places, asOf: time(view.asOf), count: strings.count("present_count", locations.reduce(0) { $0 + $1.present.count }))
        page.feeds = [siteFeed]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}
