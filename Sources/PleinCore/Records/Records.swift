/// Markdown text and the line of the file it starts on.
public struct Body: Sendable, Hashable, Codable {
    public let markdown: String
    public let line: Int

    public init(markdown: String, line: Int) {
        self.markdown = markdown
        self.line = line
    }

    public static let empty = Body(markdown: "", line: 1)
}

/// A named place of `places.yaml`.
public struct Place: Sendable, Hashable, Codable {
    public let name: String
    public let coordinate: Coordinate
    public let postcode: String?
    public let span: Span

    public init(name: String, coordinate: Coordinate, postcode: String?, span: Span) {
        self.name = name
        self.coordinate = coordinate
        self.postcode = postcode
        self.span = span
    }
}

/// `users/<id>.md`
public struct Member: Sendable, Codable {
    public enum Home: Sendable, Hashable, Codable {
        case place(String)
        case coordinate(Coordinate)

        /// Where the home is: the point of the place of its name (`place`), or the coordinates given.
        public func coordinate(place: (String) -> Coordinate?) -> Coordinate? {
            switch self {
            case .place(let name): place(name)
            case .coordinate(let c): c
            }
        }
    }

    public struct Diving: Sendable, Hashable, Codable {
        public let certification: String?
        public let years: Int?
        public let dives: Int?

        public init(certification: String?, years: Int?, dives: Int?) {
            self.certification = certification
            self.years = years
            self.dives = dives
        }
    }

    public let id: String
    public let file: String
    public let name: String
    public let email: String
    /// The avatar's file name in `users/`: the `avatar` field, else `<id>.jpg|.png|.webp` if present.
    public let avatar: Located<String>?
    public let joined: Moment?
    public let home: Home?
    public let postcode: String?
    public let diving: Diving?
    public let follows: [Located<String>]
    public let friends: [Located<String>]
    public let body: Body
    public let spans: [String: Span]
    /// When the member left: they keep their page and what they posted, and leave the lists.
    public var left: Moment?
    /// The member's GitHub account (`github`, their login): issues they open with the site's
    /// issue forms are posted as theirs. Never published.
    public var github: String?

    public init(id: String, file: String, name: String, email: String, avatar: Located<String>?, joined: Moment?, home: Home?, postcode: String?, diving: Diving?, follows: [Located<String>], friends: [Located<String>], body: Body, spans: [String: Span]) {
        self.id = id
        self.file = file
        self.name = name
        self.email = email
        self.avatar = avatar
        self.joined = joined
        self.home = home
        self.postcode = postcode
        self.diving = diving
        self.follows = follows
        self.friends = friends
        self.body = body
        self.spans = spans
    }
}

/// Who sees a group: everyone (`public`), those given its address (`unlisted`), those given its
/// passphrase (`members`: published sealed, see `SealedGroup`), or nobody (`private`).
public enum Visibility: String, Sendable, Hashable, Codable {
    case `public`, unlisted, members, `private`
}

/// How an album's map places its photos (`map` of the album): on the site's privacy grid
/// (`coarse`, the default), where they were taken (`exact`, for a dive site), or not at all.
public enum AlbumMap: String, Sendable, Hashable, Codable {
    case coarse, exact
    case hidden = "none"
}

/// `groups/<id>/index.md`
public struct Group: Sendable {
    public let id: String
    public let file: String
    public let name: String
    /// As written: member ids or e-mail addresses.
    public let members: [Located<String>]
    public let createdBy: Located<String>?
    public let visibility: Visibility
    public let body: Body
    public let spans: [String: Span]

    public init(id: String, file: String, name: String, members: [Located<String>], createdBy: Located<String>?, visibility: Visibility, body: Body, spans: [String: Span]) {
        self.id = id
        self.file = file
        self.name = name
        self.members = members
        self.createdBy = createdBy
        self.visibility = visibility
        self.body = body
        self.spans = spans
    }
}

/// `groups/<group>/albums/<id>/index.md` and the image files beside it.
public struct Album: Sendable {
    public struct Entry: Sendable, Hashable {
        public let file: Located<String>
        public let caption: String?
        public let by: Located<String>?

        public init(file: Located<String>, caption: String?, by: Located<String>?) {
            self.file = file
            self.caption = caption
            self.by = by
        }
    }

    public let group: String
    public let id: String
    public let file: String
    public let title: String
    public let date: Moment?
    public let cover: Located<String>?
    /// The member who made the album (credited in feeds).
    public let by: Located<String>?
    public let entries: [Entry]
    /// How precisely the album's map places its photos (`map`).
    public let map: AlbumMap
    /// Image file names found in the album's folder, sorted.
    public let imageFiles: [String]
    public let body: Body
    public let spans: [String: Span]

    /// The folder, relative to the content root.
    public var folder: String { ContentLayout.albumFolder(group: group, id: id) }

