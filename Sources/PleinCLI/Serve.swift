import ArgumentParser
import Foundation
import PleinBuild
import PleinCore
import PleinServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Builds the site, serves it on localhost, and rebuilds what changes as you edit.",
        discussion: "Open pages reload by themselves; a broken file shows its errors in the browser until it is fixed."
    )

    @OptionGroup var site: SiteOptions

    @Option(help: "The port to listen on.")
    var port: UInt16 = 1313

    @Option(help: "The address to listen on (loopback unless you say otherwise).")
    var host = "127.0.0.1"

    func run() async throws {
        var options = try site.buildOptions()
        options.baseURL = site.baseURL ?? "http://\(host == "0.0.0.0" ? "localhost" : host):\(port)/"
        options.pageFooterInjection = Preview.reloadScript
        let bar = ProgressBar(label: "images")
        if bar.enabled { options.progress = { done, total in bar.update(done, total) } }
        let started = DispatchTime.now()
        var state = SiteState(options, tracking: true)
        bar.finish()
        report(state, seconds: seconds(since: started), initial: true)

        let server = try await DevServer(host: host, port: port, snapshot: snapshot(state))
        let watcher: Watcher
        do {
            watcher = try Watcher(roots: ["content": site.content, "templates": site.templates])
        } catch {
            throw UsageError(message: "\(error)")
        }
        let serving = Task { try await server.run() }
        try await server.waitUntilListening()
        print("serving \(options.baseURL!) (press Ctrl-C to stop)")
        for await batch in watcher.batches() {
            let start = DispatchTime.now()
            let update = state.update(content: batch["content"] ?? [], templates: batch["templates"] ?? [])
            let files = (batch["content"] ?? []).map { site.content + "/" + $0 } + (batch["templates"] ?? []).map { site.templates + "/" + $0 }
            print("changed: " + files.sorted().prefix(5).joined(separator: ", ") + (files.count > 5 ? " …" : ""))
            await server.publish(snapshot(state))
            report(state, seconds: seconds(since: start), initial: false, update: update)
        }
        serving.cancel()
    }

    func snapshot(_ state: SiteState) -> SiteSnapshot {
        SiteSnapshot(files: state.files, problems: state.diagnostics.hasErrors ? Preview.problemsPage(state.diagnostics, sources: state.sources) : nil)
    }

    func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    func report(_ state: SiteState, seconds: Double, initial: Bool, update: SiteState.Update? = nil) {
        let formatter = DiagnosticFormatter(sources: state.sources, color: Terminal.colorErrors)
        if !state.diagnostics.isEmpty {
            Terminal.error(state.diagnostics.map(formatter.text).joined(separator: "\n\n") + "\n")
        }
        for note in state.notes where initial { Terminal.error("note: " + note) }
        let time = String(format: seconds < 1 ? "%.0f ms" : "%.2f s", seconds < 1 ? seconds * 1000 : seconds)
        if !state.succeeded {
            Terminal.error(formatter.summary(state.diagnostics) + "; still serving the last good build")
        } else if let update {
            print("rebuilt \(update.rendered) output\(update.rendered == 1 ? "" : "s") (\(update.changed.count) changed, \(update.removed.count) removed) in \(time)")
        } else {
            print("built \(state.pageCount) pages and \(state.imageCount) images in \(time)")
        }
    }
}
