import Foundation
import PleinCore
import PleinRender

/// The search stage: one Pagefind index per shard of `SearchRecords` (an area's reports, or the
/// rest of the community), made in the cache folder under the SHA-256 of what goes into it and
/// published by hard links, as image variants are. A shard whose records did not change is not
/// indexed again, so an edit costs the indexing of the shard it touched; the indexes are linked
/// into the staging folder and swapped in with the rest of the site.
struct SearchStage: Sendable {
    /// `<cache>/search`.
    let root: String
    let pagefind: Pagefind
    /// Whether to print the phases' times (`BuildOptions.timings`).
    let timings: Bool

    struct Outcome: Sendable {
        /// Cache file → output path.
        var links: [(String, String)] = []
        var shards = 0
        /// Each shard's cache folder (`key`), in the order of the shards.
        var keys: [String] = []
        /// Shards indexed now (the others came from the cache).
        var indexed = 0
        /// Shards Pagefind failed on, with why: their part of the site is missing from search.
        var problems: [String] = []
    }

    /// What a shard's published folder leaves out of Pagefind's files: its ready-made interfaces
    /// (the theme has its own search page) and the loader of languages plein does not use.
    static func publishes(_ path: String, primary: Bool) -> Bool {
        if path.hasPrefix("pagefind-ui") || path.hasPrefix("pagefind-modular-ui") || path.hasPrefix("pagefind-component-ui")
            || path == "pagefind-highlight.js" || path == "wasm.unknown.pagefind" {
            return false
        }
        // Only the first index loads Pagefind's script; the others are merged into it.
        if path == "pagefind.js" || path == "pagefind-worker.js" { return primary }
        return true
    }

    /// Whether Pagefind (or `PagefindFiles`) names the file after its bytes: the index's words,
    /// fragments, filters and metadata.
    static func isNamedByContent(_ path: String) -> Bool {
        path.contains("/fragment/") || path.contains("/index/") || path.contains("/filter/") || path.hasSuffix(".pf_meta")
    }

    /// Every shard of the site (the first one loads Pagefind's script), with the cache folders
    /// of earlier builds pruned.
    func run(_ shards: [SearchShard], language: String, routes: Routes) -> Outcome {
        let result = index(shards.enumerated().map { ($1, $0 == 0) }, language: language, routes: routes)
        // The indexes of earlier builds: their files live on in the outputs as hard links.
        let used = Set(result.keys + ["shared"])
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where !used.contains(entry) {
            Self.remove(entry, in: root)
        }
        pruneShared(keeping: result.links.map(\.0))
        return result
    }

    /// Some shards of the site, each made again unless its cache folder holds it; the cache's
    /// other folders are left as they are (an edit's, `RecordEdit`).
    func index(_ shards: [(shard: SearchShard, primary: Bool)], language: String, routes: Routes) -> Outcome {
        var result = Outcome(shards: shards.count)
        var timer = PhaseTimer(enabled: timings)
        let fm = FileManager.default
        try? fm.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
        let identity = pagefind.identity
        let keyed = parallelMap(shards) { shard, primary in
            (shard, primary, Self.key(shard, primary: primary, language: language, pagefind: identity))
        }
        // A shard is made again when its folder is not whole (or its shared module was removed).
        let missing = keyed.filter { _, _, key in
            guard let files = Self.files(root: root, key: key) else { return true }
            return files.contains { $0.source.hasPrefix(root + "/shared/") && !fm.fileExists(atPath: $0.source) }
        }
        timer.lap("    search: keys")
        // Each index is plein's work (the records out, the files back) and then Pagefind's: twice
        // as many at once as there are cores keeps both busy.
        // (The largest first: the last to finish is then a small one, not one left on its own.)
        let order = missing.indices.sorted { missing[$0].0.records.count > missing[$1].0.records.count }
        let made = parallelMap(order.map { missing[$0] }, maxConcurrent: 2 * ProcessInfo.processInfo.activeProcessorCount) { [pagefind, root] shard, primary, key -> String? in
            switch pagefind.index(shard.records, language: language) {
            case .failure(let failure): return "\(shard.name): \(failure.description)"
            case .success(let files): return Self.store(PagefindFiles.canonical(files), primary: primary, in: root, key: key)
            }
        }
        timer.lap("    search: Pagefind (\(missing.count) indexes)")
        result.indexed = missing.count
        result.problems = made.compactMap { $0 }.sorted()
        for (shard, _, key) in keyed {
            result.keys.append(key)
            guard let files = Self.files(root: root, key: key) else { continue }
            result.links += files.map { ($0.source, routes.searchIndex(shard.name) + $0.path) }
        }
        timer.lap("    search: files")
        return result
    }

    /// What the build store keeps of a published file of an index (`published`'s identity):
    /// Pagefind names most of them after their bytes; the others are told by their bytes.
    static func identity(source: String, target: String) -> String {
        isNamedByContent(target) ? "search"
            : "bytes " + ((try? Data(contentsOf: URL(fileURLWithPath: source))).map { Hashing.sha256Hex(Array($0)) } ?? "?")
    }

