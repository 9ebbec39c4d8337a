import PleinCore

/// An `Encoder` that feeds a value's every stored property into SHA-256, through the value's
/// synthesized `Encodable` conformance: the build store's fingerprint of a piece of the model
/// (`Facts`). The compiler writes the conformances, so a property added to a model type is part
/// of the fingerprint without anyone remembering it.
///
/// Each container and element leaves a marker, each string its length, so different shapes give
/// different bytes. Dictionaries would be encoded in an order that differs between runs; model
/// types hold none (`FactsTests`).
final class FingerprintEncoder: Encoder {
    private var stream = Hashing.Stream()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The SHA-256 of `value`'s encoding.
    static func fingerprint(_ value: some Encodable) -> [UInt8] {
        let encoder = FingerprintEncoder()
        if let strings = value as? [String] {
            // (The order of every report, a hundred thousand ids: the bytes the containers below
            // would feed, gathered and fed at once, not three calls for each id.)
            var bytes: [UInt8] = [0x5B]
            bytes.reserveCapacity(1 + strings.reduce(0) { $0 + 10 + $1.utf8.count })
            for string in strings {
                bytes += [0x2C, 0x73]
                withUnsafeBytes(of: Int64(string.utf8.count).littleEndian) { bytes += $0 }
                bytes += string.utf8
            }
            bytes.withUnsafeBytes { encoder.stream.update($0) }
            return encoder.stream.finalize()
        }
        try? value.encode(to: encoder)
        return encoder.stream.finalize()
    }

    func mark(_ byte: UInt8) {
        withUnsafeBytes(of: byte) { stream.update($0) }
    }

    func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { stream.update($0) }
    }

    func string(_ text: String) {
        integer(Int64(text.utf8.count))
        var text = text
        text.withUTF8 { stream.update(UnsafeRawBufferPointer($0)) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        mark(0x7B)
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        mark(0x5B)
        return Unkeyed(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// Every primitive goes through here: a type tag, then its bytes.
    func primitive(_ value: some Encodable) throws {
        switch value {
        case let text as String: mark(0x73); string(text)
        case let flag as Bool: mark(flag ? 0x74 : 0x66)
        case let number as Double: mark(0x64); integer(Int64(bitPattern: number.bitPattern))
        case let number as Float: mark(0x64); integer(Int64(bitPattern: Double(number).bitPattern))
        case let number as Int: mark(0x69); integer(Int64(number))
        case let number as Int64: mark(0x69); integer(number)
        case let number as Int32: mark(0x69); integer(Int64(number))
        case let number as Int16: mark(0x69); integer(Int64(number))
        case let number as Int8: mark(0x69); integer(Int64(number))
        case let number as UInt: mark(0x75); integer(Int64(bitPattern: UInt64(number)))
        case let number as UInt64: mark(0x75); integer(Int64(bitPattern: number))
        case let number as UInt32: mark(0x75); integer(Int64(number))
        case let number as UInt16: mark(0x75); integer(Int64(number))
        case let number as UInt8: mark(0x75); integer(Int64(number))
        default: try value.encode(to: self)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: FingerprintEncoder
        var codingPath: [any CodingKey] { [] }

        func key(_ key: Key) { encoder.mark(0x6B); encoder.string(key.stringValue) }
        mutating func encodeNil(forKey key: Key) throws { self.key(key); encoder.mark(0x6E) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { self.key(key); try encoder.primitive(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            self.key(key)
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            self.key(key)
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            self.key(key)
            return encoder
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: FingerprintEncoder
        var codingPath: [any CodingKey] { [] }
        var count = 0

        mutating func element() { encoder.mark(0x2C); count += 1 }
        mutating func encodeNil() throws { element(); encoder.mark(0x6E) }
        mutating func encode<T: Encodable>(_ value: T) throws { element(); try encoder.primitive(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            element()
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            element()
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            element()
            return encoder
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoder: FingerprintEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { encoder.mark(0x6E) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.primitive(value) }
    }
}
