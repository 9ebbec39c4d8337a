/// Settings from `site.yaml`.
public struct SiteConfig: Sendable, Equatable, Codable {
    public private(set) var title: String
    /// Always ends with `/`.
    public private(set) var baseURL: String
    public let language: Language
    public let clock: SiteClock
    public private(set) var description: String
    public let repository: String?
    /// The branch that the forge's edit and new-file links open (default `main`).
    public let repositoryBranch: String
    public let locationPrecisionKm: Double
    public let feedLimit: Int
    public private(set) var mapTiles: String
    public private(set) var mapAttribution: String
    public let maxPixels: Int
    /// Whether photos also get AVIF variants beside WebP (`images.avif: false` turns them off).
    public let avif: Bool
    /// The parts of the site this community has (default: all of them).
    public let sections: Set<SiteSection>
    /// The site's own interface texts, by key, in place of the theme's.
    public let labels: [String: String]
    /// Whether the build makes a search index and page (`search: false` turns them off).
    public let search: Bool
    /// The report categories members may use (default all of them): a diving club has no
    /// "suspicious situation".
    public var categories: [Category] = Category.allCases
    /// The parts of a member's page beyond their own records (default all of them): a diving
    /// club's profiles show no "Friends" or "Points per group".
    public var profile: Set<ProfilePart> = Set(ProfilePart.allCases)
    /// The CMS at `/admin/` (`cms`), for members who do not use git.
    public var cms: CMSSettings?
    /// Whether the owner says the content repository is private (`repository_private: true`):
    /// then `plein check` no longer warns that members-only groups, private groups and threads
    /// are plain text in it.
    public var repositoryPrivate = false
    /// The site as an app on members' phones (`app`): a web app manifest, icons and a service
    /// worker that keeps pages readable offline.
    public var app = AppSettings()
    /// The WebSub hub every Atom feed names (`websub.hub`), which the CI tells of changed feeds.
    public var websubHub: String?

    public static let defaultTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public static let defaultAttribution = "© OpenStreetMap contributors"

    public init(
        title: String, baseURL: String, language: Language = .en, clock: SiteClock = .utc,
        description: String = "", repository: String? = nil, repositoryBranch: String = "main", locationPrecisionKm: Double = 1,
        feedLimit: Int = 50, mapTiles: String = SiteConfig.defaultTiles,
        mapAttribution: String = SiteConfig.defaultAttribution, maxPixels: Int = 100_000_000, avif: Bool = true,
        sections: Set<SiteSection> = Set(SiteSection.allCases), labels: [String: String] = [:], search: Bool = true
    ) {
        self.title = title
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.language = language
        self.clock = clock
        self.description = description
        self.repository = repository.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.repositoryBranch = repositoryBranch
        self.locationPrecisionKm = locationPrecisionKm
        self.feedLimit = feedLimit
        self.mapTiles = mapTiles
        self.mapAttribution = mapAttribution
        self.maxPixels = maxPixels
        self.avif = avif
        self.sections = SiteSection.closed(sections)
        self.labels = labels
        self.search = search
    }

    /// The same settings published at another address (for previews).
    public func with(baseURL: String) -> SiteConfig {
        var copy = self
        copy.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        return copy
    }

    /// Whether `other` differs from these settings only in what pages show of them and nothing
    /// else reads: the title, the description, the map's tiles and attribution. (No record, rule,
    /// piece of the model, body or list of outputs reads them: an edit of them renders the
    /// outputs again, and changes nothing else.)
    public func differsOnlyInWhatPagesShow(from other: SiteConfig) -> Bool {
        var same = other
        (same.title, same.description, same.mapTiles, same.mapAttribution) = (title, description, mapTiles, mapAttribution)
        return same == self
    }

    /// Whether the site has a section.
    public func has(_ section: SiteSection) -> Bool { sections.contains(section) }

