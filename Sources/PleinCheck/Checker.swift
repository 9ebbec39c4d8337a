public import PleinCore
/// The rules that span records: references, membership, uniqueness, times that cannot be.
/// Per-field rules (types, ranges, required fields) were already applied while loading.
public enum Checker {
    public static func check(_ content: Content) -> [Diagnostic] {
        var run = CheckRun(content: content)
        run.checkPlaces()
        run.checkMembers()
        run.checkGroups()
        run.checkAlbums()
        run.checkGoals()
        run.checkGroupEvents()
        run.checkReports()
        run.checkCheckIns()
        run.checkThreads()
        run.checkTexts()
        run.checkSections()
        run.foldKnockOns()
        return run.diagnostics
    }

    /// The problems `check` finds in the files of these reports (their own, their replies' and
    /// their text attachments'), and no others: every rule that looks at a report reads that
    /// report and the members, nothing of the other reports.
    public static func check(_ content: Content, reports ids: Set<String>) -> [Diagnostic] {
        var run = CheckRun(content: content)
        for report in content.reports(ids) {
            run.checkReport(report)
            run.checkTexts(CheckRun.texts(of: report, in: content))
        }
        return run.diagnostics
    }

    /// The files whose problems `check(_:reports:)` finds.
    public static func files(of report: Report) -> Set<String> {
        Set([report.file] + report.replies.map(\.file) + textAttachments(of: report))
    }

    static func textAttachments(of report: Report) -> [String] {
        report.resources.filter { AttachmentType.of($0)?.isText == true }.map { ContentLayout.attachment(report.id, file: $0) }
    }
}

private struct CheckRun {
    let content: Content
    let members: MemberIndex
    var diagnostics: [Diagnostic] = []
    /// "Not a member of this group" errors that a mistyped member of that group's list causes,
    /// by the place of that mistake: told with it, not on their own.
    var knockOns: [CauseKey: [String]] = [:]

    struct CauseKey: Hashable {
        let file: String
        let span: Span
    }

    init(content: Content) {
        self.content = content
        self.members = content.memberIndex
    }

    mutating func add(_ problem: Problem, _ file: String, _ span: Span = .fileStart) {
        diagnostics.append(Diagnostic(problem, in: file, at: span))
    }

    /// Resolves a member reference to the member's id, reporting it when unknown.
    @discardableResult
    mutating func member(_ ref: Located<String>, in file: String) -> String? {
        if let member = members.resolve(ref.value) { return member }
        if known(.member, ref.value) { return nil }
        add(.unknownReference(.member, ref.value, suggestion: members.suggestion(for: ref.value)), file, ref.span)
        return nil
    }

    /// Whether a record exists though its file could not be read (that problem is reported).
    func known(_ kind: Problem.Reference, _ id: String) -> Bool {
        content.unreadable[kind]?.contains(id) ?? false
    }

    /// Reports entries that name the same thing twice.
    mutating func checkUnique(_ refs: [Located<String>], key: (String) -> String?, field: String, file: String) {
        var seen: Set<String> = []
        for ref in refs {
            guard let k = key(ref.value) else { continue }
            if !seen.insert(k).inserted { add(.duplicateEntry(ref.value, field: field), file, ref.span) }
        }
    }

    // MARK: Rules

    mutating func checkPlaces() {
        var seen: Set<String> = []
        for place in content.places where !seen.insert(place.name.lowercased()).inserted {
            add(.duplicateEntry(place.name, field: "name"), "places.yaml", place.span)
        }
    }

