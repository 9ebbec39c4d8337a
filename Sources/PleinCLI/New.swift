import PleinText
import PleinModel
import ArgumentParser
import Foundation
import PleinBuild
import PleinScaffold
import PleinCore

/// Asks for a value on a terminal; elsewhere a missing required option is a usage error.
func ask(_ value: String?, _ question: String, option: String) throws -> String {
    if let value, !value.isEmpty { return value }
    guard isatty(STDIN_FILENO) == 1 else { throw UsageError(message: "missing \(option)") }
    FileHandle.standardError.write(Data("\(question): ".utf8))
    guard let line = readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw UsageError(message: "missing \(option)")
    }
    return line.trimmingCharacters(in: .whitespaces)
}

/// An optional value: the option's, else (on a terminal) an answer that may be left empty.
func askOptional(_ value: String?, _ question: String) -> String? {
    if let value { return value.isEmpty ? nil : value }
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    FileHandle.standardError.write(Data("\(question) (Enter to leave out): ".utf8))
    guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { return nil }
    return line
}

/// A value given on the command line, checked once; else (on a terminal) an answer, asked again
/// until `check` takes it, so that nothing typed so far is lost to one mistake. With `optional`,
/// an empty answer leaves the value out.
func askChecked(_ value: String?, _ question: String, option: String = "", optional: Bool = false,
                _ check: (String) throws(Scaffold.Failure) -> Void) throws -> String? {
    func checked(_ answer: String) throws(Scaffold.Failure) -> String {
        try check(answer)
        return answer
    }
    if let value {
        if optional && value.isEmpty { return nil }
        do { return try checked(value) } catch { throw UsageError(message: error.description) }
    }
    guard isatty(STDIN_FILENO) == 1 else {
        if optional { return nil }
        throw UsageError(message: "missing \(option)")
    }
    while true {
        FileHandle.standardError.write(Data("\(question)\(optional ? " (Enter to leave out)" : ""): ".utf8))
        guard let line = readLine() else { throw UsageError(message: "missing \(option)") }
        let answer = line.trimmingCharacters(in: .whitespaces)
        if answer.isEmpty {
            if optional { return nil }
            continue
        }
        do { return try checked(answer) } catch { FileHandle.standardError.write(Data("\(error.description)\n".utf8)) }
    }
}

/// A required value, given or asked until `check` takes it.
func askChecked(_ value: String?, _ question: String, option: String, _ check: (String) throws(Scaffold.Failure) -> Void) throws -> String {
    guard let answer = try askChecked(value, question, option: option, optional: false, check) else { throw UsageError(message: "missing \(option)") }
    return answer
}

/// A comma-separated list as a list of items.
func items(_ text: String?) -> [String] {
    (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// `52.37,4.89` as a coordinate, anything else as a place name.
/// Runs a scaffold step and prints the file it wrote.
func scaffold(_ content: String, _ body: (Scaffold) throws(Scaffold.Failure) -> String) throws {
    try scaffold(Scaffold(contentRoot: content), body)
}

/// The same with a scaffold already made (its content loaded once, for the questions too).
func scaffold(_ s: Scaffold, _ body: (Scaffold) throws(Scaffold.Failure) -> String) throws {
    do {
        print(try body(s))
    } catch let failure as Scaffold.Failure {
        throw UsageError(message: failure.description)
    }
}

struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes a new content file in the right place, with the right name.",
        discussion: "Missing required values are asked for on a terminal. Existing files are never overwritten.",
        subcommands: [NewSite.self, NewTheme.self, NewCI.self, NewCMS.self, NewFromIssue.self, NewMember.self, NewGroup.self, NewAlbum.self, NewGoal.self, NewEvent.self, NewReport.self,
                      NewReply.self, NewLocation.self, NewCheckIn.self, NewMessage.self, NewPage.self, NewPassphrase.self, NewSecret.self]
    )
}

