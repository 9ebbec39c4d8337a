public import PleinCore
import Foundation

/// A value that `plein new` writes into a new file's front matter, given on the command line.
public enum FieldValue: Sendable {
    /// Any text, written in quotes.
    case text(String)
    /// Written as it is: an id, a number, a date, `closed`.
    case plain(String)
    case flag(Bool)
    /// A list of ids.
    case list([String])
    case object([(String, FieldValue)])

    /// A place of places.yaml, or `lat,lon` as a coordinate.
    public static func placeOrCoordinate(_ text: String) -> FieldValue {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            return .object([("lat", .plain(String(lat))), ("lon", .plain(String(lon)))])
        }
        return .text(text)
    }

    /// `key: value` lines, one field each, nested objects indented.
    static func lines(_ fields: [(String, FieldValue)], indent: String = "") -> String {
        fields.map { key, value in
            switch value {
            case .object(let members): return "\(indent)\(key):\n" + lines(members, indent: indent + "  ")
            default: return "\(indent)\(key): \(value.inline)\n"
            }
        }.joined()
    }

    var inline: String {
        switch self {
        case .text(let text): return Scaffold.quote(text)
        case .plain(let text): return text
        case .flag(let value): return value ? "true" : "false"
        case .list(let items): return "[" + items.joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { "\($0.0): \($0.1.inline)" }.joined(separator: ", ") + "}"
        }
    }
}
