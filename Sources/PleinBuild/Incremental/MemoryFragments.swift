import Foundation
import PleinCore
import PleinRender
import Synchronization

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

    /// A list of parts (`ModelView.entries`) as `KeptList` reads it: each entry's id, reads (each
    /// ended by a NUL) and bytes in one buffer, in the order of the ids' bytes.
    private struct List {
        let recorded: [String]
        let storage: [UInt8]
        let rows: [KeptList.Row]
    }

    private let state = Mutex<(parts: [String: Part], facts: Facts?, changed: Set<String>?, lists: [String: List])>(([:], nil, nil, [:]))

    var updatesParts: Bool { true }

    /// (Kept, like a part brought up to date, by every build that renders its output.)
    func keptList(_ key: String) -> KeptList? {
        state.locked { state in
            guard state.facts != nil, let changed = state.changed, !FragmentFacts.always.contains(where: changed.contains),
                  let list = state.lists[key] else { return nil }
            return KeptList(recorded: list.recorded, storage: list.storage, rows: list.rows, changed: changed)
        }
    }

    func keep(list key: String, _ changes: ListChanges) {
        let before = state.locked { state in state.facts == nil || changes.whole ? nil : state.lists[key] }
        let list = Self.merge(before, changes)
        state.locked { state in state.lists[key] = state.facts == nil ? nil : list }
    }

    /// The list `changes` makes of `before`: its entries but those gone or made again, and those
    /// made, in the order of their ids' bytes.
    private static func merge(_ before: List?, _ changes: ListChanges) -> List {
        let made = changes.made.map { (id: Array($0.id.utf8), entry: $0) }.sorted { Self.order($0.id[...], $1.id[...]) < 0 }
        let dropped = Set(changes.gone).union(made.map(\.entry.id))
        var storage: [UInt8] = []
        storage.reserveCapacity(changes.size)
        var rows: [KeptList.Row] = []
        rows.reserveCapacity((before?.rows.count ?? 0) + made.count)
        func append(_ bytes: some Collection<UInt8>) -> Range<Int> {
            let start = storage.count
            storage += bytes
            return start..<storage.count
        }
        func appendMade(_ entry: ListChanges.Entry) {
            let id = append(entry.id.utf8)
            let reads = append(entry.reads.flatMap { Array($0.utf8) + [0] })
            rows.append(KeptList.Row(id: id, reads: reads, bytes: append(entry.bytes)))
        }
        var next = 0
        for row in before?.rows ?? [] {
            let id = before!.storage[row.id]
            while next < made.count, Self.order(made[next].id[...], id) < 0 {
                appendMade(made[next].entry)
                next += 1
            }
            guard !dropped.contains(String(decoding: id, as: UTF8.self)) else { continue }
            rows.append(KeptList.Row(id: append(id), reads: append(before!.storage[row.reads]), bytes: append(before!.storage[row.bytes])))
        }
        while next < made.count {
            appendMade(made[next].entry)
            next += 1
        }
        return List(recorded: changes.recorded, storage: storage, rows: rows)
    }

    /// The order of two ids' bytes, as `KeptList` finds them: byte by byte, a shorter one first.
    private static func order(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        for (x, y) in zip(a, b) where x != y { return Int(x) - Int(y) }
        return a.count - b.count
    }

    /// The facts the parts are checked by from now on (nil: none are kept or taken), and the keys
    /// of those that changed since the last build (nil: not known), which a part brought up to
    /// date is brought up to date with (`keptBefore`).
    func use(_ facts: Facts?, changed: Set<String>? = nil) {
        state.locked { ($0.facts, $0.changed) = (facts, facts == nil ? nil : changed) }
    }

    /// (A part brought up to date, `ModelView.updated`, is kept by every build that renders its
    /// output, which every change of what it covers does: what changed since it was kept is what
    /// changed since the last build.)
    func keptBefore(_ key: String) -> (bytes: [UInt8], changed: Set<String>)? {
        state.locked { state in
            guard state.facts != nil, let changed = state.changed, !FragmentFacts.always.contains(where: changed.contains),
                  let part = state.parts[key] else { return nil }
            return (part.bytes, changed)
        }
    }

    func kept(_ key: String) -> (bytes: [UInt8], reads: [Dependency])? {
        // (Checked outside the lock: the outputs rendered on every core look up parts at once.)
        guard let (facts, part) = state.locked({ state in state.facts.flatMap { facts in state.parts[key].map { (facts, $0) } } }),
              FragmentFacts.matches(part.facts, part.keys, fact: { facts.values[$0] }) else { return nil }
        return (part.bytes, part.reads)
    }

    func keep(_ key: String, bytes: [UInt8], reads: Set<Dependency>) {
        let reads = reads.sorted { $0.key < $1.key }
        let keys = reads.map(\.key)
        let facts = state.locked { $0.facts }
        let part = facts.map { facts in Part(reads: reads, keys: keys, facts: FragmentFacts.of(keys, fact: { facts.values[$0] }), bytes: bytes) }
        // (Made before the facts are known: what was kept under its key is no longer it.)
        state.locked { state in state.parts[key] = state.facts == nil ? nil : part }
    }
}
