import PleinCore
import PleinRender

// The theme read, and the content checked with it: what `SiteState` does before it renders.

extension SiteState {
    mutating func loadTheme() {
        (theme, themeDiagnostics) = ThemeLoader.load(options.themeFiles, language: content.site.language, reusing: theme)
        if let loaded = theme {
            let (withIcons, problems) = AppIcons.add(to: loaded, site: content.site, cacheRoot: options.cacheRoot)
            (theme, themeDiagnostics) = (withIcons, themeDiagnostics + problems.map { $0.under(content.displayRoot) })
        }
    }

    mutating func check(_ change: ContentChange = .everything) {
        let rules = CheckStage.rules(content, change: change, last: checked)
        checked = rules
        let result = CheckStage.run(content, checked: rules, loading: loadDiagnostics, images: images, theme: theme, themeProblems: themeDiagnostics)
        let (keys, sealingProblems) = sealingStage.run(content, passphrases: options.passphrases)
        sealing = keys
        // A weak thread secret is an error at the first thread (the threads it would publish are
        // no safer than it): the build fails rather than publish guessable threads.
        let secretProblem = Passphrase.secretProblem(options.secret, content: content)
        diagnostics = result.diagnostics + (sealingProblems + (secretProblem.map { [$0] } ?? [])).map { $0.under(content.displayRoot) }
        sources = result.sources
    }
}
