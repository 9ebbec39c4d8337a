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
    /// Areas whose list of reports changed (a new report), and whether the order of reports did.
    public var areas: Set<String> = []
    public var reportOrder = false
    /// Whether the lists of members by name changed (a member renamed): `memberOrder`, and
    /// `formerMembers`.
    public var memberOrder = false
    public var formerMembers = false
    /// Whether the site's settings changed (only in what pages show of them: every output).
    public var settings = false
    /// The files whose records went (a deleted report's, its replies', a deleted reply's): their
    /// bodies go with them.
    public var removedFiles: Set<String> = []
    /// Photos added to an album, replaced or deleted (by content path): their published forms
    /// (`Dependency.image`) are others.
    public var images: Set<String> = []
    /// Whether the day is another than the last model's (`SiteModel.today`: which events are
    /// past); the build that makes it sets it.
    public var today = false

    public init() {}

    /// Whether the site's outputs may be others than before: a report new or deleted (its
    /// pages), a report's first reply or its last one deleted (its reply feed), a photo added to
    /// an album or deleted (its page, and the pages of others whose names it shares), check-ins of a
    /// member who had none or has none now (their progress page), a new event, member or page (their
    /// pages, their feeds and calendars). Other
    /// pieces made again leave the outputs as they were (the same records, the same photos, the
    /// same lists, the same calendars).
    public var outputsMayChange = false
}

extension ModelBuilder {
    /// Makes `model` (the model of the content before, built with `history`) that of `content`
    /// after the records of `files` changed in place (`ContentChange.records`), by making those
    /// records' pieces again; the rest of the model is kept as it is. Nil, with `model` as it
    /// was, when an edit changed what other pieces read of a record: a member's leaving or what
    /// they follow (orders, other members' and groups' lists, followers); a
    /// group's name, visibility or members; an album's date or who took its photos; a goal's
    /// completion; a report's time, author or replies (see `remade`). The whole model is then
    /// built again.
    ///
    /// A member renamed takes their new place in every list of members by name: the site's,
    /// their groups' (and leaderboards'), their friends' and the study places' present.
    ///
    /// Of `files`, those `added` are new reports and replies: a new report takes its place in the
    /// order of reports, its area's and its author's lists (unless a member already follows it);
    /// a new reply its place in its author's list, and those of the report's other replies.
    ///
    /// `times` tells when the reports `model` does not hold were written, and their replies (a
    /// model from the build store holds only the reports the edit reads); the orders read them.
    /// A report found in neither makes the edit give way to the whole model.
    ///
    /// With `now`, a model of another day takes this one's (`today`, which events are past).
    public static func replace(records files: Set<String>, added: Set<String> = [], in model: inout SiteModel, from content: Content,
                               history: History, captureTimes: [String: Moment], sealed: Set<String>,
                               times: (@Sendable (String) -> ReportClock?)? = nil, now: Moment? = nil) -> ModelChange? {
        // The pieces are made first, each from the model as it was and those made before it, and
        // put in place once all could be made (the model is changed in place, not copied).
        var edit = ModelEdit(content: content, history: history, captureTimes: captureTimes, sealed: sealed, times: times)
        edit.newFiles = added
        // New reports first: a reply or an edit in the same batch reads them.
        for path in added.sorted() where edit.add(path, model) == false { return nil }
        for path in files.sorted() where !added.contains(path) || !FileRole.of(path).isReport {
            guard edit.take(path, model) else { return nil }
        }
        guard !edit.unknownTime.found else { return nil }
        let made = edit.made
        for (id, report) in made.reports { model.reports[id] = report }
        for id in made.gone { model.reports.removeValue(forKey: id) }
        for (id, member) in made.members { model.members[id] = member }
        for (id, group) in made.groups { model.groups[id] = group }
        if let locations = made.locations { model.locations = locations }
        if let threads = made.threads { model.threads = threads }
        if let pages = made.pages { model.pages = pages }
        if let (sessions, asOf) = made.sessions { (model.sessions, model.asOf) = (sessions, asOf) }
        if let order = made.reportOrder { model.reportOrder = order }
        if let site = made.site { model = model.with(site: site) }
        if let order = made.memberOrder { model.memberOrder = order }
        if let order = made.formerMembers { model.formerMembers = order }
        if let areas = made.areas { model.areas = areas }
        var change = edit.change
        if let now, case let today = model.site.clock.civil(now).isoDate, model.today != today {
            model.today = today
            change.today = true
        }
        return change
    }
}

