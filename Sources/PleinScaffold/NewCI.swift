import Foundation
import PleinLoad
import PleinCore

extension Scaffold {
    /// The forges `plein new ci` writes continuous integration for.
    public enum Forge: String, Sendable, CaseIterable {
        case github, gitlab
    }

    /// The Debian image the CI jobs run in: the one plein's package is built for. Pinned to an
    /// exact dated tag: its digest could not be read from the registry here, so it is not pinned
    /// by digest.
    static let ciImage = "debian:bookworm-20250520-slim"

    /// Where plein's releases are published.
    public static let releasesURL = "https://github.com/plein-ssg/plein/releases"

    /// The Pagefind the CI installs for the site's search: the version plein is tested with
    /// (the Makefile's `pagefind-bin`).
    public static let pagefindVersion = "1.5.2"

    /// Where the CI jobs get plein. There is no default: `plein new ci` writes the way it was
    /// given or (without one) carries its own package, and never an address nobody chose.
    public enum PackageSource: Sendable {
        /// plein's own package, carried in the site's repository under `.plein/` and checked
        /// against its SHA-256 before it is installed: the CI needs no host of plein's.
        case vendored(OwnPackage)
        /// A package its owner hosts (the `make dist` of their own build), checked against its
        /// SHA-256 when one is given.
        case url(String, sha256: String?)
        /// plein's published release of this version, checked against the release's SHA256SUMS.
        case release

        /// In words, for what `plein new ci` prints.
        var said: String {
            switch self {
            case .vendored(let package): return "the CI installs plein from .plein/\(package.fileName) in the repository, checked against its SHA-256; the package is \(package.origin)"
            case .url(let url, let sha256): return "the CI downloads plein from \(url)" + (sha256 == nil ? ", unchecked (give --package-sha256 to check it)" : ", checked against its SHA-256")
            case .release: return "the CI downloads plein \(PleinVersion.number) from its release (\(releasesURL)), checked against the release's SHA256SUMS"
            }
        }
    }

    /// What `plein new ci` did: the files written or changed, and what the site's owner does next
    /// in the forge's settings.
    public struct CIWritten: Sendable {
        public var files: [String] = []
        public var next: [String] = []
    }

    /// The actions the GitHub workflows use, each pinned to the full commit of a release tag, as
    /// read from the action's own repository (a tag can be moved; a commit cannot).
    static let actions: [String: (commit: String, tag: String)] = [
        "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
        "actions/cache": ("27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
        "actions/configure-pages": ("983d7736d9b0ae728b81ab479565c72886d7745b", "v5.0.0"),
        "actions/upload-pages-artifact": ("fc324d3547104276b827a68afc52ff2a11cc49c9", "v5.0.0"),
        "actions/deploy-pages": ("cd2ce8fcbc39b97be8ca5fce6e763baed58fa128", "v5.0.0"),
        "actions/upload-artifact": ("bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"),
        "actions/download-artifact": ("3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"),
    ]

    /// `uses:` for an action of `actions`, pinned.
    static func uses(_ action: String) -> String {
        let pin = actions[action]!
        return "\(action)@\(pin.commit) # \(pin.tag)"
    }

    /// The files `plein new ci` writes for a forge, relative to the site's folder.
    static func ciFiles(_ forge: Forge) -> [String] {
        switch forge {
        case .github: return [".github/workflows/plein.yml", ".github/workflows/plein-issues.yml"]
        case .gitlab: return [".gitlab-ci.yml"]
        }
    }

    /// Writes the forge's CI configuration into `folder` (the site's folder, which is the root of
    /// its repository): pull requests are checked with annotations on the changed lines, the
    /// default branch is built and published to the forge's Pages every day and on every push,
    /// with search and web video as a local build has them and plein's cache kept between runs.
    /// On GitHub also the issue forms of `IssueForm` and their workflow.
    ///
    /// A vendored package is copied to `.plein/` (replacing an older one), and CI files written
    /// before by `plein new ci` are pointed at it; other existing files are kept as they are.
    /// With `update`, files it wrote before that nobody changed since are written anew (their
    /// fingerprint says so); changed ones are kept, and said.
    public static func ci(at folder: String, forge: Forge, package: PackageSource, update: Bool = false) throws(Failure) -> CIWritten {
        if case .url(let url, let sha256) = package {
            if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
                throw Failure("'\(sha256)' is not a SHA-256 (64 hexadecimal digits, as `sha256sum` prints)")
            }
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else { throw Failure("'\(url)' is not a web address (https://…)") }
        }
        let content = ContentLoader.load(.disk(folder + "/content")).content
        let pin = try PackagePin(package, folder: folder)
        var written = CIWritten()
        if let vendored = pin.vendoredFile { written.files.append(vendored) }
        let files: [(String, String)]
        switch forge {
        case .github:
            files = [(ciFiles(.github)[0], githubWorkflow(pin: pin, site: content.site))]
                + (content.site.has(.reports) || content.site.has(.groups) ? [(ciFiles(.github)[1], issueWorkflow(pin: pin, site: content.site))] : [])
        case .gitlab:
            files = [(ciFiles(.gitlab)[0], gitlabCI(pin: pin, site: content.site))]
        }
        for (relative, text) in files {
            let path = folder + "/" + relative
            guard let existing = try? String(contentsOfFile: path, encoding: .utf8) else {
                written.files.append(try writeNew(path, Array(Fingerprint.signed(text).utf8)))
                continue
            }
            let asWritten = Fingerprint.isAsWritten(existing)
            if update && asWritten {
                if try Fingerprint.write(text, at: path, update: true) == .updated { written.files.append(path) }
                continue
            }
            switch try pin.repoint(path, signed: asWritten) {
            case .changed: written.files.append(path)
            case .same: break
            case .otherWay:
                written.next.append("\(relative) is kept as it is (it gets plein another way, or was not written by plein new ci): delete it and run this again to write it anew")
            }
            if update, let said = Fingerprint.said(.changedByOwner, relative) { written.next.append(said) }
        }
        if forge == .github {
            let forms = try issueForms(at: folder, content: content, update: update)
            written.files += forms.files
            written.next += forms.next
        }
        written.next = ["\(pin.source.said)."] + written.next + nextSteps(forge: forge, content: content, pin: pin)
        return written
    }

