import Foundation
import PleinCore
import Synchronization

/// A one-line progress bar with counts and the time left, drawn on standard error when it is a
/// terminal; silent otherwise (in CI logs and pipes).
final class ProgressBar: Sendable {
    let label: String
    let enabled: Bool
    private let state = Mutex<(started: Double, drawn: Double, shown: Bool)>((0, 0, false))

    init(label: String) {
        self.label = label
        enabled = isatty(STDERR_FILENO) == 1 && Terminal.environment["TERM"] != "dumb"
    }

    private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let now = Self.now
        let line: String? = state.locked { s in
            if s.started == 0 { s.started = now }
            // Redraw at most ten times a second, and always at the end.
            guard done == total || now - s.drawn >= 0.1 else { return nil }
            s.drawn = now
            s.shown = true
            let fraction = Double(done) / Double(total)
            let width = 28
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let elapsed = now - s.started
            let left = done > 0 && done < total ? elapsed / Double(done) * Double(total - done) : 0
            let eta = done < total && done > 0 ? String(format: ", about %.0f s left", left.rounded(.up)) : ""
            return "\r\(label) \(bar) \(done)/\(total)\(eta)\u{1B}[K"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    func finish() {
        let shown = state.locked { $0.shown }
        if enabled, shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
