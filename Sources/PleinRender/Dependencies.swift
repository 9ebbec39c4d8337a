public import PleinCore
public import PleinModel
import PleinMarkdown
import Synchronization

/// A piece of the model an output was made from. The dev server re-renders an output only when
/// one of the pieces it read has changed.
public enum Dependency: Hashable, Sendable {
    case member(String)
    case group(String)
    case report(String)
    case area(String)
    case location(String)
    case thread(String)
    /// A member's check-ins.
    case sessions(String)
    case memberOrder, groupOrder, reportOrder, areaOrder, locationOrder, places, asOf
    /// A rendered Markdown body, by source file.
    case body(String)
    /// A published image, by content path.
    case image(String)
}

/// Collects what one output reads while it is rendered.
public final class DependencyRecorder: Sendable {
    private let recorded = Mutex<Set<Dependency>>([])

    public init() {}

    func record(_ dependency: Dependency) {
        _ = recorded.withLock { $0.insert(dependency) }
    }

    public var dependencies: Set<Dependency> { recorded.withLock { $0 } }
}

/// Every read of the model by a page, feed or map goes through these, so that a recorder (when
/// there is one) learns exactly what the output depends on.
extension Renderer {
    func note(_ dependency: Dependency) { recorder?.record(dependency) }

    func memberModel(_ id: String) -> MemberModel? {
        note(.member(id))
        return model.members[id]
    }

    func groupModel(_ id: String) -> GroupModel? {
        note(.group(id))
        return model.groups[id]
    }

    func reportModel(_ id: String) -> ReportModel? {
        note(.report(id))
        return model.reports[id]
    }

    func areaModel(_ id: String) -> AreaModel? {
        note(.area(id))
        return model.areas.first { $0.id == id }
    }

    func locationModel(_ id: String) -> LocationModel? {
        note(.location(id))
        return model.locations.first { $0.id == id }
    }

    func threadModel(_ id: String) -> ThreadModel? {
        note(.thread(id))
        return model.threads.first { $0.id == id }
    }

    var memberOrder: [String] { note(.memberOrder); return model.memberOrder }
    var groupOrder: [String] { note(.groupOrder); return model.groupOrder }
    var reportOrder: [String] { note(.reportOrder); return model.reportOrder }

    /// Every area, in order (the output depends on each of them).
    var areaModels: [AreaModel] {
        note(.areaOrder)
        for area in model.areas { note(.area(area.id)) }
        return model.areas
    }

    var locationModels: [LocationModel] {
        note(.locationOrder)
        for location in model.locations { note(.location(location.id)) }
        return model.locations
    }

    var places: [Place] { note(.places); return model.places }
    var asOf: Moment? { note(.asOf); return model.asOf }

    func sessions(of member: String) -> [Session] {
        note(.sessions(member))
        return core.sessionsByMember[member] ?? []
    }

    func albumModel(_ key: AlbumKey) -> AlbumModel? {
        groupModel(key.group)?.albums.first { $0.id == key.album }
    }

    func goalModel(_ key: GoalKey) -> GoalModel? {
        guard let group = groupModel(key.group) else { return nil }
        return (group.completedGoals + group.openGoals).first { $0.id == key.goal }
    }

    /// Albums of listed groups, newest first.
    var listedAlbums: [AlbumModel] {
        groupOrder.compactMap(groupModel).filter(\.isListed).flatMap(\.albums).sorted(by: AlbumModel.newestFirst)
    }

    /// Completed goals of listed groups, newest first.
    var listedCompletions: [GoalModel] {
        groupOrder.compactMap(groupModel).filter(\.isListed).flatMap(\.completedGoals).sorted(by: GoalModel.newestFirst)
    }

    func bodyOf(_ file: String) -> RenderedMarkdown? {
        note(.body(file))
        return bodies[file]
    }

    func imageOf(_ path: String) -> PublishedImage? {
        note(.image(path))
        return images[path]
    }
}
