#!/usr/bin/env python3
"""Album videos, as readers and authors meet them: the demo's phone video is published as web
MP4 (H.264/AAC, at most 1080 pixels high, index first, no metadata) with a poster; the gallery
shows a play mark and its length; the feed names it; headless Chromium plays it without an
error; a rebuild makes nothing again; and without ffmpeg the build warns about it by name and
offers a copy without its metadata as a download.

    python3 Tests/Output/video_check.py --plein .build/release/plein
"""
import argparse, glob, json, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import localsite, media  # noqa: E402  (the media made once per test run)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALBUM = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland"
VIDEO = "haven-brouwershaven-filmpje"
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def build(plein, content, output, cache, env=None):
    proc = subprocess.run([plein, "build", "--content", content, "--output", output, "--cache", cache,
                           "--templates", os.path.join(ROOT, "templates")],
                          capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1", **(env or {})), timeout=600)
    if proc.returncode != 0:
        fail(f"plein build exited with {proc.returncode}:\n{(proc.stdout + proc.stderr)[-1500:]}")
    return proc.stdout + proc.stderr


def probe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path],
                         capture_output=True, text=True).stdout
    return json.loads(out or "{}")


def metadata(path):
    """What exiftool finds that a phone would have written: position, times, phone."""
    tags = json.loads(subprocess.run(["exiftool", "-json", "-G1", "-a", path], capture_output=True, text=True).stdout or "[{}]")[0]
    return sorted(k for k, v in tags.items()
                  if ("GPS" in k or "Location" in k or k.startswith(("UserData:", "Keys:", "ItemList:")))
                  or (k.endswith("CreateDate") and not str(v).startswith("0000")))


def check_published(site):
    page = open(os.path.join(site, ALBUM, VIDEO, "index.html"), encoding="utf-8").read()
    tag = re.search(r"<video ([^>]*)>\s*<source src=\"([^\"]+)\" type=\"video/mp4\">", page)
    if not tag:
        fail(f"{ALBUM}/{VIDEO}/: no <video> with an MP4 source")
        return None
    attributes, src = tag.group(1), tag.group(2)
    for needed in ("controls", 'preload="none"', "poster=", "width=", "height="):
        if needed not in attributes:
            fail(f"{ALBUM}/{VIDEO}/: <video> lacks {needed}")
    poster = re.search(r'poster="([^"]+)"', attributes).group(1)
    if not os.path.isfile(os.path.join(site, poster.lstrip("/"))):
        fail(f"the poster {poster} is not published")
    mp4 = os.path.join(site, src.lstrip("/"))
    info = probe(mp4)
    video = [s for s in info.get("streams", []) if s["codec_type"] == "video"]
    audio = [s for s in info.get("streams", []) if s["codec_type"] == "audio"]
    if not video or video[0]["codec_name"] != "h264" or video[0]["height"] > 1080 or not audio or audio[0]["codec_name"] != "aac":
        fail(f"{src}: not H.264/AAC within 1080 pixels: {[(s['codec_name'], s.get('height')) for s in info.get('streams', [])]}")
    width, height = int(re.search(r'width="(\d+)"', attributes).group(1)), int(re.search(r'height="(\d+)"', attributes).group(1))
    if video and (video[0]["width"], video[0]["height"]) != (width, height):
        fail(f"{src}: {video[0]['width']} × {video[0]['height']}, but the page reserves {width} × {height}")
    head = open(mp4, "rb").read(1 << 20)
    if head.find(b"moov") < 0 or (head.find(b"mdat") >= 0 and head.find(b"moov") > head.find(b"mdat")):
        fail(f"{src}: the index (moov) is not before the media: no +faststart")
    left = metadata(mp4)
    if left or set(info.get("format", {}).get("tags", {})) - {"major_brand", "minor_version", "compatible_brands"}:
        fail(f"{src} keeps metadata: {left} {info.get('format', {}).get('tags')}")
    album = open(os.path.join(site, ALBUM, "index.html"), encoding="utf-8").read()
    tile = re.search(r'<a href="[^"]*/' + VIDEO + r'/" class="video-tile">.*?</a>', album, re.S)
    if not tile or "play-mark" not in tile.group(0) or not re.search(r'<time datetime="PT\d+S">0:0\d</time>', tile.group(0)):
        fail("the album's tile of the video has no play mark or length")
    feed = open(os.path.join(site, "groups/duikclub-de-zeehond/feed.xml"), encoding="utf-8").read()
    if not re.search(r"Video, 0:0\d", feed):
        fail("the group feed does not name the video")
    if not failures:
        print(f"ok   {src}: H.264/AAC {width} × {height}, index first, no metadata; poster, play mark, length and feed entry")
    return f"/{ALBUM}/{VIDEO}/"


