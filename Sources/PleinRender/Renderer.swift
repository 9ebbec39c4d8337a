import PleinText
public import PleinModel
import PleinMarkdown
import Foundation
public import PleinCore
import PleinMustache

/// One file of the output: a site-relative path and its bytes.
public struct OutputFile: Sendable, Equatable {
    public let path: String
    public let bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}

/// Options that change what is rendered, not what the content says.
public struct RenderOptions: Sendable {
    /// Markup injected before `</body>` on every page (the dev server's reload script).
    public var pageFooterInjection: String?
    /// Leaflet's published files; without them maps stay SVG drawings.
    public var leaflet: LeafletAssets?
    /// Message threads are rendered only with these keys (from the build's secret).
    public var threadKeys: ThreadKeys?

    public init(pageFooterInjection: String? = nil, leaflet: LeafletAssets? = nil, threadKeys: ThreadKeys? = nil) {
        self.pageFooterInjection = pageFooterInjection
        self.leaflet = leaflet
        self.threadKeys = threadKeys
    }
}

/// Everything a page renderer reads. Rendering one output is a pure function of this value.
///
/// The inputs live in one shared object, so copying a renderer (every feed entry's closure
/// captures one) costs a single reference count.
public struct Renderer: Sendable {
    final class Core: Sendable {
        let model: SiteModel
        let theme: Theme
        let routes: Routes
        let bodies: Bodies
        let images: ImageCatalog
        let options: RenderOptions
        /// The parts of every page's context that depend only on the site and the theme.
        let shared: SharedContexts
        /// Each member's check-ins, in the model's order.
        let sessionsByMember: [String: [Session]]

        init(model: SiteModel, theme: Theme, bodies: Bodies, images: ImageCatalog, options: RenderOptions) {
            self.model = model
            let theme = theme.labelled(model.site.labels)
            self.theme = theme
            routes = Routes(baseURL: model.site.baseURL)
            self.bodies = bodies
            self.images = images
            self.options = options
            shared = SharedContexts(site: model.site, theme: theme, routes: routes, leaflet: options.leaflet)
            sessionsByMember = Dictionary(grouping: model.sessions, by: \.member)
        }
    }

    let core: Core
    /// When set, learns what each output reads (for incremental rebuilds).
    var recorder: DependencyRecorder?

    public init(model: SiteModel, theme: Theme, bodies: Bodies, images: ImageCatalog, options: RenderOptions = .init()) {
        core = Core(model: model, theme: theme, bodies: bodies, images: images, options: options)
    }

    public var model: SiteModel { core.model }
    public var theme: Theme { core.theme }
    public var routes: Routes { core.routes }
    public var bodies: Bodies { core.bodies }
    public var images: ImageCatalog { core.images }
    public var options: RenderOptions { core.options }
    var shared: SharedContexts { core.shared }

    var strings: Strings { theme.strings }
    var site: SiteConfig { model.site }

    /// Every output of the site.
    public func outputs() -> [OutputID] {
        // Album maps depend on the photos' EXIF, which only the image catalog knows.
        let albumMaps = groupOrder.flatMap { groupModel($0)!.albums }.filter(albumHasMap).map { OutputID.geoJSON(.album($0.key)) }
        // Threads only with a secret; they are listed nowhere else.
        let threads = options.threadKeys == nil ? [] : model.threads.flatMap { [OutputID.thread($0.id), .threadFeed($0.id), .threadJSONFeed($0.id)] }
        return OutputID.all(model) + albumMaps + threads
    }

    /// Renders one output and tells what it read.
    public func renderTracked(_ id: OutputID) -> (OutputFile, Set<Dependency>) {
        let (files, dependencies) = renderTracked(batch: [id])
        return (files[0], dependencies)
    }

    /// Renders outputs together and tells what they read, all of them.
    public func renderTracked(batch ids: [OutputID]) -> ([OutputFile], Set<Dependency>) {
        var tracked = self
        let recorder = DependencyRecorder()
        tracked.recorder = recorder
        let files = tracked.render(batch: ids)
        return (files, recorder.dependencies)
    }

    /// Renders one output.
    public func render(_ id: OutputID) -> OutputFile {
        var feeds: [OutputID: Feed] = [:]
        return render(id, feeds: &feeds)
    }

    /// Renders outputs together: an Atom feed and its JSON Feed twin choose and build their
    /// entries once (see `OutputID.batches`).
    public func render(batch ids: [OutputID]) -> [OutputFile] {
        var feeds: [OutputID: Feed] = [:]
        return ids.map { render($0, feeds: &feeds) }
    }

