import Foundation
import PleinCore
import PleinImages
import PleinModel
import PleinRender

/// What an edit's new album photos publish (`RecordUpdate.mediaChange`): each one's published
/// form, its files for the output, and when each photo of their albums was taken (their order).
struct MediaChange {
    /// The new photos as the pages show them.
    var catalog = ImageCatalog()
    /// When each photo of the albums the edit adds photos to was taken, by path (nil: unknown).
    var captureTimes: [String: Moment] = [:]
    /// Files to put into the output: cache file → output path.
    var writes: [(source: String, target: String)] = []
    /// The build store's identity of each file written (`published`).
    var identities: [(path: String, identity: String)] = []
    /// The output paths among `writes` that the last build did not publish.
    var added: [String] = []
    /// Variants made now (the others were in the cache).
    var made = 0
}

extension RecordUpdate {
    /// Whether `path` is an album's photo (not a video).
    static func isPhoto(_ path: String) -> Bool {
        guard case .photo = FileRole.of(path) else { return false }
        return FileRole.imageExtensions.contains(FileRole.splitExtension(path).ext.lowercased())
    }

    /// The edit's album photos (all new ones: `StoreSession.editedRecordFiles`).
    var photos: Set<String> { Set(files.filter(Self.isPhoto)) }

    /// The new photos' variants (made through the image cache, as the full build makes them),
    /// their published forms (their positions as `Privacy.PhotoPositions` allows), and when each
    /// photo of their albums was taken: the new ones by their headers, the others as the last
    /// build published them. Nil, for the build that loads everything, when a photo cannot be
    /// read or has too many pixels, its album's group is not published, or the memory lacks the
    /// published form of a photo of the album (or of a video's poster).
    func mediaChange(_ content: Content, site: SiteConfig) -> MediaChange? {
        var change = MediaChange()
        let new = photos
        guard !new.isEmpty else { return change }
        let publication = Publication(content, sealed: [])
        guard new.allSatisfy(publication.publishes) else { return nil }
        let processor = ImageProcessor(cache: ImageCache(root: options.cacheRoot), maxPixels: site.maxPixels, avif: site.avif)
        var processed: [String: ProcessedImage] = [:]
        for path in new.sorted() {
            guard case .success(let image) = processor.process(ImageJob(source: options.content + "/" + path, path: path, kind: .photo)) else {
                return nil
            }
            processed[path] = image
            change.made += image.made
        }
        // The order of each album's photos and videos: when each was taken (a video's, as its
        // poster was published with it).
        for album in content.albums where new.contains(where: { $0.hasPrefix(album.folder + "/") }) {
            for file in album.imageFiles {
                let path = album.folder + "/" + file
                if let image = processed[path] {
                    change.captureTimes[path] = ImageStage.captureTime(image.info, clock: content.site.clock)
                } else {
                    guard let item = (try? memory.piece(ModelPieces.image.key(path), as: PublishedItem.self)) ?? nil,
                          let info = item.image?.info else { return nil }
                    change.captureTimes[path] = info.takenAt.map { Moment(seconds: $0) }
                }
            }
        }
        let positions = Privacy.PhotoPositions(content)
        for (path, image) in processed.sorted(by: { $0.key < $1.key }) {
            let taken = image.info.latitude.flatMap { lat in image.info.longitude.map { Coordinate(lat: lat, lon: $0) } }
            let (entry, links) = ImageStage.describe(image, takenAt: change.captureTimes[path] ?? nil,
                                                     at: taken.flatMap { positions.position(of: path, takenAt: $0) })
            change.catalog.images[path] = entry
            for (source, target) in links {
                change.writes.append((source, target))
                change.identities.append((target, SiteState.identity(ofLink: source)))
            }
        }
        // (A photo of the same bytes and name elsewhere publishes the same files.)
        let published = Dictionary(change.identities.map { ($0.path, $0.identity) }, uniquingKeysWith: { a, _ in a })
        for prefix in Set(change.writes.map { ($0.target as NSString).deletingLastPathComponent + "/" }) {
            guard let before = try? memory.published(under: prefix) else { return nil }
            change.added += published.keys.filter { $0.hasPrefix(prefix) && before[$0] == nil }
            change.writes.removeAll { $0.target.hasPrefix(prefix) && before[$0.target] == published[$0.target] }
        }
        change.added.sort()
        return change
    }
}
