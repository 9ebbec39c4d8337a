public import PleinCore
import PleinText

/// The rules of reports and events, check-ins, sections, texts and threads (the others are in Checker.swift).
extension CheckRun {
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
        for event in content.events { checkGroupEvent(event) }
    }

    mutating func checkGroupEvent(_ event: GroupEvent) {
        if let by = event.by { requireGroupMember(by, group: event.group, file: event.file) }
        if let ends = event.ends { checkEventTimes(starts: event.starts, ends: ends, file: event.file, span: event.spans["ends"]) }
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

    /// What the site hides and the content repository does not: members-only and private groups,
    /// and message threads, are plain text in a repository that may be public. Said at each,
    /// until site.yaml says the repository is private.
    mutating func checkRepositoryExposure() {
        guard let repository = exposedRepository else { return }
        for group in content.groups { checkExposure(of: group, repository: repository) }
        for thread in content.threads { checkExposure(of: thread, repository: repository) }
    }

    mutating func checkExposure(of group: Group, repository: String) {
        let what: String
        switch group.visibility {
        case .members: what = "publishes members-only group '\(group.id)' only encrypted"
        case .private: what = "publishes nothing of private group '\(group.id)'"
        case .public, .unlisted: return
        }
        add(.plainInRepository(what: what, repository: repository, forge: forge(of: repository)), group.file, spanOfField("visibility", in: group.file))
    }

    mutating func checkExposure(of thread: Thread, repository: String) {
        add(.plainInRepository(what: "publishes thread '\(thread.id)' only under its secret link", repository: repository, forge: forge(of: repository)),
            thread.file, spanOfField("participants", in: thread.file))
    }

    /// The repository whose exposure is to be told of: none when site.yaml says it is private.
    var exposedRepository: String? {
        guard let repository = content.site.repository, !content.site.repositoryPrivate else { return nil }
        return repository
    }

    private func forge(of repository: String) -> CMSSettings.Forge? {
        content.site.cms?.forge ?? CMSSettings.Forge.of(repository: repository)
    }

    /// What the CMS at `/admin/` needs to sign members in and find the repository.
    mutating func checkCMS() {
        guard let cms = content.site.cms else { return }
        let span = spanOfField("cms", in: ContentLayout.site)
        if let integrity = cms.integrity, !CMSSettings.isIntegrity(integrity) {
            add(.invalidIntegrity(integrity), ContentLayout.site, span)
        }
        if !cms.version.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            add(.outOfRange(field: "version", value: cms.version, range: "an exact version such as \(cms.editor.pinnedVersion)"), ContentLayout.site, span)
        }
        guard let repository = content.site.repository, RepositoryAddress(repository) != nil else {
            add(.cmsNeeds("'repository', the address of the content repository (https://<forge>/<owner>/<name>); until then no /admin/ is published"),
                ContentLayout.site, span)
            return
        }
        guard let forge = cms.forge else {
            add(.cmsNeeds("'forge' (github, gitlab, gitea or forgejo): the repository's address does not say; until then no /admin/ is published"),
                ContentLayout.site, span)
            return
        }
        if forge != .github, cms.appID == nil {
            add(.cmsNeeds("'app_id', the id of the OAuth application members sign in with (plein help members-without-git): without it nobody can sign in"),
                ContentLayout.site, span)
        }
        // Members pick a new report's area from the areas that have an area.yaml.
        if content.site.has(.reports) {
            for area in content.areas where area.file == nil {
                add(.cmsNeeds("an area.yaml in \(ContentLayout.areaFolder(area.id))/ (a name is enough): the CMS offers only areas that have one"),
                    ContentLayout.site, span)
            }
        }
        if forge == .github, cms.authURL == nil, cms.editor == .decap {
            add(.cmsNeeds("'auth_url', the OAuth client members sign in through: Decap CMS has no sign-in with a token (Sveltia CMS has)"),
                ContentLayout.site, span)
        }
    }

    /// The colours the site gives its app (`app` in site.yaml).
    mutating func checkApp() {
        let app = content.site.app
        for (field, value) in [("theme_color", app.themeColor), ("background_color", app.backgroundColor)] {
            guard let value, !AppSettings.isColour(value) else { continue }
            add(.invalidColour(field: field, value: value), ContentLayout.site, spanOfField("app", in: ContentLayout.site))
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
            // What the renderer refuses to give cmark-gfm (it would take minutes), said at its line.
            switch MarkdownBounds.excess(body.markdown) {
            case (let line, .nesting(let depth))?:
                add(.nestedTooDeep(depth: depth, limit: MarkdownBounds.maxNesting), file, Span(line: body.line + line, column: 1, length: 1))
            case (let line, .delimiters(let runs))?:
                add(.tooManyEmphasisMarks(runs: runs, limit: MarkdownBounds.maxDelimiterRuns), file, Span(line: body.line + line, column: 1, length: 1))
            case (let line, .footnotes(let references))?:
                add(.tooManyFootnoteReferences(references: references, limit: MarkdownBounds.maxFootnoteReferences), file,
                    Span(line: body.line + line, column: 1, length: 1))
            case nil:
                break
            }
            for link in Self.spacedLinks(in: body) {
                add(.spaceInAddress(written: link.written, address: link.address, title: link.title, image: link.image), file,
                    Span(line: link.line, column: link.column, length: link.written.count))
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
        for thread in content.threads { checkThread(thread) }
    }

    mutating func checkThread(_ thread: Thread) {
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
