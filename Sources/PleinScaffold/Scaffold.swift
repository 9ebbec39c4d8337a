public import PleinCore
import PleinCheck
import PleinLoad
import Foundation

/// Writes new content files that `plein check` accepts: the right place, the right name, the
/// required fields. Never overwrites.
public struct Scaffold: Sendable {
    public let contentRoot: String
    public let content: Content
    /// "Now", for dates and file-name stamps (the real clock: this is authoring, not building).
    public let now: Moment

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public init(contentRoot: String, now: Moment? = nil) {
        self.contentRoot = contentRoot
        self.content = ContentLoader.load(.disk(contentRoot)).content
        self.now = now ?? Moment(seconds: Int64(Date().timeIntervalSince1970))
    }

    var clock: SiteClock { content.site.clock }

    // MARK: Writing

    /// Creates a file that must not exist yet; returns its path as shown to the user. The text
    /// is checked against its kind's schema first: a value given on the command line that the
    /// file may not hold is refused, with the checker's words.
    func create(_ relative: String, _ text: String) throws(Failure) -> String {
        let path = contentRoot + "/" + relative
        guard !FileManager.default.fileExists(atPath: path) else { throw Failure("\(path) already exists; plein new never overwrites") }
        let problems = ContentLoader.problems(of: text, at: relative, site: content.site).filter { $0.severity == .error }
        guard problems.isEmpty else {
            throw Failure(problems.map { d in "\(d.message)\(d.problem.suggestion.map { " (\($0))" } ?? "")" }.joined(separator: "; "))
        }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
        return path
    }

    /// A YAML string in double quotes (safe for any text).
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    func timestamp(_ moment: Moment) -> String { clock.rfc3339(moment) }

    /// `20261121T1430`, in the site's time zone.
    func stamp(_ moment: Moment) -> String {
        let c = clock.civil(moment)
        return c.isoDate.replacingOccurrences(of: "-", with: "") + "T" + c.hourMinute.replacingOccurrences(of: ":", with: "")
    }

    /// Parses a time given on the command line, or takes now.
    func moment(_ text: String?) throws(Failure) -> Moment {
        guard let text else { return now }
        switch ISO8601.parse(text) {
        case .success(.zoned(let civil, let offset)): return Moment(seconds: civil.secondsAsUTC - Int64(offset))
        case .success(.local(let civil)): return Moment(seconds: clock.instant(of: civil))
        case .success(.date(let civil)): return Moment(seconds: clock.instant(of: civil), isDateOnly: true)
        case .failure(let failure): throw Failure("'\(text)' is not a date or time: \(failure.reason)")
        }
    }

    /// A member of `group`, by a reference to them.
    func requireGroupMember(_ reference: String, group: String) throws(Failure) -> Member {
        guard let g = content.groups.first(where: { $0.id == group }) else { throw Failure("unknown group '\(group)'") }
        let member = try requireMember(reference)
        let index = content.memberIndex
        guard g.members.contains(where: { index.resolve($0.value) == member.id }) else {
            throw Failure("'\(member.id)' is not a member of '\(group)'")
        }
        return member
    }

    func requireMember(_ reference: String) throws(Failure) -> Member {
        let index = content.memberIndex
        guard let id = index.resolve(reference), let member = content.members.first(where: { $0.id == id }) else {
            let hint = (index.suggestion(for: reference) ?? memberNamed(reference)).map { id in
                " (did you mean '\(id)'\(content.members.first { $0.id == id && $0.name != id }.map { ", \($0.name)" } ?? "")?)"
            } ?? ""
            throw Failure("unknown member '\(reference)'\(hint)")
        }
        return member
    }

    /// The id of the member `reference` names, or why it names none.
    public func checkMember(_ reference: String) throws(Failure) -> String { try requireMember(reference).id }

    /// The member a name means ("Joan" is 'joan-price', Joan Price): the one whose name has it as
    /// a word, or whose id starts with it, when only one does.
    func memberNamed(_ text: String) -> String? {
        let folded = IssueAnswers.fold(text)
        guard !folded.isEmpty else { return nil }
        let matching = content.members.filter { member in
            let name = IssueAnswers.fold(member.name)
            return name == folded || name.split(separator: " ").contains { $0 == folded } || name.hasPrefix(folded + " ")
                || member.id.hasPrefix(folded.replacingOccurrences(of: " ", with: "-") + "-")
        }
        return matching.count == 1 ? matching[0].id : nil
    }

    func slug(_ text: String, what: String) throws(Failure) -> String {
        let slug = Slug.make(text)
        guard !slug.isEmpty else { throw Failure("cannot make an id from the \(what) '\(text)'") }
        return slug
    }

    // MARK: Record kinds