    mutating func checkMembers() {
        var emails: [String: Member] = [:]
        let placeNames = content.places.map(\.name)
        let reportIDs = Set(content.reports.map(\.id))
        let avatars = content.images.keys.filter { $0.hasPrefix(ContentLayout.members + "/") }.map { String($0.dropFirst(ContentLayout.members.count + 1)) }
        for member in content.members {
            let key = Email.key(member.email)
            if !key.isEmpty {
                if let first = emails[key] {
                    add(.duplicateEmail(member.email, firstIn: first.id), member.file, member.spans["email"] ?? .fileStart)
                } else {
                    emails[key] = member
                }
            }
            if case .place(let name)? = member.home,
               !content.places.contains(where: { $0.name == name }) {
                let suggestion = content.places.first { $0.name.lowercased() == name.lowercased() }?.name
                    ?? Suggestions.closest(to: name, in: placeNames)
                add(.unknownReference(.place, name, suggestion: suggestion), member.file, member.spans["home"] ?? .fileStart)
            }
            if let avatar = member.avatar, member.spans["avatar"] != nil, content.images[ContentLayout.avatar(avatar.value)] == nil {
                add(.unknownReference(.avatar, avatar.value, suggestion: Suggestions.closest(to: avatar.value, in: avatars)),
                    member.file, avatar.span)
            }
            // Followed reports exist only where the site has reports.
            for follow in member.follows where content.site.has(.reports) && !reportIDs.contains(follow.value) && !known(.report, follow.value) {
                add(.unknownReference(.report, follow.value, suggestion: Suggestions.closest(to: follow.value, in: reportIDs)),
                    member.file, follow.span)
            }
            checkUnique(member.follows, key: { $0 }, field: "follows", file: member.file)
            for friend in member.friends { self.member(friend, in: member.file) }
            checkUnique(member.friends, key: { [members] in members.resolve($0) }, field: "friends", file: member.file)
        }
    }

    mutating func checkGroups() {
        var names: [String: Group] = [:]
        for group in content.groups {
            let key = group.name.lowercased()
            if let other = names[key] {
                add(.duplicateGroupName(group.name, other: other.id), group.file, group.spans["name"] ?? .fileStart)
            } else {
                names[key] = group
            }
            for ref in group.members { member(ref, in: group.file) }
            checkUnique(group.members, key: { [members] in members.resolve($0) }, field: "members", file: group.file)
            if group.members.isEmpty, group.spans["members"] != nil {
                add(.groupWithoutMembers, group.file, group.spans["members"]!)
            }
            if let creator = group.createdBy { member(creator, in: group.file) }
        }
    }

    /// The ids of a group's members, for membership rules.
    func memberIDs(of groupID: String) -> [String]? {
        guard let group = content.groups.first(where: { $0.id == groupID }) else { return nil }
        return group.members.compactMap { members.resolve($0.value) }
    }

    /// Reports a reference to someone who is not in the group (or not a member at all).
    mutating func requireGroupMember(_ ref: Located<String>, group: String, file: String) {
        guard let resolved = member(ref, in: file), let ids = memberIDs(of: group) else { return }
        if !ids.contains(resolved) {
            // A member the group's list meant but mistyped (its closest member is this one): the
            // mistake in the list is the one to fix, and this follows from it.
            if let list = content.groups.first(where: { $0.id == group }),
               let cause = list.members.first(where: { members.resolve($0.value) == nil && members.suggestion(for: $0.value).flatMap(members.resolve) == resolved }) {
                knockOns[CauseKey(file: list.file, span: cause.span), default: []].append("\(content.displayRoot)/\(file):\(ref.span.line)")
                return
            }
            let suggestion = ref.value.contains("@") ? nil : Suggestions.closest(to: ref.value, in: ids)
            add(.notGroupMember(member: ref.value, group: group, suggestion: suggestion), file, ref.span)
        }
    }

    /// Tells the errors that follow from a mistyped member of a group's list with that mistake.
    mutating func foldKnockOns() {
        guard !knockOns.isEmpty else { return }
        diagnostics = diagnostics.map { d in
            guard case .unknownReference(.member, let value, let suggestion) = d.problem,
                  let places = knockOns[CauseKey(file: d.file, span: d.span)] else { return d }
            return Diagnostic(.unknownGroupMember(value, suggestion: suggestion, causes: places.sorted()), in: d.file, at: d.span)
        }
    }

    /// Whether an album file is a photo or video the album shows (not a damaged file).
    func isShown(_ path: String) -> Bool {
        content.images[path]?.kind != nil || content.videos[path] != nil
    }

