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
        results.locked { all in
            for (offset, value) in local.enumerated() { all[range.lowerBound + offset] = value }
        }
    }
    return results.locked { all in all.map { $0! } }
}

/// Maps `items` on all cores a batch at a time and hands each result to `body`, in order: the
/// results of the whole list are never in memory at once (encodings written as they are made).
public func forEachParallelMapped<T: Sendable, R: Sendable>(_ items: [T], batch: Int = 2048, _ transform: @Sendable (T) -> R,
                                                              _ body: (R) throws -> Void) rethrows {
    var start = 0
    while start < items.count {
        for result in parallelMap(Array(items[start..<min(start + batch, items.count)]), transform) { try body(result) }
        start += batch
    }
}

/// Maps `items` with at most `maxConcurrent` at once, each taking the next item when it is
/// free (for long jobs of uneven length that mostly wait for another process, such as ffmpeg
/// or Pagefind runs), keeping the order of the input. Each worker is a thread of its own, so
/// `maxConcurrent` may exceed the cores: a worker that waits on a pipe leaves its core to others.
public func parallelMap<T: Sendable, R: Sendable>(_ items: [T], maxConcurrent: Int, _ transform: @Sendable (T) -> R) -> [R] {
    let workers = min(max(1, maxConcurrent), items.count)
    if workers < 2 { return items.map(transform) }
    let shared = WorkList<R>(count: items.count)
    withoutActuallyEscaping(transform) { transform in
        let group = DispatchGroup()
        for worker in 0..<workers {
            // A serial queue of its own runs on a thread of its own (an "overcommit" one: the
            // pool does not hold it back to the number of cores).
            DispatchQueue(label: "plein.parallelMap.\(worker)").async(group: group) {
                while let i = shared.take() {
                    shared.put(transform(items[i]), at: i)
                }
            }
        }
        group.wait()
    }
    return shared.results()
}

/// The next item to take and the results so far, shared by the workers of `parallelMap`.
private final class WorkList<R: Sendable>: Sendable {
    private let slots: Mutex<[R?]>
    private let next = Mutex(0)
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func take() -> Int? {
        let i = next.locked { value -> Int in
            defer { value += 1 }
            return value
        }
        return i < count ? i : nil
    }

    func put(_ value: R, at index: Int) { slots.locked { $0[index] = value } }

    func results() -> [R] { slots.locked { all in all.map { $0! } } }
}

/// A value worked out on another thread while this one goes on (the git history while the
/// content loads; what an edit reads besides its files); `value` waits for it.
public final class Background<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let value = work()
            result.locked { $0 = value }
            done.signal()
        }
    }

    /// The value, once worked out.
    public var value: Value {
        done.wait()
        done.signal()
        return result.locked { $0! }
    }
}
