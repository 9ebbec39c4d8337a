#!/usr/bin/env python3
"""Members who do not use git: the CMS at /admin/ and the GitHub issue forms.

- A site made with `plein new site … --forge gitlab` publishes /admin/: its page loads the CMS
  pinned to an exact version (with the owner's integrity hash when site.yaml gives one), and its
  config.yml is checked field by field against the schemas `plein new site` wrote
  (.plein/schemas): every field of a report, reply, album, event, goal and the check-ins, with its
  widget, required or not, choices, ranges, and the lists members pick from.
- For each collection, an entry written where and as the CMS writes it (the path filled from the
  collection's templates the way Decap and Sveltia CMS fill them, front matter as YAML, photos
  beside the entry) passes `plein check`; a placement field that names another folder is an error.
- Pages link into the CMS: "Reply" with the report filled in, "New report", "Add photos".
- Decap CMS instead: its script, no check-ins (it has no top-level lists).
- `plein new cms` fetches the pinned script once and writes its integrity hash (from a local
  server standing in for unpkg.com, `PLEIN_CMS_MIRROR`), as `--update` does for the new version;
  offline, a missing version or a page where the script should be are said, and the CMS is set up
  without a hash.
- `plein new ci --forge github`: the issue forms and both workflows pass check-jsonschema's
  schemas for GitHub issue forms, their config and workflows; zizmor finds nothing of medium
  severity or more in them, nor in plein's own workflows (.github/workflows), which pass the
  workflow schema too.
- `plein new from-issue` turns recorded issues (Tests/Fixtures/issues: GitHub's JSON) into files
  that pass `plein check`, with the photos; refuses the bad ones with a clear error, writing
  nothing.
- (The workflows run step by step in a fresh Debian root: Tests/Output/workflow_run.py.)

    python3 Tests/Output/cms_check.py --plein .build/release/plein
"""
import argparse, base64, datetime, glob, hashlib, http.server, json, os, re, shutil, socket, subprocess, sys, tempfile, threading

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "issues")
PHOTO = os.path.join(ROOT, "content", "users", "emma-kok.jpg")
ENV = dict(os.environ, NO_COLOR="1")
failures = []
PLEIN = None


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message)
    if not ok:
        failures.append(message)


def run(*args, cwd):
    proc = subprocess.run([PLEIN, *args], cwd=cwd, capture_output=True, text=True, env=ENV, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# MARK: a stand-in for the CDN

class CDN:
    """unpkg.com's paths, served from a folder on 127.0.0.1: what `plein new cms` fetches."""

    def __init__(self, folder):
        self.folder = folder
        handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=folder, **k)
        http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def publish(self, path, data):
        """Puts a file at `path` (as unpkg names it); returns its integrity hash."""
        write(os.path.join(self.folder, path), data.decode("latin-1") if isinstance(data, bytes) else data)
        raw = open(os.path.join(self.folder, path), "rb").read()
        return "sha384-" + base64.b64encode(hashlib.sha384(raw).digest()).decode()

    def stop(self):
        self.server.shutdown()


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_fetched_integrity(work, cdn, version):
    """`plein new cms` pins the script by the hash of the file it fetched; says why when it cannot."""
    script = "/* Sveltia CMS, as the stand-in CDN serves it */\n" + "window.CMS = { init() {} };\n" * 400
    expected = cdn.publish(f"@sveltia/cms@{version}/dist/sveltia-cms.js", script)
    fetched = make_site(work, "fetchclub")
    site_yaml = os.path.join(fetched, "content", "site.yaml")
    code, out = run("new", "cms", "--forge", "gitlab", "--repository", "https://gitlab.com/duikclub/site", cwd=fetched)
    cms = yaml.safe_load(open(site_yaml, encoding="utf-8")).get("cms", {})
    check(code == 0 and cms.get("integrity") == expected and "pinned by its hash" in out and "openssl dgst" not in out,
          f"plein new cms fetches the pinned script once and writes its integrity: {cms.get('integrity')} {out.strip()[-200:]}")
    code, out = run("build", cwd=fetched)
    check(code == 0, f"it builds: {out[-200:]}")
    check_page(fetched, "sveltia", version, expected)
    # --update: the new version's hash in place of the old one.
    newer = cdn.publish("@sveltia/cms@9.9.9/dist/sveltia-cms.js", script + "// 9.9.9\n")
    code, out = run("new", "cms", "--update", "--version", "9.9.9", cwd=fetched)
    cms = yaml.safe_load(open(site_yaml, encoding="utf-8")).get("cms", {})
    check(code == 0 and str(cms.get("version")) == "9.9.9" and cms.get("integrity") == newer and "pinned by its hash" in out,
          f"plein new cms --update writes the new version's hash: {cms} {out.strip()[-200:]}")
    # What cannot be fetched is said, and the CMS is set up all the same, without a hash.
    for label, mirror, said in (
        ("offline", f"http://127.0.0.1:{closed_port()}", "offline"),
        ("a version the CDN does not have", cdn.url, "404"),
        ("a page where the script should be", cdn.url, "did not answer with a script"),
    ):
        if label.startswith("a page"):
            cdn.publish(f"@sveltia/cms@{version}/dist/sveltia-cms.js", "<!DOCTYPE html><title>Sign in to the Wi-Fi</title>" + " " * 200)
        site = make_site(work, "club-" + str(abs(hash(label)) % 10000))
        extra = ["--version", "0.0.1"] if "404" in said else []
        proc = subprocess.run([PLEIN, "new", "cms", "--forge", "gitlab", "--repository", "https://gitlab.com/duikclub/site", *extra],
                              cwd=site, capture_output=True, text=True, env=dict(ENV, PLEIN_CMS_MIRROR=mirror), timeout=120)
        cms = yaml.safe_load(open(os.path.join(site, "content", "site.yaml"), encoding="utf-8")).get("cms", {})
        check(proc.returncode == 0 and cms and "integrity" not in cms and said in proc.stderr and "without an integrity hash" in proc.stderr
              and "openssl dgst" in proc.stderr,
              f"{label}: said, and the CMS set up without a hash: {proc.stderr.strip()[:300]}")


