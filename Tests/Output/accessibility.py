#!/usr/bin/env python3
"""axe-core in headless Chromium over one page of every kind of the demo site (and its thread
page): any serious or critical violation fails. The interactive maps are checked too: with
Leaflet, every report marker keeps its category's colour.

Usage: accessibility.py --plein PATH [--keep DIR]"""
import glob, argparse, functools, http.server, json, os, shutil, subprocess, sys, tempfile, threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402  (the media made once per test run)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL " + message)


def pages(site):
    """One page of every kind: (kind, site-relative path)."""
    def first(pattern_dir, depth_file="index.html", skip=()):
        base = os.path.join(site, pattern_dir)
        for name in sorted(os.listdir(base)):
            if name in skip or not os.path.isdir(os.path.join(base, name)):
                continue
            if os.path.exists(os.path.join(base, name, depth_file)):
                return f"{pattern_dir}/{name}/"
        raise SystemExit(f"no page under {pattern_dir}")
    member = first("users")
    group = first("groups")
    albums = os.path.join(site, group, "albums")
    album = None
    for g in sorted(os.listdir(os.path.join(site, "groups"))):
        folder = os.path.join(site, "groups", g, "albums")
        if os.path.isdir(folder) and os.listdir(folder):
            album = f"groups/{g}/albums/{sorted(os.listdir(folder))[0]}/"
            break
    photo = first(album.rstrip("/"))
    area = first("reports")
    report = first(area.rstrip("/"))
    progress = next(f"users/{m}/progress/" for m in sorted(os.listdir(os.path.join(site, "users")))
                    if os.path.exists(os.path.join(site, "users", m, "progress", "index.html")))
    found = [
        ("home", ""), ("members", "users/"), ("member", member), ("progress", progress), ("divers", "divers/"),
        ("groups", "groups/"), ("group", group), ("leaderboard", group + "leaderboard/"), ("album", album), ("photo", photo),
        ("areas", "reports/"), ("area", area), ("report", report), ("locations", "locations/"),
        ("location", first("locations")), ("now", "now/"), ("not found", "404.html"), ("offline", "offline/"), ("events", "events/"),
    ]
    if os.path.exists(os.path.join(site, "search", "index.html")):
        found.append(("search, with results", "search/?q=duiken"))
    for g in sorted(os.listdir(os.path.join(site, "groups"))):
        folder = os.path.join(site, "groups", g, "events")
        if os.path.isdir(folder) and os.listdir(folder):
            found.append(("event", f"groups/{g}/events/{sorted(os.listdir(folder))[0]}/"))
            break
    # An album video's page: the <video> player, its length and download link.
    for index in sorted(glob.glob(os.path.join(site, "groups", "*", "albums", "*", "*", "index.html"))):
        if "<video " in open(index, encoding="utf-8").read():
            found.append(("video", os.path.relpath(os.path.dirname(index), site) + "/"))
            break
    messages = os.path.join(site, "messages")
    if os.path.isdir(messages) and os.listdir(messages):
        found.append(("thread", f"messages/{sorted(os.listdir(messages))[0]}/"))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", required=True)
    parser.add_argument("--keep")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    from axe_playwright_python.sync_playwright import Axe

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("chromium is not installed (Debian package chromium)")
    tmp = tempfile.mkdtemp(prefix="plein-axe-")
    site = os.path.join(tmp, "public")
    env = dict(os.environ, PLEIN_SECRET="accessibility-check", NO_COLOR="1")
    built = subprocess.run([args.plein, "build", "--content", os.path.join(ROOT, "content"), "--templates",
                            os.path.join(ROOT, "templates"), "--output", site, "--base-url", "http://127.0.0.1:1/",
                            "--cache", media.seed(os.path.join(tmp, "cache"), args.plein)], capture_output=True, text=True, env=env)
    if built.returncode != 0:
        raise SystemExit("build failed:\n" + built.stderr)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    axe = Axe()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            # Tiles come from the network, which the checks do not use.
            page.route("**/*", lambda route: route.abort() if "127.0.0.1" not in route.request.url else route.continue_())
            kinds = pages(site)
            for kind, path in kinds:
                page.goto(f"http://127.0.0.1:{port}/{path}", wait_until="load")
                if path.startswith("search/"):
                    page.wait_for_selector(".search-result", timeout=20000)
                results = axe.run(page)
                serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
                for v in serious:
                    nodes = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:3])
                    fail(f"{kind} /{path}: {v['impact']} {v['id']}: {v['help']} ({nodes})")
                minor = [v["id"] + " " + "; ".join(str(n["target"]) for n in v["nodes"][:3]) for v in results.response["violations"] if v not in serious]
                if not serious:
                    print(f"ok   {kind} /{path}: no serious or critical violation" + (f" (minor: {', '.join(minor)})" if minor else ""))
            check_marker_colours(page, port, site)
            check_menu_fits(page, port)
            check_phone_width(page, port, kinds, args.keep)
            check_new_site(page, os.path.abspath(args.plein), tmp, env, args.keep)
            browser.close()
    finally:
        server.shutdown()
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.copytree(site, args.keep)
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{failures} accessibility check(s) failed")
        sys.exit(1)


