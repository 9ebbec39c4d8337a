#!/usr/bin/env python3
"""A members-only group (`visibility: members`) as its members, the public and the host see it.

- A second, independent implementation of docs/encryption.md (Python's `cryptography`) opens
  every sealed output of the demo's members-only group: its pages and every photo, poster and
  video. The same files do not open with another passphrase.
- Without the passphrase nothing of the group is in the output: no word, caption, name, file
  name or EXIF field of it, no hash of its files and no run of their bytes, in any file (the
  search index's files decompressed) or file name.
- Two builds are byte-identical; after an edit of one event only that event's page changes.
- Message threads the same way: each thread's page opens with the key its link carries after
  `#` (HMAC-SHA256 of the build's secret), and no word of any thread is anywhere in the clear.
- Headless Chromium: a wrong passphrase is refused with a message; the right one opens the
  group's page, its album with its photos, and the video's page, whose video plays; "remember"
  keeps the group open after a reload, "lock and forget" locks it again. axe-core finds no
  serious or critical violation on the locked and the opened page.

    python3 Tests/Output/sealed_check.py --plein .build/release/plein
"""
import argparse, gzip, hashlib, os, re, shutil, subprocess, sys, tempfile

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import localsite, media  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GROUP = "zeehond-leden"
PASSPHRASE = "kelder-fles-ventiel-lamp-2027"
SECRET = "sealed-check-secret"
ENV = {"PLEIN_PASSPHRASE_ZEEHOND_LEDEN": PASSPHRASE, "NO_COLOR": "1", "PLEIN_SECRET": SECRET}
BASE = "http://127.0.0.1:1/"
MAGIC = b"plnseal1"
# What the group's files say, which must be nowhere in the open: its name, titles, captions,
# places and words of its texts, its files' names, and the EXIF its phone wrote.
WORDS = ["Bestuurskamer", "Flessenkelder", "Materiaaldag", "materiaaldag", "Voorjaarsvergadering", "Brandaris", "Kronenburg",
         "hydrostatische", "pakkingen", "vulcompressor", "Tweeëntwintig", "flessen-op-rij", "lampen-nalopen", "ventielen-smeren",
         "compressor-proefdraaien", "ledenvergadering-maart", "vulcompressor-keuren", "Fairphone", "FP5 Werkplaats",
         "Materiaalmeester", "52.3632", "4.9387"]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def build(content, output, cache, env=ENV, extra=()):
    proc = subprocess.run([PLEIN, "build", "--content", content, "--templates", os.path.join(ROOT, "templates"), "--output", output,
                           "--cache", cache, "--base-url", BASE, "--no-history", *extra],
                          capture_output=True, text=True, env=dict(os.environ, **env), timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"plein build failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


# docs/encryption.md, step by step.
def group_key(passphrase, group, iterations=600_000):
    salt = hashlib.sha256(b"plein sealed group v1\0" + BASE.encode() + b"\0" + group.encode()).digest()[:16]
    return salt, PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations).derive(passphrase.encode())


def open_sealed(key, envelope, path):
    """The plaintext of a sealed output at `path`, or None when it does not open."""
    if len(envelope) < 8 + 32 + 16 or envelope[:8] != MAGIC:
        return None
    output_id = envelope[8:40]
    output_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=output_id,
                      info=b"plein sealed output v1\0" + path.encode()).derive(key)
    try:
        plain = AESGCM(output_key).decrypt(b"\0" * 12, envelope[40:], MAGIC)
    except InvalidTag:
        return None
    # The id is what it says: HMAC-SHA256 under the id key, of the path and the plaintext.
    id_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"plein sealed id v1").derive(key)
    mac = hmac.HMAC(id_key, hashes.SHA256())
    mac.update(path.encode() + b"\0" + plain)
    if mac.finalize() != output_id:
        fail(f"{path}: its id is not HMAC-SHA256(id key, path, plaintext)")
    return plain


def sealed_page(html):
    """The path, salt, iterations and envelope of a sealed page (a thread's has no salt: 0 iterations)."""
    import base64
    form = re.search(r'<form class="sealed-form"[^>]*>', html)
    envelope = re.search(r'<script type="application/octet-stream" id="sealed-envelope">([^<]+)</script>', html)
    if not form or not envelope:
        return None
    attributes = dict(re.findall(r'(data-[a-z]+)="([^"]*)"', form.group(0)))
    return (attributes.get("data-path"), base64.b64decode(attributes.get("data-salt", "")), int(attributes.get("data-iterations", "0")),
            base64.b64decode(envelope.group(1)))


