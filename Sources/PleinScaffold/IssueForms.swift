import Foundation
public import PleinCore
import PleinTheme
import Yams

extension Scaffold {
    /// A GitHub issue form members post with from a phone (`.github/ISSUE_TEMPLATE/`), and what
    /// `plein new from-issue` reads back from an issue made with it: the answers under the
    /// labels of its fields, as GitHub writes them into the issue's body.
    public struct IssueForm: Sendable {
        public enum Kind: String, Sendable, CaseIterable {
            case report, reply, event

            /// The form's file, and the label it puts on its issues.
            public var file: String { ".github/ISSUE_TEMPLATE/plein-\(rawValue).yml" }
            public var label: String { "plein-\(rawValue)" }
        }

        public struct Item: Sendable {
            public enum Control: String, Sendable { case input, textarea, dropdown }
            public let id: String
            public let control: Control
            public let label: String
            public let description: String
            public let required: Bool
            public var options: [String] = []
        }

        public let kind: Kind
        public let name: String
        public let about: String
        public let items: [Item]

        /// The forms for a site: a report (with its categories), a reply, an event; each only when
        /// the site has the section it posts into.
        public static func forms(for site: SiteConfig) -> [IssueForm] {
            let member = Item(id: "member", control: .input, label: "Your member id",
                              description: "As in the address of your page on the site: /users/<id>/.", required: true)
            var forms: [IssueForm] = []
            if site.has(.reports) {
                let words = categoryLabels(site: site)
                forms.append(IssueForm(kind: .report, name: "New report", about: "Report something in the neighbourhood, with photos if you like.", items: [
                    member,
                    Item(id: "area", control: .input, label: "Area", description: "The area's id, as in its address on the site: /reports/<area>/ (often the postcode).", required: true),
                    Item(id: "title", control: .input, label: "Title", description: "A short title.", required: true),
                    Item(id: "category", control: .dropdown, label: "Category", description: "What kind of report it is.", required: true,
                         options: site.categories.map { words[$0]! }),
                    Item(id: "at", control: .input, label: "When", description: "When it happened: YYYY-MM-DD HH:MM. Leave it empty for when you post this.", required: false),
                    Item(id: "location", control: .input, label: "Where",
                         description: "Latitude, longitude, e.g. 52.3631, 4.9402 (a map app shows them when you press the place).", required: true),
                    Item(id: "text", control: .textarea, label: "What happened", description: "The report. Markdown works.", required: true),
                    Item(id: "photos", control: .textarea, label: "Photos",
                         description: "Drag or paste photos here (JPEG, PNG or WebP). They are published without their location data.", required: false),
                ]))
                forms.append(IssueForm(kind: .reply, name: "Reply to a report", about: "Reply to a report on the site.", items: [
                    member,
                    Item(id: "report", control: .input, label: "Report",
                         description: "The report's address on the site, or its id: <area>/<date>-<title>.", required: true),
                    Item(id: "text", control: .textarea, label: "Your reply", description: "Markdown works.", required: true),
                ]))
            }
            if site.has(.groups) {
                forms.append(IssueForm(kind: .event, name: "New event", about: "Announce something your group does: a dive trip, a study session.", items: [
                    member,
                    Item(id: "group", control: .input, label: "Group", description: "The group's id, as in its address on the site: /groups/<group>/.", required: true),
                    Item(id: "title", control: .input, label: "Title", description: "What happens.", required: true),
                    Item(id: "starts", control: .input, label: "Starts", description: "YYYY-MM-DD HH:MM, or YYYY-MM-DD for a whole day.", required: true),
                    Item(id: "ends", control: .input, label: "Ends", description: "YYYY-MM-DD HH:MM, or the last day. May be left empty.", required: false),
                    Item(id: "place", control: .input, label: "Place", description: "Where: a place the site knows, or any text.", required: false),
                    Item(id: "text", control: .textarea, label: "About it", description: "Markdown works.", required: false),
                ]))
            }
            return forms
        }

        /// The site's categories as its pages name them (its own `labels`, else the theme's words in
        /// its language), so members choose from the words they know.
        public static func categoryLabels(site: SiteConfig) -> [Category: String] {
            let theme = BuiltInTheme.files["i18n/\(site.language.rawValue).yaml"]
                .flatMap { try? Yams.load(yaml: String(decoding: $0, as: UTF8.self)) as? [String: Any] } ?? [:]
            var labels: [Category: String] = [:]
            for category in site.categories {
                let key = "category_" + category.rawValue
                labels[category] = site.labels[key] ?? theme[key] as? String ?? category.rawValue
            }
            return labels
        }

        /// The category an answer names: its id, or its label on the site.
        public static func category(_ answer: String, site: SiteConfig) -> String {
            let given = answer.trimmingCharacters(in: .whitespaces).lowercased()
            let labels = categoryLabels(site: site)
            return site.categories.first { $0.rawValue == given || labels[$0]?.lowercased() == given }?.rawValue ?? given
        }

