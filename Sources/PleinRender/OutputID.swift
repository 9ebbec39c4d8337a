import PleinText
public import PleinModel
import PleinMarkdown
import Foundation
public import PleinCore

/// Names one output file of the site. The build renders each in parallel; the dev server
/// re-renders only the ones an edit touches.
public enum OutputID: Hashable, Sendable {
    case home
    case members
    case member(String)
    case progress(String)
    case divers
    case groups
    case group(String)
    case leaderboard(String)
    case album(AlbumKey)
    /// A photo's (or video's) page, by its slug (`PhotoModel.slug`, unique in its album).
    case photo(AlbumKey, String)
    case areas
    case area(String)
    case report(String)
    case locations
    case location(String)
    case now
    case notFound
    case sitemap
    /// A part of the sitemap, past `RenderOptions.sitemapSplit` reports (`sitemap.xml` is then
    /// their index).
    case sitemapPart(SitemapPart)
    case robots
    case atom(FeedID)
    case jsonFeed(FeedID)
    case geoJSON(MapID)
    /// An iCalendar file of events.
    case calendar(CalendarID)
    /// `/events/`: every public event, upcoming and past.
    case events
    case groupEvent(GroupEventKey)
    case diversIndex
    case leaderboardJSON(String)
    case thread(String)
    /// `/search/`, with a search index (`RenderOptions.search`).
    case search
    /// A page of the site's own (`pages/<id>.md`).
    case page(String)
    /// The CMS at `/admin/` and its `config.yml` (`cms` in site.yaml).
    case cmsPage
    case cmsConfig
    /// The site as an app (`site.yaml` `app`): its web app manifest, its service worker and the
    /// page the worker shows offline for a page it does not hold.
    case manifest
    case serviceWorker
    case offline

    /// The kinds of output: the one table of what a site can hold, with each kind's name (the
    /// start of its `key`) and its page template. The theme must have every template named here.
    public enum Kind: String, CaseIterable, Sendable {
        case home, members, member, progress, divers, groups, group, leaderboard, album, photo, areas, area, report
        case locations, location, now, notFound = "not-found", sitemap, sitemapPart = "sitemap-part", robots, atom, jsonFeed = "json-feed", geoJSON = "geojson"
        case calendar, events, groupEvent = "group-event", diversIndex = "divers-index", leaderboardJSON = "leaderboard-json"
        case thread, search, page, cmsPage = "cms-page", cmsConfig = "cms-config"
        case manifest, serviceWorker = "service-worker", offline

        /// The page template the kind is rendered with (nil for feeds, maps and other data).
        public var template: String? {
            switch self {
            case .home, .members, .member, .progress, .divers, .groups, .group, .leaderboard, .album, .photo, .areas, .area,
                 .report, .locations, .location, .now, .notFound, .thread, .events, .search, .page, .offline:
                return rawValue
            case .groupEvent: return "event"
            case .sitemap, .sitemapPart, .robots, .atom, .jsonFeed, .geoJSON, .calendar, .diversIndex, .leaderboardJSON, .cmsPage, .cmsConfig,
                 .manifest, .serviceWorker:
                return nil
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .home: return .home
        case .members: return .members
        case .member: return .member
        case .progress: return .progress
        case .divers: return .divers
        case .groups: return .groups
        case .group: return .group
        case .leaderboard: return .leaderboard
        case .album: return .album
        case .photo: return .photo
        case .areas: return .areas
        case .area: return .area
        case .report: return .report
        case .locations: return .locations
        case .location: return .location
        case .now: return .now
        case .notFound: return .notFound
        case .sitemap: return .sitemap
        case .sitemapPart: return .sitemapPart
        case .robots: return .robots
        case .atom: return .atom
        case .jsonFeed: return .jsonFeed
        case .geoJSON: return .geoJSON
        case .calendar: return .calendar
        case .events: return .events
        case .groupEvent: return .groupEvent
        case .diversIndex: return .diversIndex
        case .leaderboardJSON: return .leaderboardJSON
        case .thread: return .thread
        case .search: return .search
        case .page: return .page
        case .cmsPage: return .cmsPage
        case .cmsConfig: return .cmsConfig
        case .manifest: return .manifest
        case .serviceWorker: return .serviceWorker
        case .offline: return .offline
        }
    }

    /// The page template an output is rendered with (nil for feeds, maps and other data).
    public var template: String? { kind.template }

    /// The output made from the same data in another format: a feed's JSON Feed twin.
    var twin: OutputID? {
        switch self {
        case .atom(let feed): return feed.hasJSONTwin ? .jsonFeed(feed) : nil
        case .jsonFeed(let feed): return .atom(feed)
        default: return nil
        }
    }