# MARK: the site

def make_site(work, name, *options):
    code, out = run("new", "site", name, "--title", "Duikclub", "--language", "nl", "--timezone", "Europe/Amsterdam", *options, cwd=work)
    if code != 0:
        raise SystemExit(f"plein new site failed: {out}")
    site = os.path.join(work, name)
    content = os.path.join(site, "content")
    # Each member's GitHub account: an issue they open is theirs (the forms ask no member id).
    for member, full, login in (("anna-de-vries", "Anna de Vries", "Anna-DV"), ("bram", "Bram Visser", "@bram-gh")):
        write(f"{content}/users/{member}.md", f"---\nname: {full}\ngithub: '{login}'\n---\nLid.\n")
    write(f"{content}/places.yaml", "- {name: Javastraat, lat: 52.3629, lon: 4.9391, postcode: '1094'}\n- {name: Oosterpark, lat: 52.3600, lon: 4.9201}\n")
    write(f"{content}/groups/zeehond/index.md", "---\nname: De Zeehond\nmembers: [anna-de-vries, bram]\n---\nDe club.\n")
    write(f"{content}/groups/zeehond/goals/dertig-meter.md",
          "---\ntitle: Dertig meter\npoints: 10\nadded_by: bram\nadded: 2026-10-01\n---\nDiep.\n")
    write(f"{content}/groups/zeehond/albums/kerstduik/index.md", "---\ntitle: Kerstduik\ndate: 2026-12-20\n---\nKoud.\n")
    shutil.copy(PHOTO, f"{content}/groups/zeehond/albums/kerstduik/duik.jpg")
    write(f"{content}/reports/1094/area.yaml", "name: Indische Buurt\n")
    write(f"{content}/groups/bestuur/index.md", "---\nname: Bestuur\nmembers: [bram]\nvisibility: members\n---\nVertrouwelijk.\n")
    write(f"{content}/reports/1094/2026-10-02-fiets-gestolen.md",
          "---\ntitle: Fiets gestolen\ncategory: suspicious\nat: 2026-10-02T09:00:00+02:00\nauthor: anna-de-vries\n"
          "location: {lat: 52.3631, lon: 4.9402}\n---\nWeg.\n")
    write(f"{content}/locations/oba-oost.md", "---\nname: OBA Oost\nseats: 20\nopening_hours: {mon-sun: \"08:00-22:00\"}\n---\nStil.\n")
    return site


def problems(site):
    proc = subprocess.run([PLEIN, "check", "--format", "json"], cwd=site, capture_output=True, text=True, env=ENV, timeout=300)
    try:
        return json.loads(proc.stdout)["diagnostics"]
    except (ValueError, KeyError):
        raise SystemExit(f"plein check --format json printed no JSON: {proc.stdout[-400:]}{proc.stderr[-400:]}")


def errors(site):
    return [p for p in problems(site) if p.get("severity") == "error"]


# MARK: config.yml against the schemas

KINDS = {"reports": "report", "replies": "reply", "albums": "album", "events": "event", "goals": "goal", "checkins": "checkins"}
PLACEMENT = {"report": ["area"], "reply": ["area", "report"], "album": ["group"], "event": ["group"], "goal": ["group"]}
RELATIONS = {"area": "areas", "group": "groups", "location": "locations"}


