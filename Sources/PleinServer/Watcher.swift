import Foundation
import Glibc
import PleinCore
import Synchronization

/// Watches folders with inotify (one watch per directory, added as folders appear) and reports
/// changed paths in batches: a burst of events becomes one batch once things are quiet. A save
/// (every file written closed, or renamed into place, and no folder made or anything removed) is
/// delivered as soon as it has settled (`settle`), not after the whole quiet period: that would
/// be most of the time a served edit takes.
///
/// When the kernel's event queue overflows (a `git checkout` of a big branch, a tool writing
/// thousands of files), events are lost: the batch then says so (`overflowed`), every folder is
/// watched again, and the receiver must look at everything (by content, so that only what
/// really changed is rebuilt).
public final class Watcher: Sendable {
    /// Changed paths per watched root, relative to that root.
    public struct Batch: Sendable, Equatable, ExpressibleByDictionaryLiteral {
        public var changes: [String: Set<String>]
        /// Events were lost: any file under any root may have changed.
        public var overflowed: Bool

        public init(changes: [String: Set<String>] = [:], overflowed: Bool = false) {
            self.changes = changes
            self.overflowed = overflowed
        }

        public init(dictionaryLiteral elements: (String, Set<String>)...) {
            self.init(changes: Dictionary(elements, uniquingKeysWith: { a, b in a.union(b) }))
        }

        public subscript(root: String) -> Set<String>? { changes[root] }
        var isEmpty: Bool { changes.isEmpty && !overflowed }
    }

    private let fd: Int32
    private let roots: [String: String]
    private let watches = Mutex<[Int32: (root: String, relative: String)]>([:])
    private let pending = Mutex(Pending())
    /// The batch being gathered, with when its first and last events came, the files written but
    /// not yet closed, and whether it is a save of files only (see `settle`).
    private struct Pending {
        var batch = Batch(changes: [:])
        var first: UInt64 = 0
        var last: UInt64 = 0
        var open: Set<String> = []
        var saved = true

        /// When the batch is complete: `settle` after a save's last event, else `quiet` after
        /// the last event, and never later than `longest` after the first.
        func due(settle: UInt64, quiet: UInt64, longest: UInt64) -> UInt64 {
            min(last + (saved && open.isEmpty ? settle : quiet), first + longest)
        }
    }
    private let running = Mutex(true)
    let quiet: UInt64
    let longest: UInt64
    let settle: UInt64

