public import PleinCore
import Foundation
import PleinModel

extension OutputID {
    /// The members-only group whose page this is, when the group is published sealed: its
    /// entry page, leaderboard, albums, photos and events.
    func sealedGroup(in sealing: Sealing) -> SealedGroup? {
        guard !sealing.isEmpty else { return nil }
        switch self {
        case .group(let g), .leaderboard(let g): return sealing[g]
        case .album(let key), .photo(let key, _): return sealing[key.group]
        case .groupEvent(let key): return sealing[key.group]
        // Every other output is no page of one group: its feeds, calendars and maps are left out
        // instead (`isLeftOut`); the rest never holds a members-only group's content.
        case .home, .members, .member, .progress, .divers, .groups, .areas, .area, .report, .locations, .location, .now, .notFound,
             .sitemap, .sitemapPart, .robots, .atom, .jsonFeed, .geoJSON, .calendar, .events, .diversIndex, .leaderboardJSON, .thread, .search, .page,
             .cmsPage, .cmsConfig, .manifest, .serviceWorker, .offline:
            return nil
        }
    }

    /// Whether this is a page of a group (which a members-only group publishes sealed).
    public var isGroupPage: Bool {
        switch kind {
        case .group, .leaderboard, .album, .photo, .groupEvent: true
        case .home, .members, .member, .progress, .divers, .groups, .areas, .area, .report, .locations, .location, .now, .notFound,
             .sitemap, .sitemapPart, .robots, .atom, .jsonFeed, .geoJSON, .calendar, .events, .diversIndex, .leaderboardJSON, .thread, .search, .page,
             .cmsPage, .cmsConfig, .manifest, .serviceWorker, .offline:
            false
        }
    }

    /// Whether this output of a members-only group is left out: what cannot be sealed for its
    /// readers (feeds, calendars, GeoJSON, leaderboard JSON) is not published at all. Every kind
    /// is named, so that a new one is decided here rather than published in the open by omission.
    func isLeftOut(sealing: Sealing) -> Bool {
        guard !sealing.isEmpty else { return false }
        switch self {
        case .leaderboardJSON(let g): return sealing[g] != nil
        case .atom(let feed), .jsonFeed(let feed):
            switch feed {
            case .group(let g): return sealing[g] != nil
            case .site, .area, .report, .member, .following: return false
            }
        case .calendar(let calendar):
            switch calendar {
            case .group(let g): return sealing[g] != nil
            case .groupEvent(let key): return sealing[key.group] != nil
            case .site, .area, .member, .report: return false
            }
        case .geoJSON(let map):
            switch map {
            case .album(let key): return sealing[key.group] != nil
            case .reports, .area, .locations: return false
            }
        // Pages: a group's are sealed (`sealedGroup`), the others hold nothing of the group.
        case .home, .members, .member, .progress, .divers, .groups, .group, .leaderboard, .album, .photo, .areas, .area, .report,
             .locations, .location, .now, .notFound, .sitemap, .sitemapPart, .robots, .events, .groupEvent, .diversIndex, .thread, .search, .page,
             .cmsPage, .cmsConfig, .manifest, .serviceWorker, .offline:
            return false
        }
    }
}

/// The page that stands for a members-only group's page, or a thread's, in the open: the site's
/// frame, a form for the group's passphrase (a thread's key is in its link), and the page itself
/// sealed (`SealedGroup.seal`), which `unlock.js` opens in the browser. It says nothing of the
/// group or thread but its address.
struct SealedPage: Rendering {
    let inputs: RenderInputs

    struct Values: TemplateValues, Encodable {
        /// The sealed page, base64.
        let envelope: String
        /// Its path in the output folder, which its key is bound to.
        let path: String
        /// How the group key comes from the passphrase; nil for a thread, whose link carries its key.
        let derivation: Derivation?
    }

    /// PBKDF2's salt (base64) and iterations.
    struct Derivation: TemplateValues, Encodable {
        let salt: String
        let iterations: Int
    }

    func render(_ open: OutputFile, kind: OutputID.Kind, group: SealedGroup, byLink: Bool = false) -> OutputFile {
        // The dev server's reload script is in the page around it, not sealed in it: what is
        // sealed is what a build seals.
        var plain = open.bytes
        if let injection = inputs.options.pageFooterInjection, let range = plain.firstRange(of: Array(injection.utf8)) { plain.removeSubrange(range) }
        let envelope = group.seal(plain, at: open.path)
        let path = open.path.hasSuffix("index.html") ? String(open.path.dropLast("index.html".count)) : open.path
        var page = Page(
            kind: kind, path: path, title: strings[byLink ? "sealed_thread_title" : "sealed_title"],
            description: strings[byLink ? "sealed_thread_description" : "sealed_description"], section: byLink ? .none : .groups)
        page.templateName = "sealed"
        page.noindex = true
        page.nofollow = true
        page.fileName = open.path
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        // The site's frame as every page has it: its feed too (the group's or thread's own is not published).
        page.feeds = [siteFeed]
        page.values = Values(
            envelope: Data(envelope).base64EncodedString(), path: open.path,
            derivation: byLink ? nil : Derivation(salt: Data(group.salt).base64EncodedString(), iterations: group.iterations))
        return PageFrame(inputs: inputs).render(page)
    }
}
