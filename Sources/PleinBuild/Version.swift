public import PleinCore
import PleinImages
import PleinMarkdown

extension PleinVersion {
    /// `plein 0.3.0 (libvips 8.14.1, cmark-gfm 0.29.0.gfm.6)`: plein's version and the versions of
    /// the libraries it runs with.
    public static var description: String {
        "plein \(number) (libvips \(ImageIO.version), cmark-gfm \(Markdown.libraryVersion))"
    }
}
