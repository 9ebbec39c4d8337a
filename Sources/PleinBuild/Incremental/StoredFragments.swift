import Foundation
import GRDB
import PleinCore
import PleinRender
import Synchronization

/// The fragment memory of a build after edits (`RecordEdit`): the parts of outputs the build
/// store keeps (`fragments`), each with the keys of the facts it was made from
/// (`fragment_reads` holds them by key). The store keeps only parts made from its facts as they
/// are: every save that changes facts forgets the parts that read them (`forget`), and a change
/// of the site's settings or the theme forgets them all. A part is then taken while none of what
/// it read is among the facts this edit changed; the parts made are saved with the edit
/// (`made`). A build with other options or another plein starts a new store.
final class StoredFragments: FragmentMemory {
    struct Part: Sendable {
        let reads: [String]
        let bytes: [UInt8]
        /// For the head of a list (`keep(list:)`): how its entries changed.
        var list: ListChanges?
        /// Of `reads`, those the store does not hold for it after the save's `forget` (nil: all):
        /// the head of an area's list of 2,500 reports reads 2,500 keys, of which an edit
        /// changes a few.
        var unsaved: [String]?

        init(_ bytes: [UInt8], reads: Set<Dependency>) {
            self.reads = reads.map(\.key).sorted()
            self.bytes = bytes
        }

        /// The head of a list: the reads of all its entries as the output recorded them; as its
        /// bytes, the size of its entries (`ListChanges.size`), to make room for them at once.
        init(list: ListChanges) {
            let bytes = withUnsafeBytes(of: UInt64(list.size).littleEndian) { [UInt8]($0) }
            (reads, self.bytes, self.list) = (list.recorded, bytes, list)
        }
    }

    private let readers: StoreReaders
    /// The keys of the edit's facts that differ from the store's.
    private let changed: Set<String>
    /// Whether the edit changed what every part depends on (`FragmentFacts.always`).
    private let changedAll: Bool
    /// The parts kept, by kind (`kind(of:)`), as the store has them: the keys of their reads
    /// (each ended by a NUL), their bytes; each kind read when first asked for.
    private let kept = Mutex<[String: [String: (reads: [UInt8], bytes: [UInt8])]]>([:])
    private let madeParts = Mutex<[String: Part]>([:])

    /// Whether the save forgets every part (`forget`), so that a head's reads all go in again.
    private let forgetsAll: Bool

    init(readers: StoreReaders, changed: some Sequence<String>) {
        self.readers = readers
        self.changed = Set(changed)
        changedAll = FragmentFacts.always.contains(where: self.changed.contains)
        forgetsAll = changedAll || self.changed.count > Self.forgetAllPast
    }

    /// The parts made by this build, to save.
    var made: [String: Part] { madeParts.locked { $0 } }
    var updatesParts: Bool { true }

    func kept(_ key: String) -> (bytes: [UInt8], reads: [Dependency])? {
        let bytes: [UInt8], keys: [String]
        // (A part two outputs show, made for the first.)
        if let made = madeParts.locked({ $0[key] }) {
            (bytes, keys) = (made.bytes, made.reads)
        } else {
            guard !changedAll else { return nil }
            guard let part = table(Self.kind(of: key))[key] else { return nil }
            keys = part.reads.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            // (Taken only while what it was made from is the same.)
            guard !keys.contains(where: changed.contains) else { return nil }
            bytes = part.bytes
        }
        let reads = keys.compactMap(Dependency.init(key:))
        return reads.count == keys.count ? (bytes, reads) : nil
    }

