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
}
