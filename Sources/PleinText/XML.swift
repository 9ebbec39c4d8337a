
/// Escaping for XML text and attribute values. Characters XML 1.0 forbids are dropped.
public enum XML {
    public static func escape(_ text: String) -> String {
        // Most text holds nothing to escape or drop: check the bytes first.
        let clean = text.utf8.allSatisfy { byte in
            byte >= 0x20 ? byte != 38 && byte != 60 && byte != 62 && byte != 34 && byte != 39 && byte != 0xEF
                : byte == 0x9 || byte == 0xA || byte == 0xD
        }
        if clean { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        Escaping.appendXML(text, to: &out)
        return String(decoding: out, as: UTF8.self)
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

/// A small writer for indented XML on bytes; every text and attribute value is escaped.
public struct XMLBuilder {
    public private(set) var bytes: [UInt8] = []
    private var depth = 0

    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func declaration() { bytes.append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n") }

    private mutating func indent() {
        for _ in 0..<depth { bytes.append(32); bytes.append(32) }
    }

    private mutating func tag(_ name: String, _ attrs: [(String, String)], end: StaticString) {
        indent()
        bytes.append(60)
        bytes.append(name)
        for (key, value) in attrs {
            bytes.append(32)
            bytes.append(key)
            bytes.append(61)
            bytes.append(34)
            Escaping.appendXML(value, to: &bytes)
            bytes.append(34)
        }
        Escaping.append(end, to: &bytes)
    }

    public mutating func open(_ name: String, _ attrs: [(String, String)] = []) {
        tag(name, attrs, end: ">\n")
        depth += 1
    }

    public mutating func close(_ name: String) {
        depth -= 1
        indent()
        bytes.append(60)
        bytes.append(47)
        bytes.append(name)
        bytes.append(62)
        bytes.append(10)
    }

    public mutating func element(_ name: String, _ value: String, _ attrs: [(String, String)] = []) {
        tag(name, attrs, end: ">")
        Escaping.appendXML(value, to: &bytes)
        bytes.append(60)
        bytes.append(47)
        bytes.append(name)
        bytes.append(62)
        bytes.append(10)
    }

    public mutating func empty(_ name: String, _ attrs: [(String, String)]) {
        tag(name, attrs, end: "/>\n")
    }
}
