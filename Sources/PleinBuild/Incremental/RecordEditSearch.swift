import Foundation
import PleinCore
import PleinModel
import PleinRender

/// What an edit changes of the search index (`RecordEdit.searchChange`): the shards whose
/// records read a fact the edit changed, made again, and the files of those whose index is
/// another than before.
struct SearchChange {
    /// The shards made again: each one's name, cache folder and what its records read.
    var remade: [(name: String, key: String, reads: Set<Dependency>)] = []
    /// How many of them Pagefind indexed now (the others' cache folders held them).
    var indexed = 0
    /// Files to put into the output: cache file → output path.
    var writes: [(source: String, target: String)] = []
    /// The build store's identity of each file written (`published`).
    var identities: [(path: String, identity: String)] = []
    /// The output paths among `writes` that the last build did not publish.
    var added: [String] = []
    /// The files of the old indexes that the new ones do not have.
    var removed: [String] = []
    /// The cache folders of the indexes made again under another key, or gone.
    var replacedKeys: [String] = []
    /// The site's shards in their order, when they are others than the last build's (a shard
    /// cut into more parts or fewer, an area's first report or its last); nil: the same.
    var order: [String]?
}

extension RecordUpdate {
    /// The shards of the search index whose records read any of `changed` (the build store
    /// keeps what each read, `search_indexes`), made again with `renderer` and indexed by
    /// Pagefind where their records are others; when the site's shards are others (cut into
    /// more parts or fewer), the new ones made and the files of those gone taken out. Nil when
    /// Pagefind fails (the full build then says so).
    func searchChange(_ renderer: Renderer, site: SiteConfig, changed: Set<String>) -> SearchChange? {
        guard let executable = options.pagefind else { return nil }
        guard let rows = try? memory.searchIndexes(reading: changed) else { return nil }
        let names = renderer.searchShardNames()
        let before = Dictionary(rows.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        // (The first index carries Pagefind's script: one that becomes the first, or is no more, is made again.)
        let stale = names.indices.filter { index in
            before[names[index]].map { $0.reads || (index == 0) != ($0.name == rows.first?.name) } ?? true
        }
        let kept = Set(names)
        let gone = rows.filter { !kept.contains($0.name) }
        var change = SearchChange()
        if names != rows.map(\.name) { change.order = names }
        guard !stale.isEmpty || !gone.isEmpty else { return change }
        var shards: [(shard: SearchShard, primary: Bool)] = []
        var reads: [Set<Dependency>] = []
        for index in stale {
            guard let (shard, read) = renderer.searchShardTracked(named: names[index]) else { return nil }
            shards.append((shard, index == 0))
            reads.append(read)
        }
        let routes = Routes(baseURL: site.baseURL)
        let stage = SearchStage(root: options.cacheRoot + "/search", pagefind: Pagefind(executable: executable), timings: options.timings)
        let outcome = shards.isEmpty ? SearchStage.Outcome() : stage.index(shards, language: site.language.rawValue, routes: routes)
        guard outcome.problems.isEmpty, outcome.keys.count == stale.count else { return nil }
        change.indexed = outcome.indexed
        for (place, index) in stale.enumerated() {
            let (name, key) = (names[index], outcome.keys[place])
            change.remade.append((name, key, reads[place]))
            guard key != before[name]?.key else { continue }
            if let old = before[name]?.key { change.replacedKeys.append(old) }
            // The files the last build published of this index, and those of the new one.
            let prefix = routes.searchIndex(name)
            guard let published = try? memory.published(under: prefix) else { return nil }
            var now: Set<String> = []
            for (source, target) in outcome.links where target.hasPrefix(prefix) {
                now.insert(target)
                let identity = SearchStage.identity(source: source, target: target)
                guard published[target] != identity else { continue }
                if published[target] == nil { change.added.append(target) }
                change.writes.append((source, target))
                change.identities.append((target, identity))
            }
            change.removed += published.keys.filter { !now.contains($0) }.sorted()
        }
        // The indexes the site no longer has: their files go.
        for row in gone {
            guard let published = try? memory.published(under: routes.searchIndex(row.name)) else { return nil }
            change.removed += published.keys.sorted()
            change.replacedKeys.append(row.key)
        }
        return change
    }
}
