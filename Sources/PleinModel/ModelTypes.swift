public import PleinCore
/// A member as the site may show them: no e-mail address, home only coarsened.
public struct MemberModel: Sendable, Equatable, Codable {
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let name: String
    /// Path of the avatar image relative to the content root (`users/anna.jpg`).
    public let avatar: String?
    public let joined: Moment?
    /// The home position snapped to the privacy grid.
    public let home: Coordinate?
    /// The gazetteer place nearest to the coarsened home, as a hint of the area.
    public let nearPlace: String?
    public let postcode: String?
    public let diving: Member.Diving?
    public let bio: Body
    /// Member ids, sorted by name.
    public var friends: [String] = []
    /// Published, listed groups the member belongs to (ids, sorted by name).
    public var groups: [String] = []
    /// Report ids, newest first.
    public var reports: [String] = []
    public var follows: [String] = []
    /// Replies written, newest first.
    public var replies: [ReplyRef] = []
    /// Albums (listed) with photos by this member, newest first.
    public var albums: [AlbumKey] = []
    /// Goals completed in listed groups, newest first.
    public var completedGoals: [GoalKey] = []
    /// When the member left; nil for a member.
    public var left: Moment? = nil
}

extension MemberModel {
    /// A member from every property (the build store's own form of it reads them back).
    public init(stored id: String, file: String, revision: Revision?, name: String, avatar: String?, joined: Moment?, home: Coordinate?,
                nearPlace: String?, postcode: String?, diving: Member.Diving?, bio: Body, friends: [String], groups: [String],
                reports: [String], follows: [String], replies: [ReplyRef], albums: [AlbumKey], completedGoals: [GoalKey], left: Moment?) {
        self.init(id: id, file: file, revision: revision, name: name, avatar: avatar, joined: joined, home: home, nearPlace: nearPlace,
                  postcode: postcode, diving: diving, bio: bio, friends: friends, groups: groups, reports: reports, follows: follows,
                  replies: replies, albums: albums, completedGoals: completedGoals, left: left)
    }
}

public struct ReplyRef: Sendable, Hashable, Codable {
    public let report: String
    public let index: Int
    public init(report: String, index: Int) {
        self.report = report
        self.index = index
    }
}

public struct AlbumKey: Sendable, Hashable, Comparable, Codable {
    public let group: String
    public let album: String
    public init(group: String, album: String) {
        self.group = group
        self.album = album
    }
    public static func < (a: AlbumKey, b: AlbumKey) -> Bool { (a.group, a.album) < (b.group, b.album) }
}

public struct GoalKey: Sendable, Hashable, Comparable, Codable {
    public let group: String
    public let goal: String
    public init(group: String, goal: String) {
        self.group = group
        self.goal = goal
    }
    public static func < (a: GoalKey, b: GoalKey) -> Bool { (a.group, a.goal) < (b.group, b.goal) }
}

public struct GroupEventKey: Sendable, Hashable, Comparable, Codable {
    public let group: String
    public let event: String
    public init(group: String, event: String) {
        self.group = group
        self.event = event
    }
    public static func < (a: GroupEventKey, b: GroupEventKey) -> Bool { (a.group, a.event) < (b.group, b.event) }
}

public struct GroupModel: Sendable, Equatable, Codable {
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let name: String
    public let visibility: Visibility
    /// Member ids, sorted by name then id.
    public internal(set) var members: [String]
    public let createdBy: String?
    public let body: Body
    /// Albums newest first.
    public var albums: [AlbumModel] = []
    /// Goals: open ones by points then title, completed ones newest first.
    public var openGoals: [GoalModel] = []
    public var completedGoals: [GoalModel] = []
    public var leaderboard: [Standing] = []
    /// The group's events, by start.
    public var events: [GroupEventModel] = []

    /// Unlisted groups are rendered but appear in no list, feed or sitemap.
    public var isListed: Bool { visibility == .public }

    /// Whether the group has goals, and so a leaderboard: without goals nobody has points to
    /// rank.
    public var hasGoals: Bool { !openGoals.isEmpty || !completedGoals.isEmpty }
}

public struct AlbumModel: Sendable, Equatable, Codable {
    public let group: String
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let title: String
    public let date: Moment?
    /// The member who made the album, by id.
    public let by: String?
    public let body: Body
    /// In display order: the album's `photos` list first, then the rest.
    public let photos: [PhotoModel]
    public let coverIndex: Int?
    /// How the album's map places its photos (their positions are already as it allows).
    public var map: AlbumMap = .coarse
    public var key: AlbumKey { AlbumKey(group: group, album: id) }
    public var cover: PhotoModel? { coverIndex.map { photos[$0] } }
}

public struct PhotoModel: Sendable, Equatable, Codable {
    /// File name in the album folder.
    public let file: String
    /// Content-relative path of the original.
    public let path: String
    /// URL name: the file name as a slug.
    public let slug: String
    public let caption: String?
    public let by: String?
}