def compare(schema, field, where, kind, editor="sveltia"):
    """Whether one CMS field says what one schema property says."""
    name = field.get("name")
    widget = field.get("widget", "string")
    if "enum" in schema:
        options = [o["value"] if isinstance(o, dict) else o for o in field.get("options", [])]
        check(widget == "select" and options and set(options) <= set(schema["enum"]),
              f"{where}: a choice of {schema['enum']} ({widget} {options})")
        return
    kind_of = schema.get("type")
    pattern = schema.get("pattern", "")
    if kind_of == "integer" or kind_of == "number":
        ok = widget == "number" and field.get("value_type") == ("int" if kind_of == "integer" else "float")
        ok = ok and field.get("min") == schema.get("minimum") and field.get("max") == schema.get("maximum")
        check(ok, f"{where}: a {kind_of} from {schema.get('minimum')} to {schema.get('maximum')} ({field})")
    elif kind_of == "boolean":
        check(widget == "boolean", f"{where}: true or false ({widget})")
    elif kind_of == "object":
        inner = {f["name"]: f for f in field.get("fields", [])}
        check(widget == "object" and set(inner) == set(schema["properties"]), f"{where}: an object of {sorted(schema['properties'])} ({sorted(inner)})")
        for key, sub in schema["properties"].items():
            if key in inner:
                compare(sub, inner[key], f"{where}.{key}", kind)
                check(inner[key].get("required") == (key in schema.get("required", [])), f"{where}.{key}: required as the schema says")
    elif kind_of == "array":
        items = schema["items"]
        if items.get("type") == "object":
            inner = {f["name"]: f for f in field.get("fields", [])}
            check(widget == "list" and set(inner) == set(items["properties"]), f"{where}: a list of {sorted(items['properties'])} ({sorted(inner)})")
            for key, sub in items["properties"].items():
                if key in inner:
                    compare(sub, inner[key], f"{where}[].{key}", kind)
                    check(inner[key].get("required") == (key in items.get("required", [])), f"{where}[].{key}: required as the schema says")
        elif "@" in items.get("pattern", ""):
            check(widget == "relation" and field.get("collection") == "members" and field.get("multiple") is True,
                  f"{where}: members picked from the list ({field})")
        else:
            check(widget == "list", f"{where}: a list ({widget})")
    elif kind_of == "string":
        if "@" in pattern:
            check(widget == "relation" and field.get("collection") == "members" and field.get("value_field") == "{{slug}}",
                  f"{where}: a member picked from the list, not typed ({field.get('widget')} {field.get('collection')})")
        elif pattern.startswith("^\\d{4}"):
            fmt = field.get("format", "")
            check(widget == "datetime" and fmt in ("YYYY-MM-DDTHH:mm:ssZ", "YYYY-MM-DD"), f"{where}: a date or a time with its offset ({widget} {fmt})")
        elif pattern == "^[^/\\\\]+$":
            check(widget in ("image", "file"), f"{where}: a file beside the entry ({widget})")
        elif pattern == "^[a-z0-9]+(-[a-z0-9]+)*$":
            wanted = RELATIONS.get(name) if not (kind == "reply" and name in ("area", "report")) else None
            # Decap CMS cannot give a folder's name from a list: there a group or an area is typed.
            if editor == "decap" and wanted in ("groups", "areas"):
                wanted = None
            if wanted:
                check(widget == "relation" and field.get("collection") == wanted, f"{where}: picked from the list of {wanted} ({widget})")
            else:
                check(widget == "string" and field.get("pattern", [""])[0] == pattern, f"{where}: an id, checked as plein checks it ({field})")
        else:
            check(widget in ("string", "text"), f"{where}: text ({widget})")
    else:
        check(False, f"{where}: a schema type the test does not know: {schema}")


def check_config(site, editor="sveltia"):
    with open(os.path.join(site, "public", "admin", "config.yml"), encoding="utf-8") as f:
        config = yaml.safe_load(f)
    collections = {c["name"]: c for c in config["collections"]}
    expected = set(KINDS) if editor == "sveltia" else set(KINDS) - {"checkins"}
    check(expected <= set(collections), f"{editor}: a collection for each kind members write: {sorted(expected - set(collections))} missing")
    for name, kind in KINDS.items():
        if name not in collections:
            continue
        with open(os.path.join(site, ".plein", "schemas", kind + ".json"), encoding="utf-8") as f:
            schema = json.load(f)
        collection = collections[name]
        fields = collection["fields"]
        if kind == "checkins":
            check(len(fields) == 1 and fields[0].get("root") is True and fields[0].get("widget") == "list",
                  "check-ins: the file's top level is the list (Sveltia CMS's root list)")
            schema = schema["items"]
            fields = fields[0]["fields"]
        by_name = {f["name"]: f for f in fields}
        extra = set(by_name) - set(schema["properties"]) - {"body"}
        check(not extra, f"{name}: no field plein does not know ({sorted(extra)})")
        for key, sub in schema["properties"].items():
            if key not in by_name:
                check(False, f"{name}: has the field '{key}'")
                continue
            compare(sub, by_name[key], f"{name}.{key}", kind, editor)
            required = key in schema.get("required", []) or key in PLACEMENT.get(kind, [])
            check(by_name[key].get("required") == required, f"{name}.{key}: required is {required}")
        for relation in [f for f in fields if f.get("widget") == "relation"]:
            target = collections.get(relation["collection"])
            check(target is not None and target.get("hide") is True and relation.get("value_field") == "{{slug}}",
                  f"{name}.{relation['name']}: its list comes from the hidden collection {relation['collection']}")
    # The lists come from where plein keeps those records.
    lookups = {"members": ("content/users", None), "groups": ("content/groups", "{{slug}}/index"),
               "areas": ("content/reports", "{{slug}}/area"), "locations": ("content/locations", None)}
    for name, (folder, path) in lookups.items():
        if editor == "decap" and name in ("groups", "areas"):
            check(name not in collections, f"decap: no list of {name} (its slugs are not their ids)")
            continue
        c = collections.get(name, {})
        check(c.get("folder") == folder and c.get("path") == path, f"the list of {name} is read from {folder}/{path or '<id>'}")
    return config


