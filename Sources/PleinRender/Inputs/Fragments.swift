import Foundation
import PleinMustache

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
    /// Whether it keeps the parts of many records as a list (`keptList`, `keep(list:)`), which
    /// tells what changed since they were kept (`ModelView.entries`). Without, each is a part.
    var updatesParts: Bool { get }
    /// The list kept under `key` as the last build left it, with the keys of the facts this
    /// build changed; nil when none is kept, or when the memory cannot tell what changed.
    func keptList(_ key: String) -> KeptList?
    /// Keeps the list under `key` as `changes` says it changed.
    func keep(list key: String, _ changes: ListChanges)
}

extension FragmentMemory {
    public func keptBefore(_ key: String) -> (bytes: [UInt8], changed: Set<String>)? { nil }
    public var keepsParts: Bool { true }
    public var updatesParts: Bool { false }
    public func keptList(_ key: String) -> KeptList? { nil }
    public func keep(list key: String, _ changes: ListChanges) {}
}

/// The parts of many records of one output (`ModelView.entries`) as a memory kept them: each
/// record's id, the keys of what it read (each ended by a NUL) and its bytes, one after another
/// in one buffer, in the order of their ids' bytes; the reads the output recorded for all of
/// them; the keys of the facts changed since.
public struct KeptList: Sendable {
    public let recorded: [String]
    /// (Ten thousand entries for a map of every report: in one buffer, looked up by bisection,
    /// not as ten thousand arrays in a dictionary.)
    let storage: [UInt8]
    let rows: [Row]
    /// The keys of `changed`, as bytes.
    let changed: [[UInt8]]

    public struct Row: Sendable {
        public let id: Range<Int>, reads: Range<Int>, bytes: Range<Int>
        public init(id: Range<Int>, reads: Range<Int>, bytes: Range<Int>) {
            (self.id, self.reads, self.bytes) = (id, reads, bytes)
        }
    }

    /// `rows` in `storage` must be in the order of their ids' bytes.
    public init(recorded: [String], storage: [UInt8], rows: [Row], changed: Set<String>) {
        (self.recorded, self.storage, self.rows) = (recorded, storage, rows)
        self.changed = changed.map { Array($0.utf8) }
    }

    var count: Int { rows.count }

    /// Whether `key` is among `recorded` (which is sorted).
    func records(_ key: String) -> Bool { Self.contains(recorded, key) }

