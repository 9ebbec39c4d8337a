import Foundation

// MARK: Decoding

/// Reads the bytes of one value: it is valid only while `ValueCoding.decode` runs.
private struct Cursor {
    let raw: UnsafeRawBufferPointer
    var offset: Int

    mutating func byte() throws -> UInt8 {
        guard offset < raw.count else { throw ValueCoding.Damaged() }
        defer { offset += 1 }
        return raw[offset]
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
            guard shift < 64 else { throw ValueCoding.Damaged() }
        }
    }

    /// A string's bytes, as their place in `raw`.
    mutating func stringRange() throws -> Range<Int> {
        let count = Int(try varint())
        guard count >= 0, offset + count <= raw.count else { throw ValueCoding.Damaged() }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// Steps over the value that starts here.
    mutating func skip() throws {
        guard let tag = ValueCoding.Tag(rawValue: try byte()) else { throw ValueCoding.Damaged() }
        switch tag {
        case .null, .no, .yes: break
        case .int, .uint: _ = try varint()
        case .double:
            guard offset + 8 <= raw.count else { throw ValueCoding.Damaged() }
            offset += 8
        case .string: _ = try stringRange()
        case .keyed, .unkeyed:
            let length = Int(try varint())
            guard offset + length <= raw.count else { throw ValueCoding.Damaged() }
            offset += length
        }
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: raw[range]), as: UTF8.self)
    }
}

/// Where a value is in the tree: its container's decoder and its key there. Made into a coding
/// path only for an error (an array for every value decoded was most of decoding's cost).
struct ValuePath {
    let parent: TreeDecoder?
    let key: (any CodingKey)?

    static var root: ValuePath { ValuePath(parent: nil, key: nil) }

    var keys: [any CodingKey] { (parent?.codingPath ?? []) + (key.map { [$0] } ?? []) }
}

final class TreeDecoder: Decoder {
    let raw: UnsafeRawBufferPointer
    let offset: Int
    let path: ValuePath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(raw: UnsafeRawBufferPointer, offset: Int, path: ValuePath) {
        self.raw = raw
        self.offset = offset
        self.path = path
    }

