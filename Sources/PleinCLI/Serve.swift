import ArgumentParser
import Foundation
import PleinBuild
import PleinCore
import PleinServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Builds the site, serves it on localhost, and rebuilds what changes as you edit.",
        discussion: """
            Open pages reload by themselves; a broken file shows its errors in the browser until it is fixed. \
            Only requests naming localhost, 127.0.0.1, [::1] or --host are answered (so that no other web page \
            can read the site through your browser); add other names with --allow-host.
            """
    )

    @OptionGroup var site: SiteOptions

    @Option(help: "The port to listen on.")
    var port: UInt16 = 1313

    @Option(help: "The address to listen on (loopback unless you say otherwise).")
    var host = "127.0.0.1"

    @Option(name: .customLong("allow-host"), help: "Also answer requests that name this host (repeatable), e.g. a name in /etc/hosts.")
    var allowHost: [String] = []

    func run() async throws {
        var options = try site.buildOptions()
        let bar = ProgressBar(label: "images")
        if bar.enabled { options.progress = { done, total in bar.update(done, total) } }
        let settings = ServeSession.Settings(options: options, host: host, port: port, allowedHosts: allowHost)
        do {
            try await ServeSession.run(settings) { event in
                switch event {
                case .listening(let url):
                    print("serving \(url) (press Ctrl-C to stop)")
                case .built(let state, let seconds):
                    bar.finish()
                    report(state, seconds: seconds, initial: true)
                case .rebuilt(let state, let update, let files, let lost, let seconds):
                    if lost {
                        print("some file events were lost (too many at once): looked at every file again")
                    } else {
                        print("changed: " + files.prefix(5).joined(separator: ", ") + (files.count > 5 ? " …" : ""))
                    }
                    report(state, seconds: seconds, initial: false, update: update)
                case .log(let line):
                    Terminal.error("plein serve: " + line)
                }
            }
        } catch let error as ListenError {
            throw UsageError(message: error.description)
        } catch let error as Watcher.WatchError {
            throw UsageError(message: error.description)
        }
    }

    func report(_ state: SiteState, seconds: Double, initial: Bool, update: SiteState.Update? = nil) {
        let formatter = DiagnosticFormatter(sources: state.sources, color: Terminal.colorErrors)
        if !state.diagnostics.isEmpty {
            Terminal.error(state.diagnostics.map(formatter.text).joined(separator: "\n\n") + "\n")
        }
        for note in state.notes where initial { Terminal.error("note: " + note) }
        let time = String(format: seconds < 1 ? "%.0f ms" : "%.2f s", seconds < 1 ? seconds * 1000 : seconds)
        if !state.succeeded {
            // The browser shows the same: every page is the list of problems until they are fixed
            // (feeds, maps and other files stay the last good build's).
            Terminal.error(formatter.summary(state.diagnostics) + "; every page shows them until they are fixed")
        } else if let update {
            print("rebuilt \(update.rendered) output\(update.rendered == 1 ? "" : "s") (\(update.changed.count) changed, \(update.removed.count) removed) in \(time)")
        } else {
            print("built \(state.pageCount) pages and \(state.imageCount) images in \(time)")
        }
    }
}
