import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// `/<page>/`: a page of the site's own (`pages/<page>.md`), such as "How to join": its title
/// and its Markdown, in the site's frame, with a link in the menu unless it says otherwise.
struct OwnPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Values: TemplateValues, Encodable {
        let ownPage: OwnPageText
    }

    struct OwnPageText: Encodable {
        let title: String
        let body: TrustedHTML?
    }

    func page() -> Page {
        guard let p = view.page(id) else { return missingPage("page \(id)", kind: .page, path: routes.page(id), section: .none) }
        var page = Page(
            kind: .page, path: routes.page(id), title: p.title,
            description: p.description ?? summary(of: p.file, limit: 200, otherwise: p.title), section: .none)
        page.values = Values(ownPage: OwnPageText(title: p.title, body: view.body(p.file)?.html))
        page.feeds = [siteFeed]
        page.source = p.file
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}
