import Foundation
import Synchronization

/// Watches folders with inotify (one watch per directory, added as folders appear) and reports
/// changed paths in batches: a burst of events becomes one batch once things are quiet.
public final class Watcher: Sendable {
    /// Changed paths per watched root, relative to that root.
    public typealias Batch = [String: Set<String>]

    private let fd: Int32
    private let roots: [String: String]
    private let watches = Mutex<[Int32: (root: String, relative: String)]>([:])
    private let pending = Mutex<(batch: Batch, last: UInt64, first: UInt64)>(([:], 0, 0))
    private let running = Mutex(true)
    let quiet: UInt64
    let longest: UInt64

    /// - Parameters:
    ///   - roots: a name for each folder (`content`, `templates`) and its path.
    ///   - quiet: how long no event must arrive before a batch is delivered.
    public init(roots: [String: String], quiet: Duration = .milliseconds(80), longest: Duration = .milliseconds(600)) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(reason: String(cString: strerror(errno))) }
        self.roots = roots
        self.quiet = UInt64(quiet.components.seconds) * 1_000_000_000 + UInt64(quiet.components.attoseconds / 1_000_000_000)
        self.longest = UInt64(longest.components.seconds) * 1_000_000_000 + UInt64(longest.components.attoseconds / 1_000_000_000)
        for (name, path) in roots.sorted(by: { $0.key < $1.key }) { addTree(root: name, base: path, relative: "") }
    }

    public struct WatchError: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "cannot watch files: \(reason)" }
    }

    deinit { close(fd) }

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF)

    /// Editors' scratch files and hidden files are not content.
    static func ignored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx")
            || name.hasSuffix(".tmp") || name == "4913" || name.contains(".dat.nosync") || name.hasSuffix(".crswap")
    }

    /// Watches a folder and every folder below it; returns the files found (for a new folder,
    /// whose files may have been written before its watch existed).
    @discardableResult
    private func addTree(root: String, base: String, relative: String) -> [String] {
        let path = relative.isEmpty ? base : base + "/" + relative
        let wd = inotify_add_watch(fd, path, Self.mask)
        if wd >= 0 { watches.withLock { $0[wd] = (root, relative) } }
        var found: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() where !Self.ignored(name) {
            let child = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + child, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += addTree(root: root, base: base, relative: child)
            } else {
                found.append(child)
            }
        }
        return found
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Reads what inotify has; call often. Returns a batch when one is complete.
    public func poll() -> Batch? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
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
        return pending.withLock { state -> Batch? in
            guard !state.batch.isEmpty else { return nil }
            let now = Self.now
            guard now - state.last >= quiet || now - state.first >= longest else { return nil }
            let batch = state.batch
            state = ([:], 0, 0)
            return batch
        }
    }

    private func handle(wd: Int32, mask: UInt32, name: String) {
        guard let (root, directory) = watches.withLock({ $0[wd] }) else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            watches.withLock { _ = $0.removeValue(forKey: wd) }
            return
        }
        guard !name.isEmpty, !Self.ignored(name) else { return }
        let relative = directory.isEmpty ? name : directory + "/" + name
        var changed = [relative]
        if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let base = roots[root] {
            changed += addTree(root: root, base: base, relative: relative)
        }
        pending.withLock { state in
            let now = Self.now
            if state.batch.isEmpty { state.first = now }
            state.last = now
            state.batch[root, default: []].formUnion(changed)
        }
    }

    /// Batches as they come, until `stop()`.
    public func batches(every interval: Duration = .milliseconds(20)) -> AsyncStream<Batch> {
        AsyncStream { continuation in
            let task = Task { [self] in
                while running.withLock({ $0 }), !Task.isCancelled {
                    if let batch = poll() { continuation.yield(batch) }
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func stop() { running.withLock { $0 = false } }
}