# MARK: entries as the CMS writes them

def fill(template, values, slug=""):
    """A path or slug template filled as Decap and Sveltia CMS fill it: each value slugified."""
    def slugify(text):
        return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]", "-", text.lower())).strip("-")

    def one(match):
        key, _, transform = match.group(1).partition("|")
        key = key.strip()
        if key == "slug":
            return slug
        value = values[key.removeprefix("fields.")]
        date = re.match(r"\s*date\('(.+)'\)", transform)
        if date:
            moment = datetime.datetime.fromisoformat(value)
            fmt = date.group(1)
            for token, py in (("YYYY", "%Y"), ("MM", "%m"), ("DD", "%d"), ("HH", "%H"), ("mm", "%M")):
                fmt = fmt.replace(token, py)
            value = moment.strftime(fmt)
        return slugify(str(value))
    return re.sub(r"\{\{([^}]+)\}\}", one, template)


def entry_path(collection, values):
    slug = fill(collection["slug"], values)
    return collection["folder"] + "/" + fill(collection["path"], values, slug) + "." + collection.get("extension", "md")


def front_matter(values, body):
    """Front matter as both CMSs write it: YAML (strings quoted where YAML needs it), then the text."""
    return "---\n" + yaml.safe_dump(values, allow_unicode=True, sort_keys=False) + "---\n" + body + "\n"


def check_entries(site, config):
    collections = {c["name"]: c for c in config["collections"]}
    written = []

    def put(name, values, body="", files=()):
        path = os.path.join(site, entry_path(collections[name], values))
        write(path, front_matter(values, body))
        for file in files:
            shutil.copy(PHOTO, os.path.join(os.path.dirname(path), file))
        written.append(os.path.relpath(path, site))
        return path

    put("reports", {"area": "1094", "title": "Losliggende stoeptegel", "category": "attention", "at": "2026-11-25T19:30:00+01:00",
                    "author": "bram", "location": {"lat": 52.3627, "lon": 4.9411}}, "Bij de Javastraat.\n\n![Stoeptegel](tegel.jpg)", ["tegel.jpg"])
    # A reply to a report that is one file: the CMS writes it in a folder of the report's name.
    reply = put("replies", {"area": "1094", "report": "2026-10-02-fiets-gestolen", "author": "bram", "at": "2026-11-25T20:00:00+01:00"},
                "Gezien bij het station.")
    put("albums", {"group": "zeehond", "title": "Nachtduik", "date": "2026-11-28", "map": "none", "by": "bram",
                   "photos": [{"file": "lamp.jpg", "caption": "Met de lamp", "by": "anna-de-vries"}]}, "Donker.", ["lamp.jpg"])
    put("events", {"group": "zeehond", "title": "Nieuwjaarsduik", "starts": "2027-01-01T13:00:00+01:00", "ends": "2027-01-01T15:30:00+01:00",
                   "place": "Vinkeveense Plassen", "by": "anna-de-vries"}, "Erwtensoep na.")
    # A goal completion: the CMS rewrites the goal's file with the fields it has.
    goal = os.path.join(site, "content/groups/zeehond/goals/dertig-meter.md")
    write(goal, front_matter({"group": "zeehond", "title": "Dertig meter", "points": 10, "added_by": "bram", "added": "2026-10-01",
                              "completed_by": "anna-de-vries", "completed_at": "2026-11-20T11:00:00+01:00"}, "Diep."))
    written.append(os.path.relpath(goal, site))
    if "checkins" in collections:
        path = os.path.join(site, collections["checkins"]["folder"], "bram.yaml")
        write(path, yaml.safe_dump([{"location": "oba-oost", "in": "2026-11-24T09:00:00+01:00", "out": "2026-11-24T12:30:00+01:00"}], sort_keys=False))
        written.append(os.path.relpath(path, site))
    expected = ["content/reports/1094/2026-11-25-losliggende-stoeptegel/index.md",
                "content/reports/1094/2026-10-02-fiets-gestolen/replies/20261125-2000-bram.md",
                "content/groups/zeehond/albums/nachtduik/index.md", "content/groups/zeehond/events/nieuwjaarsduik.md"]
    check(all(path in written for path in expected), f"the CMS's paths are plein's: {written}")
    found = errors(site)
    check(not found, f"every entry the CMS writes passes plein check: {[(p['file'], p['message']) for p in found]}")
    # A placement field that names another folder is an error at that field.
    text = open(reply, encoding="utf-8").read()
    write(reply, text.replace("area: '1094'", "area: '1011'"))
    found = [p for p in errors(site) if p["file"].endswith("20261125-2000-bram.md")]
    check(any(p.get("code") == "misplaced" and "1011" in p["message"] for p in found), f"a reply whose area is not its folder's is an error: {found}")
    write(reply, text)
    return written


