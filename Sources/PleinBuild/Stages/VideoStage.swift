import Foundation
import PleinCore
import PleinImages
import PleinRender

/// Publishes album videos: a web copy and a poster frame each, made by ffmpeg through the cache
/// (several at once, within the machine's cores). The posters then go through the image stage
/// like photos, under the video's own path. Without ffmpeg, an MP4 or QuickTime file is
/// published as a download without its metadata, and each video gets a warning.
struct VideoStage: Sendable {
    let contentRoot: String
    let processor: VideoProcessor
    private(set) var processed: [String: Result<ProcessedVideo, VideoProblem>] = [:]

    init(contentRoot: String, ffmpeg: FFmpeg?, cache: ImageCache) {
        self.contentRoot = contentRoot
        processor = VideoProcessor(ffmpeg: ffmpeg, images: cache)
    }

    /// Makes (or finds) every published video of the content; returns how many ffmpeg made. The
    /// videos of groups that are not published are not even looked at: nothing is made of them.
    mutating func process(_ content: Content, publishing publication: Publication, progress: (@Sendable (Int, Int) -> Void)?) -> Int {
        let paths = content.videos.keys.filter(publication.publishes).sorted()
        let jobs = paths.map { VideoJob(source: contentRoot + "/" + $0, path: $0) }
        let counter = Counter(total: jobs.count, report: progress)
        let results = parallelMap(jobs, maxConcurrent: processor.parallel) { [processor] job -> (String, Result<ProcessedVideo, VideoProblem>) in
            let result = processor.process(job)
            counter.tick()
            return (job.path, result)
        }
        processed = Dictionary(results, uniquingKeysWith: { a, _ in a })
        return results.filter { if case .success(let video) = $0.1 { video.made } else { false } }.count
    }

    /// Each video's poster, for the image stage: video path → poster file in the cache.
    var posters: [String: String] {
        var posters: [String: String] = [:]
        for (path, result) in processed {
            if case .success(let video) = result, let poster = video.posterFile { posters[path] = poster }
        }
        return posters
    }

    /// Errors for videos that cannot be published; without ffmpeg, a warning for each video.
    var diagnostics: [Diagnostic] {
        processed.keys.sorted().compactMap { path in
            let name = (path as NSString).lastPathComponent
            switch processed[path]! {
            case .success(let video):
                return video.info == nil ? Diagnostic(.videoWithoutFFmpeg(file: name, published: true), in: path) : nil
            case .failure(.needsFFmpeg): return Diagnostic(.videoWithoutFFmpeg(file: name, published: false), in: path)
            case .failure(.unreadable(let reason)): return Diagnostic(.unreadable(reason), in: path)
            case .failure(.corrupt(let reason)): return Diagnostic(.corruptVideo(file: name, reason: reason), in: path)
            case .failure(.empty): return Diagnostic(.emptyVideo(file: name), in: path)
            case .failure(.tooLong(let seconds, let limit)): return Diagnostic(.videoTooLong(file: name, seconds: seconds, limit: limit), in: path)
            }
        }
    }

    /// When each video was filmed, from its container's `creation_time`.
    var captureTimes: [String: Moment] {
        var times: [String: Moment] = [:]
        for (path, result) in processed {
            guard case .success(let video) = result, let created = video.info?.created else { continue }
            if case .success(.zoned(let civil, let offset)) = ISO8601.parse(String(created.prefix(19)) + "Z") {
                times[path] = Moment(seconds: civil.secondsAsUTC - Int64(offset))
            }
        }
        return times
    }

    /// The published videos and the files to place in the output.
    func catalog() -> ([String: PublishedVideo], [(String, String)]) {
        var videos: [String: PublishedVideo] = [:]
        var links: [(String, String)] = []
        for path in processed.keys.sorted() {
            guard case .success(let video) = processed[path]! else { continue }
            let name = (path as NSString).lastPathComponent
            let ext = video.info == nil ? (name as NSString).pathExtension.lowercased() : "mp4"
            let published = Routes.media(hash: String(video.hash.prefix(16)), name: PhotoName.slug(name) + "." + ext)
            links.append((video.webFile, published))
            videos[path] = PublishedVideo(
                path: published, width: video.info?.width ?? 0, height: video.info?.height ?? 0, duration: video.info?.duration ?? 0)
        }
        return (videos, links)
    }
}
