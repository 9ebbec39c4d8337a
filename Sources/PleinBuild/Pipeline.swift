public import PleinCore
public import PleinCheck
public import PleinLoad
import Foundation
import PleinTheme
public import PleinImages
import PleinMarkdown
import PleinRender
import Synchronization

/// Where a build reads and writes.
public struct BuildOptions: Sendable {
    public var content: String
    public var templates: String
    public var output: String
    /// Replaces `base_url` of `site.yaml` (for previews).
    public var baseURL: String?
    /// The cache of derived images; by default `.plein-cache` beside the content folder.
    public var cache: String?
    /// Called as image jobs finish: (done, total).
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Called as videos finish: (done, total).
    public var videoProgress: (@Sendable (Int, Int) -> Void)?
    /// The secret that message threads' addresses are derived from (`PLEIN_SECRET` or
    /// `--secret-file`); without it threads are not rendered.
    public var secret: [UInt8]?
    /// The passphrases of members-only groups, by group id (`PLEIN_PASSPHRASE_<GROUP>` or
    /// `--passphrases`): such a group is published sealed with its key, and not at all without.
    public var passphrases: [String: String] = [:]
    /// Whether to read the content's history from git ("edited" dates, feed `updated`,
    /// sitemap `lastmod`).
    public var history = true
    /// Whether `templates` holds only the site's changes to plein's built-in theme (the
    /// default for a site) rather than a whole theme of its own (`--templates`).
    public var templatesOverBuiltInTheme = false
    /// Markup added before `</body>` of every page (the dev server's reload script).
    public var pageFooterInjection: String?
    /// Past this many reports the sitemap is an index of parts (`RenderOptions.sitemapSplit`;
    /// tests make it smaller).
    public var sitemapSplit = RenderOptions.sitemapSplit
    /// How many paths the spare may differ from the output in before a build makes it the
    /// output's twin at once (`StoreSession.twinSpare`; tests make it smaller).
    public var twinSpareAfter = 1_000
    /// Whether `build` keeps what it made in the build store and, from the second build on,
    /// redoes only what changed (`--fresh` ignores what it holds for one build).
    public var remember = true
    /// Whether this build ignores what the store says and renders everything (it still saves
    /// what it made, so the next build is incremental again).
    public var fresh = false
    /// Whether `build` must tell the changed output paths even when it has no snapshot to compare
    /// with (it then compares the new output folder with the old one, file by file).
    public var listsChanges = false
    /// Whether a build may leave what it made in memory for the process's end to reclaim, rather
    /// than freeing it piece by piece (for the command line: at 10,000 reports that is 0.3–0.5 s).
    public var leavesMemoryToExit = false
    /// The environment plein was started with, read once by the command line and passed down
    /// here; nothing below it reads the process's. It says where Pagefind, ffmpeg and Leaflet
    /// are (`PLEIN_PAGEFIND`, `PLEIN_FFMPEG`, `PLEIN_LEAFLET`, `PATH`), whether to print phase
    /// timings (`PLEIN_TIMINGS`) and the time of a reproducible build (`SOURCE_DATE_EPOCH`).
    /// Empty (the default): none of these is set.
    public var environment: [String: String] {
        didSet { tools = Tools(environment) }
    }
    private var tools: Tools
    /// Where Leaflet is installed (Debian's libjs-leaflet); `PLEIN_LEAFLET` overrides.
    public var leaflet: String {
        get { chosenLeaflet ?? environment["PLEIN_LEAFLET"] ?? Leaflet.defaultFolder }
        set { chosenLeaflet = newValue }
    }
    private var chosenLeaflet: String?
    /// Whether phases print their times on standard error (`PLEIN_TIMINGS`).
    public var timings: Bool { environment["PLEIN_TIMINGS"] != nil }
    /// The time of the build, whose day divides upcoming events from past ones; nil: the clock,
    /// or `SOURCE_DATE_EPOCH` when set (`BuildTime`), read at each build.
    public var now: Moment?
    /// Pagefind's executable, for the search index; nil: no search. Unless set, it is the one
    /// the environment names or has (`Pagefind.locate`), looked for when a build first needs it
    /// (`plein check` never does); `PLEIN_PAGEFIND=none` turns it off.
    public var pagefind: String? {
        get { chosenPagefind ?? tools.pagefind(remembering: cacheRoot + "/pagefind-location") }
        set { chosenPagefind = .some(newValue) }
    }
    private var chosenPagefind: String?? = .none
    /// ffmpeg, for album videos; nil: videos are offered as downloads. Unless set, it is the one
    /// the environment names or has (`FFmpeg.locate`), looked for when a build first has a
    /// video; `PLEIN_FFMPEG=none` turns it off.
    public var ffmpeg: FFmpeg? {
        get { chosenFFmpeg ?? tools.ffmpeg }
        set { chosenFFmpeg = .some(newValue) }
    }
    private var chosenFFmpeg: FFmpeg?? = .none
    /// Which ffmpeg `ffmpeg` is, found without running it.
    var ffmpegIdentity: String {
        guard let chosen = chosenFFmpeg else { return FFmpeg.identity(environment) }
        return chosen.map { "\($0.ffmpeg) \($0.version)" } ?? "-"
    }