def check_links(site):
    code, out = run("build", cwd=site)
    check(code == 0, f"the site builds: {out[-300:]}")
    public = os.path.join(site, "public")
    report = open(os.path.join(public, "reports/1094/2026-10-02-fiets-gestolen/index.html"), encoding="utf-8").read()
    check("/admin/#/collections/replies/new?area=1094&amp;report=2026-10-02-fiets-gestolen" in report,
          "a report's Reply opens the CMS's new reply with the report filled in")
    check("Gezien bij het station" in report, "a reply in a folder beside a report that is one file is on its page")
    area = open(os.path.join(public, "reports/1094/index.html"), encoding="utf-8").read()
    check("/admin/#/collections/reports/new?area=1094" in area, "an area's New report opens the CMS with the area filled in")
    areas = open(os.path.join(public, "reports/index.html"), encoding="utf-8").read()
    check("/admin/#/collections/reports/new\"" in areas, "the reports page offers a new report")
    album = open(os.path.join(public, "groups/zeehond/albums/kerstduik/index.html"), encoding="utf-8").read()
    check("/admin/#/collections/albums/entries/zeehond/albums/kerstduik/index" in album, "an album's Add photos opens it in the CMS")
    sitemap = open(os.path.join(public, "sitemap.xml"), encoding="utf-8").read()
    check("/admin/" not in sitemap, "the CMS's page is in no sitemap")


def check_page(site, editor, version, integrity=None):
    page = open(os.path.join(site, "public", "admin", "index.html"), encoding="utf-8").read()
    src = re.search(r'<script src="([^"]+)"([^>]*)>', page)
    url = {"sveltia": f"https://unpkg.com/@sveltia/cms@{version}/dist/sveltia-cms.js",
           "decap": f"https://unpkg.com/decap-cms@{version}/dist/decap-cms.js"}[editor]
    check(src is not None and src.group(1) == url, f"{editor}: the page loads {url}, pinned ({src and src.group(1)})")
    if integrity:
        check(f'integrity="{integrity}"' in page and 'crossorigin="anonymous"' in page, "the script is checked against the owner's hash")
    else:
        check("integrity=" not in page, "without a hash from the owner, none is made up")
    check('content="noindex, nofollow"' in page, "the page is not indexed (it finds config.yml beside it)")


# MARK: GitHub issue forms

def jsonschema(schema, path):
    proc = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, path], capture_output=True, text=True)
    check(proc.returncode == 0, f"{os.path.relpath(path)} passes {schema}: {(proc.stdout + proc.stderr).strip()[-300:]}")


def check_forms(site):
    # Written again now that the site has its areas, places and groups (make_site adds them after
    # plein new site): --update rewrites what nobody changed, and keeps and names what its owner did.
    reply_form = os.path.join(site, ".github/ISSUE_TEMPLATE/plein-reply.yml")
    stale = open(os.path.join(site, ".github/ISSUE_TEMPLATE/plein-report.yml"), encoding="utf-8").read()
    code, out = run("new", "ci", "--forge", "github", "--release", cwd=site)
    check(code == 0 and "plein-report.yml is kept as it is, and differs from what this plein writes: plein new ci --update" in out,
          f"without --update, forms written before are kept, and said to be out of date: {out[-300:]}")
    owned = open(reply_form, encoding="utf-8").read().replace('label: "Your reply"', 'label: "Je reactie"')
    write(reply_form, owned)
    code, out = run("new", "ci", "--forge", "github", "--release", "--update", cwd=site)
    check(code == 0 and "plein-report.yml" in out and "plein-reply.yml was changed since plein wrote it" in out
          and open(reply_form, encoding="utf-8").read() == owned,
          f"plein new ci --update writes anew the forms nobody changed, and keeps (and names) the one its owner translated: {out[-400:]}")
    check(open(os.path.join(site, ".github/ISSUE_TEMPLATE/plein-report.yml"), encoding="utf-8").read() != stale, "the report form was written anew")
    write(reply_form, owned.replace('label: "Je reactie"', 'label: "Your reply"'))  # the fixtures answer plein's own labels
    forms = sorted(glob.glob(os.path.join(site, ".github/ISSUE_TEMPLATE/plein-*.yml")))
    report = yaml.safe_load(open(os.path.join(site, ".github/ISSUE_TEMPLATE/plein-report.yml"), encoding="utf-8"))
    items = {item.get("id"): item for item in report["body"]}
    options = items["category"]["attributes"]["options"]
    check(options == ["Verdacht", "Aandachtspunt", "Evenement", "Klacht", "Bericht"], f"a Dutch site's form names the categories in Dutch: {options}")
    every = [item.get("id") for name in ("report", "reply", "event")
             for item in yaml.safe_load(open(os.path.join(site, f".github/ISSUE_TEMPLATE/plein-{name}.yml"), encoding="utf-8"))["body"]]
    check("member" not in every, f"no form asks for a member id: the issue's author is the member: {every}")
    check(items["area"]["type"] == "dropdown" and items["area"]["attributes"]["options"] == ["Indische Buurt (1094)"],
          f"the areas are offered by their names: {items['area']}")
    where = items["location"]["attributes"]["description"]
    check("'Javastraat'" in where and "52.3629, 4.9391" in where and "52.3631, 4.9402" not in where and "map app" in where,
          f"'Where' takes the site's own places, a map link, and gives its example from the site: {where!r}")
    event = {item.get("id"): item for item in yaml.safe_load(open(os.path.join(site, ".github/ISSUE_TEMPLATE/plein-event.yml"), encoding="utf-8"))["body"]}
    check(event["group"]["type"] == "dropdown" and event["group"]["attributes"]["options"] == ["De Zeehond (zeehond)"],
          f"an event's group is chosen by its name, from the public groups only (not the members-only one): {event['group']}")
    check([os.path.basename(f) for f in forms] == ["plein-event.yml", "plein-reply.yml", "plein-report.yml"], f"forms for a report, a reply and an event: {forms}")
    for form in forms:
        jsonschema("vendor.github-issue-forms", form)
    jsonschema("vendor.github-issue-config", os.path.join(site, ".github/ISSUE_TEMPLATE/config.yml"))
    for workflow in ("plein.yml", "plein-issues.yml"):
        jsonschema("vendor.github-workflows", os.path.join(site, ".github/workflows", workflow))
    audit(os.path.join(site, ".github/workflows"))
    text = open(os.path.join(site, ".github/workflows/plein-issues.yml"), encoding="utf-8").read()
    check("github.event.label.name == 'approved'" in text and "${{ github.event.issue.body" not in text and "${{ github.event.issue.title" not in text,
          "the workflow runs on the label approved and never puts the issue's text into a script")


