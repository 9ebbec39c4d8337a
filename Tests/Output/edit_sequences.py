#!/usr/bin/env python3
"""Random sequences of edits, each followed by an incremental build whose output must be
byte-identical to a clean build of the same files: in `plein build`'s path (the build store in
the cache, the output folder swapped) and in `plein serve`'s (every file fetched over HTTP).

Edits: a report's body, title or category; a report moved to another area; a new reply; a report
deleted; a member renamed; a member taken out of a group; a new photo, one replaced, one deleted; a template; site.yaml; a file
broken and then mended; files touched or copied back with the same bytes (nothing may change).
Runs on the demo and on a generated community. `--seed` repeats a run; the seed is printed.

    python3 Tests/Output/edit_sequences.py --plein .build/release/plein [--seed N] [--steps N]
"""
import argparse, glob, hashlib, http.client, os, random, re, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_safety  # noqa: E402  (the Server class and helpers)

ROOT = serve_safety.ROOT
SECRET = "edit-sequences-secret"
check, failures = serve_safety.check, serve_safety.failures


# SHA-256 by (device, inode, size, modification time in ns): a build links the photos' variants
# into its output from the cache, so most bytes of an output are files an earlier tree() read.
# A file written again gets a new time (or a new inode), and so is read again.
_digests = {}


def digest(path):
    info = os.stat(path)
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _digests:
        with open(path, "rb") as f:
            _digests[key] = hashlib.sha256(f.read()).hexdigest()
    return _digests[key]


def tree(folder):
    """Every file below `folder` (hidden top-level entries aside) → SHA-256, and every folder."""
    files, folders = {}, set()
    for base, dirs, names in os.walk(folder):
        rel = os.path.relpath(base, folder)
        if rel == ".":
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            names = [n for n in names if not n.startswith(".")]
        else:
            folders.add(rel)
        for name in names:
            files[os.path.normpath(os.path.join(rel, name))] = digest(os.path.join(base, name))
    return files, folders