    /// The time of a build with these options.
    var buildTime: Moment { now ?? BuildTime.now(environment) }

    public init(
        content: String = "content", templates: String = "templates", output: String = "public", baseURL: String? = nil,
        cache: String? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil, environment: [String: String] = [:]
    ) {
        self.environment = environment
        tools = Tools(environment)
        self.content = content
        self.templates = templates
        self.output = output
        self.baseURL = baseURL
        self.cache = cache
        self.progress = progress
    }

    /// The theme's files: the templates folder, over the built-in theme when it holds only
    /// the site's changes.
    public var themeFiles: ContentFS {
        let folder = ContentFS.disk(templates)
        guard templatesOverBuiltInTheme else { return folder }
        return .layered(folder, over: .memory(BuiltInTheme.files, displayRoot: templates))
    }

    var cacheRoot: String {
        cache ?? URL(fileURLWithPath: content).standardizedFileURL.deletingLastPathComponent().appendingPathComponent(".plein-cache").path
    }
}

/// What `plein check` found: the content and every diagnostic, with paths as the user sees them.
public struct CheckResult: Sendable {
    public let content: Content
    public let diagnostics: [Diagnostic]
    /// File texts keyed like the diagnostics' paths.
    public let sources: [String: String]
    /// When each photo was taken, from EXIF.
    public let captureTimes: [String: Moment]
}

/// What a build did.
public struct BuildReport: Sendable {
    public let diagnostics: [Diagnostic]
    public let sources: [String: String]
    public let succeeded: Bool
    public let pages: Int
    public let files: Int
    public let images: Int
    public let imagesMade: Int
    public let imagesReused: Int
    public let seconds: Double
    /// Set when the output could not be written.
    public let failure: String?
    /// Things worth knowing that are not problems in the content.
    public let notes: [String]
    /// True when the build store showed that nothing changed: the output was left as it was.
    public var unchanged = false
    /// Why a build with the store present redid everything (one line), if it did.
    public var fullBuildReason: String?
    /// Output paths added, changed and removed by this build (when known: see `changes`).
    public var changes: OutputChanges?
    /// For a build that found nothing changed: the last build's number of warnings.
    public var warnings = 0
    /// Album videos published, and how many of them ffmpeg made in this build.
    public var videos = 0
    public var videosMade = 0
    /// With the build store: how many outputs were rendered (the others were kept), and which
    /// (by `OutputID.key`, e.g. `atom:site`).
    public var rendered: Int?
    public var renderedOutputs: [String] = []
    /// Whether the build redid only the records edited in place, from the build store (`RecordEdit`).
    public var recordByRecord = false
    /// Set when a build record by record found the build store lacking what it should hold (a
    /// row missing or damaged): it emptied the store, and the build that loads everything is to
    /// follow at once (`Pipeline.build` does); why.
    var redoFully: String?
}

