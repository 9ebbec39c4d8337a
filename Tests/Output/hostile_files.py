#!/usr/bin/env python3
"""Hostile files: `plein check` (and `plein build` for images) over damaged copies of the demo.

Every text file of the demo is truncated, has bytes flipped, gets NUL bytes and invalid UTF-8,
all in one copy per kind of damage (several seeds each); then single files are replaced by deeply
nested YAML, a YAML alias bomb ("billion laughs"), a 1.5 MB line, a 10 MB line and a 100 MB file;
images are truncated, damaged, oversized and made into a decompression bomb; album videos are
garbage, cut in half, 0 seconds long and 4K at 60 fps. Every run must end
in bounded time and memory, with exit status 0 or 1 (never a crash), and where the damage
makes a file invalid, the report names that file.

    python3 Tests/Output/hostile_files.py --plein .build/release/plein
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402  (the media made once per test run)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = 120          # per run, for a debug build on a slow machine
MEMORY_MIB = 1024      # peak resident memory per run
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def run(plein, args, label):
    """Runs plein under /usr/bin/time; returns (status, output) after checking the bounds."""
    start = time.monotonic()
    try:
        proc = subprocess.run(["/usr/bin/time", "-f", "maxrss=%M", plein] + args, capture_output=True, text=True,
                              errors="replace", timeout=SECONDS, env=dict(os.environ, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        fail(f"{label}: plein {args[0]} did not finish within {SECONDS} s")
        return None, ""
    seconds = time.monotonic() - start
    rss = re.findall(r"maxrss=(\d+)", proc.stderr)
    mib = int(rss[-1]) / 1024 if rss else 0
    output = proc.stdout + proc.stderr
    if proc.returncode not in (0, 1) or "Fatal error" in output or "Command terminated by signal" in output:
        fail(f"{label}: plein {args[0]} exited with {proc.returncode}:\n{output[-1500:]}")
    if mib > MEMORY_MIB:
        fail(f"{label}: plein {args[0]} used {mib:.0f} MiB (limit {MEMORY_MIB})")
    return proc.returncode, output, seconds, mib


def text_files(content):
    return sorted(os.path.relpath(os.path.join(d, n), content) for d, _, ns in os.walk(content) for n in ns
                  if n.endswith((".md", ".yaml")))


def image_files(content):
    return sorted(os.path.relpath(os.path.join(d, n), content) for d, _, ns in os.walk(content) for n in ns
                  if n.lower().endswith((".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".avif")))


def named(output, path):
    return re.search(r"(^|\s|/)" + re.escape(path) + r":\d+:\d+: (error|warning)", output, re.M) is not None


def damage_all(plein, tmp, name, damage, must_name, seeds=1):
    """Applies `damage(bytes, rng)` to every text file of a fresh copy of the demo and checks."""
    worst = (0, 0)
    for seed in range(seeds):
        content = os.path.join(tmp, f"{name}-{seed}")
        shutil.copytree(os.path.join(ROOT, "content"), content)
        rng = random.Random(f"{name}-{seed}")
        files = text_files(content)
        for rel in files:
            path = os.path.join(content, rel)
            data = open(path, "rb").read()
            open(path, "wb").write(damage(data, rng))
        result = run(plein, ["check", "--content", content], f"{name} (seed {seed})")
        if result[0] is None:
            continue
        status, output, seconds, mib = result
        worst = (max(worst[0], seconds), max(worst[1], mib))
        if must_name:
            missing = [rel for rel in files if not named(output, rel)]
            if missing:
                fail(f"{name}: the report does not name {len(missing)} damaged files, e.g. {missing[:3]}")
        shutil.rmtree(content)
    return worst


def truncate(data, rng):
    return data[:rng.randrange(0, max(1, len(data)))]


def flip(data, rng):
    data = bytearray(data)
    for _ in range(3):
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def nul(data, rng):
    at = rng.randrange(0, len(data) + 1)
    return data[:at] + b"\0" + data[at:]


def bad_utf8(data, rng):
    at = rng.randrange(0, len(data) + 1)
    return data[:at] + b"\xff\xfe\xc3(" + data[at:]


def single_files(content):
    """One file of each kind that carries YAML, and whether it has front matter."""
    files = text_files(content)
    picks = []
    for pattern in (r"^site\.yaml$", r"^places\.yaml$", r"^users/[^/]+\.md$", r"^groups/[^/]+/index\.md$",
                    r"^groups/[^/]+/goals/[^/]+\.md$", r"^reports/[^/]+/area\.yaml$", r"^reports/[^/]+/[^/]+\.md$",
                    r"^checkins/[^/]+\.yaml$", r"^locations/[^/]+\.md$"):
        match = next((f for f in files if re.search(pattern, f)), None)
        if match:
            picks.append(match)
    return picks


def wrap(rel, yaml_text, body=b"Tekst.\n"):
    if rel.endswith(".md"):
        return b"---\n" + yaml_text + b"\n---\n" + body
    return yaml_text + b"\n" + (b"# " + body.replace(b"\n", b" ") + b"\n" if len(body) > 1000 else b"")


def hostile_yaml(plein, tmp):
    content = os.path.join(tmp, "single")
    shutil.copytree(os.path.join(ROOT, "content"), content)
    bomb = b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + b"".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n".encode() for i in range(8))
    cases = {
        "deeply nested YAML": lambda rel: wrap(rel, b"name: " + b"[" * 100_000 + b"]" * 100_000),
        "deeply nested maps": lambda rel: wrap(rel, b"".join(b"  " * i + b"k:\n" for i in range(5000)) + b"  " * 5000 + b"v"),
        "a YAML alias bomb": lambda rel: wrap(rel, bomb + b"name: *i\ntitle: *i\nmembers: *i"),
        "a 1.5 MB line": lambda rel: wrap(rel, b'name: "' + b"x" * 1_500_000 + b'"'),
        "a 10 MB line": lambda rel: wrap(rel, b'name: "' + b"x" * 10_000_000 + b'"'),
        "a 100 MB file": lambda rel: wrap(rel, b"name: Groot", b"woord " * 17_500_000),
    }
    worst = (0, 0)
    for label, make in cases.items():
        for rel in single_files(content):
            path = os.path.join(content, rel)
            original = open(path, "rb").read()
            open(path, "wb").write(make(rel))
            result = run(plein, ["check", "--content", content], f"{rel} with {label}")
            open(path, "wb").write(original)
            if result[0] is None:
                continue
            status, output, seconds, mib = result
            worst = (max(worst[0], seconds), max(worst[1], mib))
            if label == "a 1.5 MB line":
                pass  # under the size limit, and a long value may be valid: only the bounds hold
            elif status != 1 or not named(output, rel):
                fail(f"{rel} with {label}: expected an error naming the file, got status {status}:\n{output[-800:]}")
            elif label in ("a 10 MB line", "a 100 MB file"):
                if not re.search(re.escape(rel) + r":\d+:\d+: error: .*the limit is", output):
                    fail(f"{rel} with {label}: expected the size limit to be named:\n{output[-800:]}")
    shutil.rmtree(content)
    return worst


def hostile_images(plein, tmp):
    """Damaged and oversized images: `plein build` names each and never crashes."""
    content = os.path.join(tmp, "images")
    shutil.copytree(os.path.join(ROOT, "content"), content)
    images = [rel for rel in image_files(content) if "/albums/" in rel]
    rng = random.Random("images")
    damaged, later = {}, {}
    for i, rel in enumerate(images[:8]):
        path = os.path.join(content, rel)
        data = open(path, "rb").read()
        if i % 4 == 0:
            data = data[:len(data) // 3]                     # cut off mid-stream: the header reads
        elif i % 4 == 1:
            data = bytearray(data)
            for _ in range(50):
                data[rng.randrange(1000, len(data))] ^= 0xFF  # damaged after the header
            data = bytes(data)
        elif i % 4 == 2:
            later[path] = data[:40]                          # hardly a header
            continue
        else:
            later[path] = b"not an image at all\n" * 10
            continue
        open(path, "wb").write(data)
        damaged[rel] = i % 4
    # Images whose headers read but whose pixels are damaged: the build decodes them (the check
    # reads only headers) and must finish, naming any it cannot use, without crashing. The
    # undamaged photos' variants come from the shared media: the damaged ones are new files.
    cache = media.seed(os.path.join(tmp, "images-cache"), plein)
    build = ["build", "--content", content, "--output", os.path.join(tmp, "images-out"),
             "--templates", os.path.join(ROOT, "templates"), "--cache", cache]
    result = run(plein, build, "damaged images")
    worst = (0, 0)
    if result[0] is not None:
        status, output, seconds, mib = result
        worst = (seconds, mib)
        if status == 1:
            unnamed = [rel for rel in damaged if not named(output, rel)]
            if not re.search(r"error", output) or len(unnamed) == len(damaged):
                fail(f"damaged images: the failed build names none of them:\n{output[-1200:]}")
    # Files that are no images at all, or hardly a header: the check names each.
    for path, data in later.items():
        open(path, "wb").write(data)
    result = run(plein, ["check", "--content", content], "unreadable images")
    if result[0] is not None:
        status, output, seconds, mib = result
        for path in later:
            if not named(output, os.path.relpath(path, content)):
                fail(f"{os.path.relpath(path, content)} (unreadable): expected a diagnostic naming it:\n{output[-1200:]}")
        # A JPEG cut off mid-stream, which the build cannot decode: the check refuses it too (a
        # green check means a green build), naming it and why.
        for rel in [rel for rel, kind in damaged.items() if kind == 0 and rel.lower().endswith((".jpg", ".jpeg"))]:
            if not re.search(re.escape(rel) + r":\d+:\d+: error: .*ends before its image does", output):
                fail(f"{rel} (cut short): expected plein check to refuse it as the build does:\n{output[-1200:]}")
            else:
                print(f"ok   {rel}, cut short, is refused by plein check as by the build")
        for path in later:
            os.remove(path)
    album = os.path.dirname(os.path.join(content, images[0]))
    # Over the 64 MiB limit for image files (sparse: it costs no disk).
    big = os.path.join(album, "enorm.jpg")
    with open(big, "wb") as f:
        f.write(open(os.path.join(content, images[-1]), "rb").read())
        f.truncate(65 * 1024 * 1024)
    # A decompression bomb: a small PNG file of 120 million pixels (the default limit is 100 million).
    bomb = os.path.join(album, "pixelbom.png")
    subprocess.run(["vips", "black", bomb + "[compression=9]", "12000", "10000"], check=True)
    # The same in HEIC: a phone photo whose header claims 12000 × 10000 pixels.
    heic_bomb = os.path.join(album, "pixelbom.heic")
    phone = os.path.join(tmp, "phone.heic")
    subprocess.run(["vips", "copy", os.path.join(content, images[-1]), phone + "[compression=hevc,Q=30]"], check=True)
    data = bytearray(open(phone, "rb").read())
    at = data.index(b"ispe")                       # image spatial extents: version, width, height
    data[at + 8:at + 16] = (12000).to_bytes(4, "big") + (10000).to_bytes(4, "big")
    open(heic_bomb, "wb").write(data)
    refused = [big, bomb, heic_bomb]
    for command in (["check", "--content", content], build):
        result = run(plein, command, f"oversized images ({command[0]})")
        if result[0] is None:
            continue
        status, output, seconds, mib = result
        worst = (max(worst[0], seconds), max(worst[1], mib))
        for rel in [os.path.relpath(path, content) for path in refused]:
            if status != 1 or not re.search(re.escape(rel) + r":\d+:\d+: error", output):
                fail(f"{rel}: expected plein {command[0]} to refuse it by name:\n{output[-1200:]}")
    for path in refused:
        os.remove(path)
    # Phone photos gone wrong: a HEIC cut off mid-stream, and a "HEIC" that is really a JPEG.
    phone_data = open(phone, "rb").read()
    cut = os.path.join(album, "afgebroken.heic")
    open(cut, "wb").write(phone_data[:len(phone_data) * 2 // 3])
    fake = os.path.join(album, "eigenlijk-jpeg.heic")
    shutil.copy(os.path.join(content, images[-1]), fake)
    result = run(plein, build, "damaged phone photos")
    if result[0] is not None:
        status, output, seconds, mib = result
        worst = (max(worst[0], seconds), max(worst[1], mib))
        for path, what in ((cut, "error"), (fake, "error")):
            rel = os.path.relpath(path, content)
            if not re.search(re.escape(rel) + r":\d+:\d+: " + what, output):
                fail(f"{rel}: expected an {what} naming it:\n{output[-1200:]}")
    return worst


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + list(arguments), check=True)


def hostile_videos(plein, tmp):
    """Damaged, empty and heavy videos: `plein build` names the ones it cannot use, makes a web
    copy of the heavy one in bounded time, and leaves no partial video in its cache or output."""
    content = os.path.join(tmp, "videos")
    shutil.copytree(os.path.join(ROOT, "content"), content)
    album = os.path.join(content, "groups/duikclub-de-zeehond/albums/duikweekend-zeeland")
    cache, output = os.path.join(tmp, "videos-cache"), os.path.join(tmp, "videos-out")
    # The photos and the demo's own video are not what this checks: they come from the shared
    # media. The videos below are new files, made here.
    media.seed(cache, plein)
    build = ["build", "--content", content, "--output", output, "--templates", os.path.join(ROOT, "templates"), "--cache", cache]
    # 4K at 60 frames a second, as a recent phone films: published at 1080 pixels and 30 fps.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=60:duration=2", "-c:v", "libx264", "-preset", "ultrafast",
           "-pix_fmt", "yuv420p", os.path.join(album, "vier-k.mp4"))
    result = run(plein, build, "a 4K 60 fps video")
    worst = (0, 0)
    if result[0] is not None:
        status, output_text, seconds, mib = result
        worst = (seconds, mib)
        if status != 0:
            fail(f"a 4K 60 fps video: the build failed:\n{output_text[-1200:]}")
        else:
            published = [os.path.join(d, n) for d, _, ns in os.walk(os.path.join(output, "media")) for n in ns if n == "vier-k.mp4"]
            probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,avg_frame_rate",
                                    "-of", "csv=p=0"] + published[:1], capture_output=True, text=True).stdout.strip()
            if probe != "1920,1080,30/1":
                fail(f"a 4K 60 fps video: published as {probe or 'nothing'}, not 1920 × 1080 at 30 fps")
    # Garbage, a video cut in half, and one without a single frame: each an error naming it.
    demo_video = os.path.join(album, "haven-brouwershaven-filmpje.mov")
    data = open(demo_video, "rb").read()
    bad = {"rommel.mp4": bytes(random.Random("video").randrange(256) for _ in range(20000)),
           "afgebroken.mov": data[len(data) // 2:]}
    for name, payload in bad.items():
        open(os.path.join(album, name), "wb").write(payload)
    ffmpeg("-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "0", "-c:v", "libx264", os.path.join(album, "leeg.mp4"))
    result = run(plein, build, "damaged videos")
    if result[0] is not None:
        status, output_text, seconds, mib = result
        worst = (max(worst[0], seconds), max(worst[1], mib))
        for name in list(bad) + ["leeg.mp4"]:
            rel = os.path.relpath(os.path.join(album, name), content)
            if status != 1 or not re.search(re.escape(rel) + r":\d+:\d+: error", output_text):
                fail(f"{rel}: expected an error naming it:\n{output_text[-1200:]}")
    partial = [os.path.join(d, n) for root in (cache, output) for d, _, ns in os.walk(root) for n in ns if ".tmp-" in n]
    if partial:
        fail(f"partial files were left behind: {partial[:5]}")
    return worst


REPORT = "reports/1011/2026-09-09-fietswrakken-oude-schans"


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, _, ns in os.walk(root) for n in ns)


def hostile_pull_request(plein, tmp):
    """What a pull request can carry (issue 34): each reproduction of the security review gives a
    diagnostic that names the file, and nothing of it reaches the output."""
    content = os.path.join(tmp, "pull-request")
    shutil.copytree(os.path.join(ROOT, "content"), content)
    report = os.path.join(content, REPORT)
    out, cache = os.path.join(tmp, "pull-request-out"), media.seed(os.path.join(tmp, "pull-request-cache"), plein)
    build = ["build", "--content", content, "--output", out, "--templates", os.path.join(ROOT, "templates"), "--cache", cache]
    worst = [0, 0]

    def checked(args, label, status):
        result = run(plein, args, label)
        if result[0] is None:
            return ""
        worst[0], worst[1] = max(worst[0], result[2]), max(worst[1], result[3])
        if result[0] != status:
            fail(f"{label}: plein {args[0]} exited with {result[0]}, not {status}:\n{result[1][-1500:]}")
        return result[1]

    def write(name, data):
        open(os.path.join(report, name), "wb").write(data)

    # Attachments that would take the report's own files: errors that stop the build.
    write("index.html", b'<script>alert("index")</script>INDEX-OVERRIDE\n')
    write("feed.xml", b"FEED-OVERRIDE\n")
    for command in (["check", "--content", content], build):
        output = checked(command, f"an attachment named like the report's page ({command[0]})", 1)
        for name in ("index.html", "feed.xml"):
            if not re.search(re.escape(f"{REPORT}/{name}") + r":\d+:\d+: error: .*" + re.escape(f"{REPORT}/{name}") + ".*report's own", output):
                fail(f"{command[0]}: {name} is not an error naming both paths:\n{output[-800:]}")
    if os.path.exists(out):
        fail("a build with an attachment named index.html wrote an output")
    os.remove(os.path.join(report, "index.html"))
    os.remove(os.path.join(report, "feed.xml"))

    # Types a browser would run as part of the site: warnings, and left out.
    write("page.html", b"<script>alert(document.domain)</script>\n")
    write("kaart.svg", b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>\n')
    write("code.js", b"alert(1)\n")
    write("nep.pdf", b"<html><script>alert('pdf')</script></html>\n")
    shutil.copy(os.path.join(content, "users/anna-de-vries.md"), os.path.join(report, "anna.md"))
    shutil.copy(os.path.join(content, "users/anna-de-vries.md"), os.path.join(report, "anna.txt"))
    write("plan.pdf", b"%PDF-1.4\n%%EOF\n")
    write("notities.txt", b"Gewone tekst.\n")
    # A registered address typed into a published text: a warning at its line.
    index = os.path.join(report, "index.md")
    open(index, "a").write("\nMail anna.devries@example.nl voor meer.\n")
    # A carriage return in an event's title: one line everywhere.
    event = os.path.join(content, "groups/duikclub-de-zeehond/events/nieuwjaarsduik-vinkeveen.md")
    text = open(event).read().replace("title: Nieuwjaarsduik in de Vinkeveense Plassen", 'title: "Nieuwjaarsduik\\r\\nin Vinkeveen\\r"')
    open(event, "w").write(text)
    output = checked(build, "unsafe attachment types", 0)
    for name in ("page.html", "kaart.svg", "code.js", "nep.pdf", "anna.md"):
        if not named(output, f"{REPORT}/{name}"):
            fail(f"{name} is not named in a warning:\n{output[-800:]}")
    if not re.search(re.escape(f"{REPORT}/index.md") + r":\d+:6: warning: .*e-mail address of member 'anna-de-vries'", output):
        fail(f"a registered address in a report's text gave no warning at its place:\n{output[-800:]}")
    if not re.search(re.escape(f"{REPORT}/anna.txt") + r":3:\d+: warning: .*e-mail address of member 'anna-de-vries'", output):
        fail(f"a member's file copied as a text attachment gave no warning:\n{output[-800:]}")

    published = files_under(os.path.join(out, REPORT))
    if sorted(published) != ["anna.txt", "feed.xml", "index.html", "notities.txt", "plan.pdf"]:
        fail(f"the report's folder holds {published}, not its page, its feed and its three safe attachments")
    os.remove(os.path.join(report, "anna.txt"))
    page = open(os.path.join(out, REPORT, "index.html"), encoding="utf-8").read()
    if "INDEX-OVERRIDE" in page or not page.lstrip().lower().startswith("<!doctype html>"):
        fail("the report's page is not plein's")
    for rel in files_under(out):
        data = open(os.path.join(out, rel), "rb").read()
        if b"alert(document.domain)" in data or b"alert('pdf')" in data or b'onload="alert(1)"' in data:
            fail(f"{rel} carries an attachment's script")
        if b"Nieuwjaarsduik\r" in data or b"Nieuwjaarsduik\\r" in data:
            fail(f"{rel} carries the carriage return of an event's title")

    # The output owns its bytes: writing into it changes neither the content nor the cache.
    with open(os.path.join(out, REPORT, "notities.txt"), "ab") as f:
        f.write(b"deploy step\n")
    if b"deploy step" in open(os.path.join(report, "notities.txt"), "rb").read():
        fail("writing into public/ changed the content")
    variants = [rel for rel in files_under(out) if rel.startswith("media/") and rel.endswith(".webp")]
    made = {rel: open(os.path.join(out, rel), "rb").read() for rel in variants[:3]}
    for rel in made:
        with open(os.path.join(out, rel), "r+b") as f:
            f.write(b"corrupt")
    checked(build + ["--fresh"], "a fresh build after writing into public/", 0)
    for rel, data in made.items():
        if open(os.path.join(out, rel), "rb").read() != data:
            fail(f"writing into public/{rel} changed the cache: a fresh build published the damage")
    cached = {(os.stat(os.path.join(d, n)).st_dev, os.stat(os.path.join(d, n)).st_ino)
              for root in (cache, content) for d, _, ns in os.walk(root) for n in ns}
    shared = [rel for rel in files_under(out) if (os.stat(os.path.join(out, rel)).st_dev, os.stat(os.path.join(out, rel)).st_ino) in cached]
    if shared:
        fail(f"{len(shared)} output files are the content's or the cache's own files, e.g. {shared[:3]}")

    # Links: to its own folder (twice), to a thread, to a member's file, in a loop; a hard link out.
    for name, target in (("a", "."), ("b", "."), ("thread", "../../../threads/" + sorted(os.listdir(os.path.join(content, "threads")))[0]),
                         ("anna.txt", "../../../users/anna-de-vries.md"), ("een.txt", "twee.txt"), ("twee.txt", "een.txt")):
        os.symlink(target, os.path.join(report, name))
    secret = os.path.join(tmp, "secret.txt")
    open(secret, "w").write("outside\n")
    os.link(secret, os.path.join(report, "buiten.txt"))
    start = time.monotonic()
    output = checked(["check", "--content", content], "symbolic and hard links", 1)
    if time.monotonic() - start > 30:
        fail(f"checking a tree of links took {time.monotonic() - start:.0f} s")
    for name in ("a", "b", "thread", "anna.txt", "een.txt", "twee.txt", "buiten.txt"):
        if not re.search(re.escape(f"{REPORT}/{name}") + r":\d+:\d+: error:", output):
            fail(f"the link {name} is not an error at the link:\n{output[-800:]}")
    serve_names_the_links(plein, tmp, content, cache)
    return worst


def serve_names_the_links(plein, tmp, content, cache):
    """`plein serve` on the same links: it answered 503 "building" for ever while its memory grew
    (the watcher walked the links). Now its error page names them."""
    import socket, urllib.request, urllib.error
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = open(os.path.join(tmp, "pull-request-serve.log"), "w")
    server = subprocess.Popen([plein, "serve", "--content", content, "--templates", os.path.join(ROOT, "templates"), "--cache", cache,
                               "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline, status, body = time.monotonic() + 60, None, ""
        while time.monotonic() < deadline:
            time.sleep(0.5)
            try:
                with urllib.request.urlopen(f"http://localhost:{port}/", timeout=5) as response:
                    status, body = response.status, response.read().decode("utf-8", "replace")
            except urllib.error.HTTPError as error:
                status, body = error.code, error.read().decode("utf-8", "replace")
            except OSError:
                continue
            if status != 503:
                break
        if status != 500 or "symbolic link" not in body or f"{REPORT}/a" not in body:
            fail(f"serve on a tree of links answered {status}, not an error page naming the links")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    with tempfile.TemporaryDirectory() as tmp:
        for name, damage, must_name, seeds in (("truncated", truncate, False, 3), ("flipped bytes", flip, False, 3),
                                              ("NUL bytes", nul, True, 1), ("invalid UTF-8", bad_utf8, True, 1)):
            before = len(failures)
            seconds, mib = damage_all(plein, tmp, name, damage, must_name, seeds)
            if len(failures) == before:
                print(f"ok   every demo file {name} ({seeds} seed{'s' if seeds > 1 else ''}): checked in ≤ {seconds:.1f} s, ≤ {mib:.0f} MiB"
                      + (", every file named" if must_name else ""))
        before = len(failures)
        seconds, mib = hostile_yaml(plein, tmp)
        if len(failures) == before:
            print(f"ok   deep nesting, alias bombs, 1.5/10 MB lines and 100 MB files: refused by name in ≤ {seconds:.1f} s, ≤ {mib:.0f} MiB")
        before = len(failures)
        seconds, mib = hostile_images(plein, tmp)
        if len(failures) == before:
            print(f"ok   damaged, oversized and pixel-bomb images: named, never a crash, ≤ {seconds:.1f} s, ≤ {mib:.0f} MiB")
        before = len(failures)
        seconds, mib = hostile_pull_request(plein, tmp)
        if len(failures) == before:
            print(f"ok   a pull request's attachments, links and hard links: refused by name, nothing of them published, the output owns its bytes, ≤ {seconds:.1f} s, ≤ {mib:.0f} MiB")
        before = len(failures)
        seconds, mib = hostile_videos(plein, tmp)
        if len(failures) == before:
            print(f"ok   damaged, empty and 4K 60 fps videos: named or made, never a crash or a partial file, ≤ {seconds:.1f} s, ≤ {mib:.0f} MiB")
    if failures:
        print(f"{len(failures)} hostile-file checks failed")
        sys.exit(1)
    print("all hostile-file checks passed")


if __name__ == "__main__":
    main()