def check_new_site(page, plein, tmp, env, keep):
    """A residents' association's site as `plein new site` makes it, with a page of its own, a
    member, a group and a report: every page at a phone's width and the menu at every width."""
    made = subprocess.run([plein, "new", "site", "residents", "--title", "Elm Street and Cotham Hill Residents' Association", "--language", "en",
                           "--timezone", "Europe/London", "--sections", "members,groups,reports"], cwd=tmp, capture_output=True, text=True, env=env)
    if made.returncode != 0:
        fail(f"plein new site: {made.stderr[-300:]}")
        return
    content = os.path.join(tmp, "residents", "content")
    files = {
        "pages/how-to-join.md": "---\ntitle: How to join\n---\nCome to a meeting.\n",
        "users/joan-price.md": "---\nname: Joan Price\n---\nSecretary.\n",
        "groups/street-party/index.md": "---\nname: Street party\nmembers: [joan-price]\n---\nThe summer party.\n",
        "reports/bs6/area.yaml": "name: Cotham\n",
        "reports/bs6/2026-11-02-dark-lamp-post.md": "---\ntitle: Dark lamp post\ncategory: attention\nat: 2026-11-02T21:00:00Z\n"
                                                   "author: joan-price\nlocation: {lat: 51.4643, lon: -2.6019}\n---\nThe lamp outside number 12 is out.\n",
    }
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(content, name)), exist_ok=True)
        with open(os.path.join(content, name), "w", encoding="utf-8") as f:
            f.write(text)
    public = os.path.join(tmp, "residents-public")
    built = subprocess.run([plein, "build", "--content", content, "--output", public, "--base-url", "http://127.0.0.1:1/"],
                           capture_output=True, text=True, env=dict(env, PLEIN_PAGEFIND="none"))
    if built.returncode != 0:
        fail(f"the residents' site does not build: {built.stderr[-300:]}")
        return

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=public))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        kinds = sorted((os.path.relpath(d, public).replace(os.sep, "-").strip(".") or "home", (os.path.relpath(d, public) + "/").lstrip("./"))
                       for d, _, names in os.walk(public) if "index.html" in names and not os.path.relpath(d, public).startswith("admin"))
        check_menu_fits(page, port, label="a new residents' site")
        check_phone_width(page, port, kinds, keep and keep.rstrip("/") + "-residents", retitle=False, label="a new residents' site")
    finally:
        server.shutdown()


