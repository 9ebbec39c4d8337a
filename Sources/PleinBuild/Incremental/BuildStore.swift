import Foundation
import GRDB
import GRDBSQLite
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// What a `plein build` keeps for the next one: SQLite through GRDB, `build.sqlite` in the cache
/// folder. The content files' hashes, the facts of the model (`Facts`), each output's hash and
/// what it read, the rendered Markdown bodies, and how the spare site differs from the output.
///
/// It is written in one transaction after the new site is in place, so it describes the site
/// in the output folder or (when a build was killed between the swap and the save) an earlier
/// one, which the output folder's identity (`liveInode`) tells apart. Anything that does not
/// fit (another plein version, format, theme or settings; a damaged file) means a full build.
struct BuildStore: Sendable {
    /// Bumped whenever a table changes meaning.
    static let format = "10"
    let path: String
    let queue: DatabaseQueue

    /// One output as the last build left it.
    struct Output: Sendable, Equatable {
        var path: String
        var hash: [UInt8]
        /// What it read, as indexes into `Snapshot.dependencyKeys`.
        var dependencies: [Int32]
    }

    /// Everything the last build left. `content` and the figures are read first (enough to see
    /// that nothing changed); the rest only when there is work to do.
    struct Snapshot: Sendable {
        var fingerprint = ""
        /// The theme's files (`Remembered.themeFingerprint`): a build with another theme has work
        /// to do, though not all of it (the facts of the templates tell which outputs).
        var theme = ""
        /// Which save this is (a new value each time): a read that spans several transactions
        /// checks that they all saw the same one.
        var saved = ""
        var head = ""
        /// What HEAD was made of on disk when `head` was read (`GitStamp.text`; "" when unknown).
        var headStamp = ""
        /// The day the build was for, with the site's zone (`SiteState.builtForDay`).
        var day = ""
        /// The output folder's inode after the last build's swap.
        var liveInode: UInt64 = 0
        /// The spare's inode, or 0 when it is not known to be the site before the output.
        var spareInode: UInt64 = 0
        var pages = 0, files = 0, images = 0, warnings = 0, videos = 0
        /// What the scan saw (`ScanIndex`), and the chunks of it that differ from the last build's.
        var scan = ScanIndex()
        var scanChanges: [String: [UInt8]?] = [:]
        /// Every content file with its entry: made from `scan` for the builds that load everything.
        var content: [String: ContentScan.Entry] = [:]
        var outputs: [String: Output] = [:]
        var dependencyKeys: [String] = []
        var facts = Facts()
        var bodies = BodiesStage()
        /// Files published as they are (assets, image variants, attachments): path → identity.
        var published: [String: String] = [:]
        /// The paths in which the spare differs from the output (the last build's changes), and
        /// those of them the output lacks (what the last build took away).
        var differences: Set<String> = []
        var vanished: Set<String> = []
        /// What this build loaded: the records it read anew are kept for the next (see
        /// `KnownRecords`), encoded when they are saved.
        var loaded: ContentState?
        /// The paths of the records the store holds.
        var recordPaths: Set<String> = []
        /// The model, its images and who the members are, for `model_values` (see `ModelValues`).
        var model: SiteModel?
        var catalog: ImageCatalog?
        var members = MemberIndex([Member]())
        /// Content files (content-relative) that had a problem, and the build's notes: a build
        /// that redoes only edited reports keeps both as they were.
        var problemFiles: Set<String> = []
        var notes: [String] = []
    }

    struct Damaged: Error { let reason: String }

