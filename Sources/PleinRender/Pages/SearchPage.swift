import PleinText
import PleinCore
import PleinModel
import PleinMustache

/// `/search/`: the search box over the site's Pagefind indexes (merged in the browser), results
/// with kind, title, excerpt and date, filters as buttons. Without JavaScript it says so and
/// offers the directories and the areas instead.
struct SearchPage: PageRenderer {
    let inputs: RenderInputs

    struct Values: TemplateValues {
        /// The index folders, the first one with Pagefind's script, as JSON.
        let indexes: String
        /// The interface texts the script needs, as JSON.
        let labels: String
        let script: String
        let directories: [(label: String, url: String)]
        let areas: [(label: String, url: String)]

        var template: TemplateContext {
            [
                "indexes": .text(indexes), "labels": .text(labels), "search_script": .text(script),
                "directories": .list(directories.map { ["label": .text($0.label), "url": .text($0.url)] }),
                "areas": .list(areas.map { ["label": .text($0.label), "url": .text($0.url)] }), "has_areas": .flag(!areas.isEmpty),
            ]
        }
    }

    /// Interface texts of the results, by the key the script reads.
    static let scriptLabels = [
        "searching": "search_searching", "failed": "search_failed", "none": "search_none", "one": "search_results_one",
        "other": "search_results_other", "all": "search_all", "kind": "search_filter_kind", "area": "search_filter_area",
        "category": "search_filter_category", "group": "search_filter_group", "sort": "search_sort", "relevance": "search_sort_relevance",
        "newest": "search_sort_newest", "more": "search_more",
    ]

    func page() -> Page {
        var page = Page(kind: .search, path: routes.search, title: strings["search_title"],
                        description: strings.format("search_description", ["site": site.title]), section: .none)
        let indexes = SearchRecords(inputs: inputs).shardNames().map { JSON.string(routes.url(routes.searchIndex($0))) }
        let labels = JSON.object(Self.scriptLabels.sorted { $0.key < $1.key }.map { ($0.key, .string(strings[$0.value])) })
        let sections: [(SiteSection, String, String)] = [
            (.members, "nav_members", routes.members), (.groups, "nav_groups", routes.groups),
            (.reports, "nav_reports", routes.areas), (.study, "nav_locations", routes.locations),
        ]
        let names = Names(inputs: inputs)
        page.values = Values(
            indexes: JSON.array(indexes).serialized(), labels: labels.serialized(), script: inputs.frame.searchScript,
            directories: sections.filter { site.has($0.0) }.map { (strings[$0.1], routes.url($0.2)) },
            areas: site.has(.reports) ? view.areas.map { (names.area($0), routes.url(routes.area($0.id))) } : [])
        page.noindex = true
        page.feeds = [siteFeed]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}
