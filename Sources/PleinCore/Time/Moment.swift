/// An instant read from content, remembering whether it was a date alone.
///
/// Ordering uses the instant alone, so `10:00+02:00` sorts with `08:00Z`; equality also asks
/// whether both were written as a date (a date shows differently from midnight).
public struct Moment: Sendable, Hashable, Comparable, Codable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64
    /// True when the content gave a date without a time (midnight in the site's time zone).
    public let isDateOnly: Bool

    public init(seconds: Int64, isDateOnly: Bool = false) {
        self.seconds = seconds
        self.isDateOnly = isDateOnly
    }

    public static func == (lhs: Moment, rhs: Moment) -> Bool { lhs.seconds == rhs.seconds && lhs.isDateOnly == rhs.isDateOnly }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
        hasher.combine(isDateOnly)
    }
    public static func < (lhs: Moment, rhs: Moment) -> Bool { lhs.seconds < rhs.seconds }

    /// Encoded as one integer, the seconds doubled plus one for a date alone: the build store
    /// reads tens of thousands of moments in a build after an edit, and a keyed pair costs five
    /// times as much to read.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int64.self)
        self.init(seconds: value >> 1, isDateOnly: value & 1 == 1)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds << 1 | (isDateOnly ? 1 : 0))
    }

    /// RFC 3339 in UTC (`2026-05-01T08:30:00Z`): for feeds and machine-readable output.
    public var rfc3339UTC: String {
        let c = CivilTime(secondsSinceEpoch: seconds)
        return "\(c.isoDate)T\(c.hourMinute):\(pad(c.second, 2))Z"
    }
}
