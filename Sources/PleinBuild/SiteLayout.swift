import Foundation

/// Where a site's folders are: `content/` (with `site.yaml`), `templates/` (the site's changes to
/// the built-in theme, or a theme of its own), `public/` (the output) and `.plein-cache/`, side by
/// side in the site's folder. Every command finds that folder from the current one upwards, as
/// git finds `.git`, so `plein build` works anywhere inside a site.
public struct SiteLayout: Sendable, Equatable {
    /// The site's folder, as the user would write it from the current folder (`.`, `..`, …).
    public let root: String

    public var content: String { join(root, "content") }
    public var templates: String { join(root, "templates") }
    public var output: String { join(root, "public") }

    public init(root: String) { self.root = root }

    /// The nearest folder, from `start` upwards, holding `content/site.yaml`; nil outside a site.
    public static func find(from start: String? = nil) -> SiteLayout? {
        var folder = URL(fileURLWithPath: start ?? FileManager.default.currentDirectoryPath).standardizedFileURL
        var steps = 0
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("content/site.yaml").path) {
                return SiteLayout(root: steps == 0 ? "." : Array(repeating: "..", count: steps).joined(separator: "/"))
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
            steps += 1
        }
    }

    private func join(_ base: String, _ name: String) -> String { base == "." ? name : base + "/" + name }
}
