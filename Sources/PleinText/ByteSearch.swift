#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches in UTF-8 text byte for byte. The standard library's `contains(_:)` and
/// `firstRange(of:)` on strings compare characters, which on Linux costs more than a page's
/// rendering where a body is looked through on every page that shows it.
public enum ByteSearch {
    /// Whether `text` holds `target`'s bytes. For an ASCII `target` this is the standard
    /// library's answer; otherwise it may also find `target` inside a longer character.
    public static func contains(_ text: String, _ target: String) -> Bool {
        if target.isEmpty { return true }
        var text = text
        var target = target
        return text.withUTF8 { haystack in
            target.withUTF8 { needle in
                guard haystack.count >= needle.count, let base = haystack.baseAddress, let pattern = needle.baseAddress else { return false }
                // (glibc's memmem is not in Swift's Glibc module: memchr finds each candidate.)
                let first = Int32(pattern.pointee)
                var offset = 0
                let last = haystack.count - needle.count
                while offset <= last {
                    guard let found = memchr(base + offset, first, last - offset + 1) else { return false }
                    let at = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if memcmp(base + at, pattern, needle.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }

    /// `text` with every `target` replaced by `replacement`, on bytes (Foundation's replace is
    /// slow on Linux). Candidates are found by `memchr` on the byte of `target` that text holds
    /// least often (a space or a letter is looked for last).
    public static func replacing(_ text: String, _ target: String, _ replacement: String) -> String {
        let needle = Array(target.utf8), substitute = Array(replacement.utf8)
        guard !needle.isEmpty else { return text }
        func commonness(_ byte: UInt8) -> Int {
            switch byte {
            case 0x20: 3
            case 0x61...0x7A, 0x3C, 0x3E, 0x22, 0x3D: 2
            default: 1
            }
        }
        let pivot = needle.indices.min { commonness(needle[$0]) < commonness(needle[$1]) }!
        var text = text
        return text.withUTF8 { haystack -> String? in
            guard haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
            var out: [UInt8] = []
            var from = 0, copied = 0
            let last = haystack.count - needle.count
            while from <= last {
                guard let found = memchr(base + from + pivot, Int32(needle[pivot]), last - from + 1) else { break }
                let at = UnsafeRawPointer(found) - UnsafeRawPointer(base) - pivot
                guard memcmp(base + at, needle, needle.count) == 0 else {
                    from = at + 1
                    continue
                }
                if out.isEmpty { out.reserveCapacity(haystack.count + 64) }
                out += UnsafeBufferPointer(rebasing: haystack[copied..<at])
                out += substitute
                from = at + needle.count
                copied = from
            }
            guard copied > 0 else { return nil }
            out += UnsafeBufferPointer(rebasing: haystack[copied...])
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }
}
