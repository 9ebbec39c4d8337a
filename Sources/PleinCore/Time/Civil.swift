/// A calendar date and wall-clock time, without a time zone (proleptic Gregorian calendar).
public struct CivilTime: Sendable, Hashable, Comparable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Days since 1970-01-01 of the date (Howard Hinnant's `days_from_civil`).
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Seconds since the epoch if this wall-clock time were UTC.
    public var secondsAsUTC: Int64 {
        daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The civil time `seconds` after the epoch in UTC (`civil_from_days`).
    public init(secondsSinceEpoch seconds: Int64) {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.init(
            year: Int(y), month: Int(m), day: Int(d),
            hour: Int(rest / 3600), minute: Int(rest % 3600 / 60), second: Int(rest % 60)
        )
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        let d = daysSinceEpoch  // 1970-01-01 was a Thursday (4)
        return Int(((d % 7) + 7 + 3) % 7) + 1
    }

    /// The ISO 8601 week-numbering year and week of this date.
    public var isoWeek: (year: Int, week: Int) {
        let thursday = CivilTime(secondsSinceEpoch: (daysSinceEpoch - Int64(weekday) + 4) * 86_400)
        let jan1 = CivilTime(year: thursday.year, month: 1, day: 1)
        let week = Int((thursday.daysSinceEpoch - jan1.daysSinceEpoch) / 7) + 1
        return (thursday.year, week)
    }

    public var dateOnly: CivilTime { CivilTime(year: year, month: month, day: day) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: CivilTime, rhs: CivilTime) -> Bool { lhs.secondsAsUTC < rhs.secondsAsUTC }

    /// `2026-05-01`
    public var isoDate: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
    /// `14:05`
    public var hourMinute: String { "\(pad(hour, 2)):\(pad(minute, 2))" }
}

func pad(_ value: Int, _ width: Int) -> String {
    let text = String(abs(value))
    let padded = text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    return value < 0 ? "-" + padded : padded
}
