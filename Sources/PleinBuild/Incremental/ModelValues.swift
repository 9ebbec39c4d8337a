import Foundation
import GRDB
import PleinCore
import PleinMarkdown
import PleinModel
import PleinRender
import Synchronization

/// The pieces of the model as values, kept in the build store (`model_values`) beside their
/// facts: what a build after edits of records (`RecordEdit`) models those records in, and renders
/// its outputs from, reading only the pieces they read (`StoredModel`). Each piece is kept under
/// its fact's key (`Dependency.key`), and written again only when that fact's fingerprint
/// changed; the site's settings under a key of its own.
enum ModelValues {
    static let siteKey = "value:site"
    /// The members by id and address (`MemberIndex`, as `packed`): what a build after an edit of reports
    /// only resolves their authors and finds members' addresses in their texts with, without
    /// the members' records. Members come and go, and change their addresses, only in a build
    /// that loads everything, which writes it.
    static let memberIndexKey = "value:member-index"

    /// Every piece of `model` and `images` that an output reads, by key, and the narrower views
    /// of reports that lists, maps and feeds read of every report (`ReportTimes`, `ReportReplies`,
    /// `ReportHeadline`: a page that reads them of every report does not decode every report)
    /// and when each member joined (the site's feed reads it of every member).
    ///
    /// With `kinds`, only the pieces of those kinds (of pieces or views) are made: a save makes
    /// the kinds of the facts its build changed, not the whole model (after a new title, none).
    static func pieces(of model: SiteModel, images: ImageCatalog, kinds: Set<Dependency.Kind>? = nil) -> [String: any Encodable & Sendable] {
        var pieces: [String: any Encodable & Sendable] = [:]
        if kinds == nil {
            pieces.reserveCapacity(model.members.count * 2 + model.groups.count + model.reports.count * 3 + images.images.count + 16)
        }
        for kind in ModelPieces.every where kinds?.contains(kind.kind) ?? true {
            for (key, value, _) in kind.entries(model, images, nil) { pieces[key] = value }
        }
        for kind in ModelViews.every where kind.stored && kinds?.contains(kind.kind) ?? true {
            let (ids, view) = kind.views(model, images)
            for id in ids { if let (key, value, _) = view(id) { pieces[key] = value } }
        }
        return pieces
    }

    /// A piece as the store keeps it (`ValueCoding`, or a `CompactValue`'s own form).
    static func encode(_ value: some Encodable) -> [UInt8] {
        if let compact = value as? any CompactValue { return compact.compact }
        return (try? ValueCoding.encode(value)) ?? []
    }

    /// A piece from the store; nil when it cannot be read as `type` (the build that loads
    /// everything then takes over).
    static func decode<Value: Decodable>(_ type: Value.Type, _ bytes: [UInt8]) -> Value? {
        if let compact = type as? any CompactValue.Type { return compact.init(compact: bytes) as? Value }
        return try? ValueCoding.decode(type, from: bytes)
    }
}

/// The model as the build store keeps it (`ModelValues`), read piece by piece as outputs read
/// it, with the pieces an edit made again (`made`, by key; `gone`, those it took out) and their
/// bodies in place of the stored ones.
final class StoredModel: ModelSource {
    private let readers: StoreReaders
    let site: SiteConfig
    private let made: [String: any Sendable]
    private let gone: Set<String>
    private let bodies: [String: RenderedMarkdown]
    private let cache = Mutex<[String: any Sendable]>([:])
    /// The keys of pieces the model has (the store has a fact of each) whose rows were missing or
    /// could not be read: what rendered from this source is then not right.
    private let damagedKeys = Mutex<[String]>([])
    var damaged: [String] { damagedKeys.locked { $0 } }
    /// The narrower views of every report, read at once (on every core, while the other readers
    /// wait) once pages have read `readsBeforeTable` of them one by one: a sixth of the reports,
    /// and at least 300 (a page of one area's cards reads its few hundred one by one; the sitemap
    /// and the maps read every report's, and so every one at once); only reads of views not read
    /// before count. (An area's page and feed read the headlines, times and replies of their
    /// area's reports, a fortieth of them: read one by one, not as the table of every report. An
    /// edit of a member's name renders the pages of the areas they wrote in, a few fortieths:
    /// with a thirtieth, those read the table of ten thousand, 240 ms where one by one took 40.)
    /// Joinings are read at once after 300 (there are few members).
    private let views = Mutex<[Dependency.Kind: ViewTable<any Sendable>]>([:])
    private let leads = Mutex(ViewTable<[String: String]>())
    private let tableAfter = Mutex<Int?>(nil)
    private var readsBeforeTable: Int {
        tableAfter.locked { known in
            if let known { return known }
            let count = max(300, (piece(ModelPieces.reportOrder, "") ?? []).count / 6)
            known = count
            return count
        }
    }