class Community:
    """A content folder and a theme in a temporary place, and the edits made to them."""

    def __init__(self, work, name, content):
        self.folder = os.path.join(work, name)
        self.content = os.path.join(self.folder, "content")
        self.templates = os.path.join(self.folder, "templates")
        shutil.copytree(content, self.content, symlinks=True)
        shutil.copytree(os.path.join(ROOT, "templates"), self.templates)
        self.counter = 0
        self.broken = None
        self.queue = None
        self.saved = os.path.join(self.folder, "before-last-edit")
        self.undo_next = False
        self.search = True

    def files(self, pattern):
        return sorted(glob.glob(os.path.join(self.content, pattern)))

    def read(self, path):
        with open(path, encoding="utf-8") as f:
            return f.read()

    def write(self, path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def reports(self):
        return self.files("reports/*/*.md") + self.files("reports/*/*/index.md")

    def referenced(self, path):
        """Whether any other file names this report (deleting or moving it would then break them)."""
        slug = os.path.basename(os.path.dirname(path) if path.endswith("/index.md") else path[:-3])
        for other in glob.glob(os.path.join(self.content, "**/*"), recursive=True):
            if os.path.isfile(other) and not other.startswith(os.path.dirname(path) + "/") and other != path and other.endswith((".md", ".yaml")):
                if slug in self.read(other):
                    return True
        return False

    # Each edit returns a description, or None when it does not apply to this community.
    def body(self, rng):
        path = rng.choice(self.reports())
        self.write(path, self.read(path) + f"\nEen regel erbij ({self.counter}).\n")
        return f"body of {os.path.relpath(path, self.content)}"

    def title(self, rng):
        path = rng.choice(self.reports())
        text = re.sub(r"(?m)^title: .*$", f"title: Bijgewerkt bericht {self.counter}", self.read(path), count=1)
        self.write(path, text)
        return f"title of {os.path.relpath(path, self.content)}"

    def category(self, rng):
        path = rng.choice(self.reports())
        text = self.read(path)
        current = re.search(r"(?m)^category: (\w+)", text)
        if not current:
            return None
        other = rng.choice([c for c in ("attention", "complaint", "message", "suspicious") if c != current.group(1)])
        self.write(path, text.replace(current.group(0), "category: " + other, 1))
        return f"category of {os.path.relpath(path, self.content)} → {other}"

    def singles(self):
        """Reports of one file that no text names; without events' when only edits record by
        record are wanted (an event's calendars are outputs a new or deleted event changes)."""
        return [p for p in self.files("reports/*/*.md") if not self.referenced(p)
                and not (getattr(self, "plain_only", False) and re.search(r"(?m)^starts:", self.read(p)))]

    def move(self, rng):
        singles = self.singles()
        areas = [os.path.dirname(p) for p in self.files("reports/*/area.yaml")] or sorted({os.path.dirname(p) for p in singles})
        if not singles or len(areas) < 2:
            return None
        path = rng.choice(singles)
        target = rng.choice([a for a in areas if a != os.path.dirname(path)])
        shutil.move(path, os.path.join(target, os.path.basename(path)))
        return f"{os.path.relpath(path, self.content)} moved to {os.path.relpath(target, self.content)}"

    def reply(self, rng):
        bundles = self.files("reports/*/*/index.md")
        members = [os.path.basename(p)[:-3] for p in self.files("users/*.md")]
        if not bundles or not members:
            return None
        folder = os.path.dirname(rng.choice(bundles))
        member = rng.choice(members)
        self.write(os.path.join(folder, "replies", f"20261130T{self.counter % 24:02d}00-{member}.md"),
                   f"---\nauthor: {member}\nat: 2026-11-30T{self.counter % 24:02d}:00:00+01:00\n---\nAntwoord nummer {self.counter}.\n")
        return f"a reply on {os.path.relpath(folder, self.content)}"

    def another_reply(self, rng):
        """A reply to a report that has replies (its folder for them is there)."""
        folders = [f for f in self.files("reports/*/*/replies") if os.path.isdir(f) and self.files(f + "/*.md")]
        members = [os.path.basename(p)[:-3] for p in self.files("users/*.md")]
        if not folders or not members:
            return None
        folder, member = rng.choice(folders), rng.choice(members)
        self.write(os.path.join(folder, f"20261130T{self.counter % 24:02d}15-{member}.md"),
                   f"---\nauthor: {member}\nat: 2026-11-30T{self.counter % 24:02d}:15:00+01:00\n---\nNog een antwoord, {self.counter}.\n")
        return f"another reply in {os.path.relpath(folder, self.content)}"

    def new_report(self, rng, name="nieuwe-melding", day=None, at_day=None, text="Iets nieuws in de buurt."):
        """A new report of one file in an area that has reports; `at_day` another day than the
        file's name says gives it a warning."""
        areas = sorted({os.path.dirname(p) for p in self.files("reports/*/*.md")})
        members = [os.path.basename(p)[:-3] for p in self.files("users/*.md")]
        if not areas or not members:
            return None
        area = rng.choice(areas)
        day = day or 1 + self.counter % 28
        path = os.path.join(area, f"2026-11-{day:02d}-{name}-{self.counter}.md")
        self.write(path, f"---\ntitle: Nieuwe melding {self.counter}\ncategory: attention\nat: 2026-11-{at_day or day:02d}T09:30:00+01:00\n"
                         f"author: {rng.choice(members)}\nlocation: {{lat: 52.3601, lon: 4.9301}}\n---\n{text}\n")
        return f"a new report {os.path.relpath(path, self.content)}"

    def new_event(self, rng):
        """A new event of a group that has events (its page and its calendar are new outputs)."""
        folders = sorted({os.path.dirname(p) for p in self.files("groups/*/events/*.md")})
        if not folders:
            return None
        path = os.path.join(rng.choice(folders), f"nieuwe-activiteit-{self.counter}.md")
        self.write(path, f"---\ntitle: Nieuwe activiteit {self.counter}\nstarts: 2027-03-{1 + self.counter % 28:02d}T19:30:00+01:00\n---\n"
                         "Iedereen is welkom.\n")
        return f"a new event {os.path.relpath(path, self.content)}"

    def new_member(self, rng):
        """A new member: somewhere in the order of names, with a friend, a home (near the photos,
        or far from them) or none; taking the address a report's text already holds, when one
        does (`future_address`: the build finds that text's warning). With `plain_only`, one the
        build takes record by record: no home near a photo, no address written before."""
        plain = getattr(self, "plain_only", False)
        members = [os.path.basename(p)[:-3] for p in self.files("users/*.md")]
        name = rng.choice(["Aaltje", "Mees", "Zoë", "Bram"]) + f" Nieuw {self.counter}"
        homes = ["", "home: {lat: 50.8514, lon: 5.6910}\n"] + ([] if plain else ["home: {lat: 52.3702, lon: 4.8952}\n"])
        friend = f"friends: [{rng.choice(members)}]\n" if members and rng.random() < 0.5 else ""
        written = getattr(self, "address", None)
        email = written if written and not plain else f"nieuw-lid-{self.counter}@example.org"
        self.address = None if email == written else written
        path = os.path.join(self.content, "users", f"nieuw-lid-{self.counter}.md")
        self.write(path, f'---\nname: "{name}"\nemail: {email}\njoined: 2026-11-{1 + self.counter % 28:02d}\n{rng.choice(homes)}{friend}---\n'
                         f"Hallo, ik ben nieuw in de buurt.\n")
        return f"a new member {os.path.relpath(path, self.content)} ({email})"

    def new_goal(self, rng):
        """A new open goal of a group that has goals (its leaderboard is there)."""
        folders = sorted({os.path.dirname(p) for p in self.files("groups/*/goals/*.md")})
        if not folders:
            return None
        path = os.path.join(rng.choice(folders), f"nieuw-doel-{self.counter}.md")
        self.write(path, f"---\ntitle: Nieuw doel {self.counter}\npoints: {5 + self.counter % 30}\nadded: 2026-11-{1 + self.counter % 28:02d}\n---\n"
                         "Wie doet mee?\n")
        return f"a new goal {os.path.relpath(path, self.content)}"

    def new_page(self, rng):
        """A page of the site's own, in its menu or not."""
        if not self.files("pages/*.md"):
            return None
        path = os.path.join(self.content, "pages", f"nieuwe-pagina-{self.counter}.md")
        menu = rng.choice(["", "menu: false\n", f"order: {self.counter % 5}\n"])
        self.write(path, f"---\ntitle: Nieuwe pagina {self.counter}\n{menu}---\nOver iets nieuws.\n")
        return f"a new page {os.path.relpath(path, self.content)}"

    def delete_of_group(self, rng, pattern, which=lambda path: True):
        """A group's record of `pattern` deleted; with `plain_only`, of a group that keeps others."""
        paths = [p for p in self.files(pattern) if which(p)]
        if getattr(self, "plain_only", False):
            paths = [p for p in paths if len(self.files(os.path.dirname(p) + "/*.md")) > 1]
        if not paths:
            return None
        path = rng.choice(paths)
        os.remove(path)
        return f"{os.path.relpath(path, self.content)} deleted"

    def delete_event(self, rng):
        """An event deleted (called off)."""
        return self.delete_of_group(rng, "groups/*/events/*.md")

    def delete_goal(self, rng):
        """An open goal deleted."""
        return self.delete_of_group(rng, "groups/*/goals/*.md", lambda p: "completed_by:" not in self.read(p))

    def future_address(self, rng):
        """A report's text that gives an address no member has yet (`new_member` takes it)."""
        files = self.files("reports/*/*.md")
        if not files or getattr(self, "address", None):
            return None
        self.address = f"toekomstig-lid-{self.counter}@example.org"
        path = rng.choice(files)
        self.write(path, self.read(path).rstrip("\n") + f"\n\nMail {self.address} voor de sleutel.\n")
        return f"an address to be in {os.path.relpath(path, self.content)}"

    def warned_report(self, rng):
        """A new report with a warning: its file's name says another day than its time."""
        made = self.new_report(rng, name="melding-met-waarschuwing", day=27, at_day=20, text="Met een waarschuwing.")
        return made and made.replace("a new report", "a new report with a warning")

    WARNING_LINE = "Zie [de kaart](kaart van de buurt.pdf)."

    def warned_edit(self, rng):
        """A report's body edited so that it warns: a link with a space in its address."""
        files = self.files("reports/*/*.md")
        if not files:
            return None
        path = rng.choice(files)
        self.write(path, self.read(path).rstrip("\n") + f"\n\n{self.WARNING_LINE}\n")
        self.warned = path
        return f"a warning in the text of {os.path.relpath(path, self.content)}"

    def unwarned_edit(self, rng):
        """The warning of `warned_edit` mended."""
        path = getattr(self, "warned", None)
        if not path or not os.path.exists(path):
            return None
        self.write(path, self.read(path).replace(f"\n\n{self.WARNING_LINE}\n", "\n"))
        self.warned = None
        return f"the warning in the text of {os.path.relpath(path, self.content)} mended"

    OFFSET = re.compile(r"(?m)^at: \d{4}-(\d{2})-\d{2}T[\d:]+(\+0[12]:00)$")

    def offset_dropped(self, rng):
        """A report's time without its UTC offset (a warning: taken in the site's zone, the same
        moment); then an edit of that file, and the offset given back."""
        def same_moment(text):
            match = self.OFFSET.search(text)
            return match and match.group(1) in (("12", "01", "02") if match.group(2) == "+01:00" else ("05", "06", "07", "08", "09"))
        files = [p for p in self.files("reports/*/*.md") if same_moment(self.read(p))]
        if not files:
            return None
        path = rng.choice(files)
        text = self.read(path)
        match = self.OFFSET.search(text)
        self.write(path, text[:match.start(2)] + text[match.end(2):])
        self.offsetless = (path, match.group(2))
        return f"the UTC offset of {os.path.relpath(path, self.content)} left out"

    def offsetless_body(self, rng):
        path = getattr(self, "offsetless", (None, None))[0]
        if not path or not os.path.exists(path):
            return None
        self.write(path, self.read(path).rstrip("\n") + f"\n\nNog een regel ({self.counter}).\n")
        return f"the text of {os.path.relpath(path, self.content)}, whose time warns"

    def offset_restored(self, rng):
        path, offset = getattr(self, "offsetless", (None, None))
        if not path or not os.path.exists(path):
            return None
        self.write(path, re.sub(r"(?m)^(at: \S+?)$", lambda m: m.group(1) + offset, self.read(path), count=1))
        self.offsetless = (None, None)
        return f"the UTC offset of {os.path.relpath(path, self.content)} given back"

    def delete(self, rng):
        singles = self.singles()
        if not singles:
            return None
        path = rng.choice(singles)
        os.remove(path)
        return f"{os.path.relpath(path, self.content)} deleted"

    def delete_reply(self, rng):
        """A reply deleted; the report's last one takes its reply feed with it."""
        replies = self.files("reports/*/*/replies/*.md")
        if not replies:
            return None
        path = rng.choice(replies)
        os.remove(path)
        return f"the reply {os.path.relpath(path, self.content)} deleted"

    def diver(self, rng):
        """A member starts or stops diving (the count of divers on the home page)."""
        path = rng.choice(self.files("users/*.md"))
        text = self.read(path)
        lines = text.split("\n")
        if any(line.startswith("diving:") for line in lines):
            kept, skipping = [], False
            for line in lines:
                if line.startswith("diving:"):
                    skipping = True
                    continue
                if skipping and line.startswith((" ", "\t")):
                    continue
                skipping = False
                kept.append(line)
            self.write(path, "\n".join(kept))
            return f"member {os.path.relpath(path, self.content)} stops diving"
        self.write(path, re.sub(r"(?m)^(name: .*)$", r"\1\ndiving: {certification: PADI Open Water, years: 3, dives: 40}", text, count=1))
        return f"member {os.path.relpath(path, self.content)} dives"

    def rename(self, rng):
        path = rng.choice(self.files("users/*.md"))
        self.write(path, re.sub(r'(?m)^name: "?([^"(\n]*?)(?: \(\d+\))?"?$', lambda m: f'name: "{m.group(1)} ({self.counter})"', self.read(path), count=1))
        return f"member {os.path.relpath(path, self.content)} renamed"

    def leave_group(self, rng):
        groups = self.files("groups/*/index.md")
        rng.shuffle(groups)
        for path in groups:
            text = self.read(path)
            block = re.search(r"(?m)^members:\n((?:  - .*\n)+)", text)
            if block and block.group(1).count("\n") > 1:
                lines = block.group(1).splitlines(keepends=True)
                gone = rng.choice(lines)
                if re.search(r"(?m)^created_by: " + re.escape(gone.strip()[2:]) + "$", text):
                    continue
                self.write(path, text.replace(block.group(0), "members:\n" + "".join(l for l in lines if l is not gone), 1))
                return f"{gone.strip()[2:]} left {os.path.relpath(os.path.dirname(path), self.content)}"
        return None

    def photo(self, rng):
        albums = self.files("groups/*/albums/*/index.md")
        # (A generated community's albums have none: the demo's photos then, an album's first.)
        photos = self.files("groups/*/albums/*/*.jpg") or sorted(glob.glob(os.path.join(ROOT, "content/groups/*/albums/*/*.jpg")))
        if not albums or not photos:
            return None
        folder = os.path.dirname(rng.choice(albums))
        shutil.copyfile(rng.choice(photos), os.path.join(folder, f"nieuw-{self.counter}.jpg"))
        return f"a new photo in {os.path.relpath(folder, self.content)}"

    def photo_replaced(self, rng):
        """Another photo's bytes under an album photo's name (its variants, order and map are others)."""
        photos = self.files("groups/*/albums/*/*.jpg")
        if len(photos) < 2:
            return None
        target = rng.choice(photos)
        # (Bytes other than its own: a copy of the same photo changes nothing.)
        others = [p for p in photos if open(p, "rb").read() != open(target, "rb").read()]
        if not others:
            return None
        source = rng.choice(others)
        shutil.copyfile(source, target + ".tmp")
        os.replace(target + ".tmp", target)
        return f"{os.path.relpath(target, self.content)} replaced by another photo"

    def photo_gone(self, rng):
        """An album photo deleted (perhaps the album's cover, or one its list names: an error; but
        for the edits that must be built record by record)."""
        photos = self.files("groups/*/albums/*/*.jpg")
        if getattr(self, "plain_only", False):
            photos = [p for p in photos if os.path.basename(p) not in self.read(os.path.join(os.path.dirname(p), "index.md"))]
        if not photos:
            return None
        gone = rng.choice(photos)
        os.remove(gone)
        return f"{os.path.relpath(gone, self.content)} deleted"

    def private_group(self, rng):
        """A group with photos turns private, or a private one public: nothing made from a private
        group's photos may stay in the output or be served."""
        groups = [os.path.dirname(p) for p in self.files("groups/*/index.md")
                  if glob.glob(os.path.join(os.path.dirname(p), "albums", "*", "*.jpg"))]
        if not groups:
            return None
        path = os.path.join(rng.choice(groups), "index.md")
        text = self.read(path)
        if re.search(r"(?m)^visibility: private$", text):
            text, turned = re.sub(r"(?m)^visibility: private$", "visibility: public", text, count=1), "public"
        elif re.search(r"(?m)^visibility: \w+$", text):
            text, turned = re.sub(r"(?m)^visibility: \w+$", "visibility: private", text, count=1), "private"
        else:
            text, turned = "---\nvisibility: private\n" + text[len("---\n"):], "private"
        self.write(path, text)
        return f"{os.path.relpath(os.path.dirname(path), self.content)} turned {turned}"

    # Edits of records other than reports, each in place: the dev server and the build make
    # only that record's pieces again when nothing else reads what changed.
    def append_to(self, pattern, rng, what):
        files = self.files(pattern)
        if not files:
            return None
        path = rng.choice(files)
        self.write(path, self.read(path).rstrip("\n") + f"\n\nEen regel erbij ({self.counter}).\n")
        return f"{what} {os.path.relpath(path, self.content)}"

    def bio(self, rng):
        return self.append_to("users/*.md", rng, "the bio of")

    def group_text(self, rng):
        return self.append_to("groups/*/index.md", rng, "the text of")

    def album_text(self, rng):
        return self.append_to("groups/*/albums/*/index.md", rng, "the story of")

    def page_text(self, rng):
        return self.append_to("pages/*.md", rng, "the page")

    def location_text(self, rng):
        return self.append_to("locations/*.md", rng, "the study place")

    def message_text(self, rng):
        return self.append_to("threads/*/2*.md", rng, "the message")

    def replace_in(self, pattern, rng, field, value, what):
        files = [p for p in self.files(pattern) if re.search(rf"(?m)^{field}: .*$", self.read(p))]
        if not files:
            return None
        path = rng.choice(files)
        self.write(path, re.sub(rf"(?m)^{field}: .*$", f"{field}: {value(self.read(path))}", self.read(path), count=1))
        return f"{what} of {os.path.relpath(path, self.content)}"

    def goal_title(self, rng):
        return self.replace_in("groups/*/goals/*.md", rng, "title", lambda _: f"Een ander doel {self.counter}", "the title")

    def goal_points(self, rng):
        return self.replace_in("groups/*/goals/*.md", rng, "points",
                               lambda text: str(int(re.search(r"(?m)^points: (\d+)", text).group(1)) + 7), "the points")

    def event_title(self, rng):
        return self.replace_in("groups/*/events/*.md", rng, "title", lambda _: f"Bijeenkomst {self.counter}", "the title")

    def checkout(self, rng):
        """A member's last check-in loses its end or gets one: who is where changes."""
        files = self.files("checkins/*.yaml")
        rng.shuffle(files)
        for path in files:
            entries = self.read(path).rstrip("\n").split("\n- ")
            last = entries[-1]
            if "\n  out: " in last:
                entries[-1] = re.sub(r"\n  out: .*", "", last)
            else:
                at = re.search(r"in: (\S+)", last)
                if not at:
                    continue
                entries[-1] = last + "\n  out: " + at.group(1)[:11] + "23:59:00" + at.group(1)[19:]
            self.write(path, "\n- ".join(entries) + "\n")
            return f"the last check-in of {os.path.relpath(path, self.content)}"
        return None

    def template(self, rng):
        path = os.path.join(self.templates, "partials", "report-card.mustache")
        self.write(path, self.read(path).replace("</article>", f"<!-- {self.counter} --></article>", 1))
        return "the report-card partial"

    def template_page(self, rng):
        path = os.path.join(self.templates, "pages", "group.mustache")
        self.write(path, self.read(path).replace("{{/main}}", f"<!-- {self.counter} -->\n{{{{/main}}}}", 1))
        return "the group page's template"

    def settings(self, rng):
        path = os.path.join(self.content, "site.yaml")
        self.write(path, re.sub(r"(?m)^description: .*$", f"description: Een andere beschrijving ({self.counter})", self.read(path), count=1))
        return "site.yaml's description"

    def settings_further(self, rng):
        # (The site's title, with the feeds' length: more than pages show, every stage again.)
        path = os.path.join(self.content, "site.yaml")
        text = re.sub(r"(?m)^title: .*$", f"title: Buurtboek ({self.counter})", self.read(path), count=1)
        self.write(path, re.sub(r"(?m)^  limit: \d+$", f"  limit: {40 + self.counter % 10}", text, count=1))
        return "site.yaml's title and feeds' length"

    def breaks(self, rng):
        path = rng.choice(self.files("users/*.md"))
        self.broken = (path, self.read(path))
        self.write(path, "---\nname: [kapot\n---\n")
        return f"{os.path.relpath(path, self.content)} broken"

    def mend(self, rng):
        path, text = self.broken
        self.broken = None
        self.write(path, text)
        return f"{os.path.relpath(path, self.content)} mended"

    def same_bytes(self, rng):
        """A touch and a copy put back: new times and inodes, the same bytes."""
        for path in rng.sample(self.reports(), 3):
            os.utime(path)
        victim = rng.choice(self.files("users/*.md"))
        shutil.copyfile(victim, victim + ".tmp")
        os.replace(victim + ".tmp", victim)
        return "files touched and copied back"

    EDITS = ["body", "title", "category", "move", "reply", "delete", "rename", "leave_group", "photo", "photo_replaced", "photo_gone",
             "private_group", "template",
             "settings", "settings_further", "template_page", "breaks", "same_bytes", "bio", "group_text", "album_text", "page_text", "location_text", "message_text",
             "goal_title", "goal_points", "event_title", "new_event", "checkout", "new_report", "another_reply", "delete_reply", "diver",
             "warned_report", "warned_edit", "offset_dropped", "future_address", "new_member", "new_goal", "new_page", "delete_event", "delete_goal"]

    def undo(self):
        """Puts the content back as it was before the last edit, file by file (the server's
        watcher keeps watching the same folders)."""
        now = {os.path.relpath(os.path.join(b, n), self.content) for b, _, ns in os.walk(self.content) for n in ns}
        then = {os.path.relpath(os.path.join(b, n), self.saved) for b, _, ns in os.walk(self.saved) for n in ns}
        for path in now - then:
            os.remove(os.path.join(self.content, path))
        for path in then:
            source, target = os.path.join(self.saved, path), os.path.join(self.content, path)
            if path not in now or open(source, "rb").read() != open(target, "rb").read():
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(source, target)
        for base, dirs, names in os.walk(self.content, topdown=False):
            if base != self.content and not os.listdir(base):
                os.rmdir(base)
        return "the last edit undone (it broke the site)"

    def edit(self, rng):
        """Every kind of edit once, in a random order, then any at random. An edit that broke
        the site without meaning to (a member who left a group still has its goals) is undone."""
        self.counter += 1
        if self.undo_next:
            self.undo_next = False
            return "undo", self.undo()
        if self.broken:
            return "mend", self.mend(rng)
        shutil.rmtree(self.saved, ignore_errors=True)
        shutil.copytree(self.content, self.saved, symlinks=True)
        if self.queue is None:
            self.queue = rng.sample(self.EDITS, len(self.EDITS))
        for _ in range(20):
            kind = self.queue.pop() if self.queue else rng.choice(self.EDITS)
            done = getattr(self, kind)(rng)
            if done:
                return kind, done
        return "body", self.body(rng)


def build(plein, community, output, cache, fresh=False, changed=None, base=None):
    """`plein build` of `community`; without search when the community says so (then a build
    after an edit of records in place takes the record-by-record way, which says so in
    `PLEIN_TIMINGS`' lines)."""
    cmd = [plein, "build", "--content", community.content, "--templates", community.templates, "--output", output, "--cache", cache]
    if fresh:
        cmd.append("--fresh")
    if changed:
        cmd += ["--changed", changed]
    if base:
        cmd += ["--base-url", base]
    env = dict(os.environ, PLEIN_SECRET=SECRET, NO_COLOR="1", PLEIN_TIMINGS="1")
    if not community.search:
        env["PLEIN_PAGEFIND"] = "none"
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def read_listing(path):
    with open(path) as f:
        return {tuple(line.rstrip("\n").split("\t", 1)) for line in f if line.strip()}


def expected_listing(before, after):
    return {("A", p) for p in after if p not in before} | {("M", p) for p in after if p in before and before[p] != after[p]} \
        | {("D", p) for p in before if p not in after}


def build_path(plein, community, rng, steps):
    """`plein build` after each edit, against a clean build of the same files."""
    out, clean = os.path.join(community.folder, "public"), os.path.join(community.folder, "clean")
    cache, clean_cache = os.path.join(community.folder, "cache"), os.path.join(community.folder, "clean-cache")
    for folder in (cache, clean_cache):
        serve_safety.media.seed(folder, plein)
    # An output folder from before the build store, with a file no build of this content makes:
    # it must be gone after the first build and stay gone after the next ones.
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "left-from-before.html"), "w") as f:
        f.write("<p>old</p>")
    first = build(plein, community, out, cache)
    check(first.returncode == 0, f"the first build succeeds {first.stderr[-300:]}")
    listing = os.path.join(community.folder, "changed.txt")
    for step in range(steps):
        before, _ = tree(out)
        kind, what = community.edit(rng)
        result = build(plein, community, out, cache, changed=listing)
        reference = build(plein, community, clean, clean_cache, fresh=True)
        label = f"step {step + 1}, {what}"
        check(result.returncode == reference.returncode, f"{label}: the build {'fails' if reference.returncode else 'succeeds'} as a clean one does "
              f"({result.returncode} vs {reference.returncode}) {result.stderr[-400:]}")
        if reference.returncode != 0:
            check(tree(out)[0] == before, f"{label}: the output is left as it was")
            community.undo_next = kind != "breaks"
            continue
        (a, a_dirs), (b, b_dirs) = tree(out), tree(clean)
        differing = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
        check(not differing and a_dirs == b_dirs,
              f"{label}: byte-identical to a clean build ({len(differing)} files differ: {differing[:5]}; "
              f"folders differ: {sorted(a_dirs ^ b_dirs)[:5]})")
        listed, expected = read_listing(listing), expected_listing(before, a)
        check(listed == expected, f"{label}: --changed lists what changed ({len(listed)} lines; missing {sorted(expected - listed)[:3]}, "
              f"extra {sorted(listed - expected)[:3]})")
        if kind == "same_bytes":
            check("nothing changed since the last build" in result.stdout, f"{label}: nothing is rebuilt ({result.stdout.strip()[-200:]})")
        if kind == "body":
            rendered = re.search(r"\((\d+) rendered again\)", result.stdout)
            total = re.search(r"built \d+ pages, (\d+) files", result.stdout)
            check(rendered and total and int(rendered.group(1)) * 4 < int(total.group(1)),
                  f"{label}: only what shows the body is rendered again ({result.stdout.strip()[-160:]})")



