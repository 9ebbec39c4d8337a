import Foundation
import HummingbirdCore

/// Keeps the number of open connections below what the process's descriptor limit allows, so a
/// flood of idle connections cannot starve the listener (or the rebuilds, which open files
/// too). Connections over the cap wait in the listen queue until one closes; SwiftNIO backs off
/// and keeps accepting if the limit is reached anyway.
struct ConnectionCap: AvailableConnectionsDelegate {
    /// Descriptors kept for everything else: the watcher, rebuilds, images, the event loops.
    static let reserve = 64
    let limit: Int
    let descriptors: Int
    let log: @Sendable (String) -> Void
    private var open = 0
    private var full = false

    init(log: @escaping @Sendable (String) -> Void) {
        descriptors = Self.raiseDescriptorLimit()
        limit = max(8, min(1024, descriptors - Self.reserve))
        self.log = log
    }

    /// Raises the soft limit on open files to the hard one (as Go and many servers do) and
    /// returns it.
    static func raiseDescriptorLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = min(limits.rlim_max, 65536)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return Int(clamping: limits.rlim_cur)
    }

    mutating func connectionOpened() {
        open += 1
        if open >= limit, !full {
            full = true
            log("\(open) connections are open, as many as this process can hold (it may open \(descriptors) files); "
                + "new ones wait until others close")
        }
    }

    mutating func connectionClosed() {
        open -= 1
        if full, open <= limit / 2 {
            full = false
            log("\(open) connections open: accepting new ones again")
        }
    }

    func isAcceptingNewConnections() -> Bool { open < limit }
}
