import Foundation
/// Drops characters that HTML and XML forbid in documents: C0 controls other than tab, line
/// feed and carriage return, DEL, C1 controls and Unicode noncharacters. Content can carry them
/// (YAML escapes such as "\x07", pasted text); no output may.
public enum CleanText {
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x00...0x1F, 0x7F...0x9F: return false
        case 0xFDD0...0xFDEF: return false
        default: return scalar.value & 0xFFFE != 0xFFFE
        }
    }

    public static func clean(_ text: String) -> String {
        guard mayNeedCleaning(text), text.unicodeScalars.contains(where: { !isAllowed($0) }) else { return text }
        var out = ""
        out.unicodeScalars.append(contentsOf: text.unicodeScalars.filter(isAllowed))
        return out
    }

    /// `clean`, and without the bidirectional embedding, override and isolate controls
    /// (U+202A–202E, U+2066–2069): in a name, a title or a bio they would reorder the text around
    /// it wherever it is shown ("Trojan Source"): a page, a meta description, a feed. Right-to-left
    /// text itself needs none of them. Every text a person wrote is read through this.
    public static func cleanValue(_ text: String) -> String {
        let cleaned = clean(text)
        guard cleaned.containsByte(0xE2), cleaned.unicodeScalars.contains(where: isBidiControl) else { return cleaned }
        var out = ""
        out.unicodeScalars.append(contentsOf: cleaned.unicodeScalars.filter { !isBidiControl($0) })
        return out
    }

    /// `cleanValue`, on one line: every line break (CR, LF, CRLF, U+2028, U+2029) and the run of
    /// breaks it belongs to becomes one space. A title or a name is one line wherever it is shown:
    /// a raw CR in a heading, or `\r\n` in JSON-LD, is never what its author meant.
    public static func cleanLine(_ text: String) -> String {
        let cleaned = cleanValue(text)
        guard cleaned.containsByte(0x0A) || cleaned.containsByte(0x0D) || cleaned.containsByte(0xE2) else { return cleaned }
        func isBreak(_ scalar: Unicode.Scalar) -> Bool { [0x0A, 0x0D, 0x2028, 0x2029].contains(scalar.value) }
        guard cleaned.unicodeScalars.contains(where: isBreak) else { return cleaned }
        var out = String.UnicodeScalarView()
        var inBreak = false
        for scalar in cleaned.unicodeScalars {
            if isBreak(scalar) {
                if !inBreak { out.append(" ") }
                inBreak = true
            } else {
                out.append(scalar)
                inBreak = false
            }
        }
        return String(out)
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// False when no byte can begin a character `isAllowed` refuses: control bytes and DEL,
    /// the lead bytes of C1 controls (C2 80–9F), of U+FDD0–FDEF and U+FFFE/FFFF (EF), and of
    /// the other planes' last two code points (F0–F4 with BF BE/BF at the end).
    static func mayNeedCleaning(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            var i = 0
            while i < count {
                let byte = bytes[i]
                if byte >= 0x20 && byte < 0x7F || byte == 0x9 || byte == 0xA || byte == 0xD {
                    i += 1
                    continue
                }
                switch byte {
                case 0xC2: if i + 1 < count, bytes[i + 1] < 0xA0 { return true }
                case 0xEF: return true
                case 0xF0...0xF4: if i + 3 < count, bytes[i + 2] == 0xBF, bytes[i + 3] >= 0xBE { return true }
                case 0x80...0xFF: break
                default: return true
                }
                i += 1
            }
            return false
        }
    }
}

extension String {
    /// Whether the UTF-8 bytes hold `byte` (memchr: `utf8.contains` walks byte by byte).
    public func containsByte(_ byte: UInt8) -> Bool {
        var text = self
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        }
    }

    /// Without leading and trailing spaces and tabs, Unicode space separators (no-break space,
    /// ideographic space…) included: what `trimmingCharacters(in: .whitespaces)` does, without
    /// Foundation's detour through UTF-16.
    public func trimmingSpaces() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == " " || (scalar.value >= 0x80 && scalar.properties.generalCategory == .spaceSeparator)
        }
        guard let first = utf8.first, let last = utf8.last else { return self }
        // Plain ASCII at both ends (no space, tab or byte of a multi-byte character): nothing to trim.
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return self }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[start...end])
    }
}
