import PleinCore
import PleinRender

/// A shard of the search index as `plein serve` last made it: its cache folder (`key`), the
/// facts its records read (by key), and its index's files (cache file → output path).
struct ServedIndex: Sendable {
    let name: String
    let key: String
    let reads: Set<String>
    let links: [(String, String)]
}

/// What `LastBuild.search` did.
struct ServedSearch {
    let problems: [String]
    /// The shards Pagefind indexed, and those made again (the others' cache folders held them).
    let indexed: Int
    let remade: Int
    let shards: Int
    /// The cache folders of the indexes made again under another key.
    let replaced: [String]
    /// The files of the indexes made again under another key, before and now; nil when every
    /// shard was made again (the files may all be others).
    let changedLinks: (before: [(String, String)], now: [(String, String)])?
}

extension LastBuild {
    /// The search index after an update of `plein serve`: the shards whose records read a fact
    /// in `changed` made again (by Pagefind when their records are others than any indexed
    /// before), the others as they were, so that an edit costs the shards it touched as it does
    /// in `plein build` (`RecordUpdate.searchChange`). Every shard is made again when `changed`
    /// is nil (nothing to compare with), holds the site's settings, or the site's shards are
    /// others than before. Gives the problems Pagefind had, the files that changed, and the cache
    /// folders of the indexes replaced (to remove once the site serves the new ones); every
    /// shard's files are its `searchIndexes`' links.
    mutating func search(_ renderer: Renderer, stage: SearchStage, changed: Set<String>?, language: String, routes: Routes) -> ServedSearch {
        let names = renderer.searchShardNames()
        if let changed, !changed.contains(Facts.siteKey), names == searchIndexes.map(\.name) {
            let stale = searchIndexes.indices.filter { !searchIndexes[$0].reads.isDisjoint(with: changed) }
            var shards: [(shard: SearchShard, primary: Bool)] = []
            var reads: [Set<String>] = []
            for index in stale {
                guard let (shard, read) = renderer.searchShardTracked(named: names[index]) else { return remakeSearch(renderer, stage, language, routes) }
                shards.append((shard, index == 0))
                reads.append(Set(read.map(\.key)))
            }
            let outcome = shards.isEmpty ? SearchStage.Outcome() : stage.index(shards, language: language, routes: routes)
            // (A shard Pagefind failed on keeps the index it had.)
            var replaced: [String] = []
            var changedLinks: (before: [(String, String)], now: [(String, String)]) = ([], [])
            if outcome.problems.isEmpty, outcome.keys.count == stale.count {
                for (place, index) in stale.enumerated() {
                    let (name, key) = (names[index], outcome.keys[place])
                    let prefix = routes.searchIndex(name)
                    let links = outcome.links.filter { $0.1.hasPrefix(prefix) }
                    if key != searchIndexes[index].key {
                        replaced.append(searchIndexes[index].key)
                        changedLinks.before += searchIndexes[index].links
                        changedLinks.now += links
                    }
                    searchIndexes[index] = ServedIndex(name: name, key: key, reads: reads[place], links: links)
                }
            }
            return ServedSearch(problems: outcome.problems, indexed: outcome.indexed, remade: stale.count,
                                shards: names.count, replaced: replaced, changedLinks: changedLinks)
        }
        return remakeSearch(renderer, stage, language, routes)
    }

    /// Every shard made again (those whose records are as before come from the cache).
    private mutating func remakeSearch(_ renderer: Renderer, _ stage: SearchStage, _ language: String, _ routes: Routes) -> ServedSearch {
        let shards = renderer.searchShardsTracked()
        // (`run` takes the cache folders of other indexes away itself.)
        let outcome = stage.run(shards.map(\.shard), language: language, routes: routes)
        // (Each shard's files are in the order of the shards, one after another.)
        var links = outcome.links[...]
        searchIndexes = zip(shards, outcome.keys).map { shard, key in
            let prefix = routes.searchIndex(shard.shard.name)
            let own = links.prefix { $0.1.hasPrefix(prefix) }
            links = links.dropFirst(own.count)
            return ServedIndex(name: shard.shard.name, key: key, reads: Set(shard.reads.map(\.key)), links: Array(own))
        }
        return ServedSearch(problems: outcome.problems, indexed: outcome.indexed, remade: shards.count, shards: shards.count,
                            replaced: [], changedLinks: nil)
    }
}
