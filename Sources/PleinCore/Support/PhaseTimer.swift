import Dispatch
import Foundation

/// Phase timings on standard error, when enabled (`PLEIN_TIMINGS`, which the command line reads
/// into `BuildOptions.timings`): for finding where time goes.
public struct PhaseTimer: Sendable {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = PhaseTimer.cpuNanoseconds()
    private let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Prints the wall and CPU time (both cores) since the last lap, and the memory in use.
    public mutating func lap(_ label: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.cpuNanoseconds()
        let ms = Double(now - last) / 1e6
        let cpuMs = Double(cpu - lastCPU) / 1e6
        last = now
        lastCPU = cpu
        FileHandle.standardError.write(Data("  \(label): \(Int(ms)) ms (CPU \(Int(cpuMs)) ms, resident \(Self.residentMiB()) MiB)\n".utf8))
    }

    /// The process's resident memory now, from `/proc/self/statm`.
    static func residentMiB() -> Int {
        // A /proc file says it is empty: read it, do not ask its size.
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
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
