/// Where each kind of record lives in the content folder (PRODUCT.md, "Content format"): the only
/// place that spells a content path. Paths are relative to the content folder.
public enum ContentLayout {
    public static let site = "site.yaml"
    public static let places = "places.yaml"

    // MARK: Folders at the top

    public static let members = "users"
    public static let groups = "groups"
    public static let reports = "reports"
    public static let locations = "locations"
    public static let checkIns = "checkins"
    public static let threads = "threads"
    public static let pages = "pages"

    /// Hidden files and folders (.git, .DS_Store) and editors' backups are not content (what
    /// the loader reads and the build store's scan looks at alike).
    public static func isHidden(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~")
    }

    // MARK: Members

    /// `users/<id>.md`
    public static func member(_ id: String) -> String { "\(members)/\(id).md" }
    /// An avatar beside the members: `users/<file>`.
    public static func avatar(_ file: String) -> String { "\(members)/\(file)" }

    // MARK: Groups

    public static func groupFolder(_ id: String) -> String { "\(groups)/\(id)" }
    /// `groups/<id>/index.md`
    public static func group(_ id: String) -> String { groupFolder(id) + "/index.md" }
    public static func albumFolder(group: String, id: String) -> String { groupFolder(group) + "/albums/\(id)" }
    /// `groups/<group>/albums/<id>/index.md`
    public static func album(group: String, id: String) -> String { albumFolder(group: group, id: id) + "/index.md" }
    /// `groups/<group>/goals/<id>.md`
    public static func goal(group: String, id: String) -> String { groupFolder(group) + "/goals/\(id).md" }
    /// `groups/<group>/events/<id>.md`
    public static func event(group: String, id: String) -> String { groupFolder(group) + "/events/\(id).md" }

    // MARK: Reports

    public static func areaFolder(_ area: String) -> String { "\(reports)/\(area)" }
    /// `reports/<area>/area.yaml`
    public static func area(_ area: String) -> String { areaFolder(area) + "/area.yaml" }
    /// A report's folder (a bundle), by report id `<area>/<date>-<slug>`.
    public static func reportFolder(_ report: String) -> String { "\(reports)/\(report)" }
    /// `reports/<area>/<name>.md`, or `…/<name>/index.md` for a bundle.
    public static func report(_ report: String, bundle: Bool) -> String {
        bundle ? reportFolder(report) + "/index.md" : reportFolder(report) + ".md"
    }
    public static func replies(_ report: String) -> String { reportFolder(report) + "/replies" }
    /// `reports/<area>/<name>/replies/<name>.md` (`<name>` is `<stamp>-<member>` by convention).
    public static func reply(_ report: String, name: String) -> String { replies(report) + "/\(name).md" }
    /// A file published with a report: `reports/<area>/<name>/<file>`.
    public static func attachment(_ report: String, file: String) -> String { reportFolder(report) + "/\(file)" }

    // MARK: Study places and threads

    /// `locations/<id>.md`
    public static func location(_ id: String) -> String { "\(locations)/\(id).md" }
    /// `checkins/<member>.yaml`
    public static func checkIns(_ member: String) -> String { "\(checkIns)/\(member).yaml" }
    public static func threadFolder(_ id: String) -> String { "\(threads)/\(id)" }
    /// `threads/<id>/thread.yaml`
    public static func thread(_ id: String) -> String { threadFolder(id) + "/thread.yaml" }
    /// `threads/<id>/<name>.md`
    public static func message(_ thread: String, name: String) -> String { threadFolder(thread) + "/\(name).md" }

    // MARK: The site's own pages

    /// `pages/<id>.md`, published at `/<id>/`.
    public static func page(_ id: String) -> String { "\(pages)/\(id).md" }
    /// Names a page of its own may not have: the site's own folders and files at the top of
    /// the output (`Routes`), which a page at `/<id>/` would take the place of.
    public static let reservedPageNames: Set<String> = [
        "users", "divers", "groups", "events", "reports", "locations", "now", "messages", "search", "pagefind", "assets",
        "media", "feed", "sitemap", "robots", "404", "index", "leaflet", "admin",
    ]

    /// Globs of each kind of file, for editors' schema settings (`plein new site`).
    public static let globs: [String: [String]] = [
        "site": [site], "places": [places], "area": ["\(reports)/*/area.yaml"],
        "checkins": ["\(checkIns)/*.yaml"], "thread": ["\(threads)/*/thread.yaml"],
        "member": ["\(members)/*.md"], "group": ["\(groups)/*/index.md"], "album": ["\(groups)/*/albums/*/index.md"],
        "goal": ["\(groups)/*/goals/*.md"], "event": ["\(groups)/*/events/*.md"], "report": ["\(reports)/*/*.md", "\(reports)/*/*/index.md"],
        "reply": ["\(reports)/*/*/replies/*.md"], "location": ["\(locations)/*.md"], "message": ["\(threads)/*/*.md"],
        "page": ["\(pages)/*.md"],
    ]
}
