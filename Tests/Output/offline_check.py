#!/usr/bin/env python3
"""The site as an app, as a member's phone uses it: the demo built under a base URL with a path
(`/club/`), with its members-only group, served locally and opened in headless Chromium.

- The manifest is linked from every page, valid against the Web App Manifest's JSON Schema
  (SchemaStore's, vendored in schemas/), its icons are PNGs of the sizes it says, its shortcuts
  lead to pages of the site, and Chromium finds it and calls the site installable.
- The service worker registers with the site's path as its scope and takes control.
- A report visited, then the connection lost (`set_offline`, and the server refusing every
  connection): the report shows again with a note that says how old the copy is; one of the
  newest reports, never visited, shows too (kept from the first visit); a page never visited
  shows the offline page, in the site's language. axe-core finds nothing serious on either.
- The members-only group opened with its passphrase: no word of it, and not the passphrase, is
  in any cache (Cache Storage, read entry by entry).
- A new build with a report's text changed: once online, the report shows the new text.
- `plein serve`'s pages register no worker, and its sw.js takes a worker away.

Usage: offline_check.py --plein PATH"""
import argparse, functools, http.server, json, os, re, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE_PATH = "/club/"
GROUP = "zeehond-leden"
PASSPHRASE = "kelder-fles-ventiel-lamp-2027"
ENV = {"PLEIN_PASSPHRASE_ZEEHOND_LEDEN": PASSPHRASE, "NO_COLOR": "1", "PLEIN_SECRET": "offline-check-secret"}
# Words of the members-only group (as sealed_check.py knows them), which no cache may hold.
WORDS = ["Bestuurskamer", "Flessenkelder", "Materiaaldag", "Voorjaarsvergadering", "hydrostatische", "vulcompressor", PASSPHRASE]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def ok(message):
    print("ok   " + message)


class Site:
    """The built site served at BASE_PATH on 127.0.0.1; `down` makes it refuse every request as
    a lost connection would (the socket is closed without an answer)."""

    def __init__(self, folder):
        site = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def handle_one_request(self):
                if site.down:
                    self.close_connection = True
                    try:
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    except OSError:
                        pass
                    return
                super().handle_one_request()

            def translate_path(self, path):
                if not path.startswith(BASE_PATH):
                    return os.path.join(folder, "-nothing-")
                return super().translate_path("/" + path[len(BASE_PATH):])

        self.down = False
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"


def build(plein, content, output, cache, base, templates=os.path.join(ROOT, "templates")):
    media.seed(cache, plein)
    proc = subprocess.run([plein, "build", "--content", content, "--templates", templates, "--output", output,
                           "--cache", cache, "--base-url", base, "--no-history"],
                          capture_output=True, text=True, env=dict(os.environ, **ENV), timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"plein build failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def check_files(site):
    """The manifest against the schema, its icons and shortcuts, and its link on every page."""
    import jsonschema
    schema = json.load(open(os.path.join(ROOT, "Tests", "Output", "schemas", "web-manifest.json")))
    manifest = json.load(open(os.path.join(site, "manifest.webmanifest")))
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(manifest), key=str)
    for error in errors:
        fail(f"manifest.webmanifest: {error.message} at {list(error.path)}")
    if not errors:
        ok("manifest.webmanifest is valid against SchemaStore's Web App Manifest schema")
    for field in ("start_url", "scope", "id"):
        if manifest.get(field) != BASE_PATH:
            fail(f"the manifest's {field} is {manifest.get(field)!r}, not the site's path {BASE_PATH!r}")
    sizes = set()
    for icon in manifest.get("icons", []):
        path = os.path.join(site, icon["src"][len(BASE_PATH):])
        size = png_size(path) if os.path.exists(path) else None
        if size is None or f"{size[0]}x{size[1]}" != icon["sizes"]:
            fail(f"the icon {icon['src']} is {size}, not a PNG of {icon['sizes']}")
        sizes.add(icon["sizes"])
    if not any(icon.get("purpose") == "maskable" for icon in manifest.get("icons", [])):
        fail("the manifest has no maskable icon (Android cuts an icon to its own shape)")
    if not {"192x192", "512x512"} <= sizes:
        fail(f"the manifest's icons are {sorted(sizes)}: a phone asks for 192 and 512 pixels")
    for shortcut in manifest.get("shortcuts", []):
        target = os.path.join(site, shortcut["url"][len(BASE_PATH):], "index.html")
        if not os.path.exists(target):
            fail(f"the shortcut {shortcut['name']!r} leads to {shortcut['url']}, which is no page")
    if not errors and sizes:
        ok(f"its icons are PNGs of {', '.join(sorted(sizes))}, one of them maskable; shortcuts: {', '.join(s['name'] for s in manifest.get('shortcuts', []))}")
    pages = linked = 0
    for folder, _, files in os.walk(site):
        for name in files:
            if not name.endswith(".html") or os.path.relpath(folder, site).split(os.sep)[0] in ("admin", "pagefind"):
                continue
            pages += 1
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            if f'<link rel="manifest" href="{BASE_PATH}manifest.webmanifest" data-worker="{BASE_PATH}sw.js" data-scope="{BASE_PATH}">' in text:
                linked += 1
            else:
                fail(f"{os.path.relpath(os.path.join(folder, name), site)} does not link the manifest and its worker")
    if pages and linked == pages:
        ok(f"all {pages} pages link the manifest and the worker")
    return json.loads(re.search(r"self\.plein = (\{.*?\n\});", open(os.path.join(site, "sw.js")).read(), re.S).group(1))