def files(site):
    for base, _, names in os.walk(site):
        for name in names:
            path = os.path.join(base, name)
            yield os.path.relpath(path, site), path


def loaded_in_clear(html):
    """What an opened page makes the browser fetch as it is, beside the theme's own files: the
    images, sources and posters that are not sealed files. Each is a line in the host's logs."""
    urls = re.findall(r'<(?:img|source|video|audio|track)\b[^>]*?\s(?:src|poster)="([^"]+)"', html)
    for srcset in re.findall(r'\ssrcset="([^"]+)"', html):
        urls += [candidate.strip().split()[0] for candidate in srcset.split(",") if candidate.strip()]
    return sorted({url for url in urls if not re.search(r"/sealed/[0-9a-f]{32}\.bin$", url) and not url.startswith(("data:", "blob:"))
                   and "/assets/" not in url})


def check_opens(site):
    """Every file of the group opens with the passphrase, and none with another; returns the
    plaintexts by path."""
    salt, key = group_key(PASSPHRASE, GROUP)
    _, wrong = group_key(PASSPHRASE + "x", GROUP)
    opened, pages = {}, 0
    folder = os.path.join(site, "groups", GROUP)
    for rel, path in files(folder):
        rel = f"groups/{GROUP}/{rel}"
        data = open(path, "rb").read()
        if rel.endswith(".html"):
            parsed = sealed_page(data.decode())
            if not parsed:
                fail(f"{rel}: a page of the members-only group that is not sealed")
                continue
            data_path, page_salt, iterations, envelope = parsed
            if data_path != rel or page_salt != salt or iterations != 600_000:
                fail(f"{rel}: data-path {data_path}, salt or iterations ({iterations}) are not the documented ones")
            pages += 1
        elif rel.endswith(".bin"):
            envelope = data
        else:
            fail(f"{rel}: a file of the members-only group that is neither a sealed page nor a sealed file")
            continue
        plain = open_sealed(key, envelope, rel)
        if plain is None:
            fail(f"{rel}: does not open with the group's passphrase")
            continue
        if open_sealed(wrong, envelope, rel) is not None:
            fail(f"{rel}: opens with another passphrase")
        opened[rel] = plain
    kinds = {"page": 0, "jpeg": 0, "webp": 0, "avif": 0, "mp4": 0}
    for rel, plain in opened.items():
        if rel.endswith(".html"):
            kinds["page"] += 1
            if not plain.startswith(b"<!DOCTYPE html>"):
                fail(f"{rel}: its plaintext is not an HTML page")
        elif plain[:3] == b"\xff\xd8\xff":
            kinds["jpeg"] += 1
        elif plain[:4] == b"RIFF" and plain[8:12] == b"WEBP":
            kinds["webp"] += 1
        elif plain[4:12] in (b"ftypavif", b"ftypavis"):
            kinds["avif"] += 1
        elif plain[4:8] == b"ftyp":
            kinds["mp4"] += 1
        else:
            fail(f"{rel}: its plaintext is no image or video")
    text = b"".join(p for r, p in opened.items() if r.endswith(".html")).decode()
    for needed in ("Zeehond Bestuurskamer", "Materiaaldag in de Flessenkelder", "Voorjaarsvergadering in de Flessenkelder",
                   "Vulcompressor laten keuren door Brandaris", "Tweeëntwintig flessen op rij", "<video"):
        if needed not in text:
            fail(f"the opened pages do not show {needed!r}")
    # Nothing an opened page shows is fetched in the clear: a member's avatar would put who is in
    # the group into the host's logs.
    for rel, plain in opened.items():
        if rel.endswith(".html") and (clear := loaded_in_clear(plain.decode())):
            fail(f"{rel}: the opened page fetches {clear[:3]} in the clear")
    if "avatar-initials" not in text:
        fail("the opened pages show no member (their initials, in place of their avatars)")
    # Every sealed file an opened page names is there, and opens.
    for url in set(re.findall(r'/groups/' + GROUP + r'/sealed/[0-9a-f]{32}(?:\.bin|/)', text)):
        rel = url.lstrip("/") + ("index.html" if url.endswith("/") else "")
        if rel not in opened:
            fail(f"an opened page links {url}, which is not a sealed file of the group")
    if kinds["page"] < 7 or kinds["webp"] < 4 or kinds["mp4"] != 1 or kinds["jpeg"] < 1:
        fail(f"expected the group's page, leaderboard, album, 4 photo pages and event, its photos and its video; opened {kinds}")
    print(f"ok   {len(opened)} sealed files open with the passphrase and not without: {kinds}")
    return opened


