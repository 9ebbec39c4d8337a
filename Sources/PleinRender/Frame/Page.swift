import PleinCore
import PleinMustache

/// A page about to be rendered: its kind (which names its template), the page's own values and
/// what the frame around it needs (title, description, feeds, breadcrumbs).
struct Page {
    var kind: OutputID.Kind
    var path: String
    var title: String
    var description: String
    var section: Section
    /// The page's own values, typed.
    var values: (any TemplateValues)?
    var image: String?
    var noindex = false
    var nofollow = false
    var feeds: [Feed] = []
    var source: String?
    var breadcrumbs: [(label: String, path: String)] = []
    /// Overrides the file name (`404.html`).
    var fileName: String?
    /// Loads Leaflet on this page.
    var hasMap = false
    /// Another template than the kind's: `sealed`, for a members-only group's page in the open.
    var templateName: String?
    /// Lists of its values whose items' bytes its render tells, to keep (`ModelView.items`).
    var keptLists: [PendingList] = []

    /// The template of the page's kind (`OutputID.Kind`, the one table of them).
    var template: String {
        if let templateName { return templateName }
        guard let name = kind.template else { preconditionFailure("\(kind) is not a page") }
        return name
    }

    /// A feed the page links in its head (`<link rel="alternate">`) and its footer.
    struct Feed {
        let title: String
        let path: String
        let type: String
        /// Whether an Atom feed has a JSON Feed twin beside it.
        var jsonTwin = false

        static func atom(_ title: String, _ path: String, jsonTwin: Bool) -> Feed {
            Feed(title: title, path: path, type: "application/atom+xml", jsonTwin: jsonTwin)
        }
        static func calendar(_ title: String, _ path: String) -> Feed { Feed(title: title, path: path, type: "text/calendar") }
    }
}

/// The top-level sections, for the navigation bar.
enum Section: String, CaseIterable {
    case home, members, divers, groups, reports, locations, now, none

    /// The part of the site (`site.yaml` `sections`) a page belongs to.
    var siteSection: SiteSection? {
        switch self {
        case .members: return .members
        case .divers: return .divers
        case .groups: return .groups
        case .reports: return .reports
        case .locations: return .study
        case .now: return .now
        case .home, .none: return nil
        }
    }
}

/// Makes one kind of page.
protocol PageRenderer: Rendering {
    func page() -> Page
}

extension PageRenderer {
    /// The page of a record the model could not give (`ModelView.miss`): empty, and noted, so
    /// that the build says its output is not right instead of stopping.
    func missingPage(_ what: String, kind: OutputID.Kind, path: String, section: Section) -> Page {
        view.miss(what, Page(kind: kind, path: path, title: what, description: "", section: section))
    }
}
