import Foundation
import PleinCore
@testable import PleinBuild
import Testing

/// A community's own site: the sections it has, its own words, and what its first hour shows.
@Suite(.serialized) struct CommunityTests {
    /// A copy of the demo with changes, built in memory.
    struct Site {
        let dir = TempDir()
        var content: String { dir.path + "/content" }

        init(siteYAML change: (String) -> String = { $0 }) throws {
            try copyTree(Repo.content, to: content)
            let path = content + "/site.yaml"
            try change(try String(contentsOfFile: path, encoding: .utf8)).write(toFile: path, atomically: true, encoding: .utf8)
        }

        func write(_ relative: String, _ text: String) throws {
            let path = content + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func build() -> SiteState {
            SiteState(BuildOptions(content: content, templates: Repo.templates, output: dir.path + "/public", cache: Repo.cache("community")),
                      tracking: false)
        }
    }

    func text(_ state: SiteState, _ path: String) -> String? {
        guard case .bytes(let bytes)? = state.files[path] else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aSectionThatIsOffLeavesNoTrace() throws {
        let site = try Site { $0 + "sections: [members, divers, groups]\n" }
        defer { site.dir.cleanup() }
        let state = site.build()
        #expect(state.succeeded)
        let paths = state.files.keys
        #expect(!paths.contains { $0.hasPrefix("reports/") || $0.hasPrefix("locations/") || $0.hasPrefix("now/") })
        #expect(!paths.contains { $0.hasSuffix("/following.xml") || $0.hasSuffix("/progress/index.html") })
        let home = try #require(text(state, "index.html"))
        #expect(!home.contains("href=\"/reports/\"") && !home.contains("recent-reports") && !home.contains("href=\"/locations/\""))
        #expect(home.contains("href=\"/divers/\"") && home.contains("recent-albums"))
        let sitemap = try #require(text(state, "sitemap.xml"))
        #expect(!sitemap.contains("/reports/") && !sitemap.contains("/now/") && sitemap.contains("/groups/"))
        let feed = try #require(text(state, "feed.xml"))
        #expect(!feed.contains("/reports/"))
        let profile = try #require(text(state, "users/anna-de-vries/index.html"))
        #expect(!profile.contains("member-reports") && !profile.contains("member-study") && profile.contains("member-groups"))
        let warnings = state.diagnostics.filter { if case .sectionOff = $0.problem { return true } else { return false } }
        #expect(warnings.map(\.file).sorted() == ["\(site.content)/checkins", "\(site.content)/locations", "\(site.content)/reports"])
        #expect(!state.diagnostics.hasErrors)
    }

    @Test func withoutMembersNamesAreNotLinks() throws {
        let site = try Site { $0 + "sections: [groups, reports]\n" }
        defer { site.dir.cleanup() }
        let state = site.build()
        #expect(state.succeeded)
        #expect(!state.files.keys.contains { $0.hasPrefix("users/") || $0.hasPrefix("divers/") })
        let area = try #require(text(state, "reports/1094/index.html"))
        #expect(area.contains("<span class=\"member-chip p-author h-card\">") && !area.contains("href=\"/users/"))
        #expect(state.diagnostics.contains { if case .divingCardsOff = $0.problem { return true } else { return false } })
    }

    /// A member who left keeps their page and what they posted, without an error where a group
    /// or a goal still names them, and leaves the member list, the divers, the group's members
    /// and its leaderboard.
    @Test func aMemberWhoLeftKeepsTheirPageAndLeavesTheLists() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let file = site.content + "/users/bram-van-dijk.md"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try site.write("users/bram-van-dijk.md", original.replacingOccurrences(of: "joined: 2026-08-22\n", with: "joined: 2026-08-22\nleft: 2026-11-01\n"))
        let state = site.build()
        #expect(state.succeeded, "\(state.diagnostics.filter { $0.severity == .error }.map(\.message))")
        let page = try #require(text(state, "users/bram-van-dijk/index.html"))
        #expect(page.contains("Oud-lid, vertrokken") && page.contains("Duikclub De Zeehond"), "their page says they left, and their groups")
        let list = try #require(text(state, "users/index.html"))
        #expect(!list.contains("/users/bram-van-dijk/"), "not in the member list")
        let divers = try #require(text(state, "divers/index.json"))
        #expect(!divers.contains("bram-van-dijk"), "not among the divers")
        let group = try #require(text(state, "groups/duikclub-de-zeehond/index.html"))
        let start = try #require(group.range(of: "id=\"group-members\"")).upperBound
        let members = group[start..<(group[start...].range(of: "</section>")?.lowerBound ?? group.endIndex)]
        #expect(!members.contains("/users/bram-van-dijk/"), "not among the group's members")
        #expect(try #require(text(state, "sitemap.xml")).contains("/users/bram-van-dijk/"), "their page is still in the sitemap")
        #expect(text(state, "users/bram-van-dijk/feed.xml") != nil, "and their feed")
    }

