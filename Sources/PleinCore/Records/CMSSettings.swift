/// `cms` in `site.yaml`: a git-based CMS at `/admin/` for members who do not use git (Sveltia CMS
/// or Decap CMS, loaded from their published builds), configured by the build from plein's own
/// schemas. See docs/members-without-git.md.
public struct CMSSettings: Sendable, Equatable, Codable {
    public enum Editor: String, Sendable, Codable, CaseIterable {
        case sveltia, decap

        /// The version plein writes configuration for, pinned: the page loads exactly this one.
        public var pinnedVersion: String {
            switch self {
            case .sveltia: return "0.196.0"
            case .decap: return "3.14.1"
            }
        }

        /// The published build of `version`, from the CDN both projects' documentation names.
        public func scriptURL(version: String) -> String {
            switch self {
            case .sveltia: return "https://unpkg.com/@sveltia/cms@\(version)/dist/sveltia-cms.js"
            case .decap: return "https://unpkg.com/decap-cms@\(version)/dist/decap-cms.js"
            }
        }

        /// Whether a collection may hold a file whose top level is a list (check-ins): Sveltia
        /// CMS's `root` lists; Decap CMS has none.
        public var editsTopLevelLists: Bool { self == .sveltia }

        /// Whether the editor has the editorial workflow (each entry a branch and a pull or merge
        /// request) on `forge`: both have it on GitHub and GitLab, neither on Gitea or Forgejo
        /// (read in their sources: Sveltia CMS 0.196.0's `WORKFLOW_BACKENDS` is github and gitlab,
        /// and on gitea it only warns in the console and commits to the branch; Decap CMS 3.14.1's
        /// gitea backend refuses to start with it).
        public func reviews(on forge: Forge) -> Bool { forge == .github || forge == .gitlab }
    }

    public enum Forge: String, Sendable, Codable, CaseIterable {
        case github, gitlab, gitea, forgejo

        /// The forge a repository's address is on, when its host says so.
        public static func of(repository: String) -> Forge? {
            guard let host = RepositoryAddress(repository)?.host.lowercased() else { return nil }
            if host == "github.com" { return .github }
            if host == "gitlab.com" || host.hasPrefix("gitlab.") { return .gitlab }
            if host == "codeberg.org" || host.hasPrefix("forgejo.") { return .forgejo }
            if host == "gitea.com" || host.hasPrefix("gitea.") { return .gitea }
            return nil
        }
    }

    public var editor: Editor
    public var version: String
    /// The script's Subresource Integrity hash (`sha384-…`), computed by the site's owner from the
    /// real file; without it the page loads the pinned version unchecked.
    public var integrity: String?
    /// Nil when neither `forge` nor the repository's host says which.
    public var forge: Forge?
    /// The OAuth application's id (client id): GitLab, Gitea and Forgejo sign in with it (PKCE).
    public var appID: String?
    /// GitHub: the address of the OAuth client that signs members in (such as Sveltia CMS
    /// Authenticator); without it members sign in with a token of their own (Sveltia CMS).
    public var authURL: String?
    /// Whether members' posts wait for a maintainer: as pull or merge requests (the editorial
    /// workflow), or on a branch of their own where the editor has no workflow (`postsBranch`).
    public var review: Bool
    /// `posts_branch` as site.yaml gives it.
    public var givenPostsBranch: String?
    /// The branch the CMS commits members' posts to when it cannot make each a pull request
    /// (Gitea, Forgejo) and they are to be reviewed: a maintainer merges it into the site's branch.
    public var postsBranch: String? {
        review && !editorialWorkflow && forge != nil ? givenPostsBranch ?? Self.defaultPostsBranch : nil
    }

    public init(editor: Editor = .sveltia, version: String? = nil, integrity: String? = nil, forge: Forge?, appID: String? = nil,
                authURL: String? = nil, review: Bool = true) {
        self.editor = editor
        self.version = version ?? editor.pinnedVersion
        self.integrity = integrity
        self.forge = forge
        self.appID = appID
        self.authURL = authURL
        self.review = review
    }

    init(_ o: ObjectValue, repository: String?) {
        let editor = o.string("editor").flatMap(Editor.init(rawValue:)) ?? .sveltia
        self.init(editor: editor, version: o.string("version"), integrity: o.string("integrity"),
                  forge: o.string("forge").flatMap(Forge.init(rawValue:)) ?? repository.flatMap(Forge.of(repository:)),
                  appID: o.string("app_id"), authURL: o.string("auth_url"), review: o.bool("review") ?? true)
        givenPostsBranch = o.string("posts_branch")
    }

    /// The branch members' posts wait on where the CMS makes no pull requests.
    public static let defaultPostsBranch = "cms-posts"

    /// What review members' posts get, in words for `plein new cms` and `plein check`: where
    /// they go and who publishes them. `branch` is the site's branch.
    public func reviewSaid(branch: String, repository: String?) -> String {
        let address = repository.flatMap(RepositoryAddress.init).map { $0.origin + "/" + $0.path }
        if editorialWorkflow {
            let request = forge == .gitlab ? "a merge request" : "a pull request"
            return "each post from the CMS is \(request) into \(branch), published when a maintainer merges it; protect \(branch) so that only maintainers merge"
                + (address.map { forge == .gitlab ? " (\($0)/-/settings/repository, Protected branches)" : " (\($0)/settings/branches)" } ?? "")
        }
        if let postsBranch {
            return "\(editor == .sveltia ? "Sveltia CMS" : "Decap CMS") makes no pull requests on \(forge?.rawValue ?? "this forge"), so posts from the CMS are committed to the branch \(postsBranch) "
                + "(make it once: git push origin \(branch):\(postsBranch)); review them in a pull request from \(postsBranch) into \(branch)" + (address.map { " (\($0)/compare/\(branch)...\(postsBranch))" } ?? "")
                + ", and protect \(branch) so that only maintainers merge"
        }
        return "posts from the CMS go straight to \(branch), unreviewed (review: false): only members you trust should be able to sign in"
    }

    /// Whether entries become pull or merge requests: asked for, and the editor has it there.
    public var editorialWorkflow: Bool { review && forge.map(editor.reviews(on:)) == true }

    /// `sha256-`, `sha384-` or `sha512-` and base64, as `integrity` attributes take it.
    public static func isIntegrity(_ text: String) -> Bool {
        let parts = text.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, ["sha256", "sha384", "sha512"].contains(String(parts[0])), !parts[1].isEmpty else { return false }
        return parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=") }
    }
}

/// A repository's web address taken apart: `https://gitlab.com/club/site` is the host
/// `gitlab.com` and the path `club/site` (a GitLab group may nest: `club/sub/site`).
public struct RepositoryAddress: Sendable, Equatable {
    public let scheme: String
    public let host: String
    public let path: String

    public init?(_ address: String) {
        guard let colon = address.firstIndex(of: ":"), address[colon...].hasPrefix("://") else { return nil }
        scheme = String(address[..<colon]).lowercased()
        let rest = address[address.index(colon, offsetBy: 3)...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        host = String(rest[..<slash])
        var path = String(rest[slash...]).split(separator: "/").joined(separator: "/")
        if path.hasSuffix(".git") { path.removeLast(4) }
        self.path = path
        guard scheme == "https" || scheme == "http", !host.isEmpty, path.contains("/") else { return nil }
    }

    /// `https://host`, where the forge signs in and serves its API.
    public var origin: String { "\(scheme)://\(host)" }
}
