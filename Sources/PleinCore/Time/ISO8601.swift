/// Reads the ISO 8601 dates and times content authors write.
///
/// Accepted: `2026-05-01`, `2026-05-01T10:30`, `2026-05-01 10:30:15`, with an optional
/// fraction and an offset `Z`, `+02:00`, `+0200` or `+02`.
public enum ISO8601 {
    public enum Parsed: Sendable, Equatable {
        /// A date alone.
        case date(CivilTime)
        /// A date and time with an explicit UTC offset (seconds east of UTC).
        case zoned(CivilTime, offset: Int)
        /// A date and time without an offset.
        case local(CivilTime)
    }

    public enum Failure: Error, Equatable {
        case format
        case invalid(String)

        public var reason: String {
            switch self {
            case .format: return "write YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS+HH:MM"
            case .invalid(let why): return why
            }
        }
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]

    public static func parse(_ text: String) -> Result<Parsed, Failure> {
        let s = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = s[i + k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2) else {
            return .failure(.format)
        }
        guard (1...12).contains(month) else { return .failure(.invalid("there is no month \(month)")) }
        let days = CivilTime.daysIn(month: month, year: year)
        guard day >= 1, day <= days else {
            return .failure(.invalid("\(monthNames[month - 1]) \(year) has \(days) days"))
        }
        if i == s.count { return .success(.date(CivilTime(year: year, month: month, day: day))) }
        guard s[i] == 84 || s[i] == 116 || s[i] == 32 else { return .failure(.format) }  // T, t, space
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2) else { return .failure(.format) }
        var second = 0
        if expect(58) {
            guard let sec = digits(2) else { return .failure(.format) }
            second = sec
            if expect(46) || expect(44) {  // fraction: dropped
                let start = i
                while i < s.count, s[i] >= 48, s[i] <= 57 { i += 1 }
                guard i > start else { return .failure(.format) }
            }
        }
        guard hour <= 23 else { return .failure(.invalid("there is no hour \(hour)")) }
        guard minute <= 59 else { return .failure(.invalid("there is no minute \(minute)")) }
        guard second <= 59 else { return .failure(.invalid("there is no second \(second)")) }
        let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if i < s.count, s[i] == 32 { i += 1 }  // "10:30:00 +02:00"
        if i == s.count { return .success(.local(civil)) }
        if expect(90) || expect(122) {  // Z
            return i == s.count ? .success(.zoned(civil, offset: 0)) : .failure(.format)
        }
        guard i < s.count, s[i] == 43 || s[i] == 45 else { return .failure(.format) }
        let sign = s[i] == 45 ? -1 : 1
        i += 1
        guard let oh = digits(2) else { return .failure(.format) }
        var om = 0
        if expect(58) {
            guard let m = digits(2) else { return .failure(.format) }
            om = m
        } else if let m = digits(2) {
            om = m
        }
        guard i == s.count else { return .failure(.format) }
        guard oh <= 18, om <= 59 else { return .failure(.invalid("the UTC offset is out of range")) }
        return .success(.zoned(civil, offset: sign * (oh * 3600 + om * 60)))
    }
}
