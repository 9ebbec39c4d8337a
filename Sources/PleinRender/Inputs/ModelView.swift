public import PleinCore
public import PleinModel
public import PleinMarkdown
import Synchronization

/// Where a `ModelView` reads the model's pieces from: the model in memory (`InMemoryModel`), or
/// (for `plein build` after an edit of records) the build store, which gives each piece when it
/// is first read. Each function answers one kind of `Dependency`.
public protocol ModelSource: Sendable {
    var site: SiteConfig { get }
    /// The piece of `kind` and `id` ("" for a kind of one piece); nil when there is none.
    func piece<Value>(_ kind: PieceKind<Value>, _ id: String) -> Value?
    /// Every report's id, sorted (the order of the maps and the sitemap): `reportOrder` sorted,
    /// once for all the outputs that read it (made from it unless the source keeps it).
    var reportIDs: [String] { get }
    func body(_ file: String) -> RenderedMarkdown?
    /// The view of `kind` of the piece of `id` (made from the piece unless the source keeps the
    /// view on its own).
    func view<Base, Value>(_ kind: ViewKind<Base, Value>, _ id: String) -> Value?
    /// The start of a body's plain text, as long as every summary needs (`Summaries.lead`):
    /// what lists and maps show of it (the body's text unless the source keeps it on its own).
    func lead(_ file: String) -> String?
    /// Where parts of outputs made before are kept (`ModelView.fragment`); nil: none are.
    var fragments: (any FragmentMemory)? { get }
}

extension ModelSource {
    public func view<Base, Value>(_ kind: ViewKind<Base, Value>, _ id: String) -> Value? { piece(kind.base, id).map(kind.make) }
    public func lead(_ file: String) -> String? { body(file)?.text }
    public var fragments: (any FragmentMemory)? { nil }
    public var reportIDs: [String] { (piece(ModelPieces.reportOrder, "") ?? []).sortedByBytes() }
}

/// The model, its bodies and its images in memory, indexed for the reads of `ModelSource`
/// (each kind's `PieceKind.one`).
public final class InMemoryModel: ModelSource {
    public let model: SiteModel
    let bodies: Bodies
    let images: ImageCatalog
    let sessionsByMember: [String: [Session]]
    let areasByID: [String: AreaModel]
    let locationsByID: [String: LocationModel]
    let threadsByID: [String: ThreadModel]
    let pagesByID: [String: PageModel]

    public let fragments: (any FragmentMemory)?
    private let sortedReports = Mutex<[String]?>(nil)

    public var reportIDs: [String] {
        sortedReports.locked { sorted in
            if let sorted { return sorted }
            let made = model.reportOrder.sortedByBytes()
            sorted = made
            return made
        }
    }

    public init(model: SiteModel, bodies: Bodies, images: ImageCatalog, fragments: (any FragmentMemory)? = nil) {
        self.fragments = fragments
        self.model = model
        self.bodies = bodies
        self.images = images
        sessionsByMember = Dictionary(grouping: model.sessions, by: \.member)
        areasByID = ModelPieces.byID(model.areas, \.id)
        locationsByID = ModelPieces.byID(model.locations, \.id)
        threadsByID = ModelPieces.byID(model.threads, \.id)
        pagesByID = ModelPieces.byID(model.pages, \.id)
    }

    public var site: SiteConfig { model.site }
    public func piece<Value>(_ kind: PieceKind<Value>, _ id: String) -> Value? { kind.one(self, id) }
    public func body(_ file: String) -> RenderedMarkdown? { bodies[file] }
}

/// The site model as renderers see it: read-only, and every read recorded (when a recorder is
/// set) so that an incremental rebuild renders an output again only when something it read
/// has changed. Renderers read the model only through this.
struct ModelView: Sendable {
    /// Where the pieces come from, in one object: a view is copied for every read (with the
    /// recorder of the output being rendered), and a copy costs one reference count.
    let source: any ModelSource
    var recorder: DependencyRecorder?
    /// The pieces an output needed that the source could not give (a build store's row missing
    /// or damaged): the output is then not right, and the build says so (`Renderer.missingPieces`).
    let missing = MissingPieces()

    init(source: any ModelSource) {
        self.source = source
    }

