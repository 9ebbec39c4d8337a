import PleinText
import PleinModel
import ArgumentParser
import Foundation
import PleinBuild
import PleinScaffold
import PleinCore

// plein new member, group, album, goal, event, report, reply, location and check-in (the site, CI and theme are in New.swift).
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
        let joined = askOptional(joined, "Joined (a date such as 2019-04-01)")
        let home = askOptional(home, "Home: a place or lat,lon").map(FieldValue.placeOrCoordinate)
        let postcode = askOptional(postcode, "Postcode area")
        var diving = Scaffold.Diving(certification: askOptional(certification, "Diving certification"))
        diving.years = try years ?? askOptional(nil, "Years of diving").map { answer in
            guard let years = Int(answer) else { throw UsageError(message: "years of diving must be a number") }
            return years
        }
        diving.dives = try dives ?? askOptional(nil, "Logged dives").map { answer in
            guard let dives = Int(answer) else { throw UsageError(message: "logged dives must be a number") }
            return dives
        }
        let friends = items(askOptional(friends, "Friends (ids, separated by commas)"))
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.member(name: name, email: email, id: id, joined: joined, home: home, postcode: postcode, diving: diving, friends: friends)
        }
    }
}

struct NewGroup: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "group", abstract: "A group: groups/<id>/index.md.")
    @OptionGroup var site: ContentLocation
    @Option var name: String?
    @Option(help: "Members by id or e-mail, separated by commas.") var members: String?
    @Option(name: .customLong("created-by"), help: "The member who started it (default: the first member).") var createdBy: String?
    @Option(help: "public (default), unlisted, members (encrypted: see `plein new passphrase`) or private.") var visibility: String?

    func run() throws {
        let name = try ask(name, "Group name", option: "--name")
        let members = items(try ask(members, "Members (ids, separated by commas)", option: "--members"))
        let visibility = askOptional(visibility, "Visibility: public, unlisted, members or private")
        let made = Scaffold(contentRoot: site.folder)
        try scaffold(made) { s throws(Scaffold.Failure) in
            try s.group(name: name, members: members, createdBy: createdBy, visibility: visibility)
        }
        guard visibility == "members" || visibility == "private" else { return }
        if visibility == "members" {
            Terminal.note("the group is published only encrypted, for those who have its passphrase: `plein new passphrase` makes one; give it to the build (plein help encryption)")
        }
        // The site hides the group; the repository does not.
        let config = made.content.site
        if let repository = config.repository, !config.repositoryPrivate {
            Terminal.note("""
                its files are plain text in the content repository (\(repository)): if that is public, anyone can read them there. \
                Make it private, then add 'repository_private: true' to site.yaml (plein help publishing)
                """)
        } else if config.repository == nil {
            Terminal.note("its files are plain text in the site's folder: keep any repository you put it in private (plein help publishing)")
        }
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
        let by = askOptional(by, "Made by (member id)")
        try scaffold(site.folder) { s throws(Scaffold.Failure) in try s.album(group: group, title: title, date: date, by: by) }
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
    @Option(help: "One of the site's categories, by its id (suspicious, attention, event, complaint, message) or its name on the site.") var category: String?
    @Option var author: String?
    // West of Greenwich and south of the equator a coordinate starts with '-': taken as the value.
    @Option(parsing: .unconditional) var lat: Double?
    @Option(parsing: .unconditional) var lon: Double?
    @Option(help: "When it happened (default: now).") var at: String?

    func run() throws {
        // Each answer is checked as it is given, and asked again when it cannot be used, in the
        // site's words: its areas and categories by their names, a member by their name.
        let s = Scaffold(contentRoot: site.folder)
        let content = s.content
        let areas = content.areas.map { ($0.id, $0.name) }
        let known = content.areas.map { Scaffold.IssueForm.option(name: $0.name, id: $0.id) }
        let area = Scaffold.IssueAnswers.record(try askChecked(area, "Area" + (known.isEmpty ? " (its id, often the postcode)" : " (\(known.joined(separator: ", ")), or a new one's id)"),
                                                               option: "--area") { answer throws(Scaffold.Failure) in
            let id = Scaffold.IssueAnswers.record(answer, among: areas)
            guard Slug.isValid(id) else { throw Scaffold.Failure("'\(answer)' is not an area of the site, nor an id for a new one (lower-case letters, digits and dashes)") }
        }, among: areas)
        let title = try ask(title, "Title", option: "--title")
        let words = Scaffold.IssueForm.categoryLabels(site: content.site)
        let said = content.site.categories.map { words[$0]! }
        let category = Scaffold.IssueForm.category(try askChecked(category, "Category (\(said.joined(separator: ", ")))", option: "--category") { answer throws(Scaffold.Failure) in
            let id = Scaffold.IssueForm.category(answer, site: content.site)
            guard content.site.categories.contains(where: { $0.rawValue == id }) else {
                throw Scaffold.Failure("'\(answer)' is not one of this site's categories: \(said.joined(separator: ", "))")
            }
        }, site: content.site)
        let author = try askChecked(author, "Author (a member's id or name)", option: "--author") { answer throws(Scaffold.Failure) in
            _ = try s.checkMember(answer)
        }
        let position: Coordinate
        if let lat, let lon {
            position = Coordinate(lat: lat, lon: lon)
        } else if lat != nil || lon != nil {
            throw UsageError(message: "give both --lat and --lon")
        } else {
            var found: Coordinate?
            _ = try askChecked(nil, "Where (a place of places.yaml, a map app's link, or latitude, longitude)", option: "--lat and --lon") { answer throws(Scaffold.Failure) in
                switch Scaffold.IssueAnswers.position(answer, content: content) {
                case .at(let c, _): found = c
                case .unknown(let why): throw Scaffold.Failure(why)
                }
            }
            position = found!
        }
        try scaffold(s) { s throws(Scaffold.Failure) in
            try s.report(area: area, title: title, category: category, author: author, lat: position.lat, lon: position.lon, at: at)
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
        let hours = askOptional(openingHours, "Opening hours, e.g. mon-fri 09:00-17:00, sat-sun closed").map { hours in
            items(hours).compactMap { entry -> (days: String, hours: String)? in
                let parts = entry.split(separator: " ", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
        }
        try scaffold(site.folder) { s throws(Scaffold.Failure) in
            try s.location(name: name, address: address, lat: lat, lon: lon, seats: seats, studentIDRequired: studentIDRequired ?? false,
                           openingHours: hours)
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
