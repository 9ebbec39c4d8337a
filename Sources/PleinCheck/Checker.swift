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
        run.checkRepositoryExposure()
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
}