    public init(_ o: ObjectValue) {
        let clock = o.string("timezone").flatMap(SiteClock.init(identifier:)) ?? .utc
        var labels: [String: String] = [:]
        if let table = o.object("labels") {
            for key in table.fields.keys { if let text = table.string(key) { labels[key] = text } }
        }
        self.init(
            title: o.string("title") ?? "plein",
            baseURL: o.string("base_url") ?? "http://localhost/",
            language: o.string("language").flatMap(Language.init(rawValue:)) ?? .en,
            clock: clock,
            description: (o.string("description") ?? "").trimmingWhitespace,
            repository: o.string("repository"),
            repositoryBranch: o.string("repository_branch") ?? "main",
            locationPrecisionKm: o.object("privacy")?.number("location_precision_km") ?? 1,
            feedLimit: o.object("feeds")?.int("limit") ?? 50,
            mapTiles: o.object("map")?.string("tiles") ?? SiteConfig.defaultTiles,
            mapAttribution: o.object("map")?.string("attribution") ?? SiteConfig.defaultAttribution,
            maxPixels: o.object("images")?.int("max_pixels") ?? 100_000_000,
            avif: o.object("images")?.bool("avif") ?? true,
            sections: o.fields["sections"] == nil ? Set(SiteSection.allCases)
                : Set(o.strings("sections").compactMap { SiteSection(rawValue: $0.value) }),
            labels: labels,
            search: o.bool("search") ?? true
        )
        if o.fields["categories"] != nil {
            let chosen = Set(o.strings("categories").compactMap { Category(rawValue: $0.value) })
            categories = Category.allCases.filter(chosen.contains)
        }
        if o.fields["profile"] != nil { profile = Set(o.strings("profile").compactMap { ProfilePart(rawValue: $0.value) }) }
        if let cms = o.object("cms") { self.cms = CMSSettings(cms, repository: repository) }
        repositoryPrivate = o.bool("repository_private") ?? false
        if let app = o.object("app") { self.app = AppSettings(app) }
        websubHub = o.object("websub")?.string("hub")
    }
}

/// `app` in `site.yaml`: whether the site can be installed and read offline, and how it looks
/// as an app (docs/publishing.md, "On members' phones").
public struct AppSettings: Sendable, Equatable, Codable {
    /// Whether the build writes the manifest, the icons and the service worker (default true).
    public var enabled = true
    /// The name under the icon on a home screen (default: the site's title).
    public var shortName: String?
    /// The app's icon: a file in the theme's `assets/` (the site's `templates/assets/`); default
    /// the theme's `icon.svg`.
    public var icon: String?
    /// `#rrggbb`: the app's title bar (default: the theme's `--accent`).
    public var themeColor: String?
    /// `#rrggbb`: the app's splash screen (default: the theme's `--bg`).
    public var backgroundColor: String?
    /// How many of the newest reports and of the upcoming events the service worker keeps
    /// readable offline from the first visit.
    public var offlineReports = 10
    public var offlineEvents = 10

    public init() {}

    public init(_ o: ObjectValue) {
        enabled = o.bool("enabled") ?? true
        shortName = o.string("short_name")
        icon = o.string("icon")
        themeColor = o.string("theme_color")
        backgroundColor = o.string("background_color")
        offlineReports = o.int("offline_reports") ?? 10
        offlineEvents = o.int("offline_events") ?? 10
    }

    /// Whether a colour is one the manifest and `<meta name="theme-color">` take as plein
    /// writes them: `#rgb` or `#rrggbb`.
    public static func isColour(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.hasPrefix("#") && (digits.count == 3 || digits.count == 6)
            && digits.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) }
    }
}

/// A part of a member's page that a community may show or leave out (`site.yaml` `profile`).
public enum ProfilePart: String, Sendable, CaseIterable, Codable {
    /// The member's friends.
    case friends
    /// Goals' points per group, with the member's rank.
    case points
    /// The reports the member follows.
    case follows
}

/// A part of the site that a community may have or leave out (`site.yaml` `sections`).
public enum SiteSection: String, Sendable, CaseIterable, Comparable, Codable {
    /// The member directory and profiles, with their feeds.
    case members
    /// Diving cards and the "find divers near…" page.
    case divers
    /// Groups with albums, goals and leaderboards.
    case groups
    /// Reports by area, with maps and replies.
    case reports
    /// Study places, check-ins and study progress.
    case study
    /// Who is checked in where, as of the build.
    case now

    public static func < (a: SiteSection, b: SiteSection) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// A section that needs another has it only with that one: who is where needs study places.
    static func closed(_ sections: Set<SiteSection>) -> Set<SiteSection> {
        sections.contains(.study) ? sections : sections.subtracting([.now])
    }
}

public enum Language: String, Sendable, CaseIterable, Codable {
    case nl, en
}

extension String {
    /// Without white space at either end (without Foundation).
    public var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
