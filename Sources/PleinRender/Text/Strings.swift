import PleinMarkdown
public import PleinCore
import PleinModel
import Foundation

/// The interface text of one language, read from the theme's `i18n/<language>.yaml`, with the
/// formatting of dates and numbers that goes with it.
public struct Strings: Sendable {
    public let language: Language
    public let table: [String: String]

    public init(language: Language, table: [String: String]) {
        self.language = language
        self.table = table
    }

    /// The text for `key`; the key itself when missing (the theme check reports those).
    public subscript(key: String) -> String { table[key] ?? key }

    /// Fills `{name}` placeholders (unknown ones stay as they are).
    public func format(_ key: String, _ values: [String: String]) -> String {
        let text = self[key]
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = values[name] { out += value } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    /// `key_one` or `key_other` with `{n}` filled in.
    public func count(_ key: String, _ n: Int) -> String {
        format(n == 1 ? key + "_one" : key + "_other", ["n": number(n)])
    }

    /// Whole numbers with the language's thousands separator.
    public func number(_ n: Int) -> String {
        let digits = String(abs(n))
        guard digits.count > 4 || (digits.count == 4 && language == .en) else { return n < 0 ? "-" + digits : digits }
        let separator = language == .nl ? "." : ","
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += separator }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// A number with `digits` decimals and the language's decimal mark.
    public func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let whole = Int(rounded.rounded(.towardZero))
        var fraction = Int((abs(rounded - Double(whole)) * scale).rounded())
        var text = (rounded < 0 && whole == 0 ? "-" : "") + number(whole)
        if digits > 0 {
            var f = ""
            for _ in 0..<digits { f = String(fraction % 10) + f; fraction /= 10 }
            text += (language == .nl ? "," : ".") + f
        }
        return text
    }

    /// `3 oktober 2026` / `3 October 2026`.
    public func date(_ c: CivilTime) -> String {
        "\(c.day) \(month(c.month)) \(c.year)"
    }

    /// `3 okt.` / `3 Oct` — for charts and compact lists.
    public func shortDate(_ c: CivilTime) -> String {
        "\(c.day) \(self["month_short_\(c.month)"])"
    }

    /// `3 oktober 2026, 14:25`.
    public func dateTime(_ c: CivilTime) -> String {
        format("date_time", ["date": date(c), "time": c.hourMinute])
    }

    public func month(_ m: Int) -> String { self["month_\(m)"] }
    public func weekday(_ isoDay: Int) -> String { self["weekday_\(isoDay)"] }

    /// `2 u 15 min` / `2 h 15 min`.
    public func duration(seconds: Int64) -> String {
        let minutes = Int(seconds / 60)
        let (h, m) = (minutes / 60, minutes % 60)
        if h == 0 { return format("duration_minutes", ["m": String(m)]) }
        if m == 0 { return format("duration_hours", ["h": number(h)]) }
        return format("duration_hours_minutes", ["h": number(h), "m": String(m)])
    }
}

extension Strings {
    /// Keys the Swift code asks for (templates' keys are found by scanning them).
    public static let requiredKeys: [String] = {
        var keys = [
            "nav_home", "nav_members", "nav_divers", "nav_groups", "nav_reports", "nav_locations", "nav_now",
            "feed_site", "feed_member", "feed_following", "members_title", "members_description", "member_description",
            "avatar_alt", "home_near", "not_found_title", "not_found_text", "date_time", "duration_minutes",
            "duration_hours", "duration_hours_minutes",
            "home_members_text", "home_divers_text", "home_groups_text", "home_reports_text", "home_locations_text",
            "home_now_text", "groups_title", "groups_description", "feed_group", "leaderboard_title",
            "leaderboard_description", "photo_number", "photo_position", "areas_title", "areas_description", "feed_area",
            "area_description", "feed_report", "locations_title", "locations_description", "closed", "progress_title",
            "progress_description", "now_title", "now_description", "divers_title", "divers_description",
            "feed_area_subtitle", "feed_report_subtitle", "feed_group_subtitle", "feed_member_subtitle",
            "feed_following_subtitle", "feed_reply_context", "feed_reply_title", "feed_album_title", "feed_goal_title",
            "feed_completion_title", "feed_completion_text", "feed_joined_title", "json_feed",
            "map_legend_area", "map_legend_location", "map_legend_photo", "divers_elsewhere", "chart_points_title",
            "chart_points_description", "chart_completion", "week_label", "week_short", "hours_unit", "chart_weeks_title",
            "chart_weeks_description", "open_now_until", "closed_now", "closed_now_opens", "thread_description",
            "video", "video_feed", "video_number",
        ]
        for count in ["member_count", "diver_count", "group_count", "report_count", "location_count", "present_count",
                      "reply_count", "photo_count", "points_count", "years_count", "session_count", "album_count",
                      "open_goal_count", "follower_count", "seat_count", "free_seat_count", "map_points", "message_count", "video_count"] {
            keys += [count + "_one", count + "_other"]
        }
        keys += Category.allCases.map { "category_\($0.rawValue)" }
        keys += (1...12).flatMap { ["month_\($0)", "month_short_\($0)"] }
        keys += (1...7).map { "weekday_\($0)" }
        return keys
    }()
}
