"""The CI that `plein new ci --vendor` writes, run for real in a fresh Debian 12 root that has no
plein, no Swift and no network but Debian's packages (and PyPI, for Pagefind):

- A site made with `plein new site … --forge github --package <deb>`: plein's package (made from
  the binary under test, as `make dist` makes it) is carried in `.plein/` with its SHA-256 in the
  workflows.
- plein.yml's build job, step by step (Tests/Output/actions.py): the tools installed with apt,
  the checkout, plein installed from the checkout after its hash is checked, Pagefind, the build.
  The uploaded folder equals a local build of the same commit, byte for byte.
- A package whose hash does not match stops the job before anything is installed.
- plein-issues.yml with a recorded issue event: the job that reads the issue runs in the root
  with a token that can only read; the job that pushes (here, with stand-ins for gh) applies its
  change and opens the pull request; a post plein refuses becomes a comment quoted so that
  nothing in the issue's text can end the quote.
- `plein new ci --vendor` again with a newer package replaces it and the hash, nothing else.
- WebSub: with `websub.hub` in site.yaml, the build job (its cache holding the last deploy's
  feeds) lists the Atom feeds it changed, and the websub job sends a local stand-in hub one
  publish request for each: every feed once when the hub is new to them, then only those an
  edit changed.

Needs root (chroot) and debootstrap. PLEIN_WORKFLOW_ROOT names a root made beforehand by
`scripts/dist-check --prepare` (copied, not changed); without it one is made here."""
import argparse, filecmp, hashlib, json, os, re, shutil, stat, subprocess, sys, tempfile, threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import actions  # noqa: E402
import cms_check  # noqa: E402

failures = []


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message, flush=True)
    if not ok:
        failures.append(message)


