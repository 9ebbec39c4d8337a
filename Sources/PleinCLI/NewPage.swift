import ArgumentParser
import PleinCore
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

struct NewPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Prints a strong new passphrase for a members-only group (visibility: members).",
        discussion: """
            Give it to the group's members, and to the build, never to the content repository: as \
            PLEIN_PASSPHRASE_<GROUP> (a CI secret), or in a file that `plein build --passphrases <file>` reads \
            ('<group>: <passphrase>' a line). Changing it seals the group's pages again under the new one.
            """)

    func run() {
        print(Passphrase.generate())
    }
}

struct NewSecret: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Prints a strong new secret for message threads' addresses and keys (PLEIN_SECRET).",
        discussion: """
            Give it to every build, never to the content repository: as PLEIN_SECRET (a CI secret), or in a file that \
            `plein build --secret-file <file>` reads. Every thread's address is made from it: changing it moves them all. \
            A weak secret is refused (a build with threads fails; plein check says why), as anyone who guesses it can find \
            every thread's address and key.
            """)

    func run() {
        print(Passphrase.generate())
    }
}