public struct GoalModel: Sendable, Equatable, Codable {
    public let group: String
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let title: String
    public let points: Int
    public let addedBy: String?
    public let added: Moment?
    public let completedBy: String?
    public let completedAt: Moment?
    public let body: Body
    public var key: GoalKey { GoalKey(group: group, goal: id) }
    /// A goal the group reaches together: the total to reach and what is counted.
    public var target: Int? = nil
    public var unit: String? = nil
    /// Each member's contributions to it, added up, most first (an array, never a dictionary:
    /// the model's pieces encode the same in every run).
    public var contributions: [Contribution] = []
    /// The tally so far.
    public var total: Int { contributions.reduce(0) { $0 + $1.count } }

    public struct Contribution: Sendable, Equatable, Codable {
        public let member: String
        public let count: Int
    }
}

/// Something a group does at a time and place (`groups/<group>/events/<event>.md`).
public struct GroupEventModel: Sendable, Equatable, Codable {
    public let group: String
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let title: String
    public let starts: Moment
    public let ends: Moment?
    public let place: String?
    /// The position of `place` when it names a place of `places.yaml`.
    public let location: Coordinate?
    /// The member who organises it, by id.
    public let by: String?
    public let body: Body
    public var key: GroupEventKey { GroupEventKey(group: group, event: id) }

    /// By start, then by id.
    public static func byStart(_ a: GroupEventModel, _ b: GroupEventModel) -> Bool {
        a.starts != b.starts ? a.starts < b.starts : a.id < b.id
    }
}

/// One line of a leaderboard.
public struct Standing: Sendable, Hashable, Codable {
    public let member: String
    public let points: Int
    public let goals: Int
    /// Standard competition ranking: 1, 2, 2, 4.
    public let rank: Int
}

public struct AreaModel: Sendable, Equatable, Codable {
    public let id: String
    public let file: String?
    public let name: String?
    public let center: Coordinate?
    public let boundary: [Coordinate]
    /// Report ids, newest first.
    public var reports: [String] = []
}

public struct ReportModel: Sendable, Equatable, Codable {
    public let id: String
    public let area: String
    public let slug: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let title: String
    public let category: Category
    public let at: Moment
    public let author: String
    public let location: Coordinate?
    public let body: Body
    public var replies: [ReplyModel]
    public let resources: [String]
    /// Members following the report, sorted by id.
    public var followers: [String] = []
    /// For an event: when it starts and ends, and where.
    public var starts: Moment?
    public var ends: Moment?
    public var place: String?
    /// The latest moment of the report or its replies.
    public var lastActivity: Moment { replies.last.map { max($0.at, at) } ?? at }
}

public struct ReplyModel: Sendable, Equatable, Codable {
    public let name: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let author: String
    public let at: Moment
    public let body: Body
    /// An anchor id for the reply on its report page.
    public var anchor: String { "reply-" + Slug.make(name) }
}

/// A page of the site's own (`pages/<id>.md`).
public struct PageModel: Sendable, Equatable, Codable {
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let title: String
    public let description: String?
    /// The text of its link in the menu; nil when the menu leaves it out.
    public let menuTitle: String?
    public let order: Int
    public let body: Body

    public init(id: String, file: String, title: String, description: String?, menuTitle: String?, order: Int, body: Body) {
        self.id = id
        self.file = file
        self.title = title
        self.description = description
        self.menuTitle = menuTitle
        self.order = order
        self.body = body
    }

    /// Menu order: lower `order` first, then by title, then by id.
    public static func inOrder(_ a: PageModel, _ b: PageModel) -> Bool {
        (a.order, a.title.lowercased(), a.id) < (b.order, b.title.lowercased(), b.id)
    }
}

/// A link of the site's menu to one of its own pages.
public struct MenuLink: Sendable, Equatable, Codable {
    public let page: String
    public let label: String

    public init(page: String, label: String) {
        self.page = page
        self.label = label
    }
}

@dynamicMemberLookup
public struct LocationModel: Sendable, Equatable, Codable {
    public let id: String
    public let file: String
    /// The file's history in the repository, when there is one.
    public var revision: Revision?
    public let place: StudyPlace
    public let body: Body
    /// Members checked in as of the build's reference time, by name.
    public var present: [String] = []

    public subscript<T>(dynamicMember field: KeyPath<StudyPlace, T>) -> T { place[keyPath: field] }
}

public struct Session: Sendable, Hashable, Codable {
    public let member: String
    public let location: String
    public let start: Moment
    /// nil while still checked in.
    public let end: Moment?
}

public struct ThreadModel: Sendable, Equatable, Codable {
    public let id: String
    public let file: String
    public let subject: String
    public let participants: [String]
    public let messages: [MessageModel]
}

public struct MessageModel: Sendable, Equatable, Codable {
    public let name: String
    public let file: String
    public let author: String
    public let at: Moment
    public let body: Body
}
