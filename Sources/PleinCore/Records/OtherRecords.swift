// Records of the site's own pages, study places and check-ins, message threads and image files
// (members, groups and reports are in Records.swift).

/// `pages/<id>.md`: a page of the site's own, free-form Markdown with a place in the menu.
public struct ContentPage: Sendable {
    public let id: String
    public let file: String
    public let title: String
    public let description: String?
    public let menu: Bool
    public let menuTitle: String?
    public let order: Int
    public let body: Body

    public init(id: String, file: String, title: String, description: String?, menu: Bool, menuTitle: String?, order: Int, body: Body) {
        self.id = id
        self.file = file
        self.title = title
        self.description = description
        self.menu = menu
        self.menuTitle = menuTitle
        self.order = order
        self.body = body
    }
}

/// What a study place is: its name, where it is, its seats and its hours (the record and the
/// model share it; `l.name` reads `l.place.name`).
public struct StudyPlace: Sendable, Equatable, Codable {
    public let name: String
    public let address: String?
    public let location: Coordinate?
    public let seats: Int?
    public let studentIDRequired: Bool
    public let openingHours: OpeningHours?

    public init(name: String, address: String?, location: Coordinate?, seats: Int?, studentIDRequired: Bool, openingHours: OpeningHours?) {
        self.name = name
        self.address = address
        self.location = location
        self.seats = seats
        self.studentIDRequired = studentIDRequired
        self.openingHours = openingHours
    }
}

/// `locations/<id>.md`
@dynamicMemberLookup
public struct StudyLocation: Sendable {
    public let id: String
    public let file: String
    public let place: StudyPlace
    public let body: Body
    public let spans: [String: Span]

    public init(id: String, file: String, place: StudyPlace, body: Body, spans: [String: Span]) {
        self.id = id
        self.file = file
        self.place = place
        self.body = body
        self.spans = spans
    }

    public subscript<T>(dynamicMember field: KeyPath<StudyPlace, T>) -> T { place[keyPath: field] }
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

    public init(member: String, file: String, location: Located<String>, checkIn: Moment, checkOut: Moment?, span: Span, inSpan: Span, outSpan: Span?) {
        self.member = member
        self.file = file
        self.location = location
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.span = span
        self.inSpan = inSpan
        self.outSpan = outSpan
    }
}

/// `threads/<id>/`: `thread.yaml` and one file per message.
public struct Thread: Sendable {
    public let id: String
    public let file: String
    public let participants: [Located<String>]
    public let subject: String
    public let messages: [Message]
    public let spans: [String: Span]

    public init(id: String, file: String, participants: [Located<String>], subject: String, messages: [Message], spans: [String: Span]) {
        self.id = id
        self.file = file
        self.participants = participants
        self.subject = subject
        self.messages = messages
        self.spans = spans
    }
}

/// `threads/<thread>/<stamp>-<member>.md`
public typealias Message = Post

/// An image file found in the content, with the type its bytes say it is.
public struct ImageFile: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case jpeg, png, webp
        /// HEIF holding HEVC (an iPhone's `.heic`) or AV1 (`.avif`).
        case heif, avif

        /// What a file's extension promises.
        public init(extension ext: String) {
            switch ext.lowercased() {
            case "png": self = .png
            case "webp": self = .webp
            case "heic", "heif": self = .heif
            case "avif": self = .avif
            default: self = .jpeg
            }
        }

        /// HEIF and AVIF share a container: a `.heif` holding AV1 is no mismatch.
        public func matches(_ declared: Kind) -> Bool {
            self == declared || (self == .heif || self == .avif) && (declared == .heif || declared == .avif)
        }
    }

    public let path: String
    public let size: Int
    public let kind: Kind?

    public init(path: String, size: Int, kind: Kind?) {
        self.path = path
        self.size = size
        self.kind = kind
    }
}