    /// A list is kept while its head is: the head's reads are those of every entry as the
    /// output recorded them, so a save that changes an entry's read forgets the head, and the
    /// output, which read it too, is rendered again and keeps the list anew in the same save.
    /// Without a head, the list is made whole, and its entries kept before are forgotten.
    func keptList(_ key: String) -> KeptList? {
        guard !changedAll, let head = table(Self.kind(of: key))[key] else { return nil }
        var storage: [UInt8] = []
        var rows: [KeptList.Row] = []
        do {
            try readers.inDatabase { db in
                // (Ninety megabytes for the map of every report at 100,000 reports: room made once,
                // not grown copy by copy, by the size the head keeps; adding up the rows' sizes
                // in SQL cost a third of reading them.)
                if head.bytes.count == 8 {
                    // (No more than the store's file holds: a damaged head is no reason to ask
                    // for more memory than that.)
                    let size = head.bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    var file: Int64 = 0
                    try RawStatement(db, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()").each { row in file = row.integer(0) }
                    storage.reserveCapacity(Int(min(size, UInt64(max(0, file)))))
                } else {
                    try RawStatement(db, "SELECT total(length(id) + length(reads) + length(bytes)) FROM fragment_entries WHERE list = ?")
                        .each(.text(key)) { row in storage.reserveCapacity(Int(row.double(0))) }
                }
                try RawStatement(db, "SELECT count(*) FROM fragment_entries WHERE list = ?").each(.text(key)) { row in
                    rows.reserveCapacity(Int(row.integer(0)))
                }
                // (In the order of the ids' bytes, as the table's key keeps them.)
                try RawStatement(db, "SELECT id, reads, bytes FROM fragment_entries WHERE list = ? ORDER BY id").each(.text(key)) { row in
                    let id = row.append(0, to: &storage), reads = row.append(1, to: &storage), bytes = row.append(2, to: &storage)
                    rows.append(KeptList.Row(id: id, reads: reads, bytes: bytes))
                }
            }
        } catch {
            return nil
        }
        let recorded = head.reads.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return KeptList(recorded: recorded, storage: storage, rows: rows, changed: changed)
    }

    func keep(list key: String, _ changes: ListChanges) {
        var part = Part(list: changes)
        // (The store holds the reads the head kept before, but those of the facts this edit
        // changed, which the save forgets.)
        if let before = changes.recordedBefore, !forgetsAll, table(Self.kind(of: key))[key] != nil {
            if changes.recorded.count == before.count {
                // (The reads it recorded before, and no other: those of the changed facts.)
                part.unsaved = changed.filter { KeptList.contains(changes.recorded, $0) }.sorted()
            } else {
                let held = Set(before)
                part.unsaved = changes.recorded.filter { !held.contains($0) || changed.contains($0) }
            }
        }
        madeParts.locked { $0[key] = part }
    }

    func keptBefore(_ key: String) -> (bytes: [UInt8], changed: Set<String>)? {
        if let made = madeParts.locked({ $0[key] }) { return (made.bytes, []) }
        guard !changedAll, let part = table(Self.kind(of: key))[key] else { return nil }
        return (part.bytes, changed)
    }

    /// The stored parts of `kind`, read when first asked for.
    private func table(_ kind: String) -> [String: (reads: [UInt8], bytes: [UInt8])] {
        // (A kind's table is read while the lock is held; a part is looked up in it without:
        // the outputs of every report, rendered at once, look up ten thousand each.)
        kept.locked { tables in
            if let table = tables[kind] { return table }
            let table = parts(kind)
            tables[kind] = table
            return table
        }
    }

    func keep(_ key: String, bytes: [UInt8], reads: Set<Dependency>) {
        let part = Part(bytes, reads: reads)
        madeParts.locked { $0[key] = part }
    }

    /// The kind of part a key names: up to its second colon ("geojson:report:"), or whole.
    private static func kind(of key: String) -> String {
        var colons = 0
        let utf8 = key.utf8
        for index in utf8.indices where utf8[index] == UInt8(ascii: ":") {
            colons += 1
            if colons == 2 { return String(key[...index]) }
        }
        return key
    }

    /// The stored parts of `kind`.
    private func parts(_ kind: String) -> [String: (reads: [UInt8], bytes: [UInt8])] {
        // (Every key of the kind sorts between it and it with its last character's successor.)
        guard let last = kind.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else { return [:] }
        let end = String(kind.unicodeScalars.dropLast()) + String(next)
        var parts: [String: (reads: [UInt8], bytes: [UInt8])] = [:]
        try? readers.inDatabase { db in
            try RawStatement(db, "SELECT key, reads, bytes FROM fragments WHERE key >= ? AND key < ?").each(.text(kind), .text(end)) { row in
                parts[row.text(0)] = (row.blob(1), row.blob(2))
            }
        }
        return parts
    }

    /// Forgets the stored parts that read any of `keys` (facts this save changes), in the save's
    /// transaction: all of them when the site's settings or the theme are among them, or when
    /// more than `all` are (forgetting part by part would take longer than making them again).
    /// How many facts an edit changes past which its save forgets every part (`forget`).
    static let forgetAllPast = 2_000

    static func forget(readersOf keys: some Collection<String>, _ db: Database, all: Int = forgetAllPast) throws {
        if keys.count > all || keys.contains(where: FragmentFacts.always.contains) {
            try db.execute(sql: "DELETE FROM fragments")
            try db.execute(sql: "DELETE FROM fragment_reads")
            try db.execute(sql: "DELETE FROM fragment_entries")
            return
        }
        let forgetParts = try RawStatement(db, "DELETE FROM fragments WHERE key IN (SELECT part FROM fragment_reads WHERE read = ?)")
        let forgetReads = try RawStatement(db, "DELETE FROM fragment_reads WHERE read = ?")
        for key in keys {
            try forgetParts.run(.text(key))
            try forgetReads.run(.text(key))
        }
    }

    /// Saves the parts made (`made`) in the store, in the edit's transaction, after the parts
    /// its facts make wrong are forgotten (`forget`).
    static func save(_ parts: [String: Part], _ db: Database) throws {
        let put = try RawStatement(db, "INSERT OR REPLACE INTO fragments (key, reads, bytes) VALUES (?, ?, ?)")
        let putRead = try RawStatement(db, "INSERT OR IGNORE INTO fragment_reads (read, part) VALUES (?, ?)")
        for (key, part) in parts.sorted(by: { $0.key < $1.key }) {
            try put.run(.text(key), .blob(Self.joined(part.reads)), .blob(part.bytes))
            for read in part.unsaved ?? part.reads { try putRead.run(.text(read), .text(key)) }
            if let list = part.list { try save(list: key, list, db) }
        }
    }

    /// Saves how the list under `key` changed: only the entries made and gone, or, for a list
    /// made whole, every entry in place of those kept before.
    private static func save(list key: String, _ changes: ListChanges, _ db: Database) throws {
        if changes.whole {
            try RawStatement(db, "DELETE FROM fragment_entries WHERE list = ?").run(.text(key))
        } else if !changes.gone.isEmpty {
            let drop = try RawStatement(db, "DELETE FROM fragment_entries WHERE list = ? AND id = ?")
            for id in changes.gone { try drop.run(.text(key), .text(id)) }
        }
        let put = try RawStatement(db, "INSERT OR REPLACE INTO fragment_entries (list, id, reads, bytes) VALUES (?, ?, ?, ?)")
        for entry in changes.made {
            try put.run(.text(key), .text(entry.id), .blob(Self.joined(entry.reads)), .blob(entry.bytes))
        }
    }

    /// Keys as the store keeps them, each ended by a NUL, in one buffer (a head of an area's
    /// list reads 10,000).
    private static func joined(_ keys: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.reduce(0) { $0 + $1.utf8.count + 1 })
        for key in keys {
            bytes.append(contentsOf: key.utf8)
            bytes.append(0)
        }
        return bytes
    }
}