    /// How many views of a kind were read one by one, and the table of every one once read (of
    /// a stored view, `[String: Value]`).
    private struct ViewTable<Table: Sendable>: Sendable {
        var reads = 0
        var table: Table?
    }

    let fragments: (any FragmentMemory)?

    init(readers: StoreReaders, site: SiteConfig, made: [String: any Sendable], gone: Set<String> = [], bodies: [String: RenderedMarkdown],
         fragments: (any FragmentMemory)? = nil) {
        self.readers = readers
        self.site = site
        self.made = made
        self.gone = gone
        self.bodies = bodies
        self.fragments = fragments
    }

    /// Every stored value under keys that start with `prefix`, by the rest of the key, with those
    /// of `made` and `gone` in their place.
    private func table<Value: Decodable & Sendable>(_ prefix: String, as type: Value.Type) -> [String: Value]? {
        guard let rows = try? readers.inDatabase({ db in try BuildStore.values(db, prefix: prefix) }) else { return nil }
        let decoded = parallelMap(rows) { id, bytes in (id, ModelValues.decode(Value.self, bytes)) }
        // (A row that cannot be read is a piece the model has and the store did not give.)
        let unread = decoded.filter { $0.1 == nil }.map { prefix + $0.0 }
        if !unread.isEmpty { damagedKeys.locked { $0 += unread } }
        var table = Dictionary(decoded.compactMap { id, value in value.map { (id, $0) } }, uniquingKeysWith: { a, _ in a })
        for (key, value) in made where key.hasPrefix(prefix) { table[String(key.dropFirst(prefix.count))] = value as? Value }
        for key in gone where key.hasPrefix(prefix) { table.removeValue(forKey: String(key.dropFirst(prefix.count))) }
        return table
    }

