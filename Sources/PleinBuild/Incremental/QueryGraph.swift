import PleinRender

/// What each output read, as a graph: the one change detector of `plein build` and `plein serve`.
///
/// The inputs are facts (`Facts`): a piece of the model, a body, an image, a template, the theme
/// or the site's settings, each named by its `Dependency.key` and known by a fingerprint. Each
/// output is a query over them: rendering it records what it read. After an edit, the facts
/// whose fingerprint changed name the outputs to render again, through the readers of each fact
/// (the reverse edges); an output that read nothing that changed is kept as it is.
///
/// Nodes are interned: a read is a 32-bit index into `keys`, which is how the build store keeps
/// them. The readers of a node are found from the reads when first asked for, then kept up to
/// date as outputs are recorded, so that `serve` pays for an edit, not for the site.
struct QueryGraph: Sendable {
    /// Node names (`Dependency.key`) by index.
    private(set) var keys: [String] = []
    private var index: [String: Int32] = [:]
    /// What each output read (by `OutputID.key`), as sorted node indexes.
    private(set) var reads: [String: [Int32]] = [:]
    /// The outputs that read each node, by node index; built from `reads` when first needed.
    private var readers: [Int32: Set<String>]?
    /// The nodes of the dependencies recorded in this process: found without making their keys.
    private var dependencyNodes: [Dependency: Int32] = [:]
    /// Each node's `ReadsDigest.hash`, by index, made when first asked for.
    private var hashes: [(UInt64, UInt64)] = []

    init() {}

    /// A graph as the build store keeps it: the node names and each output's reads.
    init(keys: [String], reads: [String: [Int32]]) {
        self.keys = keys
        self.reads = reads
        index.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { index[key] = Int32(position) }
    }

    /// The node of `key`, added when it is new.
    mutating func node(_ key: String) -> Int32 {
        if let known = index[key] { return known }
        let position = Int32(keys.count)
        keys.append(key)
        index[key] = position
        return position
    }

    /// The node of `dependency`, added when it is new.
    private mutating func node(_ dependency: Dependency) -> Int32 {
        if let known = dependencyNodes[dependency] { return known }
        let made = node(dependency.key)
        dependencyNodes[dependency] = made
        return made
    }

    /// The nodes of `dependencies`, sorted (added when new): what a search index's records read.
    mutating func nodes(_ dependencies: Set<Dependency>) -> [Int32] {
        dependencies.map { node($0) }.sorted()
    }

    /// Records what `output` read in its last rendering, in place of what it read before.
    mutating func record(_ output: String, read dependencies: Set<Dependency>) {
        let nodes = nodes(dependencies)
        let before = reads.updateValue(nodes, forKey: output)
        // (Most outputs rendered again read what they read before.)
        guard readers != nil, before != nodes else { return }
        for node in before ?? [] { readers![node]?.remove(output) }
        for node in nodes { readers![node, default: []].insert(output) }
    }

    /// The digest of what `output` read (`ReadsDigest`), as last recorded.
    mutating func digest(of output: String) -> [UInt8] {
        while hashes.count < keys.count { hashes.append(ReadsDigest.hash(keys[hashes.count])) }
        return ReadsDigest.digest((reads[output] ?? []).lazy.map { [hashes] in hashes[Int($0)] })
    }

    /// Forgets an output the site no longer has.
    mutating func remove(_ output: String) {
        guard let before = reads.removeValue(forKey: output), readers != nil else { return }
        for node in before { readers![node]?.remove(output) }
    }

    /// Whether the output of this key was rendered before (what it read is known).
    func knows(_ output: String) -> Bool {
        reads[output] != nil
    }

    /// The outputs that read one of the facts named in `changed`.
    ///
    /// The first call builds the readers of every node (one pass over the reads); a graph that
    /// is asked once, as `plein build`'s is, asks the reads directly instead.
    mutating func outputs(reading changed: Set<String>, keepingReaders: Bool) -> Set<String> {
        let nodes = Set(changed.compactMap { index[$0] })
        guard !nodes.isEmpty else { return [] }
        if readers == nil, !keepingReaders {
            return Set(reads.compactMap { output, read in read.contains(where: nodes.contains) ? output : nil })
        }
        prepareReaders()
        var found: Set<String> = []
        for node in nodes { found.formUnion(readers![node] ?? []) }
        return found
    }

    /// Builds the readers of every node, if not yet built (one pass over the reads).
    mutating func prepareReaders() {
        guard readers == nil else { return }
        var built: [Int32: Set<String>] = [:]
        for (output, read) in reads {
            for node in read { built[node, default: []].insert(output) }
        }
        readers = built
    }

    /// The outputs to render: all of `ids` when the site's settings changed; else those that
    /// are new (no reads recorded) and those that read a fact in `changed`.
    mutating func outputsToRender(_ ids: [OutputID], changed: Set<String>, keepingReaders: Bool) -> [OutputID] {
        if changed.contains(Facts.siteKey) { return ids }
        let affected = outputs(reading: changed, keepingReaders: keepingReaders)
        return ids.filter { id in
            let key = id.key
            return reads[key] == nil || affected.contains(key)
        }
    }
}
