import Foundation
import GRDB
import PleinCore
import PleinRender
import Synchronization

/// The fragment memory of a build after edits (`RecordEdit`): the parts of outputs the build
/// store keeps (`fragments`), each with the keys of the facts it was made from and those facts
/// as they were. A part is taken while those facts are the same now (the store's, with the
/// edit's in place of those it changed), and the site's settings and the theme are as they were;
/// the parts made are saved with the edit (`made`). A full build keeps them: they are checked
/// against the facts it leaves. A build with other options or another plein starts a new store.
final class StoredFragments: FragmentMemory {
    struct Part: Sendable {
        let reads: [String]
        /// The facts of `reads` when the part was made (`facts(of:)`).
        let facts: [UInt8]
        let bytes: [UInt8]
    }

    private let queue: DatabaseQueue
    /// The edit's facts that differ from the store's (nil: gone).
    private let changed: [String: [UInt8]?]
    private struct State {
        /// The parts kept, of the kinds asked for so far (`kind(of:)`), as the store has them:
        /// the keys of their reads (each ended by a NUL), their facts then, their bytes.
        var kept: [String: (reads: [UInt8], facts: [UInt8], bytes: [UInt8])] = [:]
        var keptKinds: Set<String> = []
        /// The store's facts, of the kinds (what their keys start with) read so far.
        var facts: [String: [UInt8]] = [:]
        var kinds: Set<String> = []
        var made: [String: Part] = [:]
    }
    private let state = Mutex(State())

    init(queue: DatabaseQueue, changed: [String: [UInt8]?]) {
        self.queue = queue
        self.changed = changed
    }

    /// The parts made by this build, to save.
    var made: [String: Part] { state.withLock { $0.made } }

    func kept(_ key: String) -> (bytes: [UInt8], reads: [Dependency])? {
        let found: (bytes: [UInt8], reads: [String])? = state.withLock { state in
            // (A part two outputs show, made for the first.)
            if let made = state.made[key] { return (made.bytes, made.reads) }
            let kind = Self.kind(of: key)
            if state.keptKinds.insert(kind).inserted { load(kind, &state) }
            guard let part = state.kept[key] else { return nil }
            let reads = part.reads.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            // (Taken only while what it was made from is the same.)
            return facts(of: reads, &state) == part.facts ? (part.bytes, reads) : nil
        }
        guard let found else { return nil }
        let reads = found.reads.compactMap(Dependency.init(key:))
        return reads.count == found.reads.count ? (found.bytes, reads) : nil
    }

    func keep(_ key: String, bytes: [UInt8], reads: Set<Dependency>) {
        let keys = reads.map(\.key).sorted()
        state.withLock { state in
            state.made[key] = Part(reads: keys, facts: facts(of: keys, &state), bytes: bytes)
        }
    }

    /// The kind of part a key names: up to its second colon ("geojson:report:"), or whole.
    private static func kind(of key: String) -> String {
        var colons = 0
        for index in key.indices where key[index] == ":" {
            colons += 1
            if colons == 2 { return String(key[...index]) }
        }
        return key
    }

    /// Reads the stored parts of `kind`.
    private func load(_ kind: String, _ state: inout State) {
        // (Every key of the kind sorts between it and it with its last character's successor.)
        guard let last = kind.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else { return }
        let end = String(kind.unicodeScalars.dropLast()) + String(next)
        try? queue.inDatabase { db in
            try RawStatement(db, "SELECT key, reads, facts, bytes FROM fragments WHERE key >= ? AND key < ?").each(.text(kind), .text(end)) { row in
                state.kept[row.text(0)] = (row.blob(1), row.blob(2), row.blob(3))
            }
        }
    }

    /// The facts of `keys` now (`FragmentFacts.of`).
    private func facts(of keys: [String], _ state: inout State) -> [UInt8] {
        FragmentFacts.of(keys) { key in
            let fact: [UInt8]?
            if let edited = changed[key] {
                fact = edited
            } else if let stored = state.facts[key] {
                fact = stored
            } else {
                let kind = String(key.prefix { $0 != ":" })
                if !state.kinds.contains(kind) {
                    state.kinds.insert(kind)
                    // (Every fact of a kind at once: a map of every report reads one of each.)
                    try? queue.inDatabase { db in
                        let (sql, from, to) = kind.count == key.count
                            ? ("SELECT key, hash FROM facts WHERE key = ? OR key = ?", key, key)
                            : ("SELECT key, hash FROM facts WHERE key >= ? AND key < ?", kind + ":", kind + ";")
                        try RawStatement(db, sql).each(.text(from), .text(to)) { row in state.facts[row.text(0)] = row.blob(1) }
                    }
                }
                fact = state.facts[key]
            }
            return fact
        }
    }

    /// Saves the parts made (`made`) in the store, in the edit's transaction.
    static func save(_ parts: [String: Part], _ db: Database) throws {
        let put = try RawStatement(db, "INSERT OR REPLACE INTO fragments (key, reads, facts, bytes) VALUES (?, ?, ?, ?)")
        for (key, part) in parts.sorted(by: { $0.key < $1.key }) {
            try put.run(.text(key), .blob(part.reads.flatMap { Array($0.utf8) + [0] }), .blob(part.facts), .blob(part.bytes))
        }
    }
}

/// What a part of an output is checked by: the facts of what it read, and of what every part
/// depends on besides (the site's settings and the theme).
enum FragmentFacts {
    static let always = [Facts.siteKey, Dependency.theme.key]

    /// The facts of `keys` and of `always` (by `fact`), one after the other, each after its
    /// length (255: none).
    static func of(_ keys: [String], fact: (String) -> [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = []
        for key in always + keys {
            if let fact = fact(key), fact.count < 255 {
                bytes.append(UInt8(fact.count))
                bytes += fact
            } else {
                bytes.append(255)
            }
        }
        return bytes
    }
}

/// The fragment memory of `plein serve`: the parts of outputs made in this session, each with
/// the facts it was made from, taken while the facts of the build that asks are the same
/// (`use`). Without facts (the pages of the edited records, rendered before the facts are
/// known; a build that records no reads) it keeps and gives nothing.
final class MemoryFragments: FragmentMemory {
    private struct Part {
        let reads: [Dependency]
        let keys: [String]
        let facts: [UInt8]
        let bytes: [UInt8]
    }

    private let state = Mutex<(parts: [String: Part], facts: Facts?)>(([:], nil))

    /// The facts the parts are checked by from now on (nil: none are kept or taken).
    func use(_ facts: Facts?) {
        state.withLock { $0.facts = facts }
    }

    func kept(_ key: String) -> (bytes: [UInt8], reads: [Dependency])? {
        state.withLock { state in
            guard let facts = state.facts, let part = state.parts[key],
                  FragmentFacts.of(part.keys, fact: { facts.values[$0] }) == part.facts else { return nil }
            return (part.bytes, part.reads)
        }
    }

    func keep(_ key: String, bytes: [UInt8], reads: Set<Dependency>) {
        let reads = reads.sorted { $0.key < $1.key }
        let keys = reads.map(\.key)
        state.withLock { state in
            guard let facts = state.facts else { return }
            state.parts[key] = Part(reads: reads, keys: keys, facts: FragmentFacts.of(keys, fact: { facts.values[$0] }), bytes: bytes)
        }
    }
}
