import Foundation
import PleinLoad
public import PleinCore

extension Scaffold {
    /// The forges `plein new ci` writes continuous integration for.
    public enum Forge: String, Sendable, CaseIterable {
        case github, gitlab
    }

    /// The Debian image the CI jobs run in: the one plein's package is built for, pinned.
    static let ciImage = "debian:bookworm-20250520-slim"

    /// Where plein's releases publish its Debian package, by version.
    public static func releasePackageURL(version: String) -> String {
        "https://github.com/plein-ssg/plein/releases/download/v\(version)/plein_\(version)_amd64.deb"
    }

    /// The Pagefind the CI installs for the site's search: the version plein is tested with
    /// (the Makefile's `pagefind-bin`).
    public static let pagefindVersion = "1.5.2"

    /// Where the CI jobs get plein: the Debian package at `url` (the release's by default, or
    /// one the site's owner hosts, such as the `make dist` of their own build), checked against
    /// `sha256` when given.
    public struct PackageSource: Sendable {
        public let url: String
        public let sha256: String?

        public init(url: String? = nil, sha256: String? = nil, version: String = PleinVersion.number) {
            self.url = url ?? Scaffold.releasePackageURL(version: version)
            self.sha256 = sha256?.lowercased()
        }
    }

    /// Writes the forge's CI configuration into `folder` (the site's folder, which is the root of
    /// its repository): pull requests are checked with annotations on the changed lines, the
    /// default branch is built and published to the forge's Pages every day and on every push,
    /// with search and web video as a local build has them and plein's cache kept between runs.
    /// On GitHub also the issue forms of `IssueForm` and their workflow. Returns the files
    /// written; existing files are never overwritten.
    public static func ci(at folder: String, forge: Forge, package: PackageSource = PackageSource(),
                          version: String = PleinVersion.number) throws(Failure) -> [String] {
        if let sha256 = package.sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
            throw Failure("'\(sha256)' is not a SHA-256 (64 hexadecimal digits, as `sha256sum` prints)")
        }
        switch forge {
        case .github:
            // And the issue forms members post with, which a workflow turns into pull requests.
            let site = ContentLoader.load(.disk(folder + "/content")).content.site
            return [try writeNew(folder + "/.github/workflows/plein.yml", Array(githubWorkflow(version: version, package: package).utf8))]
                + (try issueForms(at: folder, site: site, version: version, package: package))
        case .gitlab: return [try writeNew(folder + "/.gitlab-ci.yml", Array(gitlabCI(version: version, package: package).utf8))]
        }
    }

    /// The shell lines that install plein's package (and the Debian packages `tools`).
    static func installLines(tools: String, package: PackageSource) -> [String] {
        var lines = [
            "apt-get update -qq",
            "apt-get install -y -qq --no-install-recommends \(tools)",
            "curl -fsSLo /tmp/plein.deb \"$PLEIN_PACKAGE_URL\"",
        ]
        if let sha256 = package.sha256 { lines.append("echo \"\(sha256)  /tmp/plein.deb\" | sha256sum -c -") }
        lines.append("apt-get install -y -qq --no-install-recommends /tmp/plein.deb")
        return lines
    }

    /// The shell lines that install what a build uses besides plein: ffmpeg for the web copies of
    /// album videos, Pagefind (from PyPI, pinned) for the search.
    static let buildToolLines = [
        "apt-get install -y -qq --no-install-recommends ffmpeg python3-pip",
        "pip3 install --quiet --no-cache-dir --break-system-packages \"pagefind-bin==$PAGEFIND_VERSION\"",
    ]

    /// What the header of every CI file says about where plein comes from.
    static func packageComment(version: String, package: PackageSource) -> String {
        let checked = package.sha256 == nil ? "" : ", checked\n# against its SHA-256"
        return """
        # plein \(version) is installed from its Debian package, PLEIN_PACKAGE_URL below\(checked). Releases publish it at
        # https://github.com/plein-ssg/plein/releases; to use your own build, host the .deb that
        # `make dist` writes and run `plein new ci --package-url URL --package-sha256 HASH`.
        """
    }

    /// Why the site is built every day, said where the schedule is.
    static let dailyReason = """
        # Every day as well as on every push: "upcoming" events become past ones, "open now" and
        # relative dates follow the day, even when nothing was edited.
        """

    static func githubWorkflow(version: String, package: PackageSource) -> String {
        """
        # Checks pull requests (problems appear on the changed lines) and publishes the site to
        # GitHub Pages from the default branch. Written by `plein new ci`. In the repository's
        # settings, set Pages' source to "GitHub Actions".
        #
        \(packageComment(version: version, package: package))
        #
        \(exposure)
        #
        # Message threads are published only with a secret: add a repository secret named
        # PLEIN_SECRET (Settings → Secrets and variables → Actions), a long random text. Without
        # it the build leaves threads out, and profiles offer no "Send a message" button.
        # Members-only groups (visibility: members) are published only with their passphrases:
        # add a secret named PLEIN_PASSPHRASES with a line "<group>: <passphrase>" for each
        # (`plein new passphrase` makes one; docs/encryption.md).
        name: plein

        on:
          pull_request:
          push:
            branches: [main]
        \(dailyReason.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
          schedule:
            - cron: "17 3 * * *"
          workflow_dispatch:

        permissions:
          contents: read

        concurrency:
          group: plein-${{ github.ref }}
          cancel-in-progress: true

        env:
          PLEIN_VERSION: "\(version)"
          PLEIN_PACKAGE_URL: "\(package.url)"
          PAGEFIND_VERSION: "\(pagefindVersion)"

        jobs:
          check:
            if: github.event_name == 'pull_request'
            runs-on: ubuntu-24.04
            container: \(ciImage)
            steps:
        \(installStep(tools: "ca-certificates curl git", package: package))
              - uses: actions/checkout@v4.2.2
              - name: Check the content
                run: plein check --format github

          build:
            if: github.event_name != 'pull_request'
            runs-on: ubuntu-24.04
            container: \(ciImage)
            steps:
        \(installStep(tools: "ca-certificates curl git zstd", package: package))
              - name: Install ffmpeg and Pagefind (web video and search)
                run: |
        \(buildToolLines.map { "          " + $0 }.joined(separator: "\n"))
              - uses: actions/checkout@v4.2.2
                with:
                  # The whole history: "edited" dates and feed updates come from commits.
                  fetch-depth: 0
              - run: git config --global --add safe.directory "$GITHUB_WORKSPACE"
              # Derived images from earlier runs: only new and changed photos are processed.
              - uses: actions/cache@v4.2.3
                with:
                  path: .plein-cache
                  key: plein-${{ env.PLEIN_VERSION }}-${{ github.sha }}
                  restore-keys: plein-${{ env.PLEIN_VERSION }}-
              - id: pages
                uses: actions/configure-pages@v5.0.0
              - name: Build the site
                env:
                  PLEIN_SECRET: ${{ secrets.PLEIN_SECRET }}
                  PLEIN_PASSPHRASES: ${{ secrets.PLEIN_PASSPHRASES }}
                run: plein build --base-url "${{ steps.pages.outputs.base_url }}/"
              - uses: actions/upload-pages-artifact@v3.0.1
                with:
                  path: public

          deploy:
            needs: build
            runs-on: ubuntu-24.04
            permissions:
              pages: write
              id-token: write
            environment:
              name: github-pages
              url: ${{ steps.deployment.outputs.page_url }}
            steps:
              - id: deployment
                uses: actions/deploy-pages@v4.0.5

        """
    }

    /// What a public content repository gives away, said at the top of every CI file.
    static let exposure = """
        # The site hides what the content repository does not: in a PUBLIC repository anyone can
        # read every member's e-mail address and home, private groups, message threads and the
        # photos' positions. Keep the content repository private (GitHub Pages from a private
        # repository needs a paid plan; GitLab Pages publishes from a private project on any plan),
        # or leave e-mail addresses out (members are named by id) and keep private groups and
        # threads out of it.
        """

    /// The step that installs plein's package (and `tools`) in a GitHub job's Debian container.
    static func installStep(tools: String, package: PackageSource) -> String {
        """
              - name: Install plein
                run: |
        \(installLines(tools: tools, package: package).map { "          " + $0 }.joined(separator: "\n"))
        """
    }

    static func gitlabCI(version: String, package: PackageSource) -> String {
        """
        # Checks merge requests (problems appear in the merge request's Code Quality widget) and
        # publishes the site to GitLab Pages from the default branch. Written by `plein new ci`.
        #
        \(packageComment(version: version, package: package))
        #
        \(dailyReason)
        # GitLab keeps schedules outside this file: add one under Build → Pipeline schedules, for
        # the default branch, daily (for example "17 3 * * *").
        #
        \(exposure)
        # GitLab Pages publishes from a private project: keep the project private and set Pages'
        # visibility to "Everyone" (Settings → General → Visibility → Pages).
        #
        # Message threads are published only with a secret: add a CI/CD variable named
        # PLEIN_SECRET (Settings → CI/CD → Variables; masked, protected), a long random text.
        # Without it the build leaves threads out, and profiles offer no "Send a message" button.
        # Members-only groups (visibility: members) are published only with their passphrases: a
        # masked variable PLEIN_PASSPHRASE_<GROUP> for each, the group's folder name in capitals
        # with "_" for other characters than letters and digits (docs/encryption.md).
        image: \(ciImage)

        variables:
          PLEIN_VERSION: "\(version)"
          PLEIN_PACKAGE_URL: "\(package.url)"
          PAGEFIND_VERSION: "\(pagefindVersion)"
          # The whole history: "edited" dates and feed updates come from commits.
          GIT_DEPTH: "0"

        default:
          before_script:
        \(installLines(tools: "ca-certificates curl git", package: package).map { "    - " + $0 }.joined(separator: "\n"))

        stages:
          - test
          - deploy

        check:
          stage: test
          rules:
            - if: $CI_PIPELINE_SOURCE == "merge_request_event"
          script:
            - plein check --format gitlab > gl-code-quality-report.json
          artifacts:
            when: always
            reports:
              codequality: gl-code-quality-report.json

        pages:
          stage: deploy
          rules:
            - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          # Derived images from earlier runs: only new and changed photos are processed.
          cache:
            key: plein-$PLEIN_VERSION
            paths:
              - .plein-cache/
          script:
        \(buildToolLines.map { "    - " + $0 }.joined(separator: "\n"))
            - plein build --base-url "$CI_PAGES_URL/"
          artifacts:
            paths:
              - public

        """
    }
}
