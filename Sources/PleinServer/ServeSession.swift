import Dispatch
import Foundation
public import PleinBuild
import PleinCore
import Synchronization

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
                               limits: .serving(environment: settings.options.environment), log: { report(.log($0)) })
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
        let site = Site(await offThePool { SiteState(buildOptions, tracking: true, sharingRecords: buildOptions.remember) })
        // No copy of the site is held from one update to the next (see `Site`).
        var served = site.read(snapshot)
        site.read { report(.built($0, seconds: seconds(since: started))) }
        await server.publish(served)
        report(.listening(url: options.baseURL!))

        // The pages of an edited record are served, and reloaded where open, as soon as they are
        // rendered; the rest of what the edit changed follows.
        let prefix = URLComponents(string: options.baseURL!)?.path ?? "/"
        let first: SiteState.FirstPages = { files, paths in
            server.publishFirst(SiteSnapshot(files: files, problems: nil), reloading: paths.map { urlPath($0, under: prefix) })
        }
        for await batch in watcher.batches() {
            let start = DispatchTime.now()
            // The pages open in browsers are rendered right after the edited records' own.
            let open = Set(await server.openPages.compactMap { outputPath($0, under: prefix) })
            let update = await offThePool {
                site.update {
                    batch.overflowed ? $0.rescan() : $0.update(content: batch["content"] ?? [], templates: batch["templates"] ?? [], first: first,
                                                              open: open)
                }
            }
            let files = (batch["content"] ?? []).map { options.content + "/" + $0 } + (batch["templates"] ?? []).map { options.templates + "/" + $0 }
            let snapshot = site.read(snapshot)
            // A save that changed nothing (a `touch`, the same bytes) reloads no page.
            let changed = !update.changed.isEmpty || !update.removed.isEmpty || snapshot.problems != served.problems
            await server.publish(snapshot, reload: changed, except: update.first.map { urlPath($0, under: prefix) })
            served = snapshot
            site.read { report(.rebuilt($0, update, files: files.sorted(), lostEvents: batch.overflowed, seconds: seconds(since: start))) }
        }
    }

    /// The site being served, updated in place: a copy of it held while it is updated would make
    /// every collection the update changes be copied whole first.
    final class Site: Sendable {
        private let state: Mutex<SiteState?>

        init(_ state: SiteState) {
            self.state = Mutex(state)
        }

        func read<T: Sendable>(_ body: (SiteState) -> T) -> T {
            state.locked { body($0!) }
        }

        func update<T: Sendable>(_ change: (inout SiteState) -> T) -> T {
            state.locked { held in
                var site = held.take()!
                defer { held = site }
                return change(&site)
            }
        }
    }

    static func snapshot(_ state: SiteState) -> SiteSnapshot {
        SiteSnapshot(files: state.files, problems: state.diagnostics.hasErrors ? Preview.problemsPage(state.diagnostics, sources: state.sources) : nil)
    }

    /// The URL path a browser shows for an output path, under the site's path (`/` or `/site/`).
    static func urlPath(_ output: String, under prefix: String) -> String {
        let base = prefix.hasSuffix("/") ? prefix : prefix + "/"
        if output == "index.html" { return base }
        if output.hasSuffix("/index.html") { return base + output.dropLast("index.html".count) }
        return base + output
    }

    /// The output file of a page's URL path (`urlPath`'s inverse, percent-decoded); nil for a
    /// path outside the site.
    static func outputPath(_ urlPath: String, under prefix: String) -> String? {
        let base = prefix.hasSuffix("/") ? prefix : prefix + "/"
        guard let decoded = urlPath.removingPercentEncoding, decoded.hasPrefix(base) else { return nil }
        let path = String(decoded.dropFirst(base.count))
        return path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
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
