import Foundation
import GRDB
import GRDBSQLite
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// What the last build knew, as an update of edited records reads it (`RecordUpdate`): its
/// settings, the content it loaded, the pieces of its model, its problems, its bodies' digests,
/// its facts, and for each output what it read and its hash. Asked a piece at a time, so that an
/// edit reads what it reaches and no more.
///
/// Whatever a memory cannot give (a row missing, or one that cannot be read) it answers nil
/// or throws: the update then gives way to the build that loads everything, never traps.
///
/// `StoreMemory` is the build store's (`plein build`, read lazily from SQLite); `ServeMemory`
/// is `plein serve`'s, in memory. The update reads nothing else of the last build: the output's
/// side (the spare, the served files) and keeping what it made are its caller's.
protocol BuildMemory: Sendable {
    /// The site's settings, as the last model had them.
    func settings() throws -> SiteConfig?
    /// The value of the model piece stored under `key` (`PieceKind.key`).
    func piece<Value: Decodable>(_ key: String, as type: Value.Type) throws -> Value?
    /// The content an edit of `edited` reaches (`slice`, or more), as the last build loaded it:
    /// the edited files as they were (the new ones, `added`, not there; the deleted ones,
    /// `removed`, there), with that load's state and problems, and where the edited files are to
    /// be read again from.
    func contentBefore(_ slice: ContentSlice, edited: Set<String>, added: Set<String>, removed: Set<String>, options: BuildOptions,
                       timer: inout PhaseTimer) throws -> ContentBefore
    /// How many problems the last build found in each content file (content-relative).
    func problemCounts() -> [String: Int]
    /// The content files whose text, as the last build read it, may hold one of these addresses
    /// (`Email.key`: case aside), or those the memory cannot look into.
    func files(writing addresses: [String]) throws -> Set<String>
    /// The model the last build made, with every piece but the reports', of which those of
    /// `reports` (see `StoredModel.restore`); nil when a piece it needs is missing.
    func model(site: SiteConfig, reports: Set<String>, membersAndGroups: Bool, members: Set<String>) throws -> SiteModel?
    /// The digests of the bodies of these files that the last build rendered.
    func bodyDigests(_ files: some Sequence<String>) throws -> [String: [UInt8]]
    /// The last build's facts of these keys (`Facts`), those it had.
    func facts(_ keys: some Sequence<String>) throws -> [String: [UInt8]]
    /// The outputs that read any of `keys`, as the last build left them.
    func readers(of keys: Set<String>) throws -> [RememberedOutput]
    /// Where the last build wrote each of these outputs (by `OutputID.key`); nil when it had not
    /// one of them.
    func paths(of outputs: Set<String>) throws -> [String: String]?
    /// The model to render from: `model`, the model the update made (of the pieces `model(…)`
    /// gave, some made again) and the published forms of `images` (new photos), over the rest of
    /// the last build's pieces, without those of `gone`;
    /// the bodies rendered again over the last build's; and the parts of outputs kept for what did
    /// not read a fact in `changed` (`FragmentMemory`).
    func source(model: SiteModel, images: ImageCatalog, gone: Set<String>, bodies: [String: RenderedMarkdown], changed: [String]) -> RememberedSource
    /// The search index's shards, in order: each one's name, key (its cache folder) and whether
    /// it read one of `keys`.
    func searchIndexes(reading keys: Set<String>) throws -> [(name: String, key: String, reads: Bool)]
    /// The files the last build published under the output folder `prefix` (ending with "/"),
    /// each with its identity (`published`).
    func published(under prefix: String) throws -> [String: String]
}

/// The content an edit reaches as the last build loaded it (`BuildMemory.contentBefore`).
struct ContentBefore {
    let content: Content
    let state: ContentState
    /// The problems of that load.
    let diagnostics: [Diagnostic]
    /// The content folder, as far as the edit is to read it.
    let fs: ContentFS
}

/// A memory could not give what an edit needs.
struct MemoryLacks: Error { var reason = "" }

/// An output as the last build left it.
struct RememberedOutput: Sendable {
    let key: String
    let id: OutputID
    let path: String
    let hash: [UInt8]
    /// The digest of what it read (`ReadsDigest`).
    let reads: [UInt8]
}