/// The fragment memory of a full build with the build store: it takes nothing, and keeps only
/// the parts brought up to date from build to build (`ModelView.updated`: the newest reports of
/// the site's feed), which the store saves with the build (`BuildStore.Snapshot.fragments`), so
/// that the edit after it brings them up to date rather than making them again.
final class UpdatedParts: FragmentMemory {
    private let parts = Mutex<[String: StoredFragments.Part]>([:])

    var made: [String: StoredFragments.Part] { parts.locked { $0 } }
    var keepsParts: Bool { false }
    var updatesParts: Bool { true }

    func kept(_ key: String) -> (bytes: [UInt8], reads: [Dependency])? { nil }

    func keep(_ key: String, bytes: [UInt8], reads: Set<Dependency>) {
        let part = StoredFragments.Part(bytes, reads: reads)
        parts.locked { $0[key] = part }
    }

    func keep(list key: String, _ changes: ListChanges) {
        let part = StoredFragments.Part(list: changes)
        parts.locked { $0[key] = part }
    }
}

/// What a part of an output depends on besides what it read (`always`: the site's settings and
/// the theme); and, for `plein serve`'s parts, what one is checked by: the facts of what it read
/// and of `always`.
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

    /// Whether `stored` is `of(keys, fact:)`, compared fact by fact as it goes.
    static func matches(_ stored: [UInt8], _ keys: [String], fact: (String) -> [UInt8]?) -> Bool {
        var offset = 0
        for key in always + keys {
            guard offset < stored.count else { return false }
            let length = Int(stored[offset])
            offset += 1
            if let fact = fact(key), fact.count < 255 {
                guard length == fact.count, offset + length <= stored.count, stored[offset..<offset + length].elementsEqual(fact) else { return false }
                offset += length
            } else if length != 255 {
                return false
            }
        }
        return offset == stored.count
    }
}
