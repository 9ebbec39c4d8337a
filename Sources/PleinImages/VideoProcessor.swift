import Foundation
import PleinCore
import Synchronization

/// One album video to publish.
public struct VideoJob: Sendable {
    /// Path on disk.
    public let source: String
    /// Content-relative path, for messages and names.
    public let path: String

    public init(source: String, path: String) {
        self.source = source
        self.path = path
    }
}

/// What is known of a published video: the size of its web copy, its length and when it was
/// filmed (the container's `creation_time`, UTC).
public struct VideoInfo: Sendable, Codable, Hashable {
    public let width: Int
    public let height: Int
    public let duration: Double
    public let created: String?

    public init(width: Int, height: Int, duration: Double, created: String?) {
        self.width = width
        self.height = height
        self.duration = duration
        self.created = created
    }
}

/// A video made ready: its web copy and its poster frame in the cache; without ffmpeg, a copy
/// of the file with its metadata removed and no poster.
public struct ProcessedVideo: Sendable {
    public let job: VideoJob
    public let hash: String
    /// Nil for a plain copy (nothing was decoded).
    public let info: VideoInfo?
    public let webFile: String
    public let posterFile: String?
    /// Whether ffmpeg ran for it in this build (false: found in the cache).
    public let made: Bool
}

public enum VideoProblem: Error, Sendable, Equatable {
    case unreadable(String)
    case corrupt(String)
    /// No frame to show: a video of 0 seconds.
    case empty
    case tooLong(seconds: Int, limit: Int)
    /// Without ffmpeg: a WebM, whose metadata plein cannot remove by itself.
    case needsFFmpeg
}

/// Makes web copies and posters through ffmpeg, in `.plein-cache/videos/ffmpeg-<version>/`,
/// named by the source's hash: an unchanged rebuild runs ffmpeg for nothing. Files are written
/// under temporary names and renamed whole, so a killed build leaves no partial video. Without
/// ffmpeg (`videos/plain/`), MP4 and QuickTime files are copied with `MP4Scrub`.
public final class VideoProcessor: Sendable {
    /// Longer videos are refused: the web copy of a long film is no album item.
    public static let maxSeconds = 900
    /// Bumped whenever the way copies are made changes (2: encoded on one thread, so the same
    /// source always gives the same bytes).
    static let revision = 2

    public let ffmpeg: FFmpeg?
    public let folder: String
    /// How many ffmpegs run at once: one per core, each encoding on one thread (see
    /// `FFmpeg.webCopy`), so a video's bytes never depend on the machine.
    public let parallel: Int
    private let images: ImageCache
    private let used = Mutex<Set<String>>([])

    public init(ffmpeg: FFmpeg?, images: ImageCache, cores: Int? = nil) {
        let cores = cores ?? ProcessInfo.processInfo.activeProcessorCount
        self.ffmpeg = ffmpeg
        self.images = images
        folder = images.root + "/videos/" + (ffmpeg.map { "ffmpeg-" + $0.version } ?? "plain")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        ImageCache.removeLeftovers(in: [folder])
        parallel = max(1, cores)
    }

    struct Manifest: Codable {
        let info: VideoInfo
    }

    /// Makes (or finds) the web copy and poster of one video.
    public func process(_ job: VideoJob) -> Result<ProcessedVideo, VideoProblem> {
        guard let hash = images.hash(of: job.source) else { return .failure(.unreadable("cannot read the file")) }
        guard let ffmpeg else { return plainCopy(job, hash: hash) }
        let base = folder + "/" + hash + "-r\(Self.revision)"
        let manifestPath = base + ".json", web = base + ".mp4", poster = base + "-poster.jpg"
        used.locked { $0.formUnion([manifestPath, web, poster]) }
        if let data = FileManager.default.contents(atPath: manifestPath),
           let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
           FileManager.default.fileExists(atPath: web), FileManager.default.fileExists(atPath: poster) {
            return .success(ProcessedVideo(job: job, hash: hash, info: manifest.info, webFile: web, posterFile: poster, made: false))
        }
        let probe: FFmpeg.Probe
        switch ffmpeg.probe(job.source) {
        case .failure(let failure): return .failure(.corrupt(failure.reason))
        case .success(let value): probe = value
        }
        guard probe.duration > 0 else { return .failure(.empty) }
        guard probe.duration <= Double(Self.maxSeconds) else {
            return .failure(.tooLong(seconds: Int(probe.duration.rounded()), limit: Self.maxSeconds))
        }
        let size = FFmpeg.webSize(width: probe.width, height: probe.height)
        let posterTemporary = images.temporary(for: poster), webTemporary = images.temporary(for: web)
        defer {
            unlink(posterTemporary)
            unlink(webTemporary)
        }
        if case .failure(let failure) = ffmpeg.poster(job.source, to: posterTemporary, probe: probe, size: size) {
            return .failure(.corrupt(failure.reason))
        }
        if case .failure(let failure) = ffmpeg.webCopy(job.source, to: webTemporary, probe: probe, size: size) {
            return .failure(.corrupt(failure.reason))
        }
        guard rename(posterTemporary, poster) == 0, rename(webTemporary, web) == 0 else {
            return .failure(.unreadable("cannot write to the video cache"))
        }
        let info = VideoInfo(width: size.width, height: size.height, duration: probe.duration, created: probe.created)
        images.writeJSON(Manifest(info: info), to: manifestPath)
        return .success(ProcessedVideo(job: job, hash: hash, info: info, webFile: web, posterFile: poster, made: true))
    }

    /// The file itself, its metadata removed, for a download link.
    func plainCopy(_ job: VideoJob, hash: String) -> Result<ProcessedVideo, VideoProblem> {
        let ext = (job.path as NSString).pathExtension.lowercased()
        guard ext != "webm" else { return .failure(.needsFFmpeg) }
        let copy = folder + "/" + hash + "-r\(Self.revision)." + ext
        used.locked { _ = $0.insert(copy) }
        if FileManager.default.fileExists(atPath: copy) {
            return .success(ProcessedVideo(job: job, hash: hash, info: nil, webFile: copy, posterFile: nil, made: false))
        }
        let temporary = images.temporary(for: copy)
        defer { unlink(temporary) }
        guard (try? FileManager.default.copyItem(atPath: job.source, toPath: temporary)) != nil else {
            return .failure(.unreadable("cannot copy it into the cache"))
        }
        if case .failure(let failure) = MP4Scrub.scrub(temporary) { return .failure(.corrupt(failure.reason)) }
        guard rename(temporary, copy) == 0 else { return .failure(.unreadable("cannot write to the video cache")) }
        return .success(ProcessedVideo(job: job, hash: hash, info: nil, webFile: copy, posterFile: nil, made: true))
    }

    /// Removes every cached file this build did not use, and the folders of other ffmpeg
    /// versions. Returns how many were removed.
    @discardableResult
    public func finish() -> Int {
        ImageCache.prune(folder, keeping: used.locked { $0 })
    }
}
