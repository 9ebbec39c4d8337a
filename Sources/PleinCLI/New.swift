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
func placeOrCoordinate(_ text: String) -> FieldValue {
    let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
        return .object([("lat", .plain(String(lat))), ("lon", .plain(String(lon)))])
    }
    return .text(text)
}

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
        subcommands: [NewSite.self, NewTheme.self, NewCI.self, NewMember.self, NewGroup.self, NewAlbum.self, NewGoal.self, NewEvent.self, NewReport.self,
                      NewReply.self, NewLocation.self, NewCheckIn.self, NewMessage.self, NewPage.self]
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
    @Option(help: "Also write CI for this forge: github or gitlab (see plein new ci).") var forge: ForgeOption?

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
        let language = try chosenLanguage()
        let timezone = try chosenTimeZone()
        do {
            for path in try Scaffold.site(at: folder, title: name, baseURL: baseURL, language: language, timezone: timezone, sections: sections,
                                                categories: categories, profile: profile) {
                print(path)
            }
            if let forge {
                for path in try Scaffold.ci(at: folder, forge: forge.forge) { print(path) }
            }
        } catch {
            throw UsageError(message: error.description)
        }
    }
}

/// `--forge`: the forges plein writes CI for.
enum ForgeOption: String, ExpressibleByArgument, CaseIterable {
    case github, gitlab
    var forge: Scaffold.Forge { self == .github ? .github : .gitlab }
}

struct NewCI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract: "Writes CI for the site's forge: pull requests checked with annotations, the default branch published to Pages.",
        discussion: "github writes .github/workflows/plein.yml (GitHub Pages); gitlab writes .gitlab-ci.yml (GitLab Pages). Run it in the site's folder, the root of its repository."
    )
    @Option(help: "github or gitlab.") var forge: ForgeOption
    @Option(name: .customLong("package-url"), help: "Where the CI downloads plein's Debian package (default: this version's release).")
    var packageURL: String?
    @Option(name: .customLong("package-sha256"), help: "The package's SHA-256 (sha256sum), checked before it is installed.")
    var packageSHA256: String?

    func run() throws {
        guard let site = SiteLayout.find() else {
            throw UsageError(message: "no plein site here (no content/site.yaml in this folder or above)")
        }
        do {
            let package = Scaffold.PackageSource(url: packageURL, sha256: packageSHA256)
            for path in try Scaffold.ci(at: site.root, forge: forge.forge, package: package) { print(path) }
        } catch {
            throw UsageError(message: error.description)
        }
    }
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

struct NewMember: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member", abstract: "A member: users/<id>.md.",
        discussion: "Every field can be given as an option; on a terminal, the ones left out are asked for (Enter leaves one out).")
    @OptionGroup var site: ContentLocation
    @Option var name: String?
    @Option var email: String?
    @Option(help: "The id (default: made from the name).") var id: String?
    @Option(help: "The date they joined (default: left out; asked on a terminal).") var joined: String?
    @Option(parsing: .unconditional, help: "Where they live: a place of places.yaml, or lat,lon (published only coarsened).")
    var home: String?
    @Option(help: "Their postcode area.") var postcode: String?
    @Option(help: "Diving card: highest certification.") var certification: String?
    @Option(help: "Diving card: years of experience.") var years: Int?
    @Option(help: "Diving card: logged dives.") var dives: Int?
    @Option(help: "Friends, by id, separated by commas.") var friends: String?

    func run() throws {
        let name = try ask(name, "Name", option: "--name")
        let email = askOptional(email, "E-mail address (optional; never published, but readable in the repository)")
        var fields: [(String, FieldValue)] = []
        if let joined = askOptional(joined, "Joined (a date such as 2019-04-01)") { fields.append(("joined", .plain(joined))) }
        if let home = askOptional(home, "Home: a place or lat,lon") { fields.append(("home", placeOrCoordinate(home))) }
        if let postcode = askOptional(postcode, "Postcode area") { fields.append(("postcode", .text(postcode))) }
        var diving: [(String, FieldValue)] = []
        if let certification = askOptional(certification, "Diving certification") { diving.append(("certification", .text(certification))) }
        if let years = years.map(String.init) ?? askOptional(nil, "Years of diving") { diving.append(("years", .plain(years))) }
        if let dives = dives.map(String.init) ?? askOptional(nil, "Logged dives") { diving.append(("dives", .plain(dives))) }
        if !diving.isEmpty { fields.append(("diving", .object(diving))) }
        let friends = items(askOptional(friends, "Friends (ids, separated by commas)"))
        if !friends.isEmpty { fields.append(("friends", .list(friends))) }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.member(name: name, email: email, id: id, fields: fields) }
    }
}

