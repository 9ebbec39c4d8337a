import PleinMarkdown
import Foundation
public import PleinCore

/// Names one output file of the site. The build renders each in parallel; the dev server
/// re-renders only the ones an edit touches.
public enum OutputID: Hashable, Sendable {
    case home
    case members
    case member(String)
    case notFound
    case sitemap
    case robots

    /// Every output the model calls for, in a fixed order.
    public static func all(_ model: SiteModel) -> [OutputID] {
        var ids: [OutputID] = [.home, .members, .notFound, .sitemap, .robots]
        ids += model.memberOrder.map { .member($0) }
        return ids
    }
}
