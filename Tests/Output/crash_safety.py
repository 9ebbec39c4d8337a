#!/usr/bin/env python3
"""Crash safety: `plein build` killed with SIGKILL at random moments, many times.

Two versions of the demo (A, and B with a report edited, one removed and one added) are built
once each into reference folders. Then builds of A and B, in turns, are killed at random moments
into the same output folder, starting from an empty image cache so that many kills land while
thumbnails are being made. After every kill the output folder must be exactly the complete A
site or the complete B site (or absent, before the first build ever finished): never a mix, never
a partial file. (The reference build of A starts from an empty cache too, as the killed builds do:
its time is the window the kills fall in; B's takes the shared media, `media.py`.) Finally a build
that is left to finish, with the cache those killed builds left
behind, must equal the reference byte for byte, and every image in the cache must decode: the
cache never serves a corrupt image. The builds share the build store, so killed builds leave it
in every state; the finished builds show it never yields a wrong site, and a store then
truncated, overwritten or from another version means a full build that says so.

    python3 Tests/Output/crash_safety.py --plein .build/release/plein [--kills 30]
"""
import argparse, hashlib, os, random, shutil, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402  (the media made once per test run)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def snapshot(folder):
    """Every file under `folder` (hidden ones too) with its SHA-256; None if there is no folder."""
    if not os.path.isdir(folder):
        return None
    files = {}
    for dirpath, dirnames, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder)] = hashlib.sha256(f.read()).hexdigest()
    return files


def describe(actual, expected):
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(p for p in set(actual) & set(expected) if actual[p] != expected[p])
    return f"{len(missing)} missing (e.g. {missing[:2]}), {len(extra)} extra (e.g. {extra[:2]}), {len(changed)} differ (e.g. {changed[:2]})"


