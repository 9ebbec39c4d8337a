import Foundation
import PleinCore

/// What a `ContentScan` saw, as the build store keeps it: every folder of the content with its
/// times and inode, and every file in it with its size, times, inode and SHA-256. It is kept in
/// chunks (a section's folder, or one of its sub-folders: `reports/1094`, `users`), each an
/// encoded list of folders sorted by path, so that an edit rewrites one chunk, and a scan that
/// finds nothing changed reads them as they are: it looks at each folder and file of the disk
/// through the bytes, without making a string or a dictionary of the whole content.
struct ScanIndex: Sendable, Equatable {
    enum Kind: UInt8, Sendable {
        case file = 0
        /// A link that leads nowhere: kept by its target's text.
        case link = 1
        /// A link to a folder: kept by its target's text, never walked.
        case folderLink = 2
    }

    /// A folder's or file's times and inode, as compared from scan to scan.
    struct Status: Sendable, Equatable {
        /// `modified` of a time too close to the scan's to vouch for anything (see `ContentScan`).
        static let racy: Int64 = -1
        var modified: Int64
        var changed: Int64
        var inode: UInt64

        init(modified: Int64, changed: Int64, inode: UInt64) {
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }

        init(_ info: stat, now: Int64) {
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            let recent = max(modified, changed) >= now - ContentScan.racyWindow
            self.init(modified: recent ? Self.racy : modified, changed: changed, inode: UInt64(info.st_ino))
        }
    }

    struct Item: Sendable, Equatable {
        var name: String
        var kind: Kind
        var entry: ContentScan.Entry
    }

    struct Folder: Sendable, Equatable {
        /// Content-relative; "" for the content folder itself.
        var path: String
        var status: Status
        /// By name.
        var items: [Item]
    }

    /// Chunk → its folders, encoded (`encode`).
    private(set) var chunks: [String: [UInt8]] = [:]

    init(chunks: [String: [UInt8]] = [:]) {
        self.chunks = chunks
    }

    var isEmpty: Bool { chunks.isEmpty }

