import Foundation
import PleinLoad
import PleinCore

/// Copies of the content's attachments that `plein serve` answers from, made while building.
///
/// The server never reads the content folder when a request comes in: a file there can change
/// into a link to anything the user can read after the build that checked it. Each attachment is
/// opened through `ContentFile` during the build and copied into the cache under the SHA-256 of
/// its bytes; requests read only those copies.
struct ServedCopies: Sendable {
    let folder: String
    /// What each copy was made from, so an unchanged file is not read again.
    private var known: [String: (identity: FileIdentity, copy: String)] = [:]

    struct FileIdentity: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, modified: Int64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }
    }

    init(cacheRoot: String) {
        folder = cacheRoot + "/served"
    }

    /// The path of a checked copy of `relative` (content-relative), made when it is missing.
    mutating func copy(root: String, _ relative: String) -> Result<String, ContentFile.Refusal> {
        let fd: Int32
        switch ContentFile.open(root: root, relative: relative) {
        case .success(let opened): fd = opened
        case .failure(let refusal): return .failure(refusal)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ContentFile.Refusal(path: relative, reason: String(cString: strerror(errno)))) }
        let identity = FileIdentity(info)
        if let entry = known[relative], entry.identity == identity, access(entry.copy, F_OK) == 0 { return .success(entry.copy) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var hasher = Hashing.Stream()
        let temporary = folder + "/incoming-\(getpid())"
        if let reason = FileCopy.copy(from: fd, to: temporary, hashing: &hasher) {
            return .failure(ContentFile.Refusal(path: relative, reason: reason))
        }
        let copy = folder + "/" + hasher.finalizeHex()
        guard rename(temporary, copy) == 0 else {
            unlink(temporary)
            return .failure(ContentFile.Refusal(path: relative, reason: String(cString: strerror(errno))))
        }
        known[relative] = (identity, copy)
        return .success(copy)
    }

    /// Removes copies that no current attachment uses. Another `plein serve` may share the
    /// cache, so only copies untouched for an hour go.
    func prune(keeping used: Set<String>) {
        let hourAgo = time(nil) - 3600
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !used.contains(folder + "/" + name) {
            var info = stat()
            if lstat(folder + "/" + name, &info) == 0, info.st_mtim.tv_sec < hourAgo { unlink(folder + "/" + name) }
        }
    }
}

/// What the dev server needs of a file in plein's cache, found without reading it: its size and
/// a validator that changes when the file does. A link in its place is not followed.
public struct CachedFileInfo: Sendable, Equatable {
    public let size: Int
    public let etag: String

    public init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int(info.st_size)
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        etag = "\"" + String(UInt64(info.st_ino), radix: 16) + "-" + String(size, radix: 16) + "-" + String(modified, radix: 16) + "\""
    }
}
