public import Synchronization

/// `Mutex.locked`, as plein calls it: the same lock, also told to ThreadSanitizer when plein is
/// built with it (`scripts/sanitize thread`, which defines THREAD_SANITIZER). The Mutex of Swift's
/// Synchronization locks through atomics and futexes inside the standard library, which
/// ThreadSanitizer does not see: without this, every access a lock protects is reported as a race.
/// (All locks share one token: a race between the holders of two different locks is then not
/// seen, but none is reported that is not one.) A `withLock` called directly is unseen again:
/// `scripts/sanitize thread` reports what it protects as races.
extension Mutex where Value: ~Copyable {
    @inlinable
    public borrowing func locked<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try withLock { (value: inout sending Value) throws(E) -> sending Result in
            sanitizerAcquire()
            defer { sanitizerRelease() }
            return try body(&value)
        }
    }
}

#if THREAD_SANITIZER
/// (An address of its own, never read or written: only named to ThreadSanitizer.)
nonisolated(unsafe) let sanitizerToken = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
@_silgen_name("__tsan_acquire") func tsanAcquire(_ address: UnsafeMutableRawPointer)
@_silgen_name("__tsan_release") func tsanRelease(_ address: UnsafeMutableRawPointer)
@usableFromInline func sanitizerAcquire() { tsanAcquire(sanitizerToken) }
@usableFromInline func sanitizerRelease() { tsanRelease(sanitizerToken) }
#else
@inlinable @inline(__always) func sanitizerAcquire() {}
@inlinable @inline(__always) func sanitizerRelease() {}
#endif