    /// Opens (or creates) the store in `cacheRoot`. A file that is not a store of this format is
    /// replaced by an empty one, and `reset` says why.
    static func open(cacheRoot: String) throws(Damaged) -> (store: BuildStore, reset: String?) {
        try? FileManager.default.createDirectory(atPath: cacheRoot, withIntermediateDirectories: true)
        let path = cacheRoot + "/build.sqlite"
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "plein build store"
        configuration.prepareDatabase(Self.mapped)
        func connect() throws -> DatabaseQueue { try DatabaseQueue(path: path, configuration: configuration) }
        func startAgain(_ reason: String) throws(Damaged) -> (store: BuildStore, reset: String?) {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            do {
                let queue = try connect()
                try queue.write { db in try createTables(db) }
                return (BuildStore(path: path, queue: queue), reason)
            } catch {
                throw Damaged(reason: Self.describe(error))
            }
        }
        let format: String?
        do {
            let queue = try connect()
            format = try queue.read { db -> String? in
                guard try db.tableExists("meta") else { return nil }
                return try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'")
            }
            if format == Self.format { return (BuildStore(path: path, queue: queue), nil) }
            if format == nil {
                try queue.write { db in try createTables(db) }
                return (BuildStore(path: path, queue: queue), nil)
            }
        } catch {
            // Damaged beyond reading: start again from an empty file.
            return try startAgain("the build cache was damaged (\(Self.describe(error)))")
        }
        // Another format: a new file, rather than tables dropped page by page (gigabytes, at
        // 100,000 reports).
        return try startAgain("the build cache has another format")
    }

    /// The store is read through memory mapped from its file (SQLite's `mmap_size`), not copied
    /// page by page with a call to the kernel each: a build that finds nothing changed reads the
    /// whole scan (27 MB at 100,000 reports).
    private static func mapped(_ db: Database) throws {
        try db.execute(sql: "PRAGMA mmap_size = 17179869184")
    }

    private static func describe(_ error: any Error) -> String {
        (error as? DatabaseError).map { $0.message ?? "\($0.resultCode)" } ?? "\(error)"
    }

