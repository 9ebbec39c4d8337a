import Foundation
import PleinLoad
import PleinCore

extension Scaffold {
    /// The GitLab pipeline `plein new ci --forge gitlab` writes (`.gitlab-ci.yml`).
    static func gitlabCI(pin: PackagePin, site: SiteConfig) -> String {
        """
        # Checks merge requests (problems appear in the merge request's Code Quality widget) and
        # publishes the site to GitLab Pages from the default branch. Written by `plein new ci`;
        # `plein help publishing` says more.
        #
        \(pin.comment)
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
        # PLEIN_SECRET (Settings → CI/CD → Variables; masked, protected): `plein new secret` makes one.
        # Without it the build leaves threads out, and profiles offer no "Send a message" button.
        # Members-only groups (visibility: members) are published only with their passphrases: a
        # masked variable PLEIN_PASSPHRASE_<GROUP> for each, the group's folder name in capitals
        # with "_" for other characters than letters and digits (`plein help encryption`).
        image: \(ciImage)

        variables:
        \(pin.environment)
          PAGEFIND_VERSION: "\(pagefindVersion)"
          # The whole history: "edited" dates and feed updates come from commits.
          GIT_DEPTH: "0"

        default:
        \(pin.gitlabTags)  before_script:
        \((toolLines("ca-certificates curl git") + pin.installLines).map { "    - " + $0 }.joined(separator: "\n"))

        stages:
          - test
          - deploy
          - notify

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
          # Derived images from earlier runs: only new and changed photos are processed. The
          # feeds of the last deploy: the build lists those it changed (for WebSub).
          cache:
            key: plein-$PLEIN_VERSION
            paths:
              - .plein-cache/
              - public/**/*.xml
          script:
            - DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \(buildTools)
            - pip3 install --quiet --no-cache-dir --break-system-packages "pagefind-bin==$PAGEFIND_VERSION"
            - plein build --base-url "$CI_PAGES_URL/" --changed changed.txt
            - |
        \(block(websubListing(changed: "changed.txt", output: "websub.txt", base: "$CI_PAGES_URL"), indent: 6))
          artifacts:
            paths:
              - public
              - websub.txt

        # With `websub.hub` in site.yaml: the hub hears which feeds changed, and tells their
        # subscribers at once. (GitLab publishes Pages in a job of its own after this one's
        # stage begins: the hub is told a minute later, when the new feeds are live.)
        websub:
          stage: notify
          rules:
            - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
          needs: [pages]
          # (It reads websub.txt from the pages job: no checkout.)
          variables:
            GIT_STRATEGY: none
          before_script:
        \(toolLines("ca-certificates curl").map { "    - " + $0 }.joined(separator: "\n"))
          script:
            - |
              HUB=$(sed -n 's/^hub=//p' websub.txt)
              FEEDS=$(sed -n '/^feeds<<PLEIN_FEEDS$/,/^PLEIN_FEEDS$/p' websub.txt | sed '1d;$d')
              if [ -z "$HUB" ] || [ -z "$FEEDS" ]; then echo "no WebSub hub, or no feed changed"; exit 0; fi
              sleep 60
        \(block(websubPublish, indent: 6))

        """
    }
}