    /// `fallback`, with `what` noted as missing.
    func miss<T>(_ what: @autoclosure () -> String, _ fallback: T) -> T {
        missing.note(what())
        return fallback
    }

    /// The whole model, when it is in memory (what lists every output of the site needs).
    var model: SiteModel? { (source as? InMemoryModel)?.model }

    func note(_ dependency: Dependency) { recorder?.record(dependency) }

    /// Runs `body` with its reads of the narrower views of reports and members recorded as the
    /// reads of those of every one (`DependencyRecorder.readingEvery`): for code that reads
    /// them of every report or member.
    func readingEvery<T>(_ body: () -> T) -> T {
        guard let recorder else { return body() }
        return recorder.readingEvery(body)
    }

    /// The piece of `kind` and `id` ("" for a kind of one piece), its read recorded: how every
    /// piece of the table is read (the functions below name them).
    func read<Value>(_ kind: PieceKind<Value>, _ id: String = "") -> Value? {
        note(kind.dependency(id))
        return source.piece(kind, id)
    }

    /// The view of `kind` of the piece of `id`, its read recorded (as the view's, not the
    /// piece's: an output that reads only the view is not made again when the rest changes).
    func view<Base, Value>(_ kind: ViewKind<Base, Value>, _ id: String) -> Value? {
        note(kind.dependency(id))
        return source.view(kind, id)
    }

    /// The piece of `kind` and `id` without recording its read: for a narrower read made of it,
    /// recorded as that.
    private func unrecorded<Value>(_ kind: PieceKind<Value>, _ id: String) -> Value? { source.piece(kind, id) }

    func member(_ id: String) -> MemberModel? { read(ModelPieces.member, id) }
    func group(_ id: String) -> GroupModel? { read(ModelPieces.group, id) }
    func report(_ id: String) -> ReportModel? { read(ModelPieces.report, id) }

    /// When a report and its replies were published (a narrower read than `report`).
    func reportTimes(_ id: String) -> ReportTimes? { view(ModelViews.reportTimes, id) }

    /// A report's replies' names and times (a narrower read than `report`).
    func reportReplies(_ id: String) -> ReportReplies? { view(ModelViews.reportReplies, id) }

    /// What a list or a map shows of a report (a narrower read than `report`).
    func headline(_ id: String) -> ReportHeadline? { view(ModelViews.reportHeadline, id) }

    /// A body's plain text cut to `limit` characters; nil when there is no such body. For the
    /// lengths of `Summaries` it reads only the summary, not the whole body.
    func summary(_ file: String, limit: Int) -> String? {
        guard Summaries.lengths.contains(limit) else {
            note(.body(file))
            return source.body(file).map { TextCut.summary($0.text, limit: limit) }
        }
        note(.summary(file))
        return source.lead(file).map { TextCut.summary($0, limit: limit) }
    }

    /// What a chip or a list shows of a member (a narrower read than `member`).
    func card(_ id: String) -> MemberCard? { view(ModelViews.memberCard, id) }

    /// What a calendar or a list of events reads of a group (a narrower read than `group`).
    func groupEvents(_ id: String) -> GroupEvents? { view(ModelViews.groupEvents, id) }

    /// An area's id, name and outline (a narrower read than `area`).
    func areaCard(_ id: String) -> AreaCard? { view(ModelViews.areaCard, id) }

    /// What a list or a card shows of a group (a narrower read than `group`).
    func groupCard(_ id: String) -> GroupCard? { view(ModelViews.groupCard, id) }

    /// When a group's albums were made and its goals completed (a narrower read than `group`).
    func groupActivity(_ id: String) -> GroupActivity? { view(ModelViews.groupActivity, id) }

    /// When a member joined (a narrower read than `member`).
    func joined(_ id: String) -> Moment? { view(ModelViews.memberJoined, id)?.at ?? nil }

    func area(_ id: String) -> AreaModel? { read(ModelPieces.area, id) }
    func location(_ id: String) -> LocationModel? { read(ModelPieces.location, id) }

    /// A study place's name (a narrower read than `location`).
    func locationName(_ id: String) -> String? { view(ModelViews.locationName, id) }

    func thread(_ id: String) -> ThreadModel? { read(ModelPieces.thread, id) }
    func page(_ id: String) -> PageModel? { read(ModelPieces.page, id) }

