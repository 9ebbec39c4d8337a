import Dispatch
public import PleinBuild
import PleinCore

/// `plein serve` from start to stop: listen (so a port in use is said before any work), build,
/// serve, and rebuild what each batch of edits touched.
public enum ServeSession {
    public struct Settings: Sendable {
        public var options: BuildOptions
        public var host: String
        public var port: UInt16
        public var allowedHosts: [String]

        public init(options: BuildOptions, host: String, port: UInt16, allowedHosts: [String]) {
            self.options = options
            self.host = host
            self.port = port
            self.allowedHosts = allowedHosts
        }
    }

    /// What the session tells the person running it.
    public enum Event: Sendable {
        case listening(url: String)
        case built(SiteState, seconds: Double)
        case rebuilt(SiteState, SiteState.Update, files: [String], lostEvents: Bool, seconds: Double)
        case log(String)
    }

    /// Serves until cancelled. Throws `ListenError` when it cannot listen, before building.
    public static func run(_ settings: Settings, report: @escaping @Sendable (Event) -> Void) async throws {
        let server = DevServer(host: settings.host, port: settings.port, snapshot: .firstBuild, allowedHosts: settings.allowedHosts,
                               limits: .serving(), log: { report(.log($0)) })
        let serving = Task { try await server.run() }
        defer { serving.cancel() }
        try await server.waitUntilListening()
        let port = await server.port() ?? settings.port
        var options = settings.options
        let shown = ["0.0.0.0", "::", "[::]"].contains(settings.host) ? "localhost"
            : settings.host.contains(":") && !settings.host.hasPrefix("[") ? "[\(settings.host)]" : settings.host
        options.baseURL = options.baseURL ?? "http://\(shown):\(port)/"
        options.pageFooterInjection = Preview.reloadScript

        let watcher = try Watcher(roots: ["content": options.content, "templates": options.templates])
        let started = DispatchTime.now()
        let buildOptions = options
        var state = await offThePool { SiteState(buildOptions, tracking: true, sharingRecords: buildOptions.remember) }
        report(.built(state, seconds: seconds(since: started)))
        var served = snapshot(state)
        await server.publish(served)
        report(.listening(url: options.baseURL!))

        for await batch in watcher.batches() {
            let start = DispatchTime.now()
            let (next, update) = await offThePool { [state] in
                var next = state
                let update = batch.overflowed
                    ? next.rescan()
                    : next.update(content: batch["content"] ?? [], templates: batch["templates"] ?? [])
                return (next, update)
            }
            state = next
            let files = (batch["content"] ?? []).map { options.content + "/" + $0 } + (batch["templates"] ?? []).map { options.templates + "/" + $0 }
            let snapshot = snapshot(state)
            // A save that changed nothing (a `touch`, the same bytes) reloads no page.
            let changed = !update.changed.isEmpty || !update.removed.isEmpty || snapshot.problems != served.problems
            await server.publish(snapshot, reload: changed)
            served = snapshot
            report(.rebuilt(state, update, files: files.sorted(), lostEvents: batch.overflowed, seconds: seconds(since: start)))
        }
    }

    static func snapshot(_ state: SiteState) -> SiteSnapshot {
        SiteSnapshot(files: state.files, problems: state.diagnostics.hasErrors ? Preview.problemsPage(state.diagnostics, sources: state.sources) : nil)
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Runs a build on a thread of its own: the server's request handlers share Swift's small
    /// cooperative pool, which a build must not occupy.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
