import Foundation
import PleinCore
import PleinImages
import PleinModel
import PleinRender

/// What an edit's album photos publish (`RecordUpdate.mediaChange`): each new or replaced one's
/// published form and files for the output, the files of those replaced or deleted that go, and
/// when each photo of their albums was taken (their order).
struct MediaChange {
    /// The new and replaced photos as the pages show them.
    var catalog = ImageCatalog()
    /// When each photo of the albums the edit changes was taken, by path (none: unknown).
    var captureTimes: [String: Moment] = [:]
    /// Files to put into the output: cache file → output path.
    var writes: [(source: String, target: String)] = []
    /// The build store's identity of each file written (`published`).
    var identities: [(path: String, identity: String)] = []
    /// The output paths among `writes` that the last build did not publish.
    var added: [String] = []
    /// The albums whose map there is now and was not (a first photo with a position), and those
    /// whose map there is no more.
    var maps: (new: [AlbumKey], gone: [AlbumKey]) = ([], [])
    /// The files of photos replaced or deleted that no photo publishes now.
    var removed: [String] = []
    /// How many photos more (or fewer) than before.
    var count = 0
    /// Variants made now (the others were in the cache).
    var made = 0
}

extension RecordUpdate {
    /// Whether `path` is an album's photo (not a video).
    static func isPhoto(_ path: String) -> Bool {
        guard case .photo = FileRole.of(path) else { return false }
        return FileRole.imageExtensions.contains(FileRole.splitExtension(path).ext.lowercased())
    }

    /// The edit's album photos: new, replaced or deleted (`StoreSession.editedRecordFiles`).
    var photos: Set<String> { Set(files.filter(Self.isPhoto)) }

    /// The variants of the new and replaced photos (made through the image cache, as the full
    /// build makes them), their published forms (their positions as `Privacy.PhotoPositions`
    /// allows), the files of the photos replaced or deleted that go (but those another photo of
    /// the same bytes and name publishes), and when each photo of their albums was taken: the
    /// edited ones by their headers, the others as the last build published them (nothing of a
    /// group that is not published). Nil, for the build that loads everything, when a photo
    /// cannot be read or has too many pixels, or the memory lacks the published form of a photo
    /// of the album (or of a video's poster).
    func mediaChange(_ content: Content, model: SiteModel, site: SiteConfig) -> MediaChange? {
        var change = MediaChange()
        let all = photos
        guard !all.isEmpty else { return change }
        let processor = ImageProcessor(cache: ImageCache(root: options.cacheRoot), maxPixels: site.maxPixels, avif: site.avif)
        // A group that is not published publishes nothing of its photos: their headers are read
        // for their problems, as the full build reads them.
        let publication = Publication(content, sealed: [])
        for path in all where !publication.publishes(path) && content.images[path] != nil {
            guard case .success(let header) = processor.inspect(ImageJob(source: options.content + "/" + path, path: path, kind: .photo)),
                  header.info.width * header.info.height <= site.maxPixels else { return nil }
        }
        let edited = all.filter(publication.publishes)
        guard !edited.isEmpty else { return change }
        func published(_ path: String) -> PublishedImage? { ((try? memory.piece(ModelPieces.image.key(path), as: PublishedItem.self)) ?? nil)?.image }
        let present = edited.filter { content.images[$0] != nil }
        var processed: [String: ProcessedImage] = [:]
        for path in present.sorted() {
            guard case .success(let image) = processor.process(ImageJob(source: options.content + "/" + path, path: path, kind: .photo)) else {
                return nil
            }
            processed[path] = image
            change.made += image.made
        }
        // The files of the photos replaced or deleted, as the last build published them.
        var before: [String: PublishedImage] = [:]
        for path in edited where !added.contains(path) {
            guard let image = published(path) else { return nil }
            before[path] = image
        }
        change.count = present.count { added.contains($0) } - edited.count { removed.contains($0) }
        // The order of each album's photos and videos: when each was taken (a video's, as its
        // poster was published with it); and the others' published positions.
        let albums = content.albums.filter { album in edited.contains { $0.hasPrefix(album.folder + "/") } }
        var placed: Set<String> = []
        for album in albums {
            for file in album.imageFiles {
                let path = album.folder + "/" + file
                if let image = processed[path] {
                    change.captureTimes[path] = ImageStage.captureTime(image.info, clock: content.site.clock)
                } else {
                    guard let info = published(path)?.info else { return nil }
                    change.captureTimes[path] = info.takenAt.map { Moment(seconds: $0) }
                    if info.latitude != nil { placed.insert(path) }
                }
            }
        }
        let positions = Privacy.PhotoPositions(content)
        for (path, image) in processed.sorted(by: { $0.key < $1.key }) {
            let taken = image.info.latitude.flatMap { lat in image.info.longitude.map { Coordinate(lat: lat, lon: $0) } }
            let (entry, links) = ImageStage.describe(image, takenAt: change.captureTimes[path] ?? nil,
                                                     at: taken.flatMap { positions.position(of: path, takenAt: $0) })
            change.catalog.images[path] = entry
            if entry.info.latitude != nil { placed.insert(path) }
            for (source, target) in links {
                change.writes.append((source, target))
                change.identities.append((target, SiteState.identity(ofLink: source)))
            }
        }
        // An album has a map while a photo of it has a published position (`MapFeatures.albumHasMap`).
        for album in albums {
            let key = AlbumKey(group: album.group, album: album.id)
            let had = model.album(key)?.photos.contains { photo in
                before[photo.path].map { $0.info.latitude != nil } ?? (!edited.contains(photo.path) && placed.contains(photo.path))
            } ?? false
            let has = album.imageFiles.contains { placed.contains(album.folder + "/" + $0) }
            if has && !had { change.maps.new.append(key) }
            if had && !has { change.maps.gone.append(key) }
        }
        // (A photo of the same bytes and name elsewhere publishes the same files: those of a
        // photo that goes stay while another photo of its name publishes them.)
        var kept = Set(change.writes.map(\.target))
        let names = Set(before.keys.map { PhotoName.slug(($0 as NSString).lastPathComponent) })
        for group in model.groups.values where !names.isEmpty {
            for album in group.albums {
                for photo in album.photos where !edited.contains(photo.path) && names.contains(PhotoName.slug(photo.file)) {
                    guard let image = published(photo.path) else { return nil }
                    kept.formUnion(Self.files(of: image))
                }
            }
        }
        change.removed = Set(before.values.flatMap(Self.files)).subtracting(kept).sorted()
        let identities = Dictionary(change.identities.map { ($0.path, $0.identity) }, uniquingKeysWith: { a, _ in a })
        for prefix in Set(change.writes.map { ($0.target as NSString).deletingLastPathComponent + "/" }) {
            guard let before = try? memory.published(under: prefix) else { return nil }
            change.added += identities.keys.filter { $0.hasPrefix(prefix) && before[$0] == nil }
            change.writes.removeAll { $0.target.hasPrefix(prefix) && before[$0.target] == identities[$0.target] }
        }
        change.added.sort()
        return change
    }

