import Foundation

/// A compact binary form of `Codable` values, for the pieces of the model the build store keeps
/// (`ModelValues`): what JSON says, without its text. Decoding a report's or a member's piece is
/// most of what rendering an output costs in a build after an edit, and JSON spent it scanning
/// text, unescaping strings and making a dictionary of every object's keys.
///
/// A value is a tag byte and its payload: nil, false, true; an integer (zig-zag LEB128) or an
/// unsigned one (LEB128); a double (8 bytes); a string (its length, then UTF-8); a keyed container
/// (its length in bytes, its number of entries, then each key as a string and its value); an
/// unkeyed one (its length in bytes, its number of values, then the values). Lengths let a
/// decoder step over a value it was not asked for.
enum ValueCoding {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        var bytes: [UInt8] = []
        (encoder.node ?? .null).write(to: &bytes)
        return bytes
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try bytes.withUnsafeBytes { raw in
            let decoder = TreeDecoder(raw: raw, offset: 0, path: .root)
            return try Value(from: decoder)
        }
    }

    enum Tag: UInt8 {
        case null = 0, no, yes, int, uint, double, string, keyed, unkeyed
    }

    struct Damaged: Error {}
}

// MARK: Encoding

/// A value as it is being encoded: containers are references, since Codable hands them out and
/// fills them later.
private indirect enum Node {
    case null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String)
    case keyed(KeyedStorage), unkeyed(UnkeyedStorage)
    /// What a nested encoder will have put in its place when the whole value is written.
    case pending(TreeEncoder)

    func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(ValueCoding.Tag.null.rawValue)
        case .bool(let value): bytes.append(value ? ValueCoding.Tag.yes.rawValue : ValueCoding.Tag.no.rawValue)
        case .int(let value):
            bytes.append(ValueCoding.Tag.int.rawValue)
            Self.varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
        case .uint(let value):
            bytes.append(ValueCoding.Tag.uint.rawValue)
            Self.varint(value, to: &bytes)
        case .double(let value):
            bytes.append(ValueCoding.Tag.double.rawValue)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let value):
            bytes.append(ValueCoding.Tag.string.rawValue)
            Self.string(value, to: &bytes)
        case .keyed(let storage):
            var body: [UInt8] = []
            Self.varint(UInt64(storage.entries.count), to: &body)
            for (key, node) in storage.entries {
                Self.string(key, to: &body)
                node.write(to: &body)
            }
            bytes.append(ValueCoding.Tag.keyed.rawValue)
            Self.varint(UInt64(body.count), to: &bytes)
            bytes += body
        case .unkeyed(let storage):
            var body: [UInt8] = []
            Self.varint(UInt64(storage.values.count), to: &body)
            for node in storage.values { node.write(to: &body) }
            bytes.append(ValueCoding.Tag.unkeyed.rawValue)
            Self.varint(UInt64(body.count), to: &bytes)
            bytes += body
        case .pending(let encoder): (encoder.node ?? .null).write(to: &bytes)
        }
    }

    static func varint(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    static func string(_ value: String, to bytes: inout [UInt8]) {
        var text = value
        text.withUTF8 { utf8 in
            varint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }
}

private final class KeyedStorage {
    var entries: [(String, Node)] = []
}

private final class UnkeyedStorage {
    var values: [Node] = []
}

private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: Node?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: KeyedStorage
        if case .keyed(let existing) = node {
            storage = existing
        } else {
            storage = KeyedStorage()
            node = .keyed(storage)
        }
        return KeyedEncodingContainer(KeyedEncoder<Key>(storage: storage, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: UnkeyedStorage
        if case .unkeyed(let existing) = node {
            storage = existing
        } else {
            storage = UnkeyedStorage()
            node = .unkeyed(storage)
        }
        return UnkeyedEncoder(storage: storage, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueEncoder(encoder: self) }

    /// A value's node: scalars directly, anything else through its own `encode(to:)`.
    static func node<T: Encodable>(of value: T, codingPath: [any CodingKey]) throws -> Node {
        // (A type compared first: a cast that fails costs more than one that succeeds.)
        if T.self == String.self, let text = value as? String { return .string(text) }
        if T.self == Int.self, let number = value as? Int { return .int(Int64(number)) }
        if T.self == Bool.self, let flag = value as? Bool { return .bool(flag) }
        if T.self == Double.self, let number = value as? Double { return .double(number) }
        let encoder = TreeEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.node ?? .null
    }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: KeyedStorage
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { storage.entries.append((key.stringValue, .null)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { storage.entries.append((key.stringValue, .bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) throws { storage.entries.append((key.stringValue, .string(value))) }
    mutating func encode(_ value: Double, forKey key: Key) throws { storage.entries.append((key.stringValue, .double(value))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { storage.entries.append((key.stringValue, .double(Double(value)))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { storage.entries.append((key.stringValue, .int(Int64(value)))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { storage.entries.append((key.stringValue, .int(Int64(value)))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { storage.entries.append((key.stringValue, .int(Int64(value)))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { storage.entries.append((key.stringValue, .int(Int64(value)))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { storage.entries.append((key.stringValue, .int(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { storage.entries.append((key.stringValue, .uint(UInt64(value)))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { storage.entries.append((key.stringValue, .uint(UInt64(value)))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { storage.entries.append((key.stringValue, .uint(UInt64(value)))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { storage.entries.append((key.stringValue, .uint(UInt64(value)))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { storage.entries.append((key.stringValue, .uint(value))) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        storage.entries.append((key.stringValue, try TreeEncoder.node(of: value, codingPath: codingPath + [key])))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = KeyedStorage()
        storage.entries.append((key.stringValue, .keyed(nested)))
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(storage: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        storage.entries.append((key.stringValue, .unkeyed(nested)))
        return UnkeyedEncoder(storage: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [IndexKey(stringValue: "super") ?? IndexKey(0)])
        storage.entries.append(("super", .pending(encoder)))
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [key])
        storage.entries.append((key.stringValue, .pending(encoder)))
        return encoder
    }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { intValue = Int(stringValue) }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let storage: UnkeyedStorage
    let codingPath: [any CodingKey]
    var count: Int { storage.values.count }

    mutating func encodeNil() throws { storage.values.append(.null) }
    mutating func encode(_ value: Bool) throws { storage.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { storage.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { storage.values.append(.double(value)) }
    mutating func encode(_ value: Int) throws { storage.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { storage.values.append(.int(value)) }
    mutating func encode(_ value: UInt64) throws { storage.values.append(.uint(value)) }

    mutating func encode(_ value: some Encodable) throws {
        storage.values.append(try TreeEncoder.node(of: value, codingPath: codingPath + [IndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = KeyedStorage()
        storage.values.append(.keyed(nested))
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(storage: nested, codingPath: codingPath + [IndexKey(count - 1)]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        storage.values.append(.unkeyed(nested))
        return UnkeyedEncoder(storage: nested, codingPath: codingPath + [IndexKey(count - 1)])
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [IndexKey(count)])
        storage.values.append(.pending(encoder))
        return encoder
    }
}

private struct SingleValueEncoder: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil() throws { encoder.node = .null }
    func encode(_ value: Bool) throws { encoder.node = .bool(value) }
    func encode(_ value: String) throws { encoder.node = .string(value) }
    func encode(_ value: Double) throws { encoder.node = .double(value) }
    func encode(_ value: Float) throws { encoder.node = .double(Double(value)) }
    func encode(_ value: Int) throws { encoder.node = .int(Int64(value)) }
    func encode(_ value: Int8) throws { encoder.node = .int(Int64(value)) }
    func encode(_ value: Int16) throws { encoder.node = .int(Int64(value)) }
    func encode(_ value: Int32) throws { encoder.node = .int(Int64(value)) }
    func encode(_ value: Int64) throws { encoder.node = .int(value) }
    func encode(_ value: UInt) throws { encoder.node = .uint(UInt64(value)) }
    func encode(_ value: UInt8) throws { encoder.node = .uint(UInt64(value)) }
    func encode(_ value: UInt16) throws { encoder.node = .uint(UInt64(value)) }
    func encode(_ value: UInt32) throws { encoder.node = .uint(UInt64(value)) }
    func encode(_ value: UInt64) throws { encoder.node = .uint(value) }
    func encode(_ value: some Encodable) throws { encoder.node = try TreeEncoder.node(of: value, codingPath: codingPath) }
}

