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
        for (id, member) in model.members { pieces[Dependency.member(id).key] = member }
        for (id, group) in model.groups { pieces[Dependency.group(id).key] = group }
        for (id, report) in model.reports { pieces[Dependency.report(id).key] = report }
        for area in model.areas { pieces[Dependency.area(area.id).key] = area }
        for location in model.locations { pieces[Dependency.location(location.id).key] = location }
        for thread in model.threads { pieces[Dependency.thread(thread.id).key] = thread }
        for (member, sessions) in Dictionary(grouping: model.sessions, by: \.member) { pieces[Dependency.sessions(member).key] = sessions }
        for page in model.pages { pieces[Dependency.page(page.id).key] = page }
        pieces[Dependency.pageOrder.key] = model.pages.map(\.id)
        pieces[Dependency.menu.key] = model.menu
        pieces[Dependency.formerMembers.key] = model.formerMembers
        pieces[Dependency.memberOrder.key] = model.memberOrder
        pieces[Dependency.groupOrder.key] = model.groupOrder
        pieces[Dependency.reportOrder.key] = model.reportOrder
        pieces[Dependency.areaOrder.key] = model.areas.map(\.id)
        pieces[Dependency.locationOrder.key] = model.locations.map(\.id)
        pieces[Dependency.places.key] = model.places
        pieces[Dependency.asOf.key] = model.asOf
        pieces[Dependency.today.key] = model.today
        for (path, item) in images.items { pieces[Dependency.image(path).key] = item }
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

    func member(_ id: String) -> MemberModel? { value(Dependency.member(id).key, as: MemberModel.self) }
    func group(_ id: String) -> GroupModel? { value(Dependency.group(id).key, as: GroupModel.self) }
    func report(_ id: String) -> ReportModel? { reports[id] ?? value(Dependency.report(id).key, as: ReportModel.self) }
    func area(_ id: String) -> AreaModel? { value(Dependency.area(id).key, as: AreaModel.self) }
    func location(_ id: String) -> LocationModel? { value(Dependency.location(id).key, as: LocationModel.self) }
    func thread(_ id: String) -> ThreadModel? { value(Dependency.thread(id).key, as: ThreadModel.self) }
    func sessions(of member: String) -> [Session] { value(Dependency.sessions(member).key, as: [Session].self) ?? [] }
    func page(_ id: String) -> PageModel? { value(Dependency.page(id).key, as: PageModel.self) }
    var pageOrder: [String] { value(Dependency.pageOrder.key, as: [String].self) ?? [] }
    var menu: [MenuLink] { value(Dependency.menu.key, as: [MenuLink].self) ?? [] }
    var formerMembers: [String] { value(Dependency.formerMembers.key, as: [String].self) ?? [] }
    var memberOrder: [String] { value(Dependency.memberOrder.key, as: [String].self) ?? [] }
    var groupOrder: [String] { value(Dependency.groupOrder.key, as: [String].self) ?? [] }
    var reportOrder: [String] { value(Dependency.reportOrder.key, as: [String].self) ?? [] }
    var areaOrder: [String] { value(Dependency.areaOrder.key, as: [String].self) ?? [] }
    var locationOrder: [String] { value(Dependency.locationOrder.key, as: [String].self) ?? [] }
    var places: [Place] { value(Dependency.places.key, as: [Place].self) ?? [] }
    var asOf: Moment? { value(Dependency.asOf.key, as: Moment?.self) ?? nil }
    var today: String? { value(Dependency.today.key, as: String?.self) ?? nil }

    func body(_ file: String) -> RenderedMarkdown? {
        if let made = bodies[file] { return made }
        let key = Dependency.body(file).key
        if let cached = cache.withLock({ $0[key] }) { return cached as? RenderedMarkdown }
        let body = try? queue.read { db in try BuildStore.body(db, file: file) }
        guard let body else { return nil }
        cache.withLock { $0[key] = body }
        return body
    }

    func image(_ path: String) -> PublishedImage? { value(Dependency.image(path).key, as: PublishedItem.self)?.image }
    func video(_ path: String) -> PublishedVideo? { value(Dependency.image(path).key, as: PublishedItem.self)?.video }
}
