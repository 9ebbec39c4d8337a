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
