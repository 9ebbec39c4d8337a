import ArgumentParser
import Foundation
import PleinBuild
import PleinCore

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks the content, then renders the site into the output folder.",
        discussion: "A build with content errors leaves the previous output untouched."
    )

    @OptionGroup var site: SiteOptions

    func run() throws {
        var options = try site.buildOptions()
        let bar = ProgressBar(label: "images")
        if bar.enabled { options.progress = { done, total in bar.update(done, total) } }
        let report = Pipeline.build(options)
        bar.finish()
        let formatter = DiagnosticFormatter(sources: report.sources, color: Terminal.colorErrors)
        if !report.diagnostics.isEmpty {
            Terminal.error(report.diagnostics.map(formatter.text).joined(separator: "\n\n") + "\n")
        }
        if let failure = report.failure {
            Terminal.error("error: cannot write the site: \(failure)")
            throw ExitCode(1)
        }
        guard report.succeeded else {
            Terminal.error(formatter.summary(report.diagnostics) + "; '\(site.output)' was left as it was")
            throw ExitCode(1)
        }
        let seconds = String(format: "%.2f", report.seconds)
        var summary = "built \(report.pages) pages, \(report.files) files and \(report.images) images "
            + "(\(report.imagesMade) thumbnails made, \(report.imagesReused) reused) in \(seconds) s → \(site.output)/"
        if report.diagnostics.warningCount > 0 {
            summary += " (\(report.diagnostics.warningCount) warning\(report.diagnostics.warningCount == 1 ? "" : "s"))"
        }
        for note in report.notes { Terminal.error("note: " + note) }
        print(summary)
    }
}
