import Foundation
import PleinCore
import Synchronization

/// Derived images on disk in `.plein-cache/images/vips-<version>/`, named by a hash of the
/// source's bytes and the operation, so a rebuild with unchanged photos decodes nothing.
///
/// Every file is written under a temporary name and renamed into place: a killed build leaves
/// no half-written image that a later build could serve.
public final class ImageCache: Sendable {
    public let root: String
    private let folderMade = Mutex(false)
    private let index: Mutex<[String: IndexEntry]>
    private let used = Mutex<Set<String>>([])

    /// Remembers each source's hash by its size, modification time and inode, so unchanged
    /// files are not read again just to be hashed.
    struct IndexEntry: Codable {
        let size: Int
        let mtime: Int
        let inode: UInt64
        let hash: String
    }

    /// What the cache knows about one source: its header and the variants made from it.
    public struct Manifest: Codable, Sendable {
        public var info: ImageInfo
        /// Variant key → size written.
        public var variants: [String: [Int]]
    }

    public init(root: String) {
        self.root = root
        var loaded: [String: IndexEntry] = [:]
        if let data = FileManager.default.contents(atPath: root + "/index.json"),
           let decoded = try? JSONDecoder().decode([String: IndexEntry].self, from: data) {
            loaded = decoded
        }
        index = Mutex(loaded)
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/images")) ?? []).map { root + "/images/" + $0 }
        Self.removeLeftovers(in: versions + [root + "/served"])
    }

    /// Removes the temporary files (`….tmp-PID-…`) of builds that were killed while writing:
    /// those whose process no longer runs.
    static func removeLeftovers(in folders: [String]) {
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                guard let range = name.range(of: ".tmp-") ?? name.range(of: "incoming-") else { continue }
                let digits = name[range.upperBound...].prefix { $0.isNumber }
                guard let pid = Int32(digits), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                unlink(folder + "/" + name)
            }
        }
    }

    /// The SHA-256 of a file, from the index when the file has not changed.
    public func hash(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        let mtime = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        let inode = UInt64(info.st_ino)
        if let entry = index.locked({ $0[path] }), entry.size == size, entry.mtime == mtime, entry.inode == inode {
            return entry.hash
        }
        guard let hash = Self.streamedHash(path) else { return nil }
        index.locked { $0[path] = IndexEntry(size: size, mtime: mtime, inode: inode, hash: hash) }
        return hash
    }

    /// SHA-256 of a file read in 1 MiB pieces: a phone video is hashed without holding it.
    static func streamedHash(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var stream = Hashing.Stream()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            buffer.withUnsafeBytes { stream.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return stream.finalizeHex()
    }

    /// `images/vips-<version>/`, made when first asked for: naming it starts libvips, which a
    /// build without images never needs.
    public var folder: String {
        let folder = root + "/images/vips-" + ImageIO.version
        folderMade.locked { made in
            guard !made else { return }
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            made = true
        }
        return folder
    }

    public func manifestPath(_ hash: String) -> String { folder + "/" + hash + ".json" }

    public func variantPath(_ hash: String, _ spec: VariantSpec) -> String {
        folder + "/" + hash + "-" + spec.key + "." + spec.format.fileExtension
    }

    public func manifest(_ hash: String) -> Manifest? {
        markUsed(manifestPath(hash))
        guard let data = FileManager.default.contents(atPath: manifestPath(hash)) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    public func store(_ manifest: Manifest, for hash: String) {
        writeJSON(manifest, to: manifestPath(hash))
    }

    public func markUsed(_ path: String) {
        used.locked { _ = $0.insert(path) }
    }

    /// A temporary name beside `path` for writing it whole before renaming.
    public func temporary(for path: String) -> String {
        let ext = (path as NSString).pathExtension
        return path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))." + ext
    }

    /// Writes `value` as JSON (keys sorted) to `path`, whole or not at all: through a temporary
    /// file beside it and a rename.
    public func writeJSON(_ value: some Encodable, to path: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return }
        let temporary = temporary(for: path)
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Saves the index and removes every cached file this build did not use, and the folders
    /// of other libvips versions.
    public func finish() -> (pruned: Int, kept: Int) {
        writeJSON(index.locked { $0 }, to: root + "/index.json")
        let keep = used.locked { $0 }
        var pruned = 0
        let fm = FileManager.default
        guard !keep.isEmpty else {
            // Nothing used (a build without images): everything made before goes, libvips unasked.
            for name in (try? fm.contentsOfDirectory(atPath: root + "/images")) ?? [] {
                let folder = root + "/images/" + name
                pruned += ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).count
                try? fm.removeItem(atPath: folder)
            }
            return (pruned, 0)
        }
        return (Self.prune(folder, keeping: keep), keep.count)
    }

    /// Removes every file of `folder` not in `keep`, and the folders beside it (those of other
    /// versions of libvips or ffmpeg). Returns how many it removed.
    public static func prune(_ folder: String, keeping keep: Set<String>) -> Int {
        let fm = FileManager.default
        var pruned = 0
        for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where !keep.contains(folder + "/" + name) {
            if (try? fm.removeItem(atPath: folder + "/" + name)) != nil { pruned += 1 }
        }
        let parent = (folder as NSString).deletingLastPathComponent, mine = (folder as NSString).lastPathComponent
        for name in (try? fm.contentsOfDirectory(atPath: parent)) ?? [] where name != mine {
            if (try? fm.removeItem(atPath: parent + "/" + name)) != nil { pruned += 1 }
        }
        return pruned
    }
}