def check_phone_width(page, port, kinds, keep, retitle=True, label="the demo"):
    """At a phone's width (390 px), no page kind is wider than the screen, with the site's title
    as long as a residents' association's: the title wraps rather than pushing the page sideways.
    A screenshot of each is kept beside --keep's folder, to look at."""
    page.set_viewport_size({"width": 390, "height": 844})
    # Kept to look at: beside --keep's folder, else in .build/screenshots/ (make test's run).
    shots = (keep.rstrip("/") + "-phone") if keep else os.path.join(ROOT, ".build", "screenshots", label.replace("'", "").replace(" ", "-") + "-phone")
    if shots:
        os.makedirs(shots, exist_ok=True)
    wide = []
    for kind, path in kinds:
        page.goto(f"http://127.0.0.1:{port}/{path}", wait_until="load")
        over = page.evaluate("""(retitle) => {
            if (retitle) document.querySelector('.brand').textContent = "Elm Street and Cotham Hill Residents' Association";
            const brand = document.querySelector('.brand').getBoundingClientRect();
            return {page: document.documentElement.scrollWidth - innerWidth, brand: brand.right - innerWidth};
        }""", retitle)
        if over["page"] > 0 or over["brand"] > 0:
            wide.append(f"{kind} /{path} (page {over['page']} px, title {over['brand']:.0f} px too wide)")
        if shots:
            page.screenshot(path=os.path.join(shots, kind.replace(" ", "-") + ".png"))
    if wide:
        fail(f"{label}: at 390 px wider than the screen: {wide}")
    else:
        print(f"ok   {label}: at 390 px none of {len(kinds)} page kinds is wider than the screen, with a long site title (screenshots in {shots})")
    page.set_viewport_size({"width": 1280, "height": 720})


def check_menu_fits(page, port, label="the demo"):
    """Every link of the menu (the sections and the site's own pages) is shown whole at every
    width: on a phone (390 px) none is scrolled out of sight or off the screen; at the widths of a
    laptop and a desktop none is cut off or under the search box, and from 1,280 px the menu is one
    row beside the brand and the search box."""
    for width in (390, 960, 1280, 1440):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/", wait_until="load")
        found = page.evaluate("""() => {
            const search = document.querySelector('.site-search')?.getBoundingClientRect();
            const navBox = document.querySelector('.site-nav');
            const nav = navBox.getBoundingClientRect();
            const overlaps = (a, b) => b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            const links = [...document.querySelectorAll('.site-nav a')];
            const hidden = links.filter(a => {
                const r = a.getBoundingClientRect();
                return r.width === 0 || r.left < Math.max(0, nav.left - 12) - 0.5 || r.right > nav.right + 0.5 || r.right > innerWidth || overlaps(r, search);
            }).map(a => a.textContent.trim());
            const rows = new Set(links.map(a => Math.round(a.getBoundingClientRect().top))).size;
            return {hidden, rows, scrolls: navBox.scrollWidth > navBox.clientWidth + 1, count: links.length};
        }""")
        if found["hidden"] or found["scrolls"]:
            fail(f"{label}: at {width} px the menu hides {found['hidden']}" + (" (it scrolls sideways)" if found["scrolls"] else ""))
        elif width >= 1280 and found["rows"] > 1:
            fail(f"{label}: at {width} px the menu wraps onto {found['rows']} rows")
        else:
            print(f"ok   {label}: at {width} px all {found['count']} menu links show whole" + (", in one row" if width >= 1280 else ""))
    page.set_viewport_size({"width": 1280, "height": 720})


def check_marker_colours(page, port, site):
    """With Leaflet, the interactive map of an area keeps each report's category colour."""
    def colours(area):
        data = json.load(open(os.path.join(site, "reports", area, "map.geojson"), encoding="utf-8"))
        return {f["properties"]["marker-color"] for f in data["features"] if f["geometry"]["type"] == "Point"}
    areas = [d for d in sorted(os.listdir(os.path.join(site, "reports"))) if os.path.exists(os.path.join(site, "reports", d, "map.geojson"))]
    area = max(areas, key=lambda a: len(colours(a)))
    expected = colours(area)
    if len(expected) < 2:
        fail("no demo area holds reports of two categories")
        return
    page.goto(f"http://127.0.0.1:{port}/reports/{area}/", wait_until="load")
    page.wait_for_function("document.querySelectorAll('.map-live path.leaflet-interactive').length > 1", timeout=15000)
    page.wait_for_timeout(300)
    fills = set(page.eval_on_selector_all(".map-live path.leaflet-interactive", "ps => ps.map(p => p.getAttribute('fill'))"))
    if not expected <= fills:
        fail(f"reports/{area}/: interactive markers are drawn in {sorted(fills)}, not the category colours {sorted(expected)}")
    else:
        print(f"ok   the interactive map of reports/{area}/ draws markers in {len(expected)} category colours")


if __name__ == "__main__":
    main()
