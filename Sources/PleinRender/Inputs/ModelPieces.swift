public import PleinCore
public import PleinModel

/// One kind of model piece, declared once: the kind of `Dependency` a piece of it is, its value,
/// every piece of it in a whole model (what the build's facts fingerprint and its store keeps),
/// and one piece of it in the model in memory (what an output reads). `ModelSource` gives a piece
/// of any kind, `ModelView` records the read of any kind, and the build's `Facts`, `ModelValues`
/// and `StoredModel` go over the table (`ModelPieces`), so a piece cannot be kept by one and
/// forgotten by another.
public struct PieceKind<Value: Codable & Equatable & Sendable>: Sendable {
    public let kind: Dependency.Kind
    /// Every piece of this kind in a model and its images, by id ("" for a kind of one piece).
    public let all: @Sendable (SiteModel, ImageCatalog) -> [String: Value]
    /// The piece of an id in the model in memory (indexed by it); nil when it has none.
    let one: @Sendable (InMemoryModel, String) -> Value?

    /// A kind with one piece per id.
    init(_ kind: Dependency.Kind, all: @escaping @Sendable (SiteModel, ImageCatalog) -> [String: Value],
         one: @escaping @Sendable (InMemoryModel, String) -> Value?) {
        precondition(!kind.isOne)
        self.kind = kind
        self.all = all
        self.one = one
    }

    /// A kind of one piece.
    init(one kind: Dependency.Kind, _ value: @escaping @Sendable (SiteModel) -> Value) {
        precondition(kind.isOne)
        self.kind = kind
        all = { model, _ in ["": value(model)] }
        one = { memory, _ in value(memory.model) }
    }

    /// The read of the piece of `id`.
    public func dependency(_ id: String = "") -> Dependency { Dependency(kind, id) }
    /// The build store's key of the piece of `id`.
    public func key(_ id: String = "") -> String { dependency(id).key }
}

/// The table of model pieces.
public enum ModelPieces {
    public static let member = PieceKind(.member, all: { model, _ in model.members }, one: { $0.model.members[$1] })
    public static let group = PieceKind(.group, all: { model, _ in model.groups }, one: { $0.model.groups[$1] })
    public static let report = PieceKind(.report, all: { model, _ in model.reports }, one: { $0.model.reports[$1] })
    public static let area = PieceKind(.area, all: { model, _ in byID(model.areas, \.id) }, one: { $0.areasByID[$1] })
    public static let location = PieceKind(.location, all: { model, _ in byID(model.locations, \.id) }, one: { $0.locationsByID[$1] })
    public static let thread = PieceKind(.thread, all: { model, _ in byID(model.threads, \.id) }, one: { $0.threadsByID[$1] })
    /// A member's check-ins, in the model's order (none: no piece).
    public static let sessions = PieceKind(.sessions, all: { model, _ in Dictionary(grouping: model.sessions, by: \.member) },
                                           one: { $0.sessionsByMember[$1] })
    public static let page = PieceKind(.page, all: { model, _ in byID(model.pages, \.id) }, one: { $0.pagesByID[$1] })
    public static let pageOrder = PieceKind(one: .pageOrder) { $0.pages.map(\.id) }
    public static let menu = PieceKind(one: .menu) { $0.menu }
    public static let formerMembers = PieceKind(one: .formerMembers) { $0.formerMembers }
    public static let memberOrder = PieceKind(one: .memberOrder) { $0.memberOrder }
    public static let groupOrder = PieceKind(one: .groupOrder) { $0.groupOrder }
    public static let reportOrder = PieceKind(one: .reportOrder) { $0.reportOrder }
    public static let areaOrder = PieceKind(one: .areaOrder) { $0.areas.map(\.id) }
    public static let locationOrder = PieceKind(one: .locationOrder) { $0.locations.map(\.id) }
    public static let places = PieceKind(one: .places) { $0.places }
    public static let asOf = PieceKind(one: .asOf) { $0.asOf }
    public static let today = PieceKind(one: .today) { $0.today }
    /// A photo, or a video with its poster, by content path.
    public static let image = PieceKind(.image, all: { _, images in images.items }, one: { $0.images.item($1) })

