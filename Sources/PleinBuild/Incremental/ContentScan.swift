import Foundation
import PleinCore

/// The content folder as the build store sees it, in the manner of git's index: every file with
/// its size, times, inode and the SHA-256 of its bytes, and every folder with its times and
/// inode (`ScanIndex`). A file is read and hashed only when its size, times or inode differ from
/// what the last scan saw, and a folder is listed only when its own times did (making, removing
/// or renaming a file in it moves them), as git's untracked cache does; so a build that finds
/// nothing changed reads no content and lists no folder: it looks at each folder and file once
/// (`fstatat`), and at nothing else.
///
/// As git does with a "racily clean" entry, a file or folder whose time is within a second of the
/// scan is kept as not vouched for: it could change again within the same tick of the file
/// system's clock without its time showing it, so the next scan reads (or lists) it again. A file
/// counts as changed only when its bytes did (a `touch`, a `git checkout` of the same content or a
/// copied folder change nothing).
///
/// It skips what `FileTree` skips (`ContentLayout.isHidden`: hidden entries, editor backups). A
/// symbolic link is seen through (the file it names); a broken one, or one to a folder, is kept
/// by its target's text, and its folder is listed at every scan, so that changing it counts.
struct ContentScan: Sendable {
    struct Entry: Sendable, Equatable {
        var size: Int64
        var modified: Int64
        var inode: UInt64
        var hash: [UInt8]
        /// When the file's inode last changed (ctime): a copy into the same file that keeps its
        /// source's time (`cp -p`, `rsync -t`) still moves it.
        var statusChanged: Int64 = 0
    }

    /// A file whose bytes differ from the previous scan's: `old` nil when it is new, `new` nil
    /// when it is gone.
    struct Change: Sendable, Equatable {
        var old: Entry?
        var new: Entry?
    }

    /// What this scan saw, for the next one.
    private(set) var index: ScanIndex
    /// The files whose bytes differ from the previous scan's (every file without one).
    private(set) var changes: [String: Change] = [:]
    /// The chunks of `index` that differ from the previous scan's (nil: gone), for the store.
    private(set) var changedChunks: [String: [UInt8]?] = [:]
    /// False when the content holds a link to a folder: edits below it are not seen here, so a
    /// build must not conclude from the scan that nothing changed.
    private(set) var complete = true

    /// Whether every file's bytes are those of the previous scan, and no file came or went.
    var isUnchanged: Bool { complete && changes.isEmpty }

    /// Every file with its entry (a dictionary of the whole content, for the builds that load it).
    var files: [String: Entry] { index.files }

    /// A second covers the coarsest clock of the file systems Linux keeps content on.
    static let racyWindow: Int64 = 1_000_000_000

