import PleinModel
import PleinCore
import PleinMustache

/// The values of every page's frame that depend only on the site and the theme, made once per
/// build.
struct FrameValues: Sendable {
    let site: TemplateValue
    /// The interface text table as `t`.
    let text: TemplateValue
    let assets: TemplateValue
    let leaflet: TemplateValue?
    /// The manifest and service worker (`site.yaml` `app`); a sealed page's opened page names
    /// the manifest only (the page that opens it registered the worker), so that it is the same
    /// in `plein serve`, whose pages name no worker.
    let app: TemplateValue?
    let sealedApp: TemplateValue?
    /// The search page's script.
    let searchScript: String

    init(site config: SiteConfig, theme: Theme, routes: Routes, leaflet: LeafletAssets?, search: Bool, serving: Bool) {
        site = .object([
            "title": .text(config.title),
            "description": .text(config.description.isEmpty ? nil : config.description),
            "sections": .object(SiteSection.allCases.reduce(into: TemplateContext()) { $0[$1.rawValue] = .flag(config.has($1)) }),
            "profile": .object(ProfilePart.allCases.reduce(into: TemplateContext()) { $0[$1.rawValue] = .flag(config.profile.contains($1)) }),
            "language": .text(config.language.rawValue),
            "home": .text(routes.url(routes.home)),
            "feed": .text(routes.url(routes.siteFeed)),
            "search": .text(search ? routes.url(routes.search) : nil),
        ])
        var text = TemplateContext()
        for (key, value) in theme.strings.table { text[key] = .text(value) }
        self.text = .object(text)
        assets = .object([
            "css": .text(routes.url(theme.asset("style.css"))),
            "js": .text(routes.url(theme.asset("plein.js"))),
            "icon": .text(routes.url(theme.asset("icon.svg"))),
            // What opens a members-only group's pages (`SealedPage`).
            "unlock": .text(routes.url(theme.asset("unlock.js"))),
        ])
        searchScript = routes.url(theme.asset("search.js"))
        app = Self.appValues(site: config, theme: theme, routes: routes, serving: serving)
        sealedApp = Self.appValues(site: config, theme: theme, routes: routes, serving: true)
        self.leaflet = leaflet.map {
            .object(["script": .text(routes.url($0.script)), "stylesheet": .text(routes.url($0.stylesheet))])
        }
    }
}

/// Puts a page into the base layout: head, navigation, breadcrumbs, feeds and footer, and
/// renders it with its template.
struct PageFrame: Rendering {
    let inputs: RenderInputs

    func render(_ page: Page) -> OutputFile {
        var context = page.values?.template ?? TemplateContext()
        context["site"] = inputs.frame.site
        context["page"] = .object(frame(page))
        context["t"] = inputs.frame.text
        context["nav"] = .list(navigation(current: page.section, path: page.path))
        context["assets"] = inputs.frame.assets
        context["app"] = inputs.sealed ? inputs.frame.sealedApp : inputs.frame.app
        if page.hasMap { context["leaflet"] = inputs.frame.leaflet }
        inputs.recorder?.record(.template(page.template))
        var parts: [String: [UInt8]] = [:]
        var html = (page.keptLists.isEmpty ? inputs.theme.library.render(context, withTemplate: page.template)
                    : inputs.theme.library.render(context, withTemplate: page.template, parts: &parts)) ?? []
        for list in page.keptLists { list.keep(parts) }
        if let injection = inputs.options.pageFooterInjection {
            let end = Array("</body>".utf8)
            if let at = stride(from: html.count - end.count, through: 0, by: -1).first(where: { html[$0..<($0 + end.count)].elementsEqual(end) }) {
                html.insert(contentsOf: injection.utf8, at: at)
            }
        }
        return OutputFile(path: page.fileName ?? routes.file(page.path), bytes: html)
    }

    /// The section links, then the site's own pages that the menu links (`pages/`); the current
    /// section is marked `aria-current="page"` on its own page and `aria-current="true"` on the
    /// pages below it. Sections the site leaves out have none.
    func navigation(current: Section, path: String) -> [TemplateContext] {
        sectionLinks(current: current, path: path) + view.menu.map { link in
            let pagePath = routes.page(link.page)
            var item: TemplateContext = ["label": .text(link.label), "url": .text(routes.url(pagePath))]
            if pagePath == path { item["current"] = .text("page") }
            return item
        }
    }

    private func sectionLinks(current: Section, path: String) -> [TemplateContext] {
        let items: [(Section, String, String)] = [
            (.members, "nav_members", routes.members),
            (.divers, "nav_divers", routes.divers),
            (.groups, "nav_groups", routes.groups),
            (.reports, "nav_reports", routes.areas),
            (.locations, "nav_locations", routes.locations),
            (.now, "nav_now", routes.now),
        ]
        return items.filter { site.has($0.0.siteSection!) }.map { section, key, sectionPath in
            var item: TemplateContext = ["label": .text(strings[key]), "url": .text(routes.url(sectionPath))]
            if section == current { item["current"] = .text(sectionPath == path ? "page" : "true") }
            return item
        }
    }

    /// `page`: title, description, canonical URL, robots, feeds, image, edit link and breadcrumbs.
    func frame(_ page: Page) -> TemplateContext {
        let fullTitle = page.section == .home && page.path.isEmpty ? site.title : "\(page.title) · \(site.title)"
        var c: TemplateContext = [
            "title": .text(page.title),
            "full_title": .text(fullTitle),
            "description": .text(page.description.isEmpty ? site.description : page.description),
            "canonical": .text(routes.absolute(page.path)),
            "noindex": .flag(page.noindex),
            "robots": .text(page.noindex ? (page.nofollow ? "noindex, nofollow" : "noindex") : nil),
            "og_type": .text(page.section == .reports && page.path.count > routes.areas.count + 6 ? "article" : "website"),
            "feeds": .list(page.feeds.flatMap { feed -> [TemplateContext] in
                var links: [TemplateContext] = [["title": .text(feed.title), "url": .text(routes.url(feed.path)), "type": .text(feed.type)]]
                // A calendar also by `webcal://`, which calendar applications subscribe to.
                if feed.type == "text/calendar", let webcal = routes.webcal(feed.path) { links[0]["webcal"] = .text(webcal) }
                // Most Atom feeds have a JSON Feed twin beside them.
                if feed.jsonTwin {
                    links.append([
                        "title": .text("\(feed.title) (\(strings["json_feed"]))"),
                        "url": .text(routes.url(routes.jsonFeed(feed.path))),
                        "type": .text("application/feed+json"), "twin": .flag(true),
                    ])
                }
                return links
            }),
        ]
        if let image = page.image { c["image"] = .text(routes.absolute(image)) }
        if let source = page.source, let edit = forge.edit(source) { c["edit_url"] = .text(edit) }
        if !page.breadcrumbs.isEmpty {
            c["crumbs"] = .object(["items": .list(page.breadcrumbs.map {
                ["label": .text($0.label), "url": .text(routes.url($0.path))]
            })])
        }
        return c
    }
}

extension Rendering {
    /// The site feed, linked from list pages.
    var siteFeed: Page.Feed { .atom(strings.format("feed_site", ["site": site.title]), routes.siteFeed, jsonTwin: FeedID.site.hasJSONTwin) }
}