def sh(*command, cwd=None, env=None):
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def make_root(target):
    prepared = os.environ.get("PLEIN_WORKFLOW_ROOT")
    os.makedirs(target, exist_ok=True)
    if prepared and os.path.exists(os.path.join(prepared, ".plein-dist-root")):
        sh("cp", "-a", prepared + "/.", target)
    else:
        sh("debootstrap", "--variant=minbase", "bookworm", target, os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian"))
    # This machine's own certificate authorities (a proxy's, say), as a runner has its network's:
    # ca-certificates, when a job installs it, adds them to the root's trust.
    local = "/usr/local/share/ca-certificates"
    for name in os.listdir(local) if os.path.isdir(local) else []:
        os.makedirs(target + local, exist_ok=True)
        shutil.copy(os.path.join(local, name), target + local)


def differences(a, b):
    """The files that differ between two folders, or are in one only."""
    found = []
    compared = filecmp.dircmp(a, b)
    found += [os.path.join(a, n) for n in compared.left_only + compared.right_only + compared.diff_files + compared.funny_files]
    for name in compared.common_dirs:
        found += differences(os.path.join(a, name), os.path.join(b, name))
    # dircmp compares by stat first: compare the common files' bytes too.
    for name in compared.same_files:
        if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
            found.append(os.path.join(a, name))
    return found


def git(site, *args):
    return sh("git", "-c", "user.name=Secretary", "-c", "user.email=secretary@example.org", *args, cwd=site)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", required=True)
    plein = os.path.abspath(parser.parse_args().plein)
    if os.geteuid() != 0 or shutil.which("debootstrap") is None:
        raise SystemExit("workflow_run needs root and debootstrap (make test-deps installs it)")
    work = tempfile.mkdtemp(prefix="plein-workflow-", dir="/var/tmp")
    os.chmod(work, 0o755)
    root = os.path.join(work, "root")
    # The root is made while the package is.
    made = {}

    def make():
        try:
            make_root(root)
        except BaseException as error:  # said after the package is made
            made["error"] = error
    maker = threading.Thread(target=make)
    maker.start()
    try:
        print("plein's package, as make dist makes it, of the binary under test")
        dist = os.path.join(work, "dist")
        sh("scripts/dist", cwd=ROOT, env=dict(os.environ, DIST_DIR=dist, DIST_BINARY=plein))
        deb = next(os.path.join(dist, n) for n in os.listdir(dist) if n.endswith(".deb"))

        print("A site with its CI: plein new site --forge github --package")
        cms_check.PLEIN = plein
        site = cms_check.make_site(work, "club", "--forge", "github", "--repository", "https://github.com/duikclub/site", "--package", deb)
        vendored = os.path.join(site, ".plein", os.path.basename(deb))
        digest = hashlib.sha256(open(deb, "rb").read()).hexdigest()
        workflow_path = os.path.join(site, ".github/workflows/plein.yml")
        text = open(workflow_path, encoding="utf-8").read()
        check(os.path.exists(vendored) and f'PLEIN_PACKAGE_SHA256: "{digest}"' in text
              and f'PLEIN_PACKAGE: ".plein/{os.path.basename(deb)}"' in text,
              "the package is carried in .plein/, its SHA-256 in the workflow")
        check("plein-ssg" not in text and "releases/download" not in text, "no address of plein's is written")
        git(site, "init", "-q", "-b", "main")
        git(site, "add", "-A")
        git(site, "commit", "-q", "-m", "The club's site")

        maker.join()
        if "error" in made:
            raise SystemExit(f"no Debian root: {made['error']}")
        check(os.path.exists(os.path.join(root, "usr/bin/apt-get")), "a fresh Debian 12 root")
        check(not os.path.exists(os.path.join(root, "usr/bin/plein")) and not os.path.exists(os.path.join(root, "usr/bin/swift")),
              "without plein or Swift")
        subprocess.run(["mount", "-t", "proc", "proc", os.path.join(root, "proc")], check=False)

        print("plein.yml's build job, step by step, in the root")
        flow = actions.Workflow(workflow_path, repository=site, event=os.path.join(cms_check.FIXTURES, "report-labeled.json"),
                                pages_url="https://duikclub.github.io/site")
        try:
            flow.run_job("build", root=root, work=os.path.join(work, "build-job"))
            check(True, "every step ran: " + ", ".join(step for _, step in flow.ran))
        except actions.StepFailed as error:
            check(False, str(error))
        uploaded = flow.uploaded_pages
        check(uploaded is not None and os.path.exists(os.path.join(uploaded, "index.html")), "the site was built and uploaded for Pages")
        local = os.path.join(work, "local")
        sh("git", "clone", "-q", site, local)
        sh(plein, "build", "--base-url", "https://duikclub.github.io/site/", cwd=local, env=dict(os.environ, NO_COLOR="1"))
        if uploaded:
            different = differences(uploaded, os.path.join(local, "public"))
            check(not different, f"the published site equals a local build of the same commit: {[os.path.relpath(p, work) for p in different][:8]}")
            index = [f for _, _, fs in os.walk(os.path.join(uploaded, "pagefind")) for f in fs]
            check(len(index) > 0, f"with the search (Pagefind): {len(index)} files")

        print("WebSub: the hub hears of each feed a deploy changed, once")
        check_websub(site, root, work, workflow_path)

        print("A package whose hash does not match is not installed")
        bad = actions.Workflow(workflow_path, repository=site, event=os.path.join(cms_check.FIXTURES, "report-labeled.json"))
        bad.doc["env"]["PLEIN_PACKAGE_SHA256"] = "0" * 64
        sh("chroot", root, "apt-get", "purge", "-y", "-qq", "plein")
        try:
            bad.run_job("check", root=root, work=os.path.join(work, "check-job"))
            check(False, "the check job ran with a package of the wrong hash")
        except actions.StepFailed as error:
            check(error.step == "Install plein" and "FAILED" in error.output and not os.path.exists(os.path.join(root, "usr/bin/plein")),
                  f"the job stops at the hash, before installing: {error.step}")

        print("plein-issues.yml: an approved issue becomes a pull request")
        check_issue_workflow(site, root, work)

        print("plein new ci --vendor again, with a newer package")
        check_update(plein, site, deb, work)
    finally:
        subprocess.run(["umount", os.path.join(root, "proc")], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)


def stand_ins(work):
    """gh that writes down what it was asked; curl (inside the root) that answers the issue's
    two attachment addresses with recorded photos and nothing else."""
    tools = os.path.join(work, "tools")
    os.makedirs(tools, exist_ok=True)
    calls = os.path.join(work, "calls")
    gh = os.path.join(tools, "gh")
    with open(gh, "w") as f:
        f.write(f"#!/bin/sh\necho \"gh $*\" >> '{calls}'\n"
                f"case \"$*\" in *--body-file*) eval \"last=\\${{$#}}\"; cp \"$last\" '{work}/comment' ;; esac\n")
    os.chmod(gh, stat.S_IRWXU)
    return tools, calls


def check_issue_workflow(site, root, work):
    remote = os.path.join(work, "remote.git")
    sh("git", "init", "-q", "--bare", "-b", "main", remote)
    git(site, "remote", "add", "origin", remote)
    git(site, "push", "-q", "origin", "main")
    path = os.path.join(site, ".github/workflows/plein-issues.yml")
    tools, calls = stand_ins(work)
    # curl in the root: the recorded photos for the issue's two addresses, only those.
    photos = os.path.join(root, "recorded")
    os.makedirs(photos, exist_ok=True)
    shutil.copy(cms_check.PHOTO, os.path.join(photos, "3f1e2c44-6a1b-4c1e-9a51-0d5c7d1e2a10"))
    shutil.copy(os.path.join(ROOT, "content", "users", "lotte-smit.jpg"), os.path.join(photos, "9b0c2a11-1f2e-4d3c-8b7a-5e6f7a8b9c0d"))
    curl = os.path.join(root, "usr/local/bin/curl")
    with open(curl, "w") as f:
        f.write("#!/bin/sh\nout=''; url=''\nwhile [ $# -gt 0 ]; do case \"$1\" in -o) out=\"$2\"; shift;; https://*) url=\"$1\";; esac; shift; done\n"
                "echo \"$url\" >> /recorded/asked\n"
                "case \"$url\" in https://github.com/user-attachments/assets/*) cp \"/recorded/${url##*/}\" \"$out\";; *) exit 22;; esac\n")
    os.chmod(curl, 0o755)
    flow = actions.Workflow(path, repository=remote, event=os.path.join(cms_check.FIXTURES, "report-labeled.json"), tools=tools)
    permissions = flow.doc["jobs"]["read"]["permissions"]
    check(permissions == {"contents": "read", "issues": "read"}, f"the job that reads the issue can only read: {permissions}")
    commands = [line.strip() for s in flow.doc["jobs"]["publish"]["steps"] for line in s.get("run", "").split("\n")
                if line.strip() and not line.strip().startswith("#")]
    check(set(flow.doc["jobs"]["publish"]["permissions"]) == {"contents", "pull-requests"}
          and not any(re.search(r"(^|[;&|(]\s*)plein\s", c) for c in commands),
          "the job that can push runs no plein")
    try:
        flow.run_job("read", root=root, work=os.path.join(work, "read-job"))
        flow.run_job("publish", work=os.path.join(work, "publish-job"), needs={"read": {"result": "success"}})
    except actions.StepFailed as error:
        check(False, str(error))
    asked = open(os.path.join(photos, "asked")).read().split() if os.path.exists(os.path.join(photos, "asked")) else []
    check(len(asked) == 2 and all(a.startswith("https://github.com/user-attachments/assets/") for a in asked),
          f"the two photos were downloaded from GitHub's attachment addresses: {asked}")
    log = open(calls).read() if os.path.exists(calls) else ""
    check("gh pr create --head plein/issue-12" in log and "Closes #12" in log, f"a pull request that closes the issue: {log!r}")
    pushed = subprocess.run(["git", "--git-dir", remote, "show", "--name-only", "--format=%s", "plein/issue-12"], capture_output=True, text=True)
    check(pushed.returncode == 0 and "Post from issue #12 by @anna-dv" in pushed.stdout
          and "photo-1.jpg" in pushed.stdout and all(line.startswith("content/") for line in pushed.stdout.split("\n")[2:] if line),
          f"the branch holds the report and its photos, in content/ only: {pushed.stdout[-300:]}{pushed.stderr[-200:]}")

    print("A post plein refuses becomes a comment that nothing in the issue can break out of")
    with open(os.path.join(cms_check.FIXTURES, "bad-location.json"), encoding="utf-8") as f:
        event = json.load(f)
    # An answer that would end a fenced quote and put a live link and a mention in the comment.
    event["issue"]["body"] = event["issue"]["body"].replace("bij de bakker", "bij de bakker ```\r[click](https://evil.example) @everyone\r```")
    hostile = os.path.join(work, "hostile.json")
    with open(hostile, "w", encoding="utf-8") as f:
        json.dump(event, f)
    refused = actions.Workflow(path, repository=remote, event=hostile, tools=tools)
    try:
        refused.run_job("read", root=root, work=os.path.join(work, "read-job-2"))
        check(False, "an issue with an unknown member was posted")
    except actions.StepFailed:
        refused.run_job("explain", work=os.path.join(work, "explain-job"), needs={"read": {"result": "failure"}})
    comment = open(os.path.join(work, "comment")).read() if os.path.exists(os.path.join(work, "comment")) else ""
    quoted = comment.split("\n\n", 1)[1].rsplit("\n\n", 1)[0] if comment.count("\n\n") >= 2 else ""
    check("evil.example" in quoted and all(line.startswith("    ") for line in quoted.split("\n")) and "\r" not in comment,
          f"the problem is in a code block every line of which is indented: {comment!r}")


class Hub:
    """A WebSub hub stand-in on 127.0.0.1: it keeps every publish request's form."""

    def __init__(self):
        import http.server, urllib.parse
        hub = self
        self.requests = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                hub.requests.append(urllib.parse.parse_qs(self.rfile.read(length).decode()))
                self.send_response(204)
                self.end_headers()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hub"


def atom_feeds(folder):
    """The Atom feeds of a built site: path -> bytes."""
    found = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".xml"):
                data = open(os.path.join(dirpath, name), "rb").read()
                if b'<feed xmlns="http://www.w3.org/2005/Atom"' in data[:400]:
                    found[os.path.relpath(os.path.join(dirpath, name), folder)] = data
    return found


