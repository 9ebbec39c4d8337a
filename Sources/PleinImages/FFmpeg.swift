import Foundation
import PleinCore
import Synchronization

/// ffmpeg and ffprobe, run as processes with a time limit: what plein knows about a video, its
/// poster frame and its copy for the web. No argument comes from the content except the path
/// of the file, passed after `-i` and as a `file:` URL, so no name can be read as an option or
/// as another protocol (`concat:`, `http:`).
public struct FFmpeg: Sendable {
    public let ffmpeg: String
    public let ffprobe: String
    /// "5.1.9-0+deb12u1": part of the cache's folder name, so an upgrade remakes the videos.
    public let version: String

    /// The installed ffmpeg: `PLEIN_FFMPEG` (the path of ffmpeg, or `none`), else `ffmpeg` on
    /// the `PATH`, with `ffprobe` beside it (`locate`; `BuildOptions.ffmpeg` looks once per command).

    /// Where ffmpeg may be, in the order `locate` tries.
    static func candidates(_ environment: [String: String]) -> [String] {
        if let chosen = environment["PLEIN_FFMPEG"] { return chosen == "none" || chosen.isEmpty ? [] : [chosen] }
        return (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map { "\($0)/ffmpeg" }
    }

    /// Which ffmpeg a build would use, without running it (path, size, time): part of the build
    /// store's fingerprint, so installing ffmpeg turns downloads into played videos.
    public static func identity(_ environment: [String: String]) -> String {
        for ffmpeg in candidates(environment) where access(ffmpeg, X_OK) == 0 {
            var info = stat()
            guard stat(ffmpeg, &info) == 0 else { continue }
            return "\(ffmpeg) \(info.st_size) \(info.st_mtim.tv_sec)"
        }
        return "-"
    }

    public static func locate(_ environment: [String: String]) -> FFmpeg? {
        for ffmpeg in candidates(environment) where access(ffmpeg, X_OK) == 0 {
            let ffprobe = (ffmpeg as NSString).deletingLastPathComponent + "/ffprobe"
            guard access(ffprobe, X_OK) == 0 else { continue }
            let run = Self.run(ffmpeg, ["-hide_banner", "-version"], seconds: 20)
            guard run.status == 0, let first = String(decoding: run.output, as: UTF8.self).split(separator: "\n").first else { continue }
            let words = first.split(separator: " ")
            let version = words.count >= 3 ? String(words[2]) : "unknown"
            return FFmpeg(ffmpeg: ffmpeg, ffprobe: ffprobe, version: version.filter { $0.isLetter || $0.isNumber || ".-+_".contains($0) })
        }
        return nil
    }

    public init(ffmpeg: String, ffprobe: String, version: String) {
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
        self.version = version
    }

    /// What ffprobe says about a video's first video stream and its container.
    public struct Probe: Sendable, Equatable {
        /// As shown: after the rotation the phone recorded.
        public let width: Int
        public let height: Int
        public let duration: Double
        public let framesPerSecond: Double
        public let hasAudio: Bool
        /// The container's `creation_time` (UTC, ISO 8601), when it has one.
        public let created: String?
    }

    public struct Failure: Error, Sendable, Equatable {
        public let reason: String
        public let timedOut: Bool
    }

    public func probe(_ path: String) -> Result<Probe, Failure> {
        let run = Self.run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-i", Self.file(path)], seconds: 60)
        if run.timedOut { return .failure(Failure(reason: "ffprobe took longer than 60 s", timedOut: true)) }
        guard run.status == 0 else { return .failure(Failure(reason: Self.reason(run.errors, "ffprobe cannot read it"), timedOut: false)) }
        guard let json = try? JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any] else {
            return .failure(Failure(reason: "ffprobe's answer was not JSON", timedOut: false))
        }
        return Self.parse(json).map { .success($0) } ?? .failure(Failure(reason: "it holds no video stream", timedOut: false))
    }

