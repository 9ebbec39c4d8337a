import Foundation
import PleinCore

extension Scaffold {
    /// The labels the issue workflow uses: the one a maintainer adds to approve a post, and the
    /// forms' own. The workflow creates them when it is first pushed.
    static let issueLabels: [(name: String, color: String, description: String)] = [
        ("approved", "0e8a16", "A maintainer read this post: plein turns it into a pull request"),
    ] + IssueForm.Kind.allCases.map { ($0.label, "c5def5", "A \($0.rawValue) posted with plein's issue form") }

    /// The workflow that turns an approved issue into a checked pull request. Whatever reads the
    /// issue's text runs with a token that can only read; the job that pushes and opens the pull
    /// request runs no plein, only git on the change the first job made.
    static func issueWorkflow(pin: PackagePin, site: SiteConfig) -> String {
        """
        # Turns an approved issue form (a report, a reply or an event) into a pull request. Written by
        # `plein new ci`; `plein help members-without-git` says more.
        #
        # A member fills in a form (Issues → New issue). A maintainer reads it and adds the label
        # "approved": this workflow then writes the content file (with the photos), checks it with
        # `plein check --format github` and opens a pull request that closes the issue. When the
        # answers cannot be posted, it says why in a comment on the issue; edit the issue, then take
        # the label off and add it again.
        #
        # Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests"
        # must be on. The labels are created when this file is first pushed (job "labels"). A pull
        # request opened with the workflow's own token starts no other workflow: the check runs
        # here, before the pull request is opened.
        #
        # The issue's text is never run: it reaches plein only as the event's JSON file, in a job
        # whose token can only read. The job that can push runs no plein: it applies the change the
        # first job made, which may touch content/ only.
        #
        \(pin.comment)
        #
        # Every action is pinned to the commit of its release (the tag is in the comment beside it).
        name: plein issues

        on:
          issues:
            types: [labeled]
          push:
            branches: [\(site.repositoryBranch)]
            paths: [.github/workflows/plein-issues.yml]
          workflow_dispatch:

        # Each job says what its token may do; the rest may do nothing.
        permissions: {}

        concurrency:
          group: plein-issue-${{ github.event.issue.number || github.ref }}

        env:
        \(pin.environment)

        jobs:
          labels:
            if: github.event_name != 'issues'
            runs-on: ubuntu-24.04
            permissions:
              issues: write
            steps:
              - name: Create the labels the forms and the maintainers use
                env:
                  GH_TOKEN: ${{ github.token }}
                  GH_REPO: ${{ github.repository }}
                run: |
        \(block(issueLabels.map { "gh label create \($0.name) --force --color \($0.color) --description \"\($0.description)\"" }))

          read:
            if: github.event_name == 'issues' && github.event.label.name == 'approved' && github.event.issue.state == 'open'
            runs-on: \(pin.runner)
            container: \(ciImage)
            permissions:
              contents: read
              issues: read
            steps:
        \(setUpSteps(pin: pin, name: "Install git", tools: "ca-certificates curl git"))
              - name: Download the photos
                env:
                  # Only to GitHub's own attachment addresses, which plein lists normalised.
                  GH_TOKEN: ${{ github.token }}
                run: |
                  mkdir -p "$RUNNER_TEMP/attachments" "$RUNNER_TEMP/problem"
                  plein new from-issue "$GITHUB_EVENT_PATH" --list-attachments 2> "$RUNNER_TEMP/problem/text" > "$RUNNER_TEMP/list"
                  while read -r name url; do
                    curl -fsSL --proto =https --max-redirs 3 --max-filesize 67108864 -H "Authorization: Bearer $GH_TOKEN" -o "$RUNNER_TEMP/attachments/$name" "$url"
                  done < "$RUNNER_TEMP/list"
              - name: Write the content files
                run: plein new from-issue "$GITHUB_EVENT_PATH" --attachments "$RUNNER_TEMP/attachments" 2> "$RUNNER_TEMP/problem/text"
              - name: Check the content
                run: plein check --format github || { plein check > "$RUNNER_TEMP/problem/text" 2>&1; exit 1; }
              - name: Keep the change for the job that pushes it
                run: |
                  mkdir -p "$RUNNER_TEMP/post"
                  git add -A -- content
                  git diff --cached --binary > "$RUNNER_TEMP/post/change.patch"
              - uses: \(uses("actions/upload-artifact"))
                with:
                  name: post
                  path: ${{ runner.temp }}/post
                  retention-days: 1
              - if: failure()
                uses: \(uses("actions/upload-artifact"))
                with:
                  name: problem
                  path: ${{ runner.temp }}/problem
                  retention-days: 1
                  if-no-files-found: ignore

          publish:
            needs: read
            runs-on: ubuntu-24.04
            permissions:
              contents: write
              pull-requests: write
            steps:
              - uses: \(uses("actions/checkout"))
                with:
                  persist-credentials: false
              - uses: \(uses("actions/download-artifact"))
                with:
                  name: post
                  path: ${{ runner.temp }}/post
              - name: Open a pull request
                env:
                  GH_TOKEN: ${{ github.token }}
                  GH_REPO: ${{ github.repository }}
                  NUMBER: ${{ github.event.issue.number }}
                  AUTHOR: ${{ github.event.issue.user.login }}
                run: |
                  branch="plein/issue-$NUMBER"
                  git checkout -b "$branch"
                  git apply --index "$RUNNER_TEMP/post/change.patch"
                  # plein new from-issue writes content files only: anything else was not its doing.
                  if git diff --cached --name-only | grep -v '^content/'; then
                    echo "the change reaches outside content/: not pushed" >&2
                    exit 1
                  fi
                  git config user.name "github-actions[bot]"
                  git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
                  git commit -q -m "Post from issue #$NUMBER by @$AUTHOR"
                  auth=$(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)
                  git -c "http.https://github.com/.extraheader=AUTHORIZATION: basic $auth" push --force origin "$branch"
                  gh pr create --head "$branch" --title "Post from issue #$NUMBER" \\
                    --body "From #$NUMBER by @$AUTHOR, approved by a maintainer; checked by plein check. Closes #$NUMBER."

          explain:
            needs: read
            if: failure() && needs.read.result == 'failure'
            runs-on: ubuntu-24.04
            permissions:
              issues: write
            steps:
              - uses: \(uses("actions/download-artifact"))
                continue-on-error: true
                with:
                  name: problem
                  path: ${{ runner.temp }}/problem
              - name: Say on the issue what was wrong
                env:
                  GH_TOKEN: ${{ github.token }}
                  GH_REPO: ${{ github.repository }}
                  NUMBER: ${{ github.event.issue.number }}
                run: |
                  {
                    echo "plein could not post this issue:"
                    echo
                    # Every line indented: a code block that nothing in the text can close, so no
                    # link or mention from the issue is live in the comment.
                    if [ -s "$RUNNER_TEMP/problem/text" ]; then
                      tr -d '\\r' < "$RUNNER_TEMP/problem/text" | sed 's/^/    /'
                    else
                      echo "    (the workflow run says why)"
                    fi
                    echo
                    echo "Edit the issue, then take the label approved off and add it again."
                  } > "$RUNNER_TEMP/comment"
                  gh issue comment "$NUMBER" --body-file "$RUNNER_TEMP/comment"

        """
    }
}
