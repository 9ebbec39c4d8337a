"""Derived images and videos made once per test run and shared by every later build of it.

A cold build of the demo spends nearly all its time making photo variants (WebP, AVIF, JPEG)
and the video's web copy: 12 s and 19 s of CPU with a debug plein, against 0.5 s when they are
in the cache. The checks build the demo dozens of times, and only a few of those builds are
about making media. So one build of each content folder with media (the demo and the hostile
fixture) makes them, into a folder that `make test` names in `PLEIN_TEST_MEDIA`; every other
build starts from a cache whose `images/` and `videos/` are hard links to those files.

Shared read-only: plein writes cache files under temporary names and renames them into place,
and prunes by unlinking, so a build changes its own links and never the shared files. The test
runner proves it: their SHA-256 are taken when they are made and compared at the end.

The checks whose subject is making media (a video made and played, images killed while being
made) do not call `seed`, or seed only what is not their subject. Run alone, without
`PLEIN_TEST_MEDIA`, a check makes the shared media itself on first use (in a temporary folder
removed when it exits).
"""
import atexit, hashlib, os, shutil, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = "PLEIN_TEST_MEDIA"
# The content folders whose media the checks build, each made once. Their private groups are
# built as if they were public, so the shared media hold their photos' variants too: every
# check then builds with those in its cache, and none of them may be published.
SOURCES = {"demo": os.path.join(ROOT, "content"), "hostile": os.path.join(ROOT, "Tests", "Fixtures", "hostile")}


def opened(content, folder):
    """A copy of `content` in `folder` whose private groups are public."""
    shutil.copytree(content, folder, symlinks=True)
    for base, _, names in os.walk(os.path.join(folder, "groups")):
        if "index.md" in names and os.path.dirname(base) == os.path.join(folder, "groups"):
            path = os.path.join(base, "index.md")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace("\nvisibility: private\n", "\nvisibility: public\n").replace("\nvisibility: members\n", "\nvisibility: public\n"))
    return folder
# The parts of a cache that hold media, named by the hash of their source: the rest of a cache
# (the build store, the search indexes, served copies) belongs to one build.
KINDS = ("images", "videos")

_made_here = None


# Beside the media in the shared folder: the SHA-256 of each file when they were made.
FINGERPRINT = "sha256sums"


def prepare(plein, folder):
    """Builds every content folder in `SOURCES` once and gathers their media in `folder`, with
    their fingerprint. Returns how many files it holds."""
    os.makedirs(folder, exist_ok=True)
    work = tempfile.mkdtemp(prefix="plein-media-")
    try:
        for name, content in SOURCES.items():
            cache = os.path.join(work, name + "-cache")
            content = opened(content, os.path.join(work, name + "-content"))
            result = subprocess.run([plein, "build", "--content", content, "--templates", os.path.join(ROOT, "templates"),
                                     "--output", os.path.join(work, name), "--cache", cache],
                                    capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
            if result.returncode != 0:
                raise SystemExit(f"making the shared media: plein build of {content} failed (exit {result.returncode}):\n{result.stdout}{result.stderr}")
            for kind in KINDS:
                if os.path.isdir(os.path.join(cache, kind)):
                    _link_tree(os.path.join(cache, kind), os.path.join(folder, kind))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    files = fingerprint(folder)
    for path in files:
        os.chmod(os.path.join(folder, path), 0o444)
    with open(os.path.join(folder, FINGERPRINT), "w") as f:
        f.writelines(f"{digest}\t{path}\n" for path, digest in sorted(files.items()))
    return len(files)


def fingerprint(folder):
    """Every media file under `folder` → its SHA-256."""
    found = {}
    for kind in KINDS:
        for base, _, names in os.walk(os.path.join(folder, kind)):
            for name in names:
                path = os.path.join(base, name)
                with open(path, "rb") as f:
                    found[os.path.relpath(path, folder)] = hashlib.sha256(f.read()).hexdigest()
    return found


def changed(folder):
    """The shared files that are no longer as they were made (or gone, or new): none, unless
    a build wrote to a file it had only been lent."""
    with open(os.path.join(folder, FINGERPRINT)) as f:
        made = {path: digest for digest, path in (line.rstrip("\n").split("\t", 1) for line in f if line.strip())}
    now = fingerprint(folder)
    return sorted(p for p in set(made) | set(now) if made.get(p) != now.get(p))


def shared(plein):
    """The folder of shared media: `PLEIN_TEST_MEDIA`, or one made now for this process."""
    global _made_here
    named = os.environ.get(ENV)
    if named and os.path.isdir(named):
        return named
    if _made_here is None:
        _made_here = tempfile.mkdtemp(prefix="plein-test-media-")
        atexit.register(shutil.rmtree, _made_here, True)
        prepare(plein, _made_here)
    return _made_here


def seed(cache, plein, kinds=KINDS):
    """Gives the cache folder `cache` hard links to the shared media of `kinds`."""
    source = shared(plein)
    for kind in kinds:
        if os.path.isdir(os.path.join(source, kind)):
            _link_tree(os.path.join(source, kind), os.path.join(cache, kind))
    return cache


def _link_tree(source, target):
    def link(src, dst):
        try:
            os.link(src, dst)
        except FileExistsError:
            pass
        except OSError:
            shutil.copy2(src, dst)    # another file system: a copy does as well
    shutil.copytree(source, target, copy_function=link, dirs_exist_ok=True)


if __name__ == "__main__":
    import argparse, time
    parser = argparse.ArgumentParser(description="Makes the shared media of a test run in a folder (what `make test` does first).")
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    parser.add_argument("--make", required=True, metavar="FOLDER")
    args = parser.parse_args()
    start = time.monotonic()
    count = prepare(os.path.abspath(args.plein), args.make)
    print(f"ok   {count} photo variants and video files made once for every check ({time.monotonic() - start:.1f} s)")