def threads():
    """Each thread of the demo: its page's path, the key its link carries, and words of it."""
    import base64, yaml
    found = []
    folder = os.path.join(ROOT, "content", "threads")
    for thread in sorted(os.listdir(folder)):
        key_hex = hmac_sha256(SECRET.encode(), thread.encode()).hex()[:32]
        link_key = hmac_sha256(SECRET.encode(), b"plein thread key v1\0" + thread.encode())
        subject = yaml.safe_load(open(os.path.join(folder, thread, "thread.yaml"), encoding="utf-8"))["subject"]
        words = [subject]
        for name in sorted(os.listdir(os.path.join(folder, thread))):
            if name.endswith(".md"):
                body = open(os.path.join(folder, thread, name), encoding="utf-8").read().split("---", 2)[-1]
                words += [line.strip()[:40] for line in body.splitlines() if len(line.strip()) > 30][:1]
        found.append((f"messages/{key_hex}/index.html", link_key, base64.urlsafe_b64encode(link_key).rstrip(b"=").decode(), words))
    return found


def hmac_sha256(key, message):
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(message)
    return mac.finalize()


def check_threads(site):
    """Every thread's page opens with its link's key, and with nothing else."""
    _, group = group_key(PASSPHRASE, GROUP)
    before = len(failures)
    for path, key, _, words in threads():
        parsed = sealed_page(open(os.path.join(site, path), encoding="utf-8").read())
        if not parsed:
            fail(f"{path}: a thread's page that is not sealed")
            continue
        plain = open_sealed(key, parsed[3], path)
        if plain is None or words[0].replace("'", "&#39;").encode() not in plain:
            fail(f"{path}: does not open with the key its link carries, or does not hold its subject")
        if open_sealed(group, parsed[3], path) is not None:
            fail(f"{path}: opens with another key")
        if plain is not None and (clear := loaded_in_clear(plain.decode())):
            fail(f"{path}: the opened thread fetches {clear[:3]} in the clear (who writes in it)")
        if os.path.exists(os.path.join(site, os.path.dirname(path), "feed.xml")):
            fail(f"{path}: the thread has a feed, which its readers could not open")
        # The sealed shell keeps the site's frame, as every page has it: navigation, a
        # description and the site's feed.
        shell = open(os.path.join(site, path), encoding="utf-8").read()
        if not ('<nav' in shell and '<meta name="description" content="' in shell
                and re.search(r'<link rel="alternate" type="application/atom\+xml"[^>]*href="[^"]*/feed\.xml"', shell)):
            fail(f"{path}: the sealed page lacks the site's navigation, description or feed link")
    if len(failures) == before:
        print(f"ok   {len(threads())} threads open with the key in their links, with nothing else, and have no feed")