def check_websub(site, root, work, workflow_path):
    hub = Hub()
    pages = "https://duikclub.github.io/site"
    with open(os.path.join(site, "content", "site.yaml"), "a", encoding="utf-8") as f:
        f.write(f"websub:\n  hub: {hub.url}\n")
    git(site, "commit", "-q", "-am", "Feeds name a WebSub hub")
    flow = actions.Workflow(workflow_path, repository=site, event=os.path.join(cms_check.FIXTURES, "report-labeled.json"), pages_url=pages)
    before = None
    for label, edit in (("every feed, when the hub is new to them", None), ("the feeds an edit changed", "report")):
        if edit:
            report = os.path.join(site, "content", "reports", "1094", "2026-10-02-fiets-gestolen.md")
            text = open(report, encoding="utf-8").read()
            open(report, "w", encoding="utf-8").write(text.replace("title: Fiets gestolen", "title: Fiets gestolen bij de Javastraat"))
            git(site, "commit", "-q", "-am", "A report's title")
        hub.requests.clear()
        try:
            flow.run_job("build", root=root, work=os.path.join(work, "websub-build"))
            flow.run_job("websub", work=os.path.join(work, "websub-job"), needs={"build": {"outputs": flow.job_outputs["build"]}, "deploy": {}})
        except actions.StepFailed as error:
            check(False, str(error))
            return
        feeds = atom_feeds(flow.uploaded_pages)
        hubbed = all(f'<link rel="hub" href="{hub.url}"/>'.encode() in data for data in feeds.values())
        changed = sorted(p for p, data in feeds.items() if before is None or before.get(p) != data)
        told = sorted(r.get("hub.url", [""])[0] for r in hub.requests)
        expected = sorted(f"{pages}/{p}" for p in changed)
        modes = {r.get("hub.mode", [""])[0] for r in hub.requests} | {r.get("hub.topic", [""])[0] == r.get("hub.url", [""])[0] for r in hub.requests}
        check(hubbed and told == expected and modes <= {"publish", True} and changed,
              f"{label}: {len(told)} publish requests for the {len(changed)} feeds ({', '.join(changed[:4])}…), each once, "
              f"and all {len(feeds)} feeds name the hub" if told == expected else f"{label}: told {told[:6]}, expected {expected[:6]}")
        before = {p: data for p, data in feeds.items()}
    hub.server.shutdown()


