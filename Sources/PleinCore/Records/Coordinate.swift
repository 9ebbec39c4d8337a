/// A WGS 84 position in degrees.
public struct Coordinate: Sendable, Hashable, Codable {
    public let lat: Double
    public let lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// Weekly opening hours: for each day Monday…Sunday the ranges open, in minutes after midnight.
public struct OpeningHours: Sendable, Hashable, Codable {
    /// A span of opening time; `end` may pass 24:00 (open past midnight).
    public struct Range: Sendable, Hashable, Codable {
        public let start: Int
        public let end: Int
        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    /// Index 0 is Monday. `nil`: not given; empty: closed.
    public let days: [[Range]?]
    /// The entries as written, for display (`mon-fri` → `09:00-17:00`).
    public let written: [Entry]

    public struct Entry: Sendable, Hashable, Codable {
        public let days: String
        public let hours: String
        public init(days: String, hours: String) {
            self.days = days
            self.hours = hours
        }
    }

    public init(days: [[Range]?], written: [Entry]) {
        self.days = days
        self.written = written
    }

    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
