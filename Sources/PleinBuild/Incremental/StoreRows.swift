import Foundation
import GRDB
import PleinMarkdown

/// The rows of the build store's tables, each table written here only, in a write transaction:
/// by the save of a build that loads everything (`BuildStore.save`, what differs from the last
/// build's snapshot) and by the save of a build after edits (`RecordEdit`, what the edit
/// changed). A value of nil takes a row out.
struct StoreRows {
    let db: Database

    func meta(_ values: [String: String]) throws {
        let put = try RawStatement(db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { try put.run(.text(key), .text(value)) }
    }

    /// Facts (`Facts`): each key's fingerprint.
    func facts(_ rows: some Sequence<(key: String, value: [UInt8]?)>) throws {
        try upsert(rows, put: "INSERT OR REPLACE INTO facts (key, hash) VALUES (?, ?)", drop: "DELETE FROM facts WHERE key = ?")
    }

    /// The model's pieces as the store keeps them (`ModelValues.encode`).
    func values(_ rows: some Sequence<(key: String, value: [UInt8]?)>) throws {
        try upsert(rows, put: "INSERT OR REPLACE INTO model_values (key, value) VALUES (?, ?)", drop: "DELETE FROM model_values WHERE key = ?")
    }

    private func upsert(_ rows: some Sequence<(key: String, value: [UInt8]?)>, put: String, drop: String) throws {
        let (put, drop) = (try RawStatement(db, put), try RawStatement(db, drop))
        for (key, value) in rows {
            if let value { try put.run(.text(key), .blob(value)) } else { try drop.run(.text(key)) }
        }
    }

    /// Rendered bodies, with their digests (`BuildStore.BodyRow`), and those of `gone` taken out.
    func bodies(_ rows: [(file: String, body: RenderedMarkdown, digest: [UInt8])], gone: some Sequence<String>) throws {
        try BuildStore.put(rows, db)
        let drop = try RawStatement(db, "DELETE FROM bodies WHERE file = ?")
        for file in gone { try drop.run(.text(file)) }
    }

    /// Dependency keys new to the store, each under its number.
    func keys(_ rows: some Sequence<(id: Int, key: String)>) throws {
        let put = try RawStatement(db, "INSERT INTO dependency_keys (id, key) VALUES (?, ?)")
        for (id, key) in rows { try put.run(.integer(Int64(id)), .text(key)) }
    }

    struct Output {
        let id: String
        let path: String
        let hash: [UInt8]
        /// What it read: numbers of `dependency_keys`, and their digest (`ReadsDigest`).
        let dependencies: [Int32]
        let reads: [UInt8]
    }

    /// Outputs written again whole, outputs that read what they read before with only a new
    /// hash, and outputs taken out (by id).
    func outputs(_ rows: some Sequence<Output>, hashes: some Sequence<(id: String, hash: [UInt8])>, gone: some Sequence<String>) throws {
        let put = try RawStatement(db, "INSERT OR REPLACE INTO outputs (id, path, hash, dependencies, reads) VALUES (?, ?, ?, ?, ?)")
        for row in rows { try put.run(.text(row.id), .text(row.path), .blob(row.hash), .blob(BuildStore.packed(row.dependencies)), .blob(row.reads)) }
        let putHash = try RawStatement(db, "UPDATE outputs SET hash = ? WHERE id = ?")
        for (id, hash) in hashes { try putHash.run(.blob(hash), .text(id)) }
        let drop = try RawStatement(db, "DELETE FROM outputs WHERE id = ?")
        for id in gone { try drop.run(.text(id)) }
    }

    /// Files published as they are, by output path, with their identities; `all`: these are
    /// every one (the others go).
    func published(_ rows: some Sequence<(path: String, identity: String)>, gone: some Sequence<String>, all: Bool) throws {
        if all { try db.execute(sql: "DELETE FROM published") }
        let put = try RawStatement(db, "INSERT OR REPLACE INTO published (path, identity) VALUES (?, ?)")
        for (path, identity) in rows { try put.run(.text(path), .text(identity)) }
        let drop = try RawStatement(db, "DELETE FROM published WHERE path = ?")
        for path in gone { try drop.run(.text(path)) }
    }

    /// The search index's shards, each with its cache folder (`SearchStage.key`) and what its
    /// records read: with `all`, every one in the order the search page merges them (the
    /// others go); else those made again, by name.
    func searchIndexes(_ rows: [(name: String, key: String, dependencies: [Int32])], all: Bool) throws {
        if all {
            try db.execute(sql: "DELETE FROM search_indexes")
            let put = try RawStatement(db, "INSERT INTO search_indexes (name, position, key, dependencies) VALUES (?, ?, ?, ?)")
            for (position, row) in rows.enumerated() {
                try put.run(.text(row.name), .integer(Int64(position)), .text(row.key), .blob(BuildStore.packed(row.dependencies)))
            }
        } else {
            let put = try RawStatement(db, """
                INSERT INTO search_indexes (name, position, key, dependencies) VALUES (?, 0, ?, ?)
                ON CONFLICT (name) DO UPDATE SET key = excluded.key, dependencies = excluded.dependencies
                """)
            for row in rows { try put.run(.text(row.name), .text(row.key), .blob(BuildStore.packed(row.dependencies))) }
        }
    }

    /// The site's search indexes now, in their order: those not among them go, the others take
    /// their places (each has its row: those new were made, `searchIndexes(_:all:)`).
    func searchIndexes(order: [String]) throws {
        let kept = Set(order)
        let names = try String.fetchAll(db, sql: "SELECT name FROM search_indexes")
        let drop = try RawStatement(db, "DELETE FROM search_indexes WHERE name = ?")
        for name in names where !kept.contains(name) { try drop.run(.text(name)) }
        let place = try RawStatement(db, "UPDATE search_indexes SET position = ? WHERE name = ?")
        for (position, name) in order.enumerated() { try place.run(.integer(Int64(position)), .text(name)) }
    }

    /// The paths in which the spare differs from the output, each with whether the output lacks it.
    func differences(_ rows: some Sequence<(path: String, vanished: Bool)>) throws {
        try db.execute(sql: "DELETE FROM differences")
        let put = try RawStatement(db, "INSERT INTO differences (path, vanished) VALUES (?, ?)")
        for (path, vanished) in rows { try put.run(.text(path), .integer(vanished ? 1 : 0)) }
    }
}