def check_nothing_leaks(site, opened):
    """Nothing of the group outside its sealed files: words, hashes, bytes."""
    album = os.path.join(ROOT, "content", "groups", GROUP, "albums", "materiaaldag")
    hashes_ = []
    for name in sorted(os.listdir(album)):
        if name != "index.md":
            digest = hashlib.sha256(open(os.path.join(album, name), "rb").read()).hexdigest()
            hashes_ += [digest, digest[:16]]
    needles = [w.encode() for w in WORDS] + [h.encode() for h in hashes_]
    needles += [w.encode() for _, _, _, words in threads() for w in words]
    # Runs of the bytes of every photo, poster and video made for the group, and of the originals.
    samples = []
    blobs = [p for r, p in opened.items() if not r.endswith(".html")]
    blobs += [open(os.path.join(album, n), "rb").read() for n in os.listdir(album) if n != "index.md"]
    for blob in blobs:
        for at in (len(blob) // 3, len(blob) // 2, 2 * len(blob) // 3):
            samples.append(blob[at:at + 48])
    scanned = searched = 0
    for rel, path in files(site):
        if rel.startswith(f"groups/{GROUP}/"):
            continue
        data = open(path, "rb").read()
        if path.endswith((".pf_meta", ".pf_fragment", ".pf_index", ".pf_filter")) or data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
                searched += rel.startswith("pagefind/")
            except OSError:
                pass
        scanned += 1
        for needle in needles:
            if needle in data or needle in rel.encode():
                fail(f"{rel}: holds {needle.decode()!r}, of the members-only group")
        for sample in samples:
            if sample in data:
                fail(f"{rel}: holds bytes of a photo or video of the members-only group")
                break
    # The group's own sealed files: nothing in the clear but the group's folder name.
    for rel, path in files(os.path.join(site, "groups", GROUP)):
        data = open(path, "rb").read()
        for needle in needles:
            if needle in data or needle in rel.encode():
                fail(f"groups/{GROUP}/{rel}: holds {needle.decode()!r} in the clear")
    if searched == 0:
        fail("the site has no search index to look into (Pagefind is installed by make test)")
    print(f"ok   none of {len(needles)} words and hashes, nor any run of the group's media, in {scanned} other files "
          f"({searched} of the search index decompressed)")


def check_deterministic(site, tmp):
    again = os.path.join(tmp, "again")
    build(os.path.join(ROOT, "content"), again, media.seed(os.path.join(tmp, "cache-again"), PLEIN))
    first = dict((r, open(p, "rb").read()) for r, p in files(site))
    second = dict((r, open(p, "rb").read()) for r, p in files(again))
    differ = sorted(r for r in set(first) | set(second) if first.get(r) != second.get(r))
    if differ:
        fail(f"two builds differ in {len(differ)} files: {differ[:5]}")
    else:
        print(f"ok   two builds are byte-identical ({len(first)} files)")


def check_edit(tmp):
    """After an edit of the event's text, only the event's sealed page changes."""
    content = os.path.join(tmp, "content")
    shutil.copytree(os.path.join(ROOT, "content"), content, symlinks=True)
    site, cache = os.path.join(tmp, "edited"), media.seed(os.path.join(tmp, "cache-edit"), PLEIN)
    build(content, site, cache)
    before = dict((r, open(p, "rb").read()) for r, p in files(site))
    event = os.path.join(content, "groups", GROUP, "events", "ledenvergadering-maart.md")
    with open(event, "a", encoding="utf-8") as f:
        f.write("Koffie staat klaar vanaf half acht.\n")
    build(content, site, cache)
    after = dict((r, open(p, "rb").read()) for r, p in files(site))
    changed = sorted(r for r in set(before) | set(after) if before.get(r) != after.get(r))
    _, key = group_key(PASSPHRASE, GROUP)
    sealed = [r for r in changed if r.startswith(f"groups/{GROUP}/")]
    opened = [open_sealed(key, sealed_page(after[r].decode())[3], r) for r in sealed if r.endswith(".html")]
    if len(sealed) != 1 or not opened or b"half acht" not in opened[0]:
        fail(f"an edit of one event changed {changed} (expected its sealed page alone)")
    else:
        print(f"ok   an edit of the event sealed its page again and nothing else of the group ({len(changed)} files changed)")


def check_browser(site, opened):
    from playwright.sync_api import sync_playwright
    from axe_playwright_python.sync_playwright import Axe

    server = localsite.serve(site)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    group = f"{origin}/groups/{GROUP}/"
    album = next(re.search(r'href="(/groups/' + GROUP + r'/sealed/[0-9a-f]{32}/)"[^>]*>\s*(?:<[^>]+>\s*)*Materiaaldag', p.decode()).group(1)
                 for r, p in opened.items() if r == f"groups/{GROUP}/index.html")
    axe = Axe()

    def serious(page, what):
        results = axe.run(page)
        for v in results.response["violations"]:
            if v["impact"] in ("serious", "critical"):
                fail(f"{what}: {v['impact']} {v['id']}: {v['help']}")

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context()
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(group, wait_until="load")
            page.wait_for_selector(".sealed-form:not([hidden])")
            serious(page, "the locked page")
            page.fill("#sealed-passphrase", "not-the-passphrase-of-this-group")
            page.click(".sealed-form button[type=submit]")
            page.wait_for_function("document.querySelector('.sealed-status').textContent.length > 20", timeout=30000)
            status = page.inner_text(".sealed-status")
            if "passphrase" not in status.lower() and "wachtwoord" not in status.lower():
                fail(f"a wrong passphrase gave the message {status!r}")
            elif page.evaluate("location.search + location.hash"):
                fail("the passphrase form was sent: the address holds " + page.evaluate("location.search"))
            else:
                print(f"ok   a wrong passphrase is refused: {status!r}")
            page.fill("#sealed-passphrase", PASSPHRASE)
            page.click(".sealed-form button[type=submit]")
            page.wait_for_selector("h1:has-text('Zeehond Bestuurskamer')", timeout=30000)
            serious(page, "the opened group page")
            print("ok   the passphrase opens the group's page")
            check_forged(page, site)
            page.click(f"a[href='{album}']")
            page.wait_for_selector("h1:has-text('Materiaaldag in de Flessenkelder')", timeout=30000)
            page.wait_for_function("[...document.querySelectorAll('main img')].length >= 4 && "
                                   "[...document.querySelectorAll('main img')].every(i => i.complete && i.naturalWidth > 0)", timeout=30000)
            shown = page.evaluate("[...document.querySelectorAll('main img')].map(i => i.src.slice(0, 5))")
            if any(s != "blob:" for s in shown):
                fail(f"the album's images are not the opened ones: {shown}")
            else:
                print(f"ok   the album opens in place with its {len(shown)} photos")
            video_page = next("/" + r[:-len("index.html")] for r, p in opened.items() if r.endswith(".html") and b"<video" in p)
            page.click(f"main a[href='{video_page}']")
            page.wait_for_selector("video", timeout=30000)
            page.wait_for_function("document.querySelector('video source') && document.querySelector('video source').src.startsWith('blob:')",
                                   timeout=30000)
            duration = page.evaluate("""new Promise(done => { const v = document.querySelector('video');
                if (v.readyState >= 1) done(v.duration); v.addEventListener('loadedmetadata', () => done(v.duration));
                v.addEventListener('error', () => done(-1)); v.load(); })""")
            if not duration or duration <= 0:
                fail(f"the members-only video does not play (duration {duration})")
            else:
                print(f"ok   the video's page opens, and its video loads ({duration:.1f} s)")
            page.reload(wait_until="load")
            page.wait_for_selector(".sealed-form:not([hidden])")
            print("ok   not remembered: a reload shows the locked page")
            page.goto(group, wait_until="load")
            page.fill("#sealed-passphrase", PASSPHRASE)
            page.check("#sealed-remember")
            page.click(".sealed-form button[type=submit]")
            page.wait_for_selector("h1:has-text('Zeehond Bestuurskamer')", timeout=30000)
            page.goto(group, wait_until="load")
            page.wait_for_selector("h1:has-text('Zeehond Bestuurskamer')", timeout=30000)
            stored = page.evaluate("""new Promise(done => { const r = indexedDB.open('plein-sealed');
                r.onsuccess = () => { const q = r.result.transaction('keys').objectStore('keys').getAll();
                  q.onsuccess = () => done(q.result.map(k => [k.constructor.name, k.extractable, k.algorithm.name])); }; })""")
            local = page.evaluate("JSON.stringify(Object.assign({}, localStorage, sessionStorage))")
            if stored != [["CryptoKey", False, "HKDF"]] or PASSPHRASE in local:
                fail(f"remembering kept {stored} in IndexedDB and {local} in storage (expected one non-extractable key)")
            else:
                print("ok   remembered: a new visit opens by itself, with one non-extractable CryptoKey in IndexedDB")
            page.click(".sealed-forget")
            page.wait_for_selector(".sealed-form:not([hidden])", timeout=30000)
            page.goto(group, wait_until="load")
            page.wait_for_selector(".sealed-form:not([hidden])")
            if page.query_selector("h1:has-text('Zeehond Bestuurskamer')"):
                fail("after 'lock and forget' the group still opens by itself")
            else:
                print("ok   'lock and forget' locks the group again")
            # A sealed page served at another address than its own is not opened.
            moved = os.path.join(site, "groups", GROUP, "moved")
            os.makedirs(moved, exist_ok=True)
            shutil.copy(os.path.join(site, "groups", GROUP, "index.html"), os.path.join(moved, "index.html"))
            page.goto(f"{group}moved/", wait_until="load")
            page.wait_for_function("document.querySelector('.sealed-status').textContent.length > 20", timeout=30000)
            if page.is_enabled("#sealed-passphrase"):
                page.fill("#sealed-passphrase", PASSPHRASE)
                page.click(".sealed-form button[type=submit]")
                page.wait_for_timeout(3000)
            if page.query_selector("h1:has-text('Zeehond Bestuurskamer')") or page.evaluate("location.search"):
                fail("a sealed page served at another address than its own opened, or sent its form")
            else:
                print("ok   a sealed page served at another address than its own is refused")
            shutil.rmtree(moved)
            path, _, fragment, words = threads()[0]
            page.goto(f"{origin}/{path[:-len('index.html')]}#{fragment}", wait_until="load")
            page.wait_for_selector("h1:has-text('" + words[0][:20] + "')", timeout=30000)
            serious(page, "an opened thread")
            page.focus(".skip-link")
            page.keyboard.press("Enter")
            page.wait_for_timeout(500)
            if page.evaluate("location.hash") != "#" + fragment or not page.query_selector("h1:has-text('" + words[0][:20] + "')"):
                fail("following a link within an opened thread lost its key from the address, or closed it")
            page.goto(f"{origin}/{path[:-len('index.html')]}", wait_until="load")
            page.wait_for_function("document.querySelector('.sealed-status').textContent.length > 20", timeout=30000)
            if page.query_selector(".sealed-form input"):
                fail("a thread's locked page asks for a passphrase")
            print("ok   a thread opens from its full link, and without the part after '#' says what is needed")
            if errors:
                fail(f"script errors: {errors}")
            browser.close()
    finally:
        server.shutdown()


def seal(key, plain, path):
    """What plein's sealing makes of `plain` at `path` (SealedGroup.seal), for forging a page."""
    id_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"plein sealed id v1").derive(key)
    mac = hmac.HMAC(id_key, hashes.SHA256())
    mac.update(path.encode() + b"\0" + plain)
    output_id = mac.finalize()
    output_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=output_id, info=b"plein sealed output v1\0" + path.encode()).derive(key)
    return MAGIC + output_id + AESGCM(output_key).encrypt(b"\0" * 12, plain, MAGIC)