/// What an update renders from (`BuildMemory.source`): the model, and after the render, the
/// pieces it should have had and did not get, and the parts of outputs made for the memory.
struct RememberedSource {
    let model: any ModelSource
    /// The pieces of the update's model, by key, as the memory keeps them (none for one that
    /// keeps the model itself).
    let pieces: [String: any Encodable & Sendable]
    /// The keys of pieces the memory should hold and did not give: what was rendered from them is
    /// not right.
    let damaged: @Sendable () -> [String]
    /// The parts of outputs made in the render, to keep (`StoredFragments.Part`).
    let made: @Sendable () -> [String: StoredFragments.Part]
}

/// The build store as the last `plein build` left it (`previous`), with the scan of this one
/// (`next`): `BuildMemory` read from SQLite, a row at a time.
struct StoreMemory: BuildMemory {
    let store: BuildStore
    let previous: BuildStore.Snapshot
    let next: BuildStore.Snapshot
    /// Connections of their own for the readers of every core.
    let readers: StoreReaders

    init(store: BuildStore, previous: BuildStore.Snapshot, next: BuildStore.Snapshot) {
        (self.store, self.previous, self.next) = (store, previous, next)
        readers = StoreReaders(store)
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try store.queue.read(body)
    }

    func settings() throws -> SiteConfig? {
        try read { db in try BuildStore.value(db, ModelValues.siteKey, as: SiteConfig.self) }
    }

    func piece<Value: Decodable>(_ key: String, as type: Value.Type) throws -> Value? {
        try read { db in try BuildStore.value(db, key, as: type) }
    }

    /// The slice of the content loaded from the store's records (each file's as the last build
    /// read it; the edited files' as they were), the members resolved with the members' index
    /// when the slice has none of their records.
    func contentBefore(_ slice: ContentSlice, edited: Set<String>, added: Set<String>, removed: Set<String>, options: BuildOptions,
                       timer: inout PhaseTimer) throws -> ContentBefore {
        guard let site = try settings() else { throw MemoryLacks(reason: "the site's settings") }
        let known = try records(in: slice, edited: edited, context: KnownRecords.context(clock: site.clock))
        // Each edited file is read as it was before from its record (else it had a problem then);
        // the new ones are not there before.
        guard edited.subtracting(added).allSatisfy({ known.records[$0] != nil }) else { throw MemoryLacks(reason: "an edited file's record as it was") }
        timer.lap("    their records (\(known.records.count))")
        let fs = ContentFS.disk(options.content).only { [slice] path, folder in slice.includes(path, folder: folder) }
        // The content as it was: without the new files, with the deleted ones (in folders still
        // there), whose records are known.
        guard removed.allSatisfy({ ContentFS.isFolder(options.content + "/" + $0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) }) else {
            throw MemoryLacks(reason: "a deleted file's folder")
        }
        let asBefore = (added.isEmpty ? fs : fs.only { [added] path, _ in !added.contains(path) })
            .listing(previous.scan.entries(removed).mapValues { Int($0.size) })
        let (result, state) = ContentLoader.loadKeepingState(asBefore, known: known, timings: options.timings)
        var content = result.content
        var diagnostics = result.diagnostics
        // A deleted photo is listed where it was, but its first bytes are gone: the last build read
        // them without a problem (or it would not have published the photo), and they were of the
        // kind its name says (or that was a problem too).
        let photos = removed.filter(RecordUpdate.isPhoto)
        if !photos.isEmpty {
            diagnostics.removeAll { diagnostic in
                guard photos.contains(diagnostic.file), case .unreadable = diagnostic.problem else { return false }
                return true
            }
            for path in photos {
                guard let image = content.images[path] else { continue }
                content.images[path] = ImageFile(path: path, size: image.size, kind: ImageFile.Kind(extension: FileRole.splitExtension(path).ext))
            }
        }
        if let base = options.baseURL { content.site = content.site.with(baseURL: base) }
        if !slice.membersRead {
            guard let index = try memberIndex() else { throw MemoryLacks(reason: "the members' index") }
            content.resolveMembers(with: index)
        }
        return ContentBefore(content: content, state: state, diagnostics: diagnostics, fs: fs)
    }