def record_by_record(plein, community, rng):
    """Edits in a row of records' files, each of another kind, with search or without: each
    build after an incremental one (whose spare the store vouches for) loads, checks and models
    only what the edited record reaches (`RecordEdit`), and its output is a clean build's."""
    out, cache = os.path.join(community.folder, "public"), os.path.join(community.folder, "cache")
    clean, clean_cache = os.path.join(community.folder, "clean"), os.path.join(community.folder, "clean-cache")
    # A first edit, not checked: the build before it may have failed. (One that stopped on an
    # error in the content gives the spare back as it was, and the next goes record by record;
    # one that failed while it wrote leaves no spare the store vouches for, and the next redoes
    # everything.)
    community.body(rng)
    build(plein, community, out, cache)
    community.plain_only = True
    for kind in ("body", "bio", "group_text", "album_text", "goal_title", "event_title", "page_text", "location_text", "message_text",
                 "another_reply", "new_report", "new_event", "new_member", "new_goal", "new_page", "delete_event", "delete_goal", "reply", "delete", "move", "delete_reply", "diver", "warned_report", "warned_edit",
                 "unwarned_edit", "offset_dropped", "offsetless_body", "offset_restored", "photo", "photo_replaced", "photo_gone"):
        before = tree(out)[0]
        # (A number of its own: a new report named as one the random edits made is no edit.)
        community.counter += 1
        what = getattr(community, kind)(rng)
        if not what:
            continue
        listing = os.path.join(community.folder, "changed-record.txt")
        result = build(plein, community, out, cache, changed=listing)
        reference = build(plein, community, clean, clean_cache, fresh=True)
        a, b = tree(out)[0], tree(clean)[0]
        differing = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
        check(result.returncode == 0 and reference.returncode == 0 and "edited record" in result.stderr
              and "record by record no further" not in result.stderr and not differing,
              f"{what}: built record by record (`RecordEdit`), byte-identical to a clean build "
              f"({len(differing)} files differ: {differing[:5]}) "
              + " / ".join(re.findall(r"(?m)^.*(?:no further|a full build).*$", result.stderr)) + f" {result.stderr[-300:]}")
        listed, expected = read_listing(listing), expected_listing(before, a)
        check(listed == expected, f"{what}: --changed lists what changed record by record ({len(listed)} lines; "
              f"missing {sorted(expected - listed)[:3]}, extra {sorted(listed - expected)[:3]})")
        # As many warnings as the clean build finds, the edited file's shown.
        counted = [re.search(r"(\d+) warnings?\b", r.stdout) for r in (result, reference)]
        warned = [int(m.group(1)) if m else 0 for m in counted]
        check(warned[0] == warned[1], f"{what}: the build record by record counts {warned[0]} warnings, a clean build {warned[1]}")
        if kind in ("warned_report", "warned_edit", "offset_dropped", "offsetless_body"):
            check("warning:" in result.stderr, f"{what}: the build record by record shows the edited file's warning ({result.stderr[-200:]})")
    community.plain_only = False


