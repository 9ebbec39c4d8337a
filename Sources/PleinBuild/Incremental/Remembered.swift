import Foundation
import PleinCore
import PleinLoad
import PleinModel
import PleinRender

/// A build's dealings with the build store: what the last `plein build` left (`previous`), and
/// what this one will leave (`next`). It decides which outputs to render again (those that read
/// a fact that changed), and tells the writer which to keep and which to take away.
struct Remembered: Sendable {
    let previous: BuildStore.Snapshot?
    var next: BuildStore.Snapshot
    /// Output paths not rendered again: their bytes are those of the output folder.
    private(set) var kept: [String] = []
    /// Paths that the new site lacks but the output folder or the spare may hold.
    private(set) var removed: [String] = []
    /// Output paths added, changed and removed since the output folder's site.
    private(set) var added: [String] = [], changed: [String] = [], gone: [String] = []
    /// What each output of the last build read (the one change detector, shared with `serve`).
    private var graph: QueryGraph
    /// The outputs this build rendered, by key (`OutputID.key`), sorted.
    private(set) var renderedKeys: [String] = []
    /// Records read by earlier builds from files whose bytes have not changed since.
    let known: KnownRecords?
    /// For a build without a snapshot to compare with: the records it read, written while it
    /// checks (`RecordsAhead`).
    let ahead: RecordsAhead?

    /// `next` starts with what is known before loading: the fingerprint, HEAD and content hashes.
    init(previous: BuildStore.Snapshot?, next: BuildStore.Snapshot, known: KnownRecords? = nil, ahead: RecordsAhead? = nil) {
        self.previous = previous
        self.next = next
        self.known = known
        self.ahead = ahead
        graph = QueryGraph(keys: previous?.dependencyKeys ?? [], reads: previous?.outputs.mapValues(\.dependencies) ?? [:])
    }

    /// Everything a build's output depends on besides the content and the theme: plein itself,
    /// the options and Leaflet. A different fingerprint means a full build.
    static func fingerprint(_ options: BuildOptions, leaflet: Leaflet?) -> String {
        var text = "plein \(PleinVersion.number) store \(BuildStore.format) binary \(executable)\n"
        text += "output \(URL(fileURLWithPath: options.output).standardizedFileURL.path)\n"
        text += "base \(options.baseURL ?? "-")\nhistory \(options.history)\n"
        text += "secret \(options.secret.map { Hashing.sha256Hex($0) } ?? "-")\n"
        text += "passphrases \(SealingStage.fingerprint(options.passphrases))\n"
        text += "footer \(options.pageFooterInjection ?? "-")\nsitemap \(options.sitemapSplit)\n"
        text += "pagefind \(options.pagefind.map { Pagefind(executable: $0).identity } ?? "-")\n"
        text += "ffmpeg \(options.ffmpegIdentity)\n"
        for file in leaflet?.files ?? [] { text += "leaflet \(file.path) \(Hashing.sha256Hex(file.bytes))\n" }
        return Hashing.sha256Hex(Array(text.utf8))
    }

    /// The theme's files, by path and SHA-256: a build whose theme is as it was, and whose content
    /// is too, has nothing to do. What an edit of the theme changed is told by the facts of the
    /// templates and the theme (`Facts`), as for any other input.
    static func themeFingerprint(_ theme: ContentFS) -> String {
        var text = ""
        func walk(_ directory: String) {
            for entry in ((try? theme.list(directory)) ?? []).sorted(by: { $0.name < $1.name }) where !entry.name.hasPrefix(".") {
                let path = directory.isEmpty ? entry.name : directory + "/" + entry.name
                if entry.kind == .directory {
                    walk(path)
                } else {
                    text += "theme \(path) \((try? theme.read(path)).map { Hashing.sha256Hex($0) } ?? "unreadable")\n"
                }
            }
        }
        walk("")
        return Hashing.sha256Hex(Array(text.utf8))
    }