def check_forged(page, site):
    """A member who has the group's passphrase forges a sealed page (with a script) for an address
    of their making, publishes it as a report's attachment, and links it from the group as
    /groups/<g>/%2F..%2F..%2Freports/…: on a host that decodes %2F before it resolves `..` (as
    this test server does) the link fetches the attachment. It must not open (issue 58)."""
    import base64
    _, key = group_key(PASSPHRASE, GROUP)
    attack = f"groups/{GROUP}//../../reports/1094/forged.txt"
    plain = b"<!DOCTYPE html><html><head><script>window.forged = 1</script></head><body><main id='main'><h1>Forged</h1></main></body></html>"
    locked = open(os.path.join(site, "groups", GROUP, "index.html"), encoding="utf-8").read()
    forged = re.sub(r'data-path="[^"]*"', f'data-path="{attack}"', locked, count=1)
    forged = re.sub(r'(<script type="application/octet-stream" id="sealed-envelope">)[^<]+', lambda m: m.group(1) + base64.b64encode(seal(key, plain, attack)).decode(), forged)
    target = os.path.join(site, "reports", "1094", "forged.txt")
    with open(target, "w", encoding="utf-8") as f:
        f.write(forged)
    try:
        page.evaluate("""() => { const a = document.createElement('a');
            a.href = '/groups/""" + GROUP + """/%2F..%2F..%2Freports/1094/forged.txt'; a.textContent = 'minutes';
            document.getElementById('main').appendChild(a); a.click(); }""")
        page.wait_for_timeout(3000)
        ran = page.evaluate("window.forged === 1") if not page.is_closed() else False
        if ran or page.query_selector("h1:has-text('Forged')"):
            fail("a page forged with the group's key and published at another address ran its script in the site")
        else:
            print("ok   a page forged with the group's key, fetched through an encoded slash, is not opened")
    finally:
        os.remove(target)
        # Back to the opened group page, for the checks after this one.
        page.goto(f"http://127.0.0.1:{page.url.split(':')[2].split('/')[0]}/groups/{GROUP}/", wait_until="load")
        page.fill("#sealed-passphrase", PASSPHRASE)
        page.click(".sealed-form button[type=submit]")
        page.wait_for_selector("h1:has-text('Zeehond Bestuurskamer')", timeout=30000)


