import ArgumentParser
import PleinBuild
import PleinCore

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks the content and reports every problem, without building.",
        discussion: "Exit status: 0 when there are no errors, 1 when the content has errors, 2 for usage errors."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var location: ContentLocation

    @Option(help: "The cache of image headers (default: .plein-cache beside the content folder).")
    var cache: String?

    @Option(help: "How to print problems: text or json.")
    var format: Format = .text

    func run() throws {
        let result = Pipeline.check(content: location.folder, cache: cache)
        switch format {
        case .json:
            print(DiagnosticFormatter(sources: result.sources).json(result.diagnostics), terminator: "")
        case .text:
            let formatter = DiagnosticFormatter(sources: result.sources, color: Terminal.colorErrors)
            Terminal.error(formatter.report(result.diagnostics))
        }
        if result.diagnostics.hasErrors { throw ExitCode(1) }
    }
}
