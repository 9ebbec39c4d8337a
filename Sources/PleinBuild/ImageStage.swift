import Foundation
import PleinCore
import PleinImages
import PleinRender
import Synchronization

/// Publishes the content's images: reads headers (for checking and capture times), makes the
/// derived files through the cache, and describes them for the pages.
struct ImageStage: Sendable {
    let content: Content
    let contentRoot: String
    let processor: ImageProcessor

    init(content: Content, contentRoot: String, cacheRoot: String) {
        self.content = content
        self.contentRoot = contentRoot
        processor = ImageProcessor(cache: ImageCache(root: cacheRoot), maxPixels: content.site.maxPixels)
    }

    /// One job per readable image, photos, avatars and report attachments alike.
    var jobs: [ImageJob] {
        content.images.values.filter { $0.kind != nil }.sorted { $0.path < $1.path }.map { image in
            let kind: ImageJob.Kind = image.path.hasPrefix("users/") ? .avatar : image.path.hasPrefix("groups/") ? .photo : .attachment
            return ImageJob(source: contentRoot + "/" + image.path, path: image.path, kind: kind)
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

    /// Headers of every image: problems found without decoding, and capture times.
    func inspect() -> (diagnostics: [Diagnostic], captureTimes: [String: Moment]) {
        let results = parallelMap(jobs) { job in (job, processor.inspect(job)) }
        var diagnostics: [Diagnostic] = []
        var times: [String: Moment] = [:]
        for (job, result) in results {
            switch result {
            case .failure(let problem):
                diagnostics.append(diagnostic(problem, job.path))
            case .success(let (_, info)):
                if info.width * info.height > content.site.maxPixels {
                    diagnostics.append(diagnostic(.tooManyPixels(width: info.width, height: info.height, limit: content.site.maxPixels), job.path))
                }
                if let taken = captureTime(info) { times[job.path] = taken }
            }
        }
        return (diagnostics, times)
    }

    /// EXIF `DateTimeOriginal` with its offset; without one, in the site's time zone.
    func captureTime(_ info: ImageInfo) -> Moment? {
        guard let taken = info.taken else { return nil }
        let normalized = taken.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + taken.dropFirst(11)
        switch ISO8601.parse(normalized + (info.offset ?? "")) {
        case .success(.zoned(let civil, let offset)): return Moment(seconds: civil.secondsAsUTC - Int64(offset))
        case .success(.local(let civil)): return Moment(seconds: content.site.clock.instant(of: civil))
        default: return nil
        }
    }

    struct Published: Sendable {
        var catalog = ImageCatalog()
        /// (file in the cache, output path)
        var links: [(String, String)] = []
        var diagnostics: [Diagnostic] = []
        var made = 0
        var reused = 0
    }

    /// Makes every variant (on all cores) and names the published files.
    func publish(captureTimes: [String: Moment], progress: (@Sendable (Int, Int) -> Void)?) -> Published {
        let jobs = self.jobs
        let counter = Counter(total: jobs.count, report: progress)
        let results = parallelMap(jobs) { job -> (ImageJob, Result<ProcessedImage, ImageProblem>) in
            let result = processor.process(job)
            counter.tick()
            return (job, result)
        }
        var published = Published()
        for (job, result) in results {
            switch result {
            case .failure(let problem):
                published.diagnostics.append(diagnostic(problem, job.path))
            case .success(let image):
                published.made += image.made
                published.reused += image.reused
                let (entry, links) = describe(image, takenAt: captureTimes[job.path])
                published.catalog.images[job.path] = entry
                published.links += links
            }
        }
        return published
    }

    /// Where each variant is published, and what the pages say about it.
    func describe(_ image: ProcessedImage, takenAt: Moment?) -> (PublishedImage, [(String, String)]) {
        let name = (image.job.path as NSString).lastPathComponent
        let stem = PhotoName.slug(name)
        let folder = "media/" + image.hash.prefix(16) + "/"
        var thumbnails: [PublishedImage.Variant] = []
        var display: PublishedImage.Variant?
        var preview: PublishedImage.Variant?
        var links: [(String, String)] = []
        for made in image.variants {
            let path: String
            switch (image.job.kind, made.spec.role) {
            case (.attachment, .display):
                // Report attachments keep their name, so relative links in the report work.
                path = "reports/" + image.job.path.dropFirst("reports/".count)
            case (_, .display): path = folder + stem + "." + made.spec.format.fileExtension
            case (_, .preview): path = folder + stem + "-preview." + made.spec.format.fileExtension
            case (_, .thumbnail): path = folder + stem + "-\(made.width)\(made.spec.square ? "sq" : "")." + made.spec.format.fileExtension
            }
            let variant = PublishedImage.Variant(path: path, width: made.width, height: made.height)
            links.append((made.file, path))
            switch made.spec.role {
            case .thumbnail: thumbnails.append(variant)
            case .preview: preview = variant
            case .display: display = variant
            }
        }
        thumbnails.sort { $0.width < $1.width }
        let info = PhotoInfo(
            takenAt: takenAt?.seconds, takenAtHasOffset: image.info.offset != nil, latitude: image.info.latitude,
            longitude: image.info.longitude, camera: image.info.camera)
        let shown = display ?? thumbnails.last ?? PublishedImage.Variant(path: "", width: 0, height: 0)
        return (PublishedImage(variants: thumbnails.isEmpty ? [shown] : thumbnails, display: shown, preview: preview, info: info), links)
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
        let now = done.withLock { value -> Int in
            value += 1
            return value
        }
        report?(now, total)
    }
}
