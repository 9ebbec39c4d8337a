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

    /// Walks `root`, hashing only what `previous` does not vouch for.
    init(root: String, previous: [String: Entry]) {
        let (found, complete) = Self.walk(root, "", parallelLevels: 2)
        self.complete = complete
        let hashed = parallelMap(found) { path, info -> (String, Entry) in
            guard let info else {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) ?? ""
                return (path, Entry(size: -1, modified: 0, inode: 0, hash: Hashing.sha256(Array(("link:" + target).utf8))))
            }
            let size = Int64(info.st_size)
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let inode = UInt64(info.st_ino)
            if let known = previous[path], known.size == size, known.modified == modified, known.inode == inode {
                return (path, known)
            }
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + path))).map { [UInt8]($0) } ?? []
            return (path, Entry(size: size, modified: modified, inode: inode, hash: Hashing.sha256(bytes)))
        }
        files = Dictionary(hashed, uniquingKeysWith: { a, _ in a })
    }

    /// The content-relative paths whose bytes differ from `previous` (new, changed or gone).
    func changes(from previous: [String: Entry]) -> Set<String> {
        var changed: Set<String> = []
        for (path, entry) in files where previous[path]?.hash != entry.hash { changed.insert(path) }
        for path in previous.keys where files[path] == nil { changed.insert(path) }
        return changed
    }

    /// Every file below `root/relative`, with `stat` through links (nil for a broken link), and
    /// whether no folder was reached through a link. The folders of the first `parallelLevels`
    /// levels are walked in parallel (a large community has thousands of report folders).
    private static func walk(_ root: String, _ relative: String, parallelLevels: Int) -> (found: [(String, stat?)], complete: Bool) {
        var found: [(String, stat?)] = []
        var complete = true
        var folders: [String] = []
        guard let dir = opendir(relative.isEmpty ? root : root + "/" + relative) else { return ([], true) }
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") || name.hasSuffix("~") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            if item.pointee.d_type == UInt8(DT_DIR) {
                folders.append(path)
                continue
            }
            var info = stat()
            if stat(root + "/" + path, &info) != 0 {
                found.append((path, nil))
            } else if (info.st_mode & S_IFMT) == S_IFDIR {
                // A folder reached through a link is kept by the link's text (never walked: it
                // may lead back up); a real folder of unknown type is walked.
                if item.pointee.d_type == UInt8(DT_LNK) {
                    found.append((path, nil))
                    complete = false
                } else {
                    folders.append(path)
                }
            } else {
                found.append((path, info))
            }
        }
        closedir(dir)
        let below = parallelLevels > 0
            ? parallelMap(folders) { walk(root, $0, parallelLevels: parallelLevels - 1) }
            : folders.map { walk(root, $0, parallelLevels: 0) }
        for part in below {
            found += part.found
            complete = complete && part.complete
        }
        return (found, complete)
    }
}