def make_b(a, b):
    shutil.copytree(a, b)
    reports = sorted(os.path.join(dp, n) for dp, _, ns in os.walk(os.path.join(b, "reports")) for n in ns
                     if n.endswith(".md") and "replies" not in dp and n != "index.md")
    with open(reports[0], encoding="utf-8") as f:
        text = f.read()
    with open(reports[0], "w", encoding="utf-8") as f:
        f.write(text.replace("title: ", "title: Bijgewerkt - ", 1) + "\nEen aanvulling na de crashtest.\n")
    os.remove(reports[-1])
    area = os.path.dirname(reports[1])
    day = os.path.basename(reports[0])[:10]
    with open(os.path.join(area, day + "-nieuw-na-de-crash.md"), "w", encoding="utf-8") as f:
        f.write(text.replace("title: ", "title: Nieuw ", 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    rng = random.Random(args.seed)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        content = {"A": os.path.join(tmp, "A"), "B": os.path.join(tmp, "B")}
        shutil.copytree(os.path.join(ROOT, "content"), content["A"])
        make_b(content["A"], content["B"])
        env = dict(os.environ, NO_COLOR="1", PLEIN_SECRET="crash-test-secret")
        originals = {v: snapshot(content[v]) for v in "AB"}

        def build(version, output, cache):
            return [plein, "build", "--content", content[version], "--templates", os.path.join(ROOT, "templates"),
                "--output", output, "--cache", cache]

        reference, durations = {}, {}
        for version in "AB":
            out = os.path.join(tmp, "reference-" + version)
            reference_cache = os.path.join(tmp, "reference-cache-" + version)
            if version == "B":
                media.seed(reference_cache, plein)
            start = time.monotonic()
            proc = subprocess.run(build(version, out, reference_cache), capture_output=True, text=True, env=env)
            durations[version] = time.monotonic() - start
            if proc.returncode != 0:
                sys.exit(f"FAIL reference build {version}: {proc.stdout}{proc.stderr}")
            reference[version] = snapshot(out)
        if reference["A"] == reference["B"]:
            sys.exit("FAIL the two versions build the same site")

        output, cache = os.path.join(tmp, "public"), os.path.join(tmp, "cache")
        # Kills fall anywhere in a build: up to as long as the last build that finished took (at
        # first a build that makes every image, A's reference, later ones that find them in the cache).
        typical = durations["A"]
        seen = {"A": 0, "B": 0, None: 0}
        finished = 0
        for kill in range(args.kills):
            version = "AB"[kill % 2]
            delay = rng.uniform(0, typical)
            started = time.monotonic()
            proc = subprocess.Popen(build(version, output, cache), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                    start_new_session=True)
            try:
                proc.wait(timeout=delay)
                finished += 1
                typical = time.monotonic() - started
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            now = snapshot(output)
            if proc.returncode == 0 and now != reference[version]:
                problems.append(f"build {kill + 1} of {version} finished, but its output is not {version}'s: {describe(now, reference[version])}")
            match = next((v for v in "AB" if now == reference[v]), None) if now is not None else None
            if now is not None and match is None:
                problems.append(f"after kill {kill + 1} (building {version}, {delay:.2f} s in): the output is neither site: "
                                f"against A {describe(now, reference['A'])}; against B {describe(now, reference['B'])}")
            seen[match] += 1
        # Left to finish, with whatever the killed builds left in the cache and beside the output.
        for version in "AB":
            proc = subprocess.run(build(version, output, cache), capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                problems.append(f"the build of {version} after the kills failed: {proc.stdout}{proc.stderr}")
            elif snapshot(output) != reference[version]:
                problems.append(f"the build of {version} after the kills differs from a clean build: "
                                f"{describe(snapshot(output), reference[version])}")
        # The build store in the cache: damaged, truncated or from another version, it means a
        # full build that says why, never a wrong site.
        store = os.path.join(cache, "build.sqlite")
        damages = {
            "truncated": lambda: os.truncate(store, os.path.getsize(store) // 3),
            "overwritten with garbage": lambda: open(store, "wb").write(os.urandom(8192)),
            "from another plein": lambda: subprocess.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
                                                          "c.execute(\"UPDATE meta SET value='0.0.1' WHERE key='version'\"); c.commit()", store]),
        }
        for turn, (name, damage) in enumerate(damages.items()):
            version = "AB"[turn % 2]
            if not os.path.exists(store):
                problems.append(f"no build store in the cache before the '{name}' check")
                break
            damage()
            proc = subprocess.run(build(version, output, cache), capture_output=True, text=True, env=env)
            if proc.returncode != 0 or snapshot(output) != reference[version]:
                problems.append(f"a build with a build store {name} is not a clean build's site: {proc.stderr[-300:]}")
            elif "full build" not in proc.stderr:
                problems.append(f"a build with a build store {name} does not say it redoes everything: {proc.stderr[-300:]}")
        for v in "AB":
            if snapshot(content[v]) != originals[v]:
                problems.append(f"the content folder {v} changed: {describe(snapshot(content[v]), originals[v])}")
        corrupt = []
        for dirpath, _, names in os.walk(cache):
            for name in names:
                if name.endswith((".webp", ".jpg", ".png")):
                    check = subprocess.run(["vipsheader", os.path.join(dirpath, name)], capture_output=True)
                    if check.returncode != 0:
                        corrupt.append(name)
        if corrupt:
            problems.append(f"{len(corrupt)} images in the cache do not decode, e.g. {corrupt[:3]}")
    for problem in problems:
        print("FAIL " + problem)
    if problems:
        sys.exit(1)
    print(f"ok   {args.kills - finished} of {args.kills} builds killed at random moments: the output was always a whole site "
          f"(A {seen['A']} times, B {seen['B']}, none yet {seen[None]}); finished builds equal clean ones, also after the build store "
          f"was truncated, overwritten or left by another version; the image cache decodes; the content (and its photos) is untouched")


if __name__ == "__main__":
    main()