    /// The chunk a folder is kept in: its first two names.
    static func chunk(of folder: String) -> String {
        var slashes = 0
        for index in folder.utf8.indices where folder.utf8[index] == UInt8(ascii: "/") {
            slashes += 1
            if slashes == 2 { return String(folder[..<index]) }
        }
        return folder
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    // MARK: What the scans ask

    /// Every file with its entry.
    var files: [String: ContentScan.Entry] {
        var files: [String: ContentScan.Entry] = [:]
        for bytes in chunks.values {
            for folder in Self.decode(bytes) {
                for item in folder.items { files[Self.join(folder.path, item.name)] = item.entry }
            }
        }
        return files
    }

    /// The entries of `paths` (of those that are files), each folder found in its chunk by its
    /// path and decoded alone.
    func entries(_ paths: some Sequence<String>) -> [String: ContentScan.Entry] {
        var byFolder: [String: [String]] = [:]
        for path in paths {
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
            byFolder[folder, default: []].append(path)
        }
        var entries: [String: ContentScan.Entry] = [:]
        for (path, files) in byFolder {
            guard let folder = folder(path) else { continue }
            // (Two thousand members in one folder: its items by name, not searched for each.)
            let items = files.count < 8 ? nil : Dictionary(folder.items.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for file in files {
                let name = path.isEmpty ? file : String(file.dropFirst(path.count + 1))
                if let item = items.map({ $0[name] }) ?? folder.items.first(where: { $0.name == name }), item.kind == .file { entries[file] = item.entry }
            }
        }
        return entries
    }

    /// One folder's record, found in its chunk by its path's bytes.
    func folder(_ path: String) -> Folder? {
        guard let bytes = chunks[Self.chunk(of: path)] else { return nil }
        let wanted = Array(path.utf8)
        return bytes.withUnsafeBytes { raw -> Folder? in
            var offset = 0
            while offset + 35 <= raw.count {
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                let pathLength = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 29, as: UInt16.self)))
                guard offset + 4 + length <= raw.count, offset + 31 + pathLength <= raw.count else { return nil }
                if pathLength == wanted.count,
                   pathLength == 0 || wanted.withUnsafeBytes({ memcmp($0.baseAddress!, raw.baseAddress! + offset + 31, pathLength) == 0 }) {
                    var reader = Reader(raw: raw, offset: offset, end: offset + 4 + length)
                    return reader.folder()
                }
                offset += 4 + length
            }
            return nil
        }
    }

    /// The paths of every folder.
    var folderPaths: Set<String> {
        var paths: Set<String> = []
        for bytes in chunks.values { Self.forEachRecord(bytes) { _, path, _ in paths.insert(path) } }
        return paths
    }

    /// What became of a folder that the disk no longer vouches for.
    enum Unvouched: Sendable {
        /// It is no longer there (or no longer a folder).
        case gone(Folder)
        /// Its times moved (something in it was made, removed or renamed), or it holds links:
        /// it is to be listed again.
        case list(Folder)
        /// Only files in it moved: the folder as it was, and with those files' new sizes, times
        /// and inodes, and no hash (to be read again).
        case files(old: Folder, new: Folder)
    }

    /// The folders (and the files in them) whose size, times or inode on disk below `root`
    /// differ from what this index holds, or that it cannot vouch for; every folder looked at on
    /// every core. Nil when the index is damaged: what it lacks would go unseen.
    func unvouched(root: String, now: Int64) -> [Unvouched]? {
        let rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { return chunks.values.flatMap(Self.decode).map { .gone($0) } }
        defer { close(rootFD) }
        // Every folder's place, in slices of about equal bytes, one slice at a time per core.
        var records: [(chunk: [UInt8], start: Int, end: Int)] = []
        for bytes in chunks.values {
            var start = 0
            var end = 0
            var size = 0
            let whole = Self.forEachRecord(bytes) { offset, _, length in
                if size > 65_536 {
                    records.append((bytes, start, end))
                    start = offset
                    size = 0
                }
                size += length
                end = offset + length
            }
            guard whole else { return nil }
            if end > start { records.append((bytes, start, end)) }
        }
        let found = parallelMap(records) { chunk, start, end in
            Self.look(chunk, from: start, to: end, rootFD: rootFD, now: now)
        }
        var all: [Unvouched] = []
        for part in found {
            guard let part else { return nil }
            all += part
        }
        return all
    }

    /// Puts `folders` in place of the folders of the same paths, and drops the `gone` ones;
    /// returns the chunks that changed (nil: no longer any).
    mutating func replace(_ folders: [Folder], removing gone: [String]) -> [String: [UInt8]?] {
        var touched: [String: (put: [Folder], drop: Set<String>)] = [:]
        for folder in folders { touched[Self.chunk(of: folder.path), default: ([], [])].put.append(folder) }
        for path in gone { touched[Self.chunk(of: path), default: ([], [])].drop.insert(path) }
        var changed: [String: [UInt8]?] = [:]
        for (chunk, change) in touched {
            var byPath = Dictionary((chunks[chunk].map(Self.decode) ?? []).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
            for path in change.drop { byPath[path] = nil }
            for folder in change.put { byPath[folder.path] = folder }
            if byPath.isEmpty {
                if chunks.removeValue(forKey: chunk) != nil { changed[chunk] = .some(nil) }
                continue
            }
            let bytes = Self.encode(byPath.values.sorted { $0.path < $1.path })
            if chunks[chunk] != bytes {
                chunks[chunk] = bytes
                changed[chunk] = bytes
            }
        }
        return changed
    }

    // MARK: The encoding
    //
    // A chunk is its folders, one after another: the length of the rest of the record (UInt32),
    // a flag (1: list it at every scan), the folder's modified and changed times (Int64,
    // nanoseconds) and inode (UInt64), its path (UInt16 length, UTF-8), the number of its items
    // (UInt32), and each item: its name (UInt16 length, UTF-8), kind, size, modified and changed
    // times, inode and hash (a length byte and the bytes). Little-endian throughout.

    static func encode(_ folders: [Folder]) -> [UInt8] {
        var bytes: [UInt8] = []
        for folder in folders {
            let start = bytes.count
            append(UInt32(0), to: &bytes)
            bytes.append(folder.items.contains { $0.kind != .file } ? 1 : 0)
            append(folder.status.modified, to: &bytes)
            append(folder.status.changed, to: &bytes)
            append(folder.status.inode, to: &bytes)
            append(string: folder.path, to: &bytes)
            append(UInt32(folder.items.count), to: &bytes)
            for item in folder.items {
                append(string: item.name, to: &bytes)
                bytes.append(item.kind.rawValue)
                append(item.entry.size, to: &bytes)
                append(item.entry.modified, to: &bytes)
                append(item.entry.statusChanged, to: &bytes)
                append(item.entry.inode, to: &bytes)
                bytes.append(UInt8(item.entry.hash.count))
                bytes += item.entry.hash
            }
            let length = UInt32(bytes.count - start - 4).littleEndian
            withUnsafeBytes(of: length) { for i in 0..<4 { bytes[start + i] = $0[i] } }
        }
        return bytes
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func append(string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8.prefix(Int(UInt16.max)))
        append(UInt16(utf8.count), to: &bytes)
        bytes += utf8
    }

    /// The folders of a chunk; as many as could be read of a damaged one.
    static func decode(_ bytes: [UInt8]) -> [Folder] {
        var folders: [Folder] = []
        bytes.withUnsafeBytes { raw in
            var reader = Reader(raw: raw, offset: 0, end: raw.count)
            while reader.offset < reader.end, let folder = reader.folder() { folders.append(folder) }
        }
        return folders
    }

    /// Calls `body` with each record's offset, its folder's path and its length (header
    /// included); false when the chunk is not whole records.
    @discardableResult
    private static func forEachRecord(_ bytes: [UInt8], _ body: (Int, String, Int) -> Void) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset + 35 <= raw.count {
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                let pathLength = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 29, as: UInt16.self)))
                guard offset + 4 + length <= raw.count, 35 + pathLength <= 4 + length else { return false }
                let path = String(decoding: UnsafeRawBufferPointer(rebasing: raw[(offset + 31)..<(offset + 31 + pathLength)]), as: UTF8.self)
                body(offset, path, 4 + length)
                offset += 4 + length
            }
            return offset == raw.count
        }
    }

    struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset: Int
        let end: Int

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            guard offset + MemoryLayout<T>.size <= end else { return nil }
            defer { offset += MemoryLayout<T>.size }
            return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
        }

        mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, offset + count <= end else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + count)])
        }

        mutating func string() -> String? {
            guard let count = integer(UInt16.self), let utf8 = bytes(Int(count)) else { return nil }
            return String(decoding: utf8, as: UTF8.self)
        }

        mutating func folder() -> Folder? {
            guard let length = integer(UInt32.self) else { return nil }
            let recordEnd = offset + Int(length)
            guard recordEnd <= end, integer(UInt8.self) != nil, let modified = integer(Int64.self), let changed = integer(Int64.self),
                  let inode = integer(UInt64.self), let path = string(), let count = integer(UInt32.self) else { return nil }
            var items: [Item] = []
            items.reserveCapacity(Int(min(count, 100_000)))
            for _ in 0..<count {
                guard let name = string(), let kind = integer(UInt8.self).flatMap(Kind.init(rawValue:)), let size = integer(Int64.self),
                      let modified = integer(Int64.self), let changed = integer(Int64.self), let inode = integer(UInt64.self),
                      let hashCount = integer(UInt8.self), let hash = bytes(Int(hashCount)) else { return nil }
                items.append(Item(name: name, kind: kind, entry: ContentScan.Entry(size: size, modified: modified, inode: inode, hash: Array(hash),
                                                                              statusChanged: changed)))
            }
            guard offset == recordEnd else { return nil }
            return Folder(path: path, status: Status(modified: modified, changed: changed, inode: inode), items: items)
        }
    }
}
