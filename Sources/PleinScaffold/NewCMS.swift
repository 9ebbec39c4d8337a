import Foundation
import PleinLoad
public import PleinCore

extension Scaffold {
    /// What `plein new cms` sets: the forge, the repository (when site.yaml has none yet) and how
    /// members sign in; the rest has plein's defaults.
    public struct CMSChoice: Sendable {
        public var settings: CMSSettings
        public var repository: String?

        public init(settings: CMSSettings, repository: String? = nil) {
            self.settings = settings
            self.repository = repository
        }
    }

    /// Adds `cms` (and `repository`, when given and missing) to the end of `site.yaml` in
    /// `folder` (the site's folder), so that every build publishes `/admin/`: the CMS's page
    /// and its configuration, made from plein's schemas. Nothing in site.yaml is changed; a
    /// site.yaml that has `cms` already is refused. Returns the file written and what the
    /// owner does next, forge by forge.
    public static func cms(at folder: String, _ choice: CMSChoice) throws(Failure) -> (file: String, next: [String]) {
        let path = folder + "/content/" + ContentLayout.site
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Failure("no site here: \(path) cannot be read") }
        // The top-level keys as written (an empty `cms:` has no settings, but a second one would
        // be a key given twice).
        let keys = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let first = line.first, first.isLetter, let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[..<colon])
        })
        if keys.contains("cms") { throw Failure("\(path) already has 'cms'; change it there (plein help members-without-git)") }
        let settings = choice.settings
        if let integrity = settings.integrity, !CMSSettings.isIntegrity(integrity) {
            throw Failure("'\(integrity)' is not an integrity hash: expected sha384- and the base64 of the script's SHA-384 (plein help members-without-git)")
        }
        var added = ""
        let site = ContentLoader.load(.disk(folder + "/content")).content.site
        var repository = site.repository
        if let given = choice.repository {
            guard let address = RepositoryAddress(given) else {
                throw Failure("'\(given)' is not a repository's address: expected https://<forge>/<owner>/<name>")
            }
            if let repository, RepositoryAddress(repository) != address {
                throw Failure("site.yaml names the repository \(repository) already; leave out --repository or change it there")
            }
            if repository == nil { added += "repository: \(given)\n" }
            repository = given
        }
        guard settings.forge != nil || repository.flatMap(CMSSettings.Forge.of(repository:)) != nil else {
            throw Failure("say which forge the repository is on: --forge github, gitlab, gitea or forgejo")
        }
        added += "# A CMS at /admin/ for members who do not use git (plein help members-without-git).\ncms:\n"
        if settings.editor != .sveltia { added += "  editor: \(settings.editor.rawValue)\n" }
        added += "  version: \(quote(settings.version))\n"
        if let integrity = settings.integrity { added += "  integrity: \(integrity)\n" }
        if let forge = settings.forge { added += "  forge: \(forge.rawValue)\n" }
        if let app = settings.appID { added += "  app_id: \(quote(app))\n" }
        if let auth = settings.authURL { added += "  auth_url: \(quote(auth))\n" }
        if !settings.review { added += "  review: false\n" }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(((text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + added).utf8))
        } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
        return (path, nextSteps(settings, repository: repository, branch: site.repositoryBranch))
    }

    /// `plein new cms --update`: the `cms` of `site.yaml` in `folder` is brought to the version of
    /// its editor this plein is made for (given as `version`, or pinned), its other settings kept;
    /// an integrity hash of the old version is taken out, as it would stop the page loading the
    /// new one, and said. With `integrity` (`ScriptIntegrity.fetch`), the new version's hash is
    /// written in its place when it can be had. Returns the file (nil when nothing changed) and
    /// what was done.
    public static func cmsUpdate(at folder: String, version given: String?,
                                 integrity: ((CMSSettings.Editor, String) -> Result<String, Failure>)? = nil) throws(Failure) -> (file: String?, said: [String]) {
        let path = folder + "/content/" + ContentLayout.site
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Failure("no site here: \(path) cannot be read") }
        guard let cms = ContentLoader.load(.disk(folder + "/content")).content.site.cms else {
            throw Failure("\(path) has no 'cms' to update: plein new cms adds one")
        }
        let wanted = given ?? cms.editor.pinnedVersion
        guard cms.version != wanted else { return (nil, ["the CMS is \(cms.editor == .sveltia ? "Sveltia CMS" : "Decap CMS") \(wanted) already: nothing to update"]) }
        var lines = text.components(separatedBy: "\n")
        guard let top = lines.firstIndex(where: { $0.hasPrefix("cms:") }) else { throw Failure("\(path): 'cms' is not a block of its own lines; change its version there") }
        var said = ["the CMS goes from \(cms.version) to \(wanted)"]
        let hash = integrity?(cms.editor, wanted)
        var index = top + 1, versionAt: Int?, hadIntegrity = false
        while index < lines.count, lines[index].hasPrefix(" ") || lines[index].isEmpty || lines[index].hasPrefix("#") {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("version:") { versionAt = index }
            if line.hasPrefix("integrity:") {
                lines.remove(at: index)
                hadIntegrity = true
                continue
            }
            index += 1
        }
        let indent = versionAt.map { String(lines[$0].prefix { $0 == " " }) } ?? "  "
        if let versionAt { lines[versionAt] = indent + "version: " + quote(wanted) } else { lines.insert(indent + "version: " + quote(wanted), at: top + 1) }
        // (Below the cms block's own version line.)
        let at = (lines[(top + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("version:") && $0.hasPrefix(" ") } ?? top) + 1
        switch hash {
        case .success(let new)?:
            lines.insert(indent + "integrity: " + new, at: at)
            said.append("the new script is pinned by its hash, computed from the script itself: " + new)
        case .failure(let failure)?:
            said.append(failure.description + (hadIntegrity
                ? "; the old version's integrity hash is taken out, as it would stop the page loading the new one: compute the new one once online (plein help members-without-git)"
                : "; the script stays without an integrity hash (plein help members-without-git)"))
        case nil:
            if hadIntegrity {
                said.append("its integrity hash was the old version's, so it is taken out: compute the new one (plein help members-without-git)")
            }
        }
        do { try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
        return (path, said)
    }

    /// What the owner still does for members to sign in, in the order they do it.
    static func nextSteps(_ settings: CMSSettings, repository: String?, branch: String = "main") -> [String] {
        guard let repository, let address = RepositoryAddress(repository) else {
            return ["add 'repository: https://<forge>/<owner>/<name>' to site.yaml: /admin/ is published once it is there"]
        }
        let forge = settings.forge ?? CMSSettings.Forge.of(repository: repository) ?? .github
        var steps: [String] = []
        switch forge {
        case .gitlab:
            steps.append("on \(address.host): User settings → Applications → Add new application, with the redirect URI <your site's address>admin/, "
                         + "'Confidential' unticked and the scope api" + (settings.appID == nil ? "; put its Application ID in site.yaml as cms.app_id" : ""))
        case .gitea, .forgejo:
            steps.append("on \(address.host): Settings → Applications → Create a new OAuth2 application, with the redirect URI <your site's address>admin/ "
                         + "and 'Confidential client' unticked" + (settings.appID == nil ? "; put its Client ID in site.yaml as cms.app_id" : ""))
        case .github:
            steps.append(settings.editor == .sveltia
                ? "members sign in with a GitHub token of their own (fine-grained, Contents and Pull requests: read and write on \(address.path)), or set cms.auth_url to an OAuth client such as Sveltia CMS Authenticator"
                : "Decap CMS signs in to GitHub through an OAuth client: set cms.auth_url to one you run (such as Sveltia CMS Authenticator)")
        }
        if settings.integrity == nil {
            steps.append("pin the script by its hash: curl -sL \(settings.editor.scriptURL(version: settings.version)) | openssl dgst -sha384 -binary | openssl base64 -A, "
                         + "then cms.integrity: sha384-<that>")
        }
        // As site.yaml will read it: with the forge known.
        var reviewed = settings
        reviewed.forge = forge
        steps.append("review: " + reviewed.reviewSaid(branch: branch, repository: repository))
        steps.append("build and publish: members post at <your site's address>admin/; plein help members-without-git has the whole way")
        return steps
    }
}