def cache_texts(page):
    """Every entry of every cache of the page's origin: (cache, URL, body as text)."""
    return page.evaluate("""async () => {
        const out = [];
        for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
                const response = await cache.match(request);
                out.push([name, request.url, await response.text()]);
            }
        }
        return out;
    }""")


def check_browser(site, server, config, content, work, plein, base):
    from playwright.sync_api import sync_playwright
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    origin = server.origin
    home = origin + BASE_PATH

    def serious(page, what):
        found = [f"{v['impact']} {v['id']}: {v['help']}" for v in axe.run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        for v in found:
            fail(f"{what}: {v}")
        if not found:
            ok(f"axe-core: nothing serious on {what}")

    # A report that is not among those kept from the first visit, and a page never visited.
    kept = set(config["pages"])
    reports = sorted(os.path.relpath(d, site) for d, _, f in os.walk(os.path.join(site, "reports")) if "index.html" in f
                     and os.path.relpath(d, site).count(os.sep) == 2)
    visited = next(BASE_PATH + r + "/" for r in reports if BASE_PATH + r + "/" not in kept)
    newest = next(p for p in config["pages"] if "/reports/" in p)
    unvisited = BASE_PATH + "users/"
    with sync_playwright() as p:
        # (A profile of its own: Chromium calls no site installable in an incognito window.)
        context = p.chromium.launch_persistent_context(os.path.join(work, "profile"), executable_path=shutil.which("chromium"),
                                                       args=["--no-sandbox", "--disable-gpu"])
        page = context.pages[0] if context.pages else context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(home, wait_until="load")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        if scope != home:
            fail(f"the service worker's scope is {scope!r}, not {home!r}")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
        ok(f"the service worker registers at {scope} and takes control")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        if manifest.get("errors") or not manifest.get("url", "").endswith(BASE_PATH + "manifest.webmanifest"):
            fail(f"Chromium's reading of the manifest: {manifest.get('url')} {manifest.get('errors')}")
        installability = cdp.send("Page.getInstallabilityErrors").get("installabilityErrors", [])
        if installability:
            fail(f"Chromium does not call the site installable: {installability}")
        else:
            ok("Chromium finds the manifest without errors and calls the site installable")
        # The pages kept from the first visit are in the cache once the worker is installed.
        page.wait_for_function("""async (n) => {
            const names = await caches.keys();
            const pages = names.find(n => n.endsWith(':pages'));
            return pages && (await (await caches.open(pages)).keys()).length >= n;
        }""", arg=len(config["pages"]), timeout=60000, polling=250)
        page.goto(origin + visited, wait_until="load")
        title = page.inner_text("main h1")
        # The members-only group, opened with its passphrase.
        page.goto(origin + BASE_PATH + f"groups/{GROUP}/", wait_until="load")
        page.wait_for_selector(".sealed-form:not([hidden])")
        page.fill("#sealed-passphrase", PASSPHRASE)
        page.click(".sealed-form button[type=submit]")
        page.wait_for_selector("h1:has-text('Zeehond Bestuurskamer')", timeout=30000)
        time.sleep(0.5)
        entries = cache_texts(page)
        leaks = [(name, url, w) for name, url, text in entries for w in WORDS if w.lower() in text.lower()]
        for name, url, word in leaks:
            fail(f"the cache {name} holds {word!r} in {url}")
        if not leaks:
            ok(f"after the members-only group was opened, none of its words nor its passphrase is in the {len(entries)} cached responses")

        # No connection.
        server.down = True
        context.set_offline(True)
        page.goto(origin + visited, wait_until="load")
        note = page.locator(".offline-copy")
        if page.inner_text("main h1") != title or note.count() != 1:
            fail(f"offline, the visited report {visited} shows {page.inner_text('main h1')!r} with {note.count()} notes")
        else:
            text = note.inner_text()
            if "offline" not in text or not re.search(r"geleden|nu|seconde|minuut", text):
                fail(f"the offline note says {text!r}: not how old the copy is")
            else:
                ok(f"offline, the visited report shows again with the note {text!r}")
            serious(page, "a report read offline")
        page.goto(origin + newest, wait_until="load")
        if page.locator(".offline-copy").count() != 1 or page.locator("article.report").count() != 1:
            fail(f"offline, the newest report {newest}, never visited, does not show from the cache")
        else:
            ok(f"offline, the newest report, never visited, shows from the cache ({page.inner_text('main h1')!r})")
        page.goto(origin + unvisited, wait_until="load")
        if page.locator("section.offline h1").count() != 1:
            fail(f"offline, the page never visited {unvisited} shows {page.inner_text('body')[:200]!r}, not the offline page")
        else:
            ok(f"offline, a page never visited shows the offline page: {page.inner_text('section.offline h1')!r}")
            serious(page, "the offline page")

        # A new build with the visited report's text changed, then online again.
        source = next(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(content, "reports")) for f in fs
                      if f.endswith(".md") and "/replies/" not in dp
                      and (visited[len(BASE_PATH) + len("reports/"):].rstrip("/").split("/")[1] in f
                           or visited.rstrip("/").endswith(os.path.basename(dp))))
        with open(source, "a", encoding="utf-8") as f:
            f.write("\nDe gemeente heeft gereageerd: het wordt deze week opgelost.\n")
        build(plein, content, site, os.path.join(work, "cache"), base)
        context.set_offline(False)
        server.down = False
        page.goto(origin + visited, wait_until="load")
        body = page.inner_text("main")
        if "het wordt deze week opgelost" not in body or page.locator(".offline-copy").count():
            fail("online after a new build, the changed report does not show its new text")
        else:
            ok("online after a new build, the changed report shows its new text, without the offline note")

        # A new theme (another stylesheet: a new shell, a new worker), then offline again: a page
        # kept before it still has the stylesheet it names.
        theme = os.path.join(work, "theme")
        shutil.copytree(os.path.join(ROOT, "templates"), theme)
        with open(os.path.join(theme, "assets", "style.css"), "a", encoding="utf-8") as f:
            f.write("\n/* another theme */\n")
        old_version = config["version"]
        build(plein, content, site, os.path.join(work, "cache"), base, templates=theme)
        new_version = json.loads(re.search(r"self\.plein = (\{.*?\n\});", open(os.path.join(site, "sw.js")).read(), re.S).group(1))["version"]
        page.goto(home, wait_until="load")
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        page.wait_for_function("""async (version) => (await caches.keys()).some(k => k.endsWith(':shell:' + version))
                                   && !(await caches.keys()).some(k => k.includes(':shell:') && !k.endsWith(':shell:' + version))""",
                               arg=new_version, timeout=60000, polling=250)
        server.down = True
        context.set_offline(True)
        page.goto(origin + newest, wait_until="load")
        styled = page.evaluate("""() => [...document.styleSheets].some(s => { try { return s.cssRules.length > 100; } catch (e) { return false; } })""")
        if new_version == old_version or not styled:
            fail(f"after a new theme (version {old_version} → {new_version}), a page kept before it shows offline without its stylesheet")
        else:
            ok("after a new theme the old shell is gone, and a page kept before it still shows offline with its stylesheet")
        context.set_offline(False)
        server.down = False
        if errors:
            fail("script errors: " + "; ".join(errors))
        context.close()


