import Foundation
import PleinCore
import PleinLoad

/// `plein serve`'s share of the build store: it starts from the records that earlier builds
/// kept (parsing only the files whose bytes changed since), and writes back the records it
/// reads, so that the next `plein build` or `plein serve` does not parse those files again.
///
/// It touches only the records, which stand for a file's bytes whatever else changed; a store
/// that cannot be opened or written to costs speed, never correctness.
struct RecordKeeper: Sendable {
    private let store: BuildStore?
    /// Records of files whose bytes are those they were read from.
    let known: KnownRecords?
    /// Writes go through one queue, after the update that read them: never in an edit's way.
    private let queue = DispatchQueue(label: "plein record keeper")

    init(_ options: BuildOptions) {
        let opened = try? BuildStore.open(cacheRoot: options.cacheRoot).store
        store = opened
        known = opened.flatMap { store in
            // The last build's scan vouches for files whose size, time and inode are the same.
            let seen = (try? store.readHead().snapshot?.scan) ?? nil
            let scan = ContentScan(root: options.content, previous: seen)
            return try? store.readRecords(matching: scan.files).known
        }
    }

    /// Keeps the records that the last load of `content` read.
    func keep(_ content: ContentState) {
        guard let store else { return }
        guard !content.newRecordPaths.isEmpty else { return }
        queue.async { try? store.saveRecords(from: content, gone: []) }
    }

    /// Waits for the writes under way (for tests, and before the process ends).
    func finish() {
        queue.sync {}
    }
}
