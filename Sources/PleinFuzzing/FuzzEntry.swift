import Foundation
public import PleinCheck
public import PleinLoad
public import PleinModel
public import PleinCore
import PleinMarkdown
import PleinText

/// What the fuzz targets run, kept in a library so that every input a fuzzer once crashed on is
/// also a regression test (`Tests/PleinFuzzingTests`). Each entry checks the promises that hold
/// for any input and stops the process when one breaks, so the fuzzer reports it as a crash.
public enum FuzzEntry {
    /// The content files a fuzz input can become: its first byte picks one, the rest is the file.
    /// (The order is part of every saved input: add at the end.)
    public static let paths = [
        ContentLayout.site, ContentLayout.places, member, group, goal, album, area, report, bundle, reply,
        location, checkIns, thread, message,
    ]

    static let member = ContentLayout.member("anna")
    static let group = ContentLayout.group("club")
    static let goal = ContentLayout.goal(group: "club", id: "plant")
    static let album = ContentLayout.album(group: "club", id: "trip")
    static let area = ContentLayout.area("1011")
    static let report = ContentLayout.report("1011/2026-01-01-lamp", bundle: false)
    static let bundle = ContentLayout.report("1011/2026-01-02-bundle", bundle: true)
    static let reply = ContentLayout.reply("1011/2026-01-02-bundle", name: "20260103T1200-anna")
    static let location = ContentLayout.location("library")
    static let checkIns = ContentLayout.checkIns("anna")
    static let thread = ContentLayout.thread("t")
    static let message = ContentLayout.message("t", name: "20260101T1200-anna")

    /// A small valid community the fuzzed file is dropped into, so that references resolve and
    /// the checker's rules between records run too.
    static let base: [String: String] = [
        ContentLayout.site: "title: Fuzz\nbase_url: https://fuzz.example.org/\nlanguage: nl\ntimezone: Europe/Amsterdam\n",
        ContentLayout.places: "- {name: Haven, lat: 52.37, lon: 4.9}\n",
        member: "---\nname: Anna\nemail: anna@example.org\nhome: {lat: 52.371, lon: 4.901}\n---\nHallo.\n",
        ContentLayout.member("bram"): "---\nname: Bram\nemail: bram@example.org\nhome: Haven\n---\n",
        group: "---\nname: Club\nmembers: [anna, bram]\ncreated_by: anna\n---\nDe club.\n",
        goal: "---\ntitle: Plant\npoints: 10\nadded_by: anna\nadded: 2026-02-01\n---\n",
        album: "---\ntitle: Trip\ndate: 2026-05-01\n---\n",
        area: "name: Centrum\ncenter: {lat: 52.37, lon: 4.9}\n",
        report: "---\ntitle: Lamp\ncategory: attention\nat: 2026-01-01T10:00:00+01:00\nauthor: anna\nlocation: {lat: 52.37, lon: 4.9}\n---\nKapot.\n",
        bundle: "---\ntitle: Bundle\ncategory: event\nat: 2026-01-02T10:00:00+01:00\nauthor: bram\nlocation: {lat: 52.371, lon: 4.902}\n---\nFeest.\n",
        reply: "---\nauthor: anna\nat: 2026-01-03T12:00:00+01:00\n---\nJa.\n",
        location: "---\nname: Bieb\naddress: Straat 1\nlocation: {lat: 52.36, lon: 4.91}\nopening_hours:\n  mon-fri: \"08:00-22:00\"\n---\n",
        checkIns: "- location: library\n  in: 2026-03-02T09:00:00+01:00\n  out: 2026-03-02T12:00:00+01:00\n",
        thread: "subject: Plan\nparticipants: [anna, bram]\n",
        message: "---\nauthor: anna\nat: 2026-01-01T12:00:00+01:00\n---\nHoi.\n",
    ]

    /// Loads and checks the base community with one file replaced by `data` (minus its first
    /// byte), builds the model and formats every diagnostic, and stops the process when a promise
    /// breaks (so the fuzzer reports the input as a crash).
    @discardableResult
    public static func content(_ data: [UInt8]) -> [Diagnostic] {
        let (diagnostics, broken) = checkContent(data)
        if let first = broken.first { fatalError(first) }
        return diagnostics
    }