    /// `feeds` keeps the feeds made so far, by their Atom output.
    private func render(_ id: OutputID, feeds: inout [OutputID: Feed]) -> OutputFile {
        func cached(_ key: OutputID, _ make: () -> Feed) -> Feed {
            if let feed = feeds[key] { return feed }
            let feed = make()
            feeds[key] = feed
            return feed
        }
        switch id {
        case .home: return page(home())
        case .members: return page(memberList())
        case .member(let mid): return page(memberPage(mid))
        case .progress(let mid): return page(progressPage(mid))
        case .divers: return page(diversPage())
        case .groups: return page(groupList())
        case .group(let gid): return page(groupPage(gid))
        case .leaderboard(let gid): return page(leaderboardPage(gid))
        case .album(let key): return page(albumPage(key))
        case .photo(let key, let index): return page(photoPage(key, index))
        case .areas: return page(areaList())
        case .area(let aid): return page(areaPage(aid))
        case .report(let rid): return page(reportPage(rid))
        case .locations: return page(locationList())
        case .location(let lid): return page(locationPage(lid))
        case .now: return page(nowPage())
        case .notFound: return page(notFound())
        case .thread(let tid): return page(threadPage(tid))
        case .threadFeed(let tid):
            let feed = cached(.threadFeed(tid)) { self.threadFeed(tid) }
            return OutputFile(path: feed.atomPath, bytes: atom(feed))
        case .threadJSONFeed(let tid):
            let feed = cached(.threadFeed(tid)) { self.threadFeed(tid) }
            return OutputFile(path: feed.jsonPath, bytes: jsonFeed(feed))
        case .sitemap: return OutputFile(path: routes.sitemap, text: sitemap())
        case .robots: return OutputFile(path: routes.robots, text: robots())
        case .atom(let feedID):
            let feed = cached(.atom(feedID)) { self.feed(feedID) }
            return OutputFile(path: feed.atomPath, bytes: atom(feed))
        case .jsonFeed(let feedID):
            let feed = cached(.atom(feedID)) { self.feed(feedID) }
            return OutputFile(path: feed.jsonPath, bytes: jsonFeed(feed))
        case .leaderboardJSON(let gid):
            return OutputFile(path: routes.leaderboardJSON(gid), text: leaderboardJSON(gid))
        case .diversIndex:
            return OutputFile(path: routes.diversIndex, text: diversIndex())
        case .geoJSON(let map):
            return OutputFile(path: geoJSONPath(map), text: geoJSON(map))
        }
    }

    /// Fills the base layout around a page and renders it.
    func page(_ page: Page) -> OutputFile {
        var context = page.context
        context["site"] = shared.site
        context["page"] = .object(frameContext(page))
        context["t"] = shared.text
        context["nav"] = .list(navigation(current: page.section, path: page.path))
        context["assets"] = shared.assets
        if page.hasMap { context["leaflet"] = shared.leaflet }
        var html = theme.library.render(context, withTemplate: page.template) ?? []
        if let injection = options.pageFooterInjection {
            let end = Array("</body>".utf8)
            if let at = stride(from: html.count - end.count, through: 0, by: -1).first(where: { html[$0..<($0 + end.count)].elementsEqual(end) }) {
                html.insert(contentsOf: injection.utf8, at: at)
            }
        }
        let path = page.fileName ?? routes.file(page.path)
        return OutputFile(path: path, bytes: html)
    }
}

/// A page about to be rendered: the template, the page-specific values and the frame around it.
struct Page {
    var template: String
    var path: String
    var title: String
    var description: String
    var section: Section
    var context: TemplateContext = [:]
    var image: String?
    var noindex = false
    var nofollow = false
    var feeds: [Feed] = []
    var source: String?
    var breadcrumbs: [(label: String, path: String)] = []
    /// Overrides the file name (`404.html`).
    var fileName: String?
    /// Loads Leaflet on this page.
    var hasMap = false

    struct Feed {
        let title: String
        let path: String
        let type: String
    }
}

/// The top-level sections, for the navigation bar.
enum Section: String, CaseIterable {
    case home, members, divers, groups, reports, locations, now, none

    /// The part of the site (`site.yaml` `sections`) a page belongs to.
    var siteSection: SiteSection? {
        switch self {
        case .members: return .members
        case .divers: return .divers
        case .groups: return .groups
        case .reports: return .reports
        case .locations: return .study
        case .now: return .now
        case .home, .none: return nil
        }
    }
}
