#!/usr/bin/env python3
"""The demo site read as microformats2, as IndieWeb readers and Bridgy Fed read it (issue 60):
mf2py over the built pages, every value compared with the content file it came from.

- On every page: one site h-card (name, and url and uid the home page: the home page's
  representative h-card), no other top-level h-card but the page's own subject (a member chip is
  an author's h-card inside an entry, never an item of its own), every author an h-card with a
  name and the url of the member's page, and every dt-* an ISO 8601 date or time, never the
  text a reader sees.
- The home page: an h-feed of the newest reports, newest first, each an h-entry.
- Every report: h-entry (h-event for an event) with its title, author, time, canonical url and
  text; each reply a p-comment h-cite with its author, time and text; an event's start, end and
  place.
- A member's and a group's page: the h-card of the member or group, with name, url, uid, photo and
  note. A group's events: h-event. An album: h-entry with its photos and captions. A photo's
  page: h-entry with the photo (a video's page: the video) and who took it.

Run by `make test`; alone:
    python3 Tests/Output/microformats_check.py --plein .build/release/plein [--templates templates]
Without `--templates`, the theme built into plein (as `plein new theme` writes it out); with it,
the theme in that folder, to try an edit of the templates without building plein again.
"""
import argparse, glob, html, os, re, subprocess, sys, tempfile
from datetime import date, datetime
import mf2py
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402  (the media made once per test run)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTENT = os.path.join(ROOT, "content")
DATE_PROPERTIES = ("published", "updated", "start", "end")
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".avif")
VIDEO_EXTENSIONS = (".mov", ".mp4", ".m4v", ".webm")
failures = []


def fail(message):
    """Records a failure; False, for the checks' `good` flags."""
    failures.append(message)
    print("FAIL", message)
    return False


def ok(message):
    print("ok  ", message)


# Content files

def record(path):
    """A content file's front matter and its Markdown body."""
    text = open(path, encoding="utf-8").read()
    if not path.endswith(".md"):
        return yaml.safe_load(text) or {}, ""
    parts = text.split("---", 2)
    return (yaml.safe_load(parts[1]) or {}, parts[2]) if len(parts) == 3 else ({}, text)


def words(text):
    return " ".join(text.split())


def phrase(body):
    """The first sentence of a Markdown body's first paragraph, as a reader sees it."""
    paragraph = []
    for line in body.strip().splitlines():
        if not line.strip():
            if paragraph:
                break
            continue
        if re.match(r"\s*([#>|!-]|\d+\.|\*\s)", line):
            if paragraph:
                break
            continue
        paragraph.append(line)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", words(" ".join(paragraph)))
    text = re.sub(r"[*_`]", "", text)
    return re.split(r"(?<=[.!?])\s", text)[0]


def member(id):
    fields, _ = record(os.path.join(CONTENT, "users", id + ".md"))
    return fields


# Pages

def build(plein, templates, tmp):
    """Builds the demo into `tmp`/site with the theme in `templates`, or the one built into plein:
    that one as `plein new theme` writes it out, since the demo's site folder (the repository)
    has a templates/ folder that would take its place."""
    env = dict(os.environ, NO_COLOR="1")
    if not templates:
        templates = os.path.join(tmp, "theme")
        result = subprocess.run([plein, "new", "theme", "--templates", templates], capture_output=True, text=True, env=env, cwd=tmp)
        if result.returncode != 0:
            raise SystemExit(f"plein new theme failed:\n{result.stdout}{result.stderr}")
    output = os.path.join(tmp, "site")
    result = subprocess.run([plein, "build", "--content", CONTENT, "--templates", templates, "--output", output,
                             "--cache", media.seed(os.path.join(tmp, "cache"), plein)], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"plein build of the demo failed:\n{result.stdout}{result.stderr}")
    return output


class Site:
    def __init__(self, folder):
        self.folder = folder
        self.pages = {}

    def html(self, rel):
        path = os.path.join(self.folder, rel) if rel.endswith(".html") else os.path.join(self.folder, rel, "index.html")
        return open(path, encoding="utf-8").read() if os.path.exists(path) else None

    def page(self, rel):
        """(canonical URL, mf2py's parse) of the page at `rel` (a folder of the site, or an HTML
        file), or None."""
        if rel not in self.pages:
            text = self.html(rel)
            if text is None:
                self.pages[rel] = None
            else:
                found = re.search(r'<link rel="canonical" href="([^"]+)"', text)
                canonical = html.unescape(found.group(1)) if found else None
                self.pages[rel] = (canonical, mf2py.parse(doc=text, url=canonical))
        return self.pages[rel]

    def canonical(self, rel):
        found = self.page(rel)
        return found[0] if found else None


