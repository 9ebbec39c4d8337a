#!/usr/bin/env python3
"""AVIF's cost and savings on the demo's photos: fresh builds with `images.avif` on and off,
alternating, each into new folders; medians of the whole build and of the image phase
(PLEIN_TIMINGS=1), and the bytes of the AVIF variants against the WebP ones of the same widths.

    scripts/swift-release build --product plein && python3 tools/bench/avif.py .build/release/plein 3
"""
import os, re, shutil, statistics, subprocess, sys, tempfile, time, glob
plein = sys.argv[1] if len(sys.argv) > 1 else ".build/release/plein"; runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
work = tempfile.mkdtemp(prefix="avif-bench-", dir="/tmp")
on = os.path.join(work, "on"); off = os.path.join(work, "off")
shutil.copytree(root + "/content", on); shutil.copytree(root + "/content", off)
with open(off + "/site.yaml", "a") as f: f.write("images:\n  avif: false\n")
times = {"on": [], "off": []}; phase = {"on": [], "off": []}; made = {}
for i in range(runs):
    for name, content in (("on", on), ("off", off)):
        out = os.path.join(work, f"{name}-out-{i}"); cache = os.path.join(work, f"{name}-cache-{i}")
        env = dict(os.environ, PLEIN_TIMINGS="1", PLEIN_PAGEFIND="none", NO_COLOR="1")
        start = time.monotonic()
        p = subprocess.run([plein, "build", "--content", content, "--output", out, "--cache", cache, "--no-history",
                            "--templates", root + "/templates"], capture_output=True, text=True, env=env)
        times[name].append(time.monotonic() - start)
        m = re.search(r"^  images: (\d+) ms \(CPU (\d+) ms", p.stderr + p.stdout, re.M)
        if m: phase[name].append((int(m.group(1)) / 1000, int(m.group(2)) / 1000))
        made[name] = re.search(r"\((\d+) thumbnails made", p.stdout).group(1)
for name in ("on", "off"):
    wall = statistics.median(p[0] for p in phase[name]) if phase[name] else 0
    cpu = statistics.median(p[1] for p in phase[name]) if phase[name] else 0
    print(f"avif {name}: whole build median {statistics.median(times[name]):.2f} s; image phase median {wall:.2f} s "
          f"(CPU {cpu:.1f} s); {made[name]} variants made")
media = os.path.join(work, "on-out-0", "media")
avif = webp = 0; n = 0
for f in glob.glob(media + "/*/*.avif"):
    w = f[:-5] + ".webp"
    if os.path.exists(w):
        avif += os.path.getsize(f); webp += os.path.getsize(w); n += 1
print(f"{n} AVIF files: {avif} bytes; the same {n} WebP files: {webp} bytes; AVIF/WebP = {avif/webp:.3f}")
for width in (320, 640, 1280):
    a = sum(os.path.getsize(f) for f in glob.glob(media + f"/*/*-{width}.avif"))
    w = sum(os.path.getsize(f[:-5] + ".webp") for f in glob.glob(media + f"/*/*-{width}.avif"))
    if w: print(f"  {width} px: AVIF {a} vs WebP {w} bytes ({a/w:.2f})")
print("folders kept in", work, "(remove them when the disk is quiet: see the bench's note on ext4)")