    /// A member's diving card.
    public struct Diving: Sendable {
        public var certification: String?
        public var years: Int?
        public var dives: Int?

        public init(certification: String? = nil, years: Int? = nil, dives: Int? = nil) {
            self.certification = certification
            self.years = years
            self.dives = dives
        }

        var fields: [(String, FieldValue)] {
            [("certification", certification.map(FieldValue.text)), ("years", years.map { .plain(String($0)) }),
             ("dives", dives.map { .plain(String($0)) })].compactMap { key, value in value.map { (key, $0) } }
        }
    }

    /// A member file. The e-mail address is optional: groups and goals name members by id, and
    /// an address in a public repository is an address for anyone. `home` is a place or a
    /// coordinate (`FieldValue.placeOrCoordinate`).
    public func member(
        name: String, email: String? = nil, id: String? = nil, joined: String? = nil, home: FieldValue? = nil, postcode: String? = nil,
        diving: Diving = Diving(), friends: [String] = []
    ) throws(Failure) -> String {
        var chosen = id ?? ""
        if id == nil { chosen = try slug(name, what: "name") }
        let id = chosen
        guard Slug.isValid(id) else { throw Failure("'\(id)' is not a valid id") }
        var fields: [(String, FieldValue)] = []
        if let joined { fields.append(("joined", .plain(joined))) }
        if let home { fields.append(("home", home)) }
        if let postcode { fields.append(("postcode", .text(postcode))) }
        if !diving.fields.isEmpty { fields.append(("diving", .object(diving.fields))) }
        if !friends.isEmpty { fields.append(("friends", .list(friends))) }
        if let email {
            guard Email.isValid(email) else { throw Failure("'\(email)' is not an e-mail address") }
            if let taken = content.members.first(where: { Email.key($0.email) == Email.key(email) }) {
                throw Failure("\(email) is already used by member '\(taken.id)'")
            }
            fields.insert(("email", .text(email)), at: 0)
        }
        // No `joined` unless given: entering an existing roster is not every member joining today.
        return try create(ContentLayout.member(id), """
            ---
            name: \(Self.quote(name))
            \(FieldValue.lines(fields))---
            \(Placeholders.member)

            """)
    }