def committed_edits(plein, community, rng):
    """The content in a git repository, its records edited and committed: the build after each
    commit takes the records whose history moved record by record (their "edited" dates, the
    sitemap's lastmod), an empty commit changes nothing, an amended commit moves what it
    touched; each output is a clean build's (which reads the same history)."""
    out, cache = os.path.join(community.folder, "public"), os.path.join(community.folder, "cache")
    clean, clean_cache = os.path.join(community.folder, "clean"), os.path.join(community.folder, "clean-cache")

    def git(*arguments, day=1):
        stamp = f"2026-11-{day:02d}T10:00:00+01:00"
        env = dict(os.environ, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
        subprocess.run(["git", "-C", community.content, "-c", "user.name=Plein", "-c", "user.email=plein@example.org", *arguments],
                       check=True, capture_output=True, env=env)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "The community")
    build(plein, community, out, cache)
    community.plain_only = True
    steps = [("body", "commit"), ("bio", "commit"), ("reply", "commit"), (None, "empty"), ("body", "amend")]
    for day, (kind, how) in enumerate(steps, start=2):
        what = getattr(community, kind)(rng) if kind else "nothing"
        if kind:
            # (The edit built first, then committed: the commit alone moves the history.)
            build(plein, community, out, cache)
            git("add", "-A", day=day)
        if how == "amend":
            git("commit", "-q", "--amend", "--no-edit", "--date", f"2026-11-{day:02d}T10:00:00+01:00", day=day)
        else:
            git("commit", "-q", "--allow-empty", "-m", what, day=day)
        result = build(plein, community, out, cache)
        reference = build(plein, community, clean, clean_cache, fresh=True)
        a, b = tree(out)[0], tree(clean)[0]
        differing = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
        label = f"{what}, then {'an empty commit' if how == 'empty' else 'a commit' if how == 'commit' else 'the commit amended'}"
        check(result.returncode == 0 and reference.returncode == 0 and not differing,
              f"{label}: byte-identical to a clean build ({len(differing)} files differ: {differing[:5]}) {result.stderr[-300:]}")
        if how == "empty":
            check("nothing changed since the last build" in result.stdout, f"{label}: nothing is rebuilt ({result.stdout.strip()[-200:]})")
        else:
            check("edited record" in result.stderr and "record by record no further" not in result.stderr,
                  f"{label}: built record by record ({result.stderr[-300:]})")
    community.plain_only = False