def check_in_browser(site, path):
    from playwright.sync_api import sync_playwright

    server = localsite.serve(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
            page = browser.new_page()
            errors = []
            # Map tiles come from the internet, which this machine may not reach: only the page's own files count.
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "ERR_NAME_NOT_RESOLVED" not in m.text else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"http://127.0.0.1:{server.server_address[1]}{path}")
            played = page.evaluate("""async () => {
                const v = document.querySelector('video');
                v.muted = true;
                try { await v.play(); } catch (e) { return {failed: String(e)}; }
                await new Promise(r => setTimeout(r, 1500));
                return {time: v.currentTime, error: v.error && v.error.code, width: v.videoWidth, ready: v.readyState};
            }""")
            browser.close()
        if played.get("failed") or played.get("error") or not played.get("time", 0) > 0.3 or errors:
            fail(f"Chromium could not play the video at {path}: {played} {errors}")
        else:
            print(f"ok   Chromium plays {path} ({played['time']:.1f} s in, {played['width']} pixels wide), no errors")
    finally:
        server.shutdown()


def check_without_ffmpeg(plein, tmp):
    site, cache = os.path.join(tmp, "plain"), os.path.join(tmp, "plain-cache")
    # The photos are not what this checks: their variants come from the shared media.
    media.seed(cache, plein, kinds=["images"])
    output = build(plein, os.path.join(ROOT, "content"), site, cache, env={"PLEIN_FFMPEG": "none"})
    if not re.search(re.escape(f"{ALBUM}/{VIDEO}.mov") + r":\d+:\d+: warning: ffmpeg is not installed", output):
        fail(f"without ffmpeg: no warning naming the video:\n{output[-1200:]}")
    page = open(os.path.join(site, ALBUM, VIDEO, "index.html"), encoding="utf-8").read()
    link = re.search(r'<a href="([^"]+\.mov)" download>', page)
    if not link or "<video" in page:
        fail("without ffmpeg: the video page offers no download link")
        return
    copy = os.path.join(site, link.group(1).lstrip("/"))
    source = os.path.join(ROOT, "content", ALBUM, VIDEO + ".mov")
    if not metadata(source):
        fail("the demo video carries no metadata to remove: the check proves nothing")
    left = metadata(copy)
    if left:
        fail(f"without ffmpeg: the download keeps metadata: {left}")
    elif abs(float(probe(copy).get("format", {}).get("duration", 0)) - float(probe(source)["format"]["duration"])) > 0.1:
        fail("without ffmpeg: the download no longer plays as long as the video")
    else:
        print(f"ok   without ffmpeg: a warning naming the video, and a download without {', '.join(metadata(source))}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    with tempfile.TemporaryDirectory() as tmp:
        site, cache = os.path.join(tmp, "site"), os.path.join(tmp, "cache")
        # The video is made here, from nothing; the photos' variants come from the shared media.
        media.seed(cache, plein, kinds=["images"])
        first = build(plein, os.path.join(ROOT, "content"), site, cache)
        if not failures and not re.search(r"1 video \(1 made\)", first):
            fail(f"the first build did not make the video:\n{first[-600:]}")
        if not failures:
            path = check_published(site)
            if path:
                check_in_browser(site, path)
            again = build(plein, os.path.join(ROOT, "content"), os.path.join(tmp, "again"), cache)
            if not re.search(r"1 video \(0 made\)", again):
                fail(f"a rebuild with nothing changed made the video again:\n{again[-600:]}")
            else:
                print("ok   a rebuild with nothing changed makes no video again: it is found in the cache")
        check_without_ffmpeg(plein, tmp)
    if failures:
        print(f"\n{len(failures)} video check(s) failed")
        sys.exit(1)
    print("all video checks passed")


if __name__ == "__main__":
    main()
