import Foundation
import PleinCore
import PleinImages
import PleinRender

/// The app's icons (`site.yaml` `app`): the theme's icon, or the one `app.icon` names in the
/// site's `templates/assets/`, made into square PNGs at the sizes browsers ask for by libvips,
/// and added to the theme as assets (`app-icon-<size>.png`, named by their content like every
/// asset). They are kept in the cache by the source's hash and size, so that a build with the same
/// icon reads them and never starts libvips.
enum AppIcons {
    static let formats: Set<String> = ["png", "jpg", "jpeg", "webp", "svg"]

    /// The theme with the icons, and a warning when they could not be made (the manifest then
    /// names the theme's vector icon).
    static func add(to theme: Theme, site: SiteConfig, cacheRoot: String) -> (Theme, [Diagnostic]) {
        guard site.app.enabled else { return (theme, []) }
        let name = site.app.icon ?? "icon.svg"
        func problem(_ reason: String) -> (Theme, [Diagnostic]) {
            (theme, [Diagnostic(.appIcon(name, reason: reason), in: ContentLayout.site)])
        }
        guard let source = theme.assets[name] else {
            // (A theme of one's own without an icon: the pages name none either.)
            return site.app.icon == nil ? (theme, []) : problem("the theme has no assets/\(name) (a site's own go in templates/assets/)")
        }
        let ext = FileName.split(name).ext.lowercased()
        guard formats.contains(ext) else { return problem("an icon is a PNG, JPEG, WebP or SVG file") }
        let folder = cacheRoot + "/icons"
        let stem = String(Hashing.sha256Hex(source.bytes).prefix(24))
        var assets: [String: Theme.Asset] = [:]
        for size in AppIcon.sizes {
            let path = "\(folder)/\(stem)-\(size).png"
            if FileManager.default.fileExists(atPath: path) == false {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    let original = "\(folder)/\(stem).\(ext)"
                    if !FileManager.default.fileExists(atPath: original) { try Data(source.bytes).write(to: URL(fileURLWithPath: original), options: .atomic) }
                    let made = "\(path).\(ProcessInfo.processInfo.processIdentifier).png"
                    switch ImageIO.write(original, to: made, width: size, square: true, format: .png, quality: 100) {
                    case .success: break
                    case .failure(let failure):
                        try? FileManager.default.removeItem(atPath: made)
                        return problem(failure.reason)
                    }
                    // (rename(2): a copy another build made first is replaced by the same bytes.)
                    guard rename(made, path) == 0 else {
                        try? FileManager.default.removeItem(atPath: made)
                        return problem("cannot write \(path): \(String(cString: strerror(errno)))")
                    }
                } catch {
                    return problem("cannot write \(path): \(error.localizedDescription)")
                }
            }
            guard let data = FileManager.default.contents(atPath: path) else { return problem("cannot read \(path)") }
            let bytes = [UInt8](data)
            let hash = String(Hashing.sha256Hex(bytes).prefix(10))
            assets[AppIcon.asset(size)] = Theme.Asset(output: Routes.asset(stem: "app-icon-\(size)", hash: hash, extension: "png"), bytes: bytes)
        }
        return (theme.adding(assets: assets), [])
    }
}
