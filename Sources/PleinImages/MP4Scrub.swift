import Foundation

/// Removes the metadata of an MP4 or QuickTime file in place, without ffmpeg and without moving
/// a byte of the media: for a video published as a download when ffmpeg is not installed.
///
/// Phones keep the place of filming in `moov/udta` (`©xyz`, Android) and `moov/meta` (Apple's
/// `com.apple.quicktime.location.ISO6709`), XMP in `uuid` boxes. Each such box becomes a `free`
/// box of the same size with its bytes zeroed, so no offset in the file changes; the creation
/// and modification times of `mvhd`, `tkhd` and `mdhd` are zeroed too. Memory stays bounded:
/// only box headers are read.
public enum MP4Scrub {
    /// Boxes whose content is metadata.
    static let metadata: Set<String> = ["udta", "meta", "uuid", "XMP_", "cprt", "loci"]
    /// Boxes that hold other boxes, walked into.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "moof", "traf"]
    /// Boxes that carry creation and modification times after their version and flags.
    static let timed: Set<String> = ["mvhd", "tkhd", "mdhd"]

    public struct Failure: Error, Sendable, Equatable {
        public let reason: String
    }

    /// Scrubs `path` (a copy: it is changed in place). Fails on a file that is not ISO media.
    public static func scrub(_ path: String) -> Result<Int, Failure> {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(reason: "cannot read its size")) }
        var scrubbed = 0
        var sawMovie = false
        let walked = walk(fd, from: 0, to: Int64(info.st_size), depth: 0, scrubbed: &scrubbed, sawMovie: &sawMovie)
        if case .failure(let failure) = walked { return .failure(failure) }
        guard sawMovie else { return .failure(Failure(reason: "it has no 'moov' box: not an MP4 or QuickTime file")) }
        return .success(scrubbed)
    }

    private static func walk(_ fd: Int32, from start: Int64, to end: Int64, depth: Int, scrubbed: inout Int, sawMovie: inout Bool) -> Result<Void, Failure> {
        guard depth < 16 else { return .failure(Failure(reason: "its boxes nest too deep")) }
        var at = start
        var boxes = 0
        while at + 8 <= end {
            boxes += 1
            guard boxes < 100_000 else { return .failure(Failure(reason: "it has too many boxes")) }
            guard let header = read(fd, at, 16), header.count >= 8 else { return .failure(Failure(reason: "it ends inside a box header")) }
            var size = Int64(header[0]) << 24 | Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var headerLength: Int64 = 8
            if size == 1 {
                guard header.count >= 16 else { return .failure(Failure(reason: "it ends inside a box header")) }
                size = header[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                headerLength = 16
            } else if size == 0 {
                size = end - at
            }
            guard size >= headerLength, at + size <= end else { return .failure(Failure(reason: "box '\(type)' claims more bytes than it has")) }
            if depth == 0, type == "moov" { sawMovie = true }
            // Types starting with "©" (0xA9) are QuickTime's user data: "©xyz" is a position.
            if metadata.contains(type) || header[4] == 0xA9 {
                guard blank(fd, at: at, size: size, headerLength: headerLength) else { return .failure(Failure(reason: "cannot write")) }
                scrubbed += 1
            } else if containers.contains(type) {
                let inner = walk(fd, from: at + headerLength, to: at + size, depth: depth + 1, scrubbed: &scrubbed, sawMovie: &sawMovie)
                if case .failure = inner { return inner }
            } else if timed.contains(type), let version = read(fd, at + headerLength, 1)?.first {
                let length = version == 1 ? 16 : 8
                guard size >= headerLength + 4 + Int64(length) else { return .failure(Failure(reason: "box '\(type)' is too short")) }
                guard write(fd, at + headerLength + 4, [UInt8](repeating: 0, count: length)) else { return .failure(Failure(reason: "cannot write")) }
            }
            at += size
        }
        return .success(())
    }

    /// Turns a box into a `free` box of the same size, its content zeroed.
    private static func blank(_ fd: Int32, at: Int64, size: Int64, headerLength: Int64) -> Bool {
        guard write(fd, at + 4, Array("free".utf8)) else { return false }
        var offset = at + headerLength
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        while offset < at + size {
            let count = Int(min(Int64(zeros.count), at + size - offset))
            guard write(fd, offset, Array(zeros.prefix(count))) else { return false }
            offset += Int64(count)
        }
        return true
    }

    private static func read(_ fd: Int32, _ offset: Int64, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return n < 0 ? nil : Array(buffer.prefix(n))
    }

    private static func write(_ fd: Int32, _ offset: Int64, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, bytes.count, off_t(offset)) } == bytes.count
    }
}
