import PleinCore
import PleinModel
import PleinRender

/// What the last successful build made: the base the next update compares with, and what a
/// served site is read from.
struct LastBuild: Sendable {
    var model: SiteModel?
    var bodies = BodiesStage()
    var catalog = ImageCatalog()
    /// What the media stages made (`serve` reuses it after edits of reports' texts only).
    var media: SiteState.Media?
    /// Files made in the cache and published as they are (image variants, search indexes):
    /// cache file → output path.
    var imageLinks: [(String, String)] = []
    /// Report attachments published as they are: content-relative source → output path.
    var attachments: [(source: String, target: String)] = []
    /// For serving from memory: checked copies of the attachments (output path → copy).
    var attachmentCopies: [String: String] = [:]
    var outputs: [OutputID: OutputFile] = [:]
    /// Every file of the site by output path, kept up to date as the rest is taken in: what
    /// `plein serve` serves (`SiteState.files`).
    private(set) var served = ServedFiles()
    /// Every output of the site, in the order they were listed.
    private(set) var ids: [OutputID] = []
    var assets: [OutputFile] = []
    /// What each output read, and the facts it was read from (for `serve`; `build` keeps them in
    /// the store, `Remembered`).
    var graph = QueryGraph()
    var facts: Facts?
    /// The search index's shards, in order (`SearchStage`, `search`).
    var searchIndexes: [ServedIndex] = []

    typealias Update = SiteState.Update

    /// Takes in what a build rendered (`ids` are all of the site's outputs now, nil when they
    /// are the same as last time) and tells what changed.
    mutating func take(rendered: [RenderStage.Rendered], of now: [OutputID]?) -> Update {
        var update = Update(rendered: rendered.count)
        if let now {
            let keep = Set(now)
            for (id, old) in outputs where !keep.contains(id) {
                outputs.removeValue(forKey: id)
                served.removeValue(forKey: old.path)
                graph.remove(id.key)
                update.removed.append(old.path)
            }
            ids = now
        }
        for output in rendered {
            if outputs[output.id] != output.file { update.changed.append(output.file.path) }
            outputs[output.id] = output.file
            served[output.file.path] = .bytes(output.file.bytes)
            graph.record(output.id.key, read: output.dependencies)
        }
        return update
    }

    /// The outputs of these keys (`OutputID.key`) that the site has, in key order. (Each key is
    /// read back into its output: a table of every output by key, made again after each edit that
    /// adds or takes out one, cost a new report's page a tenth of a second at 100,000 reports.)
    mutating func outputs(keys: Set<String>) -> [OutputID] {
        prepare()
        return keys.sorted().compactMap { key in OutputID(key: key).flatMap { outputs[$0] != nil ? $0 : nil } }
    }

    /// Of `ids`, those never rendered and those that read a fact in `changed` (every one when
    /// the site's settings changed). (Told apart by the outputs kept, not by their keys: making
    /// the key of each of 136,000 outputs cost an edit at 100,000 reports 50 ms.)
    /// With `same` (`ids` are the last build's), those that read a fact in `changed`, without
    /// a pass over `ids`.
    mutating func outputsToRender(_ ids: [OutputID], changed: Set<String>, same: Bool = false) -> [OutputID] {
        if changed.contains(Facts.siteKey) { return ids }
        let affected = outputs(keys: graph.outputs(reading: changed, keepingReaders: true))
        if same { return affected }
        let set = Set(affected)
        return ids.filter { outputs[$0] == nil || set.contains($0) }
    }

    /// Makes what an update looks up (the readers of each fact), so that the first edit served
    /// costs what the others cost.
    mutating func prepare() {
        graph.prepareReaders()
    }

    /// Takes in files published as they are that changed when nothing else of them did (the
    /// files of search indexes made again): `before` out, `now` in.
    mutating func replace(links before: [(String, String)], with now: [(String, String)], into update: inout Update) {
        let new = Dictionary(now.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
        let old = Dictionary(before.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
        let gone = Set(old.keys).subtracting(new.keys)
        imageLinks = imageLinks.filter { old[$0.1] == nil } + now
        for path in gone { served.removeValue(forKey: path) }
        update.removed += gone
        for (target, source) in new {
            served[target] = .disk(source)
            if old[target] != source { update.changed.append(target) }
        }
    }

    /// Takes in the files published as they are: assets, image variants and attachments.
    mutating func take(assets newAssets: [OutputFile], imageLinks newLinks: [(String, String)],
                      attachments newAttachments: [(source: String, target: String)], copies: [String: String], into update: inout Update) {
        let oldAssetPaths = Set(assets.map(\.path))
        update.changed += newAssets.map(\.path).filter { !oldAssetPaths.contains($0) }
        update.removed += oldAssetPaths.subtracting(newAssets.map(\.path))
        assets = newAssets

        let oldLinks = Dictionary(imageLinks.map { ($0.1, $0.0) } + attachments.map { ($0.target, attachmentCopies[$0.target] ?? $0.source) },
                                  uniquingKeysWith: { a, _ in a })
        let newLinkIndex = Dictionary(newLinks.map { ($0.1, $0.0) } + newAttachments.map { ($0.target, copies[$0.target] ?? $0.source) },
                                      uniquingKeysWith: { a, _ in a })
        update.changed += newLinkIndex.filter { oldLinks[$0.key] != $0.value }.keys
        update.removed += oldLinks.keys.filter { newLinkIndex[$0] == nil }
        imageLinks = newLinks
        attachments = newAttachments
        attachmentCopies = copies
        for path in oldAssetPaths.union(oldLinks.keys) { served.removeValue(forKey: path) }
        for asset in assets { served[asset.path] = .bytes(asset.bytes) }
        for (source, target) in imageLinks { served[target] = .disk(source) }
        for (target, copy) in attachmentCopies { served[target] = .disk(copy) }
        update.changed.sort()
        update.removed.sort()
    }
}
