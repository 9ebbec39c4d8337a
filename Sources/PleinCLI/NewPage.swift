import ArgumentParser
import PleinScaffold

struct NewPage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "A page of the site's own (How to join, Contact): pages/<id>.md, published at /<id>/ and linked from the menu.")
    @OptionGroup var site: ContentLocation
    @Option var title: String?
    @Option(help: "The page's name in its address (default: made from the title).") var id: String?
    @Option(name: .customLong("menu-title"), help: "A shorter text for its link in the menu.") var menuTitle: String?
    @Option(help: "Where it comes in the menu among the site's own pages: lower first.") var order: Int?
    @Flag(name: .customLong("no-menu"), help: "Leave the page out of the menu (link to it from other pages).") var noMenu = false

    func run() throws {
        let title = try ask(title, "Title", option: "--title")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.page(title: title, id: id, menuTitle: menuTitle, order: order, menu: !noMenu)
        }
    }
}