    /// - Parameters:
    ///   - roots: a name for each folder (`content`, `templates`) and its path.
    ///   - quiet: how long no event must arrive before a batch is delivered.
    ///   - settle: the same for a batch of files saved and closed.
    public init(roots: [String: String], quiet: Duration = .milliseconds(80), settle: Duration = .milliseconds(3),
                longest: Duration = .milliseconds(600)) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(reason: String(cString: strerror(errno))) }
        self.roots = roots
        self.quiet = Self.nanoseconds(quiet)
        self.longest = Self.nanoseconds(longest)
        self.settle = Self.nanoseconds(settle)
        watchAll()
    }

    public struct WatchError: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "cannot watch files: \(reason)" }
    }

    deinit { close(fd) }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
    }

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF)

    /// Editors' scratch files and hidden files are not content.
    static func ignored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx")
            || name.hasSuffix(".tmp") || name == "4913" || name.contains(".dat.nosync") || name.hasSuffix(".crswap")
    }

    /// Watches every folder of every root (again: a folder already watched keeps its watch).
    private func watchAll() {
        for (name, path) in roots.sorted(by: { $0.key < $1.key }) { addTree(root: name, base: path, relative: "") }
    }

    /// Watches a folder and every folder below it; returns the files found (for a new folder,
    /// whose files may have been written before its watch existed).
    @discardableResult
    private func addTree(root: String, base: String, relative: String) -> [String] {
        let path = relative.isEmpty ? base : base + "/" + relative
        let wd = inotify_add_watch(fd, path, Self.mask)
        if wd >= 0 { watches.locked { $0[wd] = (root, relative) } }
        var found: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() where !Self.ignored(name) {
            let child = relative.isEmpty ? name : relative + "/" + name
            // A link is not followed: plein never follows one to a folder, and a link to its own
            // folder would make this walk endless.
            if ContentFS.isFolder(base + "/" + child) {
                found += addTree(root: root, base: base, relative: child)
            } else {
                found.append(child)
            }
        }
        return found
    }

    /// Stops watching a folder that left the root (moved away): its events no longer name
    /// content. A folder moved within the root is watched again under its new name.
    private func removeTree(root: String, relative: String) {
        let gone = watches.locked { table in
            table.filter { $0.value.root == root && ($0.value.relative == relative || $0.value.relative.hasPrefix(relative + "/")) }.map(\.key)
        }
        for wd in gone {
            inotify_rm_watch(fd, wd)
            watches.locked { _ = $0.removeValue(forKey: wd) }
        }
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Reads what inotify has; call often. Returns a batch when one is complete.
    public func poll() -> Batch? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64 * 1024) { readEvents(into: $0) }
        return pending.locked { state -> Batch? in
            guard !state.batch.isEmpty, Self.now >= state.due(settle: settle, quiet: quiet, longest: longest) else { return nil }
            let batch = state.batch
            state = Pending()
            return batch
        }
    }

    private func readEvents(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n <= 0 { break }
            var offset = 0
            while offset + 16 <= n {
                let wd = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset, as: Int32.self) }
                let mask = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                // The name follows the 16-byte header (inotify_event's name[] is not imported).
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += 16 + length
                handle(wd: wd, mask: mask, name: name)
            }
        }
    }

    private func note(_ change: (inout Pending) -> Void) {
        pending.locked { state in
            let now = Self.now
            if state.batch.isEmpty { state.first = now }
            state.last = now
            change(&state)
        }
    }

    private func handle(wd: Int32, mask: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Lost events may include new folders: watch everything again, then look at all.
            watchAll()
            note {
                $0.batch.overflowed = true
                $0.saved = false
            }
            return
        }
        guard let (root, directory) = watches.locked({ $0[wd] }) else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            watches.locked { _ = $0.removeValue(forKey: wd) }
            return
        }
        guard !name.isEmpty, !Self.ignored(name) else { return }
        let relative = directory.isEmpty ? name : directory + "/" + name
        var changed = [relative]
        if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_MOVED_FROM) != 0 {
            removeTree(root: root, relative: relative)
        }
        if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let base = roots[root] {
            changed += addTree(root: root, base: base, relative: relative)
        }
        let key = root + "/" + relative
        let isFolder = mask & UInt32(IN_ISDIR) != 0
        note { state in
            state.batch.changes[root, default: []].formUnion(changed)
            if isFolder || mask & UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF) != 0 {
                state.saved = false
            } else if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                state.open.remove(key)
            } else if mask & UInt32(IN_CREATE | IN_MODIFY) != 0 {
                state.open.insert(key)
            }
        }
    }

    /// Batches as they come, until `stop()`. A thread of its own waits on inotify: it wakes
    /// when events arrive, and when the batch they make is due (`wait`), not on a fixed tick.
    public func batches() -> AsyncStream<Batch> {
        AsyncStream { continuation in
            let thread = Thread { [self] in
                while running.locked({ $0 }) {
                    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = Glibc.poll(&descriptor, 1, wait())
                    if let batch = poll() { continuation.yield(batch) }
                }
                continuation.finish()
            }
            thread.name = "plein watcher"
            continuation.onTermination = { [self] _ in stop() }
            thread.start()
        }
    }

    /// Milliseconds until the batch being gathered is due (see `poll`); with none, how often
    /// `stop()` is looked for.
    private func wait() -> Int32 {
        pending.locked { state in
            guard !state.batch.isEmpty else { return 50 }
            let due = state.due(settle: settle, quiet: quiet, longest: longest)
            let now = Self.now
            return due <= now ? 0 : Int32((due - now + 999_999) / 1_000_000)
        }
    }

    public func stop() { running.locked { $0 = false } }
}