    /// The body of the container that starts here: where its entries start, and how many.
    func body(_ tag: ValueCoding.Tag) throws -> (start: Int, count: Int) {
        var cursor = Cursor(raw: raw, offset: offset)
        guard try cursor.byte() == tag.rawValue else {
            throw DecodingError.typeMismatch(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(tag)"))
        }
        _ = try cursor.varint()
        let count = Int(try cursor.varint())
        return (cursor.offset, count)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let (start, count) = try body(.keyed)
        var cursor = Cursor(raw: raw, offset: start)
        var entries: [(key: Range<Int>, value: Int)] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let key = try cursor.stringRange()
            entries.append((key, cursor.offset))
            try cursor.skip()
        }
        return KeyedDecodingContainer(KeyedDecoder<Key>(decoder: self, entries: entries))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (start, count) = try body(.unkeyed)
        return UnkeyedDecoder(decoder: self, cursor: Cursor(raw: raw, offset: start), count: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueDecoder(decoder: self) }

    // The scalars, at `offset`.

    func isNil(at offset: Int) -> Bool { offset < raw.count && raw[offset] == ValueCoding.Tag.null.rawValue }

    func bool(at offset: Int, _ path: ValuePath) throws -> Bool {
        var cursor = Cursor(raw: raw, offset: offset)
        switch try cursor.byte() {
        case ValueCoding.Tag.yes.rawValue: return true
        case ValueCoding.Tag.no.rawValue: return false
        default: throw mismatch(Bool.self, path)
        }
    }

    func string(at offset: Int, _ path: ValuePath) throws -> String {
        var cursor = Cursor(raw: raw, offset: offset)
        guard try cursor.byte() == ValueCoding.Tag.string.rawValue else { throw mismatch(String.self, path) }
        return cursor.string(try cursor.stringRange())
    }

    func double(at offset: Int, _ path: ValuePath) throws -> Double {
        var cursor = Cursor(raw: raw, offset: offset)
        switch try cursor.byte() {
        case ValueCoding.Tag.double.rawValue:
            guard cursor.offset + 8 <= raw.count else { throw ValueCoding.Damaged() }
            return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: cursor.offset, as: UInt64.self)))
        case ValueCoding.Tag.int.rawValue, ValueCoding.Tag.uint.rawValue: return Double(try integer(at: offset, Int64.self, path))
        default: throw mismatch(Double.self, path)
        }
    }

    func integer<T: FixedWidthInteger>(at offset: Int, _ type: T.Type, _ path: ValuePath) throws -> T {
        var cursor = Cursor(raw: raw, offset: offset)
        switch try cursor.byte() {
        case ValueCoding.Tag.int.rawValue:
            let zigzag = try cursor.varint()
            let value = Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
            guard let exact = T(exactly: value) else { throw mismatch(T.self, path) }
            return exact
        case ValueCoding.Tag.uint.rawValue:
            guard let exact = T(exactly: try cursor.varint()) else { throw mismatch(T.self, path) }
            return exact
        default: throw mismatch(T.self, path)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, at offset: Int, _ path: ValuePath) throws -> T {
        // Scalars directly; anything else through its own `init(from:)`.
        if T.self == String.self, let text = try string(at: offset, path) as? T { return text }
        if T.self == Int.self, let number = try integer(at: offset, Int.self, path) as? T { return number }
        if T.self == Bool.self, let flag = try bool(at: offset, path) as? T { return flag }
        if T.self == Double.self, let number = try double(at: offset, path) as? T { return number }
        return try T(from: TreeDecoder(raw: raw, offset: offset, path: path))
    }

    func mismatch(_ type: Any.Type, _ path: ValuePath) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(codingPath: path.keys, debugDescription: "stored as another type"))
    }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TreeDecoder
    let entries: [(key: Range<Int>, value: Int)]
    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        entries.compactMap { Key(stringValue: String(decoding: UnsafeRawBufferPointer(rebasing: decoder.raw[$0.key]), as: UTF8.self)) }
    }

    /// Where the value of `key` starts.
    func place(_ key: Key) -> Int? { place(named: key.stringValue) }

    func place(named name: String) -> Int? {
        var name = name
        return name.withUTF8 { utf8 -> Int? in
            for entry in entries where entry.key.count == utf8.count {
                if utf8.isEmpty || memcmp(utf8.baseAddress!, decoder.raw.baseAddress! + entry.key.lowerBound, utf8.count) == 0 { return entry.value }
            }
            return nil
        }
    }

    func value(_ key: Key) throws -> Int {
        guard let offset = place(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return offset
    }

    func contains(_ key: Key) -> Bool { place(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNil(at: try value(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(at: try value(key), ValuePath(parent: decoder, key: key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(at: try value(key), ValuePath(parent: decoder, key: key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.double(at: try value(key), ValuePath(parent: decoder, key: key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decoder.double(at: try value(key), ValuePath(parent: decoder, key: key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(at: try value(key), type, ValuePath(parent: decoder, key: key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, at: try value(key), ValuePath(parent: decoder, key: key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = place(key), !decoder.isNil(at: offset) else { return nil }
        return try decoder.decode(type, at: offset, ValuePath(parent: decoder, key: key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(raw: decoder.raw, offset: try value(key), path: ValuePath(parent: decoder, key: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(raw: decoder.raw, offset: try value(key), path: ValuePath(parent: decoder, key: key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let offset = place(named: "super") else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no super value"))
        }
        return TreeDecoder(raw: decoder.raw, offset: offset, path: decoder.path)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(raw: decoder.raw, offset: try value(key), path: ValuePath(parent: decoder, key: key))
    }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let decoder: TreeDecoder
    var cursor: Cursor
    let total: Int
    var currentIndex = 0

    init(decoder: TreeDecoder, cursor: Cursor, count: Int) {
        self.decoder = decoder
        self.cursor = cursor
        total = count
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    /// The place of the next value, stepping over it.
    mutating func next() throws -> (offset: Int, path: ValuePath) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more values"))
        }
        let offset = cursor.offset
        try cursor.skip()
        currentIndex += 1
        return (offset, ValuePath(parent: decoder, key: IndexKey(currentIndex - 1)))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.isNil(at: cursor.offset) else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (at, path) = try next(); return try decoder.bool(at: at, path) }
    mutating func decode(_ type: String.Type) throws -> String { let (at, path) = try next(); return try decoder.string(at: at, path) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (at, path) = try next(); return try decoder.double(at: at, path) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (at, path) = try next(); return try decoder.integer(at: at, type, path) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (at, path) = try next(); return try decoder.integer(at: at, type, path) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (at, path) = try next(); return try decoder.integer(at: at, type, path) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (at, path) = try next()
        return try decoder.decode(type, at: at, path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (at, path) = try next()
        return try TreeDecoder(raw: decoder.raw, offset: at, path: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (at, path) = try next()
        return try TreeDecoder(raw: decoder.raw, offset: at, path: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (at, path) = try next()
        return TreeDecoder(raw: decoder.raw, offset: at, path: path)
    }
}

private struct SingleValueDecoder: SingleValueDecodingContainer {
    let decoder: TreeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.isNil(at: decoder.offset) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(at: decoder.offset, decoder.path) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(at: decoder.offset, decoder.path) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double(at: decoder.offset, decoder.path) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double(at: decoder.offset, decoder.path)) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(at: decoder.offset, type, decoder.path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type, at: decoder.offset, decoder.path) }
}
