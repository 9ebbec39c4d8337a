import Foundation

/// Record ids: lowercase ASCII letters, digits and single `-` between them.
public enum Slug {
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.utf8.first, let last = text.utf8.last, first != 45, last != 45 else { return false }
        var previous: UInt8 = 0
        for byte in text.utf8 {
            guard (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || (byte == 45 && previous != 45) else { return false }
            previous = byte
        }
        return true
    }

    /// The slug closest to `text`: letters transliterated to ASCII (`Zoë Çelik-Ødegård` →
    /// `zoe-celik-odegard`, `Łódź` → `lodz`, `Зоя` → `zoa`), lowercase, other characters as `-`.
    public static func make(_ text: String) -> String {
        // ASCII text (most names and titles) needs no folding, which is slow.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var pendingDash = false
            for byte in text.utf8 {
                let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
                if (lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57) {
                    if pendingDash, !out.isEmpty { out.append(45) }
                    pendingDash = false
                    out.append(lower)
                } else {
                    pendingDash = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        // ICU's transliteration also handles letters that have no accent to drop (ø, æ, ß, ł)
        // and other scripts; folding is the fallback where ICU is unavailable.
        let latin = text.applyingTransform(StringTransform(rawValue: "Any-Latin; Latin-ASCII"), reverse: false) ?? text
        let folded = latin.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
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

    /// Whether `bytes` (a text as written) may hold the address `key` (`key(_:)`) case aside: for
    /// a key of ASCII, whether they hold it with ASCII letters compared case aside, looked for
    /// around each `@` (a text has few); for another key, true when they hold an `@`.
    public static func mayBeWritten(_ key: String, in bytes: UnsafeRawBufferPointer) -> Bool {
        let key = Array(key.utf8)
        guard let at = key.firstIndex(of: UInt8(ascii: "@")), let base = bytes.baseAddress else { return false }
        guard key.allSatisfy({ $0 < 0x80 }) else { return memchr(base, Int32(UInt8(ascii: "@")), bytes.count) != nil }
        guard bytes.count >= key.count else { return false }
        let tail = key.count - at - 1
        var offset = at
        while offset < bytes.count - tail, let found = memchr(base + offset, Int32(UInt8(ascii: "@")), bytes.count - tail - offset) {
            let start = base.distance(to: UnsafeRawPointer(found)) - at
            if (0..<key.count).allSatisfy({ index in
                let byte = bytes[start + index]
                return ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == key[index]
            }) { return true }
            offset = start + at + 1
        }
        return false
    }
}

public enum URLCheck {
    /// Why `text` is not an absolute http(s) URL, or nil if it is one.
    public static func problem(_ text: String) -> String? {
        guard let components = URLComponents(string: text) else { return "it cannot be parsed" }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "it must start with https:// or http://"
        }
        guard let host = components.host, !host.isEmpty else { return "it has no host name" }
        return nil
    }
}
