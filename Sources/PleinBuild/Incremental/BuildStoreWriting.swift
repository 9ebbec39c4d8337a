import Foundation
import GRDB
import GRDBSQLite
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

extension BuildStore {
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

    /// Records, before the spare is touched, that it can no longer be vouched for, nor the output
    /// checked for changes by hand (`outputTime`): a build killed while it works on the spare
    /// leaves a store that says so.
    func forgetSpare() throws(Damaged) {
        try forgetFolder("spare_inode")
        try forgetFolder("output_time")
    }

    /// Every file of the output the last build made, relative and each ended by a NUL byte (its
    /// outputs and the files it published as they are), and how many.
    func outputPaths() throws(Damaged) -> (paths: [UInt8], count: Int) {
        do {
            return try queue.read { db in
                var paths: [UInt8] = []
                var count = 0
                let rows = try String.fetchCursor(db, sql: "SELECT path FROM outputs UNION ALL SELECT path FROM published")
                while let path = try rows.next() {
                    paths.append(contentsOf: path.utf8)
                    paths.append(0)
                    count += 1
                }
                return (paths, count)
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Records that plein finished changing the output folder now (`Snapshot.outputTime`): from
    /// here on, a change to a file in it is someone else's.
    func stampOutput(_ output: String) throws(Damaged) {
        let now = OutputCheck.now(near: output)
        do {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('output_time', ?)", arguments: [String(now)])
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Records that the spare is again the one of this inode, as the store describes it (after a
    /// build that gave it back untouched: `StoreSession.outputUntouched`).
    func vouchForSpare(inode: UInt64) throws(Damaged) {
        do {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('spare_inode', ?)", arguments: [String(inode)])
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Records that the spare no longer differs from the output (`StoreSession.twinSpare`).
    func forgetDifferences() throws(Damaged) {
        do {
            try queue.write { db in try db.execute(sql: "DELETE FROM differences") }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    private func forgetFolder(_ key: String) throws(Damaged) {
        do {
            try queue.write { db in try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, '0')", arguments: [key]) }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// Saves `next` in one transaction, writing only what differs from `previous`.
    func save(_ next: Snapshot, previous: Snapshot?, timings: Bool = false) throws(Damaged) {
        let known = previous != nil
        let previous = previous ?? Snapshot()
        do {
            try queue.write { db in
                var timer = PhaseTimer(enabled: timings)
                let meta: [String: String] = [
                    "version": PleinVersion.number, "fingerprint": next.fingerprint, "theme": next.theme, "head": next.head, "head_stamp": next.headStamp, "day": next.day, "saved": UUID().uuidString,
                    "live_inode": String(next.liveInode), "spare_inode": String(next.spareInode), "pages": String(next.pages),
                    "files": String(next.files), "images": String(next.images), "warnings": String(next.warnings), "videos": String(next.videos),
                    "problem_files": next.problemCounts.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }.joined(separator: "\n"), "notes": next.notes.joined(separator: "\n"),
                ]
                let rows = StoreRows(db: db)
                try rows.meta(meta)

                // (Without a previous build the table is empty: every chunk goes in.)
                try Self.putScan(db, previous.scan.isEmpty ? next.scan.chunks.mapValues { Optional($0) } : next.scanChanges)
                timer.lap("    save: meta and scan")

                // Rows go in in key order: the tables' B-trees then grow at their end, and each
                // page is written once rather than split and written again (at 10,000 reports a
                // first save wrote twice its size in random order).

                try rows.keys((previous.dependencyKeys.count..<next.dependencyKeys.count).lazy.map { ($0, next.dependencyKeys[$0]) })
                // (What changed is found before it is sorted: an edit changes few of 19,000 outputs
                // and 100,000 facts. An output that read what it read before has only its hash
                // written again.)
                var (outputs, hashes): ([StoreRows.Output], [(id: String, hash: [UInt8])]) = ([], [])
                for (id, output) in next.outputs.filter({ previous.outputs[$0.key] != $0.value }).sorted(by: { $0.key < $1.key }) {
                    if let old = previous.outputs[id], old.path == output.path, old.reads == output.reads, old.dependencies == output.dependencies {
                        hashes.append((id, output.hash))
                    } else {
                        outputs.append(StoreRows.Output(id: id, path: output.path, hash: output.hash, dependencies: output.dependencies, reads: output.reads))
                    }
                }
                try rows.outputs(outputs, hashes: hashes, gone: previous.outputs.keys.filter { next.outputs[$0] == nil })

                let changedFacts = next.facts.values.filter { previous.facts.values[$0.key] != $0.value }
                let goneFacts = previous.facts.values.keys.filter { next.facts.values[$0] == nil }
                try rows.facts(changedFacts.sorted(by: { $0.key < $1.key }).map { ($0.key, Optional($0.value)) } + goneFacts.map { ($0, nil) })
                // The parts of outputs kept for edits that read a fact this build changed (all of
                // them, when the facts they were made from are not known).
                try StoredFragments.forget(readersOf: Array(changedFacts.keys) + goneFacts, db, all: known ? 2_000 : -1)
                try StoredFragments.save(next.fragments, db)

                timer.lap("    save: outputs, dependency keys and facts")
                // (The pieces of the kinds whose facts changed: after a new title, none.)
                try Self.putValues(rows, next, previous: previous, kinds: known ? Set((changedFacts.keys + goneFacts).compactMap { Dependency(key: $0)?.kind }) : nil)
                timer.lap("    save: model values")

                try rows.bodies(next.bodies.digests.sorted(by: { $0.key < $1.key }).compactMap { file, digest in
                    previous.bodies.digests[file] == digest ? nil : next.bodies.bodies[file].map { (file, $0, digest) }
                }, gone: previous.bodies.digests.keys.filter { next.bodies.digests[$0] == nil })
                try rows.published(next.published.map { ($0.key, $0.value) }, gone: [], all: true)
                try rows.searchIndexes(next.searchIndexes.map { ($0.name, $0.key, $0.dependencies) }, all: true)
                timer.lap("    save: bodies")
                // (Unless written while the build worked: `RecordsAhead`.)
                if !next.recordsSavedAhead {
                    try Self.putRecords(db, from: next.loaded, gone: next.recordPaths.filter { next.content[$0] == nil })
                    timer.lap("    save: records")
                }
                try rows.differences(next.differences.map { ($0, next.vanished.contains($0)) })
            }
        } catch {
            throw Damaged(reason: Self.describe(error))
        }
    }

    /// The model's pieces whose facts changed since `previous` (every piece after a full build
    /// without one) and the site's settings (see `ModelValues`).
    /// With `kinds` (those of the facts that changed), only the pieces of those kinds are made:
    /// the whole model's cost a new title's save 200 ms at 10,000 reports, to find none changed.
    private static func putValues(_ rows: StoreRows, _ next: Snapshot, previous: Snapshot, kinds: Set<Dependency.Kind>?) throws {
        guard let model = next.model, let catalog = next.catalog else { return }
        let pieces = ModelValues.pieces(of: model, images: catalog, kinds: kinds)
        let changed = pieces.keys.filter { key in previous.facts.values[key] == nil || previous.facts.values[key] != next.facts.values[key] }.sorted()
        // The encodings of a whole model (a tenth of a build's memory) are never held at once:
        // written a batch at a time.
        var batch: [(key: String, value: [UInt8]?)] = []
        try forEachParallelMapped(changed, { key in (key, ModelValues.encode(pieces[key]!)) }) { key, value in
            batch.append((key, value))
            if batch.count == 2048 { try rows.values(batch); batch = [] }
        }
        batch.append((ModelValues.siteKey, ModelValues.encode(model.site)))
        if let index = next.memberIndex { batch.append((ModelValues.memberIndexKey, index.packed)) }
        try rows.values(batch + previous.facts.values.keys.filter { next.facts.values[$0] == nil && pieces[$0] == nil }.map { ($0, nil) })
    }

    /// A piece of the model as `model_values` keeps it (see `ModelValues`).
    static func value<Value: Decodable>(_ db: Database, _ key: String, as type: Value.Type) throws -> Value? {
        try bytes(db, key).flatMap { ModelValues.decode(type, $0) }
    }

    /// The stored bytes of one value of `model_values`, as they are.
    static func bytes(_ db: Database, _ key: String) throws -> [UInt8]? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM model_values WHERE key = ?"), arguments: [key]).map { [UInt8]($0) }
    }

    /// The pieces whose keys start with `prefix`, by the rest of the key, as the store keeps them
    /// (thousands at once: through SQLite's own calls).
    static func values(_ db: Database, prefix: String) throws -> [(id: String, bytes: [UInt8])] {
        var rows: [(id: String, bytes: [UInt8])] = []
        // (The keys' prefixes are ASCII: SQLite's `substr` counts characters.)
        try RawStatement(db, "SELECT substr(key, ?), value FROM model_values WHERE key >= ? AND key < ?")
            .each(.integer(Int64(prefix.utf8.count + 1)), .text(prefix), .text(prefix + "\u{10FFFF}")) { row in rows.append((row.text(0), row.blob(1))) }
        return rows
    }

    // MARK: Encodings

    static func packed(_ values: [Int32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    static func unpack(_ data: Data) -> [Int32] {
        let count = data.count / 4
        var values = [Int32](repeating: 0, count: count)
        values.withUnsafeMutableBytes { target in _ = data.copyBytes(to: target, count: count * 4) }
        return values.map { Int32(littleEndian: $0) }
    }
}
