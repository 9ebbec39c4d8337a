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

extension BuiltInTheme {
    /// plein's documentation (the package's `docs/`, embedded like the theme) by topic, the
    /// file's name without `.md`: what `plein help <topic>` prints.
    public static let docs: [String: String] = {
        var docs: [String: String] = [:]
        for (path, base64) in encodedDocs where path.hasSuffix(".md") && !path.contains("/") {
            docs[String(path.dropLast(3))] = Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return docs
    }()

    /// The topics of `docs`, sorted, without decoding them.
    public static var docTopics: [String] {
        encodedDocs.map(\.path).filter { $0.hasSuffix(".md") && !$0.contains("/") }.map { String($0.dropLast(3)) }.sorted()
    }
}
