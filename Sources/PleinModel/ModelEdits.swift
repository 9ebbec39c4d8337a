public import PleinCore

/// The pieces of a model that `ModelBuilder.replace(records:…)` made again, by kind: what the
/// stages after the model look at again (bodies, facts), and nothing else.
public struct ModelChange: Sendable, Equatable {
    public var reports: Set<String> = []
    public var members: Set<String> = []
    public var groups: Set<String> = []
    public var locations: Set<String> = []
    public var threads: Set<String> = []
    /// The pages, their order and the menu.
    public var pages = false
    /// The sessions of these members (before the edit or after), with every location's
    /// presence and the model's `asOf`.
    public var sessions: Set<String>?

    public init() {}

    /// Whether only reports' pieces were made again.
    public var onlyReports: Bool {
        members.isEmpty && groups.isEmpty && locations.isEmpty && threads.isEmpty && !pages && sessions == nil
    }
}

extension ModelBuilder {
    /// Makes `model` (the model of the content before, built with `history`) that of `content`
    /// after the records of `files` changed in place (`ContentChange.records`), by making those
    /// records' pieces again; the rest of the model is kept as it is. Nil, with `model` as it
    /// was, when an edit changed what other pieces read of a record: a member's name, their
    /// leaving or what they follow (orders, other members' and groups' lists, followers); a
    /// group's name, visibility or members; an album's date or who took its photos; a goal's
    /// completion; a report's time, author or replies (see `remade`). The whole model is then
    /// built again.
    public static func replace(records files: Set<String>, in model: inout SiteModel, from content: Content, history: History,
                               captureTimes: [String: Moment], sealed: Set<String>) -> ModelChange? {
        // The pieces are made first, each from the model as it was and those made before it, and
        // put in place once all could be made (the model is changed in place, not copied).
        var edit = ModelEdit(content: content, history: history, captureTimes: captureTimes, sealed: sealed)
        for path in files.sorted() {
            guard edit.take(path, model) else { return nil }
        }
        let made = edit.made
        for (id, report) in made.reports { model.reports[id] = report }
        for (id, member) in made.members { model.members[id] = member }
        for (id, group) in made.groups { model.groups[id] = group }
        if let locations = made.locations { model.locations = locations }
        if let threads = made.threads { model.threads = threads }
        if let pages = made.pages { model.pages = pages }
        if let (sessions, asOf) = made.sessions { (model.sessions, model.asOf) = (sessions, asOf) }
        return edit.change
    }
}

