#!/usr/bin/env python3
"""Generate the photos and avatars of the demo community in content/.

Every image is drawn from scratch with Pillow (no downloads, no numpy) from a fixed
seed per file, so running the script twice gives the same pictures:

    python3 tools/demo/make_images.py            # writes into content/
    python3 tools/demo/make_images.py --only avatars
    python3 tools/demo/make_images.py --content /some/other/content

Photos are 1600x1200 (a few 1200x1600), JPEG quality about 80 with EXIF capture times,
camera names and for some a GPS position; one photo is stored on its side with EXIF
Orientation 6. Each photo is kept under 300 KB and each avatar under 60 KB.
"""
from __future__ import annotations

import argparse
import io
import math
import random
import sys
import zlib
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont
from PIL.TiffImagePlugin import IFDRational

ROOT = Path(__file__).resolve().parents[2]
PHOTO_LIMIT = 300 * 1024
AVATAR_LIMIT = 60 * 1024

# ----------------------------------------------------------------------------- helpers


def seeded(name: str) -> random.Random:
    return random.Random(zlib.crc32(name.encode("utf-8")) ^ 0x5EED2026)


def lerp(a, b, t):
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(len(a)))


def shade(c, f):
    """Darken (f < 1) or lighten (f > 1) a colour."""
    if f <= 1:
        return tuple(int(v * f) for v in c[:3])
    return tuple(int(v + (255 - v) * (f - 1)) for v in c[:3])


def vgrad(w, h, stops):
    """A vertical gradient; stops are (t, colour) with t from 0 (top) to 1 (bottom)."""
    col = []
    for y in range(h):
        t = y / max(1, h - 1)
        for i in range(len(stops) - 1):
            t0, c0 = stops[i]
            t1, c1 = stops[i + 1]
            if t <= t1 or i == len(stops) - 2:
                u = 0.0 if t1 == t0 else min(max((t - t0) / (t1 - t0), 0.0), 1.0)
                col.append(lerp(c0, c1, u))
                break
    strip = Image.new("RGB", (1, h))
    strip.putdata(col)
    return strip.resize((w, h), Image.Resampling.NEAREST)


def mask_draw(mask):
    """A Draw on an L mask whose shapes are filled white unless told otherwise."""
    d = ImageDraw.Draw(mask)
    d.ink, d.fill = 255, True
    return d


