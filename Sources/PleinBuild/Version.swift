import PleinImages
import PleinMarkdown

/// plein's version, and the versions of the libraries it runs with.
public enum PleinVersion {
    /// Also the version of the Debian package and the release archive (`make dist`).
    public static let number = "0.3.0"

    /// `plein 0.3.0 (libvips 8.14.1, cmark-gfm 0.29.0.gfm.6)`.
    public static var description: String {
        "plein \(number) (libvips \(ImageIO.version), cmark-gfm \(Markdown.libraryVersion))"
    }
}
