#!/usr/bin/env python3
"""A community of one's own, started as a new user would: with the built binary, in a temporary
folder, outside this repository, with no options beyond what the README shows.

    plein new site duikclub --title "Duikclub Test"; cd duikclub
    plein new member …; (cd content/users; plein new report …); plein check; plein build; plein serve
    plein new theme; change one partial and the stylesheet; plein build
    VS Code's tasks: the problems plein serve and plein check mark in the editor (editor_tasks.py)

    python3 Tests/Output/first_site.py --plein .build/release/plein
"""
import argparse, hashlib, http.client, json, os, re, shutil, socket, subprocess, sys, tempfile, time

import editor_tasks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(condition, message):
    print(("  ok: " if condition else "  FAILED: ") + message)
    if not condition:
        failures.append(message)


def dutch_only_texts():
    """The theme's Dutch interface texts that differ from the English ones (long enough not to be a word of both)."""
    import yaml
    with open(os.path.join(ROOT, "templates/i18n/nl.yaml"), encoding="utf-8") as f:
        nl = yaml.safe_load(f)
    with open(os.path.join(ROOT, "templates/i18n/en.yaml"), encoding="utf-8") as f:
        en = yaml.safe_load(f)
    return {text.split("{")[0].strip() for key, text in nl.items()
            if isinstance(text, str) and text != en.get(key) and len(text.split("{")[0].strip()) >= 6}