def items(parsed, kind):
    return [item for item in parsed["items"] if kind in item["type"]]


def first(item, name):
    values = item.get("properties", {}).get(name) or [None]
    return values[0]


def text(value):
    """A property's text: a plain value, an embedded item's or an e-* property's `value`."""
    return value.get("value") if isinstance(value, dict) else value


def the(parsed, kind, where):
    found = items(parsed, kind)
    if len(found) != 1:
        fail(f"{where}: {len(found)} top-level {kind}, expected one ({[i['type'] for i in parsed['items']]})")
        return None
    return found[0]


def same_time(value, expected):
    """Whether an mf2 dt-* value is the moment (or day) a content file gives."""
    try:
        if isinstance(expected, datetime):
            return datetime.fromisoformat(value) == expected
        if isinstance(expected, date):
            return value == expected.isoformat()
        return datetime.fromisoformat(value) == datetime.fromisoformat(str(expected))
    except (TypeError, ValueError):
        return False


def expect(where, name, actual, expected):
    if actual != expected:
        fail(f"{where}: {name} is {actual!r}, expected {expected!r}")
        return False
    return True


def expect_time(where, name, item, expected):
    value = first(item, name)
    if not same_time(value, expected):
        fail(f"{where}: {name} is {value!r}, expected {expected}")
        return False
    return True


def expect_text(where, name, item, needle):
    value = text(first(item, name)) or ""
    if words(needle) not in words(value):
        fail(f"{where}: {name} does not contain {needle!r} (it is {value[:120]!r}…)")
        return False
    return True


def expect_author(site, where, item, id):
    """The item's p-author is the h-card of member `id`: their name and their page's URL."""
    author = first(item, "author")
    if not isinstance(author, dict) or "h-card" not in author.get("type", []):
        fail(f"{where}: author is {author!r}, expected an h-card")
        return False
    fields = member(id)
    good = expect(where, "author name", first(author, "name"), fields["name"])
    good &= expect(where, "author url", first(author, "url"), site.canonical(f"users/{id}/"))
    if fields.get("avatar") and not first(author, "photo"):
        good = fail(f"{where}: the author's chip shows an avatar, but the h-card has no photo")
    return good


# Checks

def walk(item, path=()):
    """Every item inside `item` (itself included), with the property or "children" it is under."""
    yield item, path
    for name, values in item.get("properties", {}).items():
        for value in values:
            if isinstance(value, dict) and "type" in value:
                yield from walk(value, path + (name,))
    for child in item.get("children", []):
        yield from walk(child, path + ("children",))


def check_every_page(site):
    """The site h-card on every page, no stray top-level h-card, authors as h-cards, ISO dates."""
    home = site.canonical("")
    title = yaml.safe_load(open(os.path.join(CONTENT, "site.yaml"), encoding="utf-8"))["title"]
    pages, before = 0, len(failures)
    for path in sorted(glob.glob(os.path.join(site.folder, "**", "*.html"), recursive=True)):
        rel = os.path.relpath(path, site.folder)
        if 'class="site-header' not in open(path, encoding="utf-8").read():
            continue                       # not a page of the theme's layout (the CMS)
        pages += 1
        folder = os.path.dirname(rel)
        canonical, parsed = site.page((folder + "/" if folder else "") if rel.endswith("index.html") else rel)
        cards = items(parsed, "h-card")
        own = [c for c in cards if first(c, "name") == title and first(c, "url") == home == first(c, "uid")]
        if len(own) != 1:
            fail(f"/{rel}: {len(own)} site h-cards (name {title!r}, url and uid {home}), expected one")
        for card in cards:
            if card not in own and not (first(card, "url") == canonical == first(card, "uid")):
                fail(f"/{rel}: a top-level h-card that is not the page's own: {first(card, 'name')!r} ({first(card, 'url')})")
        for top in parsed["items"]:
            for item, under in walk(top):
                for name in DATE_PROPERTIES:
                    for value in item.get("properties", {}).get(name, []):
                        try:
                            date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)
                        except (TypeError, ValueError):
                            fail(f"/{rel}: {'.'.join(under + (name,))} of {item['type']} is {value!r}, not an ISO 8601 date or time")
                for author in item.get("properties", {}).get("author", []):
                    if not (isinstance(author, dict) and "h-card" in author.get("type", []) and first(author, "name") and first(author, "url")):
                        fail(f"/{rel}: an author of {item['type']} is not an h-card with a name and a url: {author!r}")
    if pages < 50:
        fail(f"only {pages} pages of the theme's layout were read")
    elif len(failures) == before:
        ok(f"{pages} pages: one site h-card each (the home page's representative h-card), no stray top-level h-card, "
           "every author an h-card with name and url, every date ISO 8601")


