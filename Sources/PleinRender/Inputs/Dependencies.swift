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

extension Dependency {
    /// A stable name for the piece (the same in every run): how the build store keeps it.
    public var key: String {
        switch self {
        case .member(let id): return "member:" + id
        case .group(let id): return "group:" + id
        case .report(let id): return "report:" + id
        case .area(let id): return "area:" + id
        case .location(let id): return "location:" + id
        case .thread(let id): return "thread:" + id
        case .sessions(let id): return "sessions:" + id
        case .memberOrder: return "memberOrder"
        case .groupOrder: return "groupOrder"
        case .reportOrder: return "reportOrder"
        case .areaOrder: return "areaOrder"
        case .locationOrder: return "locationOrder"
        case .places: return "places"
        case .asOf: return "asOf"
        case .body(let file): return "body:" + file
        case .image(let path): return "image:" + path
        }
    }
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
