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
        // (The icons on the app's background, which their cache names carry.)
        let background = AppColours(site: site, theme: theme).background
        let original = "\(folder)/\(stem).\(ext)"
        var assets: [String: Theme.Asset] = [:]
        // Each icon: its asset, its size, and the share of it the icon fills on the background
        // (nil: as it is, its transparency kept).
        let icons: [(name: String, size: Int, inner: Double?)] = [
            (AppIcon.asset(180), 180, 1), (AppIcon.asset(192), 192, nil), (AppIcon.asset(512), 512, nil), (AppIcon.maskable, 512, 0.6),
        ]
        for icon in icons {
            let path = icon.inner == nil ? "\(folder)/\(stem)-\(icon.size).png"
                : "\(folder)/\(stem)-\(icon.size)-\(Int(icon.inner! * 100))-\(background.dropFirst()).png"
            if FileManager.default.fileExists(atPath: path) == false {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    if !FileManager.default.fileExists(atPath: original) { try Data(source.bytes).write(to: URL(fileURLWithPath: original), options: .atomic) }
                    if let failure = make(original, size: icon.size, inner: icon.inner, background: background, to: path) { return problem(failure) }
                } catch {
                    return problem("cannot write \(path): \(error.localizedDescription)")
                }
            }
            guard let data = FileManager.default.contents(atPath: path) else { return problem("cannot read \(path)") }
            let bytes = [UInt8](data)
            let hash = String(Hashing.sha256Hex(bytes).prefix(10))
            assets[icon.name] = Theme.Asset(output: Routes.asset(stem: FileName.split(icon.name).stem, hash: hash, extension: "png"), bytes: bytes)
        }
        return (theme.adding(assets: assets), [])
    }

    /// Makes one icon at `path` (through temporary files beside it, renamed into place): the
    /// source `size` pixels square, or, with `inner`, that share of it in the middle of a square
    /// of `background` (the icon made at its own size first, then drawn at one to one on the
    /// background by librsvg, so that nothing is scaled twice). Returns why it could not.
    static func make(_ original: String, size: Int, inner: Double?, background: String, to path: String) -> String? {
        let temporary = "\(path).\(ProcessInfo.processInfo.processIdentifier)"
        let made = temporary + ".png", drawn = temporary + ".svg", middle = temporary + ".inner.png"
        defer { [drawn, middle].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        var source = original
        if let inner {
            let side = Int((Double(size) * inner).rounded())
            if case .failure(let failure) = ImageIO.write(original, to: middle, width: side, square: true, format: .png, quality: 100) {
                return failure.reason
            }
            guard let png = FileManager.default.contents(atPath: middle) else { return "cannot read \(middle)" }
            let offset = (size - side) / 2
            let data = "data:image/png;base64," + png.base64EncodedString()
            let svg = """
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(size)" height="\(size)" \
                viewBox="0 0 \(size) \(size)"><rect width="\(size)" height="\(size)" fill="\(background)"/><image x="\(offset)" \
                y="\(offset)" width="\(side)" height="\(side)" href="\(data)" xlink:href="\(data)"/></svg>
                """
            do { try Data(svg.utf8).write(to: URL(fileURLWithPath: drawn)) } catch { return "cannot write \(drawn): \(error.localizedDescription)" }
            source = drawn
        }
        if case .failure(let failure) = ImageIO.write(source, to: made, width: size, square: true, format: .png, quality: 100) {
            try? FileManager.default.removeItem(atPath: made)
            return failure.reason
        }
        // (rename(2): a copy another build made first is replaced by the same bytes.)
        guard rename(made, path) == 0 else {
            try? FileManager.default.removeItem(atPath: made)
            return "cannot write \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