def texts_in(folder, texts):
    """(file, text) for each of `texts` found in the HTML pages under `folder`."""
    for base, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".html"):
                path = os.path.join(base, name)
                with open(path, encoding="utf-8") as f:
                    page = f.read()
                for text in texts:
                    if text in page:
                        yield path, text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    plein = os.path.abspath(parser.parse_args().plein)
    work = tempfile.mkdtemp(prefix="plein-first-site-")
    env = dict(os.environ, NO_COLOR="1")

    def run(*args, cwd):
        result = subprocess.run([plein, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
        return result.returncode, result.stdout + result.stderr

    try:
        site = os.path.join(work, "duikclub")
        print("plein new site, then everything from inside the site with no options")
        code, out = run("new", "site", "duikclub", "--title", "Duikclub Test", "--language", "en", cwd=work)
        check(code == 0 and os.path.exists(os.path.join(site, "content/site.yaml")), f"new site: {out.strip()[:80]}")
        with open(os.path.join(site, ".gitignore")) as f:
            ignored = f.read()
        check("/public/" in ignored and "/.plein-cache/" in ignored, "the site ignores its output and cache in git")
        # The quickest start, without a terminal to ask on: the folder's name is the title.
        code, out = run("new", "site", "quickclub", cwd=work)
        built, built_out = run("build", cwd=os.path.join(work, "quickclub")) if code == 0 else (1, "")
        quick_site = os.path.join(work, "quickclub", "content", "site.yaml")
        quick_yaml = open(quick_site).read() if os.path.exists(quick_site) else ""
        check(code == 0 and built == 0 and 'title: "quickclub"' in quick_yaml,
              f"plein new site NAME && cd NAME && plein build, with no other option: {out.strip()[-80:]} {built_out.strip()[-80:]}")
        check("language: en\n" in quick_yaml and "timezone: Europe/Amsterdam" not in quick_yaml,
              f"a new site is English first, in this computer's time zone: {quick_yaml!r}")
        dutch = dutch_only_texts()
        found = sorted({(os.path.relpath(path, work), text) for path, text in texts_in(os.path.join(work, "quickclub", "public"), dutch)})
        check(built == 0 and not found, f"its first build is in English throughout: Dutch interface text {found[:5]}")
        # The divers search's example is the site's own first place, not one in the Netherlands.
        with open(os.path.join(work, "quickclub", "content", "places.yaml"), "w") as f:
            f.write("- {name: Lee-on-the-Solent, lat: 50.8031, lon: -1.2047}\n- {name: Swanage, lat: 50.6083, lon: -1.9600}\n")
        built, built_out = run("build", cwd=os.path.join(work, "quickclub"))
        divers = open(os.path.join(work, "quickclub", "public", "divers", "index.html"), encoding="utf-8").read() if built == 0 else ""
        check('placeholder="for example Lee-on-the-Solent, or 50.80,-1.20"' in divers and "Zandvoort" not in divers,
              f"the divers search suggests the site's own place: {built_out.strip()[-80:]}")
        # plein check (what a pull request runs) reports labels as a build does: one the theme
        # does not have, and one that renames a word other texts still say.
        with open(os.path.join(work, "quickclub", "content", "site.yaml"), "a") as f:
            f.write("labels:\n  member_friends: Dive buddies\n  nav_repots: Dive reports\n")
        code, out = run("check", cwd=os.path.join(work, "quickclub"))
        check(code == 0 and "the theme has no interface text 'nav_repots'" in out and "did you mean 'nav_reports'?" in out
              and "'member_friends' renames 'Friends', which " in out and "'member_no_friends'" in out,
              f"plein check reports labels as a build does: {out.strip()[-300:]}")
        # Pages of its own: in the menu of every page, in their order; one can stay out of it.
        quick = os.path.join(work, "quickclub")
        for args in (["--title", "Pool times", "--order", "2"], ["--title", "How to join", "--menu-title", "Join", "--order", "1"],
                     ["--title", "Safety", "--no-menu"]):
            code, out = run("new", "page", *args, cwd=quick)
            check(code == 0, f"new page {args[1]}: {out.strip()[-80:]}")
        code, out = run("new", "page", "--title", "Search", cwd=quick)
        check(code == 2 and "--id about-search" in out, f"a page cannot take the place of one of the site's own: {out.strip()[-100:]}")
        with open(os.path.join(quick, "content/pages/how-to-join.md"), "w") as f:
            f.write("---\ntitle: How to join\nmenu_title: Join\norder: 1\n---\nCome to the pool on a **Tuesday**.\n")
        built, built_out = run("build", cwd=quick)
        home = open(os.path.join(quick, "public/index.html"), encoding="utf-8").read() if built == 0 else ""
        menu = home[home.find('class="site-nav"'):home.find("</nav>", home.find('class="site-nav"'))]
        join, pool = menu.find('<a href="/how-to-join/">Join</a>'), menu.find('<a href="/pool-times/">Pool times</a>')
        joined = open(os.path.join(quick, "public/how-to-join/index.html"), encoding="utf-8").read() if built == 0 else ""
        check(0 <= join < pool and "/safety/" not in menu and os.path.exists(os.path.join(quick, "public/safety/index.html"))
              and "<strong>Tuesday</strong>" in joined and 'aria-current="page">Join</a>' in joined,
              f"pages/ pages are published and in the menu in their order: {built_out.strip()[-80:]} {menu[-300:]!r}")
        code, out = run("new", "member", "--name", "Zoë Çelik-Ødegård", "--email", "zoe@example.org", cwd=site)
        check(code == 0 and "content/users/zoe-celik-odegard.md" in out, f"new member from the site folder: {out.strip()}")
        code, out = run("new", "member", "--name", "Daan Smit", "--email", "daan@example.org", "--home", "51.7,3.8", "--postcode", "4301",
                        "--certification", "PADI Advanced Open Water", "--years", "12", "--dives", "300", "--friends", "zoe-celik-odegard", cwd=site)
        with open(os.path.join(site, "content/users/daan-smit.md"), encoding="utf-8") as f:
            member = f.read()
        check(code == 0 and "diving:\n  certification: \"PADI Advanced Open Water\"\n  years: 12\n  dives: 300\n" in member
              and "home:\n  lat: 51.7\n  lon: 3.8\n" in member and "friends: [zoe-celik-odegard]" in member,
              f"every member field as an option: {out.strip()}")
        code, out = run("new", "member", "--name", "Eef", "--email", "eef@example.org", "--years=-3", cwd=site)
        check(code == 2 and "years" in out and not os.path.exists(os.path.join(site, "content/users/eef.md")),
              f"a value the file may not hold is refused before writing: {out.strip()}")
        users = os.path.join(site, "content", "users")
        code, out = run("new", "report", "--area", "4301", "--title", "Zicht acht meter", "--category", "message", "--author", "daan-smit",
                        "--lat", "51.7", "--lon", "3.8", "--at", "2026-11-01T10:00:00+01:00", cwd=users)
        check(code == 0 and os.path.exists(os.path.join(site, "content/reports/4301/2026-11-01-zicht-acht-meter.md")),
              f"new report from a folder inside the site: {out.strip()}")
        # West of Greenwich a longitude starts with '-': a value, not an option.
        code, out = run("new", "report", "--area", "4301", "--title", "Swanage pier", "--category", "message", "--author", "daan-smit",
                        "--lat", "50.6083", "--lon", "-1.9522", "--at", "2026-11-02T10:00:00Z", cwd=site)
        west = os.path.join(site, "content/reports/4301/2026-11-02-swanage-pier.md")
        check(code == 0 and os.path.exists(west) and "lon: -1.9522" in open(west, encoding="utf-8").read(),
              f"--lon -1.9522 is a longitude: {out.strip()}")
        check(not os.path.exists(os.path.join(users, "content")), "no second content folder inside the first")
        code, out = run("new", "group", "--name", "Zeehonden", "--members", "daan-smit,zoe-celik-odegard", cwd=site)
        check(code == 0, f"new group: {out.strip()}")
        # An achievement recorded afterwards: added on the day it was done, not today.
        code, out = run("new", "goal", "--group", "zeehonden", "--title", "Wreck dive", "--points", "5", "--added-by", "daan-smit",
                        "--completed-by", "zoe-celik-odegard", "--completed-at", "2026-05-01", cwd=site)
        goal = os.path.join(site, "content/groups/zeehonden/goals/wreck-dive.md")
        goal_text = open(goal, encoding="utf-8").read() if os.path.exists(goal) else ""
        check(code == 0 and "added: 2026-05-01\ncompleted_by: zoe-celik-odegard\ncompleted_at: 2026-05-01\n" in goal_text,
              f"an earlier achievement is recorded as done then: {out.strip()} {goal_text!r}")
        # A goal the group reaches together, with its tally to fill in.
        code, out = run("new", "goal", "--group", "zeehonden", "--title", "100 club dives", "--points", "10", "--added-by", "daan-smit",
                        "--target", "100", "--unit", "dives", cwd=site)
        tally = os.path.join(site, "content/groups/zeehonden/goals/100-club-dives.md")
        tally_text = open(tally, encoding="utf-8").read() if os.path.exists(tally) else ""
        check(code == 0 and 'target: 100\nunit: "dives"\ntally: []\n' in tally_text, f"new goal --target --unit: {out.strip()} {tally_text!r}")
        with open(tally, encoding="utf-8") as f:
            text = f.read()
        with open(tally, "w", encoding="utf-8") as f:
            f.write(text.replace("tally: []\n", "tally:\n  - {by: zoe-celik-odegard, count: 37, at: 2026-10-01}\n"))
        with open(os.path.join(site, "content/users/zoe-celik-odegard.md"), encoding="utf-8") as f:
            check("joined:" not in f.read(), "a member entered without --joined is not stamped as joining today")
        code, out = run("new", "member", "--name", "Wim Zonder Adres", cwd=site)
        check(code == 0 and "email" not in open(os.path.join(users, "wim-zonder-adres.md"), encoding="utf-8").read(),
              f"a member without an e-mail address: {out.strip()}")
        code, out = run("check", cwd=users)
        check(code == 0, f"check from inside: {out.strip()[:200]}")
        check("still holds the placeholder 'What happened.'" in out, "the placeholder plein new wrote is pointed out")
        code, out = run("build", cwd=site)
        check(code == 0, f"build: {out.strip()[-160:]}")
        public = os.path.join(site, "public")
        group_page = open(os.path.join(public, "groups/zeehonden/index.html"), encoding="utf-8").read() \
            if os.path.exists(os.path.join(public, "groups/zeehonden/index.html")) else ""
        check('<progress max="100" value="37"' in group_page and "37 of 100 dives" in group_page,
              "the group's page shows how far the tally is")
        for page in ("index.html", "users/zoe-celik-odegard/index.html", "users/daan-smit/index.html",
                     "reports/4301/2026-11-01-zicht-acht-meter/index.html", "groups/zeehonden/index.html", "404.html", "feed.xml"):
            check(os.path.exists(os.path.join(public, page)), f"public/{page}")
        with open(os.path.join(public, "users/zoe-celik-odegard/index.html"), encoding="utf-8") as f:
            check("Zoë Çelik-Ødegård" in f.read(), "the profile shows the name")

        print("a members-only group: plein new says how it is published, and that the repository holds it as it is")
        code, out = run("new", "group", "--name", "Kascommissie", "--members", "daan-smit", "--visibility", "members", cwd=site)
        check(code == 0 and "plein new passphrase" in out and "plain text" in out and "private" in out,
              f"new group --visibility members: {out.strip()[-300:]}")
        shutil.rmtree(os.path.join(site, "content/groups/kascommissie"), ignore_errors=True)

        print("a private group's photos and video: nothing made from them is written, listed or served")
        code, out = run("new", "group", "--name", "Bestuur", "--members", "daan-smit", "--visibility", "public", cwd=site)
        code2, out2 = run("new", "album", "--group", "bestuur", "--title", "Vergadering", "--date", "2026-11-20", cwd=site)
        check(code == 0 and code2 == 0, f"new group and album: {out.strip()} {out2.strip()}")
        private_album = os.path.join(ROOT, "content/groups/familie-bakker/albums/kerst-bij-opa-en-oma")
        originals = sorted(n for n in os.listdir(private_album) if not n.endswith(".md"))
        folders = []
        for name in originals:
            shutil.copyfile(os.path.join(private_album, name), os.path.join(site, "content/groups/bestuur/albums/vergadering", name))
            with open(os.path.join(private_album, name), "rb") as f:
                folders.append("media/" + hashlib.sha256(f.read()).hexdigest()[:16] + "/")
        def derived():
            return sorted(os.path.relpath(os.path.join(b, n), public) for b, _, ns in os.walk(public) for n in ns
                          if any(os.path.relpath(os.path.join(b, n), public).startswith(f) for f in folders))
        code, out = run("build", cwd=site)
        opened = derived()
        check(code == 0 and len(opened) > 10, f"while public, the album's photos, video and poster are published ({len(opened)} files)")
        # A group without goals has no leaderboard (everyone at rank 1 with 0 points says nothing); one with goals has.
        bestuur = open(os.path.join(public, "groups/bestuur/index.html"), encoding="utf-8").read() \
            if os.path.exists(os.path.join(public, "groups/bestuur/index.html")) else ""
        check(bestuur and "leaderboard" not in bestuur and not os.path.exists(os.path.join(public, "groups/bestuur/leaderboard")),
              "a group without goals shows no leaderboard and has none")
        check("/groups/zeehonden/leaderboard/" in group_page and os.path.exists(os.path.join(public, "groups/zeehonden/leaderboard/index.html")),
              "a group with goals links its leaderboard")

        print("an album whose photos were all taken near a member's home: no map, and a note says why")
        dense = os.path.join(site, "content/groups/zeehonden/albums/strand")
        os.makedirs(dense, exist_ok=True)
        with open(os.path.join(dense, "index.md"), "w", encoding="utf-8") as f:
            f.write("---\ntitle: Strand\ndate: 2026-10-01\nphotos:\n  - {file: instap.jpg, caption: De instap}\n---\nZand.\n")
        shutil.copyfile(os.path.join(ROOT, "content/groups/duikclub-de-zeehond/albums/duikweekend-zeeland/den-osse-instap.jpg"),
                        os.path.join(dense, "instap.jpg"))  # taken at 51.7343, 3.8765
        neighbour = os.path.join(site, "content/users/kees-dichtbij.md")
        with open(neighbour, "w", encoding="utf-8") as f:
            f.write("---\nname: Kees Dichtbij\nhome: {lat: 51.7350, lon: 3.8790}\n---\n")
        code, out = run("build", cwd=site)
        album_map = os.path.join(public, "groups/zeehonden/albums/strand/map.geojson")
        check(code == 0 and "groups/zeehonden/albums/strand has no map: its one photo with a position was taken within 1 km of a member's home" in out
              and not os.path.exists(album_map), f"the note says why the album has no map: {out.strip()[-400:]}")
        with open(neighbour, "w", encoding="utf-8") as f:
            f.write("---\nname: Kees Dichtbij\nhome: {lat: 52.5, lon: 4.9}\n---\n")
        code, out = run("build", cwd=site)
        check(code == 0 and "has no map" not in out and os.path.exists(album_map), f"with no home near, the album has its map and no note: {out.strip()[-200:]}")
        os.remove(neighbour)
        shutil.rmtree(dense)

        print("a report's photo, as a phone takes it: narrower copies in srcset, its size reserved, loaded lazily")
        bundle = os.path.join(site, "content/reports/4301/2026-11-03-dark-lamp-post")
        os.makedirs(bundle, exist_ok=True)
        with open(os.path.join(bundle, "index.md"), "w", encoding="utf-8") as f:
            f.write("---\ntitle: Dark lamp post\ncategory: attention\nat: 2026-11-03T21:00:00+01:00\nauthor: daan-smit\n"
                    "location: {lat: 51.7, lon: 3.8}\n---\nThe lamp is out.\n\n![The dark lamp post](<lamp post.jpg>)\n")
        subprocess.run(["vips", "thumbnail", os.path.join(ROOT, "content/groups/duikclub-de-zeehond/albums/duikweekend-zeeland/den-osse-instap.jpg"),
                        os.path.join(bundle, "lamp post.jpg") + "[Q=85]", "4032", "--height", "3024", "--size", "force"], check=True)
        code, out = run("build", cwd=site)
        page_file = os.path.join(public, "reports/4301/2026-11-03-dark-lamp-post/index.html")
        page = open(page_file, encoding="utf-8").read() if os.path.exists(page_file) else ""
        img = re.search(r"<picture>(?:<source type=\"image/avif\" srcset=\"([^\"]+)\"[^>]*>)?<img ([^>]*)></picture>", page)
        attrs = img.group(2) if img else ""
        check(code == 0 and img is not None and all(f" {w}w" in attrs for w in (320, 640, 1280)) and 'loading="lazy"' in attrs
              and 'alt="The dark lamp post"' in attrs and re.search(r'width="320" height="240"', attrs) and "sizes=" in attrs
              and "lamp%20post.jpg" not in attrs and img.group(1) and " 1280w" in img.group(1),
              f"the report's photo is a picture with AVIF and WebP copies in srcset, its size and lazy loading: {img.group(0)[:400] if img else page[-600:]!r}")
        check(os.path.exists(os.path.join(public, "reports/4301/2026-11-03-dark-lamp-post/lamp post.jpg")),
              "the full-size copy is published under the name the text gives")
        shutil.rmtree(bundle)
        group_file = os.path.join(site, "content/groups/bestuur/index.md")
        with open(group_file, encoding="utf-8") as f:
            text = f.read()
        with open(group_file, "w", encoding="utf-8") as f:
            f.write(text.replace("visibility: public", "visibility: private"))
        code, out = run("build", "--changed", os.path.join(work, "changes.txt"), cwd=site)
        with open(os.path.join(work, "changes.txt")) as f:
            removed = sorted(line.split("\t", 1)[1].strip() for line in f if line.startswith("D\t"))
        check(code == 0 and derived() == [], f"turned private, none of them is left in public/ ({derived()[:3]})")
        check(set(opened) <= set(removed), f"--changed lists every one of them as removed ({len(set(opened) - set(removed))} missing)")
        code, out = run("build", "--fresh", cwd=site)
        check(code == 0 and derived() == [], "a fresh build with their variants in the cache publishes none of them")

        print("plein serve from inside the site")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        serve = subprocess.Popen([plein, "serve", "--port", str(port)], cwd=users, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                 text=True)
        try:
            deadline = time.time() + 120
            status = None
            while time.time() < deadline and status != 200:
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    connection.request("GET", "/users/daan-smit/")
                    response = connection.getresponse()
                    status = response.status
                    page = response.read()
                except OSError:
                    time.sleep(0.2)
            check(status == 200 and b"Daan Smit" in page, f"serve answers ({status})")
            answered = []
            for path in opened:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/" + path)
                answered.append(connection.getresponse().status)
            check(opened and set(answered) == {404}, f"serve answers 404 for every file of the private group's album ({sorted(set(answered))})")
        finally:
            serve.terminate()
            serve.wait(10)

        print("plein new theme, and a site that changes one partial and the stylesheet")
        code, out = run("new", "theme", cwd=site)
        templates = os.path.join(site, "templates")
        check(code == 0 and os.path.exists(os.path.join(templates, "layouts/base.mustache")), "new theme copies the theme")
        # Keep only the two changed files: the rest comes from the built-in theme.
        shutil.rmtree(templates)
        os.makedirs(os.path.join(templates, "partials"))
        os.makedirs(os.path.join(templates, "assets"))
        with open(os.path.join(templates, "partials/member-chip.mustache"), "w") as f:
            f.write('<span class="chip">DIVER {{name}}</span>')
        with open(os.path.join(templates, "assets/style.css"), "w") as f:
            f.write("body { background: aquamarine }\n")
        code, out = run("build", cwd=site)
        check(code == 0, f"build with overrides: {out.strip()[-120:]}")
        with open(os.path.join(public, "reports/4301/index.html"), encoding="utf-8") as f:
            check("DIVER Daan Smit" in f.read(), "the site's partial is used")
        styles = [n for n in os.listdir(os.path.join(public, "assets")) if n.startswith("style.")]
        with open(os.path.join(public, "assets", styles[0])) as f:
            check("aquamarine" in f.read(), "the site's stylesheet is used")
        check(any(n.startswith("plein.") for n in os.listdir(os.path.join(public, "assets"))), "the theme's script still comes along")

        print("plein new asks on a terminal: the kind of community, and a member's optional fields")
        try:
            import pexpect
        except ImportError:
            pexpect = None
        check(pexpect is not None, "pexpect is installed (make test-deps)")
        if pexpect:
            child = pexpect.spawn(plein, ["new", "site", "club", "--title", "Club", "--language", "en"], cwd=work, env=env, timeout=30,
                                  encoding="utf-8")
            child.expect("Which kind of community is it")
            child.expect("Number")
            child.sendline("2")
            child.expect("time zone")
            child.sendline("")
            child.expect(pexpect.EOF)
            with open(os.path.join(work, "club/content/site.yaml")) as f:
                check("sections: [members, divers, groups, reports]" in f.read(), "a diving club gets members, divers, groups and reports")
            with open(os.path.join(work, "club/content/site.yaml")) as f:
                club_yaml = f.read()
            check("categories: [attention, event, message]\n" in club_yaml and "profile: []\n" in club_yaml,
                  "and the report categories of a club, not 'suspicious' or 'complaint', and profiles without friends and points")
            folders = sorted(os.listdir(os.path.join(work, "club/content")))
            check("locations" not in folders and "checkins" not in folders and "pages" in folders and "groups" in folders,
                  f"and only the folders of its parts: {folders}")
            # Without --language and --timezone, both are asked; a time zone plein does not know is asked again.
            child = pexpect.spawn(plein, ["new", "site", "club2", "--title", "Club", "--sections", "members"], cwd=work, env=env, timeout=30,
                                  encoding="utf-8")
            child.expect("The language of the site's pages")
            child.expect("Number")
            child.sendline("")
            child.expect("time zone")
            child.sendline("Europe/Londn")
            child.expect("did you mean 'Europe/London'")
            child.expect("time zone")
            child.sendline("Europe/London")
            child.expect(pexpect.EOF)
            with open(os.path.join(work, "club2/content/site.yaml")) as f:
                club2 = f.read()
            check("language: en\n" in club2 and "timezone: Europe/London\n" in club2,
                  f"language and time zone are asked, English by default, a mistyped zone asked again: {club2!r}")
            child = pexpect.spawn(plein, ["new", "member", "--name", "Ank", "--email", "ank@example.org"],
                                  cwd=os.path.join(work, "club"), env=env, timeout=30, encoding="utf-8")
            for question, answer in [("Joined", "2019-04-01"), ("Home", ""), ("Postcode", "4301"), ("Diving certification", "CMAS **"), ("Years of diving", "4"),
                                     ("Logged dives", ""), ("Friends", "")]:
                child.expect(question)
                child.sendline(answer)
            child.expect(pexpect.EOF)
            with open(os.path.join(work, "club/content/users/ank.md"), encoding="utf-8") as f:
                ank = f.read()
            check("joined: 2019-04-01\n" in ank and 'postcode: "4301"' in ank and 'certification: "CMAS **"' in ank and "years: 4" in ank and "home:" not in ank,
                  "answers fill the fields, empty answers leave them out")
            # Each answer is checked as it is given: a mistake is said at once and asked again.
            child = pexpect.spawn(plein, ["new", "event", "--title", "Night dive"], cwd=site, env=env, timeout=30, encoding="utf-8")
            for question, answer in [("Group id", "zeehond"), ("did you mean 'zeehonden'", None), ("Group id", "zeehonden"),
                                     ("Starts", "tomorrow"), ("is not a date", None), ("Starts", "2026-12-01T19:00"), ("Ends", ""),
                                     ("Place", "Swanage"), ("Organised by", "nobody"), ("unknown member", None), ("Organised by", "daan-smit")]:
                child.expect(question)
                if answer is not None:
                    child.sendline(answer)
            child.expect(pexpect.EOF)
            event = os.path.join(site, "content/groups/zeehonden/events/night-dive.md")
            event_text = open(event, encoding="utf-8").read() if os.path.exists(event) else ""
            check("by: daan-smit" in event_text and 'place: "Swanage"' in event_text and "starts: 2026-12-01T19:00" in event_text,
                  f"plein new event asks again after a wrong answer and keeps the others: {event_text!r}")
            # plein new report too, in the site's words: its categories by their names, a member by their name.
            child = pexpect.spawn(plein, ["new", "report", "--title", "Dark lamp post", "--at", "2026-11-02T21:00"], cwd=site, env=env, timeout=30,
                                  encoding="utf-8")
            for question, answer in [("Area", "4301"), ("Needs attention", "Hazard"), ("'Hazard' is not one of this site's categories: Suspicious activity", None),
                                     ("Category", "needs attention"), ("Author", "Daan"), ("did you mean 'daan-smit', Daan Smit", None),
                                     ("Author", "daan-smit"), ("Where", "behind the shops"), ("is no place the site knows", None),
                                     ("Where", "https://www.openstreetmap.org/#map=18/51.6420/3.9190")]:
                child.expect(question)
                if answer is not None:
                    child.sendline(answer)
            child.expect(pexpect.EOF)
            report = os.path.join(site, "content/reports/4301/2026-11-02-dark-lamp-post.md")
            report_text = open(report, encoding="utf-8").read() if os.path.exists(report) else ""
            check("category: attention" in report_text and "author: daan-smit" in report_text and "location: {lat: 51.642, lon: 3.919}" in report_text,
                  f"plein new report asks again after each wrong answer, in the site's words: {report_text!r}")

        print("CI for the forge: written by plein new ci, valid against the forges' schemas")
        # Without a way chosen and without a package of its own to carry (this plein was built
        # from source; whether `make dist` ran there is not the test's to know), plein new ci
        # either carries that package or refuses, and never writes an address nobody chose.
        code, out = run("new", "ci", "--forge", "github", cwd=users)
        workflow = os.path.join(site, ".github/workflows/plein.yml")
        if code == 0:
            text = open(workflow).read()
            check("PLEIN_PACKAGE_SHA256" in text and "plein-ssg" not in text and os.listdir(os.path.join(site, ".plein")),
                  "without a way chosen, plein new ci carries its own package")
            shutil.rmtree(os.path.join(site, ".github"))
        else:
            check(code == 2 and "make dist" in out and "--package-url" in out and "--release" in out and not os.path.exists(workflow),
                  f"without a way chosen or a package of its own, plein new ci says what to do and writes nothing: {out.strip()[-200:]}")
        code, out = run("new", "ci", "--forge", "github", "--release", cwd=users)
        check(code == 0 and os.path.exists(workflow) and "SHA256SUMS" in out, f"new ci --forge github --release, and says which way: {out.strip()[-300:]}")
        check("Source: GitHub Actions" in out and "/settings/pages" in out and "plein help publishing" in out,
              "and ends with the steps left in the forge's settings, with their addresses")
        code, out = run("new", "site", "gitlabclub", "--title", "Club", "--language", "en", "--sections", "members,groups",
                        "--forge", "gitlab", "--package-url", "https://example.org/plein.deb", cwd=work)
        gitlab = os.path.join(work, "gitlabclub/.gitlab-ci.yml")
        check(code == 0 and os.path.exists(gitlab), f"new site --forge gitlab: {out.strip()[-60:]}")
        for path, schema in ((workflow, "vendor.github-workflows"), (gitlab, "vendor.gitlab-ci")):
            result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, path], capture_output=True, text=True)
            check(result.returncode == 0, f"{os.path.basename(path)} is valid against {schema}: {(result.stdout + result.stderr).strip()[-300:]}")
        with open(workflow) as f:
            text = f.read()
        check("plein check --format github" in text and "fetch-depth: 0" in text and "actions/cache@" in text
              and "releases/download/v" in text and '"$PLEIN_RELEASE_URL/SHA256SUMS"' in text and "sha256sum -c -" in text,
              "the workflow checks with annotations, keeps history and the cache, installs the release's package after checking it")
        with open(gitlab) as f:
            gitlab_text = f.read()
        check("plein-ssg" not in gitlab_text, "a package URL of one's own: no address of plein's")
        # The deployed site has what a local build has: search (Pagefind, the version plein is
        # tested with) and web video (ffmpeg); and it is built every day, so events move on.
        with open(os.path.join(ROOT, "Makefile")) as f:
            pinned = next(line.split("pagefind-bin==")[1].split("=")[0] for line in f if "pagefind-bin==" in line)
        for name, ci_text in (("github", text), ("gitlab", gitlab_text)):
            check(f'PAGEFIND_VERSION: "{pinned}"' in ci_text and '"pagefind-bin==$PAGEFIND_VERSION"' in ci_text and " ffmpeg " in ci_text,
                  f"{name}: the build installs Pagefind {pinned} and ffmpeg")
        with open(os.path.join(ROOT, "Containerfile")) as f:
            check(f"pagefind-bin=={pinned}" in f.read(), f"the container image has Pagefind {pinned} too")
        check('schedule:\n    - cron: "17 3 * * *"' in text and "Pipeline schedules" in gitlab_text, "the site is built every day (GitHub: a schedule; GitLab: how to add one)")
        code, out = run("new", "ci", "--forge", "gitlab", "--package-url", "https://example.org/plein.deb", "--package-sha256", "x" * 64, cwd=site)
        check(code == 2 and "is not a SHA-256" in out, f"a package hash that is not one is refused: {out.strip()[-80:]}")
        code, out = run("new", "ci", "--forge", "gitlab", "--package-url", "https://example.org/plein.deb", "--package-sha256", "AB" * 32, cwd=site)
        own = open(os.path.join(site, ".gitlab-ci.yml")).read() if code == 0 else ""
        check('PLEIN_PACKAGE_URL: "https://example.org/plein.deb"' in own and 'echo "$PLEIN_PACKAGE_SHA256  /tmp/plein.deb" | sha256sum -c -' in own
              and f'PLEIN_PACKAGE_SHA256: "{"ab" * 32}"' in own,
              f"a package of one's own, checked by its SHA-256 before it is installed: {out.strip()[-80:]}")
        code, out = run("new", "ci", "--forge", "gitlab", "--release", "--package-url", "https://example.org/plein.deb", cwd=site)
        check(code == 2 and "choose one way" in out, f"two ways at once are refused: {out.strip()[-80:]}")
        check("PLEIN_SECRET: ${{ secrets.PLEIN_SECRET }}" in text and "PUBLIC repository" in text and "paid plan" in text
              and "PLEIN_SECRET" in gitlab_text and "private project" in gitlab_text,
              "both say what a public repository shows, and pass the thread secret to the build")

        print("plein check --format github annotates the changed lines")
        subprocess.run(["git", "init", "-q"], cwd=site, check=True)
        with open(os.path.join(site, "content/users/bad.md"), "w") as f:
            f.write("---\nname: Bad\nemail: bad@example.org\nfriends: [nobody]\n---\n")
        result = subprocess.run([plein, "check", "--format", "github"], cwd=users, capture_output=True, text=True, env=env)
        check(result.returncode == 1 and "::error file=content/users/bad.md,line=4,col=11,endColumn=17,title=plein check%3A unknown-reference::"
              "unknown member 'nobody'" in result.stdout, f"annotation from the repository's root: {result.stdout.strip()[:160]}")
        os.remove(os.path.join(site, "content/users/bad.md"))

        print("a new site's editor tasks, run as VS Code runs them")
        code, out = run("new", "site", "editorclub", "--language", "en", cwd=work)
        check(code == 0, f"new site for the editor: {out.strip()[-80:]}")
        editor_tasks.check_tasks(os.path.dirname(plein), os.path.join(work, "editorclub"), check)

        print("make install, as the README says (the build it depends on is the one under test)")
        prefix = os.path.join(work, "prefix")
        if os.path.realpath(plein) == os.path.realpath(os.path.join(ROOT, ".build/release/plein")):
            result = subprocess.run(["make", "-o", "release", "install", f"PREFIX={prefix}"], cwd=ROOT, capture_output=True, text=True)
            installed = os.path.join(prefix, "bin", "plein")
            help_text = subprocess.run([installed, "help", "publishing"], capture_output=True, text=True).stdout if os.path.exists(installed) else ""
            check(result.returncode == 0 and "Installing plein and publishing a site" in help_text,
                  f"make install PREFIX=… installs plein, which carries its documentation: {result.stderr[-200:]}")

        print("the version, and a clear word outside a site")
        code, out = run("--version", cwd=work)
        check(code == 0 and out.startswith("plein ") and "libvips" in out and "cmark-gfm" in out, f"--version: {out.strip()}")
        code, version = run("version", cwd=work)
        check(code == 0 and version == out, "plein version says the same")
        code, out = run("build", cwd=work)
        check(code == 2 and "no plein site here" in out and "plein new site" in out, f"build outside a site: exit {code}")

        residents(work, run)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"\n{len(failures)} check(s) failed")
        sys.exit(1)
    print("\nall first-site checks passed")


