import Foundation

/// The default theme, carried inside the binary (the `EmbedTheme` build plugin copies the
/// package's `templates/` folder in at build time). A site's own `templates/` folder overrides
/// it file by file.
public enum BuiltInTheme {
    /// Every file of the theme: relative path → bytes, decoded once.
    public static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for (path, base64) in encoded {
            files[path] = Data(base64Encoded: base64).map { Array($0) } ?? []
        }
        return files
    }()

    /// The theme's paths, sorted.
    public static var paths: [String] { encoded.map(\.path) }
}