def audit(folder):
    """zizmor, offline: no finding of medium severity or more (an unpinned action, a token kept
    by the checkout, the event's text in a script, too wide permissions, …)."""
    result = subprocess.run(["zizmor", "--offline", "--no-progress", "--min-severity", "medium", "--format", "plain", folder],
                            capture_output=True, text=True)
    check(result.returncode == 0, f"zizmor finds nothing in {os.path.relpath(folder, ROOT) if folder.startswith(ROOT) else os.path.basename(os.path.dirname(folder))}: "
          f"{(result.stdout + result.stderr).strip()[-1500:]}")


def snapshot(site):
    return sorted(os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(os.path.join(site, "content")) for f in fs)


def check_from_issue(site, attachments):
    code, out = run("new", "from-issue", os.path.join(FIXTURES, "report-labeled.json"), "--list-attachments", cwd=site)
    lines = out.split("\n")
    check(code == 0 and lines[0] == "attachment-1 https://github.com/user-attachments/assets/3f1e2c44-6a1b-4c1e-9a51-0d5c7d1e2a10"
          and lines[1].startswith("attachment-2 https://github.com/user-attachments/assets/9b0c2a11"),
          f"--list-attachments names the photos of the issue, in order: {out!r}")
    before = snapshot(site)
    # Refused: each with why, and nothing written.
    for fixture, said in (("unknown-member.json", "@stranger-99 is not a member of the site: a maintainer adds `github: stranger-99`"),
                          ("bad-location.json", "'Where': 'bij de bakker' is no place the site knows (it knows 'Javastraat', 'Oosterpark')"),
                          ("foreign-photo.json", "is not an attachment of GitHub"),
                          ("not-a-form.json", "was not made with one of plein's forms"),
                          ("missing-answer.json", "does not answer 'Starts'")):
        code, out = run("new", "from-issue", os.path.join(FIXTURES, fixture), "--attachments", attachments, cwd=site)
        check(code == 2 and said in out and snapshot(site) == before, f"{fixture} is refused: {out.strip()[-160:]}")
    # A photo that is not an image is refused too.
    bad = tempfile.mkdtemp(dir=os.path.dirname(attachments))
    shutil.copy(PHOTO, os.path.join(bad, "attachment-1"))
    write(os.path.join(bad, "attachment-2"), "<svg xmlns='http://www.w3.org/2000/svg'/>")
    code, out = run("new", "from-issue", os.path.join(FIXTURES, "report-labeled.json"), "--attachments", bad, cwd=site)
    check(code == 2 and "photo 2" in out and "not a JPEG, PNG or WebP" in out and snapshot(site) == before, f"an SVG as a photo is refused: {out.strip()[-120:]}")
    # Every problem of an issue at once, in the form's words.
    code, out = run("new", "from-issue", os.path.join(FIXTURES, "report-problems.json"), cwd=site)
    said = ["'Category': 'Brandgevaar' is not one of this site's categories: 'Verdacht', 'Aandachtspunt'", "'Where': 'https://maps.app.goo.gl/Xy12abc' is a short link",
            "'When': 'gisteren' is not a date or time"]
    check(code == 2 and all(s in out for s in said) and snapshot(site) == before, f"every problem of an issue is said at once, in the site's words: {out.strip()[-600:]}")

    written = []
    for fixture in ("report-labeled.json", "reply-api.json", "event-labeled.json", "report-place.json", "report-maplink.json"):
        code, out = run("new", "from-issue", os.path.join(FIXTURES, fixture), "--attachments", attachments, cwd=site)
        check(code == 0, f"{fixture} is posted: {out.strip()[-200:]}")
        written += [line for line in out.split("\n") if line.startswith("./") or line.startswith("/")]
    content = os.path.join(site, "content")
    report = os.path.join(content, "reports/1094/2026-11-20-fiets-gestolen-bij-de-javastraat")
    text = open(os.path.join(report, "index.md"), encoding="utf-8").read() if os.path.exists(report) else ""
    check("at: 2026-11-20T08:15:00+01:00" in text and "author: anna-de-vries" in text and "category: suspicious" in text
          and "location: {lat: 52.3631, lon: 4.9402}" in text and "**gestolen**" in text and "](photo-1.jpg)" in text and "](photo-2.jpg)" in text,
          f"the report has the form's answers, its text and its photos: {text!r}")
    same = all(open(os.path.join(report, f"photo-{n}.jpg"), "rb").read() == open(os.path.join(attachments, f"attachment-{n}"), "rb").read()
               for n in (1, 2)) if os.path.exists(report) else False
    check(same, "the photos are the attachments, beside the report")
    placed = os.path.join(content, "reports/1094/2026-11-21-lantaarnpaal-kapot.md")
    text = open(placed, encoding="utf-8").read() if os.path.exists(placed) else ""
    check("location: {lat: 52.3629, lon: 4.9391}" in text and "category: attention" in text and "author: anna-de-vries" in text,
          f"a street near a place of the site is placed there; the area and category as the form offers them: {text!r}")
    linked = os.path.join(content, "reports/1094/2026-11-20-scooter-gestolen.md")
    text = open(linked, encoding="utf-8").read() if os.path.exists(linked) else ""
    check("location: {lat: 52.36318, lon: 4.94015}" in text, f"an OpenStreetMap link gives its marker's position: {text!r}")
    replies = glob.glob(os.path.join(content, "reports/1094/2026-10-02-fiets-gestolen/replies/20261121T1040-bram.md"))
    check(len(replies) == 1 and "at: 2026-11-21T10:40:12+01:00" in open(replies[0]).read(),
          "the reply (from the REST API's JSON) is dated when the issue was opened, in the site's time zone")
    event = os.path.join(content, "groups/zeehond/events/nachtduik-in-de-oosterschelde.md")
    text = open(event, encoding="utf-8").read() if os.path.exists(event) else ""
    check("starts: 2026-12-05T19:30:00+01:00" in text and "ends: 2026-12-05T22:00:00+01:00" in text and "by: bram" in text
          and "place:" not in text and "Zaklampen mee." in text, f"the event has its answers (no place: none given): {text!r}")
    found = errors(site)
    check(not found, f"what the issues became passes plein check: {[(p['file'], p['message']) for p in found]}")


