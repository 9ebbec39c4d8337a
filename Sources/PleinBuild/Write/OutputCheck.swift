internal import CPleinSystem
import Foundation

/// Whether the output folder is still as plein left it. The output and plein's spare copy of the
/// site before it share the files that did not change (hard links, `OutputWriter`), and the build
/// store vouches for both without reading them: a file written into by hand (an editor saves in
/// place; `>>` appends) would otherwise stay in the output, and in the spare the next builds start
/// from, even through builds that say nothing changed. So each build that changes the output
/// records when it finished (`BuildStore.stampOutput`), and the next one looks, on another core
/// while the content is scanned, for a file or folder of the output changed after that (by its
/// inode's change time, which every write, new link, removal or change of mode moves): one is
/// enough for that build to trust nothing and make the whole site again.
enum OutputCheck {
    /// Now, as the store keeps it: nanoseconds since 1970.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The first path of `output` (relative, hidden top-level entries aside: `.git`, a host's dot
    /// files) changed after `time`; nil when none was, or the folder cannot be read (then the
    /// store's other checks decide).
    static func firstChanged(in output: String, since time: Int64) -> String? {
        var found = [CChar](repeating: 0, count: 4096)
        let result = plein_first_changed_since(output, time / 1_000_000_000, Int(time % 1_000_000_000), &found, found.count)
        guard result == 1 else { return nil }
        return String(decoding: found.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