    mutating func checkAlbums() {
        for album in content.albums {
            let files = album.imageFiles
            func unknown(_ name: String) -> Problem {
                let suggestion = Suggestions.closest(to: name, in: files)
                // The closest name first, then the others in the folder's order.
                let present = (suggestion.map { [$0] } ?? []) + files.sorted().filter { $0 != suggestion }
                return .unknownPhoto(name, suggestion: suggestion, present: Array(present.prefix(12)))
            }
            if let cover = album.cover, !files.contains(cover.value) {
                add(unknown(cover.value), album.file, cover.span)
            }
            for entry in album.entries {
                if !files.contains(entry.file.value) {
                    add(unknown(entry.file.value), album.file, entry.file.span)
                } else if entry.caption == nil, isShown("\(album.folder)/\(entry.file.value)") {
                    add(.photoWithoutCaption(entry.file.value), album.file, entry.file.span)
                }
                if let by = entry.by { requireGroupMember(by, group: album.group, file: album.file) }
            }
            if let by = album.by { requireGroupMember(by, group: album.group, file: album.file) }
            checkUnique(album.entries.map(\.file), key: { $0 }, field: "photos", file: album.file)
            let listed = Set(album.entries.map(\.file.value))
            for file in files where !listed.contains(file) && isShown("\(album.folder)/\(file)") {
                // On the album's index.md, where the caption goes (a warning on the photo would
                // land on a binary file in a pull request).
                add(.photoWithoutCaption(file), album.file, album.spans["photos"] ?? .fileStart)
            }
            var slugs: [String: String] = [:]
            let named = PhotoName.slugs(files)
            for file in files {
                let slug = named[file] ?? PhotoName.slug(file)
                if let other = slugs[slug] {
                    add(.idCollision(file, other: other), "\(album.folder)/\(file)")
                } else {
                    slugs[slug] = file
                }
            }
        }
    }

    mutating func checkGoals() {
        for goal in content.goals {
            if let adder = goal.addedBy { requireGroupMember(adder, group: goal.group, file: goal.file) }
            for entry in goal.tally { requireGroupMember(entry.by, group: goal.group, file: goal.file) }
            if goal.target == nil, let field = ["tally", "unit"].first(where: { goal.spans[$0] != nil }) {
                add(.tallyWithoutTarget(field: field), goal.file, goal.spans[field]!)
            }
            switch (goal.completedBy, goal.completedAt) {
            case (let by?, _?):
                requireGroupMember(by, group: goal.group, file: goal.file)
            case (_?, nil):
                add(.completionHalf(present: "completed_by", missing: "completed_at"), goal.file, goal.spans["completed_by"]!)
            case (nil, _?):
                add(.completionHalf(present: "completed_at", missing: "completed_by"), goal.file, goal.spans["completed_at"]!)
            case (nil, nil):
                break
            }
            if let added = goal.added, let done = goal.completedAt, done < added, !(added.isDateOnly && done.seconds >= added.seconds - 86_400) {
                add(.completedBeforeAdded, goal.file, goal.spans["completed_at"] ?? .fileStart)
            }
        }
    }

    mutating func checkReports() {
        for report in content.reports { checkReport(report) }
    }

    mutating func checkReport(_ report: Report) {
        if !report.author.value.isEmpty { member(report.author, in: report.file) }
        if !content.site.categories.contains(report.category) {
            add(.categoryOff(report.category.rawValue, allowed: content.site.categories.map(\.rawValue)), report.file,
                report.spans["category"] ?? .fileStart)
        }
        for reply in report.replies {
            member(reply.author, in: reply.file)
            if reply.at < report.at {
                add(.replyBeforeReport(event: report.category == .event), reply.file, spanOfField("at", in: reply.file))
            }
        }
        checkEvent(report)
    }

    /// An event's times and place: only on events, and never ending before they start (a date
    /// alone for `ends` is the whole of that day).
    mutating func checkEvent(_ report: Report) {
        let given = [("starts", report.starts != nil), ("ends", report.ends != nil), ("place", report.place != nil)].filter(\.1).map(\.0)
        guard report.category == .event else {
            for field in given { add(.eventFieldWithoutEvent(field), report.file, report.spans[field] ?? .fileStart) }
            return
        }
        guard let ends = report.ends else { return }
        guard let starts = report.starts else {
            add(.eventEndsWithoutStart, report.file, report.spans["ends"] ?? .fileStart)
            return
        }
        checkEventTimes(starts: starts, ends: ends, file: report.file, span: report.spans["ends"])
    }