def main():
    global PLEIN
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", required=True)
    PLEIN = os.path.abspath(parser.parse_args().plein)
    work = tempfile.mkdtemp(prefix="plein-cms-")
    # plein new cms fetches the CMS's script from here, never from the network.
    cdn = CDN(os.path.join(work, "cdn"))
    ENV["PLEIN_CMS_MIRROR"] = cdn.url
    try:
        print("A site made with plein new site --forge gitlab: /admin/ from plein's schemas")
        site = make_site(work, "gitlabclub", "--forge", "gitlab", "--repository", "https://gitlab.com/duikclub/site", "--app-id", "4f1c0a")
        code, out = run("build", cwd=site)
        check(code == 0, f"it builds: {out[-200:]}")
        config = check_config(site)
        backend = config["backend"]
        check(backend == {"name": "gitlab", "repo": "duikclub/site", "branch": "main", "auth_type": "pkce",
                          "api_root": "https://gitlab.com/api/v4", "base_url": "https://gitlab.com", "app_id": "4f1c0a"},
              f"GitLab signs in with PKCE in the browser: {backend}")
        check(config.get("publish_mode") == "editorial_workflow", "each post is a merge request (editorial workflow)")
        with open(os.path.join(site, "content", "site.yaml"), encoding="utf-8") as f:
            version = yaml.safe_load(f)["cms"]["version"]
        check(re.fullmatch(r"\d+\.\d+\.\d+", str(version)) is not None, f"the version is exact: {version}")
        check_page(site, "sveltia", version)
        print("Entries as the CMS writes them")
        check_entries(site, config)
        check_links(site)

        print("Decap CMS, on Codeberg (Forgejo), with an integrity hash")
        decap = make_site(work, "decapclub", "--forge", "forgejo", "--repository", "https://codeberg.org/duikclub/site", "--app-id", "c0de")
        with open(os.path.join(decap, "content", "site.yaml"), encoding="utf-8") as f:
            text = f.read()
        integrity = "sha384-" + "A" * 64
        write(os.path.join(decap, "content", "site.yaml"),
              re.sub(r"  version: .*\n", f"  editor: decap\n  version: 3.14.1\n  integrity: {integrity}\n", text, count=1))
        code, out = run("build", cwd=decap)
        check(code == 0, f"it builds: {out[-200:]}")
        config = check_config(decap, editor="decap")
        check(config["backend"]["name"] == "gitea" and config["backend"]["api_root"] == "https://codeberg.org/api/v1"
              and "publish_mode" not in config and "output" not in config,
              f"Forgejo is Gitea's backend, without editorial workflow; no Sveltia-only settings: {config['backend']}")
        # Neither CMS makes pull requests on Forgejo: posts wait on a branch of their own.
        check(config["backend"]["branch"] == "cms-posts", f"posts are committed to the review branch, not the site's: {config['backend']}")
        proc = subprocess.run([PLEIN, "check"], cwd=decap, capture_output=True, text=True, env=ENV)
        check("note: Decap CMS makes no pull requests on forgejo" in proc.stderr and "https://codeberg.org/duikclub/site/compare/main...cms-posts" in proc.stderr,
              f"plein check says what review there is: {proc.stderr.strip()[-300:]}")
        check_page(decap, "decap", "3.14.1", integrity)
        code, out = run("new", "cms", "--forge", "gitlab", cwd=decap)
        check(code == 2 and "already has 'cms'" in out, f"plein new cms never overwrites: {out.strip()[-80:]}")
        write(os.path.join(decap, "content", "site.yaml"), text.replace("cms:\n", "cms:\n  integrity: md5-abc\n"))
        found = errors(decap)
        check(any(p.get("code") == "invalid-integrity" for p in found), f"an integrity that is not one is an error: {found}")

        print("plein new cms in a site made without one")
        plain = make_site(work, "plainclub")
        site_yaml = os.path.join(plain, "content", "site.yaml")
        before = open(site_yaml, encoding="utf-8").read()
        code, out = run("new", "cms", "--forge", "gitlab", "--repository", "https://gitlab.com/duikclub/site", "--integrity", "md5-abc", cwd=plain)
        check(code == 2 and "not an integrity hash" in out and open(site_yaml, encoding="utf-8").read() == before,
              f"a hash that is not one is refused, and site.yaml is left as it was: {out.strip()[-100:]}")
        code, out = run("new", "cms", "--repository", "https://git.example.org/duikclub/site", cwd=plain)
        check(code == 2 and "--forge" in out, f"a repository whose forge its address does not say needs --forge: {out.strip()[-100:]}")
        code, out = run("new", "cms", "--forge", "gitlab", "--repository", "https://gitlab.com/duikclub/site", "--app-id", "77",
                        "--integrity", integrity, cwd=plain)
        added = yaml.safe_load(open(site_yaml, encoding="utf-8"))
        check(code == 0 and open(site_yaml, encoding="utf-8").read().startswith(before) and added.get("repository") == "https://gitlab.com/duikclub/site"
              and added.get("cms", {}).get("integrity") == integrity and "redirect URI" in out,
              f"plein new cms adds the repository and cms to the end of site.yaml, and says how members will sign in: {out.strip()[-160:]}")
        check("review: each post from the CMS is a merge request into main" in out and "Protected branches" in out,
              f"and what review members' posts get: {out.strip()[-300:]}")
        code, out = run("build", cwd=plain)
        check(code == 0, f"it builds: {out[-200:]}")
        check_page(plain, "sveltia", version, integrity)
        config = check_config(plain)
        check(config["backend"].get("app_id") == "77", "the application id is the backend's")
        # plein new cms --update: an older pinned version is brought to this plein's, its hash taken
        # out (the stand-in CDN has no script for it yet).
        aged = re.sub(r"(\n  version: )[^\n]*", r'\1"0.190.0"', open(site_yaml, encoding="utf-8").read(), count=1)
        write(site_yaml, aged)
        code, out = run("new", "cms", "--update", cwd=plain)
        updated = yaml.safe_load(open(site_yaml, encoding="utf-8"))["cms"]
        check(code == 0 and str(updated.get("version")) == str(version) and "integrity" not in updated and updated.get("app_id") == "77"
              and "from 0.190.0 to" in out and "old version's integrity hash is taken out" in out and "404" in out,
              f"plein new cms --update brings the version to this plein's, keeps the other settings and takes out the old hash: {updated} {out.strip()[-200:]}")
        print("plein new cms pins the script it fetched (from a stand-in for the CDN)")
        check_fetched_integrity(work, cdn, version)

        print("GitHub: plein new ci writes issue forms and the workflow that posts them")
        github = make_site(work, "githubclub", "--forge", "github", "--repository", "https://github.com/duikclub/site", "--release")
        check_forms(github)
        attachments = os.path.join(work, "attachments")
        os.makedirs(attachments)
        shutil.copy(PHOTO, os.path.join(attachments, "attachment-1"))
        shutil.copy(os.path.join(ROOT, "content", "users", "lotte-smit.jpg"), os.path.join(attachments, "attachment-2"))
        check_from_issue(github, attachments)
        print("plein's own workflows")
        for workflow in sorted(glob.glob(os.path.join(ROOT, ".github/workflows/*.yml"))):
            jsonschema("vendor.github-workflows", workflow)
        audit(os.path.join(ROOT, ".github/workflows"))
    finally:
        cdn.stop()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
