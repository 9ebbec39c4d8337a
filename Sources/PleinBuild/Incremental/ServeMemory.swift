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
    private let lastBodies: Bodies
    private let images: ImageCatalog
    private let content: Content
    private let loaded: ContentState
    private let loadProblems: [Diagnostic]
    private let counts: [String: Int]
    private let digests: [String: [UInt8]]
    private let factValues: [String: [UInt8]]
    /// What each output read (its table of readers made once, when first asked).
    private let graph: Mutex<QueryGraph>
    private let outputs: [OutputID: OutputFile]
    private let search: [ServedIndex]
    /// Cache file → output path, of the files published as they are (search indexes among them).
    private let links: [(String, String)]

    init(model: SiteModel, bodies: BodiesStage, images: ImageCatalog, content: Content, loaded: ContentState, loadProblems: [Diagnostic],
         problems: [String: Int], facts: Facts,
         graph: QueryGraph, outputs: [OutputID: OutputFile], search: [ServedIndex], links: [(String, String)]) {
        last = InMemoryModel(model: model, bodies: bodies.bodies, images: images)
        (lastBodies, self.images) = (bodies.bodies, images)
        self.content = content
        self.loaded = loaded
        self.loadProblems = loadProblems
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

    /// The whole content, as `serve` last loaded it.
    func contentBefore(_ slice: ContentSlice, edited: Set<String>, added: Set<String>, removed: Set<String>, options: BuildOptions,
                       timer: inout PhaseTimer) throws -> ContentBefore {
        ContentBefore(content: content, state: loaded, diagnostics: loadProblems, fs: .disk(options.content))
    }

    func problemCounts() -> [String: Int] { counts }

    func files(writing addresses: [String]) throws -> Set<String> {
        let keys = addresses.map(Email.key)
        return Set(content.sources.filter { _, text in
            var text = text
            return text.withUTF8 { bytes in keys.contains { Email.mayBeWritten($0, in: UnsafeRawBufferPointer(bytes)) } }
        }.keys)
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
        try graph.locked { graph in
            // (Every output reads the site's settings, unrecorded.)
            try (keys.contains(Facts.siteKey) ? Set(outputs.keys.map(\.key)) : graph.outputs(reading: keys, keepingReaders: true)).sorted().compactMap { key in
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

    /// (`model` is whole: the one `model(…)` gave, made again in place.)
    func source(model: SiteModel, images new: ImageCatalog, gone: Set<String>, bodies: [String: RenderedMarkdown], changed: [String]) -> RememberedSource {
        var catalog = images
        catalog.images.merge(new.images) { _, new in new }
        let base = InMemoryModel(model: model, bodies: lastBodies, images: catalog)
        let source = OverlaidModel(base: base, gone: gone, bodies: bodies)
        return RememberedSource(model: source, pieces: [:], damaged: { [] }, made: { [:] })
    }

    func searchIndexes(reading keys: Set<String>) throws -> [(name: String, key: String, reads: Bool)] {
        search.map { ($0.name, $0.key, !$0.reads.isDisjoint(with: keys)) }
    }

    func published(under prefix: String) throws -> [String: String] {
        var published: [String: String] = [:]
        for (source, target) in links where target.hasPrefix(prefix) { published[target] = SearchStage.identity(source: source, target: target) }
        return published
    }
}

/// The model an update made, in memory, with the bodies it rendered again over the last
/// build's, and the pieces and bodies it took out gone: what an update renders from
/// (`ServeMemory.source`).
final class OverlaidModel: ModelSource {
    private let base: InMemoryModel
    private let gone: Set<String>
    private let bodies: [String: RenderedMarkdown]

    init(base: InMemoryModel, gone: Set<String>, bodies: [String: RenderedMarkdown]) {
        (self.base, self.gone, self.bodies) = (base, gone, bodies)
    }

    var site: SiteConfig { base.site }
    var reportIDs: [String] { base.reportIDs }

    func piece<Value>(_ kind: PieceKind<Value>, _ id: String) -> Value? {
        gone.contains(kind.key(id)) ? nil : base.piece(kind, id)
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
