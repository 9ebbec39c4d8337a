import Foundation
import GRDB
import GRDBSQLite
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender
import Synchronization

extension BuildStore {
    // MARK: Reading

    /// The figures and the content hashes: nil when no build was saved yet, or (with the reason)
    /// when another version of plein saved it.
    func readHead() throws(Damaged) -> (snapshot: Snapshot?, unusable: String?) {
        do {
            return try queue.read { db -> (Snapshot?, String?) in
                var meta: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta") { meta[row[0]] = row[1] }
                guard let version = meta["version"], let fingerprint = meta["fingerprint"] else { return (nil, nil) }
                guard version == PleinVersion.number else { return (nil, "the build cache was written by plein \(version)") }
                var snapshot = Snapshot()
                snapshot.fingerprint = fingerprint
                snapshot.theme = meta["theme"] ?? ""
                snapshot.saved = meta["saved"] ?? ""
                snapshot.head = meta["head"] ?? ""
                snapshot.headStamp = meta["head_stamp"] ?? ""
                snapshot.day = meta["day"] ?? ""
                snapshot.liveInode = UInt64(meta["live_inode"] ?? "") ?? 0
                snapshot.spareInode = UInt64(meta["spare_inode"] ?? "") ?? 0
                snapshot.outputTime = Int64(meta["output_time"] ?? "") ?? 0
                snapshot.pages = Int(meta["pages"] ?? "") ?? 0
                snapshot.files = Int(meta["files"] ?? "") ?? 0
                snapshot.images = Int(meta["images"] ?? "") ?? 0
                snapshot.warnings = Int(meta["warnings"] ?? "") ?? 0
                snapshot.videos = Int(meta["videos"] ?? "") ?? 0
                for line in (meta["problem_files"] ?? "").split(separator: "\n") {
                    let parts = line.split(separator: "\t")
                    if parts.count == 2, let count = Int(parts[1]) { snapshot.problemCounts[String(parts[0])] = count }
                }
                snapshot.notes = (meta["notes"] ?? "").split(separator: "\n").map(String.init)
                snapshot.scan = try Self.readScan(db)
                return (snapshot, nil)
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// The `scan` table: what a build that finds nothing changed reads, every row of it, so read
    /// straight from SQLite's statement.
    private static func readScan(_ db: Database) throws -> ScanIndex {
        var chunks: [String: [UInt8]] = [:]
        let statement = try db.makeStatement(sql: "SELECT chunk, folders FROM scan")
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        var code = sqlite3_step(raw)
        while code == SQLITE_ROW {
            guard let chunk = sqlite3_column_text(raw, 0) else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a scan row without a name") }
            let count = Int(sqlite3_column_bytes(raw, 1))
            chunks[String(cString: chunk)] = count > 0 ? [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(raw, 1), count: count)) : []
            code = sqlite3_step(raw)
        }
        guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection))) }
        return ScanIndex(chunks: chunks)
    }

    /// Writes the scan's chunks that changed (nil: gone).
    static func putScan(_ db: Database, _ changes: [String: [UInt8]?]) throws {
        let put = try db.makeStatement(sql: "INSERT OR REPLACE INTO scan (chunk, folders) VALUES (?, ?)")
        let drop = try db.makeStatement(sql: "DELETE FROM scan WHERE chunk = ?")
        for (chunk, bytes) in changes.sorted(by: { $0.key < $1.key }) {
            if let bytes { try put.execute(arguments: [chunk, Data(bytes)]) } else { try drop.execute(arguments: [chunk]) }
        }
    }

    /// Keeps what a scan learnt when nothing else is saved (files whose times moved but whose
    /// bytes did not): the next scan need not read them again; and HEAD, when it moved without
    /// moving any content file's history.
    func refreshScan(_ changes: [String: [UInt8]?], head: (head: String, stamp: String)? = nil) throws(Damaged) {
        do {
            try queue.write { db in
                try Self.putScan(db, changes)
                if let head { try StoreRows(db: db).meta(["head": head.head, "head_stamp": head.stamp]) }
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Fills in the rest of `snapshot` (outputs, facts, bodies, published files, differences), and
    /// reads the records matching `content` (see `readRecords`). The parts are read in parallel,
    /// each through a connection of its own; every part must come from the save the head came
    /// from (a build saving meanwhile makes the store unusable for this build).
    func readRest(into snapshot: inout Snapshot, recordsMatching content: [String: ContentScan.Entry])
        throws(Damaged) -> (known: KnownRecords, paths: Set<String>) {
        enum Part: Sendable {
            case outputs(keys: [String], outputs: [String: Output])
            case facts(Facts, published: [String: String], differences: Set<String>, vanished: Set<String>)
            case bodies(BodiesStage)
            case records(KnownRecords, Set<String>)
        }
        let saved = snapshot.saved
        let parts = parallelMap([0, 1, 2, 3]) { index -> Result<Part, Damaged> in
            if index == 3 {
                do throws(Damaged) {
                    let (known, paths) = try readRecords(matching: content)
                    return .success(.records(known, paths))
                } catch {
                    return .failure(error)
                }
            }
            do {
                return .success(try reader().read { db -> Part in
                    guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'saved'") == saved else {
                        throw Damaged(reason: "another build saved it while this one read it")
                    }
                    switch index {
                    case 0:
                        let (keys, outputs) = try Self.readOutputs(db)
                        return .outputs(keys: keys, outputs: outputs)
                    case 1:
                        let (facts, published, differences, vanished) = try Self.readFacts(db)
                        return .facts(facts, published: published, differences: differences, vanished: vanished)
                    default:
                        return .bodies(try Self.readBodies(db))
                    }
                })
            } catch let damaged as Damaged {
                return .failure(damaged)
            } catch {
                return .failure(Damaged(reason: Self.describe(error)))
            }
        }
        var records = (known: KnownRecords(), paths: Set<String>())
        for part in parts {
            switch part {
            case .failure(let error): throw error
            case .success(.outputs(let keys, let outputs)):
                snapshot.dependencyKeys = keys
                snapshot.outputs = outputs
            case .success(.facts(let facts, let published, let differences, let vanished)):
                snapshot.facts = facts
                snapshot.published = published
                snapshot.differences = differences
                snapshot.vanished = vanished
            case .success(.bodies(let bodies)):
                snapshot.bodies = bodies
            case .success(.records(let known, let paths)):
                records = (known, paths)
            }
        }
        return records
    }

    /// A connection of its own, for reading in parallel with others.
    private func reader() throws -> DatabaseQueue { try StoreReaders.open(path) }

    private static func readOutputs(_ db: Database) throws -> (keys: [String], outputs: [String: Output]) {
        let keys = try Row.fetchAll(db, sql: "SELECT id, key FROM dependency_keys ORDER BY id").map { row -> String in row[1] }
        var outputs: [String: Output] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, path, hash, dependencies, reads FROM outputs")
        while let row = try rows.next() {
            let hash: Data = row[2]
            let blob: Data = row[3]
            let reads: Data = row[4]
            outputs[row[0]] = Output(path: row[1], hash: [UInt8](hash), dependencies: Self.unpack(blob), reads: [UInt8](reads))
        }
        return (keys, outputs)
    }

    private static func readFacts(_ db: Database) throws -> (Facts, published: [String: String], differences: Set<String>, vanished: Set<String>) {
        var facts = Facts()
        let rows = try Row.fetchCursor(db, sql: "SELECT key, hash FROM facts")
        while let row = try rows.next() {
            let hash: Data = row[1]
            facts.values[row[0]] = [UInt8](hash)
        }
        var published: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT path, identity FROM published") { published[row[0]] = row[1] }
        var differences: Set<String> = [], vanished: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT path, vanished FROM differences") {
            let path: String = row[0]
            differences.insert(path)
            if row[1] as Int != 0 { vanished.insert(path) }
        }
        return (facts, published, differences, vanished)
    }

    private static func readBodies(_ db: Database) throws -> BodiesStage {
        var stage = BodiesStage()
        var rendered: [String: RenderedMarkdown] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT file, digest, html, absolute, text, links FROM bodies")
        while let row = try rows.next() {
            let digest: Data = row[1]
            let file: String = row[0]
            stage.digests[file] = [UInt8](digest)
            rendered[file] = Self.body(html: row[2], absolute: row[3], text: row[4], links: row[5])
        }
        stage.bodies = Bodies(rendered: rendered)
        return stage
    }

    /// The records kept from earlier builds whose file still has the bytes they were read from
    /// (`current`: path → SHA-256 now), read with `context`; and the paths of all records kept.
    /// With `pathsOnly`, the records themselves are not read (a `--fresh` build trusts none).
    func readRecords(matching current: [String: ContentScan.Entry], pathsOnly: Bool = false) throws(Damaged) -> (known: KnownRecords, paths: Set<String>) {
        do {
            return try queue.read { db -> (KnownRecords, Set<String>) in
                var byContext: [String: [String: (hash: [UInt8], encoded: [UInt8])]] = [:]
                var paths: Set<String> = []
                if pathsOnly {
                    paths = Set(try String.fetchAll(db, sql: "SELECT path FROM records"))
                    return (KnownRecords(records: [:], context: ""), paths)
                }
                let rows = try Row.fetchCursor(db, sql: "SELECT path, hash, context, record FROM records")
                while let row = try rows.next() {
                    let path: String = row[0]
                    paths.insert(path)
                    let hash = [UInt8](row[1] as Data)
                    guard current[path]?.hash == hash else { continue }
                    byContext[row[2] as String, default: [:]][path] = (hash, [UInt8](row[3] as Data))
                }
                // After a change of time zone, records of two contexts: the larger part is the likelier.
                let context = byContext.max { $0.value.count < $1.value.count }?.key ?? ""
                return (KnownRecords(records: byContext[context] ?? [:], context: context), paths)
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Keeps `new` records (path → hash and encoding, read with `context`) and forgets those of
    /// `gone` paths, in one transaction.
    func saveRecords(from loaded: ContentState, gone: some Sequence<String>) throws(Damaged) {
        do {
            try queue.write { db in try Self.putRecords(db, from: loaded, gone: gone) }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Records given already encoded (for tests).
    func saveRecords(_ new: [String: (hash: [UInt8], encoded: [UInt8])], context: String, gone: some Sequence<String>) throws(Damaged) {
        do {
            try queue.write { db in
                try Self.putRecords(db, context: context, written: Set(new.keys), gone: gone) { put in
                    for path in new.keys.sorted() { try put(path, new[path]!.hash, new[path]!.encoded) }
                }
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// The records `loaded` read anew, encoded as they are written (see `ContentState.forEachNewRecord`).
    static func putRecords(_ db: Database, from loaded: ContentState?, gone: some Sequence<String>) throws {
        try putRecords(db, context: loaded?.recordContext ?? "", written: Set(loaded?.newRecordPaths ?? []), gone: gone) { put in
            try loaded?.forEachNewRecord(put)
        }
    }

    /// Writes the records `each` gives (path, hash, encoding) and drops those of `gone` not among `written`.
    static func putRecords(_ db: Database, context: String, written: Set<String>, gone: some Sequence<String>,
                                   _ each: (_ put: (String, [UInt8], [UInt8]) throws -> Void) throws -> Void) throws {
        let put = try RawStatement(db, "INSERT OR REPLACE INTO records (path, hash, context, record) VALUES (?, ?, ?, ?)")
        try each { path, hash, encoded in try put.run(.text(path), .blob(hash), .text(context), .blob(encoded)) }
        let drop = try db.makeStatement(sql: "DELETE FROM records WHERE path = ?")
        for path in gone where !written.contains(path) { try drop.execute(arguments: [path]) }
    }
}

/// Read-only connections to the build store, one for each reader at a time: outputs rendered on
/// every core read the pieces they need from the store at once, where one connection (a
/// `DatabaseQueue`) would take their reads one after another. A connection is opened when every
/// one open is busy, and kept for the next read.
final class StoreReaders: Sendable {
    private let path: String
    private let free = Mutex<[DatabaseQueue]>([])
    /// The store's own connection, when no other can be opened.
    private let fallback: DatabaseQueue

    init(_ store: BuildStore) {
        path = store.path
        fallback = store.queue
    }

    /// `body` run with a connection of its own.
    func inDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        let taken = free.locked { $0.popLast() } ?? (try? Self.open(path))
        guard let queue = taken else { return try fallback.inDatabase(body) }
        defer { free.locked { $0.append(queue) } }
        return try queue.inDatabase(body)
    }

    /// A read-only connection to the store at `path`.
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "plein build store (reading)"
        configuration.prepareDatabase(BuildStore.mapped)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