struct NewGroup: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "group", abstract: "A group: groups/<id>/index.md.")
    @OptionGroup var site: ContentLocation
    @Option var name: String?
    @Option(help: "Members by id or e-mail, separated by commas.") var members: String?
    @Option(name: .customLong("created-by"), help: "The member who started it (default: the first member).") var createdBy: String?
    @Option(help: "public (default), unlisted or private.") var visibility: String?

    func run() throws {
        let name = try ask(name, "Group name", option: "--name")
        let members = items(try ask(members, "Members (ids, separated by commas)", option: "--members"))
        var fields: [(String, FieldValue)] = []
        if let createdBy { fields.append(("created_by", .plain(createdBy))) }
        if let visibility = askOptional(visibility, "Visibility: public, unlisted or private") { fields.append(("visibility", .plain(visibility))) }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.group(name: name, members: members, fields: fields) }
    }
}

struct NewAlbum: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "album", abstract: "An album: groups/<group>/albums/<id>/index.md.")
    @OptionGroup var site: ContentLocation
    @Option var group: String?
    @Option var title: String?
    @Option var date: String?
    @Option(help: "The member who made the album (credited in feeds).") var by: String?

    func run() throws {
        let group = try ask(group, "Group id", option: "--group")
        let title = try ask(title, "Album title", option: "--title")
        var fields: [(String, FieldValue)] = []
        if let by = askOptional(by, "Made by (member id)") { fields.append(("by", .plain(by))) }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.album(group: group, title: title, date: date, fields: fields) }
    }
}

struct NewGoal: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "goal", abstract: "A goal: groups/<group>/goals/<id>.md.")
    @OptionGroup var site: ContentLocation
    @Option var group: String?
    @Option var title: String?
    @Option var points: Int?
    @Option(name: .customLong("added-by")) var addedBy: String?
    @Option(help: "When it was added (default: today, or the day it was completed).") var added: String?
    @Option(name: .customLong("completed-by"), help: "To record a goal already done: the member of the group who completed it.")
    var completedBy: String?
    @Option(name: .customLong("completed-at"), help: "When it was completed (default: now).") var completedAt: String?
    @Option(help: "For a goal the group reaches together: the total to reach, e.g. 100.") var target: Int?
    @Option(help: "What the tally counts, e.g. dives.") var unit: String?

    func run() throws {
        let group = try ask(group, "Group id", option: "--group")
        let title = try ask(title, "Goal", option: "--title")
        guard let points = try points ?? Int(ask(nil, "Points", option: "--points")) else {
            throw UsageError(message: "--points must be a whole number")
        }
        let adder = try ask(addedBy, "Added by (member id)", option: "--added-by")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.goal(group: group, title: title, points: points, addedBy: adder, added: added, completedBy: completedBy, completedAt: completedAt,
                       target: target, unit: unit)
        }
    }
}

struct NewEvent: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "event", abstract: "A group's event: groups/<group>/events/<id>.md.")
    @OptionGroup var site: ContentLocation
    @Option var group: String?
    @Option var title: String?
    @Option(help: "When it starts, e.g. 2027-01-01T13:00 (a date alone: all day).") var starts: String?
    @Option(help: "When it ends (a date alone: the last day).") var ends: String?
    @Option(help: "Where: a name of places.yaml or any text.") var place: String?
    @Option(help: "The member of the group who organises it.") var by: String?

    func run() throws {
        // Each answer is checked as it is given, and asked again when it cannot be used; what
        // the command line gave is not asked again.
        let s = Scaffold(contentRoot: site.folder)
        let group = try askChecked(group, "Group id", option: "--group") { answer throws(Scaffold.Failure) in try s.checkGroup(answer) }
        let title = try ask(title, "Event", option: "--title")
        let starts = try askChecked(starts, "Starts (YYYY-MM-DDTHH:MM, or a date)", option: "--starts") { answer throws(Scaffold.Failure) in
            try s.checkTime(answer)
        }
        let ends = try askChecked(ends, "Ends", optional: true) { answer throws(Scaffold.Failure) in try s.checkTime(answer) }
        let place = askOptional(place, "Place")
        let by = try askChecked(by, "Organised by (member id)", optional: true) { answer throws(Scaffold.Failure) in
            try s.checkGroupMember(answer, group: group)
        }
        try scaffold(s) { s throws(Scaffold.Failure) in
            try s.event(group: group, title: title, starts: starts, ends: ends, place: place, by: by)
        }
    }
}

