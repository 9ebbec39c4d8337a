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
    /// The bytes kept under `key` as the last build left them, whatever this build changed
    /// since, with the keys of the facts this build changed (`Dependency.key`): for a part
    /// brought up to date rather than made again (`ModelView.updated`). Nil when none are kept,
    /// or when the memory cannot tell what changed.
    func keptBefore(_ key: String) -> (bytes: [UInt8], changed: Set<String>)?
    /// Whether it keeps parts of one record (`ModelView.fragment`); a full build's memory keeps
    /// only the parts it brings up to date (`ModelView.updated`), which cost nothing to keep.
    var keepsParts: Bool { get }
}

extension FragmentMemory {
    public func keptBefore(_ key: String) -> (bytes: [UInt8], changed: Set<String>)? { nil }
    public var keepsParts: Bool { true }
}

extension ModelView {
    /// The part of an output under `key`: as it was kept, with its reads recorded as if it was
    /// made (so the output depends on what it did), or made by `make` and kept. `key` names
    /// everything the bytes depend on besides the model's pieces `make` reads through this view
    /// (which kind of part, and of which record); the site's settings, the theme and the options
    /// are those of the build that kept it (a build that changes them keeps nothing).
    func fragment(_ key: String, _ make: () -> [UInt8]) -> [UInt8] {
        guard let memory = source.fragments, memory.keepsParts, let recorder else { return make() }
        if let (bytes, reads) = memory.kept(key) {
            recorder.record(reads)
            return bytes
        }
        let (bytes, reads) = recorder.capturing(make)
        memory.keep(key, bytes: bytes, reads: reads)
        return bytes
    }
}

extension ModelView {
    /// A part of an output over every record of a kind (the newest reports of the site's feed),
    /// brought up to date from the last build's rather than made again: `update` gets the part
    /// as the last build left it and the keys of the facts this build changed, and gives it now
    /// (nil: it cannot, and `make` makes it whole). The output depends on `every` (the reads of
    /// every record the part covers), which the part is kept with for the next build (`bytes`).
    func updated<Part>(_ key: String, every: [Dependency], update: ([UInt8], Set<String>) -> Part?, make: () -> Part,
                       bytes: (Part) -> [UInt8]) -> Part {
        guard let memory = source.fragments, let recorder else { return make() }
        recorder.record(every)
        let part = memory.keptBefore(key).flatMap { update($0.bytes, $0.changed) } ?? make()
        memory.keep(key, bytes: bytes(part), reads: Set(every))
        return part
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