def fresh_listing(plein, community):
    """`--changed` with `--fresh` (no snapshot to compare with) still lists exactly what changed."""
    out, cache = os.path.join(community.folder, "public"), os.path.join(community.folder, "cache")
    listing = os.path.join(community.folder, "changed-fresh.txt")
    before, _ = tree(out)
    community.title(random.Random(2))
    result = build(plein, community, out, cache, fresh=True, changed=listing)
    listed, expected = read_listing(listing), expected_listing(before, tree(out)[0])
    check(result.returncode == 0 and listed == expected and expected,
          f"--fresh --changed lists what changed ({len(listed)} lines; missing {sorted(expected - listed)[:3]}, extra {sorted(listed - expected)[:3]})")


def hand_edited_output(plein, community):
    """A page deleted from the output by hand, then an edit: the build is right (the spare it
    starts from still has the page), or it fails saying the next build redoes everything, and
    that one is right."""
    out, clean = os.path.join(community.folder, "public"), os.path.join(community.folder, "clean")
    cache, clean_cache = os.path.join(community.folder, "cache"), os.path.join(community.folder, "clean-cache")
    victim = os.path.join(out, "users", "index.html")
    if not os.path.exists(victim):
        return
    os.remove(victim)
    community.body(random.Random(1))
    result = build(plein, community, out, cache)
    if result.returncode != 0:
        check("redoes everything" in result.stderr, f"a page deleted by hand is noticed ({result.stderr[-200:]})")
        result = build(plein, community, out, cache)
    reference = build(plein, community, clean, clean_cache, fresh=True)
    check(result.returncode == 0 and reference.returncode == 0 and tree(out) == tree(clean),
          f"after a page was deleted from the output by hand, the output equals a clean build ({result.stderr[-200:]})")
    # Pages written into in place (as an editor or `>>` does; the output shares its files with
    # plein's spare copy of the last site): the next build puts plein's bytes back, though nothing
    # changed, and so do the builds after an edit.
    pages = sorted(p for p in tree(out)[0] if p.endswith(".html"))
    for step, rng in enumerate((random.Random(2), random.Random(3))):
        edited = [os.path.join(out, p) for p in rng.sample(pages, min(3, len(pages)))]
        for path in edited:
            with open(path, "ab") as f:
                f.write(b"<!-- changed by hand -->")
        if step:
            community.body(rng)
            reference = build(plein, community, clean, clean_cache, fresh=True)
        result = build(plein, community, out, cache)
        check(result.returncode == 0 and tree(out) == tree(clean) and "since the last build (by hand" in result.stderr,
              f"pages written into by hand are made again{' after an edit' if step else ', though nothing else changed'}, "
              f"and the build says why: {result.stderr.strip()[-240:]}")
        result = build(plein, community, out, cache)
        check(result.returncode == 0 and tree(out) == tree(clean) and "since the last build (by hand" not in result.stderr,
              f"and the build after that trusts the output again: {result.stderr.strip()[-160:]}")


