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
    static let format = "27"
    let path: String
    let queue: DatabaseQueue

    /// One output as the last build left it.
    struct Output: Sendable, Equatable {
        var path: String
        var hash: [UInt8]
        /// What it read, as indexes into `Snapshot.dependencyKeys`.
        var dependencies: [Int32]
        /// The digest of what it read (`ReadsDigest`).
        var reads: [UInt8]
    }

    /// One shard of the search index as the last build left it.
    struct SearchIndex: Sendable, Equatable {
        var name: String
        var key: String
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
        /// When the last build finished changing the output folder (nanoseconds since 1970), or
        /// 0 when it did not finish (`OutputCheck`).
        var outputTime: Int64 = 0
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
        /// The search index's shards, in the order the search page merges them: each one's cache
        /// folder (`SearchStage.key`) and what its records read, as indexes into `dependencyKeys`.
        var searchIndexes: [SearchIndex] = []
        /// The paths in which the spare differs from the output (the last build's changes), and
        /// those of them the output lacks (what the last build took away).
        var differences: Set<String> = []
        var vanished: Set<String> = []
        /// Parts of outputs a full build brought up to date (`UpdatedParts`).
        var fragments: [String: StoredFragments.Part] = [:]
        /// What this build loaded: the records it read anew are kept for the next (see
        /// `KnownRecords`), encoded when they are saved.
        var loaded: ContentState?
        /// The paths of the records the store holds.
        var recordPaths: Set<String> = []
        /// The model and its images, for `model_values` (see `ModelValues`), and the index of
        /// the members the build loaded.
        var model: SiteModel?
        var catalog: ImageCatalog?
        var memberIndex: MemberIndex?
        /// How many problems each content file (content-relative) had, and the build's notes: a
        /// build that redoes only edited records keeps both as they were.
        var problemCounts: [String: Int] = [:]
        var notes: [String] = []
        /// Whether the records were written while the build worked (`RecordsAhead`).
        var recordsSavedAhead = false
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
    /// A new file's pages are 16 KiB, not SQLite's 4: a kept list's entries (a report's feature
    /// on the map of every report, near a kilobyte with what it read) then fit in their page,
    /// not spilled to pages elsewhere in the file, and reading ten thousand of them maps a
    /// quarter of the pages. (It changes nothing in a file that has tables.)
    static func mapped(_ db: Database) throws {
        try db.execute(sql: "PRAGMA page_size = 16384")
        try db.execute(sql: "PRAGMA mmap_size = 17179869184")
    }

    /// The day a model is for, with the site's zone (`2026-11-23 Europe/Amsterdam`), as `day`
    /// keeps it: a build on another day renders again what shows which events are past.
    static func day(of model: SiteModel) -> String {
        (model.today ?? "") + " " + model.site.clock.identifier
    }

    static func describe(_ error: any Error) -> String {
        (error as? DatabaseError).map { $0.message ?? "\($0.resultCode)" } ?? "\(error)"
    }

    /// Makes every table anew; with `keepingRecords`, the records read from content files stay
    /// (they depend on nothing but the file's bytes and what they were read with).
    static func createTables(_ db: Database, keepingRecords: Bool = false) throws {
        for table in ["meta", "content", "scan", "outputs", "dependency_keys", "facts", "model_values", "bodies", "published", "differences", "fragments", "fragment_reads", "fragment_entries", "search_indexes"] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
        }
        if !keepingRecords {
            try db.execute(sql: "DROP TABLE IF EXISTS records")
            try db.execute(sql: "CREATE TABLE records (path TEXT PRIMARY KEY, hash BLOB NOT NULL, context TEXT NOT NULL, record BLOB NOT NULL)")
        }
        try db.execute(sql: """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE scan (chunk TEXT PRIMARY KEY, folders BLOB NOT NULL);
            CREATE TABLE outputs (id TEXT PRIMARY KEY, path TEXT NOT NULL, hash BLOB NOT NULL, dependencies BLOB NOT NULL, reads BLOB NOT NULL);
            CREATE TABLE dependency_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
            CREATE TABLE facts (key TEXT PRIMARY KEY, hash BLOB NOT NULL);
            CREATE TABLE model_values (key TEXT PRIMARY KEY, value BLOB NOT NULL);
            CREATE TABLE bodies (file TEXT PRIMARY KEY, digest BLOB NOT NULL, html TEXT NOT NULL, absolute TEXT, text TEXT NOT NULL, links TEXT NOT NULL);
            CREATE TABLE published (path TEXT PRIMARY KEY, identity TEXT NOT NULL);
            CREATE TABLE differences (path TEXT PRIMARY KEY, vanished INTEGER NOT NULL);
            CREATE TABLE fragments (key TEXT PRIMARY KEY, reads BLOB NOT NULL, bytes BLOB NOT NULL);
            CREATE TABLE fragment_reads (read TEXT NOT NULL, part TEXT NOT NULL, PRIMARY KEY (read, part)) WITHOUT ROWID;
            CREATE TABLE fragment_entries (list TEXT NOT NULL, id TEXT NOT NULL, reads BLOB NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (list, id)) WITHOUT ROWID;
            CREATE TABLE search_indexes (name TEXT PRIMARY KEY, position INTEGER NOT NULL, key TEXT NOT NULL, dependencies BLOB NOT NULL);
            """)
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('format', ?)", arguments: [Self.format])
    }
}