def report_files():
    """Every report of the demo: (page folder, index file, replies folder or None)."""
    found = []
    for area in sorted(glob.glob(os.path.join(CONTENT, "reports", "*", ""))):
        for entry in sorted(os.listdir(area)):
            path = os.path.join(area, entry)
            if entry.endswith(".md"):
                found.append((os.path.relpath(path, CONTENT)[:-3] + "/", path, None))
            elif os.path.exists(os.path.join(path, "index.md")):
                replies = os.path.join(path, "replies")
                found.append((os.path.relpath(path, CONTENT) + "/", os.path.join(path, "index.md"), replies if os.path.isdir(replies) else None))
    return found


def check_reports(site):
    reports = replies = events = 0
    for rel, file, reply_folder in report_files():
        page = site.page(rel)
        if page is None:
            fail(f"/{rel}: no page for {os.path.relpath(file, ROOT)}")
            continue
        canonical, parsed = page
        fields, body = record(file)
        kind = "h-event" if fields.get("starts") else "h-entry"
        entry = the(parsed, kind, f"/{rel}")
        if entry is None:
            continue
        where = f"/{rel} ({kind})"
        good = expect(where, "name", first(entry, "name"), fields["title"])
        good &= expect(where, "url", first(entry, "url"), canonical)
        good &= expect_time(where, "published", entry, fields["at"])
        good &= expect_author(site, where, entry, fields["author"])
        if phrase(body):
            good &= expect_text(where, "content", entry, phrase(body))
        if first(entry, "updated") and not datetime.fromisoformat(first(entry, "updated")) > datetime.fromisoformat(first(entry, "published")):
            good = fail(f"{where}: updated {first(entry, 'updated')} is not after published {first(entry, 'published')}")
        if fields.get("starts"):
            good &= expect_time(where, "start", entry, fields["starts"])
            if fields.get("ends"):
                good &= expect_time(where, "end", entry, fields["ends"])
            if fields.get("place"):
                good &= expect(where, "location", text(first(entry, "location")), fields["place"])
            events += good
        comments = entry.get("properties", {}).get("comment", [])
        expected = sorted((record(p) for p in glob.glob(os.path.join(reply_folder, "*.md"))), key=lambda r: r[0]["at"]) if reply_folder else []
        if expect(where, "number of comments", len(comments), len(expected)):
            for index, (comment, (reply, reply_body)) in enumerate(zip(comments, expected)):
                at = f"{where} comment {index + 1}"
                if "h-cite" not in comment.get("type", []):
                    good = fail(f"{at}: {comment.get('type')}, expected a p-comment h-cite")
                    continue
                good &= expect_author(site, at, comment, reply["author"])
                good &= expect_time(at, "published", comment, reply["at"])
                url, _, anchor = (first(comment, "url") or "").partition("#")
                good &= expect(at, "url", url, canonical) and (bool(anchor) or fail(f"{at}: url {url!r} has no fragment"))
                if phrase(reply_body):
                    good &= expect_text(at, "content", comment, phrase(reply_body))
                replies += good
        reports += good
    total = len(report_files())
    if reports == total and total:
        ok(f"{total} reports: their h-entry or h-event, with name, author, time, url and text as their files give; "
           f"{replies} replies as p-comment h-cite; {events} events with start, end and place")


