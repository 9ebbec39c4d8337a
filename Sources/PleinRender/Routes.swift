import PleinMarkdown
public import PleinModel
import Foundation
public import PleinCore

/// Where every page lives. Functions return site-relative paths (`users/anna/`); `url` makes
/// them links (with the base URL's path) and `absolute` full URLs.
public struct Routes: Sendable {
    /// `https://example.org/sub/`
    public let baseURL: String
    /// `/sub/`
    public let basePath: String
    /// `example.org`, for tag URIs.
    public let host: String

    public init(baseURL: String) {
        let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.baseURL = base
        if let scheme = base.range(of: "://"), let slash = base[scheme.upperBound...].firstIndex(of: "/") {
            basePath = String(base[slash...])
        } else {
            basePath = "/"
        }
        let afterScheme = base.range(of: "://").map { base[$0.upperBound...] } ?? Substring(base)
        host = String(afterScheme.prefix { $0 != "/" && $0 != ":" })
    }

    /// A link for pages (`/sub/users/anna/`).
    public func url(_ path: String) -> String { basePath + path }
    /// A full URL (`https://example.org/sub/users/anna/`).
    public func absolute(_ path: String) -> String { baseURL + path }
    /// The file a path is written to: `users/anna/` → `users/anna/index.html`.
    public func file(_ path: String) -> String { path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path }

    public var home: String { "" }
    public var members: String { "users/" }
    public func member(_ id: String) -> String { "users/\(id)/" }
    public func progress(_ id: String) -> String { "users/\(id)/progress/" }
    public func memberFeed(_ id: String) -> String { "users/\(id)/feed.xml" }
    public func followingFeed(_ id: String) -> String { "users/\(id)/following.xml" }
    public var divers: String { "divers/" }
    public var groups: String { "groups/" }
    public func group(_ id: String) -> String { "groups/\(id)/" }
    public func groupFeed(_ id: String) -> String { "groups/\(id)/feed.xml" }
    public func leaderboard(_ id: String) -> String { "groups/\(id)/leaderboard/" }
    public func album(_ key: AlbumKey) -> String { "groups/\(key.group)/albums/\(key.album)/" }
    public func photo(_ key: AlbumKey, _ slug: String) -> String { album(key) + slug + "/" }
    public var areas: String { "reports/" }
    public func area(_ id: String) -> String { "reports/\(id)/" }
    public func areaFeed(_ id: String) -> String { "reports/\(id)/feed.xml" }
    public func areaMap(_ id: String) -> String { "reports/\(id)/map.geojson" }
    public var reportsMap: String { "reports/map.geojson" }
    public func report(_ id: String) -> String { "reports/\(id)/" }
    public func reportFeed(_ id: String) -> String { "reports/\(id)/feed.xml" }
    public var locations: String { "locations/" }
    public func location(_ id: String) -> String { "locations/\(id)/" }
    public var locationsMap: String { "locations/map.geojson" }
    public var now: String { "now/" }
    public var siteFeed: String { "feed.xml" }
    public func thread(_ key: String) -> String { "messages/\(key)/" }
}
