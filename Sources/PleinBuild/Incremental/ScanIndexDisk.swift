import Foundation
import PleinCore

extension ScanIndex {
    // MARK: Looking at the disk

    /// The folders of `chunk[start..<end]` that the disk does not vouch for, each folder looked at
    /// through the content folder's descriptor, by its path in the record's bytes, and each file
    /// through its folder's.
    static func look(_ chunk: [UInt8], from start: Int, to end: Int, rootFD: Int32, now: Int64) -> [Unvouched]? {
        var found: [Unvouched] = []
        var whole = true
        let path = UnsafeMutablePointer<CChar>.allocate(capacity: 4 * 65_536 + 2)
        defer { path.deallocate() }
        chunk.withUnsafeBytes { raw in
            var offset = start
            while offset + 35 <= end {
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                let recordEnd = offset + 4 + length
                guard recordEnd <= end else {
                    whole = false
                    return
                }
                if let verdict = lookAtRecord(raw, offset, recordEnd, path: path, rootFD: rootFD, now: now) {
                    var reader = Reader(raw: raw, offset: offset, end: recordEnd)
                    guard let old = reader.folder() else {
                        whole = false
                        return
                    }
                    switch verdict {
                    case .gone: found.append(.gone(old))
                    case .list: found.append(.list(old))
                    case .files(let moved):
                        var folder = old
                        for (index, info) in moved {
                            let status = Status(info, now: now)
                            folder.items[index].entry = ContentScan.Entry(size: Int64(info.st_size), modified: status.modified, inode: status.inode, hash: [],
                                                                          statusChanged: status.changed)
                        }
                        found.append(.files(old: old, new: folder))
                    }
                }
                offset = recordEnd
            }
            whole = whole && offset == end
        }
        return whole ? found : nil
    }

    /// Linux's `O_PATH` (which Glibc's module does not bring): a descriptor to look through, not to read.
    private static let openPath: Int32 = 0o10_000_000

    private enum Verdict {
        case gone, list
        case files([(Int, stat)])
    }

    /// One folder's record against the disk: nil when the disk vouches for it and every file in it.
    private static func lookAtRecord(_ raw: UnsafeRawBufferPointer, _ start: Int, _ end: Int, path: UnsafeMutablePointer<CChar>,
                                     rootFD: Int32, now: Int64) -> Verdict? {
        var offset = start + 4
        let flags = raw[offset]
        let modified = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 1, as: Int64.self))
        let changed = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 9, as: Int64.self))
        let inode = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 17, as: UInt64.self))
        let pathLength = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 25, as: UInt16.self)))
        offset += 27
        guard offset + pathLength + 4 <= end else { return .list }
        // The folder's path (the content folder itself is "."); then, in the same buffer, each file's name.
        if pathLength == 0 {
            path[0] = CChar(UInt8(ascii: "."))
            path[1] = 0
        } else {
            for i in 0..<pathLength { path[i] = CChar(bitPattern: raw[offset + i]) }
            path[pathLength] = 0
        }
        // The folder, opened once (never through a link): each file in it is looked at by its name,
        // not by a path from the content folder walked again for every file.
        let folderFD = openat(rootFD, path, Self.openPath | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folderFD >= 0 else { return .gone }
        defer { close(folderFD) }
        var info = stat()
        guard fstat(folderFD, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return .gone }
        let own = Status(info, now: now)
        guard flags == 0, modified != Status.racy, own.modified == modified, own.changed == changed, own.inode == inode else { return .list }
        let prefix = 0
        offset += pathLength
        let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        offset += 4
        var moved: [(Int, stat)] = []
        for index in 0..<count {
            guard offset + 2 <= end else { return .list }
            let nameLength = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            offset += 2
            guard offset + nameLength + 34 <= end, prefix + nameLength < 4 * 65_536 else { return .list }
            for i in 0..<nameLength { path[prefix + i] = CChar(bitPattern: raw[offset + i]) }
            path[prefix + nameLength] = 0
            offset += nameLength + 1
            let size = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
            let fileModified = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self))
            let fileChanged = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self))
            let fileInode = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            let hashCount = Int(raw[offset + 32])
            offset += 33 + hashCount
            var file = stat()
            guard fstatat(folderFD, path, &file, 0) == 0, (file.st_mode & S_IFMT) == S_IFREG else { return .list }
            let status = Status(file, now: now)
            if fileModified == Status.racy || size != Int64(file.st_size) || fileModified != status.modified || fileChanged != status.changed
                || fileInode != status.inode {
                moved.append((index, file))
            }
        }
        // (A record that is not what it says is listed, and so read whole: see `look`.)
        guard offset == end else { return .list }
        return moved.isEmpty ? nil : .files(moved)
    }
}
