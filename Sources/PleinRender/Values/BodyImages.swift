import PleinText
import PleinCore
import PleinModel
import Foundation

/// A report's photos in its text, shown as album photos are: the `<img>` Markdown made of
/// `![…](photo-1.jpg)` becomes a `<picture>` with the photo's narrower copies (AVIF, then WebP)
/// in `srcset`, its size reserved, loaded when scrolled near. The link as written still leads to
/// the full-size copy, published under the name the text gives.
enum BodyImages {
    /// The width a body's image takes: the text's column (`.prose`, 42rem) or the screen.
    static let sizes = "(min-width: 46rem) 42rem, calc(100vw - 2rem)"

    /// `html` (a body on the page of the report whose folder is `folder`) with each image of the
    /// report's own files made responsive; other images are left as they are.
    static func responsive(_ html: TrustedHTML?, folder: String, view: ModelView, routes: Routes) -> TrustedHTML? {
        html?.replacingElements("img") { attribute in picture(attribute, folder: folder, view: view, routes: routes) }
    }

    /// The `<picture>` for one `<img src="…" alt="…"[ title="…"]>` as cmark writes it, when its
    /// source is a photo of the report's folder that has narrower copies.
    private static func picture(_ attribute: (String) -> String?, folder: String, view: ModelView, routes: Routes) -> TrustedHTML? {
        guard let source = attribute("src"), let file = localFile(source),
              let image = view.image(folder + "/" + file), !image.variants.isEmpty else { return nil }
        let value = ImageValue(image, alt: attribute("alt") ?? "", sizes: sizes, routes: routes)
        var out = MarkupWriter(capacity: 512)
        out.open("picture")
        if let avif = value.avif {
            out.empty("source", .init("type", "image/avif"), .init("srcset", avif), .init("sizes", sizes), void: true)
        }
        var attributes: [MarkupWriter.Attribute] = [.init("src", value.src)]
        if let srcset = value.srcset { attributes += [.init("srcset", srcset), .init("sizes", sizes)] }
        attributes += [.init("width", String(value.width)), .init("height", String(value.height)), .init("alt", value.alt)]
        if let title = attribute("title") { attributes.append(.init("title", title)) }
        attributes += [.init("loading", "lazy"), .init("decoding", "async")]
        out.empty("img", attributes: attributes, void: true)
        out.close("picture")
        return out.html
    }

    /// The file of the report's folder a link names (`photo-1.jpg`, `./lamp%20post.jpg`); nil
    /// for an address elsewhere (absolute, another folder, with a query or a fragment).
    static func localFile(_ source: String) -> String? {
        var path = source
        if path.hasPrefix("./") { path.removeFirst(2) }
        guard !path.isEmpty, !path.contains("/"), !path.contains(":"), !path.contains("?"), !path.contains("#"),
              let decoded = path.removingPercentEncoding, !decoded.contains("/"), decoded != "..", decoded != "." else { return nil }
        return decoded
    }
}
