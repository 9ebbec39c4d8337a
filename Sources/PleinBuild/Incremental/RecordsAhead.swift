import Foundation
import GRDB
import PleinCore
import PleinLoad
import Synchronization

/// The records a build read, written into the store while the build checks the content (which
/// runs on one core) rather than in the save after the swap, which the user waits for.
///
/// Only for a build the store holds no snapshot of (`StoreSession.prepare` emptied the store):
/// the store describes no build until the save writes its `meta`, so a build killed half-way
/// leaves a store the next build does not trust, as before; and the records are the store's
/// one table that outlives a build it does not trust (each vouched for by the hash of its
/// file). Written anywhere later, while the outputs render on both cores or are collected, the
/// model's pieces and the bodies only took longer (measured at 10,000 reports).
final class RecordsAhead: Sendable {
    private let store: BuildStore
    private let timings: Bool
    private let write = Mutex<Background<Bool>?>(nil)

    init(store: BuildStore, timings: Bool) {
        (self.store, self.timings) = (store, timings)
    }

    /// Writes the records `loaded` read anew, and drops those of `gone` (`BuildStore.putRecords`).
    func records(_ loaded: ContentState, gone: [String]) {
        write.locked { write in
            write = Background { [store, timings] in
                var timer = PhaseTimer(enabled: timings)
                let written = (try? store.queue.write { db in try BuildStore.putRecords(db, from: loaded, gone: gone) }) != nil
                timer.lap("store: records written while checking\(written ? "" : " (failed: the save writes them)")")
                return written
            }
        }
    }

    /// Whether the records are written (waiting for the write begun).
    var written: Bool { write.locked { $0 }?.value ?? false }
}
