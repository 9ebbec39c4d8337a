public import PleinModel
public import PleinCore

// The keys of outputs: the stable names the build store and the query graph know them by
// (`OutputID.key`), and the outputs they name again (`OutputID(key:)`).

extension OutputID {
    /// A stable name for the output (the same in every run): how the build store keeps it.
    public var key: String { argument.map { kind.rawValue + ":" + $0 } ?? kind.rawValue }

    /// The output a `key` names (the inverse of `key`); nil for a key no output has.
    public init?(key: String) {
        let (name, argument): (Substring, String?) = key.firstIndex(of: ":").map { (key[..<$0], String(key[key.index(after: $0)...])) } ?? (Substring(key), nil)
        guard let kind = Kind(rawValue: String(name)) else { return nil }
        /// `first/second`, split at the first slash (group, album and event ids hold none).
        func pair(_ text: String) -> (String, String)? {
            guard let slash = text.firstIndex(of: "/") else { return nil }
            return (String(text[..<slash]), String(text[text.index(after: slash)...]))
        }
        guard let argument else {
            switch kind {
            case .home: self = .home
            case .members: self = .members
            case .divers: self = .divers
            case .groups: self = .groups
            case .areas: self = .areas
            case .locations: self = .locations
            case .now: self = .now
            case .notFound: self = .notFound
            case .sitemap: self = .sitemap
            case .robots: self = .robots
            case .events: self = .events
            case .diversIndex: self = .diversIndex
            case .search: self = .search
            case .cmsPage: self = .cmsPage
            case .cmsConfig: self = .cmsConfig
            case .manifest: self = .manifest
            case .serviceWorker: self = .serviceWorker
            case .offline: self = .offline
            // Kinds that name one record or file: a key without its argument names nothing.
            case .member, .progress, .group, .leaderboard, .album, .photo, .area, .report, .location, .atom, .jsonFeed, .geoJSON, .sitemapPart,
                 .calendar, .groupEvent, .leaderboardJSON, .thread, .page:
                return nil
            }
            return
        }
        switch kind {
        case .member: self = .member(argument)
        case .progress: self = .progress(argument)
        case .group: self = .group(argument)
        case .leaderboard: self = .leaderboard(argument)
        case .area: self = .area(argument)
        case .report: self = .report(argument)
        case .location: self = .location(argument)
        case .page: self = .page(argument)
        case .leaderboardJSON: self = .leaderboardJSON(argument)
        case .thread: self = .thread(argument)
        case .album:
            guard let (group, album) = pair(argument) else { return nil }
            self = .album(AlbumKey(group: group, album: album))
        case .photo:
            guard let (group, rest) = pair(argument), let (album, slug) = pair(rest), !slug.isEmpty else { return nil }
            self = .photo(AlbumKey(group: group, album: album), slug)
        case .groupEvent:
            guard let (group, event) = pair(argument) else { return nil }
            self = .groupEvent(GroupEventKey(group: group, event: event))
        case .atom, .jsonFeed:
            let feed: FeedID
            if argument == "site" {
                feed = .site
            } else {
                guard let (prefix, id) = pair(argument) else { return nil }
                switch prefix {
                case "area": feed = .area(id)
                case "report": feed = .report(id)
                case "group": feed = .group(id)
                case "member": feed = .member(id)
                case "following": feed = .following(id)
                default: return nil
                }
            }
            self = kind == .atom ? .atom(feed) : .jsonFeed(feed)
        case .sitemapPart:
            guard let part = SitemapPart(key: argument) else { return nil }
            self = .sitemapPart(part)
        case .geoJSON:
            switch argument {
            case "reports": self = .geoJSON(.reports)
            case "locations": self = .geoJSON(.locations)
            default:
                guard let (prefix, id) = pair(argument) else { return nil }
                if prefix == "area" {
                    self = .geoJSON(.area(id))
                } else if prefix == "album", let (group, album) = pair(id) {
                    self = .geoJSON(.album(AlbumKey(group: group, album: album)))
                } else {
                    return nil
                }
            }
        case .calendar:
            if argument == "site" {
                self = .calendar(.site)
            } else {
                guard let (prefix, id) = pair(argument) else { return nil }
                switch prefix {
                case "area": self = .calendar(.area(id))
                case "group": self = .calendar(.group(id))
                case "member": self = .calendar(.member(id))
                case "report": self = .calendar(.report(id))
                case "event":
                    guard let (group, event) = pair(id) else { return nil }
                    self = .calendar(.groupEvent(GroupEventKey(group: group, event: event)))
                default: return nil
                }
            }
        // Kinds that are one file of the site: a key with an argument names nothing.
        case .home, .members, .divers, .groups, .areas, .locations, .now, .notFound, .sitemap, .robots, .events, .diversIndex, .search,
             .cmsPage, .cmsConfig, .manifest, .serviceWorker, .offline:
            return nil
        }
    }

    /// What tells this output from the others of its kind (nil for the site's single pages).
    private var argument: String? {
        switch self {
        case .home, .members, .divers, .groups, .areas, .locations, .now, .notFound, .sitemap, .robots, .events, .diversIndex, .search,
             .cmsPage, .cmsConfig, .manifest, .serviceWorker, .offline:
            return nil
        case .member(let id), .progress(let id), .group(let id), .leaderboard(let id), .area(let id), .report(let id), .location(let id),
             .leaderboardJSON(let id), .thread(let id), .page(let id):
            return id
        case .album(let key): return key.group + "/" + key.album
        case .photo(let key, let slug): return key.group + "/" + key.album + "/" + slug
        case .atom(let feed), .jsonFeed(let feed): return feed.key
        case .sitemapPart(let part): return part.key
        case .geoJSON(let map): return map.key
        case .calendar(let calendar): return calendar.key
        case .groupEvent(let key): return key.group + "/" + key.event
        }
    }
}

extension FeedID {
    var key: String {
        switch self {
        case .site: return "site"
        case .area(let id): return "area/" + id
        case .report(let id): return "report/" + id
        case .group(let id): return "group/" + id
        case .member(let id): return "member/" + id
        case .following(let id): return "following/" + id
        }
    }
}

extension CalendarID {
    var key: String {
        switch self {
        case .site: return "site"
        case .area(let id): return "area/" + id
        case .group(let id): return "group/" + id
        case .member(let id): return "member/" + id
        case .report(let id): return "report/" + id
        case .groupEvent(let key): return "event/" + key.group + "/" + key.event
        }
    }
}

/// A part of a sitemap split in parts: the pages that are no report's nor an area's, or an
/// area's page with its reports.
public enum SitemapPart: Hashable, Sendable {
    case pages
    case area(String)

    var key: String {
        switch self {
        case .pages: return "pages"
        case .area(let id): return "area/" + id
        }
    }

    init?(key: String) {
        if key == "pages" { self = .pages } else if key.hasPrefix("area/"), key.count > 5 { self = .area(String(key.dropFirst(5))) } else { return nil }
    }

    /// Whether a site of `reports` reports has its sitemap in parts (the sitemap protocol allows
    /// 50,000 URLs a file).
    public static func splits(reports: Int, past limit: Int) -> Bool { reports > limit }
}

extension MapID {
    var key: String {
        switch self {
        case .reports: return "reports"
        case .area(let id): return "area/" + id
        case .locations: return "locations"
        case .album(let key): return "album/" + key.group + "/" + key.album
        }
    }
}
