import Foundation
import PleinCore

/// The content folder as the build store sees it: every file with its size, modification time,
/// inode and the SHA-256 of its bytes. A file is read and hashed only when its size, time or
/// inode differ from what the store saw, so a build that finds nothing changed reads no content;
/// and a file counts as changed only when its bytes did (a `touch`, a `git checkout` of the same
/// content or a copied folder change nothing).
///
/// It skips what `FileTree` skips (hidden entries, editor backups ending in `~`). A symbolic
/// link is seen through (the file it names); a broken one, or one to a folder, is kept by its
/// target text, so that changing it counts as a change.
struct ContentScan: Sendable {
    struct Entry: Sendable, Equatable {
        var size: Int64
        var modified: Int64
        var inode: UInt64
        var hash: [UInt8]
    }

    var files: [String: Entry] = [:]
    /// False when the content holds a link to a folder: edits below it are not seen here, so a
    /// build must not conclude from the scan that nothing changed.
    var complete = true
    /// How many files `previous` vouched for (same size, time and inode): when that is every
    /// file, and `previous` had no others, nothing changed.
    private var vouched = 0
    private var previousCount = 0

    /// Walks `root`, hashing only what `previous` does not vouch for. The folders are listed a
    /// level at a time, the folders of each level on every core; each file is looked at through
    /// its folder (`fstatat`), not by its whole path.
    init(root: String, previous: [String: Entry]) {
        previousCount = previous.count
        var level = [""]
        var seen: [(String, Entry)] = []
        var unknown: [(String, stat?)] = []
        while !level.isEmpty {
            let listed = parallelMap(level) { Self.list(root, $0, previous: previous) }
            level = []
            for folder in listed {
                seen += folder.seen
                unknown += folder.unknown
                level += folder.folders
                complete = complete && folder.complete
            }
        }
        vouched = seen.count
        let hashed = parallelMap(unknown) { path, info -> (String, Entry) in
            guard let info else {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) ?? ""
                return (path, Entry(size: -1, modified: 0, inode: 0, hash: Hashing.sha256(Array(("link:" + target).utf8))))
            }
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + path))).map { [UInt8]($0) } ?? []
            return (path, Entry(size: Int64(info.st_size), modified: Self.modified(info), inode: UInt64(info.st_ino), hash: Hashing.sha256(bytes)))
        }
        files.reserveCapacity(seen.count + hashed.count)
        for (path, entry) in seen { files[path] = entry }
        for (path, entry) in hashed { files[path] = entry }
    }

    /// Whether the bytes of every file are those of `previous`, and no file came or went.
    func isUnchanged(from previous: [String: Entry]) -> Bool {
        if vouched == files.count, previous.count == previousCount, files.count == previous.count { return true }
        return changes(from: previous).isEmpty
    }

    /// The content-relative paths whose bytes differ from `previous` (new, changed or gone).
    func changes(from previous: [String: Entry]) -> Set<String> {
        var changed: Set<String> = []
        for (path, entry) in files where previous[path]?.hash != entry.hash { changed.insert(path) }
        for path in previous.keys where files[path] == nil { changed.insert(path) }
        return changed
    }

    private static func modified(_ info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// One folder: the files `previous` vouches for, the others (with `stat` through links; nil
    /// for a broken link or a link to a folder), the folders in it, and whether none of them
    /// was reached through a link.
    private static func list(_ root: String, _ relative: String, previous: [String: Entry])
        -> (seen: [(String, Entry)], unknown: [(String, stat?)], folders: [String], complete: Bool) {
        var seen: [(String, Entry)] = []
        var unknown: [(String, stat?)] = []
        var folders: [String] = []
        var complete = true
        let fd = open(relative.isEmpty ? root : root + "/" + relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let dir = fdopendir(fd) else {
            if fd >= 0 { close(fd) }
            return ([], [], [], true)
        }
        defer { closedir(dir) }
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") || name.hasSuffix("~") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            if item.pointee.d_type == UInt8(DT_DIR) {
                folders.append(path)
                continue
            }
            var info = stat()
            if fstatat(fd, name, &info, 0) != 0 {
                unknown.append((path, nil))
            } else if (info.st_mode & S_IFMT) == S_IFDIR {
                // A folder reached through a link is kept by the link's text (never walked: it
                // may lead back up); a real folder of unknown type is walked.
                if item.pointee.d_type == UInt8(DT_LNK) {
                    unknown.append((path, nil))
                    complete = false
                } else {
                    folders.append(path)
                }
            } else if let known = previous[path], known.size == Int64(info.st_size), known.modified == modified(info),
                      known.inode == UInt64(info.st_ino) {
                seen.append((path, known))
            } else {
                unknown.append((path, info))
            }
        }
        return (seen, unknown, folders, complete)
    }
}
