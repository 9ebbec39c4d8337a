#!/usr/bin/env python3
"""Generates a synthetic community for the benchmark, and the same pages as a Hugo site.

Deterministic: the same --seed and --reports give the same files, byte for byte.

    python3 tools/bench/generate.py --reports 10000 [--shape same-pages] --out /tmp/bench-10k

writes /tmp/bench-10k/content (plein) and /tmp/bench-10k/hugo (a Hugo site of the pages plein makes
of the reports and members: see `hugo_site`). `--shape same-pages` leaves out of plein's content
what Hugo's site does not render (replies, groups, study places, check-ins, pages, members' homes,
diving logs and follows), so that the two build the same pages; the default, `full`, has them all.
`--shape realistic` is `same-pages` with texts written as people write them: reports of 2-4 KB in
four to six paragraphs with a bulleted list, emphasis, and links to the site's own pages and to
others (`Gen.prose`); `--shape realistic-full` is `full` with such texts (for the edits of every kind).
"""
import argparse, os, random, shutil

WORDS = ("buurt straat fiets gracht brug melding bewoner avond ochtend regen zon plein park boom "
         "container afval lamp stoep auto scooter hond kat markt feest school winkel tram bus "
         "geluid water kade haven duiker fles wrak zee strand duin vuurtoren moestuin kas oogst "
         "pompoen tomaat bibliotheek studie tentamen koffie thee fietsenstalling gemeente politie "
         "wijkagent buurthuis vrijwilliger rommelmarkt lichtjes kerst sinterklaas zomer herfst").split()
CATEGORIES = ["suspicious", "attention", "event", "complaint", "message"]
FIRST = ("Anna Bram Carla Daan Eva Fenna Gijs Hanna Isa Jesse Kees Lotte Mehmet Noah Olga Priya "
         "Quinten Roos Sanne Thijs Umut Vera Wout Xander Yara Zoë Daniël Joëlle Sophie Lucas").split()
LAST = ("de Vries, Jansen, de Boer, Bakker, Visser, Smit, Mulder, de Graaf, Brouwer, Kok, Vermeulen, "
        "Hendriks, Çelik, van Dijk, El Amrani, Ramdin, van 't Hof, Dekker, Peters, Meijer").split(", ")


def slugify(text):
    out, dash = [], False
    for ch in text.lower().replace("ë", "e").replace("ç", "c").replace("'", ""):
        if ch.isascii() and ch.isalnum():
            if dash and out:
                out.append("-")
            out.append(ch)
            dash = False
        else:
            dash = True
    return "".join(out)