    /// Reads ffprobe's JSON (`-show_format -show_streams`).
    static func parse(_ json: [String: Any]) -> Probe? {
        let streams = json["streams"] as? [[String: Any]] ?? []
        let format = json["format"] as? [String: Any] ?? [:]
        func number(_ value: Any?) -> Double? {
            if let text = value as? String { return Double(text) }
            return (value as? NSNumber)?.doubleValue
        }
        // The first video stream that is not a cover picture.
        guard let video = streams.first(where: { stream in
            stream["codec_type"] as? String == "video" && ((stream["disposition"] as? [String: Any])?["attached_pic"] as? Int ?? 0) == 0
        }), let width = video["width"] as? Int, let height = video["height"] as? Int, width > 0, height > 0 else { return nil }
        var rotation = 0.0
        for side in video["side_data_list"] as? [[String: Any]] ?? [] {
            if let value = number(side["rotation"]) { rotation = value }
        }
        if let tag = number((video["tags"] as? [String: Any])?["rotate"]) { rotation = tag }
        let quarterTurns = Int((rotation / 90).rounded()) & 3
        let rate = (video["avg_frame_rate"] as? String).flatMap(Self.fraction) ?? (video["r_frame_rate"] as? String).flatMap(Self.fraction) ?? 30
        let duration = number(format["duration"]) ?? number(video["duration"]) ?? 0
        let created = ((format["tags"] as? [String: Any])?["creation_time"] as? String)
        return Probe(
            width: quarterTurns % 2 == 1 ? height : width, height: quarterTurns % 2 == 1 ? width : height,
            duration: duration.isFinite ? duration : 0, framesPerSecond: rate.isFinite && rate > 0 ? rate : 30,
            hasAudio: streams.contains { $0["codec_type"] as? String == "audio" }, created: created)
    }

    static func fraction(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d != 0 else { return Double(text) }
        return n / d
    }

    /// The size of the web copy: never more than 1080 pixels high, never larger than the
    /// source, both sides even (H.264 needs that).
    public static func webSize(width: Int, height: Int, maxHeight: Int = 1080) -> (width: Int, height: Int) {
        let h = min(height, maxHeight)
        let w = Int((Double(width) * Double(h) / Double(height)).rounded())
        return (max(2, w - w % 2), max(2, h - h % 2))
    }

    /// The filters both outputs share: scaled to `size` (after ffmpeg's automatic rotation),
    /// square pixels.
    private func scale(_ size: (width: Int, height: Int)) -> String {
        "scale=\(size.width):\(size.height):flags=bicubic,setsar=1"
    }

    /// A poster frame as a JPEG: a second in, or halfway through a shorter video.
    public func poster(_ source: String, to output: String, probe: Probe, size: (width: Int, height: Int)) -> Result<Void, Failure> {
        let at = probe.duration > 2 ? 1.0 : probe.duration / 2
        let run = Self.run(ffmpeg, [
            "-nostdin", "-v", "error", "-y", "-ss", String(format: "%.3f", at), "-i", Self.file(source), "-map", "0:v:0", "-frames:v", "1",
            "-vf", scale(size), "-map_metadata", "-1", "-q:v", "2", "-f", "image2", Self.file(output),
        ], seconds: 120)
        return outcome(run, output, "the poster frame")
    }

