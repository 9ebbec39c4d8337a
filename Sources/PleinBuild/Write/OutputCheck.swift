internal import CPleinSystem
import Foundation

/// Whether the output folder is still as plein left it. The output and plein's spare copy of the
/// site before it share the files that did not change (hard links, `OutputWriter`), and the build
/// store vouches for both without reading them: a file written into by hand (an editor saves in
/// place; `>>` appends) would otherwise stay in the output, and in the spare the next builds start
/// from, even through builds that say nothing changed. So each build that changes the output
/// records when it finished (`BuildStore.stampOutput`), and the next one looks, on another core
/// while the content is scanned, for a file of the output it made (every path the store knows:
/// its outputs and the files it published as they are) that is gone or changed after that (by its
/// inode's change time, which every write, new link or change of mode moves): one is enough for
/// that build to trust nothing and make the whole site again. (At 10,000 reports, 19,000 files:
/// about 10 ms to list them, 30 ms to look; a walk of the folders took 130.)
enum OutputCheck {
    /// Now, as the file system of `output` tells it (nanoseconds since 1970): the change time it
    /// gives plein's spare folder when touched, so that a file server whose clock is not this
    /// machine's compares like with like; this machine's clock when there is no spare.
    static func now(near output: String) -> Int64 {
        let spare = OutputWriter.sparePath(for: output)
        var info = stat()
        if utimensat(AT_FDCWD, spare, nil, 0) == 0, stat(spare, &info) == 0 {
            return Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The first of `paths` (files of `output`, relative; each ended by a NUL byte) that is gone
    /// or changed after `time`; nil when none is, or the folder cannot be opened (then the
    /// store's other checks decide).
    static func firstChanged(in output: String, among paths: [UInt8], count: Int, since time: Int64) -> String? {
        var index = 0
        let result = paths.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                plein_first_changed_among(output, chars.baseAddress, count, time / 1_000_000_000, Int(time % 1_000_000_000), &index)
            }
        }
        guard result == 1 else { return nil }
        return paths.split(separator: 0, maxSplits: index + 1, omittingEmptySubsequences: false)[index].withUnsafeBufferPointer {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