    /// A site's `profile` chooses the parts of a member's page beyond their own records.
    @Test func aSitesProfileSettingChoosesThePartsOfAMembersPage() throws {
        let site = try Site { $0 + "profile: [follows]\n" }
        defer { site.dir.cleanup() }
        let state = site.build()
        #expect(state.succeeded)
        let page = try #require(text(state, "users/anna-de-vries/index.html"))
        #expect(!page.contains("id=\"member-friends\"") && !page.contains("id=\"member-points\"") && page.contains("id=\"member-follows\""))
        let everything = try Site()
        defer { everything.dir.cleanup() }
        let full = try #require(text(everything.build(), "users/anna-de-vries/index.html"))
        #expect(full.contains("id=\"member-friends\"") && full.contains("id=\"member-points\""), "all three by default")
    }

    @Test func aSiteWithoutItsAppPublishesAWorkerThatTakesItselfAway() throws {
        let site = try Site { $0 + "app:\n  enabled: false\n" }
        defer { site.dir.cleanup() }
        let state = site.build()
        #expect(state.succeeded)
        #expect(text(state, "manifest.webmanifest") == nil && text(state, "offline/index.html") == nil)
        // Phones that installed the site before keep no worker of it.
        let worker = try #require(text(state, "sw.js"))
        #expect(worker.contains("unregister()") && !worker.contains("importScripts"))
        let home = try #require(text(state, "index.html"))
        #expect(!home.contains("rel=\"manifest\"") && !home.contains("apple-touch-icon") && !home.contains("theme-color"))
    }

