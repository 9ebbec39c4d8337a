/// JSON values written as block YAML, for configuration files people read (a CMS's
/// `config.yml`): maps and lists one entry a line, every text in double quotes with JSON's
/// escapes (which YAML's double-quoted style reads the same), so no value can be read as
/// another type or break the structure.
public enum YAMLText {
    public static func document(_ value: JSON) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out
    }

    static func write(_ value: JSON, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .object(let fields) where !fields.isEmpty:
            for (key, field) in fields {
                out += pad + key + ":"
                writeNested(field, indent: indent, into: &out)
            }
        case .array(let items) where !items.isEmpty:
            for item in items {
                out += pad + "-"
                if case .object(let fields) = item, !fields.isEmpty {
                    // The first field on the dash's line, the others under it.
                    var first = ""
                    write(.object([fields[0]]), indent: indent + 2, into: &first)
                    out += " " + first.dropFirst(indent + 2)
                    var rest = ""
                    write(.object(Array(fields.dropFirst())), indent: indent + 2, into: &rest)
                    out += rest
                } else {
                    writeNested(item, indent: indent, into: &out)
                }
            }
        default:
            out += pad + scalar(value) + "\n"
        }
    }

    /// After `key:` or `-`: a scalar on the same line, a collection below it.
    static func writeNested(_ value: JSON, indent: Int, into out: inout String) {
        switch value {
        case .object(let fields) where !fields.isEmpty:
            out += "\n"
            write(value, indent: indent + 2, into: &out)
        case .array(let items) where !items.isEmpty:
            out += "\n"
            write(value, indent: indent + 2, into: &out)
        default:
            out += " " + scalar(value) + "\n"
        }
    }

    static func scalar(_ value: JSON) -> String {
        switch value {
        case .object: return "{}"
        case .array: return "[]"
        default: return value.serialized()
        }
    }
}
