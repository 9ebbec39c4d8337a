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
    /// The members-only groups published sealed: their pages below the entry page have opaque
    /// names (`groups/<g>/sealed/<token>/`), which say nothing of albums, photos or events.
    public let sealing: Sealing
    /// The keys of the threads' addresses (`messages/<key>/`), with a secret.
    public let threadKeys: ThreadKeys?

    public init(baseURL: String, sealing: Sealing = [:], threadKeys: ThreadKeys? = nil) {
        self.sealing = sealing
        self.threadKeys = threadKeys
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

    /// Where an output is published (`file` gives the file it is written to): the one table of
    /// where each kind of output lives, which its renderer writes it to (`RoutesTests`).
    public func path(of id: OutputID) -> String {
        switch id {
        case .home: home
        case .members: members
        case .member(let mid): member(mid)
        case .progress(let mid): progress(mid)
        case .divers: divers
        case .groups: groups
        case .group(let gid): group(gid)
        case .leaderboard(let gid): leaderboard(gid)
        case .album(let key): album(key)
        case .photo(let key, let slug): photo(key, slug)
        case .areas: areas
        case .area(let aid): area(aid)
        case .report(let rid): report(rid)
        case .locations: locations
        case .location(let lid): location(lid)
        case .now: now
        case .notFound: Self.notFound
        case .sitemap: sitemap
        case .sitemapPart(let part): sitemapPart(part)
        case .robots: robots
        case .atom(let feed): self.feed(feed)
        case .jsonFeed(let feed): jsonFeed(self.feed(feed))
        case .geoJSON(let map): self.map(map)
        case .calendar(let calendar): self.calendar(calendar)
        case .events: events
        case .groupEvent(let key): groupEvent(key)
        case .diversIndex: diversIndex
        case .leaderboardJSON(let gid): leaderboardJSON(gid)
        case .thread(let tid): thread(threadKeys?.key(for: tid) ?? tid)
        case .search: search
        case .page(let pid): page(pid)
        case .cmsPage: cmsPage
        case .cmsConfig: cmsConfig
        case .manifest: manifest
        case .serviceWorker: serviceWorker
        case .offline: offline
        }
    }

    /// A feed's Atom file (its JSON Feed twin: `jsonFeed`).
    public func feed(_ id: FeedID) -> String {
        switch id {
        case .site: siteFeed
        case .area(let aid): areaFeed(aid)
        case .report(let rid): reportFeed(rid)
        case .group(let gid): groupFeed(gid)
        case .member(let mid): memberFeed(mid)
        case .following(let mid): followingFeed(mid)
        }
    }

    /// A map's GeoJSON file.
    public func map(_ id: MapID) -> String {
        switch id {
        case .reports: reportsMap
        case .area(let aid): areaMap(aid)
        case .locations: locationsMap
        case .album(let key): albumMap(key)
        }
    }

    public var home: String { "" }
    public var members: String { "users/" }
    public func member(_ id: String) -> String { "users/\(id)/" }
    /// iCalendar files of events: the site's, an area's and a member's.
    public var siteCalendar: String { "events.ics" }
    public func areaCalendar(_ id: String) -> String { "reports/\(id)/events.ics" }
    public func memberCalendar(_ id: String) -> String { "users/\(id)/events.ics" }
    public func groupCalendar(_ id: String) -> String { "groups/\(id)/events.ics" }
    /// A calendar's address for subscribing: `webcal://` instead of `https://`.
    public func webcal(_ path: String) -> String? {
        let url = absolute(path)
        return url.firstRange(of: "://").map { "webcal" + url[$0.lowerBound...] }
    }
    public func calendar(_ id: CalendarID) -> String {
        switch id {
        case .site: return siteCalendar
        case .area(let aid): return areaCalendar(aid)
        case .group(let gid): return groupCalendar(gid)
        case .member(let mid): return memberCalendar(mid)
        case .report(let rid): return report(rid) + "event.ics"
        case .groupEvent(let key): return groupEvent(key) + "event.ics"
        }
    }
    public func progress(_ id: String) -> String { "users/\(id)/progress/" }
    public func memberFeed(_ id: String) -> String { "users/\(id)/feed.xml" }
    public func followingFeed(_ id: String) -> String { "users/\(id)/following.xml" }
    public var divers: String { "divers/" }
    public var groups: String { "groups/" }
    public func group(_ id: String) -> String { "groups/\(id)/" }
    public func groupFeed(_ id: String) -> String { "groups/\(id)/feed.xml" }
    public func leaderboard(_ id: String) -> String { sealed(id, "groups/\(id)/leaderboard/") }
    /// A group's event: `groups/<group>/events/<event>/`.
    public func groupEvent(_ key: GroupEventKey) -> String { sealed(key.group, "groups/\(key.group)/events/\(key.event)/") }
    /// Every event of the site, upcoming and past.
    public var events: String { "events/" }
    public func album(_ key: AlbumKey) -> String { sealed(key.group, "groups/\(key.group)/albums/\(key.album)/") }
    public func photo(_ key: AlbumKey, _ slug: String) -> String { sealed(key.group, "groups/\(key.group)/albums/\(key.album)/\(slug)/") }
    /// Where a page of a members-only group is published: `groups/<g>/sealed/<token>/` for
    /// `path`, the page's path in the open (which is never written).
    func sealed(_ group: String, _ path: String) -> String {
        guard let sealed = sealing[group] else { return path }
        return Self.sealed(group, token: sealed.token(path)) + "/"
    }
    /// The folder of a members-only group's sealed files: `groups/<g>/sealed/<token>`.
    public static func sealed(_ group: String, token: String) -> String { "groups/\(group)/sealed/\(token)" }
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
    /// A page of the site's own, at the top: `join/` (its name is none of the site's own,
    /// `ContentLayout.reservedPageNames`).
    public func page(_ id: String) -> String { "\(id)/" }
    public var siteFeed: String { "feed.xml" }
    public var threads: String { "messages/" }
    public func thread(_ key: String) -> String { threads + "\(key)/" }

    // MARK: Data files

    /// The JSON Feed twin of an Atom feed: `feed.xml` → `feed.json`, `following.xml` →
    /// `following.json`.
    public func jsonFeed(_ atom: String) -> String { atom.hasSuffix(".xml") ? String(atom.dropLast(4)) + ".json" : atom + ".json" }
    public func leaderboardJSON(_ group: String) -> String { leaderboard(group) + "leaderboard.json" }
    public var diversIndex: String { divers + "index.json" }
    public func albumMap(_ key: AlbumKey) -> String { album(key) + "map.geojson" }
    public var sitemap: String { "sitemap.xml" }
    /// A part of a sitemap in parts (`SitemapPart`).
    func sitemapPart(_ part: SitemapPart) -> String {
        switch part {
        case .pages: return "sitemaps/pages.xml"
        case .area(let id): return "sitemaps/area-\(id).xml"
        }
    }
    /// The search page, and the folder of one search index (Pagefind's files).
    public var search: String { "search/" }
    public func searchIndex(_ shard: String) -> String { "pagefind/\(shard)/" }
    public var robots: String { "robots.txt" }
    /// The CMS for members who do not use git, and its configuration.
    public var cmsPage: String { "admin/" }
    public var cmsConfig: String { "admin/config.yml" }
    public static let notFound = "404.html"
    /// The site as an app: its manifest, its service worker (at the root of the site, whose
    /// pages it may serve: a worker's scope is its folder and below) and the page it shows
    /// offline for a page it does not hold.
    public var manifest: String { "manifest.webmanifest" }
    public var serviceWorker: String { "sw.js" }
    public var offline: String { "offline/" }

    /// A report's attachment, published under the report's page: `reports/<area>/<name>/<file>`
    /// (so relative links in the report's text work).
    public static func attachment(_ report: String, file: String) -> String { "reports/\(report)/" + file }

    /// The tag URI path of a goal's entries (`groups/<g>/goals/<id>`), which never changes.
    public func goalEntry(_ key: GoalKey) -> String { group(key.group) + "goals/\(key.goal)" }

    // MARK: Files plein makes

    /// A theme asset named by its content hash: `assets/style.3f2a1b9c0d.css`.
    public static func asset(stem: String, hash: String, extension ext: String) -> String {
        "assets/\(stem).\(hash)\(ext.isEmpty ? "" : "." + ext)"
    }
    /// An asset by its name alone (a theme without it).
    public static func asset(_ name: String) -> String { "assets/\(name)" }
    /// Leaflet's files, in a folder named by their hash.
    public static func leaflet(hash: String) -> String { "assets/leaflet.\(hash)/" }
    /// A derived image: `media/<hash>/<name>`.
    public static func media(hash: String, name: String) -> String { "media/\(hash)/\(name)" }
}