    /// The records of the files in `slice` whose bytes are those they were read from: as they
    /// are now for the files not in `edited`, as they were before the edit for those in it.
    /// Only records read in `context` (`KnownRecords.context`).
    private func records(in slice: ContentSlice, edited: Set<String>, context: String) throws -> KnownRecords {
        var rows: [(path: String, hash: [UInt8], context: String, record: [UInt8])] = []
        try read { db in
            func take(_ statement: Statement, _ arguments: StatementArguments) throws {
                let cursor = try Row.fetchCursor(statement, arguments: arguments)
                while let row = try cursor.next() {
                    let path: String = row[0]
                    guard slice.includes(path, folder: false) else { continue }
                    rows.append((path, [UInt8](row[1] as Data), row[2], [UInt8](row[3] as Data)))
                }
            }
            let range = try db.makeStatement(sql: "SELECT path, hash, context, record FROM records WHERE path >= ? AND path < ?")
            let one = try db.makeStatement(sql: "SELECT path, hash, context, record FROM records WHERE path = ?")
            for (from, to) in slice.folderRanges + (slice.groupFiles ? [(ContentLayout.groups + "/", ContentLayout.groups + "0")] : []) {
                try take(range, [from, to])
            }
            for path in slice.files { try take(one, [path]) }
        }
        // A record is the file's when its bytes are those it was read from: now for the files the
        // edit left as they were, before it for the edited ones.
        let now = next.scan.entries(rows.map(\.path).filter { !edited.contains($0) })
        let then = previous.scan.entries(edited)
        var known = KnownRecords(records: [:], context: context)
        for row in rows where row.context == context && row.hash == (edited.contains(row.path) ? then : now)[row.path]?.hash {
            known.records[row.path] = (row.hash, row.record)
        }
        return known
    }

    func problemCounts() -> [String: Int] { previous.problemCounts }

