public import PleinCore
public import PleinModel
import PleinMarkdown

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
    /// Whether the site has its search page and index (`site.yaml` allows it and Pagefind is
    /// installed): every page then has a search box.
    public var search: Bool
    /// The members-only groups with their keys: their pages are published sealed.
    public var sealing: Sealing
    /// Past this many reports, `sitemap.xml` is an index of parts (`SitemapPart`): one of the
    /// pages that are no report's nor an area's, one per area with its reports. The sitemap
    /// protocol allows 50,000 URLs a file; a part per area also lets a new report write one part.
    public var sitemapSplit: Int
    public static let sitemapSplit = 40_000

    /// Whether the output is `plein serve`'s (which injects its reload script into every page):
    /// its pages register no service worker.
    public var serving: Bool { pageFooterInjection != nil }

    public init(pageFooterInjection: String? = nil, leaflet: LeafletAssets? = nil, threadKeys: ThreadKeys? = nil, search: Bool = false,
                sealing: Sealing = [:], sitemapSplit: Int = RenderOptions.sitemapSplit) {
        self.sitemapSplit = sitemapSplit
        self.pageFooterInjection = pageFooterInjection
        self.leaflet = leaflet
        self.threadKeys = threadKeys
        self.search = search
        self.sealing = sealing
    }
}

/// Where Leaflet was published, when it is available (Debian's libjs-leaflet).
public struct LeafletAssets: Sendable {
    public let script: String
    public let stylesheet: String

    public init(script: String, stylesheet: String) {
        self.script = script
        self.stylesheet = stylesheet
    }
}

/// Everything a renderer reads: the model (through `ModelView`), the theme with the site's own
/// labels, the routes and the options. Rendering an output is a pure function of this value.
///
/// The inputs live in one shared object, so copying them (every feed entry's closure captures a
/// renderer) costs a single reference count.
struct RenderInputs: Sendable {
    final class Shared: Sendable {
        let view: ModelView
        let site: SiteConfig
        let theme: Theme
        let routes: Routes
        let options: RenderOptions
        /// The parts of every page's context that depend only on the site and the theme.
        let frame: FrameValues

        init(source: any ModelSource, theme: Theme, options: RenderOptions) {
            view = ModelView(source: source)
            let site = source.site
            self.site = site
            let theme = theme.labelled(site.labels)
            self.theme = theme
            routes = Routes(baseURL: site.baseURL, sealing: options.sealing, threadKeys: options.threadKeys)
            self.options = options
            frame = FrameValues(site: site, theme: theme, routes: routes, leaflet: options.leaflet, search: options.search, serving: options.serving)
        }
    }

    let shared: Shared
    /// When set, learns what each output reads (for incremental rebuilds).
    var recorder: DependencyRecorder?
    /// Whether the output is rendered to be sealed (a members-only group's page, a thread): it
    /// then fetches nothing in the clear that says who is in it, such as its members' avatars
    /// (shown by their initials), which would put them in the host's logs.
    var sealed = false

    var view: ModelView {
        var view = shared.view
        view.recorder = recorder
        return view
    }

    var theme: Theme { shared.theme }
    var strings: Strings { shared.theme.strings }
    var routes: Routes { shared.routes }
    var options: RenderOptions { shared.options }
    var site: SiteConfig { shared.site }
    var frame: FrameValues { shared.frame }
}

/// A renderer of one kind of output. The helpers every renderer uses read its inputs.
protocol Rendering {
    var inputs: RenderInputs { get }
}

extension Rendering {
    var view: ModelView { inputs.view }
    var strings: Strings { inputs.strings }
    var routes: Routes { inputs.routes }
    var site: SiteConfig { inputs.site }

    /// `<time>` values: machine-readable in the site's zone, and text for the site's language.
    func time(_ moment: Moment) -> TimeValue {
        let civil = site.clock.civil(moment)
        if moment.isDateOnly {
            return TimeValue(iso: civil.isoDate, text: strings.date(civil), dateOnly: true)
        }
        return TimeValue(iso: site.clock.rfc3339(moment), text: strings.dateTime(civil), dateOnly: false)
    }

    func time(_ moment: Moment?) -> TimeValue? { moment.map(time) }

    /// A member as a chip: a link to their profile with their avatar (a name without a link
    /// when the site has no member pages).
    func chip(_ id: String) -> MemberChip { MemberChip(id, in: self) }

    func image(_ image: PublishedImage, alt: String, sizes: String = "100vw") -> ImageValue {
        ImageValue(image, alt: alt, sizes: sizes, routes: routes)
    }

    /// Text cut at a word boundary near `limit` characters.
    func summary(_ text: String, limit: Int) -> String { TextCut.summary(text, limit: limit) }

    /// A body's plain text, cut for a summary.
    func summary(of file: String, limit: Int, otherwise: String = "") -> String {
        view.summary(file, limit: limit) ?? summary(otherwise, limit: limit)
    }

    var cards: Cards { Cards(inputs: inputs) }
    var forge: ForgeLinks { ForgeLinks(inputs: inputs) }
    var cms: CMSLinks { CMSLinks(inputs: inputs) }
    var maps: MapBlocks { MapBlocks(inputs: inputs) }
    var names: Names { Names(inputs: inputs) }
}
