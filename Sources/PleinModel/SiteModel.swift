public import PleinCore
/// Checked records joined into the one structure every renderer reads.
///
/// Privacy is applied here, once: the model holds no e-mail address and no exact home position,
/// and private groups (and groups nobody is in) are left out with everything in them.
public struct SiteModel: Sendable {
    public private(set) var site: SiteConfig
    /// Members by id; `memberOrder` lists them by name.
    public internal(set) var members: [String: MemberModel]
    /// Members by name; those who left (`left`) are in `formerMembers` instead.
    public internal(set) var memberOrder: [String]
    /// Published groups (public and unlisted) by id; `groupOrder` by name.
    public internal(set) var groups: [String: GroupModel]
    public let groupOrder: [String]
    public internal(set) var areas: [AreaModel]
    /// Reports by id; `reportOrder` newest first.
    public internal(set) var reports: [String: ReportModel]
    public internal(set) var reportOrder: [String]
    public internal(set) var locations: [LocationModel]
    /// Every session, by member then start.
    public internal(set) var sessions: [Session]
    /// The latest check-in or check-out in the content: "now" for occupancy (never the clock).
    public internal(set) var asOf: Moment?
    public internal(set) var threads: [ThreadModel]
    public let places: [Place]
    /// The day of the build in the site's time zone (`2026-11-23`): what is upcoming and what
    /// is past for events. Nil when the model was built without a clock.
    public var today: String? = nil
    /// The site's own pages, in menu order (`order`, then title).
    public var pages: [PageModel] = []
    /// Members who left, by name: their pages stay, out of every list.
    public var formerMembers: [String] = []

    /// The menu's links to the site's own pages, in order.
    public var menu: [MenuLink] { pages.compactMap { page in page.menuTitle.map { MenuLink(page: page.id, label: $0) } } }

    /// The same model with other settings that only pages show (`SiteConfig.differsOnlyInWhatPagesShow`).
    public func with(site: SiteConfig) -> SiteModel {
        var copy = self
        copy.site = site
        return copy
    }

    public func member(_ id: String) -> MemberModel? { members[id] }
    public func report(_ id: String) -> ReportModel? { reports[id] }

    public func album(_ key: AlbumKey) -> AlbumModel? {
        groups[key.group]?.albums.first { $0.id == key.album }
    }

    public func event(_ key: GroupEventKey) -> GroupEventModel? {
        groups[key.group]?.events.first { $0.id == key.event }
    }

    public func goal(_ key: GoalKey) -> GoalModel? {
        guard let group = groups[key.group] else { return nil }
        return (group.completedGoals + group.openGoals).first { $0.id == key.goal }
    }
}

extension AlbumModel {
    public static func newestFirst(_ a: AlbumModel, _ b: AlbumModel) -> Bool { newestFirst((a.date, a.key), (b.date, b.key)) }

    /// The order of lists of albums: by their dates, newest first (undated last), then by key.
    public static func newestFirst(_ a: (date: Moment?, key: AlbumKey), _ b: (date: Moment?, key: AlbumKey)) -> Bool {
        let (da, db) = (a.date?.seconds ?? .min, b.date?.seconds ?? .min)
        return da != db ? da > db : a.key < b.key
    }
}

extension GoalModel {
    /// Most points first, then by title and id.
    static func byPointsThenTitle(_ a: GoalModel, _ b: GoalModel) -> Bool {
        if a.points != b.points { return a.points > b.points }
        let (ta, tb) = (a.title.lowercased(), b.title.lowercased())
        return ta != tb ? ta < tb : a.id < b.id
    }

    public static func newestFirst(_ a: GoalModel, _ b: GoalModel) -> Bool { newestFirst((a.completedAt, a.key), (b.completedAt, b.key)) }

    /// The order of lists of completed goals: newest completion first, then by key.
    public static func newestFirst(_ a: (at: Moment?, key: GoalKey), _ b: (at: Moment?, key: GoalKey)) -> Bool {
        let (da, db) = (a.at?.seconds ?? .min, b.at?.seconds ?? .min)
        return da != db ? da > db : a.key < b.key
    }
}

extension SiteModel {
    /// A model from its pieces, as a build store keeps them: what a build after an edit makes
    /// the edited records' pieces again in (`ModelBuilder.replace(records:…)`), holding the
    /// reports those records read and no others.
    public init(site: SiteConfig, members: [String: MemberModel], memberOrder: [String], formerMembers: [String],
                groups: [String: GroupModel], groupOrder: [String], areas: [AreaModel], reports: [String: ReportModel],
                reportOrder: [String], locations: [LocationModel], sessions: [Session], asOf: Moment?, threads: [ThreadModel],
                places: [Place], today: String?, pages: [PageModel]) {
        self.init(site: site, members: members, memberOrder: memberOrder, groups: groups, groupOrder: groupOrder, areas: areas,
                  reports: reports, reportOrder: reportOrder, locations: locations, sessions: sessions, asOf: asOf, threads: threads,
                  places: places)
        self.today = today
        self.pages = pages
        self.formerMembers = formerMembers
    }

    /// The history of the files the model's records were made from, as the model holds it
    /// (each record's `revision`): what a build that did not ask git again makes pieces with.
    public var revisions: History {
        var files: [String: Revision] = [:]
        for member in members.values { files[member.file] = member.revision }
        for group in groups.values {
            files[group.file] = group.revision
            for album in group.albums { files[album.file] = album.revision }
            for goal in group.openGoals + group.completedGoals { files[goal.file] = goal.revision }
            for event in group.events { files[event.file] = event.revision }
        }
        for report in reports.values {
            files[report.file] = report.revision
            for reply in report.replies { files[reply.file] = reply.revision }
        }
        for location in locations { files[location.file] = location.revision }
        for page in pages { files[page.file] = page.revision }
        return History(files: files)
    }
}
