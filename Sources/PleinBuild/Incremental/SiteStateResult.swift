public import PleinCore
public import PleinLoad
public import PleinModel
public import PleinRender
import Foundation
import PleinImages

extension SiteState {
    // MARK: Reading the result

    /// The files the last load or reload read (for tests).
    var readAgain: Set<String> { contentState.filesRead }

    /// Whether the current content built (no errors); when false, the outputs are the last good ones.
    public var succeeded: Bool { !diagnostics.hasErrors && last.model != nil }

    /// The day the last model was built for, with the site's zone (`2026-11-23 Europe/Amsterdam`):
    /// a build on another day is not a build in which nothing changed, as events may have passed.
    var builtForDay: String { last.model.map(BuildStore.day) ?? "" }

    /// How many of the current problems point into each content file (content-relative).
    var problemCounts: [String: Int] {
        let prefix = content.displayRoot + "/"
        var counts: [String: Int] = [:]
        for file in diagnostics.map(\.file) where file.hasPrefix(prefix) { counts[String(file.dropFirst(prefix.count)), default: 0] += 1 }
        return counts
    }

    /// What an update changed in the output.
    public struct Update: Sendable {
        /// Output paths written again (new or changed bytes).
        public var changed: [String] = []
        /// Output paths that no longer exist.
        public var removed: [String] = []
        /// Outputs rendered (for measuring how incremental an update was).
        public var rendered = 0
        /// Of `changed`, the pages of the edited records, which were rendered and handed to
        /// `first` before the others.
        public var first: [String] = []
    }

    /// Told the site's files as soon as the pages of the edited records are rendered, with the
    /// output paths of those that changed (the other outputs the edit changes follow).
    public typealias FirstPages = @Sendable (ServedFiles, [String]) -> Void

    /// A file of the site: bytes in memory, or a file plein made in its cache (image variants,
    /// checked copies of attachments). Never a file of the content folder itself.
    public enum Served: Sendable {
        case bytes([UInt8])
        case disk(String)
    }

    /// Every file of the current site by output path (not for a streamed build).
    public var files: ServedFiles {
        precondition(stream == nil, "a streamed build keeps no files")
        return last.served
    }

    /// What the search index of the current site holds, by shard.
    func searchShards() -> [SearchShard] {
        searchingRenderer()?.searchShards() ?? []
    }

    /// A renderer of the current site with its search page, as the last build left it.
    func searchingRenderer(sealing: Sealing = [:]) -> Renderer? {
        guard let model = last.model, let theme else { return nil }
        return Renderer(model: model, theme: theme, bodies: last.bodies.bodies, images: last.catalog,
                        options: RenderOptions(threadKeys: threadKeys, search: true, sealing: sealing, sitemapSplit: options.sitemapSplit))
    }

    public var pageCount: Int { remembered?.next.pages ?? last.outputs.values.count { $0.path.hasSuffix(".html") } }
    /// Published photos and avatars (video posters are counted with their videos).
    public var imageCount: Int { last.catalog.images.count - last.catalog.images.keys.filter { last.catalog.videos[$0] != nil }.count }
    public var videoCount: Int { last.catalog.videos.count }
    public var outputCount: Int {
        remembered?.next.files ?? last.outputs.count + last.assets.count + last.imageLinks.count + last.attachments.count
    }

    /// Writes the site to `options.output` all at once (or not at all), then prunes the cache.
    public func write() throws(OutputWriter.Failure) {
        try write(finishing: OutputWriter(output: options.output))
    }

    /// Writes what `writer` lacks (everything, unless the outputs were streamed to it) and swaps
    /// the result in.
    func write(finishing writer: OutputWriter) throws(OutputWriter.Failure) {
        var timer = PhaseTimer(enabled: options.timings)
        do throws(OutputWriter.Failure) {
            if let streamFailure { throw streamFailure }
            let files = (stream == nil ? Array(last.outputs.values) : []) + last.assets
            let failures = parallelMap(files) { file -> OutputWriter.Failure? in
                do throws(OutputWriter.Failure) { try writer.write(file) } catch { return error }
                return nil
            }
            if let failure = failures.compactMap({ $0 }).first { throw failure }
            if let remembered {
                for path in remembered.removed { writer.remove(path) }
                for path in remembered.kept { try writer.keep(path) }
            }
            // (Image variants and the search index's files: 13,000 of them at 10,000 reports, each
            // a file to make, on every core.)
            let copied = parallelMap(last.imageLinks) { source, target -> OutputWriter.Failure? in
                do throws(OutputWriter.Failure) { try writer.copy(source, as: target) } catch { return error }
                return nil
            }
            if let failure = copied.compactMap({ $0 }).first { throw failure }
            for (source, target) in last.attachments { try writer.copyContent(root: options.content, source, as: target) }
            timer.lap("write")
            try writer.commit()
            timer.lap("swap")
        } catch {
            writer.discard()
            throw error
        }
        _ = images.processor.cache.finish()
        videos.processor.finish()
    }
}

extension SiteState {
    /// What each file published as it is consists of, for the build store: an asset's bytes, a
    /// derived image's file, an attachment's content.
    /// The build store's identity of a file published from the cache (an image's variant, a video).
    static func identity(ofLink source: String) -> String {
        var info = stat()
        return "file \(source) \(stat(source, &info) == 0 ? info.st_ino : 0)"
    }

    func published(assets: [OutputFile], imageLinks: [(String, String)], searchLinks: [(String, String)],
                           attachments: [(source: String, target: String)]) -> [String: String] {
        var identities: [String: String] = [:]
        for asset in assets { identities[asset.path] = "bytes " + Hashing.sha256Hex(asset.bytes) }
        // (A search index made again may hold files as they were.)
        for (source, target) in searchLinks { identities[target] = SearchStage.identity(source: source, target: target) }
        for (source, target) in imageLinks { identities[target] = Self.identity(ofLink: source) }
        for (source, target) in attachments {
            let hash = remembered?.next.content[source].map { Hashing.sha256Hex($0.hash) } ?? "?"
            identities[target] = "content \(source) \(hash)"
        }
        return identities
    }
}
