import Dispatch
import Synchronization

/// Maps `items` on all cores, keeping the order of the input.
public func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    if items.count < 2 { return items.map(transform) }
    let results = Mutex<[R?]>(Array(repeating: nil, count: items.count))
    let chunkSize = max(1, items.count / 64)
    let chunks = (items.count + chunkSize - 1) / chunkSize
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        let range = (chunk * chunkSize)..<min(items.count, (chunk + 1) * chunkSize)
        var local: [R] = []
        local.reserveCapacity(range.count)
        for i in range { local.append(transform(items[i])) }
        results.withLock { all in
            for (offset, value) in local.enumerated() { all[range.lowerBound + offset] = value }
        }
    }
    return results.withLock { all in all.map { $0! } }
}
