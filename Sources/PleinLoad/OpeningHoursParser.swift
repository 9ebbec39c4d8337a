import Foundation
import PleinCore

/// Parses the day keys and hour values of `opening_hours`.
enum OpeningHoursParser {
    /// `mon` → [0]; `mon-fri` → [0…4]; `fri-mon` wraps round the week.
    static func days(_ text: String) -> [Int]? {
        let parts = text.lowercased().split(separator: "-", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let indexes = parts.map { OpeningHours.dayNames.firstIndex(of: $0) }
        switch indexes.count {
        case 1:
            return indexes[0].map { [$0] }
        case 2:
            guard let a = indexes[0], let b = indexes[1], a != b else { return nil }
            return a < b ? Array(a...b) : Array(a...6) + Array(0...b)
        default:
            return nil
        }
    }

    /// `closed` → []; `09:00-17:00` or `09:00-12:00, 13:00-17:00` → ranges. `20:00-02:00`
    /// closes after midnight.
    static func ranges(_ text: String) -> [OpeningHours.Range]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "closed" || trimmed == "gesloten" { return [] }
        var result: [OpeningHours.Range] = []
        for part in trimmed.split(separator: ",") {
            let ends = part.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
            guard ends.count == 2, let start = minutes(ends[0]), var end = minutes(ends[1]) else { return nil }
            guard start < 24 * 60 else { return nil }
            if end <= start { end += 24 * 60 }
            result.append(.init(start: start, end: end))
        }
        return result.isEmpty ? nil : result
    }

    private static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0...59).contains(m),
              h < 24 || m == 0 else { return nil }
        return h * 60 + m
    }
}
