import Foundation

/// The time of a build: the clock, or `SOURCE_DATE_EPOCH` when it is set (the convention of
/// reproducible builds: a build of the same content at any time then gives the same bytes).
/// Only the day it falls on in the site's zone is used: it divides upcoming events from past ones.
public enum BuildTime {
    public static func now(_ environment: [String: String]) -> Moment {
        if let value = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(value.trimmingCharacters(in: .whitespaces)) {
            return Moment(seconds: seconds)
        }
        return Moment(seconds: Int64(Date().timeIntervalSince1970))
    }

    /// The day of `moment` in the zone named `zone` (an IANA name, or UTC when unknown).
    public static func day(of moment: Moment, zone: String) -> String {
        (SiteClock(identifier: zone) ?? .utc).civil(moment).isoDate
    }
}
