import PleinRender

/// What an output read, as one digest that does not depend on the order of the reads: the sum
/// of a 128-bit hash of each read's key (`Dependency.key`). The build store keeps it beside the
/// reads (`outputs.reads`), so that a build after an edit (`RecordEdit`) sees that an output
/// rendered again read what it read before without finding every key's index in the store
/// (tens of thousands for a page of every report): then only its hash is written again.
enum ReadsDigest {
    /// The hash of one key: two FNV-1a hashes of its bytes from different offsets, each mixed
    /// (SplitMix64's finalizer) so that their sums spread.
    static func hash(_ key: String) -> (UInt64, UInt64) {
        hash(key, then: [])
    }

    /// The hash of a dependency's key (`hash(dependency.key)`), without making the key: the
    /// outputs of a new title read 450,000 at 10,000 reports.
    static func hash(_ dependency: Dependency) -> (UInt64, UInt64) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325cbf29ce4
        func add(_ byte: UInt8) {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        for byte in dependency.kind.rawValue.utf8 { add(byte) }
        if !dependency.kind.isOne {
            add(UInt8(ascii: ":"))
            for byte in dependency.id.utf8 { add(byte) }
        }
        return (mix(a), mix(b ^ 0x9e37_79b9_7f4a_7c15))
    }

    /// The hash of a key and the bytes of a value (a fact), for a sum of facts that does not
    /// depend on their order (`Facts.everies`).
    static func hash(_ key: String, then value: [UInt8]) -> (UInt64, UInt64) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x84222325cbf29ce4
        for byte in key.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        if !value.isEmpty {
            // (A key's bytes are never 0xFF: UTF-8 has none.)
            for byte in [0xFF] + value {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return (mix(a), mix(b ^ 0x9e37_79b9_7f4a_7c15))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// The digest of reads whose keys hash to `hashes`, as the store keeps it (16 bytes).
    static func digest(_ hashes: some Sequence<(UInt64, UInt64)>) -> [UInt8] {
        var (a, b): (UInt64, UInt64) = (0, 0)
        for (x, y) in hashes {
            a &+= x
            b &+= y
        }
        return withUnsafeBytes(of: a.littleEndian) { Array($0) } + withUnsafeBytes(of: b.littleEndian) { Array($0) }
    }

    /// The digest of reads named by their keys.
    static func digest(keys: some Sequence<String>) -> [UInt8] {
        digest(keys.lazy.map(hash))
    }
}