def check_home(site):
    canonical, parsed = site.page("")
    feed = the(parsed, "h-feed", "/ (home)")
    if feed is None:
        return
    entries = feed.get("children", [])
    by_url = {site.canonical(rel): (rel, file) for rel, file, _ in report_files()}
    good = bool(entries) or fail("/ (home): the h-feed has no entries")
    times = []
    for entry in entries:
        url = first(entry, "url")
        if "h-entry" not in entry["type"] or url not in by_url:
            good = fail(f"/ (home): an item of the h-feed is not a report's h-entry: {entry['type']} {url}")
            continue
        rel, file = by_url[url]
        fields, body = record(file)
        where = f"/ (home) h-feed entry {url}"
        good &= expect(where, "name", first(entry, "name"), fields["title"])
        good &= expect_time(where, "published", entry, fields["at"])
        good &= expect_author(site, where, entry, fields["author"])
        times.append(datetime.fromisoformat(first(entry, "published")))
    if times != sorted(times, reverse=True):
        good = fail("/ (home): the h-feed's entries are not newest first")
    if good:
        ok(f"/ (home): an h-feed of {len(entries)} reports' h-entries, newest first, with name, author and time as their files give")


def check_card(site, rel, file, *, photo=False):
    """The h-card of a member's or a group's page: its name, URL and uid, and its note; a
    member's photo (with its text) when their file names an avatar."""
    canonical, parsed = site.page(rel)
    card = next((c for c in items(parsed, "h-card") if first(c, "uid") == canonical), None)
    if card is None:
        return fail(f"/{rel}: no h-card whose uid is the page's URL {canonical}")
    fields, body = record(file)
    where = f"/{rel} (h-card)"
    good = expect(where, "name", first(card, "name"), fields["name"])
    good &= expect(where, "url", first(card, "url"), canonical)
    if photo and fields.get("avatar") and not (isinstance(first(card, "photo"), dict) and first(card, "photo").get("alt")):
        good = fail(f"{where}: the member has an avatar ({fields['avatar']}), but the h-card has no photo with its text")
    if phrase(body):
        good &= expect_text(where, "note", card, phrase(body))
    if good:
        ok(f"{where}: name, url and uid, {'photo and ' if photo else ''}note")


def check_member(site, id):
    check_card(site, f"users/{id}/", os.path.join(CONTENT, "users", id + ".md"), photo=True)


def check_group(site, group):
    check_card(site, f"groups/{group}/", os.path.join(CONTENT, "groups", group, "index.md"))


def check_group_events(site):
    checked = 0
    for file in sorted(glob.glob(os.path.join(CONTENT, "groups", "*", "events", "*.md"))):
        group, name = file.split(os.sep)[-3], os.path.basename(file)[:-3]
        rel = f"groups/{group}/events/{name}/"
        page = site.page(rel)
        if page is None:
            continue                       # a private group's
        canonical, parsed = page
        fields, body = record(file)
        event = the(parsed, "h-event", f"/{rel}")
        if event is None:
            continue
        where = f"/{rel} (h-event)"
        good = expect(where, "name", first(event, "name"), fields["title"])
        good &= expect(where, "url", first(event, "url"), canonical)
        good &= expect_time(where, "start", event, fields["starts"])
        if fields.get("ends"):
            good &= expect_time(where, "end", event, fields["ends"])
        if fields.get("place"):
            good &= expect(where, "location", text(first(event, "location")), fields["place"])
        if fields.get("by"):
            good &= expect_author(site, where, event, fields["by"])
        if phrase(body):
            good &= expect_text(where, "content", event, phrase(body))
        checked += good
    if checked:
        ok(f"{checked} group events: h-event with name, url, start, end, place, organiser and text")
    else:
        fail("no group event was checked")


def album_folder():
    """The first album of a published group with captions and someone who took a photo."""
    for index in sorted(glob.glob(os.path.join(CONTENT, "groups", "*", "albums", "*", "index.md"))):
        fields, _ = record(index)
        if any(p.get("by") and p.get("caption") for p in fields.get("photos") or []):
            folder = os.path.dirname(index)
            group, album = folder.split(os.sep)[-3], folder.split(os.sep)[-1]
            if os.path.exists(os.path.join(CONTENT, "groups", group, "index.md")) and \
                    record(os.path.join(CONTENT, "groups", group, "index.md"))[0].get("visibility", "public") == "public":
                return folder, group, album, fields
    raise SystemExit("the demo has no album with a caption and a photographer")