    /// Why the site is built every day, said where the schedule is.
    static let dailyReason = """
        # Every day as well as on every push: "upcoming" events become past ones, "open now" and
        # relative dates follow the day, even when nothing was edited.
        """

    /// What a public content repository gives away, said at the top of every CI file.
    static let exposure = """
        # The site hides what the content repository does not: in a PUBLIC repository anyone can
        # read every member's e-mail address and home, private and members-only groups, message
        # threads and the photos' positions. Keep the content repository private (GitHub Pages
        # from a private repository needs a paid plan; GitLab Pages publishes from a private
        # project on any plan), or leave e-mail addresses out (members are named by id) and keep
        # private and members-only groups and threads out of it.
        """

    /// The lines of a step, indented for a GitHub `run: |` block.
    static func block(_ lines: [String], indent: Int = 10) -> String {
        lines.map { String(repeating: " ", count: indent) + $0 }.joined(separator: "\n")
    }

    static func githubWorkflow(pin: PackagePin, site: SiteConfig) -> String {
        """
        # Checks pull requests (problems appear on the changed lines) and publishes the site to
        # GitHub Pages from the default branch. Written by `plein new ci`; `plein help publishing`
        # says more. In the repository's settings, set Pages' source to "GitHub Actions".
        #
        \(pin.comment)
        #
        \(exposure)
        #
        # Message threads are published only with a secret: add a repository secret named
        # PLEIN_SECRET (Settings → Secrets and variables → Actions): `plein new secret` makes one. Without
        # it the build leaves threads out, and profiles offer no "Send a message" button.
        # Members-only groups (visibility: members) are published only with their passphrases:
        # add a secret named PLEIN_PASSPHRASES with a line "<group>: <passphrase>" for each
        # (`plein new passphrase` makes one; `plein help encryption`).
        #
        # Every action is pinned to the commit of its release (the tag is in the comment beside it).
        name: plein

        on:
          pull_request:
          push:
            branches: [\(site.repositoryBranch)]
        \(dailyReason.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
          schedule:
            - cron: "17 3 * * *"
          workflow_dispatch:

        # Each job says what its token may do; the rest may do nothing.
        permissions: {}

        concurrency:
          group: plein-${{ github.ref }}
          cancel-in-progress: true

        env:
        \(pin.environment)
          PAGEFIND_VERSION: "\(pagefindVersion)"

        jobs:
          check:
            if: github.event_name == 'pull_request'
            runs-on: \(pin.runner)
            container: \(ciImage)
            permissions:
              contents: read
            steps:
        \(setUpSteps(pin: pin, name: "Install git", tools: "ca-certificates curl git"))
              - name: Check the content
                run: plein check --format github

          build:
            if: github.event_name != 'pull_request'
            runs-on: \(pin.runner)
            container: \(ciImage)
            permissions:
              contents: read
              # configure-pages reads the repository's Pages settings (a private repository needs it).
              pages: read
            outputs:
              hub: ${{ steps.feeds.outputs.hub }}
              feeds: ${{ steps.feeds.outputs.feeds }}
            steps:
        \(setUpSteps(pin: pin, name: "Install git, ffmpeg, Leaflet and pip (web video, maps, and Pagefind for the search)", tools: buildTools,
                     wholeHistory: true))
              - name: Install Pagefind
                run: pip3 install --quiet --no-cache-dir --break-system-packages "pagefind-bin==$PAGEFIND_VERSION"
              # Derived images from earlier runs: only new and changed photos are processed.
              - uses: \(uses("actions/cache"))
                with:
                  path: .plein-cache
                  key: plein-${{ env.PLEIN_VERSION }}-${{ github.sha }}
                  restore-keys: plein-${{ env.PLEIN_VERSION }}-
              # The feeds of the last deploy, so that the build lists those it changed (for WebSub).
              - uses: \(uses("actions/cache"))
                with:
                  path: public/**/*.xml
                  key: plein-feeds-${{ github.sha }}
                  restore-keys: plein-feeds-
              - id: pages
                uses: \(uses("actions/configure-pages"))
              - name: Build the site
                env:
                  BASE_URL: ${{ steps.pages.outputs.base_url }}
                  PLEIN_SECRET: ${{ secrets.PLEIN_SECRET }}
                  PLEIN_PASSPHRASES: ${{ secrets.PLEIN_PASSPHRASES }}
                run: plein build --base-url "$BASE_URL/" --changed "$RUNNER_TEMP/changed.txt"
              - id: feeds
                name: List the Atom feeds this build added or changed (for the WebSub hub site.yaml names)
                env:
                  BASE_URL: ${{ steps.pages.outputs.base_url }}
                run: |
        \(block(websubListing(changed: "$RUNNER_TEMP/changed.txt", output: "$GITHUB_OUTPUT", base: "$BASE_URL")))
              - uses: \(uses("actions/upload-pages-artifact"))
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
                uses: \(uses("actions/deploy-pages"))

          # With `websub.hub` in site.yaml: once the site is live, the hub hears which feeds
          # changed, and tells their subscribers at once.
          websub:
            needs: [build, deploy]
            if: needs.build.outputs.hub != '' && needs.build.outputs.feeds != ''
            runs-on: ubuntu-24.04
            permissions: {}
            steps:
              - name: Tell the WebSub hub which feeds changed
                env:
                  HUB: ${{ needs.build.outputs.hub }}
                  FEEDS: ${{ needs.build.outputs.feeds }}
                run: |
        \(block(websubPublish))

        """
    }