/// One `ModelBuilder.replace(records:…)`: the pieces made so far, read before the model's own.
struct ModelEdit {
    let content: Content
    let history: History
    let captureTimes: [String: Moment]
    let sealed: Set<String>
    let times: (@Sendable (String) -> ReportClock?)?
    let unknownTime = Unknown()
    /// The files new since the model (a new report's, a new event's).
    var newFiles: Set<String> = []
    var change = ModelChange()
    var made = Made()
    lazy var places = Dictionary(content.places.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    lazy var published = Publication(content, sealed: sealed)

    struct Made {
        var reports: [String: ReportModel] = [:]
        var members: [String: MemberModel] = [:]
        var groups: [String: GroupModel] = [:]
        var locations: [LocationModel]?
        var threads: [ThreadModel]?
        var pages: [PageModel]?
        var sessions: (sessions: [Session], asOf: Moment?)?
        var reportOrder: [String]?
        var memberOrder: [String]?
        var formerMembers: [String]?
        var site: SiteConfig?
        var areas: [AreaModel]?
        /// Reports deleted.
        var gone: Set<String> = []
    }

    init(content: Content, history: History, captureTimes: [String: Moment], sealed: Set<String>, times: (@Sendable (String) -> ReportClock?)?) {
        self.content = content
        self.history = history
        self.captureTimes = captureTimes
        self.sealed = sealed
        self.times = times
    }

    /// When report `id` was written, and its replies: as made so far, else in the model, else
    /// as `times` tells (else noted as unknown, and the epoch).
    func clock(_ id: String, _ model: SiteModel) -> ReportClock {
        if let report = made.reports[id] ?? model.reports[id] { return ReportClock(at: report.at, replies: report.replies.map(\.at)) }
        if let known = times?(id) { return known }
        unknownTime.found = true
        return ReportClock(at: Moment(seconds: 0), replies: [])
    }

    func revision(_ file: String) -> Revision? {
        history.files.isEmpty ? nil : history.revision(of: file)
    }

    /// Members by name, then id (the order of every list of members), by their names as made so far.
    func byName(_ model: SiteModel) -> (String, String) -> Bool {
        { [made] a, b in
            let (na, nb) = ((made.members[a] ?? model.members[a])?.name.lowercased() ?? a, (made.members[b] ?? model.members[b])?.name.lowercased() ?? b)
            return na != nb ? na < nb : a < b
        }
    }

    /// Makes the pieces of one file's record again; false when the whole model must be built.
    mutating func take(_ path: String, _ model: SiteModel) -> Bool {
        switch FileRole.of(path) {
        case .report(let area, let name, _):
            let id = area + "/" + name
            return content.reportPosition(of: id) == nil ? removeReport(id, model) : report(id, model)
        case .reply(let area, let reportName, _):
            // A reply edited is its report made again; one new or deleted changes its authors' lists too.
            let id = area + "/" + reportName
            let kept = content.reportPosition(of: id).map { content.reports[$0].replies.contains { $0.file == path } } ?? false
            let known = report(id, in: model)?.replies.contains { $0.file == path } ?? false
            return kept && known ? report(id, model) : repliesChanged(path, model)
        case .member(let id): return member(id, model)
        case .group(let id): return group(id, model)
        case .album(let group, let id): return album(group, id, model)
        case .photo(let group, let album):
            // (Its album's file is among the records edited: `ContentLoader.reload`.)
            change.images.insert(path)
            return content.albums.contains { $0.group == group && $0.id == album }
        case .goal(let group, let id): return goal(group, id, model)
        case .event(let group, let id): return event(group, id, model)
        case .page:
            made.pages = ModelBuilder.pages(content, history: history)
            change.pages = true
            // (A new page: its own.)
            if newFiles.contains(path) { change.outputsMayChange = true }
            return true
        case .location(let id): return location(id, model)
        case .thread(let id), .message(let id, _): return thread(id, model)
        case .checkins: return sessions(model)
        case .site:
            // (Only what pages show of the settings: `ContentLoader.reload` takes no other edit of them in place.)
            guard content.site.differsOnlyInWhatPagesShow(from: model.site) else { return false }
            made.site = content.site
            change.settings = true
            return true
        default: return false
        }
    }

    /// A report's piece as made so far.
    func report(_ id: String, in model: SiteModel) -> ReportModel? {
        made.reports[id] ?? model.reports[id]
    }

    /// A member's piece as made so far.
    func member(_ id: String, in model: SiteModel) -> MemberModel? {
        made.members[id] ?? model.members[id]
    }

    /// Reports newest first, then by id: the order of every list of reports.
    func newestFirst(_ model: SiteModel) -> (String, String) -> Bool {
        { a, b in
            let (ta, tb) = (clock(a, model).at, clock(b, model).at)
            return ta != tb ? ta > tb : a < b
        }
    }

    /// Puts `id` into a list sorted by `order`.
    func insert(_ id: String, into list: inout [String], by order: (String, String) -> Bool) {
        var (low, high) = (0, list.count)
        while low < high {
            let middle = (low + high) / 2
            if order(list[middle], id) { low = middle + 1 } else { high = middle }
        }
        list.insert(id, at: low)
    }

    /// Takes in a new report (nil for another file).
    mutating func add(_ path: String, _ model: SiteModel) -> Bool? {
        guard case .report(let area, let name, _) = FileRole.of(path) else { return nil }
        let id = area + "/" + name
        guard let position = content.reportPosition(of: id), model.reports[id] == nil,
              let areaIndex = (made.areas ?? model.areas).firstIndex(where: { $0.id == area }),
              // A member who followed it before it was written follows it now (their list changes).
              !content.members.contains(where: { $0.follows.contains { $0.value == id } }) else { return false }
        var new = ModelBuilder.report(content.reports[position], index: content.memberIndex)
        new.revision = revision(new.file)
        for i in new.replies.indices { new.replies[i].revision = revision(new.replies[i].file) }
        guard new.replies.isEmpty else { return false }
        made.reports[id] = new
        let order = newestFirst(model)
        var reportOrder = made.reportOrder ?? model.reportOrder
        insert(id, into: &reportOrder, by: order)
        made.reportOrder = reportOrder
        var areas = made.areas ?? model.areas
        insert(id, into: &areas[areaIndex].reports, by: order)
        made.areas = areas
        if var author = member(new.author, in: model) {
            insert(id, into: &author.reports, by: order)
            made.members[new.author] = author
            change.members.insert(new.author)
        }
        (change.reportOrder, change.reports, change.outputsMayChange) = (true, change.reports.union([id]), true)
        change.areas.insert(area)
        return true
    }

    /// Takes out a deleted report (unless a member follows it, whose list then changes).
    mutating func removeReport(_ id: String, _ model: SiteModel) -> Bool {
        guard let old = report(id, in: model), old.followers.isEmpty,
              !content.members.contains(where: { $0.follows.contains { $0.value == id } }) else { return false }
        made.reports.removeValue(forKey: id)
        made.gone.insert(id)
        made.reportOrder = (made.reportOrder ?? model.reportOrder).filter { $0 != id }
        var areas = made.areas ?? model.areas
        if let index = areas.firstIndex(where: { $0.id == old.area }) {
            areas[index].reports.removeAll { $0 == id }
            change.areas.insert(old.area)
        }
        made.areas = areas
        for author in Set([old.author] + old.replies.map(\.author)) {
            guard var member = member(author, in: model) else { continue }
            member.reports.removeAll { $0 == id }
            member.replies.removeAll { $0.report == id }
            made.members[author] = member
            change.members.insert(author)
        }
        change.reports.insert(id)
        (change.reportOrder, change.outputsMayChange) = (true, true)
        change.removedFiles.formUnion([old.file] + old.replies.map(\.file))
        return true
    }

    /// Takes in a new or deleted reply.
    mutating func repliesChanged(_ path: String, _ model: SiteModel) -> Bool {
        guard case .reply(let area, let reportName, _) = FileRole.of(path) else { return false }
        let id = area + "/" + reportName
        guard let position = content.reportPosition(of: id), let old = report(id, in: model) else { return false }
        var new = ModelBuilder.report(content.reports[position], index: content.memberIndex)
        // What the orders read of a report is as it was.
        guard new.at == old.at, new.author == old.author, (new.starts == nil) == (old.starts == nil) else { return false }
        new.followers = old.followers
        new.revision = revision(new.file)
        for i in new.replies.indices { new.replies[i].revision = revision(new.replies[i].file) }
        made.reports[id] = new
        change.reports.insert(id)
        if !new.replies.contains(where: { $0.file == path }) { change.removedFiles.insert(path) }
        // A report's reply feed is there while it has replies.
        if new.replies.isEmpty != old.replies.isEmpty { change.outputsMayChange = true }
        // Each author's replies point into the report's replies by place: those of every author
        // of a reply to it are made again, newest first.
        for author in Set(old.replies.map(\.author) + new.replies.map(\.author)) {
            guard var member = member(author, in: model) else { continue }
            member.replies = member.replies.filter { $0.report != id }
                + new.replies.indices.filter { new.replies[$0].author == author }.map { ReplyRef(report: id, index: $0) }
            let edit = self
            func at(_ ref: ReplyRef) -> Moment {
                let replies = edit.clock(ref.report, model).replies
                guard replies.indices.contains(ref.index) else {
                    edit.unknownTime.found = true
                    return Moment(seconds: 0)
                }
                return replies[ref.index]
            }
            member.replies.sort { a, b in
                let (ta, tb) = (at(a), at(b))
                return ta != tb ? ta > tb : (a.report, a.index) < (b.report, b.index)
            }
            self.made.members[author] = member
            change.members.insert(author)
        }
        return true
    }

    mutating func report(_ id: String, _ model: SiteModel) -> Bool {
        guard let position = content.reportPosition(of: id), let old = model.reports[id],
              let new = ModelBuilder.remade(content.reports[position], old: old, index: content.memberIndex, revision: revision) else { return false }
        made.reports[id] = new
        change.reports.insert(id)
        return true
    }
}