    /// The files a photo's published form names.
    private static func files(of image: PublishedImage) -> [String] {
        (image.variants + image.avif + [image.display] + (image.preview.map { [$0] } ?? [])).map(\.path).filter { !$0.isEmpty }
    }
}

extension RecordUpdate {
    /// The pages of new album photos, and those of deleted ones: nil when the edit changes the
    /// slug of a photo that stays (a new one takes a name another had, or frees one). (Their
    /// albums' maps: `MediaChange.maps`.)
    func photoOutputs(_ before: [AlbumKey: [String: String]], model: SiteModel) -> (new: [OutputID], gone: [OutputID])? {
        var pages: (new: [OutputID], gone: [OutputID]) = ([], [])
        for (key, old) in before.sorted(by: { $0.key.group + "/" + $0.key.album < $1.key.group + "/" + $1.key.album }) {
            // (An album of a group that is not published has no pages, before or after.)
            guard let album = model.album(key) else {
                if old.isEmpty { continue } else { return nil }
            }
            let now = Dictionary(album.photos.map { ($0.file, $0.slug) }, uniquingKeysWith: { a, _ in a })
            guard now.allSatisfy({ file, slug in old[file].map { $0 == slug } ?? true }) else { return nil }
            pages.new += now.filter { old[$0.key] == nil }.map(\.value).sorted().map { .photo(key, $0) }
            pages.gone += old.filter { now[$0.key] == nil }.map(\.value).sorted().map { .photo(key, $0) }
        }
        return pages
    }

    /// Whether a photo is published with a position that could have been taken within the
    /// privacy distance of `home` (a new member's, which would take it off its map): a coarse
    /// position is its grid cell's centre, less than `km` from where it was taken (a photo
    /// published without one stays so). Nil when a photo's published form cannot be read.
    private func photoPublished(near home: Coordinate, model: SiteModel, km: Double) -> Bool? {
        for group in model.groups.values {
            for photo in group.albums.flatMap(\.photos) {
                guard let item = (try? memory.piece(ModelPieces.image.key(photo.path), as: PublishedItem.self)) ?? nil else { return nil }
                guard let info = item.image?.info, let lat = info.latitude, let lon = info.longitude else { continue }
                if distanceKm(home, Coordinate(lat: lat, lon: lon)) < 2 * km { return true }
            }
        }
        return false
    }

    /// When each photo and video of the edited albums was taken, as far as their order needs it
    /// (their places in the last model's album); nil when an edit changes what the media are made
    /// of (a member's home, near which no photo's position is published; a new member's near a
    /// photo published with one; an album's map), or
    /// leaves a photo to be placed by a time the last model did not place it by.
    func mediaAsBefore(_ loaded: Loaded, model: SiteModel) -> [String: Moment]? {
        var times: [String: Moment] = [:]
        for path in files {
            switch FileRole.of(path) {
            case .member(let id):
                guard let new = loaded.content.members.first(where: { $0.id == id }) else { return nil }
                if let old = loaded.before.members.first(where: { $0.id == id }) {
                    guard old.home == new.home else { return nil }
                } else if let home = new.home?.coordinate(place: { name in loaded.content.places.first { $0.name == name }?.coordinate }) {
                    // A new member's home hides the photos taken near it.
                    guard let near = photoPublished(near: home, model: model, km: loaded.content.site.locationPrecisionKm), !near else { return nil }
                }
            case .album(let group, let id):
                guard let old = loaded.before.albums.first(where: { $0.group == group && $0.id == id }),
                      let new = loaded.content.albums.first(where: { $0.group == group && $0.id == id }), old.map == new.map else { return nil }
                // The photos no entry names are in the order they were taken; those were so before.
                func unnamed(_ album: Album) -> Set<String> { Set(album.imageFiles).subtracting(album.entries.map(\.file.value)) }
                guard unnamed(new).isSubset(of: unnamed(old)) else { return nil }
                for (place, photo) in (model.album(AlbumKey(group: group, album: id))?.photos ?? []).enumerated() {
                    times[photo.path] = Moment(seconds: Int64(place))
                }
            default:
                break
            }
        }
        return times
    }
}