    func files(writing addresses: [String]) throws -> Set<String> {
        let keys = addresses.map(Email.key)
        var found: Set<String> = []
        try read { db in
            // Each record holds its file's text as written; those without an `@` hold no address.
            let cursor = try Row.fetchCursor(db, sql: "SELECT path, record FROM records WHERE instr(record, X'40') > 0")
            while let row = try cursor.next() {
                let path: String = row[0]
                let data = row.dataNoCopy(atIndex: 1) ?? Data()
                if data.withUnsafeBytes({ bytes in keys.contains { Email.mayBeWritten($0, in: bytes) } }) { found.insert(path) }
            }
            // (A text read with a warning its record would not show again, NUL bytes, has none kept.)
            let texts = previous.problemCounts.keys.filter { [".md", ".yaml", ".yml"].contains(where: $0.lowercased().hasSuffix) }
            for path in texts.sorted() where try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM records WHERE path = ?)", arguments: [path])! {
                found.insert(path)
            }
        }
        return found
    }

    /// Who the members are (ids and addresses), for a slice without the members' records.
    private func memberIndex() throws -> MemberIndex? {
        try read { db in try BuildStore.bytes(db, ModelValues.memberIndexKey).flatMap(MemberIndex.init(packed:)) }
    }

    func model(site: SiteConfig, reports: Set<String>, membersAndGroups: Bool, members: Set<String>) throws -> SiteModel? {
        // (Every member's and group's pieces are read through a connection of their own, so that
        // another thread can go on with the store's.)
        membersAndGroups
            ? try StoreReaders.open(store.path).read { db in try StoredModel.restore(db, site: site, reports: reports) }
            : try read { db in try StoredModel.restore(db, site: site, reports: reports, membersAndGroups: false, members: members) }
    }

    func bodyDigests(_ files: some Sequence<String>) throws -> [String: [UInt8]] {
        try column("SELECT digest FROM bodies WHERE file = ?", files)
    }

    func facts(_ keys: some Sequence<String>) throws -> [String: [UInt8]] {
        try column("SELECT hash FROM facts WHERE key = ?", keys)
    }

    /// The blob `sql` gives for each of `keys`, those it has.
    private func column(_ sql: String, _ keys: some Sequence<String>) throws -> [String: [UInt8]] {
        try read { db in
            let statement = try db.makeStatement(sql: sql)
            var found: [String: [UInt8]] = [:]
            for key in keys {
                if let bytes = try Data.fetchOne(statement, arguments: [key]) { found[key] = [UInt8](bytes) }
            }
            return found
        }
    }

    func paths(of outputs: Set<String>) throws -> [String: String]? {
        try read { db in
            var paths: [String: String] = [:]
            for key in outputs {
                guard let path = try String.fetchOne(db, sql: "SELECT path FROM outputs WHERE id = ?", arguments: [key]) else { return nil }
                paths[key] = path
            }
            return paths
        }
    }

    /// (The pieces of `model`, those restored and those made again, in place of the store's.)
    func source(model made: SiteModel, images: ImageCatalog, gone: Set<String>, bodies: [String: RenderedMarkdown], changed: [String]) -> RememberedSource {
        let pieces = ModelValues.pieces(of: made, images: images)
        let fragments = StoredFragments(readers: readers, changed: changed)
        let model = StoredModel(readers: readers, site: made.site, made: pieces, gone: gone, bodies: bodies, fragments: fragments)
        return RememberedSource(model: model, pieces: pieces, damaged: { model.damaged }, made: { fragments.made })
    }

    func searchIndexes(reading keys: Set<String>) throws -> [(name: String, key: String, reads: Bool)] {
        try read { db in
            var wanted: Set<Int32> = []
            for key in keys {
                if let id = try Int32.fetchOne(db, sql: "SELECT id FROM dependency_keys WHERE key = ?", arguments: [key]) { wanted.insert(id) }
            }
            return try Row.fetchAll(db, sql: "SELECT name, key, dependencies FROM search_indexes ORDER BY position").map { row in
                (row[0], row[1], BuildStore.unpack(row[2]).contains(where: wanted.contains))
            }
        }
    }

    func published(under prefix: String) throws -> [String: String] {
        try read { db in
            var published: [String: String] = [:]
            // (`prefix` ends with "/"; "0" is the character after it.)
            for row in try Row.fetchAll(db, sql: "SELECT path, identity FROM published WHERE path >= ? AND path < ?",
                                        arguments: [prefix, String(prefix.dropLast()) + "0"]) {
                published[row[0]] = row[1]
            }
            return published
        }
    }

    /// An output whose key names none this build knows: one it cannot render.
    struct UnknownOutput: Error {}

    /// The outputs that read any of `keys`, found in what each output read (its dependencies, as
    /// indexes into `dependency_keys`), read straight from SQLite's statement, half of the
    /// outputs on each core.
    func readers(of keys: Set<String>) throws -> [RememberedOutput] {
        guard !keys.isEmpty else { return [] }
        // (Every output reads the site's settings, unrecorded.)
        let every = keys.contains(Facts.siteKey)
        let (ids, last) = try read { db -> (Set<Int32>, Int64) in
            var ids: Set<Int32> = []
            for key in keys {
                if let id = try Int32.fetchOne(db, sql: "SELECT id FROM dependency_keys WHERE key = ?", arguments: [key]) { ids.insert(id) }
            }
            return (ids, try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM outputs") ?? 0)
        }
        guard !ids.isEmpty || every else { return [] }
        let middle = last / 2 + 1
        let halves = parallelMap([(Int64.min, middle), (middle, Int64.max)]) { [readers] range in
            Result { try readers.inDatabase { db in try Self.readers(of: ids, every: every, rows: range, db) } }
        }
        return try halves.flatMap { try $0.get() }
    }

    /// Of the outputs whose rows are in `rows`, those that read any of `ids` (all: `every`).
    private static func readers(of ids: Set<Int32>, every: Bool, rows: (from: Int64, to: Int64), _ db: Database) throws -> [RememberedOutput] {
        let wanted = Array(ids)
        var found: [RememberedOutput] = []
        let statement = try db.makeStatement(sql: "SELECT id, path, hash, dependencies, reads FROM outputs WHERE rowid >= ? AND rowid < ?")
        try statement.setArguments([rows.from, rows.to])
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while sqlite3_step(raw) == SQLITE_ROW {
            let count = Int(sqlite3_column_bytes(raw, 3)) / 4
            // (Millions of reads at 100,000 reports, a few keys: compared one by one, not hashed.)
            var hit = every
            if !hit, count > 0, let blob = sqlite3_column_blob(raw, 3) {
                let reads = UnsafeRawBufferPointer(start: blob, count: count * 4)
                for index in 0..<count {
                    let read = Int32(littleEndian: reads.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
                    if wanted.count <= 16 ? wanted.contains(read) : ids.contains(read) {
                        hit = true
                        break
                    }
                }
            }
            guard hit, let key = sqlite3_column_text(raw, 0), let path = sqlite3_column_text(raw, 1) else { continue }
            let hashCount = Int(sqlite3_column_bytes(raw, 2))
            let hash = hashCount > 0 ? [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(raw, 2), count: hashCount)) : []
            let digestCount = Int(sqlite3_column_bytes(raw, 4))
            let digest = digestCount > 0 ? [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(raw, 4), count: digestCount)) : []
            let name = String(cString: key)
            // (An output whose key names none is one this build cannot render: it goes the whole way.)
            guard let id = OutputID(key: name) else { throw UnknownOutput() }
            found.append(RememberedOutput(key: name, id: id, path: String(cString: path), hash: hash, reads: digest))
        }
        return found
    }
}