def glow(base, color, draw_fn, blur=0, opacity=255):
    """Composite a single-colour shape drawn on a mask, optionally blurred."""
    mask = Image.new("L", base.size, 0)
    draw_fn(mask_draw(mask))
    if blur:
        mask = mask.filter(ImageFilter.GaussianBlur(blur))
    if opacity < 255:
        mask = mask.point(lambda v: v * opacity // 255)
    base.paste(tuple(color[:3]), (0, 0, base.width, base.height), mask)


def fill_with(base, texture, draw_fn, blur=0):
    """Paint `texture` (an image of the same size) through a drawn mask."""
    mask = Image.new("L", base.size, 0)
    draw_fn(mask_draw(mask))
    if blur:
        mask = mask.filter(ImageFilter.GaussianBlur(blur))
    base.paste(texture.convert(base.mode), (0, 0), mask)


def blotchy(w, h, rng, c0, c1, cells=24, blur=40):
    """A soft cloudy texture between two colours (for sand, soil, concrete, grass)."""
    small = Image.new("L", (cells, max(2, cells * h // w)))
    small.putdata([rng.randrange(256) for _ in range(small.width * small.height)])
    mask = small.resize((w, h), Image.Resampling.BICUBIC).filter(ImageFilter.GaussianBlur(blur // 4 or 1))
    a = Image.new("RGB", (w, h), c0)
    b = Image.new("RGB", (w, h), c1)
    return Image.composite(a, b, mask)


def wobble(points, rng, amount):
    return [(x + rng.uniform(-amount, amount), y + rng.uniform(-amount, amount)) for x, y in points]


def finish(img, rng, grain=6, blur=0.8, vignette=0.22):
    """Soften edges, darken the corners a little and add film grain."""
    img = img.convert("RGB")
    w, h = img.size
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    if vignette:
        m = Image.new("L", (64, 48), int(255 * (1 - vignette)))
        ImageDraw.Draw(m).ellipse((-6, -6, 70, 54), fill=255)
        m = m.filter(ImageFilter.GaussianBlur(9)).resize((w, h), Image.Resampling.BICUBIC)
        img = ImageChops.multiply(img, Image.merge("RGB", (m, m, m)))
    if grain:
        noise = Image.frombytes("L", (w, h), rng.randbytes(w * h)).filter(ImageFilter.GaussianBlur(0.55))
        k = grain / 48.0
        noise = noise.point(lambda v: max(0, min(255, int(grain + (v - 128) * k))))
        img = ImageChops.add(img, Image.merge("RGB", (noise, noise, noise)), 1.0, -grain)
    return img


# ----------------------------------------------------------------------------- EXIF


def dms(value):
    value = abs(value)
    d = int(value)
    m = int((value - d) * 60)
    s = (value - d - m / 60) * 3600
    return (IFDRational(d, 1), IFDRational(m, 1), IFDRational(int(round(s * 100)), 100))


def make_exif(taken=None, offset=None, camera=None, gps=None, orientation=None):
    ex = Image.Exif()
    if camera:
        ex[0x010F], ex[0x0110] = camera  # Make, Model
    if orientation:
        ex[0x0112] = orientation
    if taken:
        ex[0x0132] = taken  # DateTime
        sub = ex.get_ifd(0x8769)
        sub[0x9003] = taken  # DateTimeOriginal
        sub[0x9004] = taken  # DateTimeDigitized
        if offset:
            sub[0x9011] = offset  # OffsetTimeOriginal
            sub[0x9010] = offset  # OffsetTime
    if gps:
        lat, lon = gps
        g = ex.get_ifd(0x8825)
        g[0] = b"\x02\x03\x00\x00"
        g[1] = "N" if lat >= 0 else "S"
        g[2] = dms(lat)
        g[3] = "E" if lon >= 0 else "W"
        g[4] = dms(lon)
    return ex


# ----------------------------------------------------------------------------- shapes


def fish(d, x, y, size, color, rng, facing=1, alpha=255, belly=None):
    """A simple fish: body, tail, fin, eye. `facing` 1 swims right, -1 left."""
    L, H = size, size * rng.uniform(0.32, 0.45)
    c = tuple(color) + (alpha,)
    tail = [(x - facing * L * 0.45, y), (x - facing * L * 0.78, y - H * 0.55), (x - facing * L * 0.72, y),
            (x - facing * L * 0.78, y + H * 0.55)]
    d.polygon(tail, fill=shade(color, 0.8) + (alpha,))
    d.ellipse((x - L / 2, y - H / 2, x + L / 2, y + H / 2), fill=c)
    if belly:
        d.chord((x - L / 2, y - H / 2, x + L / 2, y + H / 2), 10, 170, fill=tuple(belly) + (alpha,))
    d.polygon([(x - facing * L * 0.05, y - H * 0.45), (x - facing * L * 0.25, y - H * 0.85),
               (x - facing * L * 0.3, y - H * 0.4)], fill=shade(color, 0.75) + (alpha,))
    ex = x + facing * L * 0.3
    r = max(2, L * 0.045)
    d.ellipse((ex - r, y - H * 0.12 - r, ex + r, y - H * 0.12 + r), fill=(20, 20, 25, alpha))
    d.ellipse((ex - r * 0.4 + facing * r * 0.3, y - H * 0.12 - r * 0.6, ex + r * 0.2 + facing * r * 0.3,
               y - H * 0.12), fill=(240, 240, 240, alpha))


def bubbles(d, rng, x, y, n, spread, rise, rmin=3, rmax=14):
    for _ in range(n):
        bx = x + rng.gauss(0, spread)
        by = y - rng.uniform(0, rise)
        r = rng.uniform(rmin, rmax) * (1.2 - (y - by) / (rise * 2 + 1))
        r = max(1.5, r)
        d.ellipse((bx - r, by - r, bx + r, by + r), outline=(230, 250, 255, 170), width=max(1, int(r / 4)))
        d.ellipse((bx - r * 0.5, by - r * 0.6, bx - r * 0.1, by - r * 0.2), fill=(255, 255, 255, 200))


def tree_canopy(d, rng, cx, cy, rw, rh, colors, n=40, alpha=255):
    for _ in range(n):
        a = rng.uniform(0, 2 * math.pi)
        rr = rng.random() ** 0.6
        x = cx + math.cos(a) * rw * rr
        y = cy + math.sin(a) * rh * rr
        s = rng.uniform(0.18, 0.4) * min(rw, rh)
        col = rng.choice(colors)
        # lighter on top, darker at the bottom
        col = shade(col, 1.12 if y < cy else 0.85)
        d.ellipse((x - s, y - s * 0.85, x + s, y + s * 0.85), fill=col + (alpha,))


def trunk(d, x, y_top, y_bot, width, color):
    d.polygon([(x - width * 0.35, y_top), (x + width * 0.35, y_top), (x + width * 0.6, y_bot),
               (x - width * 0.6, y_bot)], fill=color)
    d.line([(x, y_top + (y_bot - y_top) * 0.3), (x - width * 2.2, y_top - width * 0.5)], fill=color,
           width=int(width * 0.3))
    d.line([(x, y_top + (y_bot - y_top) * 0.2), (x + width * 2.0, y_top - width * 0.8)], fill=color,
           width=int(width * 0.28))


# ----------------------------------------------------------------------------- sea scenes


def sea_base(w, h, rng, hy, sky_top, sky_hor, sea_hor, sea_bot, sun=None, sun_col=(255, 244, 214),
             glow_col=(255, 196, 120), clouds=5, cloud_col=(255, 255, 255), cloud_alpha=110, waves=700,
             wave_col=(255, 255, 255), far_shore=None):
    img = vgrad(w, h, [(0, sky_top), (hy / h, sky_hor), (hy / h + 1e-4, sea_hor), (1, sea_bot)])
    if sun:
        sx, sy, r = sun
        glow(img, glow_col, lambda d: d.ellipse((sx - r * 5, sy - r * 4, sx + r * 5, sy + r * 4)), blur=r * 2.5,
             opacity=140)

        def disc(d):
            d.ellipse((sx - r, sy - r, sx + r, sy + r), fill=255)
            d.rectangle((0, hy, w, h), fill=0)
        glow(img, sun_col, disc, blur=2)
    for _ in range(clouds):
        cx, cy = rng.uniform(-100, w + 100), rng.uniform(h * 0.05, hy * 0.8)
        width = rng.uniform(180, 420)

        def cloud(d, cx=cx, cy=cy, width=width):
            for _ in range(9):
                ox, oy = rng.gauss(0, width * 0.35), rng.gauss(0, width * 0.06)
                s = rng.uniform(0.25, 0.5) * width
                d.ellipse((cx + ox - s, cy + oy - s * 0.3, cx + ox + s, cy + oy + s * 0.3), fill=255)
        glow(img, cloud_col, cloud, blur=18, opacity=cloud_alpha)
    if far_shore:
        col, thick = far_shore
        pts = [(0, hy)]
        x = 0
        while x <= w:
            pts.append((x, hy - thick * rng.uniform(0.4, 1.0)))
            x += rng.uniform(40, 120)
        pts.append((w, hy))
        ImageDraw.Draw(img).polygon(pts, fill=col)
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(waves):
        t = rng.random() ** 1.7
        y = hy + 3 + (h - hy) * t
        length = 8 + 150 * t * rng.uniform(0.5, 1.3)
        x = rng.uniform(-50, w)
        th = 1 + int(3 * t)
        if rng.random() < 0.5:
            d.line([(x, y), (x + length, y + rng.uniform(-1, 1))], fill=tuple(wave_col) + (rng.randrange(30, 90),),
                   width=th)
        else:
            d.line([(x, y), (x + length, y)], fill=shade(sea_bot, 0.6) + (rng.randrange(30, 80),), width=th)
    if sun:
        sx, sy, r = sun

        def reflection(d):
            y = hy + 2
            while y < h:
                t = (y - hy) / (h - hy)
                half = r * (0.5 + 3.2 * t) * rng.uniform(0.2, 1.1)
                x = sx + rng.gauss(0, r * 0.5 * (0.3 + t))
                d.line([(x - half, y), (x + half, y)], fill=rng.randrange(120, 256), width=1 + int(4 * t))
                y += rng.uniform(2, 6 + 10 * t)
        glow(img, glow_col, reflection, blur=1.5, opacity=200)
    return img


def beach(img, rng, y_edge, sand=(222, 203, 160), wet=(168, 150, 118), foam=True, amp=14):
    w, h = img.size
    pts = [(0, h)]
    for i in range(0, 41):
        x = w * i / 40
        pts.append((x, y_edge + math.sin(i * 0.7 + rng.random()) * amp + rng.uniform(-4, 4)))
    pts.append((w, h))
    tex = blotchy(w, h, rng, sand, shade(sand, 0.9), cells=40)
    fill_with(img, tex, lambda d: d.polygon(pts))
    # wet band just below the waterline
    glow(img, wet, lambda d: d.line(pts[1:-1], fill=255, width=int(amp * 2.5)), blur=10, opacity=170)
    if foam:
        glow(img, (250, 252, 250), lambda d: d.line([(x, y - 3) for x, y in pts[1:-1]], fill=255, width=7), blur=3,
             opacity=230)


def scene_den_osse(w, h, rng):
    hy = int(h * 0.46)
    img = sea_base(w, h, rng, hy, (128, 168, 205), (214, 226, 232), (120, 150, 156), (62, 92, 98), clouds=7,
                   cloud_alpha=140, waves=500, far_shore=((86, 104, 88), 14))
    # basalt dike on the left
    w2 = w * 0.5
    dike = [(0, h), (0, hy + 60), (w2 * 0.55, hy + 90), (w2 * 0.95, h)]
    fill_with(img, blotchy(w, h, rng, (78, 80, 82), (52, 54, 58), cells=60), lambda d: d.polygon(dike))
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(260):  # the blocks
        x = rng.uniform(0, w2 * 0.9)
        y = rng.uniform(hy + 80, h)
        if x > w2 * 0.55 + (y - hy - 90) / (h - hy - 90) * w2 * 0.4 - 20:
            continue
        s = rng.uniform(14, 40) * (0.6 + (y - hy) / (h - hy))
        d.polygon(wobble([(x, y), (x + s, y + s * 0.1), (x + s * 0.9, y + s * 0.7), (x - s * 0.1, y + s * 0.6)],
                         rng, 3), outline=(30, 30, 34, 160), fill=(90, 92, 95, 60))
    # wooden jetty with steps into the water
    for i in range(7):
        x = w * 0.52 + i * 60
        d.rectangle((x, hy + 140 + i * 4, x + 14, hy + 320 + i * 10), fill=(70, 54, 40, 255))
    d.polygon([(w * 0.50, hy + 140), (w * 0.52 + 430, hy + 160), (w * 0.52 + 430, hy + 178), (w * 0.50, hy + 158)],
              fill=(128, 100, 70, 255))
    # dive flag: red with a white diagonal
    px, py = w * 0.76, hy + 160
    d.line([(px, py), (px, py - 260)], fill=(200, 200, 200, 255), width=6)
    d.polygon([(px, py - 260), (px + 150, py - 260), (px + 150, py - 160), (px, py - 160)], fill=(200, 30, 40, 255))
    d.line([(px, py - 260), (px + 150, py - 160)], fill=(250, 250, 250, 255), width=22)
    # a diver walking in, dark silhouette with a tank
    bx, by = w * 0.66, hy + 150
    d.ellipse((bx - 16, by - 150, bx + 16, by - 116), fill=(20, 22, 26, 255))
    d.rounded_rectangle((bx - 26, by - 118, bx + 26, by - 20), radius=12, fill=(24, 26, 30, 255))
    d.rounded_rectangle((bx - 44, by - 112, bx - 22, by - 40), radius=9, fill=(200, 190, 60, 255))
    d.line([(bx - 12, by - 22), (bx - 18, by + 40)], fill=(24, 26, 30, 255), width=18)
    d.line([(bx + 12, by - 22), (bx + 20, by + 40)], fill=(24, 26, 30, 255), width=18)
    return img


def scene_zeelandbrug(w, h, rng):
    hy = int(h * 0.56)
    img = sea_base(w, h, rng, hy, (150, 180, 210), (226, 232, 236), (104, 128, 120), (48, 72, 70), clouds=8,
                   cloud_alpha=150, waves=900, far_shore=((110, 124, 110), 8))
    d = ImageDraw.Draw(img, "RGBA")
    # the bridge recedes from the left foreground to the right horizon
    x0, y0, x1, y1 = -40, hy - 330, w + 40, hy - 36
    deck_h0, deck_h1 = 80, 10
    concrete = (178, 176, 168)
    n = 24
    xs = [x0 + (x1 - x0) * (1 - (1 - i / n) ** 2.2) for i in range(n + 1)]
    for i, x in enumerate(reversed(xs)):
        t = (x - x0) / (x1 - x0)
        ytop = y0 + (y1 - y0) * t
        pw = 70 * (1 - t) + 6
        col = lerp(concrete, (205, 210, 210), t)
        d.rectangle((x - pw / 2, ytop, x + pw / 2, hy + 30 * (1 - t)), fill=col + (255,))
        d.rectangle((x - pw / 2, ytop, x - pw / 6, hy + 30 * (1 - t)), fill=shade(col, 0.82) + (255,))
        # reflection of the pillar
        d.rectangle((x - pw / 2, hy + 30 * (1 - t), x + pw / 2, hy + 30 * (1 - t) + 120 * (1 - t) + 10),
                    fill=shade(col, 0.55) + (70,))
    deck = [(x0, y0), (x1, y1), (x1, y1 + deck_h1), (x0, y0 + deck_h0)]
    d.polygon(deck, fill=(196, 194, 186, 255))
    d.polygon([(x0, y0 + deck_h0 * 0.7), (x1, y1 + deck_h1 * 0.7), (x1, y1 + deck_h1), (x0, y0 + deck_h0)],
              fill=(140, 138, 132, 255))
    d.line([(x0, y0 - 18), (x1, y1 - 3)], fill=(90, 92, 96, 255), width=4)  # railing
    for i in range(60):
        t = i / 60
        x = x0 + (x1 - x0) * (1 - (1 - t) ** 1.5)
        yy = y0 + (y1 - y0) * ((x - x0) / (x1 - x0))
        d.line([(x, yy), (x, yy - 18 * (1 - t) - 3)], fill=(90, 92, 96, 255), width=2)
    # small boat with divers
    bx, by = w * 0.3, hy + 170
    d.polygon([(bx - 120, by), (bx + 140, by), (bx + 110, by + 40), (bx - 100, by + 40)], fill=(230, 120, 40, 255))
    d.rectangle((bx - 40, by - 50, bx + 40, by), fill=(235, 235, 230, 255))
    d.rectangle((bx - 30, by - 40, bx + 30, by - 20), fill=(60, 80, 100, 255))
    return img


def scene_sunset_harbour(w, h, rng):
    hy = int(h * 0.62)
    img = sea_base(w, h, rng, hy, (58, 52, 110), (250, 150, 80), (170, 90, 70), (40, 30, 50),
                   sun=(w * 0.62, hy - 40, 46), glow_col=(255, 170, 90), clouds=6, cloud_col=(250, 140, 120),
                   cloud_alpha=120, waves=500, wave_col=(255, 200, 150))
    d = ImageDraw.Draw(img, "RGBA")
    dark = (26, 20, 30, 255)
    # quay in the foreground and boats with masts on the left
    d.polygon([(0, h), (0, h - 150), (w * 0.45, h - 110), (w, h - 140), (w, h)], fill=dark)
    for i in range(6):
        x = 60 + i * 120 + rng.uniform(-20, 20)
        y = hy + 60 + i * 8
        d.polygon([(x - 80, y), (x + 80, y), (x + 60, y + 34), (x - 64, y + 34)], fill=dark)
        d.line([(x, y), (x, y - rng.uniform(280, 420))], fill=dark, width=5)
        d.line([(x, y - 260), (x + 70, y)], fill=(26, 20, 30, 180), width=2)
    # a lamp post on the quay
    d.line([(w * 0.85, h - 140), (w * 0.85, h - 520)], fill=dark, width=10)
    glow(img, (255, 210, 140), lambda dd: dd.ellipse((w * 0.85 - 30, h - 560, w * 0.85 + 30, h - 500)), blur=12)
    return img


def scene_sunrise_ijburg(w, h, rng):
    hy = int(h * 0.55)
    img = sea_base(w, h, rng, hy, (96, 118, 170), (252, 196, 150), (190, 150, 150), (70, 80, 110),
                   sun=(w * 0.42, hy - 10, 40), glow_col=(255, 190, 120), clouds=5, cloud_col=(255, 190, 190),
                   cloud_alpha=110, waves=600, wave_col=(255, 220, 190), far_shore=((80, 70, 90), 10))
    d = ImageDraw.Draw(img, "RGBA")
    for i in range(5):  # wind turbines on the far shore
        x, y = w * (0.62 + i * 0.07), hy - 8
        top = y - 90 + i * 6
        d.line([(x, y), (x, top)], fill=(90, 80, 100, 255), width=3)
        a0 = rng.uniform(0, 2 * math.pi)
        for k in range(3):
            a = a0 + k * 2 * math.pi / 3
            d.line([(x, top), (x + math.cos(a) * 38, top + math.sin(a) * 38)], fill=(90, 80, 100, 255), width=2)
    beach(img, rng, h * 0.86, sand=(196, 170, 150), wet=(140, 120, 120), amp=10)
    # a kitesurfer far out
    kx, ky = w * 0.72, hy + 70
    d.line([(kx, ky), (kx + 6, ky - 40)], fill=(30, 30, 40, 255), width=4)
    d.line([(kx + 4, ky - 40), (kx + 90, ky - 230)], fill=(30, 30, 40, 140), width=1)
    d.chord((kx + 40, ky - 270, kx + 170, ky - 200), 180, 360, fill=(220, 50, 80, 255))
    return img


def scene_waves(w, h, rng):
    hy = int(h * 0.42)
    img = sea_base(w, h, rng, hy, (130, 146, 160), (200, 206, 210), (80, 104, 110), (110, 130, 128), clouds=10,
                   cloud_col=(236, 238, 240), cloud_alpha=170, waves=1400)
    d = ImageDraw.Draw(img, "RGBA")
    for band in range(6):  # rows of breakers
        y = hy + 40 + band ** 1.6 * 42
        x = -50
        while x < w:
            ln = rng.uniform(60, 260) * (1 + band * 0.4)
            th = 4 + band * 4
            d.line([(x, y + rng.uniform(-6, 6)), (x + ln, y + rng.uniform(-6, 6))],
                   fill=(245, 248, 246, rng.randrange(150, 240)), width=int(th))
            x += ln + rng.uniform(10, 80)
    beach(img, rng, h * 0.82, sand=(200, 184, 150), wet=(140, 130, 112), amp=18)
    for _ in range(40):  # foam patches on the wet sand
        x, y = rng.uniform(0, w), rng.uniform(h * 0.8, h * 0.9)
        s = rng.uniform(20, 80)
        d.ellipse((x - s, y - s * 0.2, x + s, y + s * 0.2), fill=(245, 245, 240, 150))
    return img


def scene_gulls(w, h, rng):
    hy = int(h * 0.78)
    img = sea_base(w, h, rng, hy, (70, 130, 200), (176, 208, 232), (70, 120, 150), (50, 90, 110), clouds=6,
                   cloud_alpha=200, waves=300)
    d = ImageDraw.Draw(img, "RGBA")
    for i in range(9):
        x, y = rng.uniform(100, w - 100), rng.uniform(120, hy - 120)
        s = rng.uniform(40, 120) if i < 3 else rng.uniform(14, 40)
        up = rng.uniform(-0.3, 0.4)
        grey = (92, 96, 104, 255)
        body = (245, 245, 245, 255)
        d.polygon([(x, y), (x - s * 1.3, y - s * up - s * 0.1), (x - s * 2.2, y - s * up * 0.4 + s * 0.15),
                   (x - s * 0.9, y + s * 0.08)], fill=(210, 214, 220, 255))
        d.polygon([(x, y), (x + s * 1.3, y - s * up - s * 0.1), (x + s * 2.2, y - s * up * 0.4 + s * 0.15),
                   (x + s * 0.9, y + s * 0.08)], fill=(210, 214, 220, 255))
        d.line([(x - s * 1.6, y - s * up * 0.6), (x - s * 2.2, y - s * up * 0.4 + s * 0.15)], fill=grey,
               width=max(2, int(s / 8)))
        d.line([(x + s * 1.6, y - s * up * 0.6), (x + s * 2.2, y - s * up * 0.4 + s * 0.15)], fill=grey,
               width=max(2, int(s / 8)))
        d.ellipse((x - s * 0.6, y - s * 0.18, x + s * 0.6, y + s * 0.2), fill=body)
        d.ellipse((x + s * 0.35, y - s * 0.28, x + s * 0.7, y + s * 0.05), fill=body)
        d.polygon([(x + s * 0.68, y - s * 0.12), (x + s * 0.9, y - s * 0.07), (x + s * 0.68, y - s * 0.02)],
                  fill=(240, 190, 40, 255))
    return img


def scene_foam(w, h, rng):
    hy = int(h * 0.18)
    img = sea_base(w, h, rng, hy, (150, 180, 210), (210, 222, 230), (90, 120, 130), (110, 135, 135), clouds=3,
                   waves=300)
    beach(img, rng, h * 0.32, sand=(170, 156, 130), wet=(120, 112, 96), amp=20)
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(900):
        t = rng.random()
        y = h * (0.3 + 0.55 * t ** 0.8)
        x = rng.uniform(-20, w + 20)
        s = rng.uniform(4, 26) * (0.5 + t)
        c = rng.randrange(225, 256)
        d.ellipse((x - s, y - s * 0.6, x + s, y + s * 0.6), fill=(c, c, c - 6, rng.randrange(120, 230)))
        if rng.random() < 0.2:
            d.ellipse((x - s * 0.3, y - s * 0.2, x + s * 0.1, y + s * 0.1), fill=(180, 175, 160, 180))
    for _ in range(5):  # footprints
        x, y = rng.uniform(w * 0.1, w * 0.9), rng.uniform(h * 0.85, h * 0.97)
        d.ellipse((x, y, x + 50, y + 22), fill=(120, 108, 88, 160))
    return img


def scene_zandvoort_sunset(w, h, rng):
    hy = int(h * 0.58)
    img = sea_base(w, h, rng, hy, (40, 60, 120), (255, 170, 90), (200, 110, 70), (50, 40, 60),
                   sun=(w * 0.5, hy - 70, 52), glow_col=(255, 160, 80), clouds=7, cloud_col=(255, 120, 110),
                   cloud_alpha=140, waves=600, wave_col=(255, 210, 160))
    beach(img, rng, h * 0.8, sand=(120, 86, 80), wet=(90, 60, 60), amp=10)
    d = ImageDraw.Draw(img, "RGBA")
    dark = (30, 22, 30, 255)
    # beach pavilion on the right
    d.rectangle((w * 0.78, h * 0.63, w, h * 0.78), fill=dark)
    d.polygon([(w * 0.76, h * 0.63), (w, h * 0.6), (w, h * 0.63)], fill=dark)
    for k in range(3):
        x = w * 0.8 + k * 70
        d.line([(x, h * 0.63), (x, h * 0.5)], fill=dark, width=4)
        d.polygon([(x, h * 0.5), (x + 40, h * 0.51), (x, h * 0.53)], fill=dark)
    # two people walking
    for px, ps in ((w * 0.3, 1.0), (w * 0.34, 0.9)):
        base_y = h * 0.86
        d.ellipse((px - 12 * ps, base_y - 170 * ps, px + 12 * ps, base_y - 146 * ps), fill=dark)
        d.rounded_rectangle((px - 18 * ps, base_y - 148 * ps, px + 18 * ps, base_y - 70 * ps), radius=8, fill=dark)
        d.line([(px - 8 * ps, base_y - 72 * ps), (px - 16 * ps, base_y)], fill=dark, width=int(12 * ps))
        d.line([(px + 8 * ps, base_y - 72 * ps), (px + 18 * ps, base_y)], fill=dark, width=int(12 * ps))
    return img


def scene_beach_huts(w, h, rng):
    hy = int(h * 0.42)
    img = sea_base(w, h, rng, hy, (80, 140, 210), (190, 216, 236), (80, 130, 160), (90, 140, 160), clouds=5,
                   cloud_alpha=200, waves=300)
    beach(img, rng, hy + 60, sand=(226, 208, 168), wet=(200, 180, 140), amp=6)
    d = ImageDraw.Draw(img, "RGBA")
    colors = [(220, 60, 60), (250, 200, 60), (70, 140, 200), (90, 170, 110), (240, 130, 60), (240, 240, 235),
              (160, 90, 170), (60, 170, 180), (230, 100, 140)]
    n = 10
    for i in reversed(range(n)):
        t = i / n
        s = 1.0 - t * 0.75
        x = w * 0.05 + (1 - (1 - t) ** 1.3) * w * 1.05
        base_y = h * 0.92 - t * h * 0.36
        hw, hh = 130 * s, 190 * s
        col = colors[i % len(colors)]
        d.rectangle((x - hw / 2, base_y - hh, x + hw / 2, base_y), fill=col + (255,))
        for k in range(1, 6):
            xx = x - hw / 2 + k * hw / 6
            d.line([(xx, base_y - hh), (xx, base_y)], fill=shade(col, 0.85) + (255,), width=max(1, int(3 * s)))
        d.polygon([(x - hw / 2 - 8 * s, base_y - hh), (x, base_y - hh - 70 * s), (x + hw / 2 + 8 * s, base_y - hh)],
                  fill=(245, 245, 240, 255))
        d.rectangle((x - hw * 0.18, base_y - hh * 0.7, x + hw * 0.18, base_y), fill=shade(col, 0.6) + (255,))
        d.polygon([(x + hw / 2, base_y), (x + hw / 2 + 60 * s, base_y + 10 * s), (x - hw / 2 + 40 * s, base_y + 16 * s),
                   (x - hw / 2, base_y)], fill=(120, 100, 70, 90))
    return img


def scene_dune_path(w, h, rng):  # portrait
    hy = int(h * 0.34)
    img = sea_base(w, h, rng, hy, (90, 150, 215), (200, 222, 238), (70, 130, 170), (70, 130, 170), clouds=4,
                   cloud_alpha=190, waves=150)
    d = ImageDraw.Draw(img, "RGBA")
    sand = (226, 210, 170)
    # two dunes framing a gap where the sea is visible
    left = [(0, h), (0, hy - 60)] + [(x, hy - 60 + (x / (w * 0.45)) ** 2 * 120) for x in range(0, int(w * 0.46), 20)] + [
        (w * 0.46, h)]
    right = [(w, h), (w, hy - 90)] + [(w - x, hy - 90 + (x / (w * 0.45)) ** 2 * 150) for x in range(0, int(w * 0.48), 20)] + [
        (w * 0.52, h)]
    tex = blotchy(w, h, rng, sand, (200, 186, 146), cells=30)
    fill_with(img, tex, lambda dd: (dd.polygon(left), dd.polygon(right)))
    # the path
    path = [(w * 0.47, hy + 70), (w * 0.53, hy + 70), (w * 0.9, h), (w * 0.1, h)]
    fill_with(img, blotchy(w, h, rng, (236, 222, 186), (214, 198, 160), cells=50), lambda dd: dd.polygon(path))
    # marram grass tufts
    for _ in range(420):
        x = rng.uniform(0, w)
        y = rng.uniform(hy - 40, h)
        if abs(x - w / 2) < (y - hy) / (h - hy) * w * 0.38 + w * 0.03:
            continue
        s = 20 + 90 * (y - hy) / (h - hy)
        col = rng.choice([(120, 140, 80), (150, 160, 96), (170, 170, 110), (100, 120, 70)])
        for _k in range(5):
            a = rng.uniform(-0.6, 0.6)
            d.line([(x, y), (x + math.sin(a) * s, y - math.cos(a) * s)], fill=col + (230,), width=2)
    # fence posts along the path
    for i in range(8):
        t = i / 8
        y = hy + 80 + (h - hy - 80) * t ** 1.6
        x = w * 0.5 - (w * 0.03 + t ** 1.6 * w * 0.42)
        d.line([(x, y), (x, y - 20 - 140 * t ** 1.6)], fill=(110, 86, 60, 255), width=int(3 + 10 * t))
    return img


# ----------------------------------------------------------------------------- underwater


def water_base(w, h, rng, top, bottom, rays=7, shimmer=True, snow=500):
    img = vgrad(w, h, [(0, top), (1, bottom)])
    if shimmer:
        def sh(d):
            for _ in range(160):
                y = rng.uniform(0, h * 0.12)
                x = rng.uniform(-50, w)
                d.line([(x, y), (x + rng.uniform(30, 140), y + rng.uniform(-8, 8))], fill=rng.randrange(100, 256),
                       width=rng.randrange(2, 6))
        glow(img, shade(top, 1.6), sh, blur=4, opacity=170)
    for _ in range(rays):
        x = rng.uniform(0, w)
        top_w = rng.uniform(20, 60)
        spread = rng.uniform(100, 260)
        lean = rng.uniform(-250, 250)

        def ray(d, x=x, top_w=top_w, spread=spread, lean=lean):
            d.polygon([(x - top_w, 0), (x + top_w, 0), (x + lean + spread, h), (x + lean - spread, h)], fill=255)
        glow(img, shade(top, 1.5), ray, blur=40, opacity=rng.randrange(40, 80))
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(snow):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.8, 2.6)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(230, 240, 230, rng.randrange(40, 140)))
    return img


def seabed(img, rng, y0, c0, c1, amp=30):
    w, h = img.size
    pts = [(0, h)] + [(w * i / 30, y0 + math.sin(i * 0.9 + rng.random() * 2) * amp) for i in range(31)] + [(w, h)]
    fill_with(img, blotchy(w, h, rng, c0, c1, cells=50), lambda d: d.polygon(pts), blur=3)


def seaweed(d, rng, x, y, height, color, width=10, sway=30):
    pts = []
    phase = rng.uniform(0, 6)
    for k in range(12):
        t = k / 11
        pts.append((x + math.sin(phase + t * 3) * sway * t, y - height * t))
    d.line(pts, fill=color, width=width, joint="curve")


def scene_pipefish(w, h, rng):
    img = water_base(w, h, rng, (96, 150, 120), (20, 54, 44), rays=6)
    seabed(img, rng, h * 0.8, (86, 96, 60), (60, 70, 44))
    d = ImageDraw.Draw(img, "RGBA")
    greens = [(60, 110, 50), (80, 130, 60), (50, 90, 40), (100, 140, 70)]
    for _ in range(120):  # eelgrass, far (transparent) to near (opaque)
        x = rng.uniform(-20, w + 20)
        near = rng.random()
        seaweed(d, rng, x, h * (0.82 + 0.2 * near), h * (0.3 + 0.45 * near), rng.choice(greens) + (int(80 + 170 * near),),
                width=int(4 + 10 * near), sway=40 + 60 * near)
    # the pipefish: a long thin body with a snout, lying diagonally between the blades
    x0, y0, x1, y1 = w * 0.28, h * 0.46, w * 0.74, h * 0.36
    body = []
    for k in range(40):
        t = k / 39
        body.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t + math.sin(t * 5) * 14))
    d.line(body, fill=(150, 126, 70, 255), width=34, joint="curve")
    d.line([(x, y - 8) for x, y in body], fill=(190, 170, 110, 255), width=8, joint="curve")
    for k in range(0, 40, 2):
        x, y = body[k]
        d.line([(x - 3, y - 16), (x + 3, y + 16)], fill=(90, 70, 40, 255), width=4)
    sx, sy = body[-1]
    d.line([(sx, sy), (sx + 90, sy - 20)], fill=(150, 126, 70, 255), width=14)
    d.ellipse((sx - 14, sy - 16, sx + 10, sy + 4), fill=(20, 20, 20, 255))
    d.ellipse((sx - 8, sy - 12, sx - 2, sy - 6), fill=(240, 240, 240, 255))
    d.polygon([(x0 - 50, y0 - 22), (x0, y0), (x0 - 50, y0 + 24)], fill=(130, 110, 60, 255))
    for _ in range(14):  # nearest blades in front of the fish
        x = rng.uniform(-20, w + 20)
        seaweed(d, rng, x, h + 20, h * rng.uniform(0.4, 0.8), rng.choice(greens) + (230,), width=14, sway=80)
    return img


def scene_plaice(w, h, rng):
    img = water_base(w, h, rng, (110, 150, 140), (60, 90, 80), rays=3, shimmer=False, snow=300)
    seabed(img, rng, h * 0.2, (176, 162, 120), (150, 138, 100), amp=18)
    d = ImageDraw.Draw(img, "RGBA")
    for k in range(26):  # sand ripples
        y = h * 0.25 + k * h * 0.03
        pts = [(x, y + math.sin(x / 70 + k) * 10) for x in range(0, w + 40, 40)]
        d.line(pts, fill=(120, 108, 80, 90), width=6, joint="curve")
        d.line([(x, y + 6) for x, y in pts], fill=(210, 196, 150, 70), width=4, joint="curve")
    for _ in range(30):  # shells
        x, y = rng.uniform(0, w), rng.uniform(h * 0.3, h)
        s = rng.uniform(8, 22)
        d.pieslice((x - s, y - s, x + s, y + s), 180, 360, fill=(220, 214, 200, 220))
    # the plaice: flat oval, brown with orange spots, both eyes on top
    cx, cy, rw, rh = w * 0.5, h * 0.6, 300, 170
    d.ellipse((cx - rw + 20, cy - rh + 30, cx + rw + 20, cy + rh + 30), fill=(80, 70, 50, 90))  # shadow
    d.ellipse((cx - rw, cy - rh, cx + rw, cy + rh), fill=(136, 112, 78, 255))
    d.polygon([(cx - rw + 10, cy), (cx - rw - 110, cy - 90), (cx - rw - 90, cy), (cx - rw - 110, cy + 90)],
              fill=(126, 104, 72, 255))
    for _ in range(22):
        a, r = rng.uniform(0, 2 * math.pi), rng.random() ** 0.5
        x, y = cx + math.cos(a) * rw * 0.8 * r, cy + math.sin(a) * rh * 0.8 * r
        s = rng.uniform(9, 18)
        d.ellipse((x - s, y - s, x + s, y + s), fill=(230, 110, 40, 255))
    for ex, ey in ((cx + rw * 0.62, cy - 40), (cx + rw * 0.72, cy + 10)):
        d.ellipse((ex - 16, ey - 16, ex + 16, ey + 16), fill=(230, 220, 180, 255))
        d.ellipse((ex - 8, ey - 8, ex + 8, ey + 8), fill=(10, 10, 10, 255))
    d.arc((cx + rw * 0.7, cy + 20, cx + rw * 0.95, cy + 80), 200, 320, fill=(60, 50, 30, 255), width=5)
    return img


def scene_lobster(w, h, rng):
    img = water_base(w, h, rng, (40, 90, 100), (8, 24, 30), rays=4, snow=700)
    seabed(img, rng, h * 0.72, (70, 76, 66), (40, 46, 40))
    d = ImageDraw.Draw(img, "RGBA")
    for i in range(5):  # jetty posts covered in growth
        x = w * (0.1 + i * 0.22) + rng.uniform(-30, 30)
        pw = rng.uniform(60, 110)
        d.rectangle((x, -10, x + pw, h * 0.78), fill=(40, 42, 36, 255))
        for _ in range(60):
            yy = rng.uniform(h * 0.1, h * 0.78)
            s = rng.uniform(6, 20)
            gx = x + rng.uniform(-8, pw * 0.5)
            d.ellipse((gx, yy - s, gx + rng.uniform(16, pw * 0.5 + 16), yy + s),
                      fill=rng.choice([(70, 90, 50), (110, 120, 80), (200, 200, 190)]) + (180,))
    d.rectangle((0, 0, w, h * 0.05), fill=(20, 24, 20, 255))  # underside of the jetty
    for _ in range(25):  # rocks
        x, y = rng.uniform(0, w), rng.uniform(h * 0.72, h)
        s = rng.uniform(40, 120)
        d.ellipse((x - s, y - s * 0.6, x + s, y + s * 0.6), fill=rng.choice([(60, 64, 58), (48, 52, 48), (80, 82, 74)]) + (255,))
    # the lobster in a hole between the rocks
    cx, cy = w * 0.52, h * 0.76
    d.ellipse((cx - 240, cy - 70, cx + 240, cy + 90), fill=(6, 8, 10, 255))
    blue = (24, 40, 90, 255)
    for k in range(5):
        d.ellipse((cx - 40 - k * 42, cy - 34 + k * 3, cx + 20 - k * 42, cy + 30 - k * 3), fill=blue)
    d.ellipse((cx - 20, cy - 44, cx + 120, cy + 36), fill=(30, 50, 110, 255))
    for side in (-1, 1):
        d.line([(cx + 100, cy + side * 20), (cx + 190, cy + side * 80)], fill=blue, width=22)
        d.ellipse((cx + 170, cy + side * 80 - 40, cx + 330, cy + side * 80 + 40), fill=(34, 54, 120, 255))
        d.line([(cx + 110, cy - 20), (cx + 420, cy - 200 + side * 60)], fill=(150, 80, 60, 255), width=4)
    for ex in (cx + 112, cx + 118):
        d.ellipse((ex - 7, cy - 30, ex + 7, cy - 16), fill=(0, 0, 0, 255))
    glow(img, (200, 220, 255), lambda dd: dd.ellipse((cx - 60, cy - 60, cx + 340, cy + 60)), blur=50, opacity=50)
    return img


def scene_safety_stop(w, h, rng):
    img = water_base(w, h, rng, (60, 160, 200), (10, 40, 80), rays=8)
    d = ImageDraw.Draw(img, "RGBA")
    # a diver hanging at five metres, seen from the side
    cx, cy = w * 0.62, h * 0.62
    dark = (12, 20, 30, 255)
    d.rounded_rectangle((cx - 150, cy - 40, cx + 120, cy + 40), radius=40, fill=dark)  # body
    d.rounded_rectangle((cx - 120, cy - 85, cx + 90, cy - 30), radius=24, fill=(190, 190, 60, 255))  # tank
    d.ellipse((cx + 110, cy - 60, cx + 190, cy + 20), fill=dark)  # head
    d.rounded_rectangle((cx + 150, cy - 50, cx + 200, cy - 10), radius=8, fill=(120, 200, 230, 255))  # mask
    d.line([(cx - 140, cy + 10), (cx - 300, cy + 60)], fill=dark, width=34)
    d.polygon([(cx - 290, cy + 30), (cx - 470, cy + 40), (cx - 460, cy + 120), (cx - 290, cy + 90)], fill=(240, 200, 30, 255))
    d.line([(cx + 40, cy + 20), (cx + 120, cy + 120)], fill=dark, width=26)  # arm with computer
    d.ellipse((cx + 110, cy + 105, cx + 150, cy + 140), fill=(40, 40, 50, 255))
    d.line([(cx + 200, cy - 30), (cx + 260, cy - 80)], fill=dark, width=10)  # regulator
    bubbles(d, rng, cx + 250, cy - 90, 160, 50, cy - 60, 4, 22)
    fx, fy = w * 0.2, h * 0.35
    d.rounded_rectangle((fx - 60, fy - 16, fx + 50, fy + 16), radius=16, fill=(30, 60, 90, 140))
    d.ellipse((fx + 40, fy - 24, fx + 72, fy + 8), fill=(30, 60, 90, 140))
    d.line([(fx - 60, fy + 4), (fx - 150, fy + 24)], fill=(30, 60, 90, 140), width=14)
    bubbles(d, rng, fx + 80, fy - 30, 50, 20, fy - 20, 2, 9)
    # a shoal of small fish
    for _ in range(30):
        fish(d, w * 0.25 + rng.gauss(0, 90), h * 0.75 + rng.gauss(0, 40), rng.uniform(30, 50), (150, 170, 180), rng,
             facing=1, alpha=200, belly=(210, 220, 225))
    return img


def scene_anemones(w, h, rng):
    img = water_base(w, h, rng, (70, 120, 110), (14, 36, 34), rays=4)
    w0 = int(w * 0.55)
    tex = blotchy(w, h, rng, (128, 134, 116), (96, 104, 90), cells=60)
    fill_with(img, tex, lambda d: d.polygon([(0, 0), (w0, 0), (w0 + 80, h), (0, h)]))  # the pillar
    d = ImageDraw.Draw(img, "RGBA")
    d.line([(w0, 0), (w0 + 80, h)], fill=(40, 46, 40, 255), width=10)
    seabed(img, rng, h * 0.86, (80, 84, 70), (60, 64, 52))
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(46):  # plumose anemones: a column and a fluffy crown
        x = rng.uniform(20, w0 + 40) if rng.random() < 0.8 else rng.uniform(w0, w)
        y = rng.uniform(h * 0.15, h * 0.95)
        s = rng.uniform(24, 70) * (0.6 + y / h)
        col = rng.choice([(250, 140, 60), (255, 250, 240), (250, 170, 90), (245, 235, 220), (230, 110, 50)])
        d.rounded_rectangle((x - s * 0.25, y - s * 0.2, x + s * 0.25, y + s), radius=int(s * 0.2), fill=shade(col, 0.85) + (255,))
        for _k in range(30):
            a = rng.uniform(math.pi, 2 * math.pi)
            r = rng.uniform(0.3, 1.0) * s
            px, py = x + math.cos(a) * r * 0.9, y - s * 0.2 + math.sin(a) * r * 0.7
            rr = rng.uniform(3, 8)
            d.ellipse((px - rr, py - rr, px + rr, py + rr), fill=shade(col, rng.uniform(0.9, 1.1)) + (230,))
    for _ in range(6):
        fish(d, rng.uniform(w0, w - 60), rng.uniform(h * 0.2, h * 0.7), rng.uniform(60, 110), (120, 110, 90), rng,
             facing=rng.choice((-1, 1)), alpha=230, belly=(170, 160, 140))
    return img


# ----------------------------------------------------------------------------- park


AUTUMN = [(200, 110, 40), (220, 160, 50), (170, 70, 40), (120, 130, 50), (230, 190, 80), (150, 100, 40)]


def park_base(w, h, rng, hy, sky=((170, 180, 190), (226, 226, 220)), mist=0, pond=None, trees=5):
    img = vgrad(w, h, [(0, sky[0]), (hy / h, sky[1]), (hy / h + 1e-4, (110, 120, 70)), (1, (60, 80, 40))])
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(34):  # the far tree line
        x = rng.uniform(-60, w + 60)
        tree_canopy(d, rng, x, hy - rng.uniform(30, 80), rng.uniform(60, 120), rng.uniform(50, 100),
                    [shade(c, 0.7) for c in AUTUMN] + [(80, 90, 60)], n=16, alpha=255)
    if mist:
        glow(img, (236, 236, 232), lambda dd: dd.rectangle((0, hy - 200, w, hy + 60)), blur=90, opacity=mist)
    if pond:
        px0, py0, px1, py1 = pond

        def water(dd):
            dd.ellipse(pond)
        fill_with(img, vgrad(w, h, [(0, (150, 160, 170)), (1, (60, 80, 90))]), water)
        d = ImageDraw.Draw(img, "RGBA")
        for _ in range(140):
            y = rng.uniform(py0 + 10, py1 - 10)
            x = rng.uniform(px0 + 40, px1 - 120)
            d.line([(x, y), (x + rng.uniform(20, 120), y)], fill=(230, 230, 225, rng.randrange(20, 70)), width=2)
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(2600):  # grass and fallen leaves texture
        x, y = rng.uniform(0, w), rng.uniform(hy, h)
        if pond and ((x - (pond[0] + pond[2]) / 2) / ((pond[2] - pond[0]) / 2)) ** 2 + \
                ((y - (pond[1] + pond[3]) / 2) / ((pond[3] - pond[1]) / 2)) ** 2 < 1:
            continue
        t = (y - hy) / (h - hy)
        s = 1 + 6 * t
        col = rng.choice(AUTUMN + [(80, 110, 50), (90, 120, 60)])
        d.ellipse((x - s, y - s * 0.5, x + s, y + s * 0.5), fill=col + (150,))
    for i in range(trees):  # big trees in front
        x = w * (i + 0.5) / trees + rng.uniform(-90, 90)
        ty = hy + rng.uniform(40, 200)
        tw = rng.uniform(30, 60)
        trunk(d, x, ty - 380, ty, tw, (60, 46, 36, 255))
        tree_canopy(d, rng, x, ty - 420, rng.uniform(170, 260), rng.uniform(140, 200), AUTUMN, n=90)
    if mist:
        glow(img, (240, 240, 236), lambda dd: dd.rectangle((0, 0, w, h)), blur=0, opacity=mist // 3)
    return img


def scene_misty_park(w, h, rng):
    hy = int(h * 0.52)
    img = park_base(w, h, rng, hy, mist=170, pond=(w * 0.1, hy + 60, w * 0.95, hy + 300), trees=3)
    glow(img, (255, 236, 200), lambda d: d.ellipse((w * 0.7 - 50, h * 0.18 - 50, w * 0.7 + 50, h * 0.18 + 50)), blur=6,
         opacity=150)
    d = ImageDraw.Draw(img, "RGBA")
    for k in range(3):  # ducks on the pond
        x, y = w * (0.3 + k * 0.12), hy + 170 + k * 20
        d.ellipse((x - 24, y - 10, x + 24, y + 10), fill=(70, 60, 50, 220))
        d.ellipse((x + 14, y - 24, x + 32, y - 6), fill=(40, 80, 50, 220))
    return img


def scene_heron(w, h, rng):
    hy = int(h * 0.38)
    img = park_base(w, h, rng, hy, sky=((180, 190, 200), (230, 228, 220)), mist=60,
                    pond=(-w * 0.2, hy + 120, w * 1.2, h * 1.3), trees=2)
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(160):  # reeds on the left bank
        x = rng.uniform(0, w * 0.3)
        y = rng.uniform(h * 0.7, h)
        d.line([(x, y), (x + rng.uniform(-30, 30), y - rng.uniform(120, 320))], fill=rng.choice(
            [(140, 130, 80), (110, 110, 60), (170, 150, 90)]) + (255,), width=4)
    # the heron standing in the shallows
    cx, cy = w * 0.6, h * 0.62
    grey, dark = (150, 156, 164, 255), (40, 42, 48, 255)
    d.line([(cx - 10, cy + 60), (cx - 20, cy + 230)], fill=(160, 140, 90, 255), width=8)
    d.line([(cx + 20, cy + 60), (cx + 30, cy + 230)], fill=(160, 140, 90, 255), width=8)
    d.ellipse((cx - 120, cy - 60, cx + 80, cy + 80), fill=grey)
    d.polygon([(cx - 120, cy), (cx - 200, cy + 60), (cx - 100, cy + 50)], fill=(110, 116, 126, 255))
    d.chord((cx - 120, cy - 60, cx + 80, cy + 80), 180, 300, fill=(100, 106, 118, 255))
    neck = [(cx + 50, cy - 30), (cx + 90, cy - 100), (cx + 60, cy - 170), (cx + 90, cy - 240)]
    d.line(neck, fill=(230, 232, 236, 255), width=30, joint="curve")
    d.ellipse((cx + 60, cy - 275, cx + 130, cy - 220), fill=(235, 236, 240, 255))
    d.polygon([(cx + 120, cy - 255), (cx + 250, cy - 238), (cx + 120, cy - 232)], fill=(230, 170, 50, 255))
    d.line([(cx + 70, cy - 262), (cx + 10, cy - 250)], fill=dark, width=8)  # crest
    d.line([(cx + 66, cy - 262), (cx + 124, cy - 262)], fill=dark, width=7)
    d.ellipse((cx + 100, cy - 258, cx + 110, cy - 248), fill=(240, 200, 40, 255))
    for k in range(3):  # ripples around the legs
        d.ellipse((cx - 80 - k * 40, cy + 220 - k * 6, cx + 100 + k * 40, cy + 240 + k * 6), outline=(220, 224, 228, 120),
                  width=2)
    return img


def scene_chestnut_path(w, h, rng):  # portrait
    hy = int(h * 0.4)
    img = park_base(w, h, rng, hy, sky=((160, 180, 200), (220, 220, 210)), trees=0)
    path = [(w * 0.45, hy), (w * 0.55, hy), (w * 1.1, h), (-w * 0.1, h)]
    fill_with(img, blotchy(w, h, rng, (150, 130, 100), (120, 104, 80), cells=40), lambda d: d.polygon(path))
    d = ImageDraw.Draw(img, "RGBA")
    for side in (-1, 1):
        for k in range(4):
            t = k / 4
            x = w / 2 + side * (w * 0.12 + (1 - t) * w * 0.45)
            y = hy + (1 - t) * (h - hy) * 0.55
            tw = 20 + 60 * (1 - t)
            trunk(d, x, y - 900 * (1 - t) - 200, y, tw, (56, 42, 32, 255))
            tree_canopy(d, rng, x, y - 900 * (1 - t) - 260, 200 + 200 * (1 - t), 140 + 120 * (1 - t), AUTUMN, n=60)
    for _ in range(900):  # leaves on the path
        y = hy + (h - hy) * rng.random() ** 0.6
        x = rng.uniform(0, w)
        s = 3 + 26 * (y - hy) / (h - hy)
        a = rng.uniform(0, math.pi)
        col = rng.choice(AUTUMN)
        d.polygon([(x + math.cos(a) * s, y + math.sin(a) * s * 0.5), (x - math.sin(a) * s * 0.4, y + math.cos(a) * s * 0.2),
                   (x - math.cos(a) * s, y - math.sin(a) * s * 0.5), (x + math.sin(a) * s * 0.4, y - math.cos(a) * s * 0.2)],
                  fill=col + (230,))
    for _ in range(18):  # chestnuts, some in their spiky husk
        x, y = rng.uniform(w * 0.1, w * 0.9), rng.uniform(h * 0.72, h * 0.97)
        s = rng.uniform(20, 38)
        if rng.random() < 0.35:
            for k in range(24):
                a = k * 2 * math.pi / 24
                d.line([(x, y), (x + math.cos(a) * s * 1.5, y + math.sin(a) * s * 1.3)], fill=(120, 150, 60, 255), width=3)
            d.ellipse((x - s * 1.2, y - s, x + s * 1.2, y + s), fill=(130, 160, 70, 255))
        d.ellipse((x - s, y - s * 0.85, x + s, y + s * 0.85), fill=(100, 50, 24, 255))
        d.ellipse((x - s * 0.55, y - s * 0.6, x - s * 0.05, y - s * 0.2), fill=(190, 120, 70, 200))
        d.chord((x - s, y - s * 0.85, x + s, y + s * 0.85), 20, 160, fill=(200, 180, 140, 255))
    return img


def scene_leaves(w, h, rng):
    img = blotchy(w, h, rng, (34, 30, 30), (22, 20, 22), cells=30)
    d = ImageDraw.Draw(img, "RGBA")
    d.ellipse((-w * 0.2, h * 0.1, w * 1.2, h * 1.4), fill=(40, 36, 36, 255))  # the saddle
    for k in range(60):
        d.line([(0, h * 0.2 + k * 28), (w, h * 0.2 + k * 28 + 40)], fill=(60, 54, 52, 40), width=2)
    for _ in range(26):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        s = rng.uniform(90, 200)
        rot = rng.uniform(0, 2 * math.pi)
        col = rng.choice([(220, 60, 30), (240, 150, 30), (250, 200, 60), (200, 90, 30), (180, 40, 40), (230, 120, 40)])
        pts = []
        for k in range(10):  # a five-lobed maple leaf
            a = rot + k * math.pi / 5
            r = s if k % 2 == 0 else s * 0.45
            pts.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
        d.polygon(pts, fill=col + (255,))
        for k in range(0, 10, 2):
            a = rot + k * math.pi / 5
            d.line([(cx, cy), (cx + math.cos(a) * s * 0.9, cy + math.sin(a) * s * 0.9)], fill=shade(col, 0.7) + (255,),
                   width=3)
        d.line([(cx, cy), (cx - math.cos(rot + math.pi / 2) * s * 0.9, cy - math.sin(rot + math.pi / 2) * s * 0.9)],
               fill=shade(col, 0.6) + (255,), width=5)
        glow(img, (255, 255, 255), lambda dd, cx=cx, cy=cy, s=s: dd.ellipse((cx - s * 0.4, cy - s * 0.5, cx, cy - s * 0.1)),
             blur=20, opacity=40)
        d = ImageDraw.Draw(img, "RGBA")
    return img


# ----------------------------------------------------------------------------- canals


HOUSE_COLOURS = [(120, 50, 40), (150, 70, 50), (90, 60, 45), (60, 70, 60), (220, 210, 190), (80, 40, 35),
                 (170, 90, 60), (50, 50, 55), (200, 180, 150), (110, 80, 60)]


def canal_house(d, rng, x, base, hw, hh, col, evening, kind):
    d.rectangle((x, base - hh, x + hw, base), fill=col + (255,))
    top = base - hh
    white = (238, 236, 226, 255)
    if kind == "step":
        steps = 4
        for k in range(steps):
            inset = hw * 0.1 * (k + 1)
            d.rectangle((x + inset, top - 32 * (k + 1), x + hw - inset, top - 32 * k), fill=col + (255,))
    elif kind == "neck":
        d.rectangle((x + hw * 0.28, top - 110, x + hw * 0.72, top), fill=col + (255,))
        d.pieslice((x - hw * 0.02, top - 90, x + hw * 0.56, top + 10), 180, 270, fill=white)
        d.pieslice((x + hw * 0.44, top - 90, x + hw * 1.02, top + 10), 270, 360, fill=white)
        d.ellipse((x + hw * 0.34, top - 140, x + hw * 0.66, top - 90), fill=white)
    elif kind == "bell":
        d.chord((x + hw * 0.05, top - 140, x + hw * 0.95, top + 60), 180, 360, fill=col + (255,))
        d.arc((x + hw * 0.05, top - 140, x + hw * 0.95, top + 60), 180, 360, fill=white, width=6)
    else:  # spout / triangle
        d.polygon([(x, top), (x + hw / 2, top - hw * 0.55), (x + hw, top)], fill=col + (255,))
        d.line([(x, top), (x + hw / 2, top - hw * 0.55), (x + hw, top)], fill=white, width=5)
    d.line([(x + hw / 2, top - 20), (x + hw / 2 + 36, top - 20)], fill=(30, 30, 30, 255), width=5)  # hoisting beam
    cols = max(2, int(hw // 55))
    rows = max(3, int(hh // 110))
    for r in range(rows):
        for c in range(cols):
            wx = x + hw * (c + 0.5) / cols
            wy = top + 40 + r * (hh - 60) / rows
            ww, wh = hw / cols * 0.55, (hh - 60) / rows * 0.62
            lit = evening and rng.random() < 0.45
            pane = (250, 200, 110, 255) if lit else (40, 48, 56, 255)
            d.rectangle((wx - ww / 2, wy, wx + ww / 2, wy + wh), fill=white)
            d.rectangle((wx - ww / 2 + 5, wy + 5, wx + ww / 2 - 5, wy + wh - 5), fill=pane)
            d.line([(wx, wy), (wx, wy + wh)], fill=white, width=3)
            d.line([(wx - ww / 2, wy + wh / 2), (wx + ww / 2, wy + wh / 2)], fill=white, width=3)
    d.rectangle((x + hw * 0.38, base - 90, x + hw * 0.62, base), fill=(40, 60, 50, 255))


def reflect(img, rng, y_water, strength=0.55):
    w, h = img.size
    band = img.crop((0, max(0, 2 * y_water - h), w, y_water)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    water = vgrad(w, h - y_water, [(0, (50, 70, 60)), (1, (24, 34, 30))])
    out = water.copy()
    for y in range(0, band.height, 6):  # ripple: shift each strip sideways
        strip = band.crop((0, y, w, min(band.height, y + 6)))
        out.paste(strip, (int(math.sin(y / 7.0) * (2 + y / 60)), y))
    out = Image.blend(water, out, strength).filter(ImageFilter.GaussianBlur(3.5))
    img.paste(out, (0, y_water))
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(300):
        y = rng.uniform(y_water + 4, h)
        x = rng.uniform(0, w)
        d.line([(x, y), (x + rng.uniform(20, 90), y)], fill=(220, 230, 220, rng.randrange(15, 60)), width=2)


def scene_canal(w, h, rng, evening=False, tower=False, warehouses=False):
    quay = int(h * 0.6)
    sky = [(0, (60, 80, 140)), (0.6, (250, 160, 110))] if evening else [(0, (120, 160, 210)), (0.6, (220, 228, 236))]
    img = vgrad(w, h, sky + [(1, (220, 228, 236))])
    d = ImageDraw.Draw(img, "RGBA")
    if tower:  # Montelbaanstoren: brick base, white octagonal top, dark spire
        tx = w * 0.3
        d.rectangle((tx - 80, quay - 520, tx + 80, quay), fill=(130, 60, 45, 255))
        d.rectangle((tx - 60, quay - 700, tx + 60, quay - 520), fill=(236, 232, 220, 255))
        d.rectangle((tx - 60, quay - 700, tx - 30, quay - 520), fill=(200, 196, 186, 255))
        d.ellipse((tx - 30, quay - 650, tx + 30, quay - 590), fill=(30, 30, 40, 255))
        d.line([(tx, quay - 620), (tx, quay - 640)], fill=(230, 200, 90, 255), width=4)
        d.line([(tx, quay - 620), (tx + 16, quay - 620)], fill=(230, 200, 90, 255), width=4)
        d.rectangle((tx - 40, quay - 800, tx + 40, quay - 700), fill=(236, 232, 220, 255))
        for k in range(3):
            d.rectangle((tx - 30 + k * 22, quay - 780, tx - 20 + k * 22, quay - 720), fill=(40, 40, 50, 255))
        d.polygon([(tx - 44, quay - 800), (tx, quay - 980), (tx + 44, quay - 800)], fill=(36, 40, 44, 255))
        d.line([(tx, quay - 980), (tx, quay - 1040)], fill=(36, 40, 44, 255), width=5)
    x = -30
    while x < w:
        if warehouses:
            hw = rng.uniform(200, 250)
            hh = rng.uniform(520, 560)
            col = rng.choice([(180, 150, 110), (120, 80, 60), (200, 190, 160), (150, 110, 80), (100, 70, 50)])
            d.rectangle((x, quay - hh, x + hw, quay), fill=col + (255,))
            d.polygon([(x, quay - hh), (x + hw / 2, quay - hh - 90), (x + hw, quay - hh)], fill=col + (255,))
            door = rng.choice([(40, 80, 60), (120, 30, 30), (30, 50, 90), (200, 180, 60)])
            for r in range(6):
                yy = quay - hh + 30 + r * (hh - 40) / 6
                d.rectangle((x + hw * 0.36, yy, x + hw * 0.64, yy + (hh - 40) / 6 - 14), fill=door + (255,))
                for sx in (x + hw * 0.12, x + hw * 0.76):
                    d.rectangle((sx, yy + 10, sx + hw * 0.12, yy + 50), fill=(40, 44, 50, 255))
            d.line([(x + hw / 2, quay - hh - 40), (x + hw / 2 + 40, quay - hh - 40)], fill=(20, 20, 20, 255), width=6)
            x += hw + 4
            continue
        hw = rng.uniform(120, 210)
        hh = rng.uniform(300, 520)
        if tower and abs(x + hw / 2 - w * 0.3) < 170:
            hh = min(hh, 330)
        canal_house(d, rng, x, quay, hw, hh, rng.choice(HOUSE_COLOURS), evening,
                    rng.choice(["step", "neck", "bell", "spout"]))
        x += hw + 2
    for k in range(3):  # elms along the quay
        tx = w * (0.15 + k * 0.33) + rng.uniform(-40, 40)
        trunk(d, tx, quay - 260, quay, 26, (50, 40, 30, 255))
        tree_canopy(d, rng, tx, quay - 320, 150, 110, [(70, 100, 50), (100, 120, 60), (180, 150, 60), (200, 120, 40)], n=50,
                    alpha=240)
    for k in range(7):  # bicycles against the railing
        bx = rng.uniform(40, w - 100)
        by = quay - 10
        col = rng.choice([(30, 30, 30), (120, 20, 20), (30, 60, 100), (200, 200, 200)])
        d.ellipse((bx - 30, by - 60, bx + 30, by), outline=col + (255,), width=5)
        d.ellipse((bx + 60, by - 60, bx + 120, by), outline=col + (255,), width=5)
        d.line([(bx, by - 30), (bx + 40, by - 70), (bx + 90, by - 30), (bx + 40, by - 30), (bx, by - 30)],
               fill=col + (255,), width=5)
        d.line([(bx + 40, by - 70), (bx + 34, by - 84)], fill=col + (255,), width=5)
    d.rectangle((0, quay, w, quay + 24), fill=(70, 66, 60, 255))
    reflect(img, rng, quay + 24)
    d = ImageDraw.Draw(img, "RGBA")
    # a canal boat
    bx, by = w * 0.55, quay + 150
    d.polygon([(bx - 260, by), (bx + 240, by), (bx + 200, by + 60), (bx - 240, by + 60)], fill=(30, 60, 50, 255))
    d.rectangle((bx - 150, by - 50, bx + 120, by), fill=(200, 200, 190, 255))
    for k in range(4):
        d.rectangle((bx - 135 + k * 65, by - 40, bx - 95 + k * 65, by - 15), fill=(60, 80, 100, 255))
    if evening:
        glow(img, (255, 200, 120), lambda dd: [dd.ellipse((w * f - 14, quay - 230, w * f + 14, quay - 202))
                                               for f in (0.1, 0.48, 0.86)], blur=8)
    return img


# ----------------------------------------------------------------------------- vegetable garden


def garden_base(w, h, rng, hy, sky=((130, 170, 215), (220, 230, 236))):
    img = vgrad(w, h, [(0, sky[0]), (hy / h, sky[1]), (hy / h + 1e-4, (110, 90, 60)), (1, (80, 60, 40))])
    d = ImageDraw.Draw(img, "RGBA")
    # apartment blocks of the Dapperbuurt behind the garden
    x = -20
    while x < w:
        bw = rng.uniform(260, 420)
        bh = rng.uniform(220, 330)
        col = rng.choice([(140, 70, 50), (120, 60, 45), (160, 100, 70), (110, 80, 60)])
        d.rectangle((x, hy - bh, x + bw, hy), fill=col + (255,))
        for r in range(4):
            for c in range(int(bw // 70)):
                d.rectangle((x + 20 + c * 70, hy - bh + 20 + r * bh / 4, x + 56 + c * 70, hy - bh + 60 + r * bh / 4),
                            fill=(60, 70, 80, 255))
                d.line([(x + 16 + c * 70, hy - bh + 64 + r * bh / 4), (x + 60 + c * 70, hy - bh + 64 + r * bh / 4)],
                       fill=(230, 230, 220, 255), width=4)
        x += bw + 6
    d.rectangle((0, hy - 70, w, hy), fill=(90, 70, 50, 255))  # the wooden fence
    for k in range(0, w, 24):
        d.line([(k, hy - 70), (k, hy)], fill=(70, 54, 40, 255), width=3)
    return img


def plant_row(d, rng, x0, x1, y, size, colors, n=None, alpha=255):
    n = n or int((x1 - x0) / (size * 0.7))
    for k in range(n):
        x = x0 + (x1 - x0) * (k + 0.5) / n + rng.uniform(-size * 0.2, size * 0.2)
        for _ in range(6):
            a = rng.uniform(math.pi * 1.1, math.pi * 1.9)
            ln = size * rng.uniform(0.6, 1.0)
            col = rng.choice(colors)
            px, py = x + math.cos(a) * ln * 0.6, y + math.sin(a) * ln * 0.6
            d.ellipse((px - ln * 0.3, py - ln * 0.22, px + ln * 0.3, py + ln * 0.22), fill=col + (alpha,))


def scene_garden_beds(w, h, rng):
    hy = int(h * 0.42)
    img = garden_base(w, h, rng, hy, sky=((170, 190, 220), (240, 226, 200)))
    d = ImageDraw.Draw(img, "RGBA")
    greens = [(70, 120, 50), (90, 140, 60), (60, 100, 40), (120, 160, 70)]
    for k in range(4):  # raised beds in perspective
        t0, t1 = k / 4, (k + 0.8) / 4
        y0, y1 = hy + 20 + (h - hy) * t0 ** 1.4, hy + 20 + (h - hy) * t1 ** 1.4
        inset0, inset1 = w * 0.3 * (1 - t0), w * 0.3 * (1 - t1)
        bed = [(inset0 - 60, y0), (w - inset0 + 60, y0), (w - inset1 + 140, y1), (inset1 - 140, y1)]
        d.polygon(bed, fill=(74, 52, 34, 255))
        d.line(bed + [bed[0]], fill=(150, 110, 70, 255), width=int(6 + 10 * t1))
        for r in range(3):
            yy = y0 + (y1 - y0) * (r + 0.6) / 3.2
            plant_row(d, rng, inset0 - 40, w - inset0 + 40, yy, 30 + 90 * t1, greens)
    # long morning shadows
    glow(img, (30, 20, 10), lambda dd: [dd.polygon([(x, hy), (x + 40, hy), (x + 400, h), (x + 200, h)])
                                        for x in range(-200, w, 380)], blur=30, opacity=60)
    return img


def scene_pumpkins(w, h, rng):
    img = blotchy(w, h, rng, (96, 70, 44), (70, 50, 32), cells=40)
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(600):  # straw
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a = rng.uniform(0, math.pi)
        ln = rng.uniform(20, 60)
        d.line([(x, y), (x + math.cos(a) * ln, y + math.sin(a) * ln)], fill=(210, 180, 110, 200), width=3)
    for _ in range(14):  # big leaves
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        s = rng.uniform(120, 220)
        d.ellipse((x - s, y - s * 0.8, x + s, y + s * 0.8), fill=rng.choice([(60, 110, 50), (80, 130, 60)]) + (255,))
        for k in range(5):
            a = k * 2 * math.pi / 5 + 0.3
            d.line([(x, y), (x + math.cos(a) * s * 0.9, y + math.sin(a) * s * 0.7)], fill=(130, 170, 100, 255), width=4)
    d.line([(0, h * 0.5), (w * 0.3, h * 0.45), (w * 0.6, h * 0.55), (w, h * 0.48)], fill=(90, 130, 60, 255), width=12,
           joint="curve")
    spots = [(0.22, 0.34), (0.5, 0.3), (0.78, 0.38), (0.3, 0.7), (0.6, 0.72), (0.85, 0.78)]
    for fx, fy in spots:
        cx, cy = w * fx + rng.uniform(-30, 30), h * fy + rng.uniform(-20, 20)
        rw, rh = rng.uniform(140, 200), rng.uniform(100, 140)
        col = rng.choice([(230, 120, 30), (240, 140, 40), (220, 100, 30), (240, 170, 60)])
        d.ellipse((cx - rw + 20, cy - rh + 30, cx + rw + 20, cy + rh + 30), fill=(30, 20, 10, 110))
        for k in sorted(range(-3, 4), key=lambda k: -abs(k)):  # ribs, outer ones first
            kw = rw * (1 - abs(k) * 0.2)
            ox = k * rw * 0.22
            kh = rh * (1 - abs(k) * 0.07)
            d.ellipse((cx + ox - kw * 0.5, cy - kh, cx + ox + kw * 0.5, cy + kh), fill=shade(col, 1 - abs(k) * 0.06) + (255,),
                      outline=shade(col, 0.75) + (255,), width=3)
        d.ellipse((cx - rw * 0.25, cy - rh * 0.8, cx - rw * 0.05, cy - rh * 0.4), fill=(255, 220, 160, 120))
        d.polygon([(cx - 10, cy - rh + 5), (cx + 12, cy - rh + 5), (cx + 20, cy - rh - 40), (cx, cy - rh - 44)],
                  fill=(90, 110, 50, 255))
    return img


def scene_beans(w, h, rng):  # portrait
    hy = int(h * 0.72)
    img = garden_base(w, h, rng, hy, sky=((100, 150, 215), (220, 230, 240)))
    d = ImageDraw.Draw(img, "RGBA")
    greens = [(60, 120, 50), (80, 140, 60), (50, 100, 40), (100, 150, 60)]
    for k in range(3):  # three teepees of bean poles
        cx = w * (0.2 + k * 0.3)
        top = (cx, h * 0.08 + k * 30)
        feet = [cx - 160, cx - 60, cx + 60, cx + 160]
        for fx in feet:
            d.line([(fx, h * 0.95), top], fill=(130, 100, 64, 255), width=10)
        for fx in feet:  # leaves and beans climbing each pole
            for t in [i / 40 for i in range(40)]:
                x = fx + (top[0] - fx) * t + rng.uniform(-30, 30)
                y = h * 0.95 + (top[1] - h * 0.95) * t
                s = rng.uniform(22, 40)
                d.polygon([(x, y - s), (x + s * 0.8, y), (x, y + s * 0.6), (x - s * 0.8, y)], fill=rng.choice(greens) + (255,))
                if rng.random() < 0.3:
                    d.line([(x + 10, y), (x + 16, y + rng.uniform(60, 110))], fill=(120, 170, 70, 255), width=9)
                if rng.random() < 0.08:
                    d.ellipse((x - 8, y - 8, x + 8, y + 8), fill=(220, 70, 60, 255))  # flower
        d.line([(top[0] - 20, top[1] + 20), (top[0] + 20, top[1] + 20)], fill=(210, 200, 170, 255), width=6)  # tied
    return img


def scene_sunflowers(w, h, rng):
    hy = int(h * 0.78)
    img = garden_base(w, h, rng, hy, sky=((60, 130, 210), (190, 215, 240)))
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(11):
        x = rng.uniform(60, w - 60)
        top = rng.uniform(h * 0.15, h * 0.5)
        s = rng.uniform(70, 130)
        d.line([(x, h), (x + rng.uniform(-20, 20), top)], fill=(80, 120, 50, 255), width=14)
        for k in range(4):
            ly = top + (h - top) * (k + 1) / 5
            side = 1 if k % 2 else -1
            d.ellipse((x + side * 10 - (60 if side < 0 else -10), ly - 30, x + side * 10 + (10 if side < 0 else 60), ly + 20),
                      fill=(70, 120, 50, 255))
        tilt = rng.uniform(0.7, 1.0)
        for k in range(22):
            a = k * 2 * math.pi / 22
            px, py = x + math.cos(a) * s * 0.75, top + math.sin(a) * s * 0.75 * tilt
            d.ellipse((px - s * 0.22, py - s * 0.22, px + s * 0.22, py + s * 0.22), fill=(250, 200, 30, 255))
        d.ellipse((x - s * 0.5, top - s * 0.5 * tilt, x + s * 0.5, top + s * 0.5 * tilt), fill=(90, 56, 30, 255))
        for _k in range(30):
            a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0, 0.45) * s
            d.ellipse((x + math.cos(a) * r - 3, top + math.sin(a) * r * tilt - 3, x + math.cos(a) * r + 3,
                       top + math.sin(a) * r * tilt + 3), fill=(60, 36, 20, 255))
    for _ in range(5):  # bees
        bx, by = rng.uniform(0, w), rng.uniform(h * 0.1, h * 0.5)
        d.ellipse((bx - 10, by - 6, bx + 10, by + 6), fill=(230, 180, 40, 255))
        d.line([(bx - 2, by - 6), (bx - 2, by + 6)], fill=(20, 20, 20, 255), width=3)
        d.ellipse((bx - 8, by - 16, bx + 2, by - 4), fill=(240, 240, 255, 180))
    return img


def scene_greenhouse(w, h, rng):
    img = vgrad(w, h, [(0, (200, 220, 200)), (0.7, (160, 190, 150)), (1, (90, 80, 60))])
    d = ImageDraw.Draw(img, "RGBA")
    greens = [(50, 110, 40), (70, 130, 50), (40, 90, 30)]
    for k in range(7):  # tomato plants with trusses
        x = w * (k + 0.5) / 7
        d.line([(x, h), (x + rng.uniform(-20, 20), h * 0.05)], fill=(90, 120, 60, 255), width=8)
        for _ in range(28):
            y = rng.uniform(h * 0.05, h * 0.9)
            s = rng.uniform(30, 60)
            xx = x + rng.uniform(-90, 90)
            d.ellipse((xx - s, y - s * 0.5, xx + s, y + s * 0.5), fill=rng.choice(greens) + (255,))
        for _ in range(3):
            tx, ty = x + rng.uniform(-60, 60), rng.uniform(h * 0.3, h * 0.85)
            for _j in range(rng.randrange(3, 7)):
                r = rng.uniform(22, 34)
                ox, oy = rng.uniform(-40, 40), rng.uniform(-30, 40)
                col = rng.choice([(210, 40, 30), (230, 60, 30), (240, 120, 40), (200, 30, 30)])
                d.ellipse((tx + ox - r, ty + oy - r, tx + ox + r, ty + oy + r), fill=col + (255,))
                d.ellipse((tx + ox - r * 0.5, ty + oy - r * 0.6, tx + ox - r * 0.1, ty + oy - r * 0.2), fill=(255, 220, 200, 150))
    # glass panes and the frame, one pane missing
    glow(img, (235, 245, 240), lambda dd: dd.rectangle((0, 0, w, h)), opacity=60)
    d = ImageDraw.Draw(img, "RGBA")
    missing = (3, 1)
    for c in range(6):
        for r in range(4):
            if (c, r) == missing:
                continue
            d.rectangle((c * w / 6, r * h / 4, (c + 1) * w / 6, (r + 1) * h / 4), fill=(230, 240, 235, 40))
    for c in range(7):
        d.line([(c * w / 6, 0), (c * w / 6, h)], fill=(235, 238, 230, 255), width=16)
    for r in range(5):
        d.line([(0, r * h / 4), (w, r * h / 4)], fill=(235, 238, 230, 255), width=12)
    return img


def scene_harvest_table(w, h, rng):
    img = vgrad(w, h, [(0, (120, 150, 90)), (0.42, (90, 120, 70)), (0.42001, (170, 120, 80)), (1, (130, 90, 60))])
    img = img.filter(ImageFilter.GaussianBlur(6))
    d = ImageDraw.Draw(img, "RGBA")
    for k in range(12):  # planks
        y = h * 0.42 + k * h * 0.05
        d.line([(0, y), (w, y)], fill=(100, 66, 40, 255), width=4)
    d.polygon([(w * 0.05, h * 0.46), (w * 0.95, h * 0.46), (w, h), (0, h)], fill=(236, 232, 222, 255))  # tablecloth
    for k in range(0, 24):
        d.line([(w * 0.05 + k * w * 0.0375, h * 0.46), (k * w / 23, h)], fill=(200, 80, 70, 120), width=6)
    for k in range(8):
        y = h * 0.46 + (h * 0.54) * (k / 8) ** 1.2
        d.line([(0, y), (w, y)], fill=(200, 80, 70, 120), width=6)
    # baskets and produce
    for bx, by in ((w * 0.25, h * 0.7), (w * 0.62, h * 0.66)):
        d.ellipse((bx - 220, by - 60, bx + 220, by + 160), fill=(150, 100, 50, 255))
        for k in range(8):
            d.arc((bx - 220, by - 60 + k * 20, bx + 220, by + 160 - k * 5), 0, 180, fill=(110, 70, 36, 255), width=4)
        d.ellipse((bx - 200, by - 70, bx + 200, by + 20), fill=(90, 60, 30, 255))
    for _ in range(14):  # tomatoes in the first basket
        x, y = w * 0.25 + rng.uniform(-150, 150), h * 0.7 + rng.uniform(-60, -10)
        d.ellipse((x - 30, y - 30, x + 30, y + 30), fill=(210, 40, 30, 255))
    for _ in range(6):  # courgettes in the second
        x, y = w * 0.62 + rng.uniform(-140, 100), h * 0.66 + rng.uniform(-70, -20)
        d.rounded_rectangle((x - 90, y - 20, x + 90, y + 20), radius=20, fill=(50, 100, 40, 255))
    d.ellipse((w * 0.82, h * 0.5, w * 0.98, h * 0.66), fill=(235, 140, 40, 255))  # a pumpkin
    d.ellipse((w * 0.86, h * 0.52, w * 0.94, h * 0.64), outline=(200, 110, 30, 255), width=4)
    for k in range(5):  # jars of jam
        x = w * 0.08 + k * 70
        d.rounded_rectangle((x, h * 0.48, x + 56, h * 0.58), radius=8, fill=(150, 30, 50, 255))
        d.rectangle((x + 4, h * 0.465, x + 52, h * 0.485), fill=(230, 200, 60, 255))
    return img


def scene_watering_cans(w, h, rng):
    img = Image.new("RGB", (w, h), (34, 52, 40))
    d = ImageDraw.Draw(img, "RGBA")
    for x in range(0, w, 90):  # tarred shed planks
        d.rectangle((x, 0, x + 86, h * 0.72), fill=rng.choice([(34, 52, 40), (30, 46, 36), (38, 58, 44)]) + (255,))
        d.line([(x + 87, 0), (x + 87, h * 0.72)], fill=(16, 24, 20, 255), width=4)
    gravel = blotchy(w, h, rng, (150, 144, 130), (120, 114, 100), cells=80)
    fill_with(img, gravel, lambda dd: dd.rectangle((0, h * 0.72, w, h)))
    d = ImageDraw.Draw(img, "RGBA")
    for _ in range(1500):
        x, y = rng.uniform(0, w), rng.uniform(h * 0.72, h)
        s = rng.uniform(2, 6)
        c = rng.randrange(90, 200)
        d.ellipse((x - s, y - s * 0.7, x + s, y + s * 0.7), fill=(c, c - 6, c - 14, 255))
    # rain barrel with downpipe
    d.rectangle((w * 0.78, 0, w * 0.8, h * 0.4), fill=(120, 124, 126, 255))
    d.rounded_rectangle((w * 0.72, h * 0.38, w * 0.92, h * 0.86), radius=30, fill=(30, 80, 50, 255))
    for k in range(3):
        d.line([(w * 0.72, h * (0.48 + k * 0.14)), (w * 0.92, h * (0.48 + k * 0.14))], fill=(20, 60, 36, 255), width=8)
    d.rectangle((w * 0.8, h * 0.76, w * 0.84, h * 0.8), fill=(180, 180, 170, 255))
    # watering cans
    for cx, col in ((w * 0.22, (170, 174, 178)), (w * 0.45, (60, 150, 80)), (w * 0.62, (160, 164, 170))):
        base = h * 0.86
        d.rounded_rectangle((cx - 110, base - 210, cx + 110, base), radius=24, fill=col + (255,))
        d.rectangle((cx - 110, base - 120, cx + 110, base - 110), fill=shade(col, 0.8) + (255,))
        d.arc((cx - 80, base - 300, cx + 80, base - 140), 180, 360, fill=shade(col, 0.7) + (255,), width=16)
        d.line([(cx + 100, base - 60), (cx + 250, base - 250)], fill=col + (255,), width=24)
        d.ellipse((cx + 226, base - 290, cx + 286, base - 230), fill=shade(col, 0.9) + (255,))
        d.ellipse((cx - 100, base - 200, cx - 60, base - 90), fill=(255, 255, 255, 60))
    # bee hotel on the shed wall
    d.rectangle((w * 0.3, h * 0.1, w * 0.44, h * 0.3), fill=(150, 110, 70, 255))
    d.polygon([(w * 0.29, h * 0.1), (w * 0.37, h * 0.03), (w * 0.45, h * 0.1)], fill=(110, 80, 50, 255))
    for _ in range(30):
        x, y = rng.uniform(w * 0.31, w * 0.43), rng.uniform(h * 0.12, h * 0.28)
        d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=(50, 36, 24, 255))
    return img


# ----------------------------------------------------------------------------- other scenes


def scene_coffee(w, h, rng):
    img = vgrad(w, h, [(0, (70, 60, 56)), (0.45, (110, 96, 84)), (0.45001, (150, 110, 76)), (1, (120, 84, 56))])
    d = ImageDraw.Draw(img, "RGBA")
    glow(img, (250, 240, 210), lambda dd: dd.rectangle((w * 0.55, 0, w * 0.95, h * 0.4)), blur=60, opacity=150)  # window
    d = ImageDraw.Draw(img, "RGBA")
    for k in range(9):
        y = h * 0.45 + k * h * 0.065
        d.line([(0, y), (w, y + 10)], fill=(90, 60, 40, 255), width=3)
    for cx, cy in ((w * 0.3, h * 0.62), (w * 0.52, h * 0.7)):  # mugs
        d.ellipse((cx - 170, cy + 40, cx + 170, cy + 120), fill=(60, 40, 26, 120))
        d.rectangle((cx - 110, cy - 120, cx + 110, cy + 60), fill=(244, 242, 236, 255))
        d.ellipse((cx - 110, cy + 20, cx + 110, cy + 100), fill=(244, 242, 236, 255))
        d.ellipse((cx - 110, cy - 160, cx + 110, cy - 80), fill=(230, 228, 220, 255))
        d.ellipse((cx - 96, cy - 150, cx + 96, cy - 90), fill=(92, 56, 32, 255))
        d.ellipse((cx - 40, cy - 136, cx + 30, cy - 110), fill=(200, 160, 120, 255))
        d.arc((cx + 80, cy - 90, cx + 180, cy + 20), 270, 90, fill=(244, 242, 236, 255), width=24)
        d.rectangle((cx - 110, cy - 60, cx + 110, cy - 30), fill=(30, 70, 130, 255))  # club stripe
    # apple pie on a plate
    px, py = w * 0.76, h * 0.76
    d.ellipse((px - 200, py - 80, px + 200, py + 80), fill=(236, 236, 232, 255))
    d.polygon([(px - 120, py + 20), (px + 130, py - 30), (px + 80, py + 50)], fill=(200, 150, 70, 255))
    d.polygon([(px - 120, py + 20), (px + 80, py + 50), (px + 80, py + 90), (px - 120, py + 60)], fill=(170, 110, 50, 255))
    for k in range(5):
        d.line([(px - 80 + k * 40, py + 14 - k * 4), (px - 60 + k * 40, py + 46)], fill=(150, 96, 40, 255), width=6)
    d.ellipse((px + 60, py - 60, px + 150, py), fill=(250, 250, 246, 255))
    # a dive mask on the table
    mx, my = w * 0.12, h * 0.86
    d.rounded_rectangle((mx - 110, my - 60, mx + 110, my + 50), radius=40, fill=(20, 20, 24, 255))
    d.rounded_rectangle((mx - 92, my - 44, mx - 6, my + 34), radius=28, fill=(150, 200, 220, 255))
    d.rounded_rectangle((mx + 6, my - 44, mx + 92, my + 34), radius=28, fill=(150, 200, 220, 255))
    d.line([(mx + 110, my), (mx + 260, my - 40)], fill=(20, 20, 24, 255), width=14)
    return img


def scene_lighthouse(w, h, rng):
    """Upright portrait: the lighthouse of Zandvoort seen from the street below."""
    img = vgrad(w, h, [(0, (50, 110, 200)), (0.8, (170, 205, 235)), (1, (200, 220, 238))])
    for _ in range(5):
        cx, cy = rng.uniform(0, w), rng.uniform(h * 0.1, h * 0.6)
        puffs = [(cx + rng.gauss(0, 90), cy + rng.gauss(0, 20)) for _ in range(7)]
        glow(img, (255, 255, 255), lambda d, puffs=puffs: [d.ellipse((x - 110, y - 36, x + 110, y + 36)) for x, y in puffs],
             blur=16, opacity=190)
    d = ImageDraw.Draw(img, "RGBA")
    cx = w * 0.5
    bottom, top = h * 1.02, h * 0.2
    wb, wt = 300, 190  # looking up: the shaft narrows towards the top
    d.polygon([(cx - wb / 2, bottom), (cx + wb / 2, bottom), (cx + wt / 2, top), (cx - wt / 2, top)], fill=(236, 232, 222, 255))
    d.polygon([(cx + wb * 0.1, bottom), (cx + wb / 2, bottom), (cx + wt / 2, top), (cx + wt * 0.1, top)], fill=(206, 202, 194, 255))
    for k in range(9):  # small windows up the shaft
        t = k / 9
        y = bottom - (bottom - top) * (t + 0.05)
        ww = 26 * (1 - t * 0.4)
        d.rectangle((cx - ww, y - ww * 1.6, cx + ww * 0.4, y), fill=(60, 70, 84, 255))
    # gallery, lantern, red cap
    d.rectangle((cx - wt * 0.75, top - 30, cx + wt * 0.75, top + 10), fill=(180, 40, 40, 255))
    for k in range(12):
        x = cx - wt * 0.7 + k * wt * 1.4 / 11
        d.line([(x, top - 30), (x, top - 80)], fill=(40, 40, 40, 255), width=4)
    d.line([(cx - wt * 0.72, top - 80), (cx + wt * 0.72, top - 80)], fill=(40, 40, 40, 255), width=6)
    d.rectangle((cx - wt * 0.45, top - 200, cx + wt * 0.45, top - 30), fill=(30, 40, 50, 255))
    for k in range(4):
        x = cx - wt * 0.45 + k * wt * 0.3
        d.line([(x, top - 200), (x, top - 30)], fill=(180, 40, 40, 255), width=6)
    glow(img, (255, 250, 220), lambda dd: dd.ellipse((cx - 50, top - 150, cx + 50, top - 70)), blur=10, opacity=200)
    d = ImageDraw.Draw(img, "RGBA")
    d.pieslice((cx - wt * 0.55, top - 280, cx + wt * 0.55, top - 140), 180, 360, fill=(180, 40, 40, 255))
    d.line([(cx, top - 210), (cx, top - 300)], fill=(40, 40, 40, 255), width=6)
    # dune roofs and marram grass at the bottom
    d.polygon([(0, h), (0, h * 0.86), (w * 0.3, h * 0.83), (w * 0.3, h)], fill=(150, 60, 50, 255))
    d.polygon([(w * 0.72, h), (w * 0.72, h * 0.85), (w, h * 0.88), (w, h)], fill=(60, 60, 70, 255))
    for _ in range(200):
        x, y = rng.uniform(0, w), rng.uniform(h * 0.92, h)
        d.line([(x, y), (x + rng.uniform(-20, 20), y - rng.uniform(30, 90))], fill=(150, 160, 90, 255), width=3)
    for _ in range(3):  # gulls
        gx, gy = rng.uniform(w * 0.1, w * 0.9), rng.uniform(h * 0.05, h * 0.35)
        d.arc((gx - 40, gy - 14, gx, gy + 14), 200, 340, fill=(60, 60, 70, 255), width=4)
        d.arc((gx, gy - 14, gx + 40, gy + 14), 200, 340, fill=(60, 60, 70, 255), width=4)
    return img


def scene_dive_map(w, h, rng):
    """A hand-drawn briefing map of Den Osse: flat colours so the PNG stays small."""
    paper = (246, 240, 222)
    img = Image.new("RGB", (w, h), paper)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=44)
    small = ImageFont.load_default(size=30)
    # land at the top, water below with depth bands
    shore = [(0, 330)] + [(x, 330 + math.sin(x / 210) * 40 + (x / w) * 60) for x in range(0, w + 1, 40)] + [(w, 0), (0, 0)]
    depths = [(190, 222, 236), (160, 204, 226), (126, 182, 214), (96, 158, 200)]
    d.rectangle((0, 0, w, h), fill=depths[0])
    for k in range(1, 4):
        off = k * 200
        band = [(x, y + off + math.sin(x / 150 + k) * 30) for x, y in shore[1:-2]]
        d.polygon([(0, h)] + band + [(w, h)], fill=depths[k])
        d.line(band, fill=(70, 120, 160), width=3)
        d.text((w * 0.88, band[-5][1] + 18), f"-{k * 5} m", fill=(40, 80, 120), font=small)
    d.polygon(shore, fill=(226, 214, 176))
    d.line(shore[:-2], fill=(120, 100, 70), width=6)
    d.rectangle((0, 0, w, 150), fill=(150, 190, 110))  # the dike with grass
    d.line([(0, 120), (w, 150)], fill=(110, 110, 110), width=26)  # road
    for k in range(0, w, 80):
        d.line([(k, 120 + 30 * k / w), (k + 40, 120 + 30 * (k + 40) / w)], fill=(240, 240, 240), width=4)
    # parking, entry and the route
    d.rounded_rectangle((150, 170, 250, 260), radius=14, fill=(40, 90, 180))
    d.text((183, 188), "P", fill="white", font=font)
    entry = (520, 360)
    d.polygon([(entry[0] - 30, entry[1] - 60), (entry[0] + 30, entry[1] - 60), (entry[0], entry[1] - 10)], fill=(200, 40, 40))
    d.text((entry[0] + 44, entry[1] - 80), "instap", fill=(160, 30, 30), font=font)
    route = [entry, (640, 560), (880, 720), (1120, 700), (1240, 560), (1080, 450), (760, 430), entry]
    for a, b in zip(route, route[1:]):
        n = int(math.dist(a, b) // 28)
        for k in range(0, n, 2):
            p = (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
            q = (a[0] + (b[0] - a[0]) * (k + 1) / n, a[1] + (b[1] - a[1]) * (k + 1) / n)
            d.line([p, q], fill=(200, 40, 40), width=7)
    marks = [((880, 720), "1", "wrakje"), ((1120, 700), "2", "zeenaalden"), ((1240, 560), "3", "kreeftenhotel")]
    for (x, y), n, label in marks:
        d.ellipse((x - 30, y - 30, x + 30, y + 30), fill=(250, 200, 60), outline=(120, 80, 20), width=4)
        d.text((x - 11, y - 24), n, fill=(60, 40, 10), font=font)
        d.text((x + 40, y + 10), label, fill=(30, 50, 80), font=small)
    # compass and title
    nx, ny = 1450, 300
    d.polygon([(nx, ny - 90), (nx - 30, ny), (nx + 30, ny)], fill=(40, 40, 40))
    d.polygon([(nx, ny + 90), (nx - 30, ny), (nx + 30, ny)], fill=(250, 250, 250), outline=(40, 40, 40))
    d.text((nx - 14, ny - 150), "N", fill=(40, 40, 40), font=font)
    d.text((60, h - 130), "Den Osse - duikroute za 12-09", fill=(30, 40, 60), font=font)
    d.text((60, h - 70), "max. 15 m - kentering n.v.t. (Grevelingen) - buddy blijft bij buddy!", fill=(30, 40, 60), font=small)
    return img


# ----------------------------------------------------------------------------- the photos

CAM = {
    "tg7": ("OM Digital Solutions", "TG-7"),
    "tg6": ("OLYMPUS CORPORATION", "TG-6"),
    "iphone15": ("Apple", "iPhone 15 Pro"),
    "iphone14": ("Apple", "iPhone 14"),
    "iphone12": ("Apple", "iPhone 12"),
    "iphone13": ("Apple", "iPhone 13 mini"),
    "fuji": ("FUJIFILM", "X-T30 II"),
    "sony": ("SONY", "ILCE-7M3"),
    "pixel": ("Google", "Pixel 8"),
    "samsung": ("samsung", "SM-A546B"),
    "s23": ("samsung", "SM-S911B"),
}

DIVE = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland"
HERFST = "groups/oosterpark-fotografen/albums/herfst-in-oost"
ZANDV = "groups/oosterpark-fotografen/albums/strand-en-vuurtoren-zandvoort"
TUIN = "groups/moestuin-dapperbuurt/albums/oogstfeest-september"

L, P = (1600, 1200), (1200, 1600)

# (folder, file, size, scene, taken (local), UTC offset, camera, gps (lat, lon), grain)
PHOTOS = [
    (DIVE, "den-osse-instap.jpg", L, scene_den_osse, "2026:09:12 09:14:22", "+02:00", "iphone15", (51.73431, 3.87652), 6),
    (DIVE, "kaart-duikstek-den-osse.png", L, scene_dive_map, None, None, None, None, 0),
    (DIVE, "zeenaald-grevelingen.jpg", L, scene_pipefish, "2026:09:12 10:42:10", "+02:00", "tg7", None, 7),
    (DIVE, "schol-op-zandbodem.jpg", L, scene_plaice, "2026:09:12 10:55:37", "+02:00", "tg7", None, 7),
    (DIVE, "kreeft-onder-steiger.jpg", L, scene_lobster, "2026:09:12 14:21:05", "+02:00", "tg6", None, 8),
    (DIVE, "luchtbellen-veiligheidsstop.jpg", L, scene_safety_stop, "2026:09:12 14:48:50", "+02:00", "tg7", None, 6),
    (DIVE, "zonsondergang-brouwershaven.jpg", L, scene_sunset_harbour, "2026:09:12 19:58:31", "+02:00", "iphone15", None, 6),
    (DIVE, "zeelandbrug-pijlers.jpg", L, scene_zeelandbrug, "2026:09:13 10:05:12", "+02:00", "iphone15", (51.63118, 3.90247), 6),
    (DIVE, "zeeanemonen-zeelandbrug.jpg", L, scene_anemones, "2026:09:13 10:38:44", "+02:00", "tg7", None, 7),
    (DIVE, "koffie-na-de-duik.jpg", L, scene_coffee, "2026:09:13 13:30:02", "+02:00", "s23", None, 6),
    (HERFST, "ochtendmist-oosterpark.jpg", L, scene_misty_park, "2026:10:18 08:14:03", "+02:00", "fuji", None, 6),
    (HERFST, "blauwe-reiger-vijver.jpg", L, scene_heron, "2026:10:18 08:52:40", "+02:00", "fuji", (52.35952, 4.92133), 6),
    (HERFST, "kastanjes-op-het-pad.jpg", P, scene_chestnut_path, "2026:10:18 09:31:18", "+02:00", "pixel", None, 6),
    (HERFST, "herfstbladeren.webp", L, scene_leaves, None, None, None, None, 5),
    (HERFST, "grachtenpanden-oude-schans.jpg", L, lambda w, h, r: scene_canal(w, h, r), None, None, None, None, 6),
    (HERFST, "gevels-entrepotdok.jpg", L, lambda w, h, r: scene_canal(w, h, r, warehouses=True), "2026:10:18 10:12:30",
     "+02:00", "iphone14", None, 6),
    (HERFST, "montelbaanstoren-avond.jpg", L, lambda w, h, r: scene_canal(w, h, r, evening=True, tower=True),
     "2026:10:18 18:44:10", "+02:00", "iphone13", None, 5),
    (HERFST, "zonsopkomst-ijburg.jpg", L, scene_sunrise_ijburg, "2026:10:03 07:52:00", "+02:00", "sony", (52.35108, 5.01497), 5),
    (ZANDV, "duinpad-naar-zee.jpg", P, scene_dune_path, "2026:08:30 12:40:15", "+02:00", "sony", None, 5),
    (ZANDV, "strandhokjes.jpg", L, scene_beach_huts, "2026:08:30 13:22:48", "+02:00", "fuji", None, 5),
    (ZANDV, "vuurtoren-zandvoort.jpg", P, scene_lighthouse, "2026:08:30 14:05:33", "+02:00", "iphone14", (52.37118, 4.53384), 5),
    (ZANDV, "golven-bij-de-boulevard.jpg", L, scene_waves, "2026:08:30 15:10:05", "+02:00", "tg7", None, 6),
    (ZANDV, "meeuwen-boven-zee.jpg", L, scene_gulls, "2026:08:30 16:33:20", "+02:00", "iphone14", None, 5),
    (ZANDV, "zeeschuim.jpg", L, scene_foam, "2026:08:30 17:05:09", "+02:00", "sony", None, 5),
    (ZANDV, "zonsondergang-zandvoort.jpg", L, scene_zandvoort_sunset, "2026:08:30 20:40:12", "+02:00", "fuji", None, 5),
    (TUIN, "bedden-in-de-ochtend.jpg", L, scene_garden_beds, "2026:09:20 09:05:12", "+02:00", "iphone12", None, 6),
    (TUIN, "bonenstaken.jpg", P, scene_beans, "2026:09:20 10:15:55", "+02:00", "iphone14", None, 6),
    (TUIN, "zonnebloemen.jpg", L, scene_sunflowers, "2026:09:20 10:48:30", "+02:00", "iphone12", None, 6),
    (TUIN, "pompoenen.jpg", L, scene_pumpkins, "2026:09:20 11:02:40", "+02:00", "samsung", (52.36281, 4.92655), 6),
    (TUIN, "tomaten-in-de-kas.jpg", L, scene_greenhouse, "2026:09:20 11:30:00", "+02:00", "pixel", None, 6),
    (TUIN, "oogsttafel.jpg", L, scene_harvest_table, "2026:09:20 13:15:44", "+02:00", "samsung", None, 6),
    (TUIN, "gieters-bij-de-schuur.jpg", L, scene_watering_cans, "2026:09:20 16:20:05", "+02:00", "fuji", None, 6),
]

# The one photo stored on its side: pixels rotated 90° counter-clockwise, EXIF Orientation 6.
ROTATED = "vuurtoren-zandvoort.jpg"


def save_limited(img, path, fmt, limit, **kw):
    """Save with falling quality until the file fits in `limit` bytes."""
    quality = kw.pop("quality", 80)
    while True:
        buf = io.BytesIO()
        if fmt == "PNG":
            img.save(buf, "PNG", optimize=True)
        else:
            img.save(buf, fmt, quality=quality, **kw)
        if buf.tell() <= limit or fmt == "PNG" or quality <= 40:
            break
        quality -= 4
    if buf.tell() > limit:
        raise SystemExit(f"{path}: {buf.tell()} bytes, more than {limit}")
    path.write_bytes(buf.getvalue())
    return buf.tell(), quality


def make_photos(content: Path):
    for folder, name, (w, h), scene, taken, offset, cam, gps, grain in PHOTOS:
        rng = seeded(name)
        img = scene(w, h, rng)
        path = content / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".png"):
            img = img.convert("RGB").quantize(colors=48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            size, q = save_limited(img, path, "PNG", PHOTO_LIMIT)
        else:
            img = finish(img, rng, grain=grain)
            orientation = None
            if name == ROTATED:
                img = img.rotate(90, expand=True)  # counter-clockwise; Orientation 6 turns it back upright
                orientation = 6
            if name.endswith(".webp"):
                size, q = save_limited(img, path, "WEBP", PHOTO_LIMIT, quality=80, method=4)
            else:
                exif = make_exif(taken, offset, CAM.get(cam), gps, orientation)
                size, q = save_limited(img, path, "JPEG", PHOTO_LIMIT, quality=82, exif=exif.tobytes(), optimize=True)
        print(f"  {folder}/{name}: {img.width}x{img.height}, {size // 1024} KB (q{q})")


# ----------------------------------------------------------------------------- avatars

SKIN = [(250, 222, 196), (236, 192, 150), (198, 140, 100), (140, 92, 62), (96, 62, 42), (244, 208, 178)]
HAIR = {"black": (30, 26, 26), "brown": (96, 60, 36), "blond": (226, 190, 110), "red": (180, 80, 40),
        "grey": (170, 170, 170), "dark": (56, 40, 30), "pink": (220, 120, 160)}

# file: (background, skin, hair colour, style, shirt, glasses, beard)
AVATARS = {
    "anna-de-vries.jpg": ((170, 210, 190), 0, "blond", "long", (60, 110, 170), False, False),
    "daniel-bakker.jpg": ((160, 200, 230), 1, "brown", "short", (30, 60, 110), False, True),
    "zoe-jansen.jpg": ((250, 200, 150), 2, "dark", "curly", (230, 90, 80), True, False),
    "sanne-visser.jpg": ((220, 190, 230), 0, "red", "bun", (40, 130, 120), False, False),
    "mehmet-celik.jpg": ((240, 220, 150), 3, "black", "short", (200, 60, 50), False, True),
    "joelle-mulder.jpg": ((180, 220, 240), 5, "brown", "long", (250, 190, 60), True, False),
    "lotte-smit.jpg": ((210, 230, 170), 0, "blond", "bob", (120, 80, 160), False, False),
    "bram-van-dijk.jpg": ((190, 200, 210), 1, "grey", "short", (60, 100, 60), True, True),
    "noah-el-amrani.jpg": ((250, 180, 170), 3, "black", "curly", (40, 40, 50), False, False),
    "sophie-bakker.jpg": ((250, 220, 200), 5, "brown", "bob", (170, 60, 90), False, False),
    "lucas-de-graaf.jpg": ((200, 230, 210), 0, "brown", "short", (90, 90, 100), True, False),
    "emma-kok.jpg": ((230, 200, 240), 2, "black", "bun", (60, 140, 200), False, False),
    "jesse-vermeulen.jpg": ((190, 220, 250), 1, "blond", "curly", (220, 130, 40), False, False),
    "fenna-van-t-hof.png": ((255, 214, 120), 0, "pink", "bob", (50, 50, 60), True, False),
    "priya-ramdin.webp": ((160, 220, 220), 4, "black", "long", (200, 70, 120), False, False),
}


def draw_avatar(spec, rng):
    bg, skin_i, hair_name, style, shirt, glasses, beard = spec
    S = 800  # drawn at twice the size, then scaled down for smooth edges
    img = Image.new("RGB", (S, S), bg)
    d = ImageDraw.Draw(img)
    d.ellipse((-200, -260, S + 200, S * 0.9), fill=shade(bg, 1.15))
    skin, hair = SKIN[skin_i], HAIR[hair_name]
    cx = S / 2 + rng.uniform(-15, 15)
    head = (cx - 150, 170, cx + 150, 540)
    if style == "long":
        d.rounded_rectangle((cx - 190, 160, cx + 190, 700), radius=150, fill=hair)
    d.ellipse((70, 600, S - 70, 1200), fill=shirt)  # shoulders
    d.polygon([(cx - 70, 600), (cx + 70, 600), (cx, 700)], fill=shade(shirt, 0.8))
    d.rectangle((cx - 62, 470, cx + 62, 620), fill=shade(skin, 0.9))  # neck
    d.pieslice((cx - 62, 560, cx + 62, 660), 0, 180, fill=shade(skin, 0.9))
    d.ellipse((cx - 172, 330, cx - 122, 410), fill=shade(skin, 0.95))  # ears
    d.ellipse((cx + 122, 330, cx + 172, 410), fill=shade(skin, 0.95))
    d.ellipse(head, fill=skin)
    if style in ("short", "bun", "bob", "long"):
        d.chord((cx - 160, 150, cx + 160, 420), 180, 360, fill=hair)
        d.pieslice((cx - 160, 150, cx + 60, 380), 180, 280, fill=hair)
    if style == "bun":
        d.ellipse((cx - 70, 90, cx + 70, 220), fill=hair)
    if style == "bob":
        d.rounded_rectangle((cx - 168, 220, cx - 110, 470), radius=28, fill=hair)
        d.rounded_rectangle((cx + 110, 220, cx + 168, 470), radius=28, fill=hair)
    if style == "long":
        d.rounded_rectangle((cx - 175, 230, cx - 115, 560), radius=28, fill=hair)
        d.rounded_rectangle((cx + 115, 230, cx + 175, 560), radius=28, fill=hair)
    if style == "curly":
        for k in range(16):
            a = math.pi + k * math.pi / 15
            x, y = cx + math.cos(a) * 150, 320 + math.sin(a) * 150
            r = rng.uniform(48, 62)
            d.ellipse((x - r, y - r, x + r, y + r), fill=hair)
        d.ellipse((cx - 140, 160, cx + 140, 300), fill=hair)
    if beard:
        d.chord((cx - 150, 300, cx + 150, 545), 10, 170, fill=shade(hair, 0.95))
        d.ellipse((cx - 50, 455, cx + 50, 490), fill=skin)
    eye_y = 370
    for ex in (cx - 58, cx + 58):
        d.ellipse((ex - 14, eye_y - 16, ex + 14, eye_y + 16), fill=(40, 34, 34))
        d.ellipse((ex - 6, eye_y - 10, ex + 2, eye_y - 2), fill=(250, 250, 250))
        d.arc((ex - 34, eye_y - 62, ex + 34, eye_y - 22), 200, 340, fill=shade(hair, 0.8), width=10)
    for ex in (cx - 92, cx + 92):
        d.ellipse((ex - 30, 415, ex + 30, 445), fill=lerp(skin, (240, 120, 120), 0.35))
    d.arc((cx - 14, 370, cx + 14, 430), 20, 160, fill=shade(skin, 0.75), width=6)  # nose
    d.arc((cx - 60, 410, cx + 60, 480), 20, 160, fill=(150, 60, 60), width=10)  # smile
    if glasses:
        for ex in (cx - 58, cx + 58):
            d.ellipse((ex - 46, eye_y - 40, ex + 46, eye_y + 40), outline=(30, 30, 36), width=9)
        d.line([(cx - 12, eye_y - 6), (cx + 12, eye_y - 6)], fill=(30, 30, 36), width=8)
    return img.resize((400, 400), Image.Resampling.LANCZOS)


def make_avatars(content: Path):
    for name, spec in AVATARS.items():
        rng = seeded(name)
        img = draw_avatar(spec, rng)
        path = content / "users" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".png"):
            img = img.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            size, q = save_limited(img, path, "PNG", AVATAR_LIMIT)
        elif name.endswith(".webp"):
            size, q = save_limited(img, path, "WEBP", AVATAR_LIMIT, quality=85, method=4)
        else:
            size, q = save_limited(img, path, "JPEG", AVATAR_LIMIT, quality=88, optimize=True)
        print(f"  users/{name}: 400x400, {size // 1024} KB")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", type=Path, default=ROOT / "content", help="the content folder (default: content/)")
    ap.add_argument("--only", choices=["photos", "avatars"], help="make only these")
    args = ap.parse_args(argv)
    if args.only in (None, "photos"):
        print("photos:")
        make_photos(args.content)
    if args.only in (None, "avatars"):
        print("avatars:")
        make_avatars(args.content)


if __name__ == "__main__":
    sys.exit(main())
