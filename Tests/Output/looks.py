"""How pictures look, for finding copies that share no byte: every published image is a new
encode, so a private photo's thumbnail is found by its looks, not its bytes.

A picture's looks are a 16×16 grey thumbnail and its average hash (one bit a pixel: brighter
than the thumbnail's mean). libvips makes the thumbnails of images, in one process for all
of them (it reads every format plein reads, HEIC included, and turns them upright as plein
does); ffmpeg makes those of video frames.
"""
import os
import subprocess
import tempfile

SIDE = 16
BITS = SIDE * SIDE
# Two looks this close (in bits of 256) are taken for the same picture. Measured on the demo: a
# photo's published sizes, formats and square crops differ from the photo in 0 to 22 bits, a video
# poster's from the video's first frame in 13 to 16. The average hash keeps little more than a
# picture's layout, so different pictures can be close too: two of the demo's drawn avatars differ
# in 4 bits, two album photos in 9 (`python3 Tests/Output/looks.py FOLDER…` prints the closest
# pairs). The checks therefore compare published pictures with private ones only, and the demo's
# private pictures differ from every published one in 60 bits or more.
SAME = 26


def average_hash(grey):
    """The 256-bit average hash of 256 grey bytes."""
    mean = sum(grey) / len(grey)
    value = 0
    for byte in grey:
        value = value << 1 | (byte > mean)
    return value


def distance(a, b):
    return bin(a ^ b).count("1")


def _read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    # P5, then width, height and maxval, each after whitespace or a comment line.
    fields, i = [], 2
    while len(fields) < 3:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            i = data.index(b"\n", i) + 1
            continue
        start = i
        while not data[i:i + 1].isspace():
            i += 1
        fields.append(int(data[start:i]))
    width, height, _ = fields
    pixels = data[i + 1:i + 1 + width * height]
    if len(pixels) != BITS:
        raise ValueError(f"{path}: {width}×{height} thumbnail")
    return pixels


def image_hashes(paths, crop=False):
    """path → average hash of each image, squeezed to 16×16 (`crop`: its centre square
    instead, as square thumbnails are cut). Images libvips cannot read are left out."""
    hashes = {}
    paths = list(paths)
    with tempfile.TemporaryDirectory() as tmp:
        # Names of their own, so that thumbnails of files called alike do not overwrite each other.
        links = {}
        for i, path in enumerate(paths):
            link = os.path.join(tmp, f"{i}{os.path.splitext(path)[1].lower()}")
            os.symlink(os.path.abspath(path), link)
            links[link] = path
        size = ["-s", f"{SIDE}x{SIDE}", "--smartcrop", "centre"] if crop else ["-s", f"{SIDE}x{SIDE}!"]
        names = sorted(links)
        for start in range(0, len(names), 200):
            subprocess.run(["vipsthumbnail", *size, "-o", "%s.pgm", *names[start:start + 200]], capture_output=True)
        for link, path in links.items():
            thumbnail = os.path.splitext(link)[0] + ".pgm"
            if os.path.exists(thumbnail):
                hashes[path] = average_hash(_read_pgm(thumbnail))
    return hashes


def video_hashes(path, every=1.0):
    """The average hashes of a video's frames, one every `every` seconds (the first included)."""
    result = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-vf", f"fps=1/{every}:round=down,scale={SIDE}:{SIDE},format=gray",
         "-f", "rawvideo", "-"], capture_output=True)
    frames = result.stdout
    return [average_hash(frames[i:i + BITS]) for i in range(0, len(frames) - BITS + 1, BITS)]


def closest(hashes):
    """The closest pairs among named hashes: [(distance, a, b)], nearest first."""
    items = sorted(hashes.items())
    pairs = [(distance(items[i][1], items[j][1]), items[i][0], items[j][0])
             for i in range(len(items)) for j in range(i + 1, len(items))]
    return sorted(pairs)


if __name__ == "__main__":
    import sys
    found = {}
    for folder in sys.argv[1:]:
        for base, _, names in os.walk(folder):
            found.update(image_hashes(os.path.join(base, n) for n in names
                                      if n.lower().endswith((".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".avif"))))
    for d, a, b in closest(found)[:20]:
        print(d, a, b)
