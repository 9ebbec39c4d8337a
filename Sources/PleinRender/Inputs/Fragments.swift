/// Parts of outputs kept from the last build with what each was made from, so that an output
/// of many records (the map of every report) made again after an edit makes again only the
/// parts of the records the edit changed, and takes the others as they were (Salsa's memoized
/// queries, at the size of a record's part of a page). The build store keeps them for
/// `plein build` (`StoredFragments`); without a memory, every part is made.
public protocol FragmentMemory: Sendable {
    /// The bytes kept under `key`, with the reads they were made from, when none of those has
    /// changed since they were kept; nil otherwise (or when none were kept).
    func kept(_ key: String) -> (bytes: [UInt8], reads: [Dependency])?
    /// Keeps the bytes made under `key` from `reads`.
    func keep(_ key: String, bytes: [UInt8], reads: Set<Dependency>)
}

extension ModelView {
    /// The part of an output under `key`: as it was kept, with its reads recorded as if it was
    /// made (so the output depends on what it did), or made by `make` and kept. `key` names
    /// everything the bytes depend on besides the model's pieces `make` reads through this view
    /// (which kind of part, and of which record); the site's settings, the theme and the options
    /// are those of the build that kept it (a build that changes them keeps nothing).
    func fragment(_ key: String, _ make: () -> [UInt8]) -> [UInt8] {
        guard let memory = source.fragments, let recorder else { return make() }
        if let (bytes, reads) = memory.kept(key) {
            recorder.record(reads)
            return bytes
        }
        let (bytes, reads) = recorder.capturing(make)
        memory.keep(key, bytes: bytes, reads: reads)
        return bytes
    }
}

/// Numbers in the bytes of a kept part: little-endian, at fixed offsets.
enum KeptBytes {
    static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// The number of `type` at `offset` (the caller has checked that the bytes hold it).
    static func read<Number: FixedWidthInteger>(_ type: Number.Type, _ bytes: [UInt8], at offset: Int) -> Number {
        bytes.withUnsafeBytes { Number(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Number.self)) }
    }
}