    /// Makes every table anew; with `keepingRecords`, the records read from content files stay
    /// (they depend on nothing but the file's bytes and what they were read with).
    private static func createTables(_ db: Database, keepingRecords: Bool = false) throws {
        for table in ["meta", "content", "scan", "outputs", "dependency_keys", "facts", "model_values", "bodies", "published", "differences"] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
        }
        if !keepingRecords {
            try db.execute(sql: "DROP TABLE IF EXISTS records")
            try db.execute(sql: "CREATE TABLE records (path TEXT PRIMARY KEY, hash BLOB NOT NULL, context TEXT NOT NULL, record BLOB NOT NULL)")
        }
        try db.execute(sql: """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE scan (chunk TEXT PRIMARY KEY, folders BLOB NOT NULL);
            CREATE TABLE outputs (id TEXT PRIMARY KEY, path TEXT NOT NULL, hash BLOB NOT NULL, dependencies BLOB NOT NULL);
            CREATE TABLE dependency_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
            CREATE TABLE facts (key TEXT PRIMARY KEY, hash BLOB NOT NULL);
            CREATE TABLE model_values (key TEXT PRIMARY KEY, value BLOB NOT NULL);
            CREATE TABLE bodies (file TEXT PRIMARY KEY, digest BLOB NOT NULL, html TEXT NOT NULL, absolute TEXT, text TEXT NOT NULL, links TEXT NOT NULL);
            CREATE TABLE published (path TEXT PRIMARY KEY, identity TEXT NOT NULL);
            CREATE TABLE differences (path TEXT PRIMARY KEY, vanished INTEGER NOT NULL);
            """)
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('format', ?)", arguments: [Self.format])
    }

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
                snapshot.pages = Int(meta["pages"] ?? "") ?? 0
                snapshot.files = Int(meta["files"] ?? "") ?? 0
                snapshot.images = Int(meta["images"] ?? "") ?? 0
                snapshot.warnings = Int(meta["warnings"] ?? "") ?? 0
                snapshot.videos = Int(meta["videos"] ?? "") ?? 0
                snapshot.problemFiles = Set((meta["problem_files"] ?? "").split(separator: "\n").map(String.init))
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
    /// bytes did not): the next scan need not read them again.
    func refreshScan(_ changes: [String: [UInt8]?]) throws(Damaged) {
        do {
            try queue.write { db in try Self.putScan(db, changes) }
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
    private func reader() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "plein build store (reading)"
        configuration.prepareDatabase(Self.mapped)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    private static func readOutputs(_ db: Database) throws -> (keys: [String], outputs: [String: Output]) {
        let keys = try Row.fetchAll(db, sql: "SELECT id, key FROM dependency_keys ORDER BY id").map { row -> String in row[1] }
        var outputs: [String: Output] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, path, hash, dependencies FROM outputs")
        while let row = try rows.next() {
            let hash: Data = row[2]
            let blob: Data = row[3]
            outputs[row[0]] = Output(path: row[1], hash: [UInt8](hash), dependencies: Self.unpack(blob))
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
    private static func putRecords(_ db: Database, from loaded: ContentState?, gone: some Sequence<String>) throws {
        try putRecords(db, context: loaded?.recordContext ?? "", written: Set(loaded?.newRecordPaths ?? []), gone: gone) { put in
            try loaded?.forEachNewRecord(put)
        }
    }

    /// Writes the records `each` gives (path, hash, encoding) and drops those of `gone` not among `written`.
    private static func putRecords(_ db: Database, context: String, written: Set<String>, gone: some Sequence<String>,
                                   _ each: (_ put: (String, [UInt8], [UInt8]) throws -> Void) throws -> Void) throws {
        let put = try RawStatement(db, "INSERT OR REPLACE INTO records (path, hash, context, record) VALUES (?, ?, ?, ?)")
        try each { path, hash, encoded in try put.run(.text(path), .blob(hash), .text(context), .blob(encoded)) }
        let drop = try db.makeStatement(sql: "DELETE FROM records WHERE path = ?")
        for path in gone where !written.contains(path) { try drop.execute(arguments: [path]) }
    }

    // MARK: Writing

    /// Empties every table (but the records', unless they are not to be trusted either): the
    /// store then describes no build.
    func clear(keepingRecords: Bool = true) throws(Damaged) {
        do {
            // Emptying a table reads every page of it: through the map, each page read would stay
            // in the process's memory (200 MiB at 10,000 reports), so these are read one by one.
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA mmap_size = 0") }
            defer { try? queue.writeWithoutTransaction { db in try Self.mapped(db) } }
            try queue.write { db in try Self.createTables(db, keepingRecords: keepingRecords) }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Records, before the spare is touched, that it can no longer be vouched for: a build
    /// killed while it works on the spare leaves a store that says so.
    func forgetSpare() throws(Damaged) {
        do {
            try queue.write { db in try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('spare_inode', '0')") }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Saves `next` in one transaction, writing only what differs from `previous`.
    func save(_ next: Snapshot, previous: Snapshot?, timings: Bool = false) throws(Damaged) {
        let previous = previous ?? Snapshot()
        do {
            try queue.write { db in
                var timer = PhaseTimer(enabled: timings)
                let meta: [String: String] = [
                    "version": PleinVersion.number, "fingerprint": next.fingerprint, "theme": next.theme, "head": next.head, "head_stamp": next.headStamp, "day": next.day, "saved": UUID().uuidString,
                    "live_inode": String(next.liveInode), "spare_inode": String(next.spareInode), "pages": String(next.pages),
                    "files": String(next.files), "images": String(next.images), "warnings": String(next.warnings), "videos": String(next.videos),
                    "problem_files": next.problemFiles.sorted().joined(separator: "\n"), "notes": next.notes.joined(separator: "\n"),
                ]
                let putMeta = try db.makeStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                for (key, value) in meta { try putMeta.execute(arguments: [key, value]) }

                // (Without a previous build the table is empty: every chunk goes in.)
                try Self.putScan(db, previous.scan.isEmpty ? next.scan.chunks.mapValues { Optional($0) } : next.scanChanges)
                timer.lap("    save: meta and scan")

                // Rows go in in key order: the tables' B-trees then grow at their end, and each
                // page is written once rather than split and written again (at 10,000 reports a
                // first save wrote twice its size in random order).

                let putKey = try RawStatement(db, "INSERT INTO dependency_keys (id, key) VALUES (?, ?)")
                for index in previous.dependencyKeys.count..<next.dependencyKeys.count {
                    try putKey.run(.integer(Int64(index)), .text(next.dependencyKeys[index]))
                }
                let putOutput = try RawStatement(db, "INSERT OR REPLACE INTO outputs (id, path, hash, dependencies) VALUES (?, ?, ?, ?)")
                for (id, output) in next.outputs.sorted(by: { $0.key < $1.key }) where previous.outputs[id] != output {
                    try putOutput.run(.text(id), .text(output.path), .blob(output.hash), .blob(Self.packed(output.dependencies)))
                }
                let dropOutput = try db.makeStatement(sql: "DELETE FROM outputs WHERE id = ?")
                for id in previous.outputs.keys where next.outputs[id] == nil { try dropOutput.execute(arguments: [id]) }

                let putFact = try RawStatement(db, "INSERT OR REPLACE INTO facts (key, hash) VALUES (?, ?)")
                for (key, hash) in next.facts.values.sorted(by: { $0.key < $1.key }) where previous.facts.values[key] != hash {
                    try putFact.run(.text(key), .blob(hash))
                }
                let dropFact = try db.makeStatement(sql: "DELETE FROM facts WHERE key = ?")
                for key in previous.facts.values.keys where next.facts.values[key] == nil { try dropFact.execute(arguments: [key]) }

                timer.lap("    save: outputs, dependency keys and facts")
                try Self.putValues(db, next, previous: previous)
                timer.lap("    save: model values")

                let putBody = try Self.bodyStatement(db)
                for (file, digest) in next.bodies.digests.sorted(by: { $0.key < $1.key }) where previous.bodies.digests[file] != digest {
                    guard let body = next.bodies.bodies[file] else { continue }
                    try Self.put(body, file: file, digest: digest, with: putBody)
                }
                let dropBody = try db.makeStatement(sql: "DELETE FROM bodies WHERE file = ?")
                for file in previous.bodies.digests.keys where next.bodies.digests[file] == nil { try dropBody.execute(arguments: [file]) }

                try db.execute(sql: "DELETE FROM published")
                let putPublished = try db.makeStatement(sql: "INSERT INTO published (path, identity) VALUES (?, ?)")
                for (path, identity) in next.published { try putPublished.execute(arguments: [path, identity]) }
                timer.lap("    save: bodies")
                try Self.putRecords(db, from: next.loaded, gone: next.recordPaths.filter { next.content[$0] == nil })
                timer.lap("    save: records")
                try db.execute(sql: "DELETE FROM differences")
                let putDifference = try db.makeStatement(sql: "INSERT INTO differences (path, vanished) VALUES (?, ?)")
                for path in next.differences { try putDifference.execute(arguments: [path, next.vanished.contains(path) ? 1 : 0]) }
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// The model's pieces whose facts changed since `previous` (every piece after a full build
    /// without one), the site's settings and the members' index (see `ModelValues`).
    private static func putValues(_ db: Database, _ next: Snapshot, previous: Snapshot) throws {
        guard let model = next.model, let catalog = next.catalog else { return }
        let pieces = ModelValues.pieces(of: model, images: catalog)
        let changed = pieces.keys.filter { key in previous.facts.values[key] == nil || previous.facts.values[key] != next.facts.values[key] }.sorted()
        let put = try RawStatement(db, "INSERT OR REPLACE INTO model_values (key, value) VALUES (?, ?)")
        // The encodings of a whole model (a tenth of a build's memory) are never held at once.
        try forEachParallelMapped(changed, { key in (key, ModelValues.encode(pieces[key]!)) }) { key, value in
            try put.run(.text(key), .blob(value))
        }
        try put.run(.text(ModelValues.siteKey), .blob(ModelValues.encode(model.site)))
        try put.run(.text(ModelValues.membersKey), .blob(ModelValues.encode(next.members)))
        let drop = try db.makeStatement(sql: "DELETE FROM model_values WHERE key = ?")
        for key in previous.facts.values.keys where next.facts.values[key] == nil && pieces[key] == nil { try drop.execute(arguments: [key]) }
    }

    /// A piece of the model as `model_values` keeps it (see `ModelValues`).
    static func value<Value: Decodable>(_ db: Database, _ key: String, as type: Value.Type) throws -> Value? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM model_values WHERE key = ?"), arguments: [key])
            .flatMap { ModelValues.decode(type, Array($0)) }
    }

    // MARK: Encodings

    static func pack(_ values: [Int32]) -> Data { Data(packed(values)) }

    static func packed(_ values: [Int32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    private static func unpack(_ data: Data) -> [Int32] {
        let count = data.count / 4
        var values = [Int32](repeating: 0, count: count)
        values.withUnsafeMutableBytes { target in _ = data.copyBytes(to: target, count: count * 4) }
        return values.map { Int32(littleEndian: $0) }
    }
}
