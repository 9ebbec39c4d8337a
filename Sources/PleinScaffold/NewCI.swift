import Foundation
public import PleinCore

extension Scaffold {
    /// The forges `plein new ci` writes continuous integration for.
    public enum Forge: String, Sendable, CaseIterable {
        case github, gitlab
    }

    /// The Debian image the CI jobs run in: the one plein's package is built for, pinned.
    static let ciImage = "debian:bookworm-20250520-slim"

    /// Where the CI jobs download plein's Debian package.
    static func packageURL(version: String) -> String {
        "https://github.com/plein-ssg/plein/releases/download/v\(version)/plein_\(version)_amd64.deb"
    }

    /// Writes the forge's CI configuration into `folder` (the site's folder, which is the root of
    /// its repository): pull requests are checked with annotations on the changed lines, the
    /// default branch is built and published to the forge's Pages, with plein's cache kept
    /// between runs. Returns the files written; existing files are never overwritten.
    public static func ci(at folder: String, forge: Forge, version: String = PleinVersion.number) throws(Failure) -> [String] {
        switch forge {
        case .github: return [try writeNew(folder + "/.github/workflows/plein.yml", Array(githubWorkflow(version: version).utf8))]
        case .gitlab: return [try writeNew(folder + "/.gitlab-ci.yml", Array(gitlabCI(version: version).utf8))]
        }
    }

    static func githubWorkflow(version: String) -> String {
        """
        # Checks pull requests (problems appear on the changed lines) and publishes the site to
        # GitHub Pages from the default branch. Written by `plein new ci`; plein \(version) is
        # installed from its Debian package. In the repository's settings, set Pages' source to
        # "GitHub Actions".
        #
        \(exposure)
        #
        # Message threads are published only with a secret: add a repository secret named
        # PLEIN_SECRET (Settings → Secrets and variables → Actions), a long random text. Without
        # it the build leaves threads out, and profiles offer no "Send a message" button.
        name: plein

        on:
          pull_request:
          push:
            branches: [main]
          workflow_dispatch:

        permissions:
          contents: read

        concurrency:
          group: plein-${{ github.ref }}
          cancel-in-progress: true

        env:
          PLEIN_VERSION: "\(version)"

        jobs:
          check:
            if: github.event_name == 'pull_request'
            runs-on: ubuntu-24.04
            container: \(ciImage)
            steps:
        \(installStep(tools: "ca-certificates curl git"))
              - uses: actions/checkout@v4.2.2
              - name: Check the content
                run: plein check --format github

          build:
            if: github.event_name != 'pull_request'
            runs-on: ubuntu-24.04
            container: \(ciImage)
            steps:
        \(installStep(tools: "ca-certificates curl git zstd"))
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
    static func installStep(tools: String) -> String {
        """
              - name: Install plein
                run: |
                  apt-get update -qq
                  apt-get install -y -qq --no-install-recommends \(tools)
                  curl -fsSLo /tmp/plein.deb "\(packageURL(version: "${PLEIN_VERSION}"))"
                  apt-get install -y -qq --no-install-recommends /tmp/plein.deb
        """
    }

    static func gitlabCI(version: String) -> String {
        """
        # Checks merge requests (problems appear in the merge request's Code Quality widget) and
        # publishes the site to GitLab Pages from the default branch. Written by `plein new ci`;
        # plein \(version) is installed from its Debian package.
        #
        \(exposure)
        # GitLab Pages publishes from a private project: keep the project private and set Pages'
        # visibility to "Everyone" (Settings → General → Visibility → Pages).
        #
        # Message threads are published only with a secret: add a CI/CD variable named
        # PLEIN_SECRET (Settings → CI/CD → Variables; masked, protected), a long random text.
        # Without it the build leaves threads out, and profiles offer no "Send a message" button.
        image: \(ciImage)

        variables:
          PLEIN_VERSION: "\(version)"
          # The whole history: "edited" dates and feed updates come from commits.
          GIT_DEPTH: "0"

        default:
          before_script:
            - apt-get update -qq
            - apt-get install -y -qq --no-install-recommends ca-certificates curl git
            - curl -fsSLo /tmp/plein.deb "\(packageURL(version: "${PLEIN_VERSION}"))"
            - apt-get install -y -qq --no-install-recommends /tmp/plein.deb

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
            - plein build --base-url "$CI_PAGES_URL/"
          artifacts:
            paths:
              - public

        """
    }
}
