import ArgumentParser
import PleinBuild
import PleinCore

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks the content and reports every problem, without building.",
        discussion: "Exit status: 0 when there are no errors, 1 when the content has errors, 2 for usage errors."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, github, gitlab
    }

    @OptionGroup var location: ContentLocation

    @Option(help: "The cache of image headers (default: .plein-cache beside the content folder).")
    var cache: String?

    @Option(help: "How to print problems: text, json, github (workflow commands that annotate a pull request) or gitlab (a Code Quality report).")
    var format: Format = .text

    @Option(name: .customLong("templates"), help: "A whole theme of your own, as for plein build (default: the built-in theme with the site's templates/ over it).")
    var givenTemplates: String?

    func run() throws {
        // The theme a build would use, so that labels site.yaml names are checked against it.
        var options = BuildOptions(content: location.folder, templates: givenTemplates ?? SiteLayout.find()?.templates ?? "templates",
                                   environment: Terminal.environment)
        options.templatesOverBuiltInTheme = givenTemplates == nil
        let result = Pipeline.check(content: location.folder, cache: cache, theme: options.themeFiles)
        switch format {
        case .json:
            print(DiagnosticFormatter(sources: result.sources).json(result.diagnostics), terminator: "")
        case .github:
            let inRepository = RepositoryPath()
            print(DiagnosticFormatter(sources: result.sources).github(result.diagnostics, path: inRepository.relative), terminator: "")
            Terminal.error(DiagnosticFormatter(sources: result.sources).summary(result.diagnostics))
        case .gitlab:
            let inRepository = RepositoryPath()
            print(DiagnosticFormatter(sources: result.sources).gitlab(result.diagnostics, path: inRepository.relative), terminator: "")
        case .text:
            let formatter = DiagnosticFormatter(sources: result.sources, color: Terminal.colorErrors)
            Terminal.error(formatter.report(result.diagnostics))
            // What becomes of members' posts, said where the owner looks.
            let site = result.content.site
            if let cms = site.cms { Terminal.error("note: " + cms.reviewSaid(branch: site.repositoryBranch, repository: site.repository)) }
        }
        if result.diagnostics.hasErrors { throw ExitCode(1) }
    }
}
