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
        ("location", first("locations")), ("now", "now/"), ("not found", "404.html"), ("events", "events/"),
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


def check_phone_width(page, port, kinds, keep):
    """At a phone's width (390 px), no page kind is wider than the screen, with the site's title
    as long as a residents' association's: the title wraps rather than pushing the page sideways.
    A screenshot of each is kept beside --keep's folder, to look at."""
    page.set_viewport_size({"width": 390, "height": 844})
    shots = (keep.rstrip("/") + "-phone") if keep else None
    if shots:
        os.makedirs(shots, exist_ok=True)
    wide = []
    for kind, path in kinds:
        page.goto(f"http://127.0.0.1:{port}/{path}", wait_until="load")
        over = page.evaluate("""() => {
            document.querySelector('.brand').textContent = "Elm Street and Cotham Hill Residents' Association";
            const brand = document.querySelector('.brand').getBoundingClientRect();
            return {page: document.documentElement.scrollWidth - innerWidth, brand: brand.right - innerWidth};
        }""")
        if over["page"] > 0 or over["brand"] > 0:
            wide.append(f"{kind} /{path} (page {over['page']} px, title {over['brand']:.0f} px too wide)")
        if shots:
            page.screenshot(path=os.path.join(shots, kind.replace(" ", "-") + ".png"))
    if wide:
        fail(f"at 390 px wider than the screen: {wide}")
    else:
        print(f"ok   at 390 px none of {len(kinds)} page kinds is wider than the screen, with a long site title")
    page.set_viewport_size({"width": 1280, "height": 720})


def check_menu_fits(page, port):
    """At the widths of a laptop and a desktop, every link of the menu (the sections and the
    site's own pages) is shown whole: none is cut off, scrolled away or under the search box."""
    for width in (960, 1280, 1440):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/", wait_until="load")
        hidden = page.evaluate("""() => {
            const search = document.querySelector('.site-search').getBoundingClientRect();
            const nav = document.querySelector('.site-nav').getBoundingClientRect();
            const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            return [...document.querySelectorAll('.site-nav a')].filter(a => {
                const r = a.getBoundingClientRect();
                return r.width === 0 || r.left < nav.left - 0.5 || r.right > nav.right + 0.5 || r.right > innerWidth || overlaps(r, search);
            }).map(a => a.textContent.trim());
        }""")
        count = page.eval_on_selector_all(".site-nav a", "as => as.length")
        if hidden:
            fail(f"at {width} px the menu cuts off {hidden}")
        else:
            print(f"ok   at {width} px all {count} menu links show whole")
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
