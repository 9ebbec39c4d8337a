import Foundation
import PleinCore
import PleinMarkdown
import PleinRender

/// A checked site ready to render: the model, the theme and the published images.
struct Site: Sendable {
    let model: SiteModel
    let theme: Theme
    let content: Content
    let contentRoot: String
    let renderer: Renderer

    let leaflet: Leaflet?

    init(
        model: SiteModel, theme: Theme, content: Content, contentRoot: String, images: ImageCatalog, leaflet: Leaflet?,
        threadKeys: ThreadKeys?
    ) {
        self.model = model
        self.theme = theme
        self.content = content
        self.contentRoot = contentRoot
        self.leaflet = leaflet
        let routes = Routes(baseURL: model.site.baseURL)
        let bodies = Bodies.render(Bodies.jobs(model, routes: routes, threadKeys: threadKeys), routes: routes)
        renderer = Renderer(
            model: model, theme: theme, bodies: bodies, images: images,
            options: RenderOptions(leaflet: leaflet?.assets, threadKeys: threadKeys))
    }

    /// Everything the output will hold.
    struct Rendered: Sendable {
        var files: [OutputFile]
        /// Existing files to place in the output: (source path on disk, output path).
        var links: [(String, String)]
        var pages: Int
        var images: Int
    }

    func renderAll() -> Rendered {
        let ids = renderer.outputs()
        let files = parallelMap(ids) { renderer.render($0) }
        var links: [(String, String)] = []
        var assets: [OutputFile] = leaflet?.files ?? []
        for (_, asset) in theme.assets.sorted(by: { $0.key < $1.key }) {
            assets.append(OutputFile(path: asset.output, bytes: asset.bytes))
        }
        // Attachments of report bundles that are not images are published as they are.
        for report in content.reports {
            for resource in report.resources where content.images["reports/\(report.id)/\(resource)"] == nil {
                links.append((contentRoot + "/reports/\(report.id)/\(resource)", "reports/\(report.id)/\(resource)"))
            }
        }
        let pages = files.count { $0.path.hasSuffix(".html") }
        return Rendered(files: files + assets, links: links, pages: pages, images: renderer.images.images.count)
    }

    func write(_ rendered: Rendered, to writer: OutputWriter) throws(OutputWriter.Failure) {
        let failures = parallelMap(rendered.files) { file -> OutputWriter.Failure? in
            do throws(OutputWriter.Failure) { try writer.write(file) } catch { return error }
            return nil
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
        for (source, target) in rendered.links { try writer.link(source, as: target) }
    }
}
