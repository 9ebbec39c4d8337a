import Foundation

/// Record ids: lowercase ASCII letters, digits and single `-` between them.
public enum Slug {
    public static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.first != "-", text.last != "-", !text.contains("--") else { return false }
        return text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }

    /// The slug closest to `text`: accents dropped, lowercase, other characters as `-`.
    public static func make(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var out = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            let c = Character(scalar)
            if scalar.isASCII, c.isLetter || c.isNumber {
                if pendingDash, !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(c)
            } else {
                pendingDash = true
            }
        }
        return out
    }
}

public enum Email {
    /// A plausible address: one `@`, something before it, a dotted domain after it, no spaces.
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" })
        else { return false }
        return true
    }

    /// Addresses compare case-insensitively.
    public static func key(_ text: String) -> String { text.lowercased() }
}

enum URLCheck {
    /// Why `text` is not an absolute http(s) URL, or nil if it is one.
    static func problem(_ text: String) -> String? {
        guard let components = URLComponents(string: text) else { return "it cannot be parsed" }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "it must start with https:// or http://"
        }
        guard let host = components.host, !host.isEmpty else { return "it has no host name" }
        return nil
    }
}
