import PleinCore
import PleinModel
import PleinRender

/// One kind of model piece the build keeps, declared once: the `Dependency` a piece of it is (by
/// id; a kind with one piece, such as the menu, ignores the id), its value type, and how its
/// pieces are read from a whole model. `Facts` fingerprints every piece of every kind,
/// `ModelValues` stores them, and `StoredModel` reads them back, all from this table
/// (`ModelPieces.all`), so a piece cannot be kept by one and forgotten by another.
struct PieceKind<Value: Codable & Equatable & Sendable>: Sendable {
    let dependency: @Sendable (String) -> Dependency
    /// Every piece of this kind in a model and its images, by id ("" for a kind of one piece).
    let pieces: @Sendable (SiteModel, ImageCatalog) -> [String: Value]

    /// A kind with one piece per id.
    init(_ dependency: @escaping @Sendable (String) -> Dependency, _ pieces: @escaping @Sendable (SiteModel, ImageCatalog) -> [String: Value]) {
        self.dependency = dependency
        self.pieces = pieces
    }

    /// A kind of one piece.
    init(one dependency: Dependency, _ value: @escaping @Sendable (SiteModel) -> Value) {
        self.dependency = { _ in dependency }
        self.pieces = { model, _ in ["": value(model)] }
    }

    func key(_ id: String = "") -> String { dependency(id).key }
}

/// A `PieceKind` whatever its value type, for the code that goes over every kind.
struct AnyPieceKind: Sendable {
    /// Every piece of `model` as (key, value), each with whether it equals the piece of the same
    /// id in `before` (false without one).
    let entries: @Sendable (_ model: SiteModel, _ images: ImageCatalog, _ before: (model: SiteModel, images: ImageCatalog)?)
        -> [(key: String, value: any Encodable & Sendable, unchanged: Bool)]

    /// The fingerprints of the pieces of these ids (nil for one the model has not).
    let fingerprints: @Sendable (_ model: SiteModel, _ images: ImageCatalog, _ ids: [String]) -> [(key: String, value: [UInt8]?)]

    init<Value>(_ kind: PieceKind<Value>) {
        entries = { model, images, before in
            let old = before.map { kind.pieces($0.model, $0.images) }
            return kind.pieces(model, images).map { id, value in (kind.key(id), value, old?[id] == value) }
        }
        fingerprints = { model, images, ids in
            let pieces = kind.pieces(model, images)
            return ids.map { id in (kind.key(id), pieces[id].map { FingerprintEncoder.fingerprint($0) }) }
        }
    }
}

/// The table of model pieces.
enum ModelPieces {
    static let member = PieceKind(Dependency.member) { model, _ in model.members }
    static let group = PieceKind(Dependency.group) { model, _ in model.groups }
    static let report = PieceKind(Dependency.report) { model, _ in model.reports }
    static let area = PieceKind(Dependency.area) { model, _ in byID(model.areas, \.id) }
    static let location = PieceKind(Dependency.location) { model, _ in byID(model.locations, \.id) }
    static let thread = PieceKind(Dependency.thread) { model, _ in byID(model.threads, \.id) }
    static let sessions = PieceKind(Dependency.sessions) { model, _ in Dictionary(grouping: model.sessions, by: \.member) }
    static let page = PieceKind(Dependency.page) { model, _ in byID(model.pages, \.id) }
    static let pageOrder = PieceKind(one: .pageOrder) { $0.pages.map(\.id) }
    static let menu = PieceKind(one: .menu) { $0.menu }
    static let formerMembers = PieceKind(one: .formerMembers) { $0.formerMembers }
    static let memberOrder = PieceKind(one: .memberOrder) { $0.memberOrder }
    static let groupOrder = PieceKind(one: .groupOrder) { $0.groupOrder }
    static let reportOrder = PieceKind(one: .reportOrder) { $0.reportOrder }
    static let areaOrder = PieceKind(one: .areaOrder) { $0.areas.map(\.id) }
    static let locationOrder = PieceKind(one: .locationOrder) { $0.locations.map(\.id) }
    static let places = PieceKind(one: .places) { $0.places }
    static let asOf = PieceKind(one: .asOf) { $0.asOf }
    static let today = PieceKind(one: .today) { $0.today }
    /// A photo, or a video with its poster, by content path.
    static let image = PieceKind(Dependency.image) { _, images in images.items }

    static let all: [AnyPieceKind] = [
        AnyPieceKind(member), AnyPieceKind(group), AnyPieceKind(report), AnyPieceKind(area), AnyPieceKind(location),
        AnyPieceKind(thread), AnyPieceKind(sessions), AnyPieceKind(page), AnyPieceKind(pageOrder), AnyPieceKind(menu),
        AnyPieceKind(formerMembers), AnyPieceKind(memberOrder), AnyPieceKind(groupOrder), AnyPieceKind(reportOrder),
        AnyPieceKind(areaOrder), AnyPieceKind(locationOrder), AnyPieceKind(places), AnyPieceKind(asOf), AnyPieceKind(today),
        AnyPieceKind(image),
    ]

    /// The pieces a model made again piece by piece (`ModelChange`) may have changed, by kind
    /// and id. (A report's are `Facts.report`'s, with its narrower views and bodies.)
    static func pieces(of change: ModelChange, in model: SiteModel) -> [(kind: AnyPieceKind, ids: [String])] {
        var pieces: [(kind: AnyPieceKind, ids: [String])] = [
            (AnyPieceKind(member), change.members.sorted()), (AnyPieceKind(group), change.groups.sorted()),
            (AnyPieceKind(location), change.locations.sorted()), (AnyPieceKind(thread), change.threads.sorted()),
        ]
        if change.pages {
            pieces += [(AnyPieceKind(page), model.pages.map(\.id)), (AnyPieceKind(pageOrder), [""]), (AnyPieceKind(menu), [""])]
        }
        if !change.areas.isEmpty { pieces.append((AnyPieceKind(area), change.areas.sorted())) }
        if change.reportOrder { pieces.append((AnyPieceKind(reportOrder), [""])) }
        if let members = change.sessions {
            pieces += [(AnyPieceKind(sessions), members.sorted()), (AnyPieceKind(asOf), [""])]
        }
        return pieces.filter { !$0.ids.isEmpty }
    }

    /// Records by id, the first of an id kept (ids are unique once checked).
    private static func byID<Record>(_ records: [Record], _ id: KeyPath<Record, String>) -> [String: Record] {
        Dictionary(records.map { ($0[keyPath: id], $0) }, uniquingKeysWith: { first, _ in first })
    }
}
