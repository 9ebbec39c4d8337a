public import PleinCore
import Foundation
import PleinImages
import PleinMarkdown
import PleinRender

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
    /// The secret that message threads' addresses are derived from (`PLEIN_SECRET` or
    /// `--secret-file`); without it threads are not rendered.
    public var secret: [UInt8]?
    /// Where Leaflet is installed (Debian's libjs-leaflet); `PLEIN_LEAFLET` overrides.
    public var leaflet = ProcessInfo.processInfo.environment["PLEIN_LEAFLET"] ?? Leaflet.defaultFolder

    public init(
        content: String = "content", templates: String = "templates", output: String = "public", baseURL: String? = nil,
        cache: String? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) {
        self.content = content
        self.templates = templates
        self.output = output
        self.baseURL = baseURL
        self.cache = cache
        self.progress = progress
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
}

/// load → check → model → images → render → write.
public enum Pipeline {
    /// Loads and checks the content, image headers included: `plein check` is exactly this.
    public static func check(content path: String, cache: String? = nil) -> CheckResult {
        let loaded = ContentLoader.load(.disk(path))
        var diagnostics = loaded.diagnostics + Checker.check(loaded.content)
        let cacheRoot = BuildOptions(content: path, cache: cache).cacheRoot
        let (imageProblems, times) = ImageStage(content: loaded.content, contentRoot: path, cacheRoot: cacheRoot).inspect()
        diagnostics += imageProblems
        let root = loaded.content.displayRoot
        var sources: [String: String] = [:]
        for (file, text) in loaded.content.sources { sources[root + "/" + file] = text }
        return CheckResult(
            content: loaded.content, diagnostics: diagnostics.sorted().map { $0.under(root) }, sources: sources,
            captureTimes: times)
    }

    public static func build(_ options: BuildOptions) -> BuildReport {
        let start = DispatchTime.now()
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }

        let checked = check(content: options.content, cache: options.cache)
        var content = checked.content
        if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
        let (theme, themeProblems) = ThemeLoader.load(.disk(options.templates), language: content.site.language)
        var diagnostics = checked.diagnostics + themeProblems
        var sources = checked.sources
        if let theme { sources.merge(theme.sources) { a, _ in a } }

        func failed(_ reason: String? = nil) -> BuildReport {
            BuildReport(diagnostics: diagnostics, sources: sources, succeeded: false, pages: 0, files: 0, images: 0,
                        imagesMade: 0, imagesReused: 0, seconds: elapsed(), failure: reason, notes: [])
        }
        guard let theme, !diagnostics.hasErrors else { return failed() }

        let stage = ImageStage(content: content, contentRoot: options.content, cacheRoot: options.cacheRoot)
        let published = stage.publish(captureTimes: checked.captureTimes, progress: options.progress)
        diagnostics += published.diagnostics.map { $0.under(content.displayRoot) }
        guard !diagnostics.hasErrors else { return failed() }

        let model = ModelBuilder.build(content, captureTimes: checked.captureTimes)
        let leaflet = Leaflet(folder: options.leaflet)
        var notes: [String] = []
        let threadKeys = options.secret.flatMap(ThreadKeys.init(secret:))
        if threadKeys == nil, !model.threads.isEmpty {
            notes.append("\(model.threads.count) message thread\(model.threads.count == 1 ? " was" : "s were") not rendered: set PLEIN_SECRET or pass --secret-file")
        }
        if leaflet == nil {
            notes.append("Leaflet was not found in \(options.leaflet) (Debian package libjs-leaflet): maps are drawn without the interactive layer")
        }
        let site = Site(
            model: model, theme: theme, content: content, contentRoot: options.content, images: published.catalog, leaflet: leaflet,
            threadKeys: threadKeys)
        var rendered = site.renderAll()
        rendered.links += published.links

        do throws(OutputWriter.Failure) {
            let writer = try OutputWriter(output: options.output)
            do throws(OutputWriter.Failure) {
                try site.write(rendered, to: writer)
                try writer.commit()
            } catch {
                writer.discard()
                throw error
            }
        } catch {
            return failed(error.description)
        }
        _ = stage.processor.cache.finish()
        return BuildReport(
            diagnostics: diagnostics, sources: sources, succeeded: true, pages: rendered.pages,
            files: rendered.files.count + rendered.links.count, images: published.catalog.images.count,
            imagesMade: published.made, imagesReused: published.reused, seconds: elapsed(), failure: nil, notes: notes)
    }
}