struct NewReport: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report", abstract: "A report: reports/<area>/<date>-<slug>.md.")
    @OptionGroup var site: ContentLocation
    @Option var area: String?
    @Option var title: String?
    @Option(help: "One of the site's categories: suspicious, attention, event, complaint or message (site.yaml 'categories').") var category: String?
    @Option var author: String?
    // West of Greenwich and south of the equator a coordinate starts with '-': taken as the value.
    @Option(parsing: .unconditional) var lat: Double?
    @Option(parsing: .unconditional) var lon: Double?
    @Option(help: "When it happened (default: now).") var at: String?

    func run() throws {
        let area = try ask(area, "Postcode area", option: "--area")
        let title = try ask(title, "Title", option: "--title")
        let scaffolding = Scaffold(contentRoot: site.folder)
        let categories = scaffolding.content.site.categories.map(\.rawValue)
        let category = try ask(category, "Category (\(categories.joined(separator: ", ")))", option: "--category")
        let author = try ask(author, "Author (member id)", option: "--author")
        guard let lat = try lat ?? Double(ask(nil, "Latitude", option: "--lat")),
              let lon = try lon ?? Double(ask(nil, "Longitude", option: "--lon")) else {
            throw UsageError(message: "--lat and --lon must be numbers")
        }
        try scaffold(scaffolding) { s throws(Scaffold.Failure) in
            try s.report(area: area, title: title, category: category, author: author, lat: lat, lon: lon, at: at)
        }
    }
}

struct NewReply: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reply", abstract: "A reply to a report.")
    @OptionGroup var site: ContentLocation
    @Option(help: "The report, as <area>/<date>-<slug>.") var report: String?
    @Option var author: String?
    @Option var at: String?

    func run() throws {
        let report = try ask(report, "Report (<area>/<date>-<slug>)", option: "--report")
        let author = try ask(author, "Author (member id)", option: "--author")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.reply(report: report, author: author, at: at) }
    }
}

struct NewLocation: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "location", abstract: "A study location: locations/<id>.md.")
    @OptionGroup var site: ContentLocation
    @Option var name: String?
    @Option var address: String?
    // West of Greenwich and south of the equator a coordinate starts with '-': taken as the value.
    @Option(parsing: .unconditional) var lat: Double?
    @Option(parsing: .unconditional) var lon: Double?
    @Option var seats: Int?
    @Option(name: .customLong("student-id-required"), help: "Whether a student ID is needed (true or false).") var studentIDRequired: Bool?
    @Option(name: .customLong("opening-hours"), help: "Days and hours, e.g. \"mon-fri 09:00-17:00, sat-sun closed\".") var openingHours: String?

    func run() throws {
        let name = try ask(name, "Name", option: "--name")
        guard let lat = try lat ?? Double(ask(nil, "Latitude", option: "--lat")),
              let lon = try lon ?? Double(ask(nil, "Longitude", option: "--lon")),
              let seats = try seats ?? Int(ask(nil, "Seats", option: "--seats")) else {
            throw UsageError(message: "--lat, --lon and --seats must be numbers")
        }
        var fields: [(String, FieldValue)] = []
        if let studentIDRequired { fields.append(("student_id_required", .flag(studentIDRequired))) }
        if let hours = askOptional(openingHours, "Opening hours, e.g. mon-fri 09:00-17:00, sat-sun closed") {
            let entries = items(hours).compactMap { entry -> (String, FieldValue)? in
                let parts = entry.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return nil }
                return (parts[0], parts[1] == "closed" ? .plain("closed") : .text(parts[1]))
            }
            fields.append(("opening_hours", .object(entries)))
        }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.location(name: name, address: address, lat: lat, lon: lon, seats: seats, fields: fields)
        }
    }
}

struct NewCheckIn: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "checkin", abstract: "A check-in, added to checkins/<member>.yaml.")
    @OptionGroup var site: ContentLocation
    @Option var member: String?
    @Option var location: String?
    @Option(name: .customLong("in"), help: "Check-in time (default: now).") var checkIn: String?
    @Option(name: .customLong("out"), help: "Check-out time (leave out while still checked in).") var checkOut: String?

    func run() throws {
        let member = try ask(member, "Member id", option: "--member")
        let location = try ask(location, "Location id", option: "--location")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.checkIn(member: member, location: location, at: checkIn, out: checkOut)
        }
    }
}

struct NewMessage: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "message", abstract: "A message in a thread (a new thread too).")
    @OptionGroup var site: ContentLocation
    @Option var thread: String?
    @Option var author: String?
    @Option(help: "For a new thread: the other members, separated by commas.") var participants: String?
    @Option(help: "For a new thread: its subject.") var subject: String?
    @Option var at: String?

    func run() throws {
        let thread = try ask(thread, "Thread id", option: "--thread")
        let author = try ask(author, "Author (member id)", option: "--author")
        let others = (participants ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.message(thread: thread, author: author, participants: others, subject: subject, at: at)
        }
    }
}

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Writes a JSON Schema for every kind of content file (for editors that check YAML as you type)."
    )

    @Option(help: "The folder to write the schemas to.") var output = ".plein/schemas"

    func run() throws {
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for schema in Schemas.all {
                let path = output + "/\(schema.kind).json"
                try (JSONSchemaWriter.schema(schema).serialized(pretty: true) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
                print(path)
            }
        } catch {
            throw UsageError(message: "cannot write schemas to \(output): \(error.localizedDescription)")
        }
    }
}
