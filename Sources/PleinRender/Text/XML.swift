import PleinMarkdown
import Foundation
/// Escaping for XML text and attribute values. Characters XML 1.0 forbids are dropped.
public enum XML {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if isAllowed(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// XML 1.0 `Char`: tab, newline, carriage return and everything from U+0020 except
    /// surrogates (which Swift strings never hold) and U+FFFE/U+FFFF.
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
