import PleinCore
import PleinModel
import PleinRender
import PleinImages

// What `SiteState` makes of the content's media (photos, videos, attachments), and what it
// knew after its last build, as an update of edited records reads it.

extension SiteState {
    /// Whether an edit of this file in place leaves the media as they were.
    static func keepsMedia(_ path: String) -> Bool {
        switch FileRole.of(path) {
        case .album, .photo, .member: return false
        default: return true
        }
    }

    /// What the media stages made of the content: published images and videos, attachments and
    /// their checked copies.
    struct Media: Sendable {
        var catalog: ImageCatalog
        /// Cache file → output path, for image variants and videos.
        var links: [(String, String)]
        var attachments: [(source: String, target: String)]
        /// For serving from memory: output path → checked copy of an attachment.
        var copies: [String: String]
        /// When each photo and video was taken, by path.
        var captureTimes: [String: Moment]
        /// Albums whose photos with a position were each taken near a member's home, so that the
        /// album has no map (`Privacy.PhotoPositions.albumsKeptOffTheMap`): said in a note.
        var keptOffTheMap: [(album: String, photos: Int)] = []
    }

    /// Processes the videos and photos, and checks the attachments; nil, with the problems in
    /// `diagnostics`, when one of them fails.
    mutating func makeMedia(_ timer: inout PhaseTimer) -> Media? {
        if !content.videos.isEmpty, videos.processor.ffmpeg == nil, let ffmpeg = options.ffmpeg {
            // The first video of a served site that had none: ffmpeg is looked for now.
            videos = VideoStage(contentRoot: options.content, ffmpeg: ffmpeg, cache: images.processor.cache)
        }
        // Nothing is made of a group that is not published: not a variant, poster or video.
        let publication = Publication(content, sealed: Set(sealing.keys))
        videosMade = videos.process(content, publishing: publication, progress: options.videoProgress)
        images.setPosters(videos.posters)
        timer.lap("videos (\(videosMade) made)")
        let videoProblems = videos.diagnostics.map { $0.under(content.displayRoot) }
        diagnostics += videoProblems
        guard !videoProblems.hasErrors else { return nil }
        let counts = images.process(content, publishing: publication, progress: options.progress)
        timer.lap("images")
        imagesMade = counts.made
        imagesReused = counts.reused
        let imageProblems = images.processingDiagnostics.map { $0.under(content.displayRoot) }
        guard imageProblems.isEmpty else {
            diagnostics += imageProblems
            return nil
        }
        // Attachments published as they are: checked now, so a served site reads only copies.
        let attachments = AttachmentStage.attachments(content)
        var copies: [String: String] = [:]
        if stream == nil {
            switch AttachmentStage.copies(attachments, content: content, root: options.content, into: &servedCopies) {
            case .success(let made): copies = made
            case .failure(let refused):
                diagnostics += refused.diagnostics
                return nil
            }
        }
        timer.lap("attachments")
        let times = images.captureTimes(clock: content.site.clock).merging(videos.captureTimes) { photo, _ in photo }
        let positions = Privacy.PhotoPositions(content)
        var (catalog, links) = images.catalog(captureTimes: times, publishing: publication, position: positions.position(of:takenAt:))
        let (publishedVideos, videoLinks) = videos.catalog()
        catalog.videos = publishedVideos
        links += videoLinks
        SealedMedia(sealing: sealing, cacheRoot: options.cacheRoot).apply(&catalog, links: &links)
        timer.lap("catalog")
        let taken = images.positions(publishing: publication)
        return Media(catalog: catalog, links: links, attachments: attachments, copies: copies, captureTimes: times,
                     keptOffTheMap: positions.albumsKeptOffTheMap(taken: taken))
    }

    /// What to say of the media: the albums kept off the map (each photo with a position near a
    /// member's home), and a missing Leaflet.
    func mediaNotes(_ media: Media) -> [String] {
        var notes: [String] = []
        let km = content.site.locationPrecisionKm.rounded() == content.site.locationPrecisionKm
            ? String(Int(content.site.locationPrecisionKm)) : String(content.site.locationPrecisionKm)
        // (A members-only or private group's albums have no map whatever their photos: not said.)
        let mapless = Set(content.groups.filter { $0.visibility == .members || $0.visibility == .private }.map(\.id))
        notes += media.keptOffTheMap.filter { !mapless.contains($0.album.split(separator: "/").dropFirst().first.map(String.init) ?? "") }.map { album, photos in
            "\(content.displayRoot)/\(album) has no map: \(photos == 1 ? "its one photo with a position was" : "each of its \(photos) photos with a position was") taken within "
                + "\(km) km of a member's home, and such a photo is on no map (privacy.location_precision_km). "
                + "Photos taken further away would be on it; `map: none` in its index.md says it should have none"
        }
        if leaflet == nil {
            notes.append("Leaflet was not found in \(options.leaflet) (Debian package libjs-leaflet): maps are drawn without the interactive layer")
        }
        return notes
    }

    /// What the last build knew, as an update of edited records reads it (`BuildMemory`); nil
    /// before a first build, and for a state that records no reads.
    var memory: ServeMemory? {
        guard tracking, remembered == nil, stream == nil, let model = last.model, let facts = last.facts else { return nil }
        return ServeMemory(model: model, bodies: last.bodies, images: last.catalog, content: content, loaded: contentState,
                           loadProblems: loadDiagnostics, problems: problemCounts,
                           facts: facts, graph: last.graph, outputs: last.outputs, search: last.searchIndexes, links: last.imageLinks)
    }
}
