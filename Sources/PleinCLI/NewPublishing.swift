import PleinText
import PleinModel
import ArgumentParser
import Foundation
import PleinBuild
import PleinScaffold
import PleinCore

// `plein new ci`, `plein new cms`, `plein new from-issue` and `plein new theme`: what publishes
// a site and what edits it.

struct NewCI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract: "Writes CI for the site's forge: pull requests checked with annotations, the default branch published to Pages.",
        discussion: """
            github writes .github/workflows/plein.yml (GitHub Pages), and issue forms for members who do not use git with the workflow \
            that turns an approved issue into a pull request (.github/ISSUE_TEMPLATE/, .github/workflows/plein-issues.yml); gitlab writes \
            .gitlab-ci.yml (GitLab Pages). Run it in the site's folder, the root of its repository.

            The CI gets plein the way chosen below, by default from plein's own package carried in the repository (--vendor); it \
            never downloads plein from an address nobody gave. Files written before are kept, except that --vendor points them at \
            the new package; with --update, those nobody changed since plein wrote them are written anew. It ends with what is left to do in the forge's settings; plein help publishing says more.
            """
    )
    @Option(help: "github or gitlab.") var forge: ForgeOption
    @Flag(help: "Write anew the files plein new ci wrote before that nobody changed since (the issue forms offer the site's areas, groups and places as they are now); files you changed are kept, and named.")
    var update = false
    @OptionGroup(title: "How the CI gets plein") var package: PackageOptions

    func run() throws {
        guard let ci = forge.ci else { throw UsageError(message: "plein new ci writes CI for github and gitlab; on \(forge.rawValue), see plein help members-without-git") }
        guard let site = SiteLayout.find() else {
            throw UsageError(message: "no plein site here (no content/site.yaml in this folder or above)")
        }
        switch try package.resolve() {
        case .success(let source):
            defer { if case .vendored(let own) = source { own.discard() } }
            try writeCI(at: site.root, forge: ci, source: source, update: update)
        case .failure(let problem): throw UsageError(message: problem.description)
        }
    }
}

/// Writes the CI for `forge` into the site's folder and says which way it gets plein and what is
/// left to do in the forge's settings.
func writeCI(at folder: String, forge: Scaffold.Forge, source: Scaffold.PackageSource, update: Bool = false) throws {
    do {
        let written = try Scaffold.ci(at: folder, forge: forge, package: source, update: update)
        for path in written.files { print(path) }
        for step in written.next { Terminal.note(step) }
    } catch {
        throw UsageError(message: error.description)
    }
}

/// How the CI that plein writes gets plein: its own package carried in the site's repository
/// (the default), a package its owner hosts, or plein's published release. Never an address
/// nobody gave.
struct PackageOptions: ParsableArguments {
    @Flag(help: """
        Carry plein's own Debian package in the site's repository (.plein/plein_<version>_<arch>.deb, about 25 MB), which the CI \
        installs after checking its SHA-256: no download of plein, no host of plein's. The default. The package is --package, or \
        else plein's own: packaged again from what dpkg installed, or the one `make dist` wrote in the source tree this plein was \
        built in. Run it again after updating plein: it replaces the package and the hash in the CI files.
        """)
    var vendor = false
    @Option(help: "With --vendor: the package to carry, a .deb of plein (such as `make dist` or a release makes).")
    var package: String?
    @Option(name: .customLong("package-url"), help: "Instead: where the CI downloads plein's Debian package (a .deb you host).")
    var packageURL: String?
    @Option(name: .customLong("package-sha256"), help: "With --package-url: the package's SHA-256 (sha256sum), checked before it is installed.")
    var packageSHA256: String?
    @Flag(help: "Instead: download plein's published release of this version (\(Scaffold.releasesURL)), checked against its SHA256SUMS.")
    var release = false

    /// Whether a way was chosen on the command line.
    var chosen: Bool { vendor || package != nil || packageURL != nil || release }

    /// The way chosen, or plein's own package when none was: a usage error for options that do
    /// not go together, a failure when the package cannot be found.
    func resolve() throws -> Result<Scaffold.PackageSource, Scaffold.Failure> {
        let ways = [vendor || package != nil, packageURL != nil, release].filter { $0 }.count
        if ways > 1 { throw UsageError(message: "choose one way for the CI to get plein: --vendor, --package-url or --release") }
        if packageSHA256 != nil && packageURL == nil { throw UsageError(message: "--package-sha256 goes with --package-url") }
        if let packageURL { return .success(.url(packageURL, sha256: packageSHA256)) }
        if release { return .success(.release) }
        do { return .success(.vendored(try Scaffold.OwnPackage.find(given: package))) } catch { return .failure(error) }
    }
}