class Gen:
    def __init__(self, seed, reports, out, shape="full"):
        self.r = random.Random(seed)
        # "full": every record kind; "same-pages": only what Hugo's twin renders too (reports in
        # their areas, members with their profiles), so that the two build the same pages;
        # "realistic": the same pages, of texts written as people write them (`prose`);
        # "realistic-full": every record kind, of such texts.
        self.shape = shape
        self.reports, self.out = reports, out
        self.members, self.groups = 2000, 200
        self.content = os.path.join(out, "content")
        self.hugo = os.path.join(out, "hugo")

    def words(self, n):
        return " ".join(self.r.choice(WORDS) for _ in range(n))

    def sentence(self):
        s = self.words(self.r.randint(8, 16))
        return s[0].upper() + s[1:] + "."

    def body(self, size):
        parts, length = [], 0
        while length < size:
            kind = self.r.random()
            if kind < 0.12:
                p = "\n".join(f"- {self.words(self.r.randint(3, 7))}" for _ in range(self.r.randint(2, 4)))
            elif kind < 0.2:
                p = f"Zie ook [de gemeente](https://www.amsterdam.nl/) of *{self.words(2)}* en **{self.words(1)}**."
            else:
                p = " ".join(self.sentence() for _ in range(self.r.randint(2, 5)))
            parts.append(p)
            length += len(p)
        return "\n\n".join(parts) + "\n"

    def text(self, size):
        """A short text of about `size` bytes (a reply, a group's, a goal's, a page's): as people
        write it in the realistic shapes."""
        return self.prose(size, 2 * size) if self.shape.startswith("realistic") else self.body(size)

    def prose(self, low, high, links=()):
        """A text as people write one ("realistic"): four to six paragraphs of longer sentences,
        some words in *emphasis* or **bold**, links inside sentences to the site's own pages
        (`links`: paths such as /reports/<area>/<slug>/) and to other sites, and one bulleted list;
        between `low` and `high` bytes."""
        target = self.r.randint(low, high)

        def sentence():
            words = [self.r.choice(WORDS) for _ in range(self.r.randint(10, 24))]
            pick = self.r.random()
            at = self.r.randrange(1, len(words) - 2)
            if pick < 0.18:
                words[at] = f"*{words[at]}*"
            elif pick < 0.28:
                words[at] = f"**{words[at]} {words[at + 1]}**"
                del words[at + 1]
            elif pick < 0.36 and links:
                words[at] = f"[{words[at]} {words[at + 1]}]({self.r.choice(links)})"
                del words[at + 1]
            elif pick < 0.42:
                site = self.r.choice(["https://www.amsterdam.nl/", "https://www.politie.nl/mijn-buurt/", "https://nl.wikipedia.org/wiki/Buurt",
                                      "https://www.knmi.nl/nederland-nu/weer", "https://9292.nl/"])
                words[at] = f"[{words[at]}]({site})"
            s = " ".join(words)
            return s[0].upper() + s[1:] + self.r.choice([".", ".", ".", "!", "?"])

        paragraphs = [" ".join(sentence() for _ in range(self.r.randint(3, 6))) for _ in range(self.r.randint(4, 6))]
        listed = "\n".join(f"- {sentence()}" for _ in range(self.r.randint(3, 6)))
        paragraphs.insert(self.r.randint(1, len(paragraphs) - 1), listed)
        text = "\n\n".join(paragraphs)
        while len(text.encode()) < target:
            text += "\n\n" + " ".join(sentence() for _ in range(self.r.randint(3, 5)))
        return text + "\n"

    def write(self, root, path, text):
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def stamp(self, day, minute):
        # A local time in Amsterdam `day` days after 2026-01-01, with that moment's real UTC offset,
        # so the date in a file name is the date plein sees in the site's time zone.
        import datetime, zoneinfo
        t = datetime.datetime(2026, 1, 1) + datetime.timedelta(days=day, minutes=minute)
        offset = t.replace(tzinfo=zoneinfo.ZoneInfo("Europe/Amsterdam")).strftime("%z")
        return t, t.strftime("%Y-%m-%dT%H:%M:00") + offset[:3] + ":" + offset[3:]

    def run(self):
        shutil.rmtree(self.out, ignore_errors=True)
        c = self.content
        self.write(c, "site.yaml", "title: Bench Buurt\nbase_url: https://bench.example.org/\nlanguage: nl\n"
                   "timezone: Europe/Amsterdam\ndescription: Een synthetische buurt voor de benchmark.\nfeeds:\n  limit: 50\n")
        places = []
        for i in range(50):
            places.append((f"Plaats {i:02d}", round(52.0 + self.r.random() * 0.8, 4), round(4.3 + self.r.random() * 1.2, 4)))
        full = self.shape in ("full", "realistic-full")
        if full:
            self.write(c, "places.yaml", "".join(f"- {{name: {n}, lat: {la}, lon: {lo}}}\n" for n, la, lo in places))

        members = []
        for i in range(self.members):
            name = f"{self.r.choice(FIRST)} {self.r.choice(LAST)} {i}"
            members.append((slugify(name), name))
        areas = [str(1001 + i) for i in range(40)]
        report_ids = []
        realistic = self.shape.startswith("realistic")
        # (The site's own pages a realistic text links to: members', areas', earlier reports'.)
        links = [f"/users/{id}/" for id, _ in members[:200]] + [f"/reports/{area}/" for area in areas]
        for a, area in enumerate(areas):
            lat, lon = 52.30 + (a % 8) * 0.02, 4.80 + (a // 8) * 0.03
            text = f"name: Gebied {area}\ncenter: {{lat: {lat}, lon: {lon}}}\n"
            if a % 4 == 0:
                text += "boundary:\n" + "".join(f"  - {{lat: {round(lat + dy, 4)}, lon: {round(lon + dx, 4)}}}\n"
                                                for dy, dx in [(-0.008, -0.012), (-0.008, 0.012), (0.008, 0.012), (0.008, -0.012)])
            self.write(c, f"reports/{area}/area.yaml", text)
            self.write(self.hugo, f"content/reports/{area}/_index.md", f"---\ntitle: \"Gebied {area}\"\n---\n")
        # The reports' page lists the areas and has the map of every report; feeds are the areas'.
        self.write(self.hugo, "content/reports/_index.md", "---\ntitle: Meldingen\noutputs: [HTML, GeoJSON]\n---\n")
        for i in range(self.reports):
            area = areas[i % len(areas)]
            t, at = self.stamp(self.r.randint(0, 320), self.r.randint(0, 1439))
            title = self.sentence()[:-1][:60].strip()
            slug = f"{t:%Y-%m-%d}-{slugify(title)[:40].strip('-')}-{i}"
            category = self.r.choice(CATEGORIES)
            author = self.r.choice(members)[0]
            body = self.prose(2000, 4000, links) if realistic else self.body(2000)
            lat = round(52.30 + (areas.index(area) % 8) * 0.02 + self.r.uniform(-0.005, 0.005), 6)
            lon = round(4.80 + (areas.index(area) // 8) * 0.03 + self.r.uniform(-0.008, 0.008), 6)
            front = (f"---\ntitle: \"{title}\"\ncategory: {category}\nat: {at}\nauthor: {author}\n"
                     f"location: {{lat: {lat}, lon: {lon}}}\n---\n")
            if self.r.random() < 0.3 and full:
                self.write(c, f"reports/{area}/{slug}/index.md", front + body)
                for k in range(self.r.randint(1, 5)):
                    rt, rat = self.stamp(int((t - __import__('datetime').datetime(2026, 1, 1)).days) + 1 + k, self.r.randint(0, 1439))
                    who = self.r.choice(members)[0]
                    self.write(c, f"reports/{area}/{slug}/replies/{rt:%Y%m%dT%H%M}-{who}.md",
                               f"---\nauthor: {who}\nat: {rat}\n---\n{self.text(300)}")
            else:
                self.write(c, f"reports/{area}/{slug}.md", front + body)
            report_ids.append(f"{area}/{slug}")
            # (Only for realistic texts: the other shapes' random draws stay as they were.)
            if realistic and (len(links) < 400 or self.r.random() < 0.05):
                links.append(f"/reports/{area}/{slug}/")
            self.write(self.hugo, f"content/reports/{area}/{slug}.md",
                       f"---\ntitle: \"{title}\"\ndate: {at}\ncategory: \"{category}\"\nusers: [\"{author}\"]\n"
                       f"location: {{lat: {lat}, lon: {lon}}}\n---\n{body}")
        for j, (id, name) in enumerate(members):
            lines = [f"name: \"{name}\"", f"email: {id}@bench.example.org", "joined: 2025-06-01"]
            # (In "same-pages" a member has a profile only: no home on the map, no diving log,
            # no reports followed, whose feed Hugo's twin would lack.)
            if full and j % 3 == 0:
                lines.append(f"home: {self.r.choice(places)[0]}")
            elif full and j % 3 == 1:
                lines.append(f"home: {{lat: {round(52.3 + self.r.random() * 0.1, 4)}, lon: {round(4.8 + self.r.random() * 0.2, 4)}}}")
            if full and j % 5 == 0:
                lines.append(f"diving: {{certification: PADI Open Water, years: {self.r.randint(1, 20)}, dives: {self.r.randint(5, 500)}}}")
            if full and j % 7 == 0:
                lines.append("follows: [" + ", ".join(self.r.sample(report_ids, 3)) + "]")
            bio = self.prose(300, 700) if realistic else self.body(500)
            self.write(c, f"users/{id}.md", "---\n" + "\n".join(lines) + "\n---\n" + bio)
            # A member is a term of the `users` taxonomy: its page (the profile, then the member's
            # reports) and its feed, at /users/<id>/ as plein's.
            self.write(self.hugo, f"content/users/{id}/_index.md", f"---\ntitle: \"{name}\"\n---\n{bio}")
        if full:
            self.other_records(members)
        self.hugo_site()

    def other_records(self, members):
        """Groups with goals and albums, study places and check-ins, the site's own pages: the
        record kinds Hugo's twin does not render."""
        c = self.content
        for g in range(self.groups):
            gid = f"groep-{g:03d}"
            people = self.r.sample(members, self.r.randint(5, 15))
            ids = [p[0] for p in people]
            self.write(c, f"groups/{gid}/index.md", f"---\nname: Groep {g:03d}\nmembers: [{', '.join(ids)}]\ncreated_by: {ids[0]}\n---\n{self.text(300)}")
            for k in range(5):
                done = k % 2 == 0
                text = f"---\ntitle: \"Doel {k} van groep {g}\"\npoints: {self.r.choice([5, 10, 20, 50])}\nadded_by: {ids[0]}\nadded: 2026-02-01\n"
                if done:
                    text += f"completed_by: {self.r.choice(ids)}\ncompleted_at: {self.stamp(60 + g % 200, k * 60)[1]}\n"
                self.write(c, f"groups/{gid}/goals/doel-{k}.md", text + "---\n" + self.text(200))
            self.write(c, f"groups/{gid}/albums/album-{g:03d}/index.md", f"---\ntitle: Album {g:03d}\ndate: 2026-05-01\n---\n{self.text(200)}")
        for l in range(20):
            self.write(c, f"locations/plek-{l:02d}.md", f"---\nname: Studieplek {l:02d}\naddress: Straat {l}\nlocation: {{lat: 52.3{l:02d}, lon: 4.9{l:02d}}}\n"
                       f"seats: {self.r.randint(20, 300)}\nstudent_id_required: {'true' if l % 2 else 'false'}\nopening_hours:\n  mon-fri: \"08:00-22:00\"\n  sat-sun: \"10:00-18:00\"\n---\n{self.text(300)}")
        for m in range(min(300, self.members)):
            id = members[m][0]
            entries = []
            for k in range(10):
                _, tin = self.stamp(200 + k * 3, 9 * 60 + m % 60)
                _, tout = self.stamp(200 + k * 3, 12 * 60 + m % 60)
                entries.append(f"- location: plek-{(m + k) % 20:02d}\n  in: {tin}\n  out: {tout}\n")
            self.write(c, f"checkins/{id}.yaml", "".join(entries))
        # The site's own pages (none in Hugo's twin: a handful of pages, for the edits of a page).
        for k, title in enumerate(["Over de buurt", "Contact", "Spelregels", "Privacy", "Vrijwilligers", "Geschiedenis"]):
            self.write(c, f"pages/{slugify(title)}.md", f"---\ntitle: {title}\norder: {k}\n---\n{self.text(800)}")

    def hugo_site(self):
        """The Hugo site of the same pages as plein's over reports and members: a page per report;
        per area a list of its reports with summaries, an RSS feed, a JSON Feed and a GeoJSON map;
        per member (a term of the `users` taxonomy) the profile with the member's reports, and a
        feed; the list of members, the home page with its feeds, the map of all reports, the
        sitemap, robots.txt and the 404 page. Feeds are named feed.xml and feed.json, as plein's."""
        h = self.hugo
        self.write(h, "config.toml", '''baseURL = "https://bench.example.org/"
languageCode = "nl"
title = "Bench Buurt"
enableRobotsTXT = true
[taxonomies]
  user = "users"
[services.rss]
  limit = 50
[mediaTypes."application/feed+json"]
  suffixes = ["json"]
[mediaTypes."application/geo+json"]
  suffixes = ["geojson"]
[outputFormats.RSS]
  baseName = "feed"
[outputFormats.JSONFeed]
  mediaType = "application/feed+json"
  baseName = "feed"
  isPlainText = true
  rel = "alternate"
[outputFormats.GeoJSON]
  mediaType = "application/geo+json"
  baseName = "map"
  isPlainText = true
[outputs]
  home = ["HTML", "RSS", "JSONFeed"]
  section = ["HTML", "RSS", "JSONFeed", "GeoJSON"]
  taxonomy = ["HTML"]
  term = ["HTML", "RSS"]
''')
        base = """<!DOCTYPE html>
<html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · {{ .Site.Title }}</title><meta name="description" content="{{ .Summary | plainify | truncate 160 }}">
<link rel="canonical" href="{{ .Permalink }}"><meta property="og:title" content="{{ .Title }}"><meta property="og:url" content="{{ .Permalink }}">
{{ range .AlternativeOutputFormats -}}<link rel="{{ .Rel }}" type="{{ .MediaType.Type }}" href="{{ .Permalink }}">{{ end }}
</head><body><header><a href="/">{{ .Site.Title }}</a><nav><ul><li><a href="/users/">Leden</a></li><li><a href="/reports/">Meldingen</a></li></ul></nav></header>
<main>{{ block "main" . }}{{ end }}</main><footer>{{ .Site.Title }}</footer></body></html>
"""
        item = ('<article><h3><a href="{{ .RelPermalink }}">{{ .Title }}</a></h3> <time datetime="{{ .Date.Format "2006-01-02T15:04:05-07:00" }}">'
                '{{ .Date.Format "2 January 2006" }}</time> <span>{{ .Params.category }}</span><p>{{ .Summary | plainify | truncate 160 }}</p></article>')
        self.write(h, "layouts/_default/baseof.html", base)
        self.write(h, "layouts/_default/single.html", '{{ define "main" }}<article><h1>{{ .Title }}</h1><p>{{ .Params.category }}</p>'
                   '{{ range .GetTerms "users" }}<p><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></p>{{ end }}'
                   '<time datetime="{{ .Date.Format "2006-01-02T15:04:05-07:00" }}">{{ .Date.Format "2 January 2006 15:04" }}</time>'
                   '{{ .Content }}</article>{{ end }}')
        # An area and a member (the profile, then their reports); the reports' own page lists the
        # areas, as plein's, not every report.
        self.write(h, "layouts/_default/list.html", '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}'
                   '{{ if and (eq .Kind "section") .Parent.IsHome }}<ul>{{ range .Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> '
                   '<span>{{ len .RegularPages }}</span></li>{{ end }}</ul>{{ else }}{{ range .RegularPagesRecursive }}' + item + '{{ end }}{{ end }}{{ end }}')
        self.write(h, "layouts/_default/terms.html", '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}'
                   '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <span>{{ len .Pages }}</span></li>{{ end }}</ul>{{ end }}')
        self.write(h, "layouts/index.html", '{{ define "main" }}<h1>{{ .Site.Title }}</h1>{{ range first 8 (where .Site.RegularPages "Section" "reports") }}'
                   + item + '{{ end }}{{ end }}')
        self.write(h, "layouts/404.html", '{{ define "main" }}<h1>Niet gevonden</h1><p><a href="/">{{ .Site.Title }}</a></p>{{ end }}')
        self.write(h, "layouts/_default/list.jsonfeed.json", '{"version":"https://jsonfeed.org/version/1.1","title":{{ .Title | jsonify }},'
                   '"home_page_url":{{ .Permalink | jsonify }},"feed_url":{{ with .OutputFormats.Get "JSONFeed" }}{{ .Permalink | jsonify }}{{ end }},"items":['
                   '{{ range $i, $p := first 50 .RegularPagesRecursive }}{{ if $i }},{{ end }}{"id":{{ $p.Permalink | jsonify }},'
                   '"url":{{ $p.Permalink | jsonify }},"title":{{ $p.Title | jsonify }},"content_html":{{ $p.Content | jsonify }},'
                   '"date_published":{{ $p.Date.Format "2006-01-02T15:04:05Z07:00" | jsonify }}}{{ end }}]}')
        self.write(h, "layouts/_default/list.geojson.geojson", '{"type":"FeatureCollection","features":['
                   '{{ range $i, $p := .RegularPagesRecursive }}{{ if $i }},{{ end }}{"type":"Feature","geometry":{"type":"Point",'
                   '"coordinates":[{{ $p.Params.location.lon }},{{ $p.Params.location.lat }}]},"properties":{"title":{{ $p.Title | jsonify }},'
                   '"url":{{ $p.RelPermalink | jsonify }},"category":{{ $p.Params.category | jsonify }},'
                   '"date":{{ $p.Date.Format "2006-01-02" | jsonify }}}}{{ end }}]}')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--out", required=True)
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--shape", choices=["full", "same-pages", "realistic", "realistic-full"], default="full",
                        help="full: every record kind; same-pages: reports and members only, the pages Hugo's twin makes; "
                             "realistic: the same pages, of 2-4 KB texts written as people write them; realistic-full: every record kind, of such texts")
    args = parser.parse_args()
    gen = Gen(args.seed, args.reports, args.out, args.shape)
    gen.members, gen.groups = args.members, args.groups
    gen.run()
    print(f"generated {args.reports} reports in {args.out}")


if __name__ == "__main__":
    main()
