/// Escaping on UTF-8 bytes, appending straight into an output buffer. Every page, feed and map
/// of a build goes through these loops, so they copy runs of plain bytes whole and never build
/// intermediate strings.
public enum Escaping {
    /// HTML text and attribute values: `& < > " '` (as swift-mustache writes them). Text with
    /// nothing to escape is returned as it is.
    public static func html(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 }) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            appendHTML(bytes, to: &out)
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    /// Appends `text` escaped for HTML.
    public static func appendHTML(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendHTML($0, to: &out) }
    }

    static func appendHTML(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        for i in 0..<bytes.count {
            let replacement: StaticString
            switch bytes[i] {
            case 38: replacement = "&amp;"
            case 60: replacement = "&lt;"
            case 62: replacement = "&gt;"
            case 34: replacement = "&quot;"
            case 39: replacement = "&#39;"
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            append(replacement, to: &out)
            start = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// Appends `text` escaped for XML text and attribute values, without the characters XML 1.0
    /// forbids (control characters other than tab, newline and carriage return; U+FFFE, U+FFFF).
    public static func appendXML(_ text: String, to out: inout [UInt8]) {
        // Everything from `?` up is plain, except the lead byte of U+FFFE and U+FFFF.
        appendEscaping(text, to: &out, plain: { $0 >= 0x3F && $0 != 0xEF }) { bytes, i in
            switch bytes[i] {
            case 38, 60, 62, 34, 39: return 1
            case 0x9, 0xA, 0xD: return nil
            case 0..<0x20: return 1
            case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF): return 3
            default: return nil
            }
        } replace: { bytes, i, out in
            switch bytes[i] {
            case 38: append("&amp;", to: &out)
            case 60: append("&lt;", to: &out)
            case 62: append("&gt;", to: &out)
            case 34: append("&quot;", to: &out)
            case 39: append("&apos;", to: &out)
            default: break  // a forbidden character: dropped
            }
        }
    }

    /// Appends `text` as a JSON string, quotes included. Besides what JSON requires, `<`, `>`,
    /// `&`, U+2028 and U+2029 are escaped, so the text is safe inside an HTML `<script>` too.
    public static func appendJSON(_ text: String, to out: inout [UInt8]) {
        out.append(34)
        appendEscaping(text, to: &out, plain: { $0 >= 0x3F && $0 != 0x5C && $0 != 0xE2 }) { bytes, i in
            switch bytes[i] {
            case 34, 92, 10, 13, 9, 60, 62, 38, 0..<0x20: return 1
            case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9): return 3
            default: return nil
            }
        } replace: { bytes, i, out in
            let byte = bytes[i]
            switch byte {
            case 34: append("\\\"", to: &out)
            case 92: append("\\\\", to: &out)
            case 10: append("\\n", to: &out)
            case 13: append("\\r", to: &out)
            case 9: append("\\t", to: &out)
            case 0xE2: append(bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", to: &out)
            default:
                append("\\u00", to: &out)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 15)])
            }
        }
        out.append(34)
    }

    /// Copies `text` into `out`, runs of plain bytes whole (`plain` says which bytes need no
    /// look). At another byte, `width` says how many bytes from there are replaced (nil: none,
    /// the byte is kept), and `replace` appends what stands for them.
    @inline(__always)
    private static func appendEscaping(
        _ text: String, to out: inout [UInt8], plain: (UInt8) -> Bool, width: (UnsafeBufferPointer<UInt8>, Int) -> Int?,
        replace: (UnsafeBufferPointer<UInt8>, Int, inout [UInt8]) -> Void
    ) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            var i = 0
            while i < bytes.count {
                guard !plain(bytes[i]), let replaced = width(bytes, i) else {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                replace(bytes, i, &out)
                i += replaced
                start = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always)
    public static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}

extension Array where Element == UInt8 {
    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}

/// Decimal text for numbers in maps, charts and coordinates.
public enum FixedPoint {
    /// `value` rounded to `digits` decimals, without trailing zeros (and without the point when
    /// whole): `52.3`, `4.05`, `12`. The same as `String(format: "%.*f")` and trimming, without
    /// Foundation's formatter, which is slow.
    public static func text(_ value: Double, digits: Int) -> String {
        var bytes: [UInt8] = []
        append(value, digits: digits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text(value, digits:)`'s bytes, appended to `out` (a drawn map writes twenty thousand).
    public static func append(_ value: Double, digits: Int, to out: inout [UInt8]) {
        var scale = 1.0
        var power: UInt = 1
        for _ in 0..<digits {
            scale *= 10
            power *= 10
        }
        let scaled = (value * scale).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else {
            out += (value.isFinite ? String(value) : "0").utf8
            return
        }
        let units = Int(scaled)
        let magnitude = units.magnitude
        if units < 0 { out.append(UInt8(ascii: "-")) }
        var whole = magnitude / power
        var reversed: [UInt8] = []
        repeat {
            reversed.append(UInt8(ascii: "0") + UInt8(whole % 10))
            whole /= 10
        } while whole > 0
        out += reversed.reversed()
        var fraction = magnitude % power
        guard fraction > 0 else { return }
        var shown = digits
        while fraction % 10 == 0 {
            fraction /= 10
            shown -= 1
        }
        out.append(UInt8(ascii: "."))
        let start = out.count
        out += repeatElement(UInt8(ascii: "0"), count: shown)
        var place = start + shown - 1
        while fraction > 0 {
            out[place] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
            place -= 1
        }
    }
}