def check_album(site):
    folder, group, album, fields = album_folder()
    rel = f"groups/{group}/albums/{album}/"
    canonical, parsed = site.page(rel)
    entry = the(parsed, "h-entry", f"/{rel}")
    if entry is None:
        return
    where = f"/{rel} (h-entry)"
    _, body = record(os.path.join(folder, "index.md"))
    group_fields, _ = record(os.path.join(CONTENT, "groups", group, "index.md"))
    good = expect(where, "name", first(entry, "name"), fields["title"])
    good &= expect(where, "url", first(entry, "url"), canonical)
    if fields.get("date"):
        good &= expect_time(where, "published", entry, fields["date"])
    author = first(entry, "author")
    good &= expect(where, "author name", isinstance(author, dict) and first(author, "name"), group_fields["name"])
    good &= expect(where, "author url", isinstance(author, dict) and first(author, "url"), site.canonical(f"groups/{group}/"))
    if phrase(body):
        good &= expect_text(where, "content", entry, phrase(body))
    photos = entry.get("properties", {}).get("photo", [])
    images = [n for n in os.listdir(folder) if n.lower().endswith(IMAGE_EXTENSIONS)]
    if len(photos) < len(images):
        good = fail(f"{where}: {len(photos)} photos, expected at least its {len(images)} images")
    alts = {p.get("alt") for p in photos if isinstance(p, dict)}
    captions = {p["caption"] for p in fields.get("photos") or [] if p.get("caption") and p["file"].lower().endswith(IMAGE_EXTENSIONS)}
    if not captions <= alts:
        good = fail(f"{where}: photos without their captions as text: {sorted(captions - alts)}")
    if good:
        ok(f"{where}: name, url, the group as author, date, text and {len(photos)} photos with their captions")
    check_photo(site, folder, group, album, fields)


def check_photo(site, folder, group, album, fields):
    photo = next(p for p in fields["photos"] if p.get("by") and p.get("caption") and p["file"].lower().endswith(IMAGE_EXTENSIONS))
    rel = f"groups/{group}/albums/{album}/{os.path.splitext(photo['file'])[0]}/"
    canonical, parsed = site.page(rel)
    entry = the(parsed, "h-entry", f"/{rel}")
    if entry is None:
        return
    where = f"/{rel} (h-entry)"
    good = expect(where, "name", first(entry, "name"), photo["caption"])
    good &= expect(where, "url", first(entry, "url"), canonical)
    good &= expect_author(site, where, entry, photo["by"])
    # (A photo is published with its album: the album's date.)
    if fields.get("date"):
        good &= expect_time(where, "published", entry, fields["date"])
    image = first(entry, "photo")
    if not (isinstance(image, dict) and image.get("value", "").startswith(site.canonical("")) and image.get("alt") == photo["caption"]):
        good = fail(f"{where}: photo is {image!r}, expected the photo with its caption as text")
    if good:
        ok(f"{where}: name, url, the album's date, the photo with its caption, who took it")
    videos = sorted(n for n in os.listdir(folder) if n.lower().endswith(VIDEO_EXTENSIONS))
    if videos:
        rel = f"groups/{group}/albums/{album}/{os.path.splitext(videos[0])[0]}/"
        canonical, parsed = site.page(rel)
        entry = the(parsed, "h-entry", f"/{rel}")
        video = entry and first(entry, "video")
        if entry and not (isinstance(video, str) and video.startswith(site.canonical("")) and video.endswith(".mp4")):
            fail(f"/{rel} (h-entry): video is {video!r}, expected the web copy of {videos[0]}")
        elif entry:
            ok(f"/{rel} (h-entry): the video")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    parser.add_argument("--templates", help="a theme folder to build with instead of the one built into plein")
    args = parser.parse_args()
    if int(mf2py.__version__.split(".")[0]) < 2:
        raise SystemExit(f"mf2py {mf2py.__version__} is too old: 2 or later reads an image's text (pip install -U mf2py)")
    with tempfile.TemporaryDirectory(prefix="plein-mf2-") as tmp:
        site = Site(build(os.path.abspath(args.plein), args.templates and os.path.abspath(args.templates), tmp))
        check_every_page(site)
        check_home(site)
        check_reports(site)
        authors = [record(f)[0]["author"] for _, f, _ in report_files()]
        check_member(site, next(a for a in authors if member(a).get("avatar")))
        check_group(site, album_folder()[1])
        check_group_events(site)
        check_album(site)
    if failures:
        print(f"\n{len(failures)} microformats check(s) failed")
        sys.exit(1)
    print("all microformats checks passed")


if __name__ == "__main__":
    main()