    /// A report; with `files` (photos, as a post from an issue form brings them) it is a folder
    /// that holds them beside its index.md.
    public func report(area: String, title: String, category: String, author: String, lat: Double, lon: Double, at: String?,
                       body: String? = nil, files: [(name: String, bytes: [UInt8])] = []) throws(Failure) -> String {
        guard Slug.isValid(area) else { throw Failure("'\(area)' is not a valid area id") }
        let allowed = content.site.categories.map(\.rawValue)
        guard allowed.contains(category) else {
            throw Failure("'\(category)' is not one of this site's categories; use \(allowed.joined(separator: ", "))")
        }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw Failure("the coordinate is out of range") }
        let who = try requireMember(author)
        let when = try moment(at)
        let name = clock.civil(when).isoDate + "-" + (try slug(title, what: "title"))
        if FileManager.default.fileExists(atPath: contentRoot + "/" + ContentLayout.reportFolder(area + "/" + name)) {
            throw Failure("\(contentRoot)/\(ContentLayout.reportFolder(area + "/" + name))/ already exists")
        }
        if FileManager.default.fileExists(atPath: contentRoot + "/" + ContentLayout.report(area + "/" + name, bundle: false)) {
            throw Failure("\(contentRoot)/\(ContentLayout.report(area + "/" + name, bundle: false)) already exists")
        }
        let written = try create(ContentLayout.report(area + "/" + name, bundle: !files.isEmpty), """
            ---
            title: \(Self.quote(title))
            category: \(category)
            at: \(timestamp(when))
            author: \(who.id)
            location: {lat: \(lat), lon: \(lon)}
            ---
            \(body ?? Placeholders.report)

            """)
        for file in files {
            _ = try Self.writeNew(contentRoot + "/" + ContentLayout.attachment(area + "/" + name, file: file.name), file.bytes)
        }
        return written
    }

    /// A reply, in the report's `replies/` folder (beside a report that is one file, a folder of
    /// its name holds its replies).
    public func reply(report: String, author: String, at: String?, body: String? = nil) throws(Failure) -> String {
        guard content.reports.contains(where: { $0.id == report }) else {
            let hint = Suggestions.closest(to: report, in: content.reports.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
            throw Failure("unknown report '\(report)'\(hint)")
        }
        let who = try requireMember(author)
        let when = try moment(at)
        return try create(ContentLayout.reply(report, name: "\(stamp(when))-\(who.id)"), """
            ---
            author: \(who.id)
            at: \(timestamp(when))
            ---
            \(body ?? Placeholders.reply)

            """)
    }

    /// A study place. `openingHours` are days and hours (`mon-fri`, `09:00-17:00` or `closed`);
    /// without them, weekdays 09:00-17:00.
    public func location(
        name: String, address: String?, lat: Double, lon: Double, seats: Int, studentIDRequired: Bool = false,
        openingHours: [(days: String, hours: String)]? = nil
    ) throws(Failure) -> String {
        guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw Failure("the coordinate is out of range") }
        guard seats >= 0 else { throw Failure("seats cannot be negative") }
        let id = try slug(name, what: "name")
        return try create(ContentLayout.location(id), """
            ---
            name: \(Self.quote(name))
            \(address.map { "address: \(Self.quote($0))\n" } ?? "")location: {lat: \(lat), lon: \(lon)}
            seats: \(seats)
            \(FieldValue.lines([
                ("student_id_required", .flag(studentIDRequired)),
                ("opening_hours", .object((openingHours ?? [("mon-fri", "09:00-17:00"), ("sat-sun", "closed")]).map { days, hours in
                    (days, hours == "closed" ? .plain("closed") : .text(hours))
                })),
            ]))---
            \(Placeholders.location)

            """)
    }

    /// A page of the site's own, `pages/<id>.md`, published at `/<id>/` and linked from the menu
    /// unless `menu` is false.
    public func page(title: String, id idGiven: String? = nil, menuTitle: String? = nil, order: Int? = nil, menu: Bool = true) throws(Failure) -> String {
        if let id = idGiven, !Slug.isValid(id) {
            throw Failure("'\(id)' cannot name a page: use lower-case letters, digits and '-' (e.g. '\(Slug.make(id))')")
        }
        let id: String
        if let given = idGiven { id = given } else { id = try slug(title, what: "title") }
        guard !ContentLayout.reservedPageNames.contains(id) else {
            throw Failure("/\(id)/ is the site's own; give the page another name with --id, e.g. --id about-\(id)")
        }
        var fields: [(String, FieldValue)] = []
        if let menuTitle { fields.append(("menu_title", .text(menuTitle))) }
        if let order { fields.append(("order", .plain(String(order)))) }
        if !menu { fields.append(("menu", .flag(false))) }
        return try create(ContentLayout.page(id), """
            ---
            title: \(Self.quote(title))
            \(FieldValue.lines(fields))---
            \(Placeholders.page)

            """)
    }

    /// Appends a check-in to `checkins/<member>.yaml` (created when missing).
    public func checkIn(member: String, location: String, at: String?, out: String?) throws(Failure) -> String {
        let who = try requireMember(member)
        guard content.locations.contains(where: { $0.id == location }) else {
            let hint = Suggestions.closest(to: location, in: content.locations.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
            throw Failure("unknown location '\(location)'\(hint)")
        }
        let start = try moment(at)
        var entry = "- location: \(location)\n  in: \(timestamp(start))\n"
        if let out {
            let end = try moment(out)
            guard end > start else { throw Failure("check-out must be after check-in") }
            entry += "  out: \(timestamp(end))\n"
        }
        let path = contentRoot + "/" + ContentLayout.checkIns(who.id)
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        do {
            try FileManager.default.createDirectory(atPath: contentRoot + "/" + ContentLayout.checkIns, withIntermediateDirectories: true)
            try (text + entry).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
        return path
    }

    /// A message; a new thread also gets its `thread.yaml` (then participants and subject are needed).
    public func message(thread: String, author: String, participants: [String], subject: String?, at: String?) throws(Failure) -> String {
        guard Slug.isValid(thread) else { throw Failure("'\(thread)' is not a valid thread id") }
        let who = try requireMember(author)
        let when = try moment(at)
        if let existing = content.threads.first(where: { $0.id == thread }) {
            let index = content.memberIndex
            guard existing.participants.contains(where: { index.resolve($0.value) == who.id }) else {
                throw Failure("'\(who.id)' is not a participant of '\(thread)'")
            }
        } else {
            guard let subject else { throw Failure("a new thread needs --subject") }
            var ids = try participants.map { (p: String) throws(Failure) -> String in try requireMember(p).id }
            if !ids.contains(who.id) { ids.insert(who.id, at: 0) }
            guard ids.count >= 2 else { throw Failure("a new thread needs --participants: at least one other member") }
            _ = try create(ContentLayout.thread(thread), "participants: [\(ids.joined(separator: ", "))]\nsubject: \(Self.quote(subject))\n")
        }
        return try create(ContentLayout.message(thread, name: "\(stamp(when))-\(who.id)"), """
            ---
            author: \(who.id)
            at: \(timestamp(when))
            ---
            \(Placeholders.message)

            """)
    }
}
