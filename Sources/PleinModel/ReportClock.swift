public import PleinCore

/// When a report was written, and each of its replies (in their order): what the orders of
/// reports and of a member's replies read of it.
public struct ReportClock: Sendable, Equatable {
    public let at: Moment
    public let replies: [Moment]

    public init(at: Moment, replies: [Moment]) {
        self.at = at
        self.replies = replies
    }
}

/// Set when an order asked for the time of a report no one knew.
final class Unknown {
    var found = false
}
