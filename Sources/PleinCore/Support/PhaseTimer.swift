import Dispatch
import Foundation

/// Phase timings on standard error when `PLEIN_TIMINGS` is set: for finding where time goes.
public struct PhaseTimer: Sendable {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = PhaseTimer.cpuNanoseconds()
    private let enabled = getenv("PLEIN_TIMINGS") != nil

    public init() {}

    /// Prints the wall and CPU time (both cores) since the last lap.
    public mutating func lap(_ label: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.cpuNanoseconds()
        let ms = Double(now - last) / 1e6
        let cpuMs = Double(cpu - lastCPU) / 1e6
        last = now
        lastCPU = cpu
        FileHandle.standardError.write(Data("  \(label): \(Int(ms)) ms (CPU \(Int(cpuMs)) ms)\n".utf8))
    }

    /// User and system time of the whole process so far.
    static func cpuNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1000
        let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1000
        return user + system
    }
}