    /// The running program's file (size, time, inode): a plein built again from other sources
    /// under the same version number is another plein.
    private static let executable: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "?" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)"
    }()

    /// The outputs to render after the facts in `changed` changed since the previous build (new
    /// ones, and those the graph names for them: `QueryGraph.outputsToRender`).
    mutating func outputsToRender(_ ids: [OutputID], changed: Set<String>) -> [OutputID] {
        graph.outputsToRender(ids, changed: changed, keepingReaders: false)
    }

    /// Takes in the search index's shards: each one's name, cache folder and what its records read.
    mutating func take(searchIndexes: [(name: String, key: String, reads: Set<Dependency>)]) {
        next.searchIndexes = searchIndexes.map { BuildStore.SearchIndex(name: $0.name, key: $0.key, dependencies: graph.nodes($0.reads)) }
        next.dependencyKeys = graph.keys
    }

    /// Takes in what the build made: every output id, those rendered (with what they read and
    /// their hash), the facts and bodies, and the files published as they are (path → identity).
    /// Its cost follows what was rendered, apart from one pass over the ids.
    mutating func take(ids: [OutputID], rendered: [RenderStage.Rendered], facts: Facts, bodies: BodiesStage, published: [String: String]) {
        renderedKeys = rendered.map(\.id.key).sorted()
        let keys = ids.map(\.key)
        var outputs = previous?.outputs ?? [:]
        if previous != nil {
            let current = Set(keys)
            for key in Array(outputs.keys) where !current.contains(key) {
                outputs.removeValue(forKey: key)
                graph.remove(key)
            }
        }
        for output in rendered {
            let key = output.id.key
            // (An output that read what it read before keeps its reads as the store has them:
            // after a new title, 19,000 outputs' 450,000 reads were looked up again to find so.)
            if let old = previous?.outputs[key], !output.reads.isEmpty, old.reads == output.reads, graph.knows(key) {
                outputs[key] = BuildStore.Output(path: output.file.path, hash: output.hash, dependencies: old.dependencies, reads: old.reads)
                continue
            }
            graph.record(key, read: output.dependencies)
            outputs[key] = BuildStore.Output(path: output.file.path, hash: output.hash, dependencies: graph.reads[key] ?? [],
                                             reads: graph.digest(of: key))
        }
        next.dependencyKeys = graph.keys
        let renderedNow = Set(renderedKeys)
        kept = zip(ids, keys).compactMap { _, key in renderedNow.contains(key) ? nil : previous?.outputs[key]?.path }
        next.outputs = outputs
        next.facts = facts
        next.bodies = bodies
        next.published = published
        next.pages = outputs.values.count { $0.path.hasSuffix(".html") }
        next.files = outputs.count + published.count

        // What differs from the output folder's site, and what to take away from the spare.
        guard let previous else {
            added = (outputs.values.map(\.path) + published.keys).sorted()
            (changed, gone, removed) = ([], [], [])
            next.differences = Set(added)
            next.vanished = []
            return
        }
        var goneNow: [String: [UInt8]] = [:], addedNow: [String: [UInt8]] = [:]
        var changedNow: [String] = []
        for (key, old) in previous.outputs where outputs[key] == nil { goneNow[old.path] = old.hash }
        for output in rendered {
            let old = previous.outputs[output.id.key]
            if let old, old.path == output.file.path {
                if old.hash != output.hash { changedNow.append(old.path) }
                continue
            }
            addedNow[output.file.path] = output.hash
            if let old { goneNow[old.path] = old.hash }
        }
        for (path, identity) in published {
            if let was = previous.published[path] {
                if was != identity { changedNow.append(path) }
            } else {
                addedNow[path] = Array(identity.utf8)
            }
        }
        for (path, identity) in previous.published where published[path] == nil { goneNow[path] = Array(identity.utf8) }
        // A path one output left and another took is changed, or the same.
        for path in Array(addedNow.keys) where goneNow[path] != nil {
            if goneNow[path] != addedNow[path] { changedNow.append(path) }
            addedNow.removeValue(forKey: path)
            goneNow.removeValue(forKey: path)
        }
        added = addedNow.keys.sorted()
        changed = changedNow.sorted()
        gone = goneNow.keys.sorted()
        // The spare is the site before the output's: it may also hold what the last build took away.
        removed = Set(gone).union(previous.vanished.filter { addedNow[$0] == nil }).sorted()
        next.differences = Set(added + changed + gone)
        next.vanished = Set(gone)
    }
}