    /// What `content` runs, with the promises it breaks told, not enforced (for tests). Promises:
    /// no crash, every diagnostic names a file of the community, and no e-mail address reaches the
    /// model.
    public static func checkContent(_ data: [UInt8]) -> (diagnostics: [Diagnostic], broken: [String]) {
        guard let first = data.first else { return ([], []) }
        let path = paths[Int(first) % paths.count]
        var files = base.mapValues { Array($0.utf8) }
        files[path] = Array(data.dropFirst())
        let loaded = ContentLoader.load(.memory(files))
        let diagnostics = loaded.diagnostics + Checker.check(loaded.content)
        var broken: [String] = []
        for diagnostic in diagnostics where files[diagnostic.file] == nil && !files.keys.contains(where: { $0.hasPrefix(diagnostic.file + "/") }) {
            broken.append("a diagnostic names no file of the content: \(diagnostic.file): \(diagnostic.message)")
        }
        var sources: [String: String] = [:]
        for (file, text) in loaded.content.sources { sources["content/" + file] = text }
        _ = DiagnosticFormatter(sources: sources).report(diagnostics.map { $0.under("content") })
        _ = DiagnosticFormatter(sources: sources).json(diagnostics.map { $0.under("content") })
        let model = ModelBuilder.build(loaded.content)
        let dump = String(describing: model.members)
        if dump.contains("anna@example.org") { broken.append("an e-mail address reached the site model") }
        return (diagnostics, broken)
    }

    /// Renders `data` as a Markdown body, with absolute URLs as feeds do, and stops the process
    /// when a promise breaks.
    public static func markdown(_ data: [UInt8]) {
        if let first = checkMarkdown(data).first { fatalError(first) }
    }

    /// What `markdown` runs, with the promises it breaks told. Promises: no crash, and no raw HTML
    /// element or dangerous link in the output.
    public static func checkMarkdown(_ data: [UInt8]) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        let rendered = Markdown.render(text, headingOffset: 1, idPrefix: "b1-", absoluteURL: { "https://fuzz.example.org/" + $0 })
        var broken: [String] = []
        for html in [rendered.html.markup, rendered.absoluteHTML?.markup ?? ""] {
            let lower = html.lowercased()
            for bad in ["<script", "<iframe", "<object", "<embed", "<style", "<img src=\"javascript:", "href=\"javascript:", "href=\"vbscript:", "href=\"data:text", " onerror=", " onload="] where lower.contains(bad) {
                broken.append("Markdown output holds \(bad): \(html)")
            }
        }
        return broken
    }

    /// The seed corpus for `content`: every text file of a content folder, each prefixed with the
    /// byte that makes the fuzz target load it as the closest kind of file.
    public static func contentSeeds(from root: String) -> [(name: String, bytes: [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".md") || relative.hasSuffix(".yaml"),
                  let data = FileManager.default.contents(atPath: root + "/" + relative), data.count < 64 * 1024 else { continue }
            seeds.append((relative.replacingOccurrences(of: "/", with: "_"), [kind(of: relative)] + Array(data)))
        }
        return seeds.sorted { $0.0 < $1.0 }
    }

    /// The seed corpus for `markdown`: every Markdown file of a content folder as it is.
    public static func markdownSeeds(from root: String) -> [(name: String, bytes: [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".md"), let data = FileManager.default.contents(atPath: root + "/" + relative), data.count < 64 * 1024 else { continue }
            seeds.append((relative.replacingOccurrences(of: "/", with: "_"), Array(data)))
        }
        return seeds.sorted { $0.0 < $1.0 }
    }

    /// The index into `paths` of the kind of file at `relative`.
    static func kind(of relative: String) -> UInt8 {
        let guess: String
        switch FileRole.of(relative) {
        case .site: guess = ContentLayout.site
        case .places: guess = ContentLayout.places
        case .goal: guess = goal
        case .album, .photo: guess = album
        case .group: guess = group
        case .area: guess = area
        case .reply: guess = reply
        case .report(_, _, let isBundle): guess = isBundle ? bundle : report
        case .reportResource: guess = report
        case .location: guess = location
        case .checkins: guess = checkIns
        case .thread: guess = thread
        case .message: guess = message
        default: guess = member
        }
        return UInt8(paths.firstIndex(of: guess) ?? 2)
    }
}

#if FUZZING
// SwiftPM links every executable with `main` pointing at `<module>_main`, so libFuzzer's own
// `main` is never used: each fuzz target's `<module>_main` calls this, which hands over to
// libFuzzer's driver. (Only the -sanitize=fuzzer build defines LLVMFuzzerRunDriver.)
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

extension FuzzEntry {
    public static func runLibFuzzer(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
    ) -> CInt {
        var count = argc
        var arguments = argv
        return runDriver(&count, &arguments, callback)
    }
}
#endif