    public init(group: String, id: String, file: String, title: String, date: Moment?, cover: Located<String>?, by: Located<String>?, entries: [Entry], map: AlbumMap = .coarse, imageFiles: [String], body: Body, spans: [String: Span]) {
        self.map = map
        self.group = group
        self.id = id
        self.file = file
        self.title = title
        self.date = date
        self.cover = cover
        self.by = by
        self.entries = entries
        self.imageFiles = imageFiles
        self.body = body
        self.spans = spans
    }
}

/// `groups/<group>/goals/<id>.md`
public struct Goal: Sendable {
    public let group: String
    public let id: String
    public let file: String
    public let title: String
    public let points: Int
    public let addedBy: Located<String>?
    public let added: Moment?
    public let completedBy: Located<String>?
    public let completedAt: Moment?
    public let body: Body
    public let spans: [String: Span]
    /// For a goal the group reaches together ("100 club dives"): the total to reach, what is
    /// counted, and the contributions so far.
    public var target: Int?
    public var unit: String?
    public var tally: [TallyEntry] = []

    /// One contribution to a goal's tally.
    public struct TallyEntry: Sendable {
        public let by: Located<String>
        public let count: Int
        public let at: Moment?

        public init(by: Located<String>, count: Int, at: Moment?) {
            self.by = by
            self.count = count
            self.at = at
        }
    }

    public init(group: String, id: String, file: String, title: String, points: Int, addedBy: Located<String>?, added: Moment?, completedBy: Located<String>?, completedAt: Moment?, body: Body, spans: [String: Span]) {
        self.group = group
        self.id = id
        self.file = file
        self.title = title
        self.points = points
        self.addedBy = addedBy
        self.added = added
        self.completedBy = completedBy
        self.completedAt = completedAt
        self.body = body
        self.spans = spans
    }
}

/// `groups/<group>/events/<id>.md`: something the group does at a time and place.
public struct GroupEvent: Sendable {
    public let group: String
    public let id: String
    public let file: String
    public let title: String
    public let starts: Moment
    public let ends: Moment?
    public let place: String?
    public let by: Located<String>?
    public let body: Body
    public let spans: [String: Span]

    public init(group: String, id: String, file: String, title: String, starts: Moment, ends: Moment?, place: String?, by: Located<String>?, body: Body, spans: [String: Span]) {
        self.group = group
        self.id = id
        self.file = file
        self.title = title
        self.starts = starts
        self.ends = ends
        self.place = place
        self.by = by
        self.body = body
        self.spans = spans
    }
}

/// `reports/<id>/`, with the optional `area.yaml`.
public struct Area: Sendable {
    public let id: String
    public let file: String?
    public let name: String?
    public let center: Coordinate?
    public let boundary: [Coordinate]

    public init(id: String, file: String?, name: String?, center: Coordinate?, boundary: [Coordinate]) {
        self.id = id
        self.file = file
        self.name = name
        self.center = center
        self.boundary = boundary
    }
}

public enum Category: String, Sendable, Hashable, CaseIterable, Codable {
    case suspicious, attention, event, complaint, message
}

/// `reports/<area>/<date>-<slug>.md`, or the same as a bundle folder with replies.
public struct Report: Sendable, Equatable {
    public let area: String
    /// `<date>-<slug>`
    public let slug: String
    public let file: String
    public let title: String
    public let category: Category
    public let at: Moment
    public let author: Located<String>
    public let location: Coordinate?
    public let body: Body
    public var replies: [Reply]
    /// Other files of a bundle (images and attachments), relative to the bundle folder.
    public var resources: [String]
    public let spans: [String: Span]
    /// For an event: when it starts and ends, and where (a name of `places.yaml` or any text).
    public var starts: Moment?
    public var ends: Moment?
    public var place: String?

    /// `<area>/<date>-<slug>`
    public var id: String { "\(area)/\(slug)" }

    public init(area: String, slug: String, file: String, title: String, category: Category, at: Moment, author: Located<String>, location: Coordinate?, body: Body, replies: [Reply], resources: [String], spans: [String: Span]) {
        self.area = area
        self.slug = slug
        self.file = file
        self.title = title
        self.category = category
        self.at = at
        self.author = author
        self.location = location
        self.body = body
        self.replies = replies
        self.resources = resources
        self.spans = spans
    }
}

/// A dated text a member wrote, in a file of its own named `<stamp>-<member>.md`: a reply to a
/// report (`reports/<area>/<date>-<slug>/replies/`) or a message in a thread (`threads/<thread>/`).
public struct Post: Sendable, Equatable {
    /// The file name without extension.
    public let name: String
    public let file: String
    public let author: Located<String>
    public let at: Moment
    public let body: Body

    public init(name: String, file: String, author: Located<String>, at: Moment, body: Body) {
        self.name = name
        self.file = file
        self.author = author
        self.at = at
        self.body = body
    }
}

/// `reports/<area>/<date>-<slug>/replies/<stamp>-<member>.md`
public typealias Reply = Post

