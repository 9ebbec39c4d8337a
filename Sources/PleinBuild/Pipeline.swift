public import PleinCore
import PleinRender
import Foundation
import PleinMarkdown

/// Where a build reads and writes.
public struct BuildOptions: Sendable {
    public var content: String
    public var templates: String
    public var output: String
    /// Replaces `base_url` of `site.yaml` (for previews).
    public var baseURL: String?

    public init(content: String = "content", templates: String = "templates", output: String = "public", baseURL: String? = nil) {
        self.content = content
        self.templates = templates
        self.output = output
        self.baseURL = baseURL
    }
}

/// What `plein check` found: the content and every diagnostic, with paths as the user sees them.
public struct CheckResult: Sendable {
    public let content: Content
    public let diagnostics: [Diagnostic]
    /// File texts keyed like the diagnostics' paths.
    public let sources: [String: String]
}

/// What a build did.
public struct BuildReport: Sendable {
    public let diagnostics: [Diagnostic]
    public let sources: [String: String]
    public let succeeded: Bool
    public let pages: Int
    public let files: Int
    public let images: Int
    public let seconds: Double
    /// Set when the output could not be written.
    public let failure: String?
}

/// load → check → model → render → write.
public enum Pipeline {
    /// Loads and checks the content: `plein check` is exactly this.
    public static func check(content path: String) -> CheckResult {
        let loaded = ContentLoader.load(.disk(path))
        let diagnostics = (loaded.diagnostics + Checker.check(loaded.content)).sorted()
        let root = loaded.content.displayRoot
        var sources: [String: String] = [:]
        for (file, text) in loaded.content.sources { sources[root + "/" + file] = text }
        return CheckResult(content: loaded.content, diagnostics: diagnostics.map { $0.under(root) }, sources: sources)
    }

    public static func build(_ options: BuildOptions) -> BuildReport {
        let start = DispatchTime.now()
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }

        let checked = check(content: options.content)
        var content = checked.content
        if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
        let (theme, themeProblems) = ThemeLoader.load(.disk(options.templates), language: content.site.language)
        let diagnostics = checked.diagnostics + themeProblems
        var sources = checked.sources
        if let theme { sources.merge(theme.sources) { a, _ in a } }

        func failed(_ reason: String? = nil) -> BuildReport {
            BuildReport(diagnostics: diagnostics, sources: sources, succeeded: false, pages: 0, files: 0, images: 0,
                        seconds: elapsed(), failure: reason)
        }
        guard let theme, !diagnostics.hasErrors else { return failed() }

        let model = ModelBuilder.build(content)
        let site = Site(model: model, theme: theme, content: content, contentRoot: options.content)
        let rendered = site.renderAll()

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
        return BuildReport(
            diagnostics: diagnostics, sources: sources, succeeded: true, pages: rendered.pages,
            files: rendered.files.count + rendered.links.count, images: rendered.images, seconds: elapsed(), failure: nil)
    }
}