    /// Groups outputs for `Renderer.render(batch:)`: twins together, everything else alone.
    public static func batches(_ ids: [OutputID]) -> [[OutputID]] {
        var batches: [[OutputID]] = []
        batches.reserveCapacity(ids.count)
        var waiting: [OutputID: Int] = [:]
        for id in ids {
            if let twin = id.twin, let index = waiting.removeValue(forKey: twin) {
                batches[index].append(id)
                continue
            }
            if id.twin != nil { waiting[id] = batches.count }
            batches.append([id])
        }
        return batches
    }

    /// Every feed: the site's, one per area, report with replies, published group and member, and
    /// one per member who follows reports.
    static func feeds(_ model: SiteModel) -> [FeedID] {
        var feeds: [FeedID] = [.site]
        feeds += model.areas.map { .area($0.id) }
        // A report's reply feed once it has a reply: most reports never get one, and an empty
        // feed per report was a third of the site's files (members follow a report without replies
        // through `follows` and their "following" feed).
        feeds += model.reportOrder.sortedByBytes().filter { model.reports[$0]?.replies.isEmpty == false }.map { .report($0) }
        feeds += model.groupOrder.map { .group($0) }
        if model.site.has(.members) {
            // A member who follows no report has no "following" feed: it could only ever be empty.
            // A member who left keeps their feeds, as their page.
            for id in model.memberOrder + model.formerMembers { feeds += memberFeeds(id, model) }
        }
        return feeds
    }

    private static func memberFeeds(_ id: String, _ model: SiteModel) -> [FeedID] {
        model.site.has(.reports) && model.members[id]?.follows.isEmpty == false ? [.member(id), .following(id)] : [.member(id)]
    }

    private static func memberPages(_ id: String, studying: Bool) -> [OutputID] {
        studying ? [.member(id), .progress(id)] : [.member(id)]
    }

    /// A feed's files: its Atom feed, and its JSON Feed where it has one.
    private static func files(of feed: FeedID) -> [OutputID] {
        feed.hasJSONTwin ? [.atom(feed), .jsonFeed(feed)] : [.atom(feed)]
    }

    /// The outputs that are a member's own, as `all` lists them: their page, their progress page
    /// once they have check-ins, their feeds.
    public static func ofMember(_ id: String, _ model: SiteModel) -> [OutputID] {
        guard model.site.has(.members) else { return [] }
        return memberPages(id, studying: model.sessions.contains { $0.member == id }) + memberFeeds(id, model).flatMap(files(of:))
    }

    /// Every output the model calls for, in a fixed order (the sitemap in parts past
    /// `sitemapSplit` reports).
    public static func all(_ model: SiteModel, sitemapSplit: Int = RenderOptions.sitemapSplit) -> [OutputID] {
        // A section the site leaves out has no pages: the model holds none of its records, and
        // its list pages (and the member pages, which hold no records of their own) are left out.
        let has = model.site.has
        var ids: [OutputID] = [.home]
        if has(.members) { ids.append(.members) }
        if has(.divers) { ids += [.divers, .diversIndex] }
        if has(.groups) { ids.append(.groups) }
        if has(.reports) { ids.append(.areas) }
        if has(.study) { ids.append(.locations) }
        if has(.now) { ids.append(.now) }
        ids += [.notFound, .sitemap, .robots]
        if SitemapPart.splits(reports: model.reportOrder.count, past: sitemapSplit) {
            ids += ([.pages] + model.areas.map { .area($0.id) }).map { .sitemapPart($0) }
        }
        if CMSConfig.isPublished(model.site) { ids += [.cmsPage, .cmsConfig] }
        // (A site that turns its app off still publishes `sw.js`: one that takes the worker away
        // from the browsers that have it.)
        ids += model.site.app.enabled ? [.manifest, .serviceWorker, .offline] : [.serviceWorker]
        let studying = Set(model.sessions.map(\.member))
        for id in model.memberOrder + model.formerMembers where has(.members) { ids += memberPages(id, studying: studying.contains(id)) }
        for gid in model.groupOrder {
            let group = model.groups[gid]!
            ids.append(.group(gid))
            if group.hasGoals { ids += [.leaderboard(gid), .leaderboardJSON(gid)] }
            if has(.groups) { ids += group.events.map { .groupEvent($0.key) } }
            for album in group.albums {
                ids.append(.album(album.key))
                ids += album.photos.map { .photo(album.key, $0.slug) }
            }
        }
        ids += model.areas.map { .area($0.id) }
        ids += model.reportOrder.sortedByBytes().map { .report($0) }
        ids += model.locations.map { .location($0.id) }
        ids += model.pages.map { .page($0.id) }
        for feed in feeds(model) { ids += files(of: feed) }
        if has(.reports) { ids.append(.geoJSON(.reports)) }
        if has(.study) { ids.append(.geoJSON(.locations)) }
        ids += model.areas.map { .geoJSON(.area($0.id)) }
        let calendars = CalendarID.all(model)
        if calendars.contains(.site) { ids.append(.events) }
        ids += calendars.map { .calendar($0) }
        return ids
    }
}
