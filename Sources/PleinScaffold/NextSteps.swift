import Foundation
import PleinCore

extension Scaffold {
    /// What is left to do in the forge's settings once `plein new ci` wrote its files, each with
    /// the address of the settings page (the repository's own where site.yaml names it).
    static func nextSteps(forge: Forge, content: Content, pin: PackagePin) -> [String] {
        let repository = content.site.repository ?? (forge == .github ? "https://github.com/OWNER/REPOSITORY" : "https://gitlab.com/GROUP/PROJECT")
        let secret = !content.threads.isEmpty
        let sealed = content.groups.filter { $0.visibility == .members }.map(\.id).sorted()
        let hidden = content.groups.contains { $0.visibility == .members || $0.visibility == .private }
        var steps: [String] = []
        if let file = pin.vendoredFile {
            let size = ((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? Int).map { " (\($0 / 1_000_000) MB)" } ?? ""
            steps.append("commit plein's package\(size) with the CI files: git add .plein \(forge == .github ? ".github" : ".gitlab-ci.yml") && git commit")
        }
        if !content.site.repositoryPrivate {
            let what = [hidden ? "members-only or private groups" : nil, secret ? "message threads" : nil].compactMap { $0 }
            let kept = what.isEmpty
                ? "members-only and private groups and message threads are plain text in the repository: if the site will have any"
                : "this site keeps \(what.joined(separator: " and ")): in a public repository they are plain text for anyone"
            let how = forge == .github
                ? "make the repository private (\(repository)/settings, Danger Zone → Change visibility; GitHub Pages publishes from a private repository on a paid plan: Pro, Team, Enterprise; GitLab Pages on every plan)"
                : "keep the project private (\(repository)/edit, Visibility → Project visibility: Private) and let Pages be seen by everyone (same page → Pages: Everyone)"
            steps.append("\(kept), \(how), then add 'repository_private: true' to site.yaml")
        }
        switch forge {
        case .github:
            steps.append("publish with GitHub Actions: \(repository)/settings/pages → Build and deployment → Source: GitHub Actions")
            var secrets: [String] = []
            if secret { secrets.append("PLEIN_SECRET (a long random text: plein new secret makes one)") }
            if !sealed.isEmpty { secrets.append("PLEIN_PASSPHRASES (a line \"<group>: <passphrase>\" for \(sealed.joined(separator: ", ")))") }
            if !secrets.isEmpty { steps.append("add the secrets \(secrets.joined(separator: " and ")): \(repository)/settings/secrets/actions/new") }
            if content.site.has(.reports) || content.site.has(.groups) {
                steps.append("let the issue workflow open pull requests: \(repository)/settings/actions → Workflow permissions → Allow GitHub Actions to create and approve pull requests")
                steps.append("the labels approved, plein-report, plein-reply and plein-event are made when plein-issues.yml is first pushed (or run it: \(repository)/actions/workflows/plein-issues.yml)")
            }
            steps.append("push: every run is at \(repository)/actions; pull requests are checked, the default branch is published")
        case .gitlab:
            steps.append("build every day: \(repository)/-/pipeline_schedules/new (the default branch, \"17 3 * * *\")")
            var variables: [String] = []
            if secret { variables.append("PLEIN_SECRET") }
            variables += sealed.map { "PLEIN_PASSPHRASE_" + $0.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() }
            if !variables.isEmpty { steps.append("add the masked variables \(variables.joined(separator: ", ")): \(repository)/-/settings/ci_cd → Variables") }
            steps.append("push: every pipeline is at \(repository)/-/pipelines; merge requests are checked, the default branch is published")
        }
        steps.append("more: plein help publishing")
        return steps
    }
}