/// One `ModelBuilder.replace(records:…)`: the pieces made so far, read before the model's own.
private struct ModelEdit {
    let content: Content
    let history: History
    let captureTimes: [String: Moment]
    let sealed: Set<String>
    var change = ModelChange()
    var made = Made()
    private lazy var places = Dictionary(content.places.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    private lazy var published = Publication(content, sealed: sealed)

    struct Made {
        var reports: [String: ReportModel] = [:]
        var members: [String: MemberModel] = [:]
        var groups: [String: GroupModel] = [:]
        var locations: [LocationModel]?
        var threads: [ThreadModel]?
        var pages: [PageModel]?
        var sessions: (sessions: [Session], asOf: Moment?)?
    }

    init(content: Content, history: History, captureTimes: [String: Moment], sealed: Set<String>) {
        self.content = content
        self.history = history
        self.captureTimes = captureTimes
        self.sealed = sealed
    }

    private func revision(_ file: String) -> Revision? {
        history.files.isEmpty ? nil : history.revision(of: file)
    }

    /// Members by name, then id (the order of every list of members; no name changes here).
    private func byName(_ model: SiteModel) -> (String, String) -> Bool {
        { a, b in
            let (na, nb) = (model.members[a]?.name.lowercased() ?? a, model.members[b]?.name.lowercased() ?? b)
            return na != nb ? na < nb : a < b
        }
    }

    /// Makes the pieces of one file's record again; false when the whole model must be built.
    mutating func take(_ path: String, _ model: SiteModel) -> Bool {
        switch FileRole.of(path) {
        case .report(let area, let name, _): return report(area + "/" + name, model)
        case .reply(let area, let report, _): return self.report(area + "/" + report, model)
        case .member(let id): return member(id, model)
        case .group(let id): return group(id, model)
        case .album(let group, let id): return album(group, id, model)
        case .goal(let group, let id): return goal(group, id, model)
        case .event(let group, let id): return event(group, id, model)
        case .page:
            made.pages = ModelBuilder.pages(content, history: history)
            change.pages = true
            return true
        case .location(let id): return location(id, model)
        case .thread(let id), .message(let id, _): return thread(id, model)
        case .checkins: return sessions(model)
        default: return false
        }
    }

    private mutating func report(_ id: String, _ model: SiteModel) -> Bool {
        guard let position = content.reportPosition(of: id), let old = model.reports[id],
              let new = ModelBuilder.remade(content.reports[position], old: old, index: content.memberIndex, revision: revision) else { return false }
        made.reports[id] = new
        change.reports.insert(id)
        return true
    }

    private mutating func member(_ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.members.first(where: { $0.id == id }), let old = model.members[id] else { return false }
        var new = ModelBuilder.member(record, content: content, places: places)
        new.follows = new.follows.filter { model.reports[$0] != nil }
        guard new.name == old.name, new.left == old.left, new.follows == old.follows else { return false }
        new.friends.sort(by: byName(model))
        (new.groups, new.reports, new.replies, new.albums, new.completedGoals) = (old.groups, old.reports, old.replies, old.albums, old.completedGoals)
        new.revision = revision(new.file)
        made.members[id] = new
        change.members.insert(id)
        return true
    }

    /// A group's piece as made so far.
    private func group(_ id: String, in model: SiteModel) -> GroupModel? {
        made.groups[id] ?? model.groups[id]
    }

    private mutating func group(_ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.groups.first(where: { $0.id == id }) else { return false }
        // A group that is not published has no piece (and must stay unpublished).
        guard let old = group(id, in: model) else { return !published.groups.contains(id) }
        guard record.name == old.name, record.visibility == old.visibility,
              unique(record.members.compactMap { content.memberIndex.resolve($0.value) }).sorted(by: byName(model)) == everMembers(of: old, model)
        else { return false }
        var new = GroupModel(id: old.id, file: old.file, name: old.name, visibility: old.visibility, members: old.members,
                             createdBy: record.createdBy.flatMap { content.memberIndex.resolve($0.value) }, body: record.body)
        new.revision = revision(old.file)
        (new.albums, new.openGoals, new.completedGoals, new.leaderboard, new.events) = (old.albums, old.openGoals, old.completedGoals, old.leaderboard, old.events)
        made.groups[id] = new
        change.groups.insert(id)
        return true
    }

    /// The members a group's list names, those who left included, as the model knows them: its
    /// members, and the former members whose page names it.
    private func everMembers(of group: GroupModel, _ model: SiteModel) -> [String] {
        let former = model.formerMembers.filter { model.members[$0]?.groups.contains(group.id) == true }
        return (group.members + former).sorted(by: byName(model))
    }

    /// Changes a group's piece with `edit`; a group that is not published has none to change.
    private mutating func inGroup(_ id: String, _ model: SiteModel, _ edit: (inout GroupModel) -> Bool) -> Bool {
        guard var owner = group(id, in: model) else { return !published.groups.contains(id) }
        guard edit(&owner) else { return false }
        made.groups[id] = owner
        change.groups.insert(id)
        return true
    }

    private mutating func album(_ group: String, _ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.albums.first(where: { $0.group == group && $0.id == id }) else { return false }
        var new = ModelBuilder.album(record, captureTimes: captureTimes, resolve: { [content] in content.memberIndex.resolve($0) })
        new.revision = revision(new.file)
        return inGroup(group, model) { owner in
            guard let index = owner.albums.firstIndex(where: { $0.id == id }) else { return false }
            let old = owner.albums[index]
            // Members' lists of albums hold the albums they took photos in, newest first.
            guard new.date == old.date, Set(new.photos.compactMap(\.by)) == Set(old.photos.compactMap(\.by)) else { return false }
            owner.albums[index] = new
            return true
        }
    }

    private mutating func goal(_ group: String, _ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.goals.first(where: { $0.group == group && $0.id == id }) else { return false }
        var new = ModelBuilder.goal(record, index: content.memberIndex)
        new.revision = revision(new.file)
        let byName = byName(model)
        return inGroup(group, model) { owner in
            if let index = owner.openGoals.firstIndex(where: { $0.id == id }) {
                guard new.completedBy == nil else { return false }
                owner.openGoals[index] = new
                owner.openGoals.sort(by: GoalModel.byPointsThenTitle)
            } else if let index = owner.completedGoals.firstIndex(where: { $0.id == id }) {
                // Members' lists of completed goals, newest first.
                let old = owner.completedGoals[index]
                guard new.completedBy == old.completedBy, new.completedAt == old.completedAt else { return false }
                owner.completedGoals[index] = new
                owner.completedGoals.sort(by: GoalModel.newestFirst)
            } else {
                return false
            }
            owner.leaderboard = Leaderboard.standings(owner, byName: byName)
            return true
        }
    }

    private mutating func event(_ group: String, _ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.events.first(where: { $0.group == group && $0.id == id }) else { return false }
        var new = ModelBuilder.event(record, places: places, index: content.memberIndex)
        new.revision = revision(new.file)
        return inGroup(group, model) { owner in
            guard let index = owner.events.firstIndex(where: { $0.id == id }) else { return false }
            owner.events[index] = new
            owner.events.sort(by: GroupEventModel.byStart)
            return true
        }
    }

    private mutating func location(_ id: String, _ model: SiteModel) -> Bool {
        var locations = made.locations ?? model.locations
        guard let record = content.locations.first(where: { $0.id == id }), let index = locations.firstIndex(where: { $0.id == id })
        else { return false }
        var new = LocationModel(id: record.id, file: record.file, place: record.place, body: record.body)
        new.present = locations[index].present
        new.revision = revision(new.file)
        locations[index] = new
        made.locations = locations
        change.locations.insert(id)
        return true
    }

    private mutating func thread(_ id: String, _ model: SiteModel) -> Bool {
        var threads = made.threads ?? model.threads
        guard let record = content.threads.first(where: { $0.id == id }), let index = threads.firstIndex(where: { $0.id == id })
        else { return false }
        threads[index] = ModelBuilder.thread(record, index: content.memberIndex)
        made.threads = threads
        change.threads.insert(id)
        return true
    }

    private mutating func sessions(_ model: SiteModel) -> Bool {
        let before = Set(model.sessions.map(\.member))
        let (sessions, asOf) = ModelBuilder.sessions(content, members: model.members)
        var locations = made.locations ?? model.locations
        for i in locations.indices { locations[i].present = ModelBuilder.present(at: locations[i].id, sessions, byName: byName(model)) }
        made.sessions = (sessions, asOf)
        made.locations = locations
        change.sessions = (change.sessions ?? []).union(before).union(sessions.map(\.member))
        change.locations.formUnion(locations.map(\.id))
        return true
    }
}
