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

    init(model: SiteModel, theme: Theme, content: Content, contentRoot: String) {
        self.model = model
        self.theme = theme
        self.content = content
        self.contentRoot = contentRoot
        let routes = Routes(baseURL: model.site.baseURL)
        let bodies = Bodies.render(Bodies.jobs(model, routes: routes), routes: routes)
        let images = Site.catalog(content)
        renderer = Renderer(model: model, theme: theme, bodies: bodies, images: images)
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
        var assets: [OutputFile] = []
        for (_, asset) in theme.assets.sorted(by: { $0.key < $1.key }) {
            assets.append(OutputFile(path: asset.output, bytes: asset.bytes))
        }
        for (path, image) in renderer.images.images.sorted(by: { $0.key < $1.key }) {
            links.append((contentRoot + "/" + path, image.display.path))
        }
        let pages = files.count { $0.path.hasSuffix(".html") }
        return Rendered(files: files + assets, links: links, pages: pages, images: links.count)
    }

    func write(_ rendered: Rendered, to writer: OutputWriter) throws(OutputWriter.Failure) {
        let failures = parallelMap(rendered.files) { file -> OutputWriter.Failure? in
            do throws(OutputWriter.Failure) { try writer.write(file) } catch { return error }
            return nil
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
        for (source, target) in rendered.links { try writer.link(source, as: target) }
    }

    /// Published images. Until thumbnails exist, each image is published as it is.
    static func catalog(_ content: Content) -> ImageCatalog {
        var catalog = ImageCatalog()
        for (path, image) in content.images where image.kind != nil {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let target = "media/\(Hashing.sha256Hex(Array(path.utf8)).prefix(12))/\(name)"
            let variant = PublishedImage.Variant(path: target, width: 0, height: 0)
            catalog.images[path] = PublishedImage(variants: [variant], display: variant, preview: nil)
        }
        return catalog
    }
}