        /// The form as GitHub reads it (`.github/ISSUE_TEMPLATE/*.yml`).
        public var yaml: String {
            var out = """
                # Written by `plein new ci`. An issue made with this form is published once a maintainer
                # adds the label "approved": a workflow (.github/workflows/plein-issues.yml) turns it into
                # a pull request. The labels below may be translated: plein reads them from this file.
                name: \(quote(name))
                description: \(quote(about))
                title: \(quote(name + ": "))
                labels: [\(quote(kind.label))]
                body:
                  - type: markdown
                    attributes:
                      value: \(quote("A maintainer reads this before it is published. Everything you write here is public."))

                """
            for item in items {
                out += """
                      - type: \(item.control.rawValue)
                        id: \(item.id)
                        attributes:
                          label: \(quote(item.label))
                          description: \(quote(item.description))

                    """
                if !item.options.isEmpty {
                    out += "      options:\n" + item.options.map { "        - \(quote($0))\n" }.joined()
                }
                out += "    validations:\n      required: \(item.required)\n"
            }
            return out
        }
    }

    /// Writes the issue forms and the workflow that turns an approved issue into a checked pull
    /// request, into `folder` (the root of the site's repository). Existing files are kept.
    static func issueForms(at folder: String, site: SiteConfig, version: String, package: PackageSource) throws(Failure) -> [String] {
        let forms = IssueForm.forms(for: site)
        guard !forms.isEmpty else { return [] }
        var written: [String] = []
        for form in forms {
            written.append(try writeNew(folder + "/" + form.kind.file, Array(form.yaml.utf8)))
        }
        written.append(try writeNew(folder + "/.github/ISSUE_TEMPLATE/config.yml", Array("""
            # Written by `plein new ci`: members choose one of the forms (blank issues stay possible).
            blank_issues_enabled: true

            """.utf8)))
        written.append(try writeNew(folder + "/.github/workflows/plein-issues.yml", Array(issueWorkflow(version: version, package: package).utf8)))
        return written
    }

    static func issueWorkflow(version: String, package: PackageSource) -> String {
        """
        # Turns an approved issue form (a report, a reply or an event) into a pull request. Written by
        # `plein new ci`; see docs/members-without-git.md.
        #
        # A member fills in a form (Issues → New issue). A maintainer reads it and adds the label
        # "approved": this workflow then writes the content file (with the photos), checks it with
        # `plein check --format github` and opens a pull request that closes the issue. When the
        # answers cannot be posted, it says why in a comment on the issue; edit the issue, then take
        # the label off and add it again.
        #
        # Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests"
        # must be on. A pull request opened with the workflow's own token starts no other workflow:
        # the check runs here, before the pull request is opened.
        #
        # The issue's text is never run: it reaches plein only as the event's JSON file.
        name: plein issues

        on:
          issues:
            types: [labeled]

        permissions:
          contents: write
          pull-requests: write
          issues: write

        concurrency:
          group: plein-issue-${{ github.event.issue.number }}

        env:
          PLEIN_VERSION: "\(version)"
          PLEIN_PACKAGE_URL: "\(package.url)"

        jobs:
          post:
            if: github.event.label.name == 'approved' && github.event.issue.state == 'open'
            runs-on: ubuntu-24.04
            container: \(ciImage)
            steps:
        \(installStep(tools: "ca-certificates curl git gh", package: package))
              - uses: actions/checkout@v4.2.2
              - run: git config --global --add safe.directory "$GITHUB_WORKSPACE"
              - name: Download the photos
                env:
                  GH_TOKEN: ${{ github.token }}
                run: |
                  mkdir -p "$RUNNER_TEMP/attachments"
                  plein new from-issue "$GITHUB_EVENT_PATH" --list-attachments 2> "$RUNNER_TEMP/problem" > "$RUNNER_TEMP/list"
                  while read -r name url; do
                    curl -fsSL --max-filesize 67108864 -H "Authorization: Bearer $GH_TOKEN" -o "$RUNNER_TEMP/attachments/$name" "$url"
                  done < "$RUNNER_TEMP/list"
              - name: Write the content files
                run: plein new from-issue "$GITHUB_EVENT_PATH" --attachments "$RUNNER_TEMP/attachments" 2> "$RUNNER_TEMP/problem"
              - name: Check the content
                run: plein check --format github || { plein check > "$RUNNER_TEMP/problem" 2>&1; exit 1; }
              - name: Open a pull request
                env:
                  GH_TOKEN: ${{ github.token }}
                  NUMBER: ${{ github.event.issue.number }}
                  AUTHOR: ${{ github.event.issue.user.login }}
                run: |
                  branch="plein/issue-$NUMBER"
                  git config user.name "github-actions[bot]"
                  git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
                  git checkout -b "$branch"
                  git add -- content
                  git commit -q -m "Post from issue #$NUMBER by @$AUTHOR"
                  git push --force origin "$branch"
                  gh pr create --head "$branch" --title "Post from issue #$NUMBER" \\
                    --body "From #$NUMBER by @$AUTHOR, approved by a maintainer; checked by plein check. Closes #$NUMBER."
              - name: Say on the issue what was wrong
                if: failure()
                env:
                  GH_TOKEN: ${{ github.token }}
                  NUMBER: ${{ github.event.issue.number }}
                run: |
                  {
                    echo "plein could not post this issue:"
                    echo
                    echo '```'
                    cat "$RUNNER_TEMP/problem" 2>/dev/null || echo "see the workflow run"
                    echo '```'
                    echo
                    echo "Edit the issue, then take the label approved off and add it again."
                  } > "$RUNNER_TEMP/comment"
                  gh issue comment "$NUMBER" --body-file "$RUNNER_TEMP/comment"

        """
    }
}
