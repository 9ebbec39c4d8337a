/// Markdown text and the line of the file it starts on.
public struct Body: Sendable, Hashable {
    public let markdown: String
    public let line: Int

    public init(markdown: String, line: Int) {
        self.markdown = markdown
        self.line = line
    }

    public static let empty = Body(markdown: "", line: 1)
}

/// A named place of `places.yaml`.
public struct Place: Sendable, Hashable {
    public let name: String
    public let coordinate: Coordinate
    public let postcode: String?
    public let span: Span
}

/// `users/<id>.md`
public struct Member: Sendable {
    public enum Home: Sendable, Hashable {
        case place(String)
        case coordinate(Coordinate)
    }

    public struct Diving: Sendable, Hashable {
        public let certification: String?
        public let years: Int?
        public let dives: Int?
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
}

public enum Visibility: String, Sendable, Hashable {
    case `public`, unlisted, `private`
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
}

/// `groups/<group>/albums/<id>/index.md` and the image files beside it.
public struct Album: Sendable {
    public struct Entry: Sendable, Hashable {
        public let file: Located<String>
        public let caption: String?
        public let by: Located<String>?
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
    /// Image file names found in the album's folder, sorted.
    public let imageFiles: [String]
    public let body: Body
    public let spans: [String: Span]

    /// The folder, relative to the content root.
    public var folder: String { "groups/\(group)/albums/\(id)" }
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
}

/// `reports/<id>/`, with the optional `area.yaml`.
public struct Area: Sendable {
    public let id: String
    public let file: String?
    public let name: String?
    public let center: Coordinate?
    public let boundary: [Coordinate]
}

public enum Category: String, Sendable, Hashable, CaseIterable {
    case suspicious, attention, event, complaint, message
}

/// `reports/<area>/<date>-<slug>.md`, or the same as a bundle folder with replies.
public struct Report: Sendable {
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
    public let replies: [Reply]
    /// Other files of a bundle (images and attachments), relative to the bundle folder.
    public let resources: [String]
    public let spans: [String: Span]

    /// `<area>/<date>-<slug>`
    public var id: String { "\(area)/\(slug)" }
}

/// `reports/<area>/<date>-<slug>/replies/<stamp>-<member>.md`
public struct Reply: Sendable {
    /// The file name without extension.
    public let name: String
    public let file: String
    public let author: Located<String>
    public let at: Moment
    public let body: Body
}

/// `locations/<id>.md`
public struct StudyLocation: Sendable {
    public let id: String
    public let file: String
    public let name: String
    public let address: String?
    public let location: Coordinate?
    public let seats: Int?
    public let studentIDRequired: Bool
    public let openingHours: OpeningHours?
    public let body: Body
    public let spans: [String: Span]
}

/// One entry of `checkins/<member>.yaml`.
public struct CheckIn: Sendable {
    public let member: String
    public let file: String
    public let location: Located<String>
    public let checkIn: Moment
    public let checkOut: Moment?
    /// Where the entry starts, and its `in` and `out` values.
    public let span: Span
    public let inSpan: Span
    public let outSpan: Span?
}

/// `threads/<id>/`: `thread.yaml` and one file per message.
public struct Thread: Sendable {
    public let id: String
    public let file: String
    public let participants: [Located<String>]
    public let subject: String
    public let messages: [Message]
    public let spans: [String: Span]
}

/// `threads/<thread>/<stamp>-<member>.md`
public struct Message: Sendable {
    public let name: String
    public let file: String
    public let author: Located<String>
    public let at: Moment
    public let body: Body
}

/// An image file found in the content, with the type its bytes say it is.
public struct ImageFile: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case jpeg, png, webp
    }

    public let path: String
    public let size: Int
    public let kind: Kind?
}
