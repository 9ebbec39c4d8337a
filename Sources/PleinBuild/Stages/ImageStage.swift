import Foundation
import PleinCore
import PleinImages
import PleinRender
import Synchronization

/// Publishes the content's images: reads headers (for checking and capture times), makes the
/// derived files through the cache, and describes them for the pages. Results are kept per
/// image, so after an edit only the images that changed are looked at again.
struct ImageStage: Sendable {
    let contentRoot: String
    let processor: ImageProcessor
    private(set) var headers: [String: Result<ImageInfo, ImageProblem>] = [:]
    private(set) var processed: [String: Result<ProcessedImage, ImageProblem>] = [:]
    /// Video posters, made by the video stage: video path → poster file in the cache. Each is
    /// published as a photo under the video's path.
    private(set) var posters: [String: String] = [:]

    init(contentRoot: String, cacheRoot: String, maxPixels: Int, avif: Bool) {
        self.contentRoot = contentRoot
        processor = ImageProcessor(cache: ImageCache(root: cacheRoot), maxPixels: maxPixels, avif: avif)
    }

    /// One job per readable image: photos, avatars and report attachments alike.
    static func jobs(_ content: Content, root: String, only paths: Set<String>? = nil) -> [ImageJob] {
        content.images.values.filter { $0.kind != nil && (paths?.contains($0.path) ?? true) }.sorted { $0.path < $1.path }.map { image in
            let kind: ImageJob.Kind = switch FileRole.of(image.path) {
            case .avatar: .avatar
            case .photo: .photo
            default: .attachment
            }
            return ImageJob(source: root + "/" + image.path, path: image.path, kind: kind)
        }
    }

    /// Reads the headers of the given images (all when nil) and forgets images that are gone.
    mutating func inspect(_ content: Content, only paths: Set<String>? = nil) {
        let current = Set(content.images.values.filter { $0.kind != nil }.map(\.path)).union(posters.keys)
        for path in headers.keys where !current.contains(path) {
            headers.removeValue(forKey: path)
            processed.removeValue(forKey: path)
        }
        let jobs = Self.jobs(content, root: contentRoot, only: paths)
        let results = parallelMap(jobs) { [processor] job in (job.path, processor.inspect(job).map(\.info)) }
        for (path, result) in results {
            headers[path] = result
            processed.removeValue(forKey: path)
        }
    }

    /// Takes the video stage's posters: new and changed ones are read, gone ones forgotten.
    mutating func setPosters(_ new: [String: String]) {
        for path in posters.keys where new[path] == nil {
            headers.removeValue(forKey: path)
            processed.removeValue(forKey: path)
        }
        let changed = new.filter { posters[$0.key] != $0.value }.sorted { $0.key < $1.key }
        posters = new
        let results = parallelMap(changed.map { ImageJob(source: $0.value, path: $0.key, kind: .photo) }) { [processor] job in
            (job.path, processor.inspect(job).map(\.info))
        }
        for (path, result) in results {
            headers[path] = result
            processed.removeValue(forKey: path)
        }
    }

    func diagnostic(_ problem: ImageProblem, _ path: String) -> Diagnostic {
        let name = (path as NSString).lastPathComponent
        switch problem {
        case .unreadable(let reason): return Diagnostic(.unreadable(reason), in: path)
        case .corrupt(let reason): return Diagnostic(.corruptImage(file: name, reason: reason), in: path)
        case .tooManyPixels(let w, let h, let limit):
            return Diagnostic(.tooManyPixels(file: name, width: w, height: h, limit: limit), in: path)
        }
    }

    /// Problems found without decoding: unreadable files and too many pixels.
    func headerDiagnostics(maxPixels: Int) -> [Diagnostic] {
        headers.keys.sorted().compactMap { path in
            switch headers[path]! {
            case .failure(let problem): return diagnostic(problem, path)
            case .success(let info) where info.width * info.height > maxPixels:
                return diagnostic(.tooManyPixels(width: info.width, height: info.height, limit: maxPixels), path)
            case .success: return nil
            }
        }
    }

    func captureTimes(clock: SiteClock) -> [String: Moment] {
        var times: [String: Moment] = [:]
        for (path, result) in headers {
            if case .success(let info) = result, let taken = Self.captureTime(info, clock: clock) { times[path] = taken }
        }
        return times
    }

    /// EXIF `DateTimeOriginal` with its offset; without one, in the site's time zone.
    static func captureTime(_ info: ImageInfo, clock: SiteClock) -> Moment? {
        guard let taken = info.taken else { return nil }
        let normalized = taken.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + taken.dropFirst(11)
        switch ISO8601.parse(normalized + (info.offset ?? "")) {
        case .success(.zoned(let civil, let offset)): return Moment(seconds: civil.secondsAsUTC - Int64(offset))
        case .success(.local(let civil)): return Moment(seconds: clock.instant(of: civil))
        default: return nil
        }
    }