def residents(work, run):
    """A residents' association's first week (issue 57): an English site in a UK time zone on GitHub,
    a members-only committee, issue forms residents can fill in, and an issue that becomes a report."""
    print("a residents' association: a members-only committee in a repository, and issue forms residents can fill in")
    code, out = run("new", "site", "elmstreet", "--title", "Elm Street and Cotham Hill Residents' Association", "--language", "en",
                    "--timezone", "Europe/London", "--sections", "members,groups,reports", "--forge", "github",
                    "--repository", "https://github.com/elmstreet/site", "--release", cwd=work)
    check(code == 0, f"new site --forge github: {out.strip()[-200:]}")
    site = os.path.join(work, "elmstreet")
    content = os.path.join(site, "content")
    files = {
        "places.yaml": "- {name: Cotham Hill, lat: 51.4643, lon: -2.6019, postcode: BS6}\n- {name: Elm Road, lat: 51.4701, lon: -2.5912, postcode: BS6}\n",
        "reports/bs6/area.yaml": "name: Cotham\n",
        "users/joan-price.md": "---\nname: Joan Price\ngithub: joanp\n---\nSecretary.\n",
        "users/tom-hughes.md": "---\nname: Tom Hughes\n---\nTreasurer.\n",
        "groups/street-party/index.md": "---\nname: Street party\nmembers: [joan-price, tom-hughes]\n---\nThe summer party.\n",
    }
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(content, name)), exist_ok=True)
        with open(os.path.join(content, name), "w", encoding="utf-8") as f:
            f.write(text)
    code, out = run("new", "group", "--name", "Committee", "--members", "joan-price,tom-hughes", "--visibility", "members", cwd=site)
    check(code == 0 and "plain text" in out and "private" in out, f"plein new group --visibility members says the repository shows it: {out.strip()[-300:]}")
    code, out = run("check", cwd=site)
    check("groups/committee/index.md" in out and "make the repository private (Settings" in out and "paid plan" in out,
          f"plein check warns at the committee's file, with what to do on GitHub: {out.strip()[-500:]}")
    code, out = run("new", "ci", "--forge", "github", "--release", "--update", cwd=site)
    form_file = os.path.join(site, ".github/ISSUE_TEMPLATE/plein-report.yml")
    form = open(form_file, encoding="utf-8").read() if os.path.exists(form_file) else ""
    check(code == 0 and "Cotham Hill" in form and "51.4643, -2.6019" in form and "52.3631" not in form and '"Cotham (bs6)"' in form
          and '"Needs attention"' in form and "member" not in form.lower().split("body:")[1],
          f"plein new ci --update: the report form offers the site's area and places, English categories, and asks no member id: {out.strip()[-300:]}")
    body = ("### Area\n\nCotham (bs6)\n\n### Title\n\nDark lamp post\n\n### Category\n\nNeeds attention\n\n### When\n\n2026-11-02 21:00\n\n"
            "### Where\n\noutside 12 Elm Road\n\n### What happened\n\nThe lamp is out.\n\n### Photos\n\n_No response_\n")
    issue = {"action": "labeled", "issue": {"number": 7, "body": body, "created_at": "2026-11-03T08:00:00Z", "user": {"login": "JoanP"},
                                             "labels": [{"name": "plein-report"}, {"name": "approved"}]}}
    issue_file = os.path.join(work, "elmstreet-issue.json")
    with open(issue_file, "w", encoding="utf-8") as f:
        json.dump(issue, f)
    code, out = run("new", "from-issue", issue_file, cwd=site)
    report = os.path.join(content, "reports/bs6/2026-11-02-dark-lamp-post.md")
    text = open(report, encoding="utf-8").read() if os.path.exists(report) else ""
    check(code == 0 and "author: joan-price" in text and "category: attention" in text and "location: {lat: 51.4701, lon: -2.5912}" in text
          and "at: 2026-11-02T21:00:00Z" in text,
          f"an issue by @JoanP is Joan's report, placed at the street the site knows, in UK time: {out.strip()[-300:]} {text!r}")
    code, out = run("build", cwd=site)
    check(code == 0, f"the association's site builds: {out.strip()[-300:]}")


if __name__ == "__main__":
    main()