class Fetcher:
    """GET requests over one kept-alive connection, as a browser makes them, opened again when
    the server closes it (after an idle timeout): thousands of files per step cost a connection
    each otherwise, on both sides."""

    def __init__(self, port):
        self.port, self.connection = port, None

    def get(self, path):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            try:
                self.connection.request("GET", path, headers={"Host": f"localhost:{self.port}"})
                response = self.connection.getresponse()
                body = response.read()
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt:
                    raise
                continue
            if response.will_close:
                self.close()
            return response.status, body

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def serve_path(plein, community, rng, steps):
    """`plein serve` after each edit: every file of a clean build is served with its bytes (the
    reload script aside), and files a clean build lacks are not."""
    port = serve_safety.free_port()
    base = f"http://127.0.0.1:{port}/"
    server = serve_safety.Server.__new__(serve_safety.Server)
    server.folder, server.content, server.port = community.folder, community.content, port
    server.log_path = os.path.join(community.folder, "serve.log")
    server.log = open(server.log_path, "w")
    serve_cache = serve_safety.media.seed(os.path.join(community.folder, "serve-cache"), plein)
    server.process = subprocess.Popen(
        [plein, "serve", "--content", community.content, "--templates", community.templates, "--cache", serve_cache,
         "--port", str(port), "--base-url", base],
        stdout=server.log, stderr=subprocess.STDOUT, env=dict(os.environ, PLEIN_SECRET=SECRET, NO_COLOR="1"))
    clean, clean_cache = os.path.join(community.folder, "serve-clean"), os.path.join(community.folder, "serve-clean-cache")
    serve_safety.media.seed(clean_cache, plein)
    injection = None
    try:
        check(server.wait_for("built "), "the server builds the site")
        previous, kind = set(), None
        for step in range(steps + 1):
            label = "the first build"
            if step:
                before = server.rebuilds()
                kind, what = community.edit(rng)
                label = f"step {step}, {what}"
                if "nothing" not in what and "touched" not in what:
                    server.wait_rebuild(before, timeout=120)
                # An edit can arrive as several events: wait until the server is quiet.
                settled = -1
                while settled != server.rebuilds():
                    settled = server.rebuilds()
                    time.sleep(0.8)
            reference = build(plein, community, clean, clean_cache, fresh=True, base=base)
            if reference.returncode != 0:
                status, _, body = server.request("/feed.xml")
                check(status == 200, f"{label}: the last good site is still served ({status})")
                community.undo_next = kind != "breaks"
                continue
            files, _ = tree(clean)
            wrong = []
            fetcher = Fetcher(port)
            for path in sorted(files):
                status, body = fetcher.get("/" + path)
                with open(os.path.join(clean, path), "rb") as f:
                    expected = f.read()
                # `plein serve` registers no service worker (its pages name none), and its sw.js
                # takes one away (offline_check.py checks both).
                if path == "sw.js" and status == 200 and b"unregister()" in body:
                    continue
                expected = re.sub(rb' data-worker="[^"]*" data-scope="[^"]*"', b"", expected) if path.endswith(".html") else expected
                if path.endswith(".html") and status == 200 and body != expected:
                    if injection is None:
                        cut = next((i for i in range(min(len(body), len(expected))) if body[i] != expected[i]), len(expected))
                        injection = body[cut:cut + len(body) - len(expected)]
                    body = body.replace(injection, b"", 1)
                if status != 200 or body != expected:
                    wrong.append(f"{path} ({status})")
            gone = [p for p in previous - set(files) if fetcher.get("/" + p)[0] == 200]
            fetcher.close()
            check(not wrong and not gone, f"{label}: every file as a clean build makes it ({len(files)} files; wrong {wrong[:4]}; "
                  f"still served after removal {gone[:4]})")
            previous = set(files)
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    # Every kind of edit once in `plein build` (then any), half of them in `plein serve`.
    parser.add_argument("--steps", type=int, default=len(Community.EDITS))
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    print(f"edit sequences with --seed {args.seed}")
    with tempfile.TemporaryDirectory(prefix="plein-edits-") as work:
        generated = os.path.join(work, "generated")
        subprocess.run([sys.executable, os.path.join(ROOT, "tools/bench/generate.py"), "--reports", "150", "--members", "60", "--groups", "8",
                        "--out", generated],
                       check=True, capture_output=True)
        generated_content = os.path.join(generated, "content") if os.path.isdir(os.path.join(generated, "content")) else generated
        for name, content in (("demo", os.path.join(ROOT, "content")), ("generated", generated_content)):
            rng = random.Random(f"{args.seed}-{name}")
            print(f"{name}: plein build")
            community = Community(work, name + "-build", content)
            # The generated community is built without search, the demo with it (its index's
            # shards made again record by record too).
            community.search = name == "demo"
            build_path(plein, community, rng, args.steps)
            if community.broken is None and not community.undo_next:
                record_by_record(plein, community, rng)
                hand_edited_output(plein, community)
                fresh_listing(plein, community)
                committed_edits(plein, community, rng)
            print(f"{name}: plein serve")
            serve_path(plein, Community(work, name + "-serve", content), rng, max(4, args.steps // 2))
    if failures:
        print(f"{len(failures)} check(s) failed (repeat with --seed {args.seed})")
        sys.exit(1)
    print("all edit-sequence checks passed")


if __name__ == "__main__":
    main()