    /// Makes the variants of every published image not processed yet (on all cores). The images
    /// of groups that are not published are read (for `check`), never made into anything.
    /// Returns how many files were made and reused.
    mutating func process(_ content: Content, publishing publication: Publication,
                          progress: (@Sendable (Int, Int) -> Void)?) -> (made: Int, reused: Int) {
        let waiting = Set(headers.keys.filter { processed[$0] == nil && publication.publishes($0) })
        let jobs = Self.jobs(content, root: contentRoot, only: waiting)
            + waiting.filter { posters[$0] != nil }.sorted().map { ImageJob(source: posters[$0]!, path: $0, kind: .photo) }
        let counter = Counter(total: jobs.count, report: progress)
        let results = parallelMap(jobs) { [processor] job -> (String, Result<ProcessedImage, ImageProblem>) in
            let result = processor.process(job)
            counter.tick()
            return (job.path, result)
        }
        var made = 0, reused = 0
        for (path, result) in results {
            processed[path] = result
            if case .success(let image) = result {
                made += image.made
                reused += image.reused
            }
        }
        return (made, reused)
    }

    var processingDiagnostics: [Diagnostic] {
        processed.keys.sorted().compactMap { path in
            if case .failure(let problem) = processed[path]! { return diagnostic(problem, path) }
            return nil
        }
    }

    /// The published images and the files to place in the output: none of a group that is not
    /// published (even when it was when the image was made), and each photo's position as
    /// `position` allows it (nil: not on a map).
    func catalog(captureTimes: [String: Moment], publishing publication: Publication,
                 position: (String, Coordinate) -> Coordinate?) -> (ImageCatalog, [(String, String)]) {
        var catalog = ImageCatalog()
        var links: [(String, String)] = []
        for path in processed.keys.sorted() where publication.publishes(path) {
            guard case .success(let image) = processed[path]! else { continue }
            let taken = image.info.latitude.flatMap { lat in image.info.longitude.map { Coordinate(lat: lat, lon: $0) } }
            let (entry, files) = Self.describe(image, takenAt: captureTimes[path], at: taken.flatMap { position(path, $0) })
            catalog.images[path] = entry
            links += files
        }
        return (catalog, links)
    }

    /// Where each published photo was taken, by path, as its file says (for the albums kept off
    /// the map; never published as it is).
    func positions(publishing publication: Publication) -> [String: Coordinate] {
        var taken: [String: Coordinate] = [:]
        for (path, result) in processed where publication.publishes(path) {
            guard case .success(let image) = result, let lat = image.info.latitude, let lon = image.info.longitude else { continue }
            taken[path] = Coordinate(lat: lat, lon: lon)
        }
        return taken
    }

    /// Where each variant is published, and what the pages say about it.
    static func describe(_ image: ProcessedImage, takenAt: Moment?, at position: Coordinate?) -> (PublishedImage, [(String, String)]) {
        let name = (image.job.path as NSString).lastPathComponent
        let stem = PhotoName.slug(name)
        let hash = String(image.hash.prefix(16))
        var thumbnails: [PublishedImage.Variant] = []
        var modern: [PublishedImage.Variant] = []
        var display: PublishedImage.Variant?
        var preview: PublishedImage.Variant?
        var links: [(String, String)] = []
        for made in image.variants {
            let path: String
            switch (image.job.kind, made.spec.role) {
            case (.attachment, .display):
                // Report attachments keep their name, so relative links in the report work.
                guard case .reportResource(let area, let report) = FileRole.of(image.job.path) else { continue }
                let id = area + "/" + report
                path = Routes.attachment(id, file: String(image.job.path.dropFirst(ContentLayout.reportFolder(id).count + 1)))
            case (_, .display): path = Routes.media(hash: hash, name: stem + "." + made.spec.format.fileExtension)
            case (_, .preview): path = Routes.media(hash: hash, name: stem + "-preview." + made.spec.format.fileExtension)
            case (_, .thumbnail), (_, .modern):
                path = Routes.media(hash: hash, name: stem + "-\(made.width)\(made.spec.square ? "sq" : "")." + made.spec.format.fileExtension)
            }
            let variant = PublishedImage.Variant(path: path, width: made.width, height: made.height)
            links.append((made.file, path))
            switch made.spec.role {
            case .thumbnail: thumbnails.append(variant)
            case .modern: modern.append(variant)
            case .preview: preview = variant
            case .display: display = variant
            }
        }
        thumbnails.sort { $0.width < $1.width }
        modern.sort { $0.width < $1.width }
        let info = PhotoInfo(
            takenAt: takenAt?.seconds, takenAtHasOffset: image.info.offset != nil, latitude: position?.lat,
            longitude: position?.lon, camera: image.info.camera)
        let shown = display ?? thumbnails.last ?? PublishedImage.Variant(path: "", width: 0, height: 0)
        let published = PublishedImage(
            variants: thumbnails.isEmpty ? [shown] : thumbnails, avif: modern, display: shown, preview: preview, info: info)
        return (published, links)
    }
}

/// Counts finished jobs for the progress bar.
final class Counter: Sendable {
    private let done = Mutex(0)
    let total: Int
    let report: (@Sendable (Int, Int) -> Void)?

    init(total: Int, report: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.report = report
    }

    func tick() {
        let now = done.locked { value -> Int in
            value += 1
            return value
        }
        report?(now, total)
    }
}