    /// The stored value of `key`, decoded once.
    private func value<Value: Decodable & Sendable>(_ key: String, as type: Value.Type) -> Value? {
        if let piece = made[key] { return piece as? Value }
        if gone.contains(key) { return nil }
        if let cached = cache.locked({ $0[key] }) { return cached as? Value }
        // (Read outside a transaction: nothing writes the store while a build renders.)
        guard let decoded = (try? readers.inDatabase { db in try BuildStore.value(db, key, as: type) }) ?? nil else {
            // (A piece the model has, by its fact, and the store did not give.)
            let known = (try? readers.inDatabase { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM facts WHERE key = ?", arguments: [key]) }) ?? nil
            if known != nil { damagedKeys.locked { $0.append(key) } }
            return nil
        }
        cache.locked { $0[key] = decoded }
        return decoded
    }

    /// The stored piece of `kind` with `id`.
    func piece<Value>(_ kind: PieceKind<Value>, _ id: String) -> Value? { value(kind.key(id), as: Value.self) }

    var reportIDs: [String] {
        let key = "sorted:" + ModelPieces.reportOrder.key()
        if let cached = cache.locked({ $0[key] }) as? [String] { return cached }
        let sorted = (piece(ModelPieces.reportOrder, "") ?? []).sortedByBytes()
        cache.locked { $0[key] = sorted }
        return sorted
    }

    func body(_ file: String) -> RenderedMarkdown? {
        if let made = bodies[file] { return made }
        let key = Dependency.body(file).key
        if let cached = cache.locked({ $0[key] }) { return cached as? RenderedMarkdown }
        let body = try? readers.inDatabase { db in try BuildStore.body(db, file: file) }
        guard let body else { return nil }
        cache.locked { $0[key] = body }
        return body
    }

    func lead(_ file: String) -> String? {
        if let made = bodies[file] { return Summaries.lead(of: made.text) }
        // (Once the table is read, pages of every report read ten thousand leads from it.)
        if let found = leads.locked({ $0.table.map { $0[file] } }), let lead = found { return lead }
        let key = "lead:" + file
        if let cached = cache.locked({ $0[key] }) { return cached as? String }
        let threshold = readsBeforeTable
        let found: String?? = leads.locked { state in
            if let table = state.table { return .some(table[file]) }
            state.reads += 1
            guard state.reads > threshold else { return nil }
            let loaded = (try? readers.inDatabase { db in try Self.leads(db, files: nil) }) ?? [:]
            state.table = loaded
            return .some(loaded[file])
        }
        if let found, let lead = found { return lead }
        guard let lead = Self.lead(readers, file) ?? body(file).map({ Summaries.lead(of: $0.text) }) else { return nil }
        cache.locked { $0[key] = lead }
        return lead
    }

    /// SQLite's cut of the start of the texts of the bodies of `files` (all: nil), each as
    /// `Summaries.lead` makes it; without those whose cut does not hold the lead whole (a
    /// character of many code points at its end), which are read on their own.
    private static func leads(_ db: Database, files: String?) throws -> [String: String] {
        // (SQLite cuts at code points; a character may be several.)
        let codePoints = 4 * Summaries.leadCharacters
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT file, substr(text, 1, ?), length(text) > ? FROM bodies" + (files == nil ? "" : " WHERE file = ?")),
            arguments: StatementArguments([codePoints, codePoints] + (files.map { [$0] } ?? [])))
        var table: [String: String] = [:]
        table.reserveCapacity(rows.count)
        for row in rows {
            let (file, start, cut) = (row[0] as String, row[1] as String, row[2] as Bool)
            // Whole when nothing was cut, or when more characters than the lead are left (only
            // the last may have lost code points).
            guard !cut || start.prefix(Summaries.leadCharacters + 1).count > Summaries.leadCharacters else { continue }
            table[file] = Summaries.lead(of: start)
        }
        return table
    }

    /// The lead of one body's text, read on its own.
    private static func lead(_ readers: StoreReaders, _ file: String) -> String? {
        (try? readers.inDatabase { db in try leads(db, files: file) })?[file]
    }

    /// The view of `kind` of the piece of `id`: a stored view from the table of every one once
    /// there is one, else read on its own (joinings: at once after 300 reads, there are few
    /// members); made from its piece when the store has none, and for a view it does not keep.
    func view<Base, Value>(_ kind: ViewKind<Base, Value>, _ id: String) -> Value? {
        guard kind.stored, let stored = storedView(kind, id, after: kind.base.kind == .report ? readsBeforeTable : 300) else {
            return piece(kind.base, id).map(kind.make)
        }
        return stored
    }

    /// A stored view: from the table of every one of its kind once there is one, else read on
    /// its own. Nil when the store has none.
    private func storedView<Base, Value>(_ kind: ViewKind<Base, Value>, _ id: String, after threshold: Int) -> Value? {
        // (Once the table is read, pages of every report read ten thousand views from it: it
        // holds the pieces made again, and is looked at first.)
        if let table = views.locked({ $0[kind.kind]?.table }) { return (table as? [String: Value])?[id] }
        let key = kind.key(id)
        // (Only reads of views not read before count towards the table.)
        if made[key] == nil, let cached = cache.locked({ $0[key] }) { return cached as? Value }
        let found: Value?? = views.locked { tables in
            if let table = tables[kind.kind]?.table { return .some((table as? [String: Value])?[id]) }
            tables[kind.kind, default: ViewTable()].reads += 1
            guard tables[kind.kind]!.reads > threshold else { return nil }
            let loaded = self.table(kind.key(""), as: Value.self) ?? [:]
            tables[kind.kind]!.table = loaded
            return .some(loaded[id])
        }
        if let found { return found }
        return value(key, as: Value.self)
    }

}
