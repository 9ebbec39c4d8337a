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

    @Option(name: .customLong("changed"), help: ArgumentHelp(
        "Write the output paths this build added, changed or removed to this file: one per line, A, M or D, a tab, the path.",
        valueName: "file"))
    var changedList: String?

    @Flag(name: .customLong("fresh"), help: "Render everything, ignoring what the last build kept in the cache.")
    var fresh = false

    func run() throws {
        var options = try site.buildOptions()
        options.fresh = fresh
        options.listsChanges = changedList != nil
        options.leavesMemoryToExit = true
        let bar = ProgressBar(label: "images")
        if bar.enabled { options.progress = { done, total in bar.update(done, total) } }
        let videoBar = ProgressBar(label: "videos")
        if videoBar.enabled { options.videoProgress = { done, total in videoBar.update(done, total) } }
        let report = Pipeline.build(options)
        videoBar.finish()
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
            // (A build that read only the edited files: the others' problems are as the last build found them.)
            let others = report.recordByRecord && report.warnings > 0 ? " (the other files as the last build found them: plein check shows every problem)" : ""
            Terminal.error(formatter.summary(report.diagnostics) + others + "; '\(site.output)' was left as it was")
            throw ExitCode(1)
        }
        let seconds = String(format: "%.2f", report.seconds)
        if let changedList {
            let listing = report.changes?.listing ?? ""
            do {
                try Data(listing.utf8).write(to: URL(fileURLWithPath: changedList), options: .atomic)
            } catch {
                Terminal.error("error: cannot write the list of changed files to \(changedList): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        if report.unchanged {
            var line = "nothing changed since the last build: \(site.output)/ is as it was (\(report.pages) pages, \(report.files) files"
            line += report.warnings > 0 ? "; \(report.warnings) warning\(report.warnings == 1 ? "" : "s"), which plein check shows)" : ")"
            print(line)
            return
        }
        if let reason = report.fullBuildReason { Terminal.error("note: a full build: " + reason) }
        var summary = "built \(report.pages) pages, \(report.files) files and \(report.images) images "
            + "(\(report.imagesMade) thumbnails made, \(report.imagesReused) reused)"
        if report.videos > 0 { summary += ", \(report.videos) video\(report.videos == 1 ? "" : "s") (\(report.videosMade) made)" }
        summary += " in \(seconds) s → \(site.output)/"
        if let rendered = report.rendered, rendered < report.files { summary += " (\(rendered) rendered again)" }
        if report.recordByRecord, report.warnings > 0 {
            // A build that redid only edited records: it showed their problems; the others' are as they were.
            summary += " (\(report.warnings) warning\(report.warnings == 1 ? "" : "s"), which plein check shows)"
        } else if report.diagnostics.warningCount > 0 {
            summary += " (\(report.diagnostics.warningCount) warning\(report.diagnostics.warningCount == 1 ? "" : "s"))"
        } else if report.warnings > 0 {
            // A build that found nothing to do: the problems are as they were.
            summary += " (\(report.warnings) warning\(report.warnings == 1 ? "" : "s"), which plein check shows)"
        }
        for note in report.notes { Terminal.error("note: " + note) }
        print(summary)
    }
}
