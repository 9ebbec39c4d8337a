internal import CPleinSystem
import Foundation
import PleinRender

// The files of the staging folder, one at a time: compared with the bytes they are to hold,
// written into from the first byte that differs, created anew, copied in place, taken out.

extension OutputWriter {
    /// Whether two paths name the same file (hard links of one another).
    static func sameFile(_ one: String, _ other: String) -> Bool {
        var a = stat(), b = stat()
        return lstat(one, &a) == 0 && lstat(other, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev
    }

    /// A file of the staging folder against the bytes it is to hold.
    enum Staged {
        case same
        /// It differs from its byte `common` on; `own`: no other tree links to it, so it can be
        /// written into.
        case differs(common: Int, own: Bool)
        case missing
    }

    static func compare(_ path: String, _ bytes: [UInt8]) -> Staged {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
        let own = info.st_nlink == 1
        // (A file shared with the output is only ever replaced whole: its bytes need not be read.)
        guard own || Int(info.st_size) == bytes.count else { return .differs(common: 0, own: false) }
        guard let common = commonPrefix(fd, size: Int(info.st_size), bytes) else { return .differs(common: 0, own: own) }
        return common == bytes.count && Int(info.st_size) == bytes.count ? .same : .differs(common: common, own: own)
    }

    /// A file of the staging folder that no other tree shares, brought up to `bytes` in place:
    /// from their first byte that differs, so a long file with a line added rewrites what
    /// follows the line, into pages the system already holds. False when it could not be
    /// written; it is then replaced by a new file.
    static func rewrite(_ path: String, _ bytes: [UInt8], from common: Int) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var written = common
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw in pwrite(fd, raw.baseAddress! + written, bytes.count - written, off_t(written)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return ftruncate(fd, off_t(bytes.count)) == 0
    }

    /// How many bytes at the start of the open file (of `size` bytes) equal those of `bytes`,
    /// read a block at a time into one small buffer and stopping at the first block that differs
    /// (a map of ninety megabytes read into a new buffer of its size cost more in the pages given
    /// to that buffer than in the reading; a mapped file would end the process if another one
    /// shortened it meanwhile); nil when it cannot be read.
    static func commonPrefix(_ fd: Int32, size: Int, _ bytes: [UInt8]) -> Int? {
        let length = min(size, bytes.count)
        guard length > 0 else { return 0 }
        let block = 65_536
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 64)
        defer { buffer.deallocate() }
        return bytes.withUnsafeBytes { raw -> Int? in
            let new = raw.baseAddress!
            var at = 0
            while at < length {
                let wanted = min(block, length - at)
                var got = 0
                while got < wanted {
                    let n = pread(fd, buffer + got, wanted - got, off_t(at + got))
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { return nil }
                    got += n
                }
                if memcmp(buffer, new + at, wanted) != 0 {
                    var offset = 0
                    while buffer.load(fromByteOffset: offset, as: UInt8.self) == new.load(fromByteOffset: at + offset, as: UInt8.self) { offset += 1 }
                    return at + offset
                }
                at += wanted
            }
            return length
        }
    }

    /// Writes `file`'s bytes to a new file at `path`, never into an existing one: it may be a
    /// hard link shared with the output.
    static func create(_ path: String, _ file: OutputFile) throws(Failure) {
        var fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0, errno == EEXIST, unlink(path) == 0 { fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw Failure(path: file.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var written = 0
        let count = file.bytes.count
        while written < count {
            let n = file.bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + written, count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: file.path, reason: String(cString: strerror(errno)))
            }
            written += n
        }
    }

    /// Writes the bytes of the file at `source` into the existing file at `target` (one no other
    /// tree shares), from its start, and cuts it to their length; false when it could not.
    static func copyInPlace(from source: String, to target: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { return false }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard output >= 0 else { return false }
        defer { close(output) }
        var info = stat()
        return plein_copy_file(input, output) == 0 && fstat(input, &info) == 0 && ftruncate(output, info.st_size) == 0
    }

    /// Takes a file out of `root` and the folders it leaves empty.
    static func unlinkPruning(_ root: String, _ relative: String) {
        guard unlink(root + "/" + relative) == 0 else { return }
        var folder = relative
        while let slash = folder.lastIndex(of: "/") {
            folder = String(folder[..<slash])
            if rmdir(root + "/" + folder) != 0 { break }
        }
    }

    /// Whether the file at `path` is a regular file holding exactly `bytes`.
    static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == bytes.count, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return commonPrefix(fd, size: bytes.count, bytes) == bytes.count
    }

    /// Every file (anything that is not a folder) and folder below `root`.
    static func walk(_ root: String, _ relative: String, files: inout Set<String>, directories: inout Set<String>) {
        guard let dir = opendir(relative.isEmpty ? root : root + "/" + relative) else { return }
        defer { closedir(dir) }
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            // Hidden entries at the top (`.git`) are replaced from the output as a whole.
            if name == "." || name == ".." || (relative.isEmpty && name.hasPrefix(".")) { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var isDirectory = item.pointee.d_type == UInt8(DT_DIR)
            if item.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isDirectory = lstat(root + "/" + path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            if isDirectory {
                directories.insert(path)
                walk(root, path, files: &files, directories: &directories)
            } else {
                files.insert(path)
            }
        }
    }

    /// Recreates a file tree with hard links (directories are created, files linked or copied).
    func linkTree(_ source: String, to target: String) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: source, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            try? fm.createDirectory(atPath: target, withIntermediateDirectories: true)
            for entry in (try? fm.contentsOfDirectory(atPath: source)) ?? [] {
                linkTree(source + "/" + entry, to: target + "/" + entry)
            }
        } else if Glibc.link(source, target) != 0 {
            try? fm.copyItem(atPath: source, toPath: target)
        }
    }
}

extension OutputWriter {
    /// Where the site before the current one is kept, beside `output`.
    static func sparePath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).plein-spare"
    }
}