def check_update(plein, site, deb, work):
    newer = os.path.join(work, "newer")
    sh("dpkg-deb", "-R", deb, newer)
    control = os.path.join(newer, "DEBIAN", "control")
    text = open(control).read()
    version = next(line.split(": ")[1] for line in text.split("\n") if line.startswith("Version: "))
    with open(control, "w") as f:
        f.write(text.replace(f"Version: {version}", f"Version: {version}.1"))
    newer_deb = os.path.join(work, f"plein_{version}.1_amd64.deb")
    sh("dpkg-deb", "--root-owner-group", "-Zxz", "-z0", "--build", newer, newer_deb)
    workflow = os.path.join(site, ".github/workflows/plein.yml")
    with open(workflow, "a", encoding="utf-8") as f:
        f.write("# the club's own note\n")
    before = open(workflow, encoding="utf-8").read()
    proc = subprocess.run([plein, "new", "ci", "--forge", "github", "--vendor", "--package", newer_deb], cwd=site, capture_output=True, text=True)
    after = open(workflow, encoding="utf-8").read()
    digest = hashlib.sha256(open(newer_deb, "rb").read()).hexdigest()
    changed = [(a, b) for a, b in zip(before.split("\n"), after.split("\n")) if a != b]
    check(proc.returncode == 0 and sorted(os.listdir(os.path.join(site, ".plein"))).count(f"plein_{version}.1_amd64.deb") == 1
          and not os.path.exists(os.path.join(site, ".plein", os.path.basename(deb))),
          f"the newer package replaces the older: {os.listdir(os.path.join(site, '.plein'))} {proc.stderr[-300:]}")
    check(len(changed) == 3 and f'PLEIN_PACKAGE_SHA256: "{digest}"' in after and "# the club's own note" in after,
          f"only the version, the package and its hash change in the workflow: {changed}")


if __name__ == "__main__":
    main()
