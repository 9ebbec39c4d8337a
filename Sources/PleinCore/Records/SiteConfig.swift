/// `content/site.yaml`: the site's settings, with defaults filled in.
public struct SiteConfig: Sendable, Equatable {
    public let title: String
    /// Always ends with `/`.
    public let baseURL: String
    public let language: Language
    public let clock: SiteClock
    public let description: String
    public let repository: String?
    public let locationPrecisionKm: Double
    public let feedLimit: Int
    public let mapTiles: String
    public let mapAttribution: String
    public let maxPixels: Int

    public static let defaultTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public static let defaultAttribution = "© OpenStreetMap contributors"

    public init(
        title: String, baseURL: String, language: Language = .en, clock: SiteClock = .utc,
        description: String = "", repository: String? = nil, locationPrecisionKm: Double = 1,
        feedLimit: Int = 50, mapTiles: String = SiteConfig.defaultTiles,
        mapAttribution: String = SiteConfig.defaultAttribution, maxPixels: Int = 100_000_000
    ) {
        self.title = title
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.language = language
        self.clock = clock
        self.description = description
        self.repository = repository.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.locationPrecisionKm = locationPrecisionKm
        self.feedLimit = feedLimit
        self.mapTiles = mapTiles
        self.mapAttribution = mapAttribution
        self.maxPixels = maxPixels
    }

    /// The same settings published at another address (for previews).
    public func with(baseURL: String) -> SiteConfig {
        SiteConfig(
            title: title, baseURL: baseURL, language: language, clock: clock, description: description,
            repository: repository, locationPrecisionKm: locationPrecisionKm, feedLimit: feedLimit,
            mapTiles: mapTiles, mapAttribution: mapAttribution, maxPixels: maxPixels)
    }

    init(_ o: ObjectValue) {
        let clock = o.string("timezone").flatMap(SiteClock.init(identifier:)) ?? .utc
        self.init(
            title: o.string("title") ?? "plein",
            baseURL: o.string("base_url") ?? "http://localhost/",
            language: o.string("language").flatMap(Language.init(rawValue:)) ?? .en,
            clock: clock,
            description: o.string("description") ?? "",
            repository: o.string("repository"),
            locationPrecisionKm: o.object("privacy")?.number("location_precision_km") ?? 1,
            feedLimit: o.object("feeds")?.int("limit") ?? 50,
            mapTiles: o.object("map")?.string("tiles") ?? SiteConfig.defaultTiles,
            mapAttribution: o.object("map")?.string("attribution") ?? SiteConfig.defaultAttribution,
            maxPixels: o.object("images")?.int("max_pixels") ?? 100_000_000
        )
    }
}

public enum Language: String, Sendable, CaseIterable {
    case nl, en
}