    /// The site's own pages, in menu order.
    var pages: [PageModel] { pageIDs.compactMap(page) }

    var menu: [MenuLink] { read(ModelPieces.menu) ?? [] }
    var formerMembers: [String] { read(ModelPieces.formerMembers) ?? [] }

    var memberOrder: [String] { read(ModelPieces.memberOrder) ?? [] }
    var groupOrder: [String] { read(ModelPieces.groupOrder) ?? [] }
    var reportOrder: [String] { read(ModelPieces.reportOrder) ?? [] }
    /// `reportOrder` sorted.
    var reportIDs: [String] { note(ModelPieces.reportOrder.dependency()); return source.reportIDs }

    /// The areas' ids, in order.
    var areaIDs: [String] { read(ModelPieces.areaOrder) ?? [] }

    /// Every area, in order (the output depends on each of them).
    var areas: [AreaModel] { areaIDs.compactMap(area) }

    /// The study places' ids, in order.
    var locationIDs: [String] { read(ModelPieces.locationOrder) ?? [] }
    /// The site's own pages' ids, in menu order.
    var pageIDs: [String] { read(ModelPieces.pageOrder) ?? [] }

    /// When the file of a page of the site's own or of a study place last changed (a narrower
    /// read than the piece; nil for another piece).
    func changed(_ piece: Dependency) -> Moment? {
        note(.changed(piece.key))
        switch piece.kind {
        case .page: return unrecorded(ModelPieces.page, piece.id)?.revision?.changed
        case .location: return unrecorded(ModelPieces.location, piece.id)?.revision?.changed
        default: return nil
        }
    }

    var locations: [LocationModel] { locationIDs.compactMap(location) }

    var places: [Place] { read(ModelPieces.places) ?? [] }
    var asOf: Moment? { read(ModelPieces.asOf) ?? nil }
    var today: String? { read(ModelPieces.today) ?? nil }

    /// A member's check-ins, in the model's order.
    func sessions(of member: String) -> [Session] { read(ModelPieces.sessions, member) ?? [] }

    /// Whether a member has check-ins (a narrower read than `sessions(of:)`).
    func hasCheckIns(_ member: String) -> Bool {
        note(.checkedIn(member))
        return !(unrecorded(ModelPieces.sessions, member) ?? []).isEmpty
    }

    func album(_ key: AlbumKey) -> AlbumModel? {
        group(key.group)?.albums.first { $0.id == key.album }
    }

    func goal(_ key: GoalKey) -> GoalModel? {
        guard let group = group(key.group) else { return nil }
        return (group.completedGoals + group.openGoals).first { $0.id == key.goal }
    }

    /// The newest `count` albums of listed groups, newest first (`AlbumModel.newestFirst`):
    /// chosen from the groups' activity, only those chosen read whole.
    func newestAlbums(_ count: Int) -> [AlbumModel] {
        let stamps = groupOrder.compactMap(groupActivity).filter(\.isListed).flatMap(\.albums)
        return stamps.sorted { AlbumModel.newestFirst(($0.date, $0.key), ($1.date, $1.key)) }.prefix(count).compactMap { album($0.key) }
    }

    /// The newest `count` goals completed in listed groups, newest first
    /// (`GoalModel.newestFirst`): chosen from the groups' activity, only those chosen read whole.
    func newestCompletions(_ count: Int) -> [GoalModel] {
        let stamps = groupOrder.compactMap(groupActivity).filter(\.isListed).flatMap(\.completions)
        return stamps.sorted { GoalModel.newestFirst(($0.at, $0.key), ($1.at, $1.key)) }.prefix(count).compactMap { goal($0.key) }
    }

    func body(_ file: String) -> RenderedMarkdown? {
        note(.body(file))
        return source.body(file)
    }

    func image(_ path: String) -> PublishedImage? { read(ModelPieces.image, path)?.image }

    /// An album video (whose poster, if any, is `image(path)`).
    func video(_ path: String) -> PublishedVideo? { read(ModelPieces.image, path)?.video }
}

/// What the renderers needed of the model and did not find (`ModelView.miss`), in the order they
/// looked.
final class MissingPieces: Sendable {
    private let pieces = Mutex<[String]>([])

    func note(_ what: String) { pieces.locked { $0.append(what) } }
    var all: [String] { pieces.locked { $0 } }
}
