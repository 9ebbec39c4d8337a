/// A JSON value with deterministic output: object keys keep the order they were given.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool { a.serialized() == b.serialized() }

    /// Compact text, or indented with two spaces when `pretty`.
    public func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The same as `serialized`, as UTF-8 bytes.
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Appends the serialized value to `out`.
    public func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        func newline(_ depth: Int) {
            out.append(10)
            for _ in 0..<depth { out.append(32); out.append(32) }
        }
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): out.append(String(i))
        case .number(let d): out.append(JSON.format(d))
        case .string(let s): Escaping.appendJSON(s, to: &out)
        case .array(let items):
            if items.isEmpty { out.append("[]"); return }
            out.append(91)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(44) }
                if pretty { newline(indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent) }
            out.append(93)
        case .object(let fields):
            if fields.isEmpty { out.append("{}"); return }
            out.append(123)
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out.append(44) }
                if pretty { newline(indent + 1) }
                Escaping.appendJSON(key, to: &out)
                out.append(58)
                if pretty { out.append(32) }
                value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent) }
            out.append(125)
        }
    }

    /// Shortest text that reads back as the same number; whole numbers without a fraction.
    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}
