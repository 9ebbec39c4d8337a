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

    struct Values: TemplateValues {
        let title: String
        let body: TrustedHTML?

        var template: TemplateContext {
            var c: TemplateContext = ["title": .text(title)]
            if let body, !body.isEmpty { c["body"] = .html(body) }
            return ["own_page": .object(c)]
        }
    }

    func page() -> Page {
        let p = view.page(id)!
        var page = Page(
            kind: .page, path: routes.page(id), title: p.title,
            description: p.description ?? summary(of: p.file, limit: 200, otherwise: p.title), section: .none)
        page.values = Values(title: p.title, body: view.body(p.file)?.html)
        page.feeds = [siteFeed]
        page.source = p.file
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}
