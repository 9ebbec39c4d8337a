/// Writes an iCalendar file (RFC 5545) line by line: property names (with their parameters)
/// come from plein's source, TEXT values are escaped, no value can hold a line break or another
/// control character, and every line is folded at 75 octets and ended with CRLF.
public struct ICalendarWriter {
    private var out: [UInt8] = []

    public init(capacity: Int = 4096) {
        out.reserveCapacity(capacity)
    }

    /// `NAME:value` with a TEXT value: backslash, semicolon, comma and line breaks escaped
    /// (section 3.3.11).
    public mutating func text(_ name: StaticString, _ value: String) {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        line(name, escaped)
    }

    /// `NAME:value` with a value of another type (a date, a time, numbers, a URI, a name that
    /// is itself a value such as `BEGIN:VEVENT`), whose syntax has no escapes.
    public mutating func value(_ name: StaticString, _ value: String) {
        line(name, value)
    }

    /// One content line, without control characters (a CR or LF would start another
    /// property), folded so that no line is longer than 75 octets (a continuation line starts
    /// with a space), never inside a UTF-8 sequence (section 3.1).
    private mutating func line(_ name: StaticString, _ value: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8CodeUnitCount + 1 + value.utf8.count)
        Escaping.append(name, to: &bytes)
        bytes.append(58)
        bytes += value.utf8.filter { $0 >= 0x20 && $0 != 0x7F }
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var end = start + limit
            // Back up to the start of a character: continuation bytes are 10xxxxxx.
            while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            out += bytes[start..<end]
            out += [13, 10, 32]
            start = end
            limit = 74
        }
        out += bytes[start...]
        out += [13, 10]
    }

    public var text: String { String(decoding: out, as: UTF8.self) }
}
