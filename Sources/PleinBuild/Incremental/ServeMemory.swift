import Foundation
import Synchronization
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// What `plein serve` keeps of its last build (`SiteState`: what it loaded, `LastBuild`), as a
/// `BuildMemory`: the same answers `StoreMemory` reads from the build store, from memory. Taken
/// from a state between updates (`SiteState.memory`); it holds that state's values (copies that
/// share their storage), so an update after it does not change what it answers.
final class ServeMemory: BuildMemory {
    private let last: InMemoryModel
    private let loaded: ContentState
    private let members: MemberIndex
    private let counts: [String: Int]
    private let digests: [String: [UInt8]]
    private let factValues: [String: [UInt8]]
    /// What each output read (its table of readers made once, when first asked).
    private let graph: Mutex<QueryGraph>
    private let outputs: [OutputID: OutputFile]
    private let search: [(name: String, key: String)]
    /// Cache file → output path, of the files published as they are (search indexes among them).
    private let links: [(String, String)]

    init(model: SiteModel, bodies: BodiesStage, images: ImageCatalog, loaded: ContentState, members: MemberIndex, problems: [String: Int], facts: Facts,
         graph: QueryGraph, outputs: [OutputID: OutputFile], search: [(name: String, key: String)], links: [(String, String)]) {
        last = InMemoryModel(model: model, bodies: bodies.bodies, images: images)
        self.loaded = loaded
        self.members = members
        counts = problems
        digests = bodies.digests
        factValues = facts.values
        self.graph = Mutex(graph)
        self.outputs = outputs
        self.search = search
        self.links = links
    }

    func settings() throws -> SiteConfig? { last.site }

    func piece<Value: Decodable>(_ key: String, as type: Value.Type) throws -> Value? {
        if key == ModelValues.siteKey { return last.site as? Value }
        guard let read = Dependency(key: key) else { return nil }
        if let kind = ModelPieces.every.first(where: { $0.kind == read.kind }) { return kind.piece(last, read.id) as? Value }
        if let view = ModelViews.every.first(where: { $0.kind == read.kind }) { return view.view(last, read.id) as? Value }
        return nil
    }

    func records(in slice: ContentSlice, edited: Set<String>, context: String) throws -> KnownRecords {
        // (Records read in another context, another zone, would not be read so now.)
        guard loaded.recordContext == context else { return KnownRecords(records: [:], context: context) }
        return loaded.records(where: slice.holdsRecord)
    }

    func memberIndex() throws -> MemberIndex? { members }

    func problemCounts() -> [String: Int] { counts }

    func sizes(of files: Set<String>) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: files.compactMap { path in loaded.size(of: path).map { (path, $0) } })
    }

    /// The whole model: every piece is in memory, those asked for among them.
    func model(site: SiteConfig, reports: Set<String>, membersAndGroups: Bool, members: Set<String>) throws -> SiteModel? {
        last.model
    }

    func bodyDigests(_ files: some Sequence<String>) throws -> [String: [UInt8]] { Self.found(files, in: digests) }

    func facts(_ keys: some Sequence<String>) throws -> [String: [UInt8]] { Self.found(keys, in: factValues) }

    private static func found(_ keys: some Sequence<String>, in table: [String: [UInt8]]) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for key in keys { found[key] = table[key] }
        return found
    }

    func readers(of keys: Set<String>) throws -> [RememberedOutput] {
        try graph.withLock { graph in
            try graph.outputs(reading: keys, keepingReaders: true).sorted().compactMap { key in
                guard let id = OutputID(key: key) else { throw StoreMemory.UnknownOutput() }
                guard let file = outputs[id] else { return nil }
                return RememberedOutput(key: key, id: id, path: file.path, hash: Hashing.sha256(file.bytes), reads: graph.digest(of: key))
            }
        }
    }

    func paths(of keys: Set<String>) throws -> [String: String]? {
        var paths: [String: String] = [:]
        for key in keys {
            guard let id = OutputID(key: key), let file = outputs[id] else { return nil }
            paths[key] = file.path
        }
        return paths
    }

    func source(site: SiteConfig, made: [String: any Sendable], gone: Set<String>, bodies: [String: RenderedMarkdown],
                changed: [String]) -> RememberedSource {
        let model = OverlaidModel(base: last, site: site, made: made, gone: gone, bodies: bodies)
        return RememberedSource(model: model, damaged: { [] }, made: { [:] })
    }

    /// Every shard, as reading what changed: `serve` does not record what each one's records read.
    func searchIndexes(reading keys: Set<String>) throws -> [(name: String, key: String, reads: Bool)] {
        search.map { ($0.name, $0.key, true) }
    }

    func published(under prefix: String) throws -> [String: String] {
        var published: [String: String] = [:]
        for (source, target) in links where target.hasPrefix(prefix) { published[target] = SearchStage.identity(source: source, target: target) }
        return published
    }
}

/// A model in memory with pieces made again in place of its own (`made`, by key), some taken out
/// (`gone`), and bodies rendered again: what an update renders from (`BuildMemory.source`).
final class OverlaidModel: ModelSource {
    private let base: any ModelSource
    let site: SiteConfig
    private let made: [String: any Sendable]
    private let gone: Set<String>
    private let bodies: [String: RenderedMarkdown]
    private let sortedReports = Mutex<[String]?>(nil)

    init(base: any ModelSource, site: SiteConfig, made: [String: any Sendable], gone: Set<String>, bodies: [String: RenderedMarkdown]) {
        (self.base, self.site, self.made, self.gone, self.bodies) = (base, site, made, gone, bodies)
    }

    func piece<Value>(_ kind: PieceKind<Value>, _ id: String) -> Value? {
        let key = kind.key(id)
        if let piece = made[key] { return piece as? Value }
        if gone.contains(key) { return nil }
        return base.piece(kind, id)
    }

    var reportIDs: [String] {
        guard made[ModelPieces.reportOrder.key()] != nil else { return base.reportIDs }
        return sortedReports.withLock { sorted in
            if let sorted { return sorted }
            let made = (piece(ModelPieces.reportOrder, "") ?? []).sortedByBytes()
            sorted = made
            return made
        }
    }

    func body(_ file: String) -> RenderedMarkdown? {
        if let made = bodies[file] { return made }
        return gone.contains(Dependency.body(file).key) ? nil : base.body(file)
    }

    func lead(_ file: String) -> String? {
        if let made = bodies[file] { return Summaries.lead(of: made.text) }
        return gone.contains(Dependency.body(file).key) ? nil : base.lead(file)
    }
}
