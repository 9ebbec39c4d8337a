/// What a content path holds, decided by where it sits (PRODUCT.md, "Content format"): the
/// reading of `ContentLayout`'s paths, kept beside it.
public enum FileRole: Equatable, Sendable {
    case site, places, readme
    case member(id: String)
    case avatar
    case group(id: String)
    case album(group: String, id: String)
    case photo(group: String, album: String)
    case goal(group: String, id: String)
    case event(group: String, id: String)
    case area(id: String)
    case report(area: String, name: String, bundle: Bool)
    case reply(area: String, report: String, name: String)
    case reportResource(area: String, report: String)
    case location(id: String)
    case checkins(member: String)
    case thread(id: String)
    case message(thread: String, name: String)
    /// A page of the site's own: `pages/<id>.md`.
    case page(id: String)
    case unexpected(hint: String)

    /// Images as browsers show them: the only kinds a report bundle publishes as images.
    public static let webImageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp"]
    /// Every photo format: what phones and cameras save, too (HEIC, HEIF, AVIF).
    public static let imageExtensions: Set<String> = webImageExtensions.union(["heic", "heif", "avif"])
    /// Videos an album accepts; published as web MP4 with a poster.
    public static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "webm"]

    /// Whether the file is a report's own (one file, or a bundle's index.md).
    public var isReport: Bool {
        if case .report = self { return true }
        return false
    }

    public var isMember: Bool {
        if case .member = self { return true }
        return false
    }

    /// Whether the file at `path` is a record's whose pages show its history (when it was added
    /// and last changed: `Revision`).
    public static func hasRevision(_ path: String) -> Bool {
        switch of(path) {
        case .report, .reply, .member, .group, .album, .goal, .event, .page, .location: true
        default: false
        }
    }

    /// The section of the site a file belongs to, when it belongs to one section only.
    public static func section(of path: String) -> SiteSection? {
        switch path.split(separator: "/", maxSplits: 1).first {
        case "groups": return .groups
        case "reports": return .reports
        case "locations", "checkins": return .study
        default: return nil
        }
    }

    public static func of(_ path: String) -> FileRole {
        let parts = path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        let name = parts.last ?? ""
        let (stem, ext) = splitExtension(name)
        let isImage = imageExtensions.contains(ext.lowercased())
        switch (parts.first, parts.count) {
        case ("site.yaml", 1): return .site
        case ("places.yaml", 1): return .places
        case (_, 1) where ext.lowercased() == "md": return .readme
        case ("users", 2):
            if ext == "md" { return .member(id: stem) }
            if isImage { return .avatar }
            return .unexpected(hint: "members are users/<member>.md, avatars .jpg, .png, .webp, .heic or .avif beside them")
        case ("groups", 3) where name == "index.md":
            return .group(id: parts[1])
        case ("groups", 5) where parts[2] == "albums":
            if name == "index.md" { return .album(group: parts[1], id: parts[3]) }
            if isImage || isVideo(ext) { return .photo(group: parts[1], album: parts[3]) }
            return .unexpected(hint: "an album folder holds index.md, photos (.jpg, .png, .webp, .heic, .heif, .avif) and videos (.mp4, .mov, .m4v, .webm)")
        case ("groups", 4) where parts[2] == "goals" && ext == "md":
            return .goal(group: parts[1], id: stem)
        case ("groups", 4) where parts[2] == "events" && ext == "md":
            return .event(group: parts[1], id: stem)
        case ("groups", _):
            return .unexpected(hint: "groups hold index.md, albums/<album>/, goals/<goal>.md and events/<event>.md")
        case ("reports", 3):
            if name == "area.yaml" { return .area(id: parts[1]) }
            if ext == "md" { return .report(area: parts[1], name: stem, bundle: false) }
            return .unexpected(hint: "an area folder holds area.yaml and reports named <YYYY-MM-DD>-<slug>.md")
        case ("reports", 4) where name == "index.md":
            return .report(area: parts[1], name: parts[2], bundle: true)
        case ("reports", 5) where parts[3] == "replies":
            if ext == "md" { return .reply(area: parts[1], report: parts[2], name: stem) }
            return .unexpected(hint: "replies are Markdown files named <YYYYMMDD>T<HHMM>-<member>.md")
        case ("reports", let n) where n >= 4:
            return .reportResource(area: parts[1], report: parts[2])
        case ("locations", 2) where ext == "md":
            return .location(id: stem)
        case ("checkins", 2) where ext == "yaml":
            return .checkins(member: stem)
        case ("checkins", 2) where ext == "yml":
            return .unexpected(hint: "rename it to \(stem).yaml")
        case ("threads", 3) where name == "thread.yaml":
            return .thread(id: parts[1])
        case ("threads", 3) where ext == "md":
            return .message(thread: parts[1], name: stem)
        case ("pages", 2) where ext == "md":
            return .page(id: stem)
        case ("pages", _): return .unexpected(hint: "the site's own pages are Markdown files, pages/<page>.md")
        case ("locations", _): return .unexpected(hint: "study locations are locations/<location>.md")
        case ("checkins", _): return .unexpected(hint: "check-ins are checkins/<member>.yaml")
        case ("threads", _): return .unexpected(hint: "a thread folder holds thread.yaml and <stamp>-<member>.md messages")
        case ("reports", _): return .unexpected(hint: "reports are reports/<area>/<YYYY-MM-DD>-<slug>.md")
        default:
            return .unexpected(hint: "content lives in site.yaml, places.yaml, users/, groups/, reports/, locations/, checkins/, threads/ and pages/")
        }
    }

    /// Why a symbolic link at `link` may not stand for the file at `target` (both content paths),
    /// or nil when it may. A link is followed only to a file that is published as it is in its own
    /// place (a photo, an avatar, a report's attachment), from a place that publishes such files,
    /// and into a group's folder only from that same group: never to a member's file, a thread or
    /// the files of another group, which may be private.
    public static func linkRefusal(from link: String, to target: String) -> String? {
        func published(_ path: String) -> Bool {
            let ext = splitExtension(path).ext.lowercased()
            switch of(path) {
            case .avatar: return imageExtensions.contains(ext)
            case .photo: return imageExtensions.contains(ext) || videoExtensions.contains(ext)
            case .reportResource:
                let name = path.split(separator: "/").last.map(String.init) ?? path
                return webImageExtensions.contains(ext) || AttachmentType.of(name) != nil
            default: return false
            }
        }
        guard published(target) else {
            return "it points to '\(target)', which is not a photo, an avatar or a file a report publishes"
        }
        guard published(link) else {
            return "a symbolic link may stand only for a photo, an avatar or a file a report publishes"
        }
        let targetParts = target.split(separator: "/"), linkParts = link.split(separator: "/")
        if targetParts.first == "groups", linkParts.prefix(2) != targetParts.prefix(2) {
            return "it points into another group's folder ('\(target)'), which may not be published"
        }
        return nil
    }

    public static func isVideo(_ ext: String) -> Bool { videoExtensions.contains(ext.lowercased()) }

    public static func splitExtension(_ name: String) -> (stem: String, ext: String) { FileName.split(name) }
}