def check_weak_secrets(tmp):
    """A weak thread secret or passphrase is refused with its reason, in build and in check
    alike (issue 58): anyone who guesses the secret finds every thread offline."""
    def run(*args, env):
        proc = subprocess.run([PLEIN, *args], capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1", **env), timeout=600)
        return proc.returncode, proc.stdout + proc.stderr
    content = os.path.join(ROOT, "content")
    weak_out = os.path.join(tmp, "weak")
    for secret in ("a", "password-password", "abcdefghijklmnop"):
        code, out = run("build", "--content", content, "--output", weak_out, "--cache", os.path.join(tmp, "cache"), "--no-history",
                        env={"PLEIN_SECRET": secret, "PLEIN_PAGEFIND": "none"})
        if code != 1 or "thread secret (PLEIN_SECRET or --secret-file) is too weak" not in out or "plein new secret" not in out or os.path.exists(weak_out):
            fail(f"a build with the thread secret {secret!r} is refused, with why and what to do, and writes nothing: {code} {out[-400:]}")
        else:
            print(f"ok   the thread secret {secret!r} is refused by the build, with its reason")
    code, out = run("check", "--content", content, env={"PLEIN_SECRET": "password"})
    if code != 1 or "too weak" not in out:
        fail(f"plein check refuses a weak thread secret too: {code} {out[-300:]}")
    else:
        print("ok   plein check refuses a weak thread secret")
    code, made = run("new", "secret", env={})
    code2, out = run("check", "--content", content, env={"PLEIN_SECRET": made.strip()})
    if code != 0 or len(made.strip()) != 29 or "too weak" in out:
        fail(f"plein new secret makes one plein check takes: {made!r} {out[-200:]}")
    else:
        print("ok   plein new secret makes a secret plein check takes")
    passphrases = os.path.join(tmp, "passphrases.txt")
    for weak in ("correct horse battery staple", "p@ssw0rd-p@ssw0rd-2027", "abcdefghijklmnop"):
        with open(passphrases, "w") as f:
            f.write(f"{GROUP}: {weak}\n")
        code, out = run("check", "--content", content, "--passphrases", passphrases, env={})
        if code != 1 or f"the passphrase of members-only group '{GROUP}' is too weak" not in out:
            fail(f"plein check --passphrases refuses {weak!r}: {code} {out[-300:]}")
        else:
            print(f"ok   plein check refuses the passphrase {weak!r}")
    with open(passphrases, "w") as f:
        f.write(f"{GROUP}: {PASSPHRASE}\n# the new one\n{GROUP}: {PASSPHRASE}-x\n")
    code, out = run("build", "--content", content, "--output", weak_out, "--passphrases", passphrases, env={"PLEIN_PAGEFIND": "none"})
    if code != 2 or "is given a passphrase on line 1 already" not in out:
        fail(f"a group given twice in a passphrase file is an error, not the last line unsaid: {code} {out[-300:]}")
    else:
        print("ok   a group given twice in a passphrase file is refused")


def main():
    global PLEIN
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", required=True)
    args = parser.parse_args()
    PLEIN = args.plein
    tmp = tempfile.mkdtemp(prefix="plein-sealed-")
    try:
        site = os.path.join(tmp, "public")
        said = build(os.path.join(ROOT, "content"), site, media.seed(os.path.join(tmp, "cache"), PLEIN))
        # A members-only group's albums have no map whatever their photos: the build says nothing of one.
        if f"groups/{GROUP}/albums/" in said and "has no map" in said.split(f"groups/{GROUP}/albums/", 1)[1][:200]:
            fail("the build's note says a members-only group's album has no map (it never has one), naming the album")
        else:
            print("ok   no note of a map a members-only group's album never has")
        opened = check_opens(site)
        check_threads(site)
        check_nothing_leaks(site, opened)
        check_deterministic(site, tmp)
        check_edit(tmp)
        check_browser(site, opened)
        # Without the passphrase, the group is not published, and the build says so.
        bare = os.path.join(tmp, "bare")
        said = build(os.path.join(ROOT, "content"), bare, media.seed(os.path.join(tmp, "cache-bare"), PLEIN), env={"NO_COLOR": "1"})
        if os.path.exists(os.path.join(bare, "groups", GROUP)) or "PLEIN_PASSPHRASE_ZEEHOND_LEDEN" not in said:
            fail("without its passphrase the group is published, or the build does not say how to give it:\n" + said[-800:])
        else:
            print("ok   without its passphrase the group is not published, and the build says which variable to set")
        check_weak_secrets(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