    /// Every kind of the table, each given to `visitor` (which sees its value type): what the
    /// code that goes over every kind is made from, so that a kind is listed here and nowhere else.
    public static func every<Visitor: PieceKindVisitor>(_ visitor: Visitor) -> [Visitor.Result] {
        [visitor.visit(member), visitor.visit(group), visitor.visit(report), visitor.visit(area), visitor.visit(location),
         visitor.visit(thread), visitor.visit(sessions), visitor.visit(page), visitor.visit(pageOrder), visitor.visit(menu),
         visitor.visit(formerMembers), visitor.visit(memberOrder), visitor.visit(groupOrder), visitor.visit(reportOrder),
         visitor.visit(areaOrder), visitor.visit(locationOrder), visitor.visit(places), visitor.visit(asOf), visitor.visit(today),
         visitor.visit(image)]
    }

    /// Records by id, the first of an id kept (ids are unique once checked).
    static func byID<Record>(_ records: [Record], _ id: KeyPath<Record, String>) -> [String: Record] {
        Dictionary(records.map { ($0[keyPath: id], $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A narrower view of a model piece, declared once: its kind of `Dependency`, the piece it is
/// made of, and how. An output that reads only the view (a card, a calendar's events) is not
/// rendered again when the rest of its piece changes: the build's facts fingerprint the view on
/// its own (`Facts`), taken from the last build's where its piece did not change. A view the build
/// store `stored` is kept in it beside its piece, so that a page that reads it of every report
/// does not decode every report (`StoredModel`).
public struct ViewKind<Base: Codable & Equatable & Sendable, Value: Codable & Sendable>: Sendable {
    public let kind: Dependency.Kind
    public let base: PieceKind<Base>
    public let make: @Sendable (Base) -> Value
    public let stored: Bool

    init(_ kind: Dependency.Kind, of base: PieceKind<Base>, stored: Bool = false, _ make: @escaping @Sendable (Base) -> Value) {
        precondition(!kind.isOne && !base.kind.isOne)
        (self.kind, self.base, self.make, self.stored) = (kind, base, make, stored)
    }

    public func dependency(_ id: String) -> Dependency { Dependency(kind, id) }
    public func key(_ id: String) -> String { dependency(id).key }
}

/// The table of narrower views.
public enum ModelViews {
    public static let reportTimes = ViewKind(.reportTimes, of: ModelPieces.report, stored: true, ReportTimes.init)
    public static let reportReplies = ViewKind(.reportReplies, of: ModelPieces.report, stored: true, ReportReplies.init)
    public static let reportHeadline = ViewKind(.reportHeadline, of: ModelPieces.report, stored: true, ReportHeadline.init)
    public static let memberJoined = ViewKind(.memberJoined, of: ModelPieces.member, stored: true) { Dated(at: $0.joined) }
    public static let memberCard = ViewKind(.memberCard, of: ModelPieces.member, MemberCard.init)
    public static let groupEvents = ViewKind(.groupEvents, of: ModelPieces.group, GroupEvents.init)
    public static let groupCard = ViewKind(.groupCard, of: ModelPieces.group, GroupCard.init)
    public static let groupActivity = ViewKind(.groupActivity, of: ModelPieces.group, GroupActivity.init)
    public static let areaCard = ViewKind(.areaCard, of: ModelPieces.area, AreaCard.init)
    public static let locationName = ViewKind(.locationName, of: ModelPieces.location) { $0.name }

    /// Every view of the table, each given to `visitor` (which sees its types).
    public static func every<Visitor: ViewKindVisitor>(_ visitor: Visitor) -> [Visitor.Result] {
        [visitor.visit(reportTimes), visitor.visit(reportReplies), visitor.visit(reportHeadline), visitor.visit(memberJoined),
         visitor.visit(memberCard), visitor.visit(groupEvents), visitor.visit(groupCard), visitor.visit(groupActivity),
         visitor.visit(areaCard), visitor.visit(locationName)]
    }
}

/// Code that goes over every kind of piece or view (`ModelPieces.every`, `ModelViews.every`),
/// seeing each one's value types.
public protocol PieceKindVisitor {
    associatedtype Result
    func visit<Value>(_ kind: PieceKind<Value>) -> Result
}

public protocol ViewKindVisitor {
    associatedtype Result
    func visit<Base, Value>(_ kind: ViewKind<Base, Value>) -> Result
}

/// A moment as a value of its own: when a member joined (`ModelViews.memberJoined`), when a file
/// last changed.
public struct Dated: Codable, Sendable, Equatable {
    public let at: Moment?

    public init(at: Moment?) { self.at = at }
}