    @Test func theAppTakesTheSitesIconAndColoursAndSaysWhatItCannotUse() throws {
        let site = try Site { $0 + "app:\n  short_name: Buurtboek\n  icon: logo.jpg\n  theme_color: '#0A7'\n  background_color: blue\n" }
        defer { site.dir.cleanup() }
        // The site's own theme folder, with its icon (a square crop of a photo).
        let templates = site.dir.path + "/templates"
        try copyTree(Repo.templates, to: templates)
        try FileManager.default.copyItem(atPath: Repo.content + "/users/anna-de-vries.jpg", toPath: templates + "/assets/logo.jpg")
        let state = SiteState(BuildOptions(content: site.content, templates: templates, output: site.dir.path + "/public",
                                           cache: site.dir.path + "/cache"), tracking: false)
        #expect(state.succeeded)
        let colour = state.diagnostics.first { if case .invalidColour = $0.problem { return true } else { return false } }
        #expect(colour?.severity == .warning && colour?.message.contains("'background_color' is 'blue'") == true && colour?.file.hasSuffix("site.yaml") == true)
        let manifest = try #require(text(state, "manifest.webmanifest"))
        #expect(manifest.contains("\"short_name\": \"Buurtboek\"") && manifest.contains("\"theme_color\": \"#0a7\"")
                && manifest.contains("\"background_color\": \"#f6f5f1\""), "\(manifest)")
        // (Android's maskable icon too: the icon in the middle of a square of the background.)
        for (name, size) in [("app-icon-180", 180), ("app-icon-192", 192), ("app-icon-512", 512), ("app-icon-maskable-512", 512)] {
            guard case .bytes(let png)? = state.files.first(where: { $0.key.hasPrefix("assets/\(name).") })?.value else {
                Issue.record("no \(name) icon")
                continue
            }
            // PNG: the signature, then IHDR's width and height.
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && width == size && height == size, "\(name): \(width)×\(height)")
        }
        // An icon the theme lacks: a warning at site.yaml, and the theme's vector icon in the manifest.
        let missing = try Site { $0 + "app:\n  icon: nowhere.png\n" }
        defer { missing.dir.cleanup() }
        let without = missing.build()
        #expect(without.succeeded)
        let warning = without.diagnostics.first { if case .appIcon = $0.problem { return true } else { return false } }
        #expect(warning?.severity == .warning && warning?.message.contains("nowhere.png") == true && warning?.file.hasSuffix("content/site.yaml") == true)
        #expect(text(without, "manifest.webmanifest")?.contains("image/svg+xml") == true)
    }

    @Test func labelsAreTheSitesOwnWords() throws {
        let site = try Site { $0 + "labels:\n  nav_reports: Duikstekken\n  nav_repots: Oeps\n" }
        defer { site.dir.cleanup() }
        let state = site.build()
        #expect(state.succeeded)
        let home = try #require(text(state, "index.html"))
        #expect(home.contains(">Duikstekken</a>"))
        let unknown = state.diagnostics.first { if case .unknownLabel = $0.problem { return true } else { return false } }
        #expect(unknown?.message == "the theme has no interface text 'nav_repots', so this label is not used")
        #expect(unknown?.problem.suggestion == "did you mean 'nav_reports'?")
        // The labels come after the demo's site.yaml: "labels:", then the two keys.
        let first = try String(contentsOfFile: Repo.content + "/site.yaml", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(unknown?.span.line == first + 2)
        // The menu says "Duikstekken", but the texts that say "Meldingen" still do: said once,
        // on the label, with the texts to rename as well.
        let partners = state.diagnostics.first { if case .labelLeavesPartners = $0.problem { return true } else { return false } }
        let message = partners?.message ?? ""
        #expect(message.hasPrefix("'nav_reports' renames 'Meldingen', which ") && message.contains("'areas_title'"), "\(message)")
        #expect(partners?.severity == .warning && partners?.span.line == first + 1)
    }

    @Test func anAreaNamedLikeItsIdIsShownOnceAndAnEmptyDescriptionIsLeftOut() throws {
        let site = try Site { $0.replacing(#/description: .*\n/#, with: "description: \"\"\n") }
        defer { site.dir.cleanup() }
        try site.write("reports/oosterschelde/area.yaml", "name: Oosterschelde\ncenter: {lat: 51.6, lon: 3.9}\n")
        try site.write("reports/oosterschelde/2026-10-01-zicht.md",
                       "---\ntitle: Zicht\ncategory: message\nat: 2026-10-01T10:00:00+02:00\nauthor: anna-de-vries\nlocation: {lat: 51.6, lon: 3.9}\n---\nGoed.\n")
        let state = site.build()
        #expect(state.succeeded)
        let area = try #require(text(state, "reports/oosterschelde/index.html"))
        #expect(area.contains("<h1>Oosterschelde</h1>") || area.contains(">Oosterschelde</h1>"))
        #expect(!area.contains("oosterschelde · Oosterschelde"))
        #expect(try #require(text(state, "reports/1094/index.html")).contains("1094 · "))
        #expect(!area.contains(" — </p>"), "no dash before an empty description")
    }

    /// A member's feed says briefly what they did: a long report is its summary there, and whole
    /// in its area's feed.
    @Test func aMembersFeedIsBrief() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let long = String(repeating: "Een lange zin over de buurt die steeds maar doorgaat. ", count: 60)
        try site.write("reports/1094/2026-10-20-lang-verhaal.md", """
            ---
            title: Een lang verhaal
            category: message
            at: 2026-10-20T09:00:00+02:00
            author: anna-de-vries
            location: {lat: 52.3631, lon: 4.9402}
            ---
            \(long)

            """)
        let state = site.build()
        #expect(state.succeeded)
        func entry(_ feed: String) throws -> String {
            let whole = try #require(text(state, feed))
            return try #require(whole.components(separatedBy: "<entry>").first { $0.contains("Een lang verhaal") })
        }
        let member = try entry("users/anna-de-vries/feed.xml"), area = try entry("reports/1094/feed.xml")
        #expect(area.utf8.count > 3000 && member.utf8.count < 1500, "member \(member.utf8.count) bytes, area \(area.utf8.count)")
        #expect(member.contains("<summary>") && member.contains("<content type=\"html\">&lt;p&gt;Een lange zin"))
        // Feeds of one record are Atom only; the site's, areas' and groups' have JSON Feed twins.
        #expect(text(state, "users/anna-de-vries/feed.json") == nil && text(state, "reports/1094/feed.json") != nil)
    }

    /// A report's reply feed is there once the report has a reply, and the page offers it then;
    /// before, the page says so and offers its area's feed.
    @Test func aReportsReplyFeedComesWithItsFirstReply() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let report = "reports/1094/2026-10-20-stil/"
        try site.write("reports/1094/2026-10-20-stil/index.md",
                       "---\ntitle: Stil\ncategory: message\nat: 2026-10-20T09:00:00+02:00\nauthor: anna-de-vries\nlocation: {lat: 52.3631, lon: 4.9402}\n---\nRustig.\n")
        var state = site.build()
        #expect(state.succeeded)
        #expect(text(state, report + "feed.xml") == nil && text(state, report + "feed.json") == nil)
        let quiet = try #require(text(state, report + "index.html"))
        #expect(!quiet.contains(report + "feed.xml"), "no link to a feed that is not there")
        #expect(quiet.contains("href=\"/reports/1094/feed.xml\""))
        #expect(quiet.contains("De reacties krijgen een eigen feed bij de eerste reactie."))

        try site.write(report + "replies/20261021T0800-bram-van-dijk.md", "---\nauthor: bram-van-dijk\nat: 2026-10-21T08:00:00+02:00\n---\nGoed zo.\n")
        state = site.build()
        #expect(state.succeeded)
        let feed = try #require(text(state, report + "feed.xml"))
        #expect(feed.contains("Goed zo."))
        let page = try #require(text(state, report + "index.html"))
        #expect(page.contains("<link rel=\"alternate\" type=\"application/atom+xml\"") && page.contains(report + "feed.xml"))
    }

    @Test func anAlbumIsOneFeedEntryByItsAuthorOnItsDate() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let index = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland/index.md"
        let album = try String(contentsOfFile: site.content + "/" + index, encoding: .utf8)
        try site.write(index, album.replacingOccurrences(of: "date: 2026-09-12\n", with: "date: 2026-09-12\nby: zoe-jansen\n"))
        let state = site.build()
        #expect(state.succeeded)
        let feed = try #require(text(state, "groups/duikclub-de-zeehond/feed.xml"))
        let ids = feed.components(separatedBy: "<id>").dropFirst().map { $0.components(separatedBy: "</id>")[0] }
        #expect(ids.filter { $0.contains("/albums/duikweekend-zeeland") } == [
            "tag:buurtboek.example.nl,2026-09-12:/groups/duikclub-de-zeehond/albums/duikweekend-zeeland",
        ], "one entry for the album, none per photo")
        let entry = try #require(feed.components(separatedBy: "<entry>").first { $0.contains("Duikweekend Zeeland") })
        #expect(entry.contains("<published>2026-09-11T22:00:00Z</published>"), "the album's date, midnight in the site's zone")
        #expect(entry.contains("<name>Zoë Jansen</name>"))
        #expect(entry.contains("zeelandbrug"), "the photos are inside")
    }

    @Test func theGalleryShowsWholePhotosWithTheirAuthorAndUntitledOnesAreDescribed() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let index = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland/index.md"
        let album = try String(contentsOfFile: site.content + "/" + index, encoding: .utf8)
        try site.write(index, album.replacingOccurrences(of: "    caption: Schol op de zandbodem op twaalf meter.\n", with: ""))
        let state = site.build()
        let page = try #require(text(state, "groups/duikclub-de-zeehond/albums/duikweekend-zeeland/index.html"))
        #expect(page.contains("class=\"photo-by\""))
        #expect(page.contains("alt=\"Foto 4 uit Duikweekend Zeeland, gemaakt door Zoë Jansen\""))
        #expect(!page.contains("alt=\"\" loading"))
        let css = state.files.keys.first { $0.hasPrefix("assets/style.") }.flatMap { text(state, $0) } ?? ""
        #expect(css.contains(".gallery img { width: 100%; height: 100%; object-fit: contain;"))
    }

    @Test func prefilledFilesFollowTheSitesLanguageBranchAndZone() throws {
        // Without the demo's CMS, whose links take the place of the forge's new-file pages.
        let site = try Site {
            $0.replacingOccurrences(of: "language: nl", with: "language: en").replacing(#/cms:\n  version: .*\n/#, with: "")
                + "repository_branch: trunk\n"
        }
        defer { site.dir.cleanup() }
        let state = site.build()
        let report = try #require(text(state, "reports/1094/2026-10-10-auto-inbraken-celebesstraat/index.html"))
        let link = try #require(report.components(separatedBy: "href=\"").first { $0.hasPrefix("https://github.com/buurtboek/buurtboek-oost/new/") })
        #expect(link.hasPrefix("https://github.com/buurtboek/buurtboek-oost/new/trunk/content/reports/1094/2026-10-10-auto-inbraken-celebesstraat/replies"))
        #expect(link.contains("filename=YYYYMMDDTHHMM-member.md"))
        let value = (link.components(separatedBy: "value=").last ?? "").components(separatedBy: "\"").first?.removingPercentEncoding ?? ""
        #expect(value.contains("author: your-id\n"))
        #expect(value.contains("at: YYYY-MM-DDTHH:MM:00+01:00") || value.contains("at: YYYY-MM-DDTHH:MM:00+02:00"))
        let edit = try #require(report.components(separatedBy: "href=\"").first { $0.contains("/edit/") })
        #expect(edit.hasPrefix("https://github.com/buurtboek/buurtboek-oost/edit/trunk/content/"))
        let area = try #require(text(state, "reports/1094/index.html"))
        #expect(area.contains("-title.md"))
    }
}
