import Foundation
import PleinCore
import PleinRender

/// The photos, posters and videos of members-only groups, sealed: each file the image and video
/// stages made for such a group is published as `groups/<g>/sealed/<token>.bin` (its name
/// HMAC'd, its bytes sealed by `SealedGroup.seal`), never under its name in the open, which
/// holds the hash of the original. The sealed files are kept in the cache (`sealed/`), like the
/// variants they are made from, so that a build seals only what is new and `plein serve` serves
/// them as it serves variants.
struct SealedMedia {
    let sealing: Sealing
    let cacheRoot: String

    var folder: String { cacheRoot + "/sealed" }

    /// Moves the catalog's items of members-only groups to sealed paths, and `links` (cache file →
    /// output path) to sealed files. Files that open groups publish stay as they are.
    func apply(_ catalog: inout ImageCatalog, links: inout [(String, String)]) {
        guard !sealing.isEmpty else { return }
        var wanted: [String: (group: SealedGroup, path: String)] = [:]
        var open = Set<String>()
        func seal(_ plain: String, _ group: SealedGroup?) -> String {
            guard let group else {
                open.insert(plain)
                return plain
            }
            let path = Routes.sealed(group.id, token: group.token(plain)) + ".bin"
            wanted[path] = (group, plain)
            return path
        }
        for (path, image) in catalog.images {
            let group = Publication.group(of: path).flatMap { sealing[$0] }
            func variant(_ v: PublishedImage.Variant) -> PublishedImage.Variant { .init(path: seal(v.path, group), width: v.width, height: v.height) }
            guard group != nil else {
                _ = (image.variants + image.avif + [image.display] + (image.preview.map { [$0] } ?? [])).map(variant)
                continue
            }
            catalog.images[path] = PublishedImage(
                variants: image.variants.map(variant), avif: image.avif.map(variant), display: variant(image.display),
                preview: image.preview.map(variant), info: image.info, video: image.video)
        }
        for (path, video) in catalog.videos {
            guard let file = video.path else { continue }
            let group = Publication.group(of: path).flatMap { sealing[$0] }
            catalog.videos[path] = PublishedVideo(path: seal(file, group), width: video.width, height: video.height, duration: video.duration)
        }
        let sources = Dictionary(links.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
        let sealedOnly = Set(wanted.values.map(\.path)).subtracting(open)
        links = links.filter { !sealedOnly.contains($0.1) }
        let jobs = wanted.keys.sorted().map { (path: $0, group: wanted[$0]!.group, plain: wanted[$0]!.path) }
        let made = parallelMap(jobs) { [folder] job -> (String, String)? in
            let (path, group, plain) = job
            guard let source = sources[plain] else { return nil }
            // Named after its key, its name and the file it seals (whose name changes with the
            // settings it was made with), so that a file made again is sealed again.
            let file = folder + "/" + Self.prefix(group) + Hashing.sha256Hex(Array(source.utf8)).prefix(16) + "-" + (path as NSString).lastPathComponent
            if !FileManager.default.fileExists(atPath: file) {
                guard let bytes = FileManager.default.contents(atPath: source) else { return nil }
                let temporary = file + ".tmp-\(getpid())"
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: temporary, contents: Data(group.seal(Array(bytes), at: path))) else { return nil }
                if rename(temporary, file) != 0 { unlink(temporary) }
            }
            return (file, path)
        }
        links += made.compactMap { $0 }
        prune(keeping: Set(made.compactMap { $0?.0 }))
    }

    /// A sealed file's name starts with its key's fingerprint: a build at another address (its
    /// salt is another) or with another passphrase seals into other files, and leaves these alone.
    static func prefix(_ group: SealedGroup) -> String { String(group.fingerprint.prefix(12)) + "-" }

    /// Removes the files sealed with these keys that nothing publishes now (a photo removed or
    /// changed). Files of other keys are another address's (`plein serve` beside a build), or of a
    /// passphrase no longer used, and are left.
    private func prune(keeping keep: Set<String>) {
        let prefixes = sealing.values.map(Self.prefix)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where prefixes.contains(where: name.hasPrefix) && !keep.contains(folder + "/" + name) {
            unlink(folder + "/" + name)
        }
    }
}