    /// Shell lines that write, to `output`, the WebSub hub the site's feeds name (`hub=`, empty
    /// without one) and the address of each Atom feed the build added or changed (`feeds`, one a
    /// line), from the list `plein build --changed` wrote to `changed`. `base` is where the site
    /// is published, without its last slash.
    static func websubListing(changed: String, output: String, base: String) -> [String] {
        [
            "# The hub every feed names (`websub.hub`), if any.",
            #"hub=$(sed -n 's|.*<link rel="hub" href="\([^"]*\)"/>.*|\1|p' public/feed.xml | head -n 1 | sed 's/&amp;/\&/g')"#,
            #"echo "hub=$hub" >> "\#(output)""#,
            #"{"#,
            #"  echo "feeds<<PLEIN_FEEDS""#,
            #"  if [ -n "$hub" ]; then"#,
            #"    (grep -E $'^[AM]\t.+\\.xml$' "\#(changed)" || true) | cut -f2- | while IFS= read -r path; do"#,
            #"      case "$(head -c 400 "public/$path")" in"#,
            #"        *'<feed xmlns="http://www.w3.org/2005/Atom"'*) echo "\#(base)/$path" ;;"#,
            #"      esac"#,
            #"    done"#,
            #"  fi"#,
            #"  echo PLEIN_FEEDS"#,
            #"} >> "\#(output)""#,
        ]
    }

    /// Shell lines that tell the hub `HUB` of each feed in `FEEDS` (one a line): a publish
    /// request per feed, as PubSubHubbub and WebSub hubs take them (`hub.url`, and `hub.topic`
    /// for hubs that read that name). A feed the hub refuses fails the step after the others.
    static let websubPublish = [
        "failed=0",
        #"while IFS= read -r feed; do"#,
        #"  [ -n "$feed" ] || continue"#,
        #"  echo "publish $feed""#,
        #"  curl -fsS --retry 3 --max-time 30 -X POST --data-urlencode "hub.mode=publish" --data-urlencode "hub.url=$feed" \"#,
        #"    --data-urlencode "hub.topic=$feed" "$HUB" || failed=1"#,
        #"done <<< "$FEEDS""#,
        #"exit "$failed""#,
    ]

    /// What a build uses besides plein, as a local build has it: ffmpeg for the web copies of
    /// album videos, Leaflet for the interactive maps, pip for Pagefind (and zstd for the cache).
    static let buildTools = "ca-certificates curl git zstd ffmpeg libjs-leaflet python3-pip"

    /// The first steps of a job that runs plein: the Debian packages `tools` (git among them, so
    /// that the checkout is a repository), the checkout (which keeps no token), plein.
    static func setUpSteps(pin: PackagePin, name: String, tools: String, wholeHistory: Bool = false) -> String {
        """
              - name: \(name)
                run: |
        \(block(toolLines(tools)))
              - uses: \(uses("actions/checkout"))
                with:
        \(wholeHistory ? "          # The whole history: \"edited\" dates and feed updates come from commits.\n          fetch-depth: 0\n" : "")\
                  persist-credentials: false
              - run: git config --global --add safe.directory "$GITHUB_WORKSPACE"
        \(pin.installStep)
        """
    }

    /// The shell lines that install Debian packages a job needs before it has the repository.
    static func toolLines(_ tools: String) -> [String] {
        ["apt-get update -qq", "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \(tools)"]
    }
}
