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
        run.checkCMS()
        run.checkApp()
        run.checkRepositoryExposure()
        run.foldKnockOns()
        return run.diagnostics
    }

    /// After the records of `changed` files changed in place (`ContentChange.records`): the
    /// problems the rules find in every file whose problems may have changed with them, and
    /// those files. The problems of other files are as the last check found them.
    ///
    /// What each rule reads decides how far a record's change reaches: a member's, a report's, a
    /// page's or a thread's rules read that record and indexes the change left as they were
    /// (members by id and address, reports by id); an album, a goal or an event is checked with
    /// its whole group (membership, and mistyped members of the group's list told with what
    /// they cause); check-ins and study locations are checked together (capacity, overlaps);
    /// `site.yaml`'s and `places.yaml`'s rules are run again each time. A new report (one of
    /// `added`) or a deleted one is checked with the members who follow it (or follow
    /// one that is not there); a new member with the records whose texts write their address.
    public static func check(_ content: Content, records changed: Set<String>, added: Set<String> = []) -> (files: Set<String>, problems: [Diagnostic]) {
        var changed = changed
        // A new member's address written in a text is a warning there: those texts' records are
        // checked again (of the texts `content` holds).
        let addresses = Set(content.members.filter { added.contains($0.file) }.map { Email.key($0.email) })
        if !addresses.isEmpty {
            let writing = parallelMap(Array(content.sources)) { file, text in
                var text = text
                return text.withUTF8 { bytes in addresses.contains { Email.mayBeWritten($0, in: UnsafeRawBufferPointer(bytes)) } } ? file : nil
            }
            changed.formUnion(writing.compactMap { $0 })
        }
        var run = CheckRun(content: content)
        var files: Set<String> = [ContentLayout.site, ContentLayout.places]
        run.checkPlaces()
        run.checkSections()
        run.checkCMS()
        run.checkApp()
        var reports: Set<String> = [], members: Set<String> = [], groups: Set<String> = [], pages: Set<String> = [], threads: Set<String> = []
        var study = false
        for path in changed {
            switch FileRole.of(path) {
            case .report(let area, let name, _): reports.insert(area + "/" + name)
            case .reply(let area, let report, _): reports.insert(area + "/" + report)
            case .member(let id): members.insert(id)
            case .group(let id): groups.insert(id)
            case .album(let group, _), .photo(let group, _), .goal(let group, _), .event(let group, _): groups.insert(group)
            case .page(let id): pages.insert(id)
            case .thread(let id), .message(let id, _): threads.insert(id)
            case .location, .checkins: study = true
            default: break
            }
        }
        // A report new or deleted: the members who follow it are checked again, and those who
        // follow one that is not there (its suggestion may be another now). (The problems of a
        // deleted file go with it.)
        let appearedOrWent = Set(changed.compactMap { path -> String? in
            guard case .report(let area, let name, _) = FileRole.of(path) else { return nil }
            let id = area + "/" + name
            return added.contains(path) || content.reportPosition(of: id) == nil ? id : nil
        })
        if !appearedOrWent.isEmpty {
            members.formUnion(content.members.filter { member in
                member.follows.contains { appearedOrWent.contains($0.value) || content.reportPosition(of: $0.value) == nil }
            }.map(\.id))
        }
        files.formUnion(changed)
        var texts: [(String, Body)] = []
        for report in content.reports(reports) {
            run.checkReport(report)
            texts += CheckRun.texts(of: report, in: content)
            files.formUnion(Self.files(of: report))
        }
        if !members.isEmpty {
            for member in content.members where members.contains(member.id) {
                run.checkMember(member)
                texts.append((member.file, member.body))
            }
        }
        if !groups.isEmpty {
            let names = run.firstGroupByName()
            let repository = run.exposedRepository
            for group in content.groups where groups.contains(group.id) {
                run.checkGroup(group, names)
                if let repository { run.checkExposure(of: group, repository: repository) }
                texts.append((group.file, group.body))
            }
            for album in content.albums where groups.contains(album.group) {
                run.checkAlbum(album)
                texts.append((album.file, album.body))
                files.formUnion(album.imageFiles.map { "\(album.folder)/\($0)" })
            }
            for goal in content.goals where groups.contains(goal.group) {
                run.checkGoal(goal)
                texts.append((goal.file, goal.body))
            }
            for event in content.events where groups.contains(event.group) {
                run.checkGroupEvent(event)
                texts.append((event.file, event.body))
            }
            // (A group that is not read has no record: the rules of its albums ran without it.)
            files.formUnion(content.groups.filter { groups.contains($0.id) }.map(\.file))
        }
        for page in content.pages where pages.contains(page.id) { texts.append((page.file, page.body)) }
        for thread in content.threads where threads.contains(thread.id) {
            run.checkThread(thread)
            if let repository = run.exposedRepository { run.checkExposure(of: thread, repository: repository) }
            texts += thread.messages.map { ($0.file, $0.body) }
            files.insert(thread.file)
        }
        if study {
            run.checkCheckIns()
            files.formUnion(content.checkInFiles.values)
            for location in content.locations { texts.append((location.file, location.body)) }
        }
        files.formUnion(texts.map(\.0))
        run.checkTexts(texts)
        run.foldKnockOns()
        return (files, run.diagnostics)
    }

    /// The files of a report whose problems its rules find: its own, its replies' and its text attachments'.
    public static func files(of report: Report) -> Set<String> {
        Set([report.file] + report.replies.map(\.file) + textAttachments(of: report))
    }

    static func textAttachments(of report: Report) -> [String] {
        report.resources.filter { AttachmentType.of($0)?.isText == true }.map { ContentLayout.attachment(report.id, file: $0) }
    }
}

