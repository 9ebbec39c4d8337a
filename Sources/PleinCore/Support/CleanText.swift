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
        guard text.unicodeScalars.contains(where: { !isAllowed($0) }) else { return text }
        var out = ""
        out.unicodeScalars.append(contentsOf: text.unicodeScalars.filter(isAllowed))
        return out
    }
}