    /// A group's events: organised by a member of the group, never ending before they start.
    mutating func checkGroupEvents() {
        for event in content.events {
            if let by = event.by { requireGroupMember(by, group: event.group, file: event.file) }
            if let ends = event.ends { checkEventTimes(starts: event.starts, ends: ends, file: event.file, span: event.spans["ends"]) }
        }
    }

    /// `ends` before `starts` is an error at `ends` (a date alone for `ends` is the whole of that day).
    mutating func checkEventTimes(starts: Moment, ends: Moment, file: String, span: Span?) {
        let endsBefore = ends.isDateOnly ? ends.seconds + 86_400 <= starts.seconds : ends < starts
        if endsBefore { add(.eventEndsBeforeStart, file, span ?? .fileStart) }
    }

    /// The position of a top-level field in a file whose spans were not kept (replies, messages).
    func spanOfField(_ name: String, in file: String) -> Span {
        guard let text = content.sources[file] else { return .fileStart }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.hasPrefix(name + ":") {
            let value = line.dropFirst(name.count + 1).drop { $0 == " " }
            let column = line.count - value.count + 1
            return Span(line: index + 1, column: column, length: max(1, value.count))
        }
        return .fileStart
    }

    mutating func checkCheckIns() {
        let locations = Dictionary(content.locations.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let locationIDs = content.locations.map(\.id)
        for (member, file) in content.checkInFiles.sorted(by: { $0.key < $1.key }) where !members.ids.contains(member) {
            add(.unknownReference(.member, member, suggestion: members.suggestion(for: member)), file)
        }
        var open: [String: Int] = [:]
        var previous: CheckIn?
        for checkIn in content.checkIns {
            if locations[checkIn.location.value] == nil, !known(.location, checkIn.location.value) {
                add(.unknownReference(.location, checkIn.location.value, suggestion: Suggestions.closest(to: checkIn.location.value, in: locationIDs)),
                    checkIn.file, checkIn.location.span)
            }
            if let out = checkIn.checkOut, out <= checkIn.checkIn {
                add(.checkOutBeforeCheckIn, checkIn.file, checkIn.outSpan ?? checkIn.span)
            }
            if checkIn.checkOut == nil { open[checkIn.location.value, default: 0] += 1 }
            if let hours = locations[checkIn.location.value]?.openingHours, let day = closedDay(hours, at: checkIn.checkIn) {
                add(.checkInWhileClosed(location: checkIn.location.value, day: day), checkIn.file, checkIn.inSpan)
            }
            // Entries are sorted by member, then check-in time: an overlap is with the one before.
            if let before = previous, before.member == checkIn.member {
                let end = before.checkOut ?? Moment(seconds: .max)
                if checkIn.checkIn < end { add(.overlappingCheckIns(otherLine: before.span.line), checkIn.file, checkIn.inSpan) }
            }
            previous = checkIn
        }
        for (id, count) in open.sorted(by: { $0.key < $1.key }) {
            guard let location = locations[id], let seats = location.seats, count > seats else { continue }
            add(.overCapacity(location: id, open: count, seats: seats), location.file, location.spans["seats"] ?? .fileStart)
        }
    }

    /// The day's name when `hours` say the location is closed all that day at `moment` (and no
    /// opening of the day before runs past midnight into it).
    func closedDay(_ hours: OpeningHours, at moment: Moment) -> String? {
        let civil = content.site.clock.civil(moment)
        let index = civil.weekday - 1
        guard let today = hours.days[index], today.isEmpty else { return nil }
        let minute = civil.hour * 60 + civil.minute
        let yesterday = hours.days[(index + 6) % 7] ?? []
        if yesterday.contains(where: { $0.end > 24 * 60 && minute < $0.end - 24 * 60 }) { return nil }
        return OpeningHours.dayNames[index]
    }

    /// Content kept in files of other sections: diving cards, when the site has no divers.
    mutating func checkSections() {
        let cards = content.members.count { $0.diving != nil }
        if !content.site.has(.divers), cards > 0 {
            add(.divingCardsOff(count: cards), "site.yaml", spanOfField("sections", in: "site.yaml"))
        }
    }

    /// Every text that is published as written, with its file: the records' Markdown, and the
    /// text files of reports.
    var bodies: [(String, Body)] {
        var bodies: [(String, Body)] = content.members.map { ($0.file, $0.body) } + content.groups.map { ($0.file, $0.body) }
        bodies += content.albums.map { ($0.file, $0.body) } + content.goals.map { ($0.file, $0.body) }
        bodies += content.events.map { ($0.file, $0.body) }
        bodies += content.reports.flatMap { [($0.file, $0.body)] + $0.replies.map { ($0.file, $0.body) } }
        bodies += content.pages.map { ($0.file, $0.body) }
        bodies += content.locations.map { ($0.file, $0.body) } + content.threads.flatMap { $0.messages.map { ($0.file, $0.body) } }
        for report in content.reports { bodies += Self.attachmentTexts(of: report, in: content) }
        return bodies
    }

    /// A report's texts: its body, its replies' and its text attachments'.
    static func texts(of report: Report, in content: Content) -> [(String, Body)] {
        [(report.file, report.body)] + report.replies.map { ($0.file, $0.body) } + attachmentTexts(of: report, in: content)
    }

    static func attachmentTexts(of report: Report, in content: Content) -> [(String, Body)] {
        Checker.textAttachments(of: report).compactMap { path in content.sources[path].map { (path, Body(markdown: $0, line: 1)) } }
    }

    /// Text that `plein new` wrote for the author to replace, still there; and a member's
    /// registered address written into a text, where it is published as written (plein never
    /// publishes the `email` of a member's file).
    mutating func checkTexts() {
        checkTexts(bodies)
    }

    mutating func checkTexts(_ bodies: [(String, Body)]) {
        for (file, body) in bodies {
            if let (text, line) = Placeholders.find(in: body) {
                add(.placeholderLeft(text), file, Span(line: line, column: 1, length: text.count))
            }
            guard !members.byEmail.isEmpty, body.markdown.containsByte(UInt8(ascii: "@")) else { continue }
            for (address, line, column) in Self.addresses(in: body) {
                guard let member = members.byEmail[Email.key(address)] else { continue }
                add(.registeredAddressInText(member: member.id), file, Span(line: line, column: column, length: address.count))
            }
        }
    }

    /// The e-mail addresses in a text, with their lines in the file and columns.
    static func addresses(in body: Body) -> [(String, Int, Int)] {
        func local(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || Array("._%+-".utf8).contains(byte)
        }
        func domain(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x2D
        }
        let bytes = Array(body.markdown.utf8)
        var found: [(String, Int, Int)] = []
        var line = body.line, lineStart = 0
        for (i, byte) in bytes.enumerated() {
            if byte == 0x0A {
                line += 1
                lineStart = i + 1
            }
            guard byte == UInt8(ascii: "@") else { continue }
            var a = i, b = i + 1
            while a > lineStart, local(bytes[a - 1]) { a -= 1 }
            while b < bytes.count, domain(bytes[b]) { b += 1 }
            while b > i + 1, bytes[b - 1] == 0x2E { b -= 1 }
            guard a < i, b > i + 1 else { continue }
            found.append((String(decoding: bytes[a..<b], as: UTF8.self), line, a - lineStart + 1))
        }
        return found
    }

    mutating func checkThreads() {
        for thread in content.threads {
            var ids: [String] = []
            for participant in thread.participants {
                if let resolved = member(participant, in: thread.file), !ids.contains(resolved) { ids.append(resolved) }
            }
            checkUnique(thread.participants, key: { [members] in members.resolve($0) }, field: "participants", file: thread.file)
            let distinct = Set(thread.participants.map { members.resolve($0.value) ?? $0.value }).count
            if distinct < 2 {
                add(.tooFewParticipants(distinct), thread.file, thread.spans["participants"] ?? .fileStart)
            }
            for message in thread.messages {
                guard let author = member(message.author, in: message.file) else { continue }
                if !ids.contains(author) {
                    add(.notParticipant(message.author.value, suggestion: Suggestions.closest(to: message.author.value, in: ids)),
                        message.file, message.author.span)
                }
            }
        }
    }
}