struct CheckRun {
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
        for member in content.members { checkMember(member) }
    }

    /// A member's rules, which read the others through the index alone (the first member of an
    /// address, `MemberIndex.byEmail`), and the places, avatars and reports only for what they
    /// name (their lists only to suggest a name for one that is not there).
    mutating func checkMember(_ member: Member) {
        let key = Email.key(member.email)
        if !key.isEmpty, let first = members.byEmail[key], first.id != member.id {
            add(.duplicateEmail(member.email, firstIn: first.id), member.file, member.spans["email"] ?? .fileStart)
        }
        if case .place(let name)? = member.home,
           !content.places.contains(where: { $0.name == name }) {
            let suggestion = content.places.first { $0.name.lowercased() == name.lowercased() }?.name
                ?? Suggestions.closest(to: name, in: content.places.map(\.name))
            add(.unknownReference(.place, name, suggestion: suggestion), member.file, member.spans["home"] ?? .fileStart)
        }
        if let avatar = member.avatar, member.spans["avatar"] != nil, content.images[ContentLayout.avatar(avatar.value)] == nil {
            let avatars = content.images.keys.filter { $0.hasPrefix(ContentLayout.members + "/") }.map { String($0.dropFirst(ContentLayout.members.count + 1)) }
            add(.unknownReference(.avatar, avatar.value, suggestion: Suggestions.closest(to: avatar.value, in: avatars)),
                member.file, avatar.span)
        }
        // Followed reports exist only where the site has reports.
        for follow in member.follows where content.site.has(.reports) && content.reportPosition(of: follow.value) == nil && !known(.report, follow.value) {
            add(.unknownReference(.report, follow.value, suggestion: Suggestions.closest(to: follow.value, in: content.reports.map(\.id))),
                member.file, follow.span)
        }
        checkUnique(member.follows, key: { $0 }, field: "follows", file: member.file)
        for friend in member.friends { self.member(friend, in: member.file) }
        checkUnique(member.friends, key: { [members] in members.resolve($0) }, field: "friends", file: member.file)
    }

    /// The first group of each name (lowercased), in the groups' order.
    func firstGroupByName() -> [String: Group] {
        var names: [String: Group] = [:]
        for group in content.groups where names[group.name.lowercased()] == nil { names[group.name.lowercased()] = group }
        return names
    }

    mutating func checkGroups() {
        let names = firstGroupByName()
        for group in content.groups { checkGroup(group, names) }
    }

    mutating func checkGroup(_ group: Group, _ names: [String: Group]) {
        if let other = names[group.name.lowercased()], other.id != group.id {
            add(.duplicateGroupName(group.name, other: other.id), group.file, group.spans["name"] ?? .fileStart)
        }
        for ref in group.members { member(ref, in: group.file) }
        checkUnique(group.members, key: { [members] in members.resolve($0) }, field: "members", file: group.file)
        if group.members.isEmpty, group.spans["members"] != nil {
            add(.groupWithoutMembers, group.file, group.spans["members"]!)
        }
        if let creator = group.createdBy { member(creator, in: group.file) }
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
        for album in content.albums { checkAlbum(album) }
    }

    mutating func checkAlbum(_ album: Album) {
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

    mutating func checkGoals() {
        for goal in content.goals { checkGoal(goal) }
    }

    mutating func checkGoal(_ goal: Goal) {
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