    /// The cache folder of a shard: its name and the SHA-256 of everything its index is made from
    /// (each field length-prefixed, so that no two record lists read alike).
    static func key(_ shard: SearchShard, primary: Bool, language: String, pagefind identity: String) -> String {
        var stream = Hashing.Stream()
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                var count = UInt64(bytes.count).littleEndian
                withUnsafeBytes(of: &count) { stream.update($0) }
                stream.update(UnsafeRawBufferPointer(bytes))
            }
        }
        func add(_ map: [String: String]) {
            add(String(map.count))
            for key in map.keys.sorted() { add(key); add(map[key]!) }
        }
        add("cache \(Self.cacheFormat) pagefind \(identity) language \(language) primary \(primary) records \(shard.records.count)")
        for record in shard.records {
            add(record.url)
            add(record.content)
            add(record.meta)
            add(record.sort)
            add(String(record.filters.count))
            for key in record.filters.keys.sorted() {
                add(key)
                add(String(record.filters[key]!.count))
                record.filters[key]!.forEach { add($0) }
            }
        }
        return shard.name + "-" + String(stream.finalizeHex().prefix(32))
    }

    /// Writes a shard's published files into a new cache folder, renamed into place when whole.
    /// nil, or what went wrong.
    private static func store(_ files: [(path: String, bytes: [UInt8])], primary: Bool, in root: String, key: String) -> String? {
        let fm = FileManager.default
        let temporary = root + "/.making-\(getpid())-" + key
        try? fm.removeItem(atPath: temporary)
        var manifest = ""
        do {
            for file in files where publishes(file.path, primary: primary) {
                guard !file.path.hasPrefix("/"), !file.path.split(separator: "/").contains("..") else { continue }
                let path = temporary + "/" + file.path
                try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if file.path.hasPrefix("wasm.") {
                    let shared = root + "/shared/" + Hashing.sha256Hex(file.bytes).prefix(32) + "-" + file.path
                    if !fm.fileExists(atPath: shared) { try Data(file.bytes).write(to: URL(fileURLWithPath: shared), options: .atomic) }
                    manifest += file.path + "\t" + Self.sharedMark + (shared as NSString).lastPathComponent + "\n"
                } else {
                    // (Written as the output's files are, not through `Data.write`: Foundation's
                    // syncs each file to the disk, a thousand waits for an area's index.)
                    try OutputWriter.create(path, OutputFile(path: file.path, bytes: file.bytes))
                    manifest += file.path + "\t" + file.path + "\n"
                }
            }
            try OutputWriter.create(temporary + "/" + Self.manifest, OutputFile(path: Self.manifest, bytes: Array(manifest.utf8)))
            if rename(temporary, root + "/" + key) != 0 {
                // A folder of this key that is not whole (left by a plein killed while removing
                // it, before removals were made whole): taken away, and this one put in its place.
                // (One that is whole, another build's, is as good as this one.)
                guard errno == ENOTEMPTY || errno == EEXIST else { throw CocoaError(.fileWriteUnknown) }
                if Self.files(root: root, key: key) != nil {
                    try? fm.removeItem(atPath: temporary)
                    return nil
                }
                Self.remove(key, in: root)
                guard rename(temporary, root + "/" + key) == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
            return nil
        } catch {
            try? fm.removeItem(atPath: temporary)
            return "\(key): cannot write the index into the cache (\(error.localizedDescription))"
        }
    }

    /// Takes the cache folder `name` out of `root` as a whole: renamed away first, so that a
    /// plein killed while it deletes the files leaves no folder of that key that lacks some of
    /// them (a key whose folder lacked its list of files, but held others, could not be made
    /// again, and a finished build lacked that part of search); what is left under the other
    /// name is taken away by the next full build's pruning (`run`).
    static func remove(_ name: String, in root: String) {
        let aside = root + "/.removing-\(getpid())-" + name
        let path = rename(root + "/" + name, aside) == 0 ? aside : root + "/" + name
        try? FileManager.default.removeItem(atPath: path)
    }

    /// In each cache folder, its files: `<file>\t<what to link>` per line, the second relative to
    /// the folder, or `shared:<name>` for the WebAssembly module all indexes share.
    static let manifest = ".files"
    static let sharedMark = "shared:"
    /// Changes when what a cache folder holds changes, so that no older folder is read.
    static let cacheFormat = 2

    /// A cache folder's files (path in the index → file to link), nil when it is not whole.
    static func files(root: String, key: String) -> [(path: String, source: String)]? {
        let folder = root + "/" + key
        guard let manifest = try? String(contentsOfFile: folder + "/" + Self.manifest, encoding: .utf8) else { return nil }
        return manifest.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            let source = parts[1].hasPrefix(sharedMark) ? root + "/shared/" + parts[1].dropFirst(sharedMark.count) : folder + "/" + parts[1]
            return (parts[0], source)
        }
    }

    private func pruneShared(keeping used: [String]) {
        let keep = Set(used)
        let shared = root + "/shared"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? [] where !keep.contains(shared + "/" + entry) {
            try? FileManager.default.removeItem(atPath: shared + "/" + entry)
        }
    }
}

/// The search stage of one build: its shards (each with what its records read, with the build
/// store: an edit then makes again the shards that read what it changed, `RecordEdit`) and
/// their indexes. Begun at once on another thread when `early`, else when its result is asked.
struct SearchRun {
    typealias Shards = [(shard: SearchShard, reads: Set<Dependency>)]
    let early: Bool
    private let work: @Sendable () -> (Shards, SearchStage.Outcome, milliseconds: Int)
    private let begun: Background<(Shards, SearchStage.Outcome, milliseconds: Int)>?

    init(stage: SearchStage, renderer: Renderer, tracked: Bool, language: String, routes: Routes, early: Bool) {
        work = {
            let start = DispatchTime.now().uptimeNanoseconds
            let shards = tracked ? renderer.searchShardsTracked() : renderer.searchShards().map { ($0, Set<Dependency>()) }
            let outcome = stage.run(shards.map(\.shard), language: language, routes: routes)
            return (shards, outcome, Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000))
        }
        self.early = early
        begun = early ? Background(work) : nil
    }

    /// The shards, their indexes, and how long the stage took from its beginning.
    func result() -> (Shards, SearchStage.Outcome, milliseconds: Int) {
        begun?.value ?? work()
    }
}