struct NewCMS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cms",
        abstract: "Gives the site a CMS at /admin/ for members who do not use git: Sveltia CMS (or Decap CMS), configured from plein's schemas.",
        discussion: """
            Adds 'cms' to site.yaml; every build then publishes admin/index.html, which loads the CMS pinned to an exact version, and \
            admin/config.yml, made from plein's schemas: reports, replies, album photos, events, goal completions and check-ins, \
            in the folders and with the fields plein checks. `plein help members-without-git` says how members sign in on each forge.
            """
    )
    @Option(help: "github, gitlab, gitea or forgejo (default: from the repository's address).") var forge: ForgeOption?
    @Option(help: "The content repository's address, when site.yaml has none yet, e.g. https://gitlab.com/club/site.") var repository: String?
    @Option(help: "sveltia (the default: made for phones, and it edits check-ins) or decap.") var editor: EditorOption = .sveltia
    @Option(help: "The exact version of the CMS to load (default: the one this plein is made for).") var version: String?
    @Option(help: "The script's integrity hash, sha384-…, computed from the real file (plein help members-without-git).") var integrity: String?
    @Option(name: .customLong("app-id"), help: "The OAuth application's id members sign in with (GitLab, Gitea, Forgejo).") var appID: String?
    @Option(name: .customLong("auth-url"), help: "GitHub: the OAuth client members sign in through.") var authURL: String?
    @Flag(name: .customLong("no-review"), help: "Members' posts go straight to the branch, not through pull or merge requests.") var noReview = false
    @Flag(help: "Bring the site's 'cms' to the CMS version this plein is made for (or --version), keeping its other settings.") var update = false

    func run() throws {
        if update {
            try inSite { site throws(Scaffold.Failure) in
                let (file, said) = try Scaffold.cmsUpdate(at: site.root, version: version) { editor, version in
                    Scaffold.ScriptIntegrity.fetch(editor, version: version, environment: Terminal.environment)
                }
                if let file { print(file) }
                for line in said { Terminal.note(line) }
            }
            return
        }
        var settings = CMSSettings(editor: CMSSettings.Editor(rawValue: editor.rawValue)!, version: version, integrity: integrity, forge: forge?.cms, appID: appID,
                                   authURL: authURL, review: !noReview)
        try inSite { site throws(Scaffold.Failure) in
            // The script is fetched once, here, and pinned by its hash: every member's browser
            // then refuses any other (a CDN's or a mirror's change).
            if settings.integrity == nil {
                switch Scaffold.ScriptIntegrity.fetch(settings.editor, version: settings.version, environment: Terminal.environment) {
                case .success(let hash):
                    settings.integrity = hash
                    Terminal.error("the CMS's script is pinned by its hash, computed from the script itself: \(hash)")
                case .failure(let failure):
                    Terminal.error("warning: " + failure.description + "; the CMS is set up without an integrity hash, so browsers load its script unchecked")
                }
            }
            let added = try Scaffold.cms(at: site.root, .init(settings: settings, repository: repository))
            print(added.file)
            for step in added.next { Terminal.note(step) }
        }
    }
}

struct NewFromIssue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-issue",
        abstract: "Writes the content file a GitHub issue form asks for: a report (with its photos), a reply or an event.",
        discussion: """
            Reads the issue as GitHub gives it in JSON (the workflow's $GITHUB_EVENT_PATH, or the REST API's issue). Each answer is \
            checked as plein new checks its own; an answer plein cannot take is refused with which and why, and nothing is written. \
            The workflow that plein new ci --forge github writes runs it when a maintainer labels the issue "approved".
            """
    )
    @Argument(help: "The issue's JSON file.") var issue: String
    @Option(help: "The folder the photos were downloaded into, named as --list-attachments lists them.") var attachments: String?
    @Flag(name: .customLong("list-attachments"), help: "Only list the photos to download: a name and an address a line.") var listAttachments = false

    func run() throws {
        guard let data = FileManager.default.contents(atPath: issue) else { throw UsageError(message: "cannot read \(issue)") }
        try inSite { site throws(Scaffold.Failure) in
            let scaffold = Scaffold(contentRoot: site.content)
            let post = try Scaffold.IssuePost.read(data, forms: site.root, content: scaffold.content)
            if listAttachments {
                for attachment in post.attachments { print("\(attachment.name) \(attachment.url)") }
                return
            }
            for path in try scaffold.post(post, attachments: attachments) { print(path) }
        }
    }
}

/// `--editor`: the CMSs plein configures.
enum EditorOption: String, ExpressibleByArgument, CaseIterable {
    case sveltia, decap
}

struct NewTheme: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Copies plein's built-in theme into the site's templates/ folder, to change it.",
        discussion: "Files already there are kept. A file you delete from templates/ is taken from the built-in theme again."
    )
    @Option(help: "The folder to copy the theme into (default: templates/ of the site this folder is in).") var templates: String?

    func run() throws {
        guard let folder = templates ?? SiteLayout.find()?.templates else {
            throw UsageError(message: "no plein site here (no content/site.yaml in this folder or above); name the folder with --templates")
        }
        do {
            let written = try Scaffold.theme(into: folder)
            for path in written { print(path) }
            if written.isEmpty { Terminal.error("\(folder) already holds every file of the built-in theme") }
        } catch {
            throw UsageError(message: error.description)
        }
    }
}
