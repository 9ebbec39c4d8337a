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

/// Maps `items` with at most `maxConcurrent` at once, each taking the next item when it is
/// free (for long jobs of uneven length, such as ffmpeg runs), keeping the order of the input.
public func parallelMap<T: Sendable, R: Sendable>(_ items: [T], maxConcurrent: Int, _ transform: @Sendable (T) -> R) -> [R] {
    let workers = min(max(1, maxConcurrent), items.count)
    if workers < 2 { return items.map(transform) }
    let results = Mutex<[R?]>(Array(repeating: nil, count: items.count))
    let next = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let i = next.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            guard i < items.count else { return }
            let value = transform(items[i])
            results.withLock { $0[i] = value }
        }
    }
    return results.withLock { all in all.map { $0! } }
}