struct NewSite: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "site", abstract: "Starts an empty community in a new folder.")
    @Argument(help: "The folder to create.") var folder: String
    @Option var title: String?
    @Option(name: .customLong("base-url")) var baseURL = "https://example.org/"
    @Option(help: "The language of the site's pages: en or nl (default: asked on a terminal, else en).") var language: String?
    @Option(help: "The site's time zone, an IANA name such as Europe/London (default: asked on a terminal, else this computer's).")
    var timezone: String?
    @Option(help: "The parts of the site, separated by commas: members, divers, groups, reports, study, now (default: all; asked on a terminal).")
    var sections: String?
    @Option(help: "The forge of the site's repository: github, gitlab, gitea or forgejo. Also writes its CI (github, gitlab: see plein new ci) and a CMS at /admin/ (see plein new cms).")
    var forge: ForgeOption?
    @Option(help: "The content repository's address, e.g. https://gitlab.com/club/site (edit links, and the CMS).") var repository: String?
    @Option(name: .customLong("app-id"), help: "The OAuth application members sign in to the CMS with (GitLab, Gitea, Forgejo).") var appID: String?
    @OptionGroup(title: "How the CI gets plein (with --forge github or gitlab)") var package: PackageOptions

    /// The sections given, or (on a terminal) the kind of community chosen, with its report
    /// categories.
    func chosenKind() throws -> (sections: Set<SiteSection>, categories: [Category], profile: [ProfilePart]) {
        if let sections {
            var chosen: Set<SiteSection> = []
            for name in items(sections) {
                guard let section = SiteSection(rawValue: name) else {
                    let hint = Suggestions.closest(to: name, in: SiteSection.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
                    throw UsageError(message: "unknown section '\(name)'\(hint); use \(SiteSection.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                chosen.insert(section)
            }
            return (chosen, Category.allCases, ProfilePart.allCases)
        }
        guard isatty(STDIN_FILENO) == 1 else { return (Set(SiteSection.allCases), Category.allCases, ProfilePart.allCases) }
        var question = "Which kind of community is it?\n"
        for (number, kind) in Scaffold.kinds.enumerated() { question += "  \(number + 1). \(kind.name)\n" }
        FileHandle.standardError.write(Data((question + "Number (Enter for everything): ").utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let number = Int(answer), Scaffold.kinds.indices.contains(number - 1) else {
            return (Set(SiteSection.allCases), Category.allCases, ProfilePart.allCases)
        }
        let kind = Scaffold.kinds[number - 1]
        return (Set(kind.sections), kind.categories, kind.profile)
    }

    /// The language given, or (on a terminal) the one chosen; English otherwise.
    func chosenLanguage() throws -> Language {
        if let language {
            guard let chosen = Language(rawValue: language) else { throw UsageError(message: "--language is en or nl") }
            return chosen
        }
        guard isatty(STDIN_FILENO) == 1 else { return .en }
        FileHandle.standardError.write(Data("The language of the site's pages:\n  1. English\n  2. Nederlands\nNumber (Enter for English): ".utf8))
        return readLine()?.trimmingCharacters(in: .whitespaces) == "2" ? .nl : .en
    }

    /// The time zone given, or (on a terminal) the one chosen, this computer's by default.
    func chosenTimeZone() throws -> String {
        let here = Self.systemTimeZone()
        guard let timezone else {
            guard isatty(STDIN_FILENO) == 1 else { return here }
            while true {
                FileHandle.standardError.write(Data("The site's time zone (Enter for \(here)): ".utf8))
                guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else { return here }
                do { return try Self.checkedTimeZone(answer) } catch let error as UsageError {
                    FileHandle.standardError.write(Data("\(error.message)\n".utf8))
                }
            }
        }
        return try Self.checkedTimeZone(timezone)
    }

    /// `name` if it is a time zone plein knows, else an error with the closest name.
    static func checkedTimeZone(_ name: String) throws -> String {
        guard SiteClock(identifier: name) == nil else { return name }
        let known = TimeZone.knownTimeZoneIdentifiers
        let hint = Suggestions.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        throw UsageError(message: "unknown time zone '\(name)'\(hint); use an IANA name such as Europe/London or America/New_York")
    }

    /// This computer's time zone by its IANA name (`TZ`, else `/etc/localtime`), UTC when it has none.
    static func systemTimeZone() -> String {
        let name = TimeZone.current.identifier
        return name == "GMT" || SiteClock(identifier: name) == nil ? "UTC" : name
    }

    func run() throws {
        // Without a terminal to ask on, the folder's name is the title (site.yaml can change it).
        let name = title != nil || isatty(STDIN_FILENO) == 1
            ? try ask(title, "Site title", option: "--title") : URL(fileURLWithPath: folder).lastPathComponent
        let (sections, categories, profile) = try chosenKind()
        // With a forge, its repository is asked for on a terminal: edit links and the CMS need it.
        let given = repository
        let repository = forge.map { askOptional(given, "The repository's address on \($0.rawValue), e.g. https://\($0.exampleHost)/club/site") } ?? given
        let language = try chosenLanguage()
        let timezone = try chosenTimeZone()
        // A way for the CI to get plein that was asked for and cannot be had is refused before
        // anything is written; without one asked for, a package plein cannot find leaves the CI
        // for later.
        let source = forge?.ci == nil ? nil : try package.resolve()
        if case .failure(let problem)? = source, package.chosen { throw UsageError(message: problem.description) }
        defer { if case .success(.vendored(let own))? = source { own.discard() } }
        do {
            for path in try Scaffold.site(at: folder, title: name, baseURL: baseURL, language: language, timezone: timezone, sections: sections,
                                                categories: categories, profile: profile, repository: repository) {
                print(path)
            }
            if let forge {
                switch (forge.ci, source) {
                case (let ci?, .success(let source)?): try writeCI(at: folder, forge: ci, source: source)
                case (let ci?, .failure(let problem)?):
                    Terminal.note("the CI is not written: \(problem.description). Then, in \(folder): plein new ci --forge \(ci.rawValue)")
                default: break
                }
                let added = try Scaffold.cms(at: folder, .init(settings: CMSSettings(forge: forge.cms, appID: appID)))
                print(added.file)
                for step in added.next { Terminal.note("CMS: " + step) }
            }
        } catch let failure as Scaffold.Failure {
            throw UsageError(message: failure.description)
        }
    }
}

/// `--forge`: the forges a site's repository may be on.
enum ForgeOption: String, ExpressibleByArgument, CaseIterable {
    case github, gitlab, gitea, forgejo
    /// The forge's CI, when plein writes it (Gitea's and Forgejo's Actions are left to the owner).
    var ci: Scaffold.Forge? {
        switch self {
        case .github: return .github
        case .gitlab: return .gitlab
        case .gitea, .forgejo: return nil
        }
    }
    var cms: CMSSettings.Forge { CMSSettings.Forge(rawValue: rawValue)! }
    var exampleHost: String {
        switch self {
        case .github: return "github.com"
        case .gitlab: return "gitlab.com"
        case .gitea: return "gitea.com"
        case .forgejo: return "codeberg.org"
        }
    }
}

/// Runs `body` on the site this folder is in; a scaffold's failure is a usage error.
func inSite(_ body: (SiteLayout) throws(Scaffold.Failure) -> Void) throws {
    guard let site = SiteLayout.find() else {
        throw UsageError(message: "no plein site here (no content/site.yaml in this folder or above)")
    }
    do { try body(site) } catch { throw UsageError(message: error.description) }
}
