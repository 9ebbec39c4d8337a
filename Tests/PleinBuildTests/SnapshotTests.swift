import Foundation
import Synchronization
@testable import PleinBuild
import PleinCore
import PleinModel
import PleinRender
import PleinTestSupport
import Testing

/// One of every output kind of a small fixture site (every page kind, every feed in its formats,
/// the GeoJSON maps with their SVG drawings and the charts inside pages, the JSON indexes, the
/// sitemap and robots.txt), compared byte for byte with the files in `Snapshots/`. Re-record
/// with `RECORD_SNAPSHOTS=1 swift test --filter SnapshotTests` and read the diff before
/// committing it.
@Suite(.serialized) struct SnapshotTests {
    static let album = "groups/duikclub/albums/zeeland/"
    static let report = "reports/1094/2026-10-02-fiets-gestolen/"
    static let pages = [
        "index.html", "404.html", "users/index.html", "users/anna-de-vries/index.html", "users/anna-de-vries/progress/index.html",
        "divers/index.html", "groups/index.html", "groups/duikclub/index.html", "groups/duikclub/leaderboard/index.html",
        album + "index.html", album + "den-osse-instap/index.html", album + "haven-brouwershaven-filmpje/index.html", "reports/index.html", "reports/1094/index.html",
        report + "index.html", "groups/duikclub/events/nachtduik/index.html", "events/index.html", "locations/index.html", "locations/oba/index.html", "now/index.html", "messages/KEY/index.html",
        "search/index.html", "lid-worden/index.html", "offline/index.html",
    ]
    /// Feeds with a JSON Feed twin, then those that are Atom only (one per record).
    static let feeds = ["feed", "reports/1094/feed", "groups/duikclub/feed"].flatMap { [$0 + ".xml", $0 + ".json"] }
        + ["users/anna-de-vries/feed.xml", "users/anna-de-vries/following.xml", report + "feed.xml"]
    static let data = [
        "reports/map.geojson", "reports/1094/map.geojson", "locations/map.geojson", album + "map.geojson", "divers/index.json",
        "groups/duikclub/leaderboard/leaderboard.json", "sitemap.xml", "sitemaps/pages.xml", "sitemaps/area-1094.xml", "robots.txt",
        "events.ics", "reports/1094/events.ics", "users/bram/events.ics", "groups/duikclub/events.ics",
        "groups/duikclub/events/nachtduik/event.ics", "reports/1094/2026-10-04-buurtfeest/event.ics",
        "admin/index.html", "admin/config.yml", "manifest.webmanifest", "sw.js",
    ]
    static let outputs = pages + feeds + data

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Asset names carry a content hash; a theme tweak should not rewrite every snapshot.
    /// A thread's address is made from the build's secret: `messages/KEY/` in the snapshots.
    static func normalized(_ text: String) -> String {
        text.replacing(/\.[0-9a-f]{10}\.(css|js|svg|png)/) { ".HASH.\($0.output.1)" }
            // (The service worker's version is a hash of the assets it keeps, among others.)
            .replacing(/"version": "[0-9a-f]{16}"/) { _ in "\"version\": \"HASH\"" }
            .replacing(/leaflet\.[0-9a-f]{10}\//) { _ in "leaflet.HASH/" }
            .replacing(/messages\/[A-Za-z0-9_-]{8,}\//) { _ in "messages/KEY/" }
    }

    @Test(arguments: outputs)
    func matchesSnapshot(_ output: String) throws {
        let built = try Self.site()
        var path = built + "/" + output
        if output.hasPrefix("messages/KEY/") {
            let key = try FileManager.default.contentsOfDirectory(atPath: built + "/messages").sorted()
            try #require(key.count == 1)
            path = built + "/" + output.replacingOccurrences(of: "KEY", with: key[0])
        }
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if output == "messages/KEY/index.html" { text = try Self.opened(thread: text, at: String(path.dropFirst(built.count + 1))) }
        let actual = Self.normalized(text)
        let file = Self.folder.appendingPathComponent(output.replacingOccurrences(of: "/", with: "__"))
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(output) differs from its snapshot; re-record with RECORD_SNAPSHOTS=1 if intended")
    }

    /// A thread's page as its participants see it: opened with the key its link carries.
    static func opened(thread page: String, at path: String) throws -> String {
        let options = try #require(Self.options)
        let keys = try #require(options.secret.flatMap(ThreadKeys.init(secret:)))
        let thread = try #require(Pipeline.check(content: options.content).content.threads.first)
        let envelope = try #require(page.firstRange(of: "id=\"sealed-envelope\">").map { page[$0.upperBound...].prefix { $0 != "<" } })
        let bytes = try #require(Data(base64Encoded: String(envelope)))
        let plain = try #require(keys.sealing(for: thread.id).open(Array(bytes), at: path))
        return String(decoding: plain, as: UTF8.self)
    }

    /// The outputs the fixture has come from the renderer, not from a list in this file: every
    /// kind of `OutputID` (and each kind of feed, map and calendar) must occur in the fixture, and
    /// each that occurs must have a snapshot. A new kind of output fails here until it has one.
    @Test func everyKindOfOutputHasASnapshot() throws {
        _ = try Self.site()
        let state = SiteState(try #require(Self.options), tracking: false)
        let renderer = try #require(state.searchingRenderer())
        var shapes: [String: [String]] = [:]
        for id in renderer.outputs() {
            shapes[Self.shape(id), default: []].append(Self.normalized(renderer.render(id).path))
        }
        let snapshotted = Set(Self.outputs)
        for (shape, paths) in shapes.sorted(by: { $0.key < $1.key }) {
            #expect(paths.contains(where: snapshotted.contains), "no snapshot of a \(shape) output (such as \(paths[0]))")
        }
        let kinds = Set(shapes.keys.map { $0.prefix { $0 != ":" } })
        let missing = OutputID.Kind.allCases.filter { !kinds.contains(Substring($0.rawValue)) }
        #expect(missing.isEmpty, "the fixture has no output of the kinds \(missing)")
        let recorded = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") })
        let expected = Set(Self.outputs.map { $0.replacingOccurrences(of: "/", with: "__") })
        #expect(recorded == expected, "stale: \(recorded.subtracting(expected).sorted()), missing: \(expected.subtracting(recorded).sorted())")
    }

    /// An output's kind, with the kind of feed, map or calendar it is. The switches have no
    /// `default`, so a new case does not compile until it says its shape.
    static func shape(_ id: OutputID) -> String {
        let kind = id.kind.rawValue
        switch id {
        case .atom(let feed), .jsonFeed(let feed):
            switch feed {
            case .site: return kind + ":site"
            case .area: return kind + ":area"
            case .report: return kind + ":report"
            case .group: return kind + ":group"
            case .member: return kind + ":member"
            case .following: return kind + ":following"
            }
        case .geoJSON(let map):
            switch map {
            case .reports: return kind + ":reports"
            case .area: return kind + ":area"
            case .locations: return kind + ":locations"
            case .album: return kind + ":album"
            }
        case .calendar(let calendar):
            switch calendar {
            case .site: return kind + ":site"
            case .area: return kind + ":area"
            case .group: return kind + ":group"
            case .member: return kind + ":member"
            case .report: return kind + ":report"
            case .groupEvent: return kind + ":group-event"
            }
        default:
            return kind
        }
    }

    /// Builds the `clean` checker fixture, with an album of a photo (taken with GPS), a HEIC and a
    /// video, and a
    /// secret for message threads, once per test process.
    static func site() throws -> String {
        try built.get()
    }

    private static let built: Result<String, any Error> = Result {
        let dir = TempDir()
        try Txtar.fixture("clean").write(to: dir.path + "/content")
        // With a repository on GitLab and a CMS: edit links, and Reply, New report and Add photos into /admin/.
        try dir.write(["site.yaml": Txtar.defaultSite + """
            repository: https://gitlab.com/club/site
            cms:
              app_id: snapshot-app

            """,
            album + "index.md": """
            ---
            title: Zeeland
            date: 2026-09-20
            by: anna-de-vries
            photos:
              - file: den-osse-instap.jpg
                caption: De instap bij Den Osse.
                by: bram
              - file: koffie-na-de-duik.heic
                caption: Koffie na de duik.
              - file: haven-brouwershaven-filmpje.mov
                caption: De haven, gefilmd.
            ---
            Een weekend duiken.

            """, "reports/1094/2026-10-04-buurtfeest.md": """
            ---
            title: Buurtfeest, met muziek; en taart
            category: event
            at: 2026-10-04T09:00:00+02:00
            author: bram
            location: {lat: 52.3631, lon: 4.9402}
            starts: 2026-10-17T15:00:00+02:00
            ends: 2026-10-17T23:00:00+02:00
            place: Javaplein
            ---
            Zaterdag op het plein, met een lange uitleg die verder gaat dan vijfenzeventig tekens, zodat de regel wordt gevouwen.

            """, "reports/1094/2026-10-05-rommelmarkt.md": """
            ---
            title: Rommelmarkt
            category: event
            at: 2026-10-05T09:00:00+02:00
            author: anna-de-vries
            location: {lat: 52.3632, lon: 4.9403}
            starts: 2026-10-24
            ends: 2026-10-25
            ---
            Twee dagen.

            """, "pages/lid-worden.md": """
            ---
            title: Lid worden
            order: 2
            ---
            Kom op een dinsdag om **20:00** naar het zwembad.

            """, "groups/duikclub/events/nachtduik.md": """
            ---
            title: Nachtduik
            starts: 2026-11-01T19:30:00+01:00
            ends: 2026-11-01T22:00:00+01:00
            place: Den Osse
            by: bram
            ---
            Met lamp en reservelamp.

            """], under: "content")
        // A photo, a phone's HEIC and a phone's video (ffmpeg makes its web copy and poster).
        for name in ["den-osse-instap.jpg", "koffie-na-de-duik.heic", "haven-brouwershaven-filmpje.mov"] {
            try FileManager.default.copyItem(
                atPath: Repo.content + "/groups/duikclub-de-zeehond/albums/duikweekend-zeeland/" + name, toPath: dir.path + "/content/" + album + name)
        }
        var options = BuildOptions.test(content: dir.path + "/content", output: dir.path + "/public", suite: "snapshots")
        options.secret = Array("snapshot-secret-kelder-fles".utf8)
        // With the search box on every page, and the search page; the sitemap in parts (an index,
        // the pages' part and an area's, whose list of entries the one sitemap also is).
        options.pagefind = Pagefind.locate(ProcessInfo.processInfo.environment)
        options.sitemapSplit = 1
        let report = Pipeline.build(options)
        guard report.succeeded else { throw BuildFailed(diagnostics: report.diagnostics.map(\.message)) }
        optionsBuilt.withLock { $0 = options }
        return dir.path + "/public"
    }

    /// The options the fixture was built with (once `site()` has built it).
    static var options: BuildOptions? { optionsBuilt.withLock { $0 } }
    private static let optionsBuilt = Mutex<BuildOptions?>(nil)

    struct BuildFailed: Error { let diagnostics: [String] }
}
