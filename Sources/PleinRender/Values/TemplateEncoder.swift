import PleinMustache
import PleinText

/// What a template reads, made from a typed value by its `Encodable` conformance, so that each
/// field is named once, in the type: the property `areaURL` is the template's `area_url`.
///
/// - `String` is text; an empty `String` is absent (so `{{#x}}` stays closed), as is nil.
/// - `Int` is a number, `Double` a decimal, `Bool` a flag.
/// - `TrustedHTML` is markup, written as it is by `{{{x}}}` (absent when empty); nothing else is.
/// - A nested value is an object; an array is a list of objects, or of texts and numbers.
enum TemplateEncoder {
    static func context(_ value: some Encodable) -> TemplateContext {
        guard case .object(let context)? = try? encode(value) else {
            preconditionFailure("\(type(of: value)) is not a keyed value")
        }
        return context
    }

    static func encode<T: Encodable>(_ value: T) throws -> TemplateValue? {
        switch value {
        case let html as TrustedHTML: return html.isEmpty ? nil : .html(html)
        case let text as String: return text.isEmpty ? nil : .text(text)
        case let number as Int: return .number(number)
        case let number as Double: return .decimal(number)
        case let flag as Bool: return .flag(flag)
        default:
            let encoder = TreeEncoder()
            try value.encode(to: encoder)
            return encoder.result
        }
    }

    /// `areaURL` → `area_url`, `dateOnly` → `date_only` (property names are ASCII). Every
    /// field of every page goes through here: a name without capitals is returned as it is.
    static func snakeCase(_ name: String) -> String {
        guard name.utf8.contains(where: isUpper) else { return name }
        let bytes = Array(name.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 4)
        for (i, byte) in bytes.enumerated() {
            guard isUpper(byte) else {
                out.append(byte)
                continue
            }
            let afterLower = i > 0 && (isLower(bytes[i - 1]) || (48...57).contains(bytes[i - 1]))
            let endsAcronym = i > 0 && isUpper(bytes[i - 1]) && i + 1 < bytes.count && isLower(bytes[i + 1])
            if afterLower || endsAcronym { out.append(95) }
            out.append(byte + 32)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isUpper(_ byte: UInt8) -> Bool { (65...90).contains(byte) }
    private static func isLower(_ byte: UInt8) -> Bool { (97...122).contains(byte) }

    /// A list of objects when every item is one (what a section iterates), else of values.
    static func list(_ values: [TemplateValue]) -> TemplateValue {
        var contexts: [TemplateContext] = []
        contexts.reserveCapacity(values.count)
        for value in values {
            guard case .object(let context) = value else { return .values(values) }
            contexts.append(context)
        }
        return .list(contexts)
    }
}

extension HandWrittenTemplate {
    /// Its `template`, as it is: only `TemplateEncoder` encodes template values.
    func encode(to encoder: any Encoder) throws {
        guard let tree = encoder as? TreeEncoder else { preconditionFailure("only TemplateEncoder encodes \(Self.self)") }
        tree.made = .single(.object(template))
    }
}

private final class KeyedStore {
    var context = TemplateContext()
}

private final class ListStore {
    var values: [TemplateValue] = []
}

fileprivate final class TreeEncoder: Encoder {
    enum Made {
        case nothing, keyed(KeyedStore), list(ListStore), single(TemplateValue?)
    }

    var made = Made.nothing
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var result: TemplateValue? {
        switch made {
        case .nothing: return nil
        case .keyed(let store): return .object(store.context)
        case .list(let store): return TemplateEncoder.list(store.values)
        case .single(let value): return value
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed(let store) = made { return KeyedEncodingContainer(Keyed<Key>(store: store)) }
        let store = KeyedStore()
        made = .keyed(store)
        return KeyedEncodingContainer(Keyed<Key>(store: store))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let store = ListStore()
        made = .list(store)
        return Unkeyed(store: store)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(encoder: self)
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let store: KeyedStore
    var codingPath: [any CodingKey] { [] }

    private func name(_ key: Key) -> String { TemplateEncoder.snakeCase(key.stringValue) }

    mutating func encodeNil(forKey key: Key) {
        store.context[name(key)] = nil
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        store.context[name(key)] = try TemplateEncoder.encode(value)
    }

    // The kinds most fields are, without the casts of the generic `encode`.
    mutating func encode(_ value: String, forKey key: Key) {
        store.context[name(key)] = value.isEmpty ? nil : .text(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) {
        store.context[name(key)] = .flag(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) {
        store.context[name(key)] = .number(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("template values nest through their own types")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("template values nest through their own types")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("template values do not inherit") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("template values do not inherit") }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let store: ListStore
    var codingPath: [any CodingKey] { [] }
    var count: Int { store.values.count }

    mutating func encodeNil() {}

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let encoded = try TemplateEncoder.encode(value) { store.values.append(encoded) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("list items are values of their own types")
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("list items are values of their own types")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("template values do not inherit") }
}

private struct Single: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() {
        encoder.made = .single(nil)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.made = .single(try TemplateEncoder.encode(value))
    }
}
