public import PleinCore
public import PleinModel
import PleinMarkdown

/// When a report was published and, for an event, when it starts: what a feed needs to choose
/// its newest entries (so that an edit of an older report does not touch it), and a calendar of
/// many reports to choose their events. A reply leaves it as it is (`ReportReplies`).
public struct ReportTimes: Sendable, Equatable, Codable {
    public let at: Moment
    public let starts: Moment?

    public init(_ report: ReportModel) {
        at = report.at
        starts = report.starts
    }

    public init(at: Moment, starts: Moment?) {
        self.at = at
        self.starts = starts
    }
}

/// When each of a report's replies was published, and their names: what a feed needs to choose
/// among replies, and a card to count them.
public struct ReportReplies: Sendable, Equatable, Codable {
    public struct Reply: Sendable, Equatable, Codable {
        public let name: String
        public let at: Moment

        public init(name: String, at: Moment) {
            self.name = name
            self.at = at
        }
    }

    public let replies: [Reply]

    public init(_ report: ReportModel) {
        replies = report.replies.map { Reply(name: $0.name, at: $0.at) }
    }

    public init(replies: [Reply]) {
        self.replies = replies
    }
}

/// What lists, cards, maps and the sitemap show of a report: everything but its body and its
/// replies, so that an edit of the body (past its summary) leaves them as they are, and a reply
/// leaves the maps and the lists of every report (a card's count of replies reads
/// `ReportTimes`).
public struct ReportHeadline: Sendable, Equatable, Codable {
    public let id: String
    public let area: String
    public let file: String
    public let title: String
    public let category: Category
    public let at: Moment
    public let author: String
    public let location: Coordinate?
    /// For an event: when and where.
    public let starts: Moment?
    public let ends: Moment?
    public let place: String?
    /// When the report or one of its replies last changed, by the repository's history.
    public let changed: Moment?

    public init(_ report: ReportModel) {
        id = report.id
        area = report.area
        file = report.file
        title = report.title
        category = report.category
        at = report.at
        author = report.author
        location = report.location
        starts = report.starts
        ends = report.ends
        place = report.place
        changed = ([report.revision?.changed] + report.replies.map { $0.revision?.changed }).compactMap { $0 }.max()
    }

    public init(id: String, area: String, file: String, title: String, category: Category, at: Moment, author: String,
                location: Coordinate?, starts: Moment?, ends: Moment?, place: String?, changed: Moment?) {
        (self.id, self.area, self.file, self.title, self.category, self.at, self.author) = (id, area, file, title, category, at, author)
        (self.location, self.starts, self.ends, self.place, self.changed) = (location, starts, ends, place, changed)
    }
}

/// An area's id, name and outline: what cards, feeds, calendars, lists of events and a report's
/// page show of it (not its list of reports, which a new report changes).
public struct AreaCard: Sendable, Equatable, Codable {
    public let id: String
    public let name: String?
    public let boundary: [Coordinate]

    public init(_ area: AreaModel) {
        id = area.id
        name = area.name
        boundary = area.boundary
    }
}

/// What chips, lists of members, maps of divers and the sitemap show of a member: all but their
/// text and what they did, so that an edit of a member's text leaves them as they are.
public struct MemberCard: Sendable, Equatable, Codable {
    public let name: String
    /// Path of the avatar image relative to the content root.
    public let avatar: String?
    public let home: Coordinate?
    public let nearPlace: String?
    public let postcode: String?
    public let diving: Member.Diving?
    public let left: Moment?
    /// When the member's file last changed, by the repository's history.
    public let changed: Moment?

    public init(_ member: MemberModel) {
        name = member.name
        avatar = member.avatar
        home = member.home
        nearPlace = member.nearPlace
        postcode = member.postcode
        diving = member.diving
        left = member.left
        changed = member.revision?.changed
    }
}

/// What calendars and lists of events read of a group: its name, whether it is listed and its
/// events, so that an edit of its text, albums or goals leaves them as they are.
public struct GroupEvents: Sendable, Equatable, Codable {
    public let id: String
    public let name: String
    public let isListed: Bool
    public let events: [GroupEventModel]

    public init(_ group: GroupModel) {
        id = group.id
        name = group.name
        isListed = group.isListed
        events = group.events
    }
}

/// What lists, cards, the home page and the sitemap show of a group: its name, whether it is
/// listed, how many members it has, whether it has goals, when its file and its albums' changed
/// and its photos' names; not its text, nor its albums' and goals' texts.
public struct GroupCard: Sendable, Equatable, Codable {
    public struct Album: Sendable, Equatable, Codable {
        public let key: AlbumKey
        public let changed: Moment?
        public let photos: [String]
    }

    public let name: String
    public let isListed: Bool
    public let members: Int
    public let hasGoals: Bool
    public let changed: Moment?
    public let albums: [Album]

    public init(_ group: GroupModel) {
        name = group.name
        isListed = group.isListed
        members = group.members.count
        hasGoals = group.hasGoals
        changed = group.revision?.changed
        albums = group.albums.map { Album(key: $0.key, changed: $0.revision?.changed, photos: $0.photos.map(\.slug)) }
    }
}

/// What the site feed and the home page read of a group to choose the newest albums and
/// completed goals: whether it is listed, each album's dates (and the photos whose times date an
/// album that has neither) and each completed goal's time, in the group's order (newest
/// first); not their texts, which only the chosen ones' entries and cards read.
public struct GroupActivity: Sendable, Equatable, Codable {
    public struct Album: Sendable, Equatable, Codable {
        public let key: AlbumKey
        /// The album's own date (`date:`), which orders lists of albums.
        public let date: Moment?
        /// When its file was first committed.
        public let created: Moment?
        /// Its photos' paths, only when it has neither date.
        public let photos: [String]
    }

    public struct Completion: Sendable, Equatable, Codable {
        public let key: GoalKey
        public let at: Moment?
    }

    public let isListed: Bool
    public let albums: [Album]
    public let completions: [Completion]

    public init(_ group: GroupModel) {
        isListed = group.isListed
        albums = group.albums.map { album in
            Album(key: album.key, date: album.date, created: album.revision?.created,
                  photos: album.date == nil && album.revision?.created == nil ? album.photos.map(\.path) : [])
        }
        completions = group.completedGoals.map { Completion(key: $0.key, at: $0.completedAt) }
    }
}

/// The summaries of a body that lists and maps show: one per length they use. A summary of
/// another length reads the whole body.
public enum Summaries {
    public static let lengths = [140, 160, 180, 280]

    /// How many characters of a text every summary is made from: a summary cut at `limit`
    /// reads the first `limit` + 1 characters (`TextCut.summary`), and whether there are more.
    public static let leadCharacters = lengths.max()! + 1

    /// The start of `text` every summary of it is made from, as every summary of the whole text.
    public static func lead(of text: String) -> String {
        let bytes = text.utf8
        guard bytes.count > leadCharacters else { return text }
        // (Where the first bytes are ASCII and no carriage return, each byte is a character.)
        if bytes.prefix(leadCharacters + 1).allSatisfy({ $0 < 0x80 && $0 != 13 }) {
            return String(decoding: bytes.prefix(leadCharacters), as: UTF8.self)
        }
        return String(text.prefix(leadCharacters))
    }

    /// The summaries of `text`, one per length: a fact of the build store.
    public static func of(_ text: String) -> [String] {
        lengths.map { TextCut.summary(text, limit: $0) }
    }
}