def check_serve(plein, content, work):
    """`plein serve`: its pages register no worker, and its sw.js takes one away."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([plein, "serve", "--content", content, "--templates", os.path.join(ROOT, "templates"), "--port", str(port),
                             "--cache", os.path.join(work, "serve-cache"), "--output", os.path.join(work, "serve-public")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"), start_new_session=True)
    try:
        deadline = time.time() + 300
        while True:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
                break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise SystemExit("plein serve did not answer:\n" + proc.stdout.read().decode(errors="replace") if proc.poll() is not None else "")
                time.sleep(0.5)
        worker = urllib.request.urlopen(f"http://127.0.0.1:{port}/sw.js", timeout=5).read().decode()
        if "data-worker" in page or 'rel="manifest"' not in page:
            fail("plein serve's home page registers a service worker, or links no manifest")
        elif "unregister()" not in worker or "importScripts" in worker:
            fail("plein serve's sw.js does not take a worker away")
        else:
            ok("plein serve's pages register no worker, and its sw.js takes one away with its caches")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def main():
    global PLEIN
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", required=True)
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    work = tempfile.mkdtemp(prefix="plein-offline-")
    try:
        content = os.path.join(work, "content")
        shutil.copytree(os.path.join(ROOT, "content"), content)
        site_folder = os.path.join(work, "public")
        server = Site(site_folder)
        base = server.origin + BASE_PATH
        build(plein, content, site_folder, os.path.join(work, "cache"), base)
        config = check_files(site_folder)
        check_browser(site_folder, server, config, content, work, plein, base)
        check_serve(plein, os.path.join(ROOT, "content"), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("offline check passed")


if __name__ == "__main__":
    main()
