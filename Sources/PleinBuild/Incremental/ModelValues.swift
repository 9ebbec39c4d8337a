import Foundation
import GRDB
import PleinCore
import PleinMarkdown
import PleinModel
import PleinRender
import Synchronization

/// The pieces of the model as values, kept in the build store (`model_values`) beside their
/// facts: what a build after an edit of reports renders its outputs from, reading only the pieces
/// they read (`StoredModel`), never the whole model. Each piece is kept under its fact's key
/// (`Dependency.key`), and written again only when that fact's fingerprint changed; the site's
/// settings and who the members are (`MemberIndex`: what checking and modelling a report read
/// of them) under keys of their own.
enum ModelValues {
    static let siteKey = "value:site"
    static let membersKey = "value:member-index"

    /// Every piece of `model` and `images` that an output reads, by key. Narrower views
    /// (`ReportTimes`, `ReportHeadline`, summaries) are made from these when read.
    static func pieces(of model: SiteModel, images: ImageCatalog) -> [String: any Encodable & Sendable] {
        var pieces: [String: any Encodable & Sendable] = [:]
        pieces.reserveCapacity(model.members.count + model.groups.count + model.reports.count + images.images.count + 16)
        for kind in ModelPieces.all {
            for (key, value, _) in kind.entries(model, images, nil) { pieces[key] = value }
        }
        return pieces
    }

    /// A piece as the store keeps it (`ValueCoding`).
    static func encode(_ value: some Encodable) -> [UInt8] {
        (try? ValueCoding.encode(value)) ?? []
    }

    /// A piece from the store; nil when it cannot be read as `type` (the build that loads
    /// everything then takes over).
    static func decode<Value: Decodable>(_ type: Value.Type, _ bytes: [UInt8]) -> Value? {
        try? ValueCoding.decode(type, from: bytes)
    }
}

/// The model as the build store keeps it (`ModelValues`), read piece by piece as outputs read
/// it, with the pieces an edit made again (`reports`, `bodies`) in place of the stored ones.
final class StoredModel: ModelSource {
    private let queue: DatabaseQueue
    let site: SiteConfig
    private let reports: [String: ReportModel]
    private let bodies: [String: RenderedMarkdown]
    private let cache = Mutex<[String: any Sendable]>([:])

    init(queue: DatabaseQueue, site: SiteConfig, reports: [String: ReportModel], bodies: [String: RenderedMarkdown]) {
        self.queue = queue
        self.site = site
        self.reports = reports
        self.bodies = bodies
    }

    /// The stored value of `key`, decoded once.
    private func value<Value: Decodable & Sendable>(_ key: String, as type: Value.Type) -> Value? {
        if let cached = cache.withLock({ $0[key] }) { return cached as? Value }
        guard let decoded = (try? queue.read { db in try BuildStore.value(db, key, as: type) }) ?? nil else { return nil }
        cache.withLock { $0[key] = decoded }
        return decoded
    }

    /// The stored piece of `kind` with `id`.
    private func value<Value>(_ kind: PieceKind<Value>, _ id: String = "") -> Value? { value(kind.key(id), as: Value.self) }

    func member(_ id: String) -> MemberModel? { value(ModelPieces.member, id) }
    func group(_ id: String) -> GroupModel? { value(ModelPieces.group, id) }
    func report(_ id: String) -> ReportModel? { reports[id] ?? value(ModelPieces.report, id) }
    func area(_ id: String) -> AreaModel? { value(ModelPieces.area, id) }
    func location(_ id: String) -> LocationModel? { value(ModelPieces.location, id) }
    func thread(_ id: String) -> ThreadModel? { value(ModelPieces.thread, id) }
    func sessions(of member: String) -> [Session] { value(ModelPieces.sessions, member) ?? [] }
    func page(_ id: String) -> PageModel? { value(ModelPieces.page, id) }
    var pageOrder: [String] { value(ModelPieces.pageOrder) ?? [] }
    var menu: [MenuLink] { value(ModelPieces.menu) ?? [] }
    var formerMembers: [String] { value(ModelPieces.formerMembers) ?? [] }
    var memberOrder: [String] { value(ModelPieces.memberOrder) ?? [] }
    var groupOrder: [String] { value(ModelPieces.groupOrder) ?? [] }
    var reportOrder: [String] { value(ModelPieces.reportOrder) ?? [] }
    var areaOrder: [String] { value(ModelPieces.areaOrder) ?? [] }
    var locationOrder: [String] { value(ModelPieces.locationOrder) ?? [] }
    var places: [Place] { value(ModelPieces.places) ?? [] }
    var asOf: Moment? { value(ModelPieces.asOf) ?? nil }
    var today: String? { value(ModelPieces.today) ?? nil }

    func body(_ file: String) -> RenderedMarkdown? {
        if let made = bodies[file] { return made }
        let key = Dependency.body(file).key
        if let cached = cache.withLock({ $0[key] }) { return cached as? RenderedMarkdown }
        let body = try? queue.read { db in try BuildStore.body(db, file: file) }
        guard let body else { return nil }
        cache.withLock { $0[key] = body }
        return body
    }

    func image(_ path: String) -> PublishedImage? { value(ModelPieces.image, path)?.image }
    func video(_ path: String) -> PublishedVideo? { value(ModelPieces.image, path)?.video }
}
