import ArgumentParser
import Foundation
import PleinBuild
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

/// Runs a scaffold step and prints the file it wrote.
func scaffold(_ content: String, _ body: (Scaffold) throws(Scaffold.Failure) -> String) throws {
    do {
        print(try body(Scaffold(contentRoot: content)))
    } catch let failure as Scaffold.Failure {
        throw UsageError(message: failure.description)
    }
}

struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes a new content file in the right place, with the right name.",
        discussion: "Missing required values are asked for on a terminal. Existing files are never overwritten.",
        subcommands: [NewSite.self, NewTheme.self, NewMember.self, NewGroup.self, NewAlbum.self, NewGoal.self, NewReport.self,
                      NewReply.self, NewLocation.self, NewCheckIn.self, NewMessage.self]
    )
}

struct NewSite: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "site", abstract: "Starts an empty community in a new folder.")
    @Argument(help: "The folder to create.") var folder: String
    @Option var title: String?
    @Option(name: .customLong("base-url")) var baseURL = "https://example.org/"
    @Option var language: String = "nl"
    @Option var timezone = "Europe/Amsterdam"

    func run() throws {
        guard let language = Language(rawValue: language) else { throw UsageError(message: "--language is nl or en") }
        guard SiteClock(identifier: timezone) != nil else { throw UsageError(message: "unknown time zone '\(timezone)'") }
        let name = try ask(title, "Site title", option: "--title")
        do {
            for path in try Scaffold.site(at: folder, title: name, baseURL: baseURL, language: language, timezone: timezone) {
                print(path)
            }
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
    static let configuration = CommandConfiguration(commandName: "member", abstract: "A member: users/<id>.md.")
    @OptionGroup var site: ContentLocation
    @Option var name: String?
    @Option var email: String?
    @Option(help: "The id (default: made from the name).") var id: String?

    func run() throws {
        let name = try ask(name, "Name", option: "--name")
        let email = try ask(email, "E-mail address (never published)", option: "--email")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.member(name: name, email: email, id: id) }
    }
}

struct NewGroup: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "group", abstract: "A group: groups/<id>/index.md.")
    @OptionGroup var site: ContentLocation
    @Option var name: String?
    @Option(help: "Members by id or e-mail, separated by commas.") var members: String?

    func run() throws {
        let name = try ask(name, "Group name", option: "--name")
        let members = try ask(members, "Members (ids, separated by commas)", option: "--members")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.group(name: name, members: members) }
    }
}

struct NewAlbum: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "album", abstract: "An album: groups/<group>/albums/<id>/index.md.")
    @OptionGroup var site: ContentLocation
    @Option var group: String?
    @Option var title: String?
    @Option var date: String?

    func run() throws {
        let group = try ask(group, "Group id", option: "--group")
        let title = try ask(title, "Album title", option: "--title")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.album(group: group, title: title, date: date) }
    }
}

struct NewGoal: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "goal", abstract: "A goal: groups/<group>/goals/<id>.md.")
    @OptionGroup var site: ContentLocation
    @Option var group: String?
    @Option var title: String?
    @Option var points: Int?
    @Option(name: .customLong("added-by")) var addedBy: String?

    func run() throws {
        let group = try ask(group, "Group id", option: "--group")
        let title = try ask(title, "Goal", option: "--title")
        guard let points = try points ?? Int(ask(nil, "Points", option: "--points")) else {
            throw UsageError(message: "--points must be a whole number")
        }
        let adder = try ask(addedBy, "Added by (member id)", option: "--added-by")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.goal(group: group, title: title, points: points, addedBy: adder) }
    }
}

struct NewReport: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report", abstract: "A report: reports/<area>/<date>-<slug>.md.")
    @OptionGroup var site: ContentLocation
    @Option var area: String?
    @Option var title: String?
    @Option(help: "suspicious, attention, event, complaint or message.") var category: String?
    @Option var author: String?
    @Option var lat: Double?
    @Option var lon: Double?
    @Option(help: "When it happened (default: now).") var at: String?

    func run() throws {
        let area = try ask(area, "Postcode area", option: "--area")
        let title = try ask(title, "Title", option: "--title")
        let category = try ask(category, "Category (suspicious, attention, event, complaint, message)", option: "--category")
        let author = try ask(author, "Author (member id)", option: "--author")
        guard let lat = try lat ?? Double(ask(nil, "Latitude", option: "--lat")),
              let lon = try lon ?? Double(ask(nil, "Longitude", option: "--lon")) else {
            throw UsageError(message: "--lat and --lon must be numbers")
        }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
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
    @Option var lat: Double?
    @Option var lon: Double?
    @Option var seats: Int?

    func run() throws {
        let name = try ask(name, "Name", option: "--name")
        guard let lat = try lat ?? Double(ask(nil, "Latitude", option: "--lat")),
              let lon = try lon ?? Double(ask(nil, "Longitude", option: "--lon")),
              let seats = try seats ?? Int(ask(nil, "Seats", option: "--seats")) else {
            throw UsageError(message: "--lat, --lon and --seats must be numbers")
        }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.location(name: name, address: address, lat: lat, lon: lon, seats: seats)
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
