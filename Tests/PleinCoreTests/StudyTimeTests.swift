@testable import PleinCore
@testable import PleinLoad
@testable import PleinModel
import PleinTestSupport
import Testing

@Suite struct StudyTimeTests {
    let amsterdam = SiteClock(identifier: "Europe/Amsterdam")!

    /// An instant written as local time with an explicit offset, as content writes it.
    func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, offset: Int) -> Moment {
        Moment(seconds: CivilTime(year: y, month: mo, day: d, hour: h, minute: mi).secondsAsUTC - Int64(offset * 3600))
    }

    func session(_ start: Moment, _ end: Moment?) -> Session {
        Session(member: "m", location: "l", start: start, end: end)
    }

    @Test func durationsComeFromInstantsAcrossBothClockChanges() {
        // The night the clocks go back: 01:30+02:00 to 03:30+01:00 lasts three hours.
        let autumn = StudyTime(sessions: [session(at(2026, 10, 25, 1, 30, offset: 2), at(2026, 10, 25, 3, 30, offset: 1))], clock: amsterdam)
        #expect(autumn.total == 3 * 3600)
        #expect(autumn.days.map(\.date) == [CivilTime(year: 2026, month: 10, day: 25)])
        // The night they go forward: 01:30+01:00 to 03:30+02:00 lasts one hour.
        let spring = StudyTime(sessions: [session(at(2026, 3, 29, 1, 30, offset: 1), at(2026, 3, 29, 3, 30, offset: 2))], clock: amsterdam)
        #expect(spring.total == 3600)
    }

    @Test func aSessionAcrossMidnightCountsForTheDayItStarted() {
        let late = StudyTime(sessions: [session(at(2026, 11, 15, 21, 30, offset: 1), at(2026, 11, 16, 1, 15, offset: 1))], clock: amsterdam)
        #expect(late.days.count == 1)
        #expect(late.days[0].date == CivilTime(year: 2026, month: 11, day: 15))
        #expect(late.days[0].seconds == 3 * 3600 + 45 * 60)
        // Sunday 15 November is in ISO week 46, although the session ends on Monday (week 47).
        #expect(late.weeks.map(\.week) == [46])
    }

    @Test func daysAndWeeksFollowTheSiteTimeZone() {
        // 23:30 UTC on Sunday is already Monday in Amsterdam: week 47, not 46.
        let start = Moment(seconds: CivilTime(year: 2026, month: 11, day: 15, hour: 23, minute: 30).secondsAsUTC)
        let study = StudyTime(sessions: [session(start, Moment(seconds: start.seconds + 3600))], clock: amsterdam)
        #expect(study.days.map(\.date) == [CivilTime(year: 2026, month: 11, day: 16)])
        #expect(study.weeks.map(\.week) == [47])
        let utc = StudyTime(sessions: [session(start, Moment(seconds: start.seconds + 3600))], clock: .utc)
        #expect(utc.weeks.map(\.week) == [46])
    }

    @Test func weeklyTotalsAndGaps() {
        let sessions = [
            session(at(2026, 10, 5, 10, 0, offset: 2), at(2026, 10, 5, 12, 0, offset: 2)),   // week 41
            session(at(2026, 10, 9, 10, 0, offset: 2), at(2026, 10, 9, 11, 30, offset: 2)),  // week 41
            session(at(2026, 10, 21, 9, 0, offset: 2), at(2026, 10, 21, 10, 0, offset: 2)),  // week 43
            session(at(2026, 10, 22, 9, 0, offset: 2), nil),                                 // still checked in
        ]
        let study = StudyTime(sessions: sessions, clock: amsterdam)
        #expect(study.weeks.map(\.week) == [41, 43])
        #expect(study.weeks.map(\.seconds) == [12_600, 3600])
        #expect(study.total == 16_200)
        #expect(study.finished == 3 && study.open == 1)
        #expect(study.everyWeek.map(\.week) == [41, 42, 43])
        #expect(study.everyWeek[1].seconds == 0)
        #expect(study.weeks[0].monday == CivilTime(year: 2026, month: 10, day: 5))
    }

    @Test func occupancyCountsOpenCheckIns() throws {
        let model = ModelBuilder.build(ContentLoader.load(try Txtar.fixture("clean").fs).content)
        #expect(model.locations.first?.present == ["anna-de-vries"])
        #expect(model.asOf == Moment(seconds: CivilTime(year: 2026, month: 10, day: 6, hour: 8).secondsAsUTC))
    }
}
