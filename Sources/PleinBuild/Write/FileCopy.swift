import Foundation
import PleinCore

/// Copies an open file into a new one, whole or not at all.
enum FileCopy {
    /// Copies what `fd` holds (from its start) to a new file at `target`, written under a
    /// temporary name and renamed into place; returns why it failed, or nil.
    static func copy(from fd: Int32, to target: String, hashing hasher: UnsafeMutablePointer<Hashing.Stream>? = nil) -> String? {
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
            buffer.withUnsafeBytes { hasher?.pointee.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
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