    /// Whether the sorted `keys` hold `key`, found by bisection.
    public static func contains(_ keys: [String], _ key: String) -> Bool {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] == key { return true }
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// The place of `id`'s entry, if it is kept; `hint` is where the entry after the last one
    /// found is (ids asked for in order are then found at once, not by bisection).
    func find(_ id: String, hint: inout Int) -> Int? {
        var id = id
        return id.withUTF8 { key in
            storage.withUnsafeBufferPointer { all in
                if hint < rows.count, Self.compare(UnsafeBufferPointer(rebasing: all[rows[hint].id]), key) == 0 {
                    hint += 1
                    return hint - 1
                }
                var (low, high) = (0, rows.count)
                while low < high {
                    let middle = (low + high) / 2
                    let order = Self.compare(UnsafeBufferPointer(rebasing: all[rows[middle].id]), key)
                    if order == 0 {
                        hint = middle + 1
                        return middle
                    }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }

    /// The bytes of the entry at `place`, when none of its reads changed.
    func bytes(at place: Int) -> ArraySlice<UInt8>? {
        let row = rows[place]
        guard !changed.isEmpty else { return storage[row.bytes] }
        let touched = storage.withUnsafeBufferPointer { all in
            var start = row.reads.lowerBound
            for index in row.reads where all[index] == 0 {
                let length = index - start
                for key in changed where key.count == length && length > 0
                    && key.withUnsafeBufferPointer({ memcmp($0.baseAddress!, all.baseAddress! + start, length) == 0 }) { return true }
                start = index + 1
            }
            return false
        }
        return touched ? nil : storage[row.bytes]
    }

    /// The bytes of the entry at `place`: its id, reads and bytes.
    func size(at place: Int) -> Int {
        let row = rows[place]
        return row.id.count + row.reads.count + row.bytes.count
    }

    /// The id of the entry at `place`.
    func id(at place: Int) -> String {
        String(decoding: storage[rows[place].id], as: UTF8.self)
    }

    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}

/// How a list of parts changed in a build (`ModelView.entries`): the reads the output recorded
/// for all of them, the entries made (each with the keys of its reads, in order), the ids no
/// longer there; `whole`: made from nothing (every entry kept before is forgotten).
public struct ListChanges: Sendable {
    public struct Entry: Sendable {
        public let id: String
        public let reads: [String]
        public let bytes: [UInt8]
    }

    public var recorded: [String] = []
    public var made: [Entry] = []
    public var gone: [String] = []
    public var whole: Bool
    /// The bytes of every entry's id, reads and bytes, as the memory keeps them: room made at
    /// once when the list is read again (`KeptList.storage`).
    public var size = 0
    /// The reads of all its entries as the list kept before recorded them (nil: none was kept).
    public var recordedBefore: [String]?
}

extension ListChanges.Entry {
    /// Its id, its reads each ended by a NUL, and its bytes.
    var size: Int { id.utf8.count + reads.reduce(0) { $0 + $1.utf8.count + 1 } + bytes.count }
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

extension ModelView {
    /// One part per record of `ids` (a report's feature on the map of every report, its `<url>`
    /// in the sitemap), each made by `make` from its id (no bytes: none), in the order of `ids`.
    /// With a memory that keeps lists (`updatesParts`), they are kept as one list under `key`,
    /// each with what it read: the next build takes each whose reads did not change and makes
    /// the others (and the new records'), and the output depends on every read of all of them
    /// as recorded here (inside `readingEvery`, a report's headline as every report's headline),
    /// which the list keeps. Ten thousand records then cost a stored row each, read at once, and
    /// a lookup of its reads, not a part each looked up, checked and recorded; an edit writes
    /// only the entries it made. Without, each is a part of its own (`fragment`, under `each`
    /// and its id, which other outputs showing the same part of a record share).
    func entries(_ key: String, each: String, ids: [String], _ make: (String) -> [UInt8]) -> [ArraySlice<UInt8>] {
        guard let memory = source.fragments, let recorder else { return ids.map { make($0)[...] } }
        guard memory.updatesParts else {
            return ids.map { id in fragment(each + id) { make(id) }[...] }
        }
        var result: [ArraySlice<UInt8>] = []
        result.reserveCapacity(ids.count)
        var made: [ListChanges.Entry] = []
        var changes = walkKeptList(key, memory, recorder, ids: ids, kept: { result.append($0) }) { id in
            let (bytes, reads) = recorder.capturing { make(id) }
            made.append(ListChanges.Entry(id: id, reads: reads.map(\.key).sorted(), bytes: bytes))
            result.append(bytes[...])
            return reads
        }
        changes.made = made
        changes.size += made.reduce(0) { $0 + $1.size }
        memory.keep(list: key, changes)
        return result
    }
}

/// An item of a list a section of a page's template iterates, as `ModelView.items` gives it:
/// its values, or the bytes the section rendered for it before (`TemplateContext.part`).
struct ListItem: HandWrittenTemplate {
    let template: TemplateContext
}

/// A list of items of a page (`ModelView.items`) whose made items' bytes the page's render
/// tells: kept, with what each read, by `keep`, which `PageFrame` calls after the render.
struct PendingList {
    let key: String
    let changes: ListChanges
    /// The items made, each with the keys of what it read.
    let made: [(id: String, reads: [String])]
    let memory: any FragmentMemory

    /// Keeps the list with the bytes the render told of each item made (`parts`, by id); an
    /// item whose bytes it did not tell (they were not its own alone) is kept out, and made
    /// again by every build.
    func keep(_ parts: [String: [UInt8]]) {
        var changes = changes
        for (id, reads) in made {
            guard let bytes = parts[id] else {
                changes.gone.append(id)
                continue
            }
            let entry = ListChanges.Entry(id: id, reads: reads, bytes: bytes)
            changes.made.append(entry)
            changes.size += entry.size
        }
        memory.keep(list: key, changes)
    }
}

extension ModelView {
    /// The items of a list that a section of the page's template iterates (an area's report
    /// cards), one per id of `ids` that `make` gives values for, in their order. With a memory
    /// that keeps lists (`updatesParts`), each item whose reads did not change since it was kept
    /// is the bytes the section rendered for it then (its reads recorded as if it was made);
    /// the others are made, and the render tells their bytes (the page's `keptLists`, kept with
    /// what each read). The template engine tells an item's bytes only when they are its own:
    /// rendered once, from its values alone. So a member's new name renders their cards, not
    /// every card of every area they wrote in. Each item reads the page's `template` (its bytes
    /// are that template's, with its partials).
    func items(_ key: String, template: String, ids: [String], _ make: (String) -> TemplateContext?) -> (items: [ListItem], pending: PendingList?) {
        guard let memory = source.fragments, memory.updatesParts, let recorder else {
            return (ids.compactMap { make($0).map(ListItem.init) }, nil)
        }
        var items: [ListItem] = []
        items.reserveCapacity(ids.count)
        var made: [(id: String, reads: [String])] = []
        var none: [String] = []
        let changes = walkKeptList(key, memory, recorder, ids: ids, kept: { items.append(ListItem(template: TemplateContext(kept: $0))) }) { id in
            let (context, reads) = recorder.capturing {
                recorder.record(.template(template))
                return make(id)
            }
            if var context {
                context.part = .memo(id)
                items.append(ListItem(template: context))
                made.append((id, reads.map(\.key).sorted()))
            } else {
                // (None to show: nothing kept for it.)
                none.append(id)
            }
            return reads
        }
        var pending = changes
        pending.gone += none
        return (items, PendingList(key: key, changes: pending, made: made, memory: memory))
    }
}

extension ModelView {
    /// Goes through `ids` against the list kept under `key`: `kept` is given the bytes of each
    /// entry kept whose reads did not change (and those reads are recorded, as the list recorded
    /// them), `make` is asked for each other (and returns what it read). Gives how the list
    /// changed, but for the entries made, which are the caller's to add.
    fileprivate func walkKeptList(_ key: String, _ memory: any FragmentMemory, _ recorder: DependencyRecorder, ids: [String],
                                  kept: (ArraySlice<UInt8>) -> Void, make: (String) -> Set<Dependency>) -> ListChanges {
        let before = memory.keptList(key)
        var changes = ListChanges(whole: before == nil)
        // (The reads of the entries made that the list did not record: the list's reads are
        // those it recorded, sorted, and these. An area's list of 2,500 reports records 10,000,
        // which were made a set and sorted again for every output that shows it.)
        var added: Set<String> = []
        if let before {
            // (The reads of the parts taken, as recorded when they were made.)
            recorder.record(before.recorded.compactMap(Dependency.init(key:)))
        }
        // (Which kept entries were found among the ids, by place: those not found are gone.)
        var taken = [Bool](repeating: false, count: before?.count ?? 0)
        var hint = 0
        for id in ids {
            if let before, let place = before.find(id, hint: &hint) {
                taken[place] = true
                if let bytes = before.bytes(at: place) {
                    kept(bytes)
                    changes.size += before.size(at: place)
                    continue
                }
            }
            for read in make(id) {
                let key = recorder.asRecorded(read).key
                if before?.records(key) != true { added.insert(key) }
            }
        }
        // (A set of every id and the id of every kept entry, made to find one report taken out,
        // cost a deletion 100–200 ms at 100,000 reports.)
        if let before, taken.contains(false) {
            changes.gone = taken.indices.filter { !taken[$0] }.map(before.id(at:))
        }
        changes.recorded = added.isEmpty ? before?.recorded ?? [] : ((before?.recorded ?? []) + added).sorted()
        changes.recordedBefore = before?.recorded
        return changes
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

    /// The same, `offset` counted from the slice's start.
    static func read<Number: FixedWidthInteger>(_ type: Number.Type, _ bytes: ArraySlice<UInt8>, at offset: Int) -> Number {
        bytes.withUnsafeBytes { Number(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Number.self)) }
    }
}