/// The output paths a build added, changed and removed: what a deploy must upload or delete.
public struct OutputChanges: Sendable, Equatable {
    public var added: [String] = []
    public var changed: [String] = []
    public var removed: [String] = []

    /// One line per path, `A`, `M` or `D`, a tab and the path (as `git diff --name-status`).
    public var listing: String {
        (added.map { "A\t" + $0 } + changed.map { "M\t" + $0 } + removed.map { "D\t" + $0 }).map { $0 + "\n" }.joined()
    }
}

/// The stages as the commands use them: `check` (load → check) and `build` (load → check →
/// images → model → bodies → render → write, through `SiteState`).
public enum Pipeline {
    /// Loads and checks the content, image headers included: `plein check` is exactly this.
    /// With `theme` (the files a build would use), the site's labels are checked against the
    /// theme's interface texts and the theme's own problems are reported, as a build does: a
    /// pull request's check sees what its build would.
    public static func check(content path: String, cache: String? = nil, theme themeFiles: ContentFS? = nil) -> CheckResult {
        let loaded = ContentLoader.load(.disk(path))
        let cacheRoot = BuildOptions(content: path, cache: cache).cacheRoot
        var images = ImageStage(contentRoot: path, cacheRoot: cacheRoot, maxPixels: loaded.content.site.maxPixels, avif: loaded.content.site.avif)
        images.inspect(loaded.content)
        let (theme, themeProblems) = themeFiles.map { ThemeLoader.load($0, language: loaded.content.site.language) } ?? (nil, [])
        let checked = CheckStage.run(loaded.content, checked: Checker.check(loaded.content), loading: loaded.diagnostics, images: images,
                                     theme: theme, themeProblems: themeProblems)
        return CheckResult(
            content: loaded.content, diagnostics: checked.diagnostics, sources: checked.sources,
            captureTimes: images.captureTimes(clock: loaded.content.site.clock))
    }

