import PleinCore
import PleinModel
import PleinRender

/// What the last successful build made: the base the next update compares with, and what a
/// served site is read from.
struct LastBuild: Sendable {
    var model: SiteModel?
    var bodies = BodiesStage()
    var catalog = ImageCatalog()
    /// Files made in the cache and published as they are (image variants, search indexes):
    /// cache file → output path.
    var imageLinks: [(String, String)] = []
    /// Report attachments published as they are: content-relative source → output path.
    var attachments: [(source: String, target: String)] = []
    /// For serving from memory: checked copies of the attachments (output path → copy).
    var attachmentCopies: [String: String] = [:]
    var outputs: [OutputID: OutputFile] = [:]
    var assets: [OutputFile] = []
    /// What each output read, and the facts it was read from (for `serve`; `build` keeps them in
    /// the store, `Remembered`).
    var graph = QueryGraph()
    var facts: Facts?

    typealias Update = SiteState.Update

    /// Takes in what a build rendered (`ids` are all of the site's outputs now) and tells what
    /// changed.
    mutating func take(rendered: [RenderStage.Rendered], of ids: [OutputID]) -> Update {
        var update = Update(rendered: rendered.count)
        let keep = Set(ids)
        for (id, old) in outputs where !keep.contains(id) {
            outputs.removeValue(forKey: id)
            graph.remove(id.key)
            update.removed.append(old.path)
        }
        for output in rendered {
            if outputs[output.id] != output.file { update.changed.append(output.file.path) }
            outputs[output.id] = output.file
            graph.record(output.id.key, read: output.dependencies)
        }
        return update
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
        update.changed.sort()
        update.removed.sort()
    }
}
