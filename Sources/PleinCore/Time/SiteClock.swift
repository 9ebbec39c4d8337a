import Foundation

/// The site's time zone: turns instants into wall-clock times and back, never using the
/// machine's zone.
public struct SiteClock: Sendable, Equatable, Codable {
    public let identifier: String
    private let zone: TimeZone

    public static func == (a: SiteClock, b: SiteClock) -> Bool { a.identifier == b.identifier }

    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.zone = zone
    }

    public static let utc = SiteClock(identifier: "UTC")!

    /// Kept by its identifier (for the build store's model values).
    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        guard let clock = SiteClock(identifier: identifier) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown time zone \(identifier)"))
        }
        self = clock
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// The UTC offset, in seconds, in force at `seconds` since the epoch.
    public func offset(at seconds: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The wall-clock time of an instant in this zone.
    public func civil(_ moment: Moment) -> CivilTime {
        CivilTime(secondsSinceEpoch: moment.seconds + Int64(offset(at: moment.seconds)))
    }

    /// The instant of a wall-clock time in this zone. In a gap (spring forward) the time is read
    /// with the offset before the change; in an overlap (fall back), the earlier instant is used.
    public func instant(of civil: CivilTime) -> Int64 {
        let local = civil.secondsAsUTC
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        let candidates = [local - Int64(before), local - Int64(after)].sorted()
        for candidate in candidates where offset(at: candidate) == Int(local - candidate) {
            return candidate
        }
        return local - Int64(before)
    }

    /// The instant's wall-clock time with its offset, RFC 3339 (`2026-05-01T10:30:00+02:00`).
    public func rfc3339(_ moment: Moment) -> String {
        let off = offset(at: moment.seconds)
        let c = CivilTime(secondsSinceEpoch: moment.seconds + Int64(off))
        return "\(c.isoDate)T\(c.hourMinute):\(pad(c.second, 2))\(Self.offsetText(off))"
    }

    public static func offsetText(_ seconds: Int) -> String {
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let m = abs(seconds) / 60
        return "\(sign)\(pad(m / 60, 2)):\(pad(m % 60, 2))"
    }
}