    /// A build written to the output folder. With the build store (`options.remember`), a build
    /// after an edit renders only the outputs that read what changed, and one after no change
    /// does nothing at all.
    public static func build(_ options: BuildOptions) -> BuildReport {
        let start = DispatchTime.now()
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
        var timer = PhaseTimer(enabled: options.timings)
        var memory = options.remember ? StoreSession(options) : nil
        timer.lap("store")
        if let memory, let unchanged = memory.unchanged {
            var report = BuildReport(
                diagnostics: [], sources: [:], succeeded: true, pages: unchanged.pages, files: unchanged.files, images: unchanged.images,
                imagesMade: 0, imagesReused: 0, seconds: elapsed(), failure: nil, notes: [], unchanged: true,
                changes: OutputChanges())
            report.warnings = unchanged.warnings
            // (The scan and the snapshot are two dictionaries of every content file.)
            if options.leavesMemoryToExit { Leftovers.keep(memory) }
            return report
        }
        // Only records edited in place: those records, from the store, and what they reach.
        if let session = memory, let (files, added, removed) = session.editedRecordFiles, let store = session.store, let previous = session.previous {
            let edit = RecordEdit(options: options, store: store, previous: previous, next: session.next, files: files, added: added,
                                  removed: removed, themeEdited: session.themeEdited, historyMoved: session.historyMoved,
                                  spareVouched: session.spareVouched)
            if let report = edit.build(start: start, timer: &timer) {
                guard let reason = report.redoFully else {
                    if options.leavesMemoryToExit { Leftovers.keep(session) }
                    return report
                }
                // The store was emptied: it is read again, and the build loads everything.
                memory = StoreSession(options)
                memory?.distrust(reason)
                timer.lap("record by record no further: " + reason)
            } else {
                timer.lap("an edit that reaches further than its records")
            }
        }
        memory?.prepare()
        timer.lap("store: read")
        // Pages go to the staging folder as they are rendered, not kept in memory.
        let writer: OutputWriter
        do throws(OutputWriter.Failure) {
            // (A build the store has no snapshot for leaves a spare it can vouch for all the same.)
            writer = try OutputWriter(output: options.output, knownSpare: memory?.knownSpare,
                                      vouching: memory?.store != nil && memory?.previous == nil)
        } catch {
            // Nowhere to write: the build stops before its work, which would pile up in memory.
            var report = BuildReport(
                diagnostics: [], sources: [:], succeeded: false, pages: 0, files: 0, images: 0, imagesMade: 0, imagesReused: 0,
                seconds: elapsed(), failure: error.description, notes: [])
            report.fullBuildReason = memory?.fullBuildReason
            return report
        }
        let state = SiteState(options, tracking: false, streamingTo: writer, remembering: memory?.remembered)
        var changes: OutputChanges?
        var failure: String?
        if state.succeeded {
            do throws(OutputWriter.Failure) {
                try state.write(finishing: writer)
                timer.lap("build, write and swap")
                let snapshotless = memory?.previous == nil
                var compared: OutputChanges?
                if snapshotless, options.listsChanges {
                    // No snapshot to compare with: the new output against the old one, now the
                    // spare (before what the new site lacks is taken out of it).
                    let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
                    compared = OutputChanges.compare(old: OutputWriter.sparePath(for: output), new: output)
                }
                let vouched = snapshotless ? writer.vouchForSpare() : nil
                if vouched != nil { timer.lap("the spare made one to vouch for") }
                changes = memory?.save(state, warnings: state.diagnostics.warningCount, spare: vouched) ?? compared
                timer.lap("store: save")
            } catch {
                failure = error.description
                // The output may have been changed by hand: the next build trusts nothing.
                memory?.forget()
            }
        } else {
            let spareAsBefore = writer.stagingUntouched
            writer.discard()
            memory?.outputUntouched(spareAsBefore: spareAsBefore)
        }
        var notes = state.succeeded ? state.notes : []
        if let problem = memory?.problem { notes.append(problem) }
        var report = BuildReport(
            diagnostics: state.diagnostics, sources: state.sources, succeeded: state.succeeded && failure == nil,
            pages: state.pageCount, files: state.outputCount, images: state.imageCount, imagesMade: state.imagesMade,
            imagesReused: state.imagesReused, seconds: elapsed(), failure: failure, notes: notes)
        report.fullBuildReason = memory?.fullBuildReason
        report.changes = changes
        report.videos = state.videoCount
        report.videosMade = state.videosMade
        if options.leavesMemoryToExit { Leftovers.keep((state, memory)) }
        if let remembered = state.remembered, remembered.previous != nil {
            report.renderedOutputs = remembered.renderedKeys
            report.rendered = remembered.renderedKeys.count
        }
        return report
    }
}

/// What one-off builds leave for the process's end to reclaim (see `leavesMemoryToExit`): each
/// is retained once more and never released, so no shared list has to hold them.
enum Leftovers {
    private final class Kept {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    static func keep(_ value: Any) {
        _ = Unmanaged.passRetained(Kept(value))
    }
}

/// Pagefind and ffmpeg where an environment has them. Each is looked for when first asked
/// (which starts a process), once for all the copies of the options it came with.
private final class Tools: Sendable {
    let environment: [String: String]
    private let foundPagefind = Once<String?>()
    private let foundFFmpeg = Once<FFmpeg?>()

    init(_ environment: [String: String]) {
        self.environment = environment
    }

    func pagefind(remembering file: String) -> String? { foundPagefind.value { Pagefind.locate(environment, remembering: file) } }
    var ffmpeg: FFmpeg? { foundFFmpeg.value { FFmpeg.locate(environment) } }
}

/// A value made the first time it is asked for, then kept.
private final class Once<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)

    func value(_ make: () -> Value) -> Value {
        made.locked { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
