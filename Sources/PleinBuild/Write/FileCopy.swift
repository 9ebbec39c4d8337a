import Foundation
internal import CPleinSystem
import PleinCore

/// Copies an open file into a new one, whole or not at all. A copy never shares storage with
/// its source (a reflink shares blocks only until either file is written).
enum FileCopy {
    /// Copies what `fd` holds (from its start) to a new file at `target`, written under a
    /// temporary name and renamed into place; returns why it failed, or nil. The copy gets the
    /// source's modification time, so a later build can tell it is still a copy of that file.
    static func copy(from fd: Int32, to target: String) -> String? {
        let temporary = target + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let out = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard out >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        var info = stat()
        if plein_copy_file(fd, out) != 0 || fstat(fd, &info) != 0 {
            failure = String(cString: strerror(errno))
        } else {
            var times = [info.st_atim, info.st_mtim]
            _ = futimens(out, &times)
        }
        close(out)
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Whether `path` is a regular file that `copy` made from the file `source` describes: the
    /// same size and modification time (neither plein nor a person writing into the copy keeps
    /// both).
    static func isCopy(_ path: String, of source: stat) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == source.st_size
            && info.st_mtim.tv_sec == source.st_mtim.tv_sec && info.st_mtim.tv_nsec == source.st_mtim.tv_nsec
            && (info.st_ino != source.st_ino || info.st_dev != source.st_dev)
    }

    /// Copies what `fd` holds to a new file at `target`, hashing the bytes on the way.
    static func copy(from fd: Int32, to target: String, hashing hasher: UnsafeMutablePointer<Hashing.Stream>) -> String? {
        let temporary = target + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let out = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard out >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        copying: while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { failure = String(cString: strerror(errno)); break }
            if n == 0 { break }
            offset += off_t(n)
            buffer.withUnsafeBytes { hasher.pointee.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            var written = 0
            while written < n {
                let m = buffer.withUnsafeBytes { write(out, $0.baseAddress! + written, n - written) }
                if m < 0, errno == EINTR { continue }
                if m < 0 { failure = String(cString: strerror(errno)); break copying }
                written += m
            }
        }
        close(out)
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }
}