    /// The copy for the web: H.264 and AAC in MP4, at most 30 frames a second, the index at the
    /// front (`+faststart`: playback starts before the whole file is loaded), and no metadata at
    /// all: no GPS position, capture time, phone model or encoder name.
    ///
    /// The encoders run on one thread, so the bytes depend on the source and these settings
    /// only. With x264's frame threads a frame is encoded against whatever its neighbours had
    /// finished: two threads gave a different stream in about 1 run of 12 on a loaded machine
    /// (the demo's 4 s clip: 231,288 or 231,386 bytes), one thread the same bytes in 32 of 32
    /// runs with four encodes competing for two cores. A build runs several videos at once
    /// instead (`VideoProcessor.parallel`).
    public func webCopy(_ source: String, to output: String, probe: Probe, size: (width: Int, height: Int)) -> Result<Void, Failure> {
        var filters = scale(size)
        if probe.framesPerSecond > 30.5 { filters += ",fps=30" }
        var arguments = ["-nostdin", "-v", "error", "-y", "-i", Self.file(source), "-map", "0:v:0"]
        if probe.hasAudio { arguments += ["-map", "0:a:0"] }
        arguments += [
            "-map_metadata", "-1", "-map_metadata:s:v", "-1", "-map_metadata:s:a", "-1", "-map_chapters", "-1", "-sn", "-dn",
            "-vf", filters, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-profile:v", "high", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k", "-ac", "2",
            "-movflags", "+faststart", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
            "-threads", "1", "-f", "mp4", Self.file(output),
        ]
        // Generous: a 4K 60 fps phone video encodes at about a third of real time on one slow core.
        let seconds = max(300, Int(probe.duration * 20))
        return outcome(Self.run(ffmpeg, arguments, seconds: seconds), output, "the web copy")
    }

    /// A path as ffmpeg's `file:` URL (made absolute).
    static func file(_ path: String) -> String {
        "file:" + (path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }

    private func outcome(_ run: Run, _ output: String, _ what: String) -> Result<Void, Failure> {
        if run.timedOut { return .failure(Failure(reason: "making \(what) took longer than \(run.limit) s", timedOut: true)) }
        var info = stat()
        guard run.status == 0, stat(output, &info) == 0, info.st_size > 0 else {
            return .failure(Failure(reason: Self.reason(run.errors, "ffmpeg could not make \(what)"), timedOut: false))
        }
        return .success(())
    }

    /// ffmpeg's first line of complaint, without the file's path.
    static func reason(_ errors: [UInt8], _ otherwise: String) -> String {
        let lines = String(decoding: errors.prefix(4096), as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let line = lines.first(where: { !$0.isEmpty }) else { return otherwise }
        // "file:/path/to/file.mp4: Invalid data found when processing input" → the part after the path.
        if let colon = line.range(of: ": ", options: .backwards), line.hasPrefix("/") || line.hasPrefix("file:") {
            return String(line[colon.upperBound...])
        }
        return String(line.prefix(200))
    }

    struct Run {
        let status: Int32
        let output: [UInt8]
        let errors: [UInt8]
        let timedOut: Bool
        let limit: Int
    }

    /// Runs a program, collecting its output, and kills it after `seconds`.
    static func run(_ executable: String, _ arguments: [String], seconds: Int) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return Run(status: -1, output: [], errors: Array("cannot start \(executable): \(error)".utf8), timedOut: false, limit: seconds)
        }
        let killed = KillSwitch()
        let timer = DispatchWorkItem {
            killed.fire()
            process.terminate()
            // A process that ignores SIGTERM gets SIGKILL a few seconds later.
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds), execute: timer)
        // Both pipes are read at once, so neither can fill up while the other is waited on.
        let group = DispatchGroup()
        let errorBytes = Mutex<[UInt8]>([])
        group.enter()
        DispatchQueue.global().async {
            let read = Array(errors.fileHandleForReading.readDataToEndOfFile())
            errorBytes.locked { $0 = read }
            group.leave()
        }
        let outputBytes = Array(output.fileHandleForReading.readDataToEndOfFile())
        group.wait()
        process.waitUntilExit()
        timer.cancel()
        return Run(status: process.terminationStatus, output: outputBytes, errors: errorBytes.locked { $0 }, timedOut: killed.fired, limit: seconds)
    }
}

/// Remembers whether a time limit ran out.
private final class KillSwitch: Sendable {
    private let value = Mutex(false)
    var fired: Bool { value.locked { $0 } }
    func fire() { value.locked { $0 = true } }
}
