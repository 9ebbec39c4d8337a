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

    @Option(name: .customLong("secret-file"), help: "A file holding the thread secret, to check its strength as a build would (else PLEIN_SECRET).")
    var secretFile: String?

    @Option(help: "A file of members-only groups' passphrases, as plein build takes it, to check their strength as a build would (else PLEIN_PASSPHRASE_<GROUP>, PLEIN_PASSPHRASES).")
    var passphrases: String?

    func run() throws {
        // The theme a build would use, so that labels site.yaml names are checked against it.
        var options = BuildOptions(content: location.folder, templates: givenTemplates ?? SiteLayout.find()?.templates ?? "templates",
                                   environment: Terminal.environment)
        options.templatesOverBuiltInTheme = givenTemplates == nil
        let result = Pipeline.check(content: location.folder, cache: cache, theme: options.themeFiles)
        // The thread secret a build would be given, held to the same standard as there.
        let secret = try SiteOptions.secret(file: secretFile)
        // And the passphrases it would be given.
        let weak = SealingStage.weakPassphrases(result.content, passphrases: try SiteOptions.groupPassphrases(file: passphrases))
        let given = (Passphrase.secretProblem(secret, content: result.content).map { [$0] } ?? []) + weak
        let diagnostics = (result.diagnostics + given.map { $0.under(result.content.displayRoot) }).sorted()
        switch format {
        case .json:
            print(DiagnosticFormatter(sources: result.sources).json(diagnostics), terminator: "")
        case .github:
            let inRepository = RepositoryPath(environment: Terminal.environment)
            print(DiagnosticFormatter(sources: result.sources).github(diagnostics, path: inRepository.relative), terminator: "")
            Terminal.error(DiagnosticFormatter(sources: result.sources).summary(diagnostics))
        case .gitlab:
            let inRepository = RepositoryPath(environment: Terminal.environment)
            print(DiagnosticFormatter(sources: result.sources).gitlab(diagnostics, path: inRepository.relative), terminator: "")
        case .text:
            let formatter = DiagnosticFormatter(sources: result.sources, color: Terminal.colorErrors)
            Terminal.error(formatter.report(diagnostics))
            // What becomes of members' posts, said where the owner looks.
            let site = result.content.site
            if let cms = site.cms { Terminal.error("note: " + cms.reviewSaid(branch: site.repositoryBranch, repository: site.repository)) }
        }
        if diagnostics.hasErrors { throw ExitCode(1) }
    }
}