    /// Looks at `root` against `previous`: every folder it knows, and each file in it, on every
    /// core; then, level by level, the folders to list again and the new folders below them; then
    /// the files not vouched for are read and hashed, on every core.
    /// `now` (nanoseconds since 1970) is the clock's unless a test says otherwise.
    init(root: String, previous: ScanIndex?, now: Int64? = nil) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let now = now ?? Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        index = previous ?? ScanIndex()
        var made: [ScanIndex.Folder] = []
        var before: [String: ScanIndex.Folder] = [:]
        var gone: [ScanIndex.Folder] = []
        var level: [(path: String, known: ScanIndex.Folder?)] = []
        var knownFolders: Set<String> = []
        // (A damaged index vouches for nothing: the scan starts from nothing.)
        let unvouched = previous.flatMap { $0.isEmpty ? nil : $0.unvouched(root: root, now: now) }
        if unvouched == nil { index = ScanIndex() }
        if let previous, let unvouched {
            for unvouched in unvouched {
                switch unvouched {
                case .gone(let folder): gone.append(folder)
                case .list(let folder): level.append((folder.path, folder))
                case .files(let old, let new):
                    made.append(new)
                    before[old.path] = old
                }
            }
            // (Which folders below a listed one are new: the whole list only when there is one.)
            if !level.isEmpty { knownFolders = previous.folderPaths }
            for (_, known) in level { if let known { before[known.path] = known } }
        } else {
            level = [("", nil)]
        }
        while !level.isEmpty {
            let listed = parallelMap(level) { [knownFolders] path, known in
                Self.list(root: root, path, known: known, knownFolders: knownFolders, now: now)
            }
            level = []
            for result in listed {
                guard let folder = result.folder else {
                    if let known = result.known { gone.append(known) }
                    continue
                }
                made.append(folder)
                level += result.newFolders.map { ($0, nil) }
            }
        }
        // The files not vouched for, read and hashed.
        var pending: [(folder: Int, item: Int)] = []
        for (folder, record) in made.enumerated() {
            for (item, entry) in record.items.enumerated() where entry.entry.hash.isEmpty { pending.append((folder, item)) }
        }
        let hashes = parallelMap(pending) { [made] folder, item in
            Self.hash(root: root, ScanIndex.join(made[folder].path, made[folder].items[item].name), kind: made[folder].items[item].kind)
        }
        for (number, place) in pending.enumerated() { made[place.folder].items[place.item].entry.hash = hashes[number] }
        // What changed in the files' bytes.
        for folder in gone {
            for item in folder.items { changes[ScanIndex.join(folder.path, item.name)] = Change(old: item.entry, new: nil) }
        }
        for folder in made {
            complete = complete && !folder.items.contains { $0.kind == .folderLink }
            let was = Dictionary((before[folder.path]?.items ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            var names: Set<String> = []
            for item in folder.items {
                names.insert(item.name)
                if was[item.name]?.entry.hash != item.entry.hash || was[item.name]?.kind != item.kind {
                    changes[ScanIndex.join(folder.path, item.name)] = Change(old: was[item.name]?.entry, new: item.entry)
                }
            }
            for (name, item) in was where !names.contains(name) {
                changes[ScanIndex.join(folder.path, name)] = Change(old: item.entry, new: nil)
            }
        }
        // A folder that went while one of its files came back under a listed folder's name is
        // both gone and made: what is made stands.
        let madePaths = Set(made.map(\.path))
        changedChunks = index.replace(made, removing: gone.map(\.path).filter { !madePaths.contains($0) })
        // (After a damaged index, its chunks that this scan did not make again go too.)
        if unvouched == nil, let previous {
            for chunk in previous.chunks.keys where index.chunks[chunk] == nil { changedChunks[chunk] = .some(nil) }
        }
    }

    /// A file's SHA-256; a link's, by its target's text.
    private static func hash(root: String, _ path: String, kind: ScanIndex.Kind) -> [UInt8] {
        guard kind == .file else {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) ?? ""
            return Hashing.sha256(Array(("link:" + target).utf8))
        }
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + path))).map { [UInt8]($0) } ?? []
        return Hashing.sha256(bytes)
    }

    /// One folder listed: its record (nil when it is gone or no longer a folder), with no hash
    /// for the files `known` does not vouch for, and the folders in it that `knownFolders` lacks.
    private static func list(root: String, _ relative: String, known: ScanIndex.Folder?, knownFolders: Set<String>, now: Int64)
        -> (folder: ScanIndex.Folder?, known: ScanIndex.Folder?, newFolders: [String]) {
        // (The content folder may be reached through a link; a folder in it never is.)
        let fd = open(relative.isEmpty ? root : root + "/" + relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (relative.isEmpty ? 0 : O_NOFOLLOW))
        var own = stat()
        guard fd >= 0, fstat(fd, &own) == 0, let dir = fdopendir(fd) else {
            if fd >= 0 { close(fd) }
            return (nil, known, [])
        }
        defer { closedir(dir) }
        var folder = ScanIndex.Folder(path: relative, status: ScanIndex.Status(own, now: now), items: [])
        var newFolders: [String] = []
        let was = Dictionary((known?.items ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." || ContentLayout.isHidden(name) { continue }
            let path = ScanIndex.join(relative, name)
            if item.pointee.d_type == UInt8(DT_DIR) {
                if !knownFolders.contains(path) { newFolders.append(path) }
                continue
            }
            var info = stat()
            if fstatat(fd, name, &info, 0) != 0 {
                folder.items.append(ScanIndex.Item(name: name, kind: .link, entry: Entry(size: -1, modified: 0, inode: 0, hash: [])))
            } else if (info.st_mode & S_IFMT) == S_IFDIR {
                // A folder reached through a link is kept by the link's text (never walked: it
                // may lead back up); a real folder of unknown type is walked.
                if item.pointee.d_type == UInt8(DT_LNK) {
                    folder.items.append(ScanIndex.Item(name: name, kind: .folderLink, entry: Entry(size: -1, modified: 0, inode: 0, hash: [])))
                } else if !knownFolders.contains(path) {
                    newFolders.append(path)
                }
            } else {
                let status = ScanIndex.Status(info, now: now)
                var entry = Entry(size: Int64(info.st_size), modified: status.modified, inode: status.inode, hash: [], statusChanged: status.changed)
                if let before = was[name], before.kind == .file, before.entry.modified != ScanIndex.Status.racy, before.entry.size == entry.size,
                   before.entry.modified == entry.modified, before.entry.statusChanged == entry.statusChanged, before.entry.inode == entry.inode {
                    entry.hash = before.entry.hash
                }
                folder.items.append(ScanIndex.Item(name: name, kind: .file, entry: entry))
            }
        }
        folder.items.sort { $0.name < $1.name }
        return (folder, known, newFolders)
    }
}
