public import PleinCore
public import PleinModel
import PleinMarkdown

/// The site model as renderers see it: read-only, and every read recorded (when a recorder is
/// set) so that an incremental rebuild renders an output again only when something it read
/// has changed. Renderers read the model only through this.
struct ModelView: Sendable {
    /// The model and what was made from it, in one object: a view is copied for every read
    /// (with the recorder of the output being rendered), and a copy costs one reference count.
    final class Storage: Sendable {
        let model: SiteModel
        let bodies: Bodies
        let images: ImageCatalog
        /// Each member's check-ins, in the model's order.
        let sessionsByMember: [String: [Session]]

        init(model: SiteModel, bodies: Bodies, images: ImageCatalog) {
            self.model = model
            self.bodies = bodies
            self.images = images
            sessionsByMember = Dictionary(grouping: model.sessions, by: \.member)
        }
    }

    let storage: Storage
    var recorder: DependencyRecorder?

    init(model: SiteModel, bodies: Bodies, images: ImageCatalog) {
        storage = Storage(model: model, bodies: bodies, images: images)
    }

    var model: SiteModel { storage.model }

    func note(_ dependency: Dependency) { recorder?.record(dependency) }

    func member(_ id: String) -> MemberModel? {
        note(.member(id))
        return storage.model.members[id]
    }

    func group(_ id: String) -> GroupModel? {
        note(.group(id))
        return storage.model.groups[id]
    }

    func report(_ id: String) -> ReportModel? {
        note(.report(id))
        return storage.model.reports[id]
    }

    /// When a report and its replies were published (a narrower read than `report`).
    func reportTimes(_ id: String) -> ReportTimes? {
        note(.reportTimes(id))
        return storage.model.reports[id].map(ReportTimes.init)
    }

    /// What a list or a map shows of a report (a narrower read than `report`).
    func headline(_ id: String) -> ReportHeadline? {
        note(.reportHeadline(id))
        return storage.model.reports[id].map(ReportHeadline.init)
    }

    /// A body's plain text cut to `limit` characters; nil when there is no such body. For the
    /// lengths of `Summaries` it reads only the summary, not the whole body.
    func summary(_ file: String, limit: Int) -> String? {
        note(Summaries.lengths.contains(limit) ? .summary(file) : .body(file))
        return storage.bodies[file].map { TextCut.summary($0.text, limit: limit) }
    }

    /// When a member joined (a narrower read than `member`).
    func joined(_ id: String) -> Moment? {
        note(.memberJoined(id))
        return storage.model.members[id]?.joined
    }

    func area(_ id: String) -> AreaModel? {
        note(.area(id))
        return storage.model.areas.first { $0.id == id }
    }

    func location(_ id: String) -> LocationModel? {
        note(.location(id))
        return storage.model.locations.first { $0.id == id }
    }

    func thread(_ id: String) -> ThreadModel? {
        note(.thread(id))
        return storage.model.threads.first { $0.id == id }
    }

    var memberOrder: [String] { note(.memberOrder); return storage.model.memberOrder }
    var groupOrder: [String] { note(.groupOrder); return storage.model.groupOrder }
    var reportOrder: [String] { note(.reportOrder); return storage.model.reportOrder }

    /// Every area, in order (the output depends on each of them).
    var areas: [AreaModel] {
        note(.areaOrder)
        for area in storage.model.areas { note(.area(area.id)) }
        return storage.model.areas
    }

    var locations: [LocationModel] {
        note(.locationOrder)
        for location in storage.model.locations { note(.location(location.id)) }
        return storage.model.locations
    }

    var places: [Place] { note(.places); return storage.model.places }
    var asOf: Moment? { note(.asOf); return storage.model.asOf }
    var today: String? { note(.today); return storage.model.today }

    func sessions(of member: String) -> [Session] {
        note(.sessions(member))
        return storage.sessionsByMember[member] ?? []
    }

    func album(_ key: AlbumKey) -> AlbumModel? {
        group(key.group)?.albums.first { $0.id == key.album }
    }

    func goal(_ key: GoalKey) -> GoalModel? {
        guard let group = group(key.group) else { return nil }
        return (group.completedGoals + group.openGoals).first { $0.id == key.goal }
    }

    /// Albums of listed groups, newest first.
    var listedAlbums: [AlbumModel] {
        groupOrder.compactMap(group).filter(\.isListed).flatMap(\.albums).sorted(by: AlbumModel.newestFirst)
    }

    /// Completed goals of listed groups, newest first.
    var listedCompletions: [GoalModel] {
        groupOrder.compactMap(group).filter(\.isListed).flatMap(\.completedGoals).sorted(by: GoalModel.newestFirst)
    }

    func body(_ file: String) -> RenderedMarkdown? {
        note(.body(file))
        return storage.bodies[file]
    }

    func image(_ path: String) -> PublishedImage? {
        note(.image(path))
        return storage.images[path]
    }

    /// An album video (whose poster, if any, is `image(path)`).
    func video(_ path: String) -> PublishedVideo? {
        note(.image(path))
        return storage.images.videos[path]
    }
}
