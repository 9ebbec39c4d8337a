public import PleinCore
/// Study time of one member: per day, per ISO week and in all, in the site's time zone.
///
/// Durations come from the instants (so a session over a change of clocks lasts what it
/// lasted); a session counts toward the day and week it started, also across midnight. Open
/// sessions (no check-out yet) have no duration and are not counted.
public struct StudyTime: Sendable, Equatable {
    public struct Day: Sendable, Equatable {
        public let date: CivilTime
        public let seconds: Int64
    }

    public struct Week: Sendable, Equatable {
        public let year: Int
        public let week: Int
        /// The Monday of the week.
        public let monday: CivilTime
        public let seconds: Int64
    }

    public let days: [Day]
    public let weeks: [Week]
    public let total: Int64
    public let finished: Int
    public let open: Int

    public init(sessions: [Session], clock: SiteClock) {
        var byDay: [CivilTime: Int64] = [:]
        var total: Int64 = 0
        var finished = 0, open = 0
        for session in sessions {
            guard let end = session.end else { open += 1; continue }
            let seconds = end.seconds - session.start.seconds
            guard seconds > 0 else { continue }
            finished += 1
            total += seconds
            byDay[clock.civil(session.start).dateOnly, default: 0] += seconds
        }
        days = byDay.keys.sorted().map { Day(date: $0, seconds: byDay[$0]!) }
        var byWeek: [String: (Int, Int, CivilTime, Int64)] = [:]
        for day in days {
            let (year, week) = day.date.isoWeek
            let monday = CivilTime(secondsSinceEpoch: (day.date.daysSinceEpoch - Int64(day.date.weekday - 1)) * 86_400)
            let key = "\(year)-\(week)"
            byWeek[key] = (year, week, monday, (byWeek[key]?.3 ?? 0) + day.seconds)
        }
        weeks = byWeek.values.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { Week(year: $0.0, week: $0.1, monday: $0.2, seconds: $0.3) }
        self.total = total
        self.finished = finished
        self.open = open
    }

    /// Every ISO week from the first to the last with study time, empty weeks included (for
    /// charts, where a gap is information).
    public var everyWeek: [Week] {
        guard let first = weeks.first, let last = weeks.last else { return [] }
        var known = Dictionary(weeks.map { ("\($0.year)-\($0.week)", $0) }, uniquingKeysWith: { a, _ in a })
        var result: [Week] = []
        var monday = first.monday
        while monday <= last.monday {
            let (year, week) = monday.isoWeek
            result.append(known.removeValue(forKey: "\(year)-\(week)") ?? Week(year: year, week: week, monday: monday, seconds: 0))
            monday = CivilTime(secondsSinceEpoch: (monday.daysSinceEpoch + 7) * 86_400)
        }
        return result
    }
}
