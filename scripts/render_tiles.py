"""Synthetic training scenes: Okey and Rummikub tiles on tables and racks, with labels.

Tile faces are drawn from the DejaVu fonts and simple drawn symbols; ink and face colours are
calibrated to the real "rummikub-nvypk" photos (median ink colour per class measured on their boxes).
A scene is a background (wood, cloth, marble, felt or a real empty-table photo), loose tiles at any
angle and/or racks of touching tiles (some upside down), then perspective, lighting, blur, noise and
JPEG compression.  Everything is drawn from one ``random.Random`` so a seed fixes a scene.

    .venv/bin/python scripts/render_tiles.py --out scripts/cache/synthetic --count 20 --seed 1

writes ``scene_0000.jpg`` … and ``labels.csv`` (image, tile, x1, y1, x2, y2, upside_down).
Needs Pillow (training only).
"""

from __future__ import annotations

import argparse
import csv
import math
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from real_photos import add_photos_argument, backgrounds, use_photos

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSerif-Bold.ttf",
         "DejaVuSansMono-Bold.ttf", "DejaVuSerifCondensed-Bold.ttf")

# BGR ink colours measured on the real photos (median of saturated/dark pixels inside each box).
INK = {"R": (45, 50, 185), "Y": (35, 125, 220), "B": (165, 95, 25), "K": (40, 42, 45)}
FACE = (200, 221, 231)
TILE_H, TILE_W = 120, 86
NUMBERED = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)]


@dataclass(frozen=True)
class Placed:
    """A tile in a scene: its code, the four corners of its face (x, y), upside down or not."""

    tile: str
    corners: np.ndarray
    upside_down: bool


def _jitter(colour: tuple[int, int, int], rng: random.Random, amount: int) -> tuple[int, int, int]:
    b, g, r = (int(np.clip(c + rng.randint(-amount, amount), 0, 255)) for c in colour)
    return b, g, r


def _font(rng: random.Random, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / rng.choice(FONTS)), size)


def _rgb(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    return bgr[2], bgr[1], bgr[0]


def _draw_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]) -> None:
    points = [(cx + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
               cy - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5)) for i in range(10)]
    draw.polygon(points, fill=fill)


def _draw_face(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple[int, int, int], hat: bool) -> None:
    width = max(2, int(r / 7))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=width)
    for dx in (-0.35, 0.35):
        draw.ellipse((cx + dx * r - r * 0.12, cy - r * 0.35, cx + dx * r + r * 0.12, cy - r * 0.05), fill=ink)
    draw.arc((cx - r * 0.55, cy - r * 0.3, cx + r * 0.55, cy + r * 0.6), 20, 160, fill=ink, width=width)
    if hat:
        draw.polygon([(cx - r * 0.9, cy - r * 0.8), (cx + r * 0.9, cy - r * 0.8), (cx, cy - r * 1.25)], fill=ink)


def render_face(tile: str, style: str, rng: random.Random) -> np.ndarray:
    """An upright tile face, TILE_H×TILE_W BGR: ``style`` is "okey" (symbol below) or "rummikub" (logo below)."""
    shade = rng.randint(-25, 12)
    face = _jitter((FACE[0] + shade, FACE[1] + shade, FACE[2] + shade), rng, 5)
    image = Image.new("RGB", (TILE_W, TILE_H), _rgb(face))
    draw = ImageDraw.Draw(image)
    inset = rng.randint(3, 8)
    draw.rounded_rectangle((inset, inset, TILE_W - inset, TILE_H - inset), radius=8,
                           outline=_rgb(_jitter((face[0] - 25, face[1] - 25, face[2] - 25), rng, 10)), width=1)
    if tile == "F":
        choice = rng.random()
        ink = _jitter(INK[rng.choice("KBR")], rng, 20) if choice < 0.7 else _jitter((60, 140, 40), rng, 20)
        if choice < 0.35:
            _draw_star(draw, TILE_W / 2, TILE_H * 0.42, TILE_W * 0.28, _rgb(ink))
        elif choice < 0.7:
            _draw_face(draw, TILE_W / 2, TILE_H * 0.42, TILE_W * 0.26, _rgb(ink), hat=False)
        else:
            draw.rounded_rectangle((TILE_W * 0.3, TILE_H * 0.25, TILE_W * 0.7, TILE_H * 0.6), radius=4,
                                   outline=_rgb(ink), width=2)
    elif tile == "J":
        ink = _jitter(INK[rng.choice("KRKB")], rng, 20)
        # The Rummikub joker always wears its hat: that is what tells it from a smiley false okey.
        _draw_face(draw, TILE_W / 2, TILE_H * 0.42, TILE_W * 0.3, _rgb(ink), hat=True)
    else:
        ink = _jitter(INK[tile[0]], rng, 25)
        text = tile[1:]
        font = _font(rng, int(TILE_H * rng.uniform(0.36, 0.46)))
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        squeeze = min(1.0, (TILE_W * 0.86) / (right - left))
        text_image = Image.new("L", (right - left + 4, bottom - top + 4), 0)
        ImageDraw.Draw(text_image).text((2 - left, 2 - top), text, font=font, fill=255)
        if squeeze < 1:
            text_image = text_image.resize((max(1, int(text_image.width * squeeze)), text_image.height))
        centre_y = TILE_H * rng.uniform(0.36, 0.42)
        image.paste(_rgb(ink), (int(TILE_W / 2 - text_image.width / 2), int(centre_y - text_image.height / 2)), text_image)
        if text in ("6", "9") and style == "okey" and rng.random() < 0.5:
            draw.line((TILE_W * 0.38, centre_y + text_image.height / 2 + 2, TILE_W * 0.62,
                       centre_y + text_image.height / 2 + 2), fill=_rgb(ink), width=2)
    symbol_y = TILE_H * rng.uniform(0.74, 0.8)
    if style == "okey" and tile != "F":
        colour = _rgb(_jitter(INK[tile[0]] if tile[0] in INK else INK["K"], rng, 25))
        r = TILE_W * rng.uniform(0.07, 0.11)
        shape = rng.randrange(3)
        if shape == 0:
            draw.ellipse((TILE_W / 2 - r, symbol_y - r, TILE_W / 2 + r, symbol_y + r), fill=colour)
        elif shape == 1:
            _draw_star(draw, TILE_W / 2, symbol_y, r * 1.3, colour)
        else:
            draw.regular_polygon((TILE_W / 2, symbol_y, r * 1.2), 4, rotation=45, fill=colour)
    elif style == "rummikub":
        logo = _rgb(_jitter((150, 170, 185), rng, 20))
        font = _font(rng, int(TILE_H * 0.1))
        draw.text((TILE_W / 2, symbol_y), "Rummikub", font=font, fill=logo, anchor="mm")
    return cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)


def _background(rng: random.Random, width: int, height: int) -> np.ndarray:
    kind = rng.choice(["wood", "wood", "cloth", "marble", "felt", "photo", "photo"])
    nprng = np.random.default_rng(rng.randrange(2**32))
    if kind == "photo":
        photos = backgrounds()
        if photos:
            photo = cv2.imread(str(rng.choice(photos)))
            return cv2.resize(photo, (width, height))
        kind = "wood"
    if kind == "wood":
        base = np.array(_jitter((40, 75, 120), rng, 35), np.float32)
        y = np.linspace(0, rng.uniform(20, 80), height)[:, None]
        x = np.linspace(0, 1, width)[None, :]
        grain = np.sin(y + 3 * np.sin(x * rng.uniform(1, 6)) + nprng.normal(0, 0.3, (height, 1)))
        shade = (0.8 + 0.2 * grain)[..., None]
        image = base * shade
        if rng.random() < 0.5:
            image = np.ascontiguousarray(np.transpose(cv2.resize(image, (height, width)), (1, 0, 2)))
    elif kind == "cloth":
        base = np.array(_jitter((170, 170, 170), rng, 60), np.float32)
        weave = nprng.normal(0, 25, (height // 3 + 1, width // 3 + 1)).astype(np.float32)
        image = base * (1 + cv2.resize(weave, (width, height), interpolation=cv2.INTER_NEAREST)[..., None] / 255)
    elif kind == "marble":
        image = np.full((height, width, 3), _jitter((225, 225, 228), rng, 15), np.float32)
        for _ in range(rng.randint(2, 6)):
            pts = np.cumsum(nprng.normal(0, 30, (12, 2)), 0) + (rng.uniform(0, width), rng.uniform(0, height))
            cv2.polylines(image, [pts.astype(np.int32)], False, _jitter((150, 150, 150), rng, 30), rng.randint(1, 3))
        image = cv2.GaussianBlur(image, (0, 0), 1.2)
    else:
        image = np.full((height, width, 3), _jitter((60, 110, 40), rng, 50), np.float32)
    noise = nprng.normal(0, rng.uniform(2, 8), image.shape[:2])[..., None]
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _paste(scene: np.ndarray, face: np.ndarray, corners: np.ndarray, rng: random.Random) -> None:
    """Warp ``face`` onto ``scene`` at ``corners`` with a soft shadow and a visible thickness edge."""
    h, w = face.shape[:2]
    source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    size = (scene.shape[1], scene.shape[0])
    shadow_offset = np.float32([rng.uniform(-2, 4), rng.uniform(1, 5)])
    mask = np.zeros(scene.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, (corners + shadow_offset).astype(np.int32), 255)
    shadow = cv2.GaussianBlur(mask, (0, 0), 2.5).astype(np.float32)[..., None] / 255
    scene[:] = (scene * (1 - 0.45 * shadow)).astype(np.uint8)
    down = corners[3] - corners[0]
    edge = corners + down / np.linalg.norm(down) * rng.uniform(1.0, 4.0)
    cv2.fillConvexPoly(scene, edge.astype(np.int32), _jitter((150, 170, 180), rng, 20))
    matrix = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    face_mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size)
    alpha = face_mask.astype(np.float32)[..., None] / 255
    scene[:] = (scene * (1 - alpha) + warped * alpha).astype(np.uint8)


def _tile_corners(cx: float, cy: float, height: float, angle: float) -> np.ndarray:
    w, h = height * TILE_W / TILE_H, height
    local = np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    c, s = math.cos(angle), math.sin(angle)
    return local @ np.float32([[c, s], [-s, c]]) + np.float32([cx, cy])


def _random_tile(rng: random.Random, style: str) -> str:
    roll = rng.random()
    if roll < 0.05:
        return "F" if style == "okey" else "J"
    if roll < 0.07:
        return "J" if style == "okey" else "F"
    return rng.choice(NUMBERED)


def render_scene(rng: random.Random, width: int = 640, height: int = 480) -> tuple[np.ndarray, list[Placed]]:
    """One labelled scene: BGR image and the tiles in it (corners after the perspective warp)."""
    if rng.random() < 0.4:
        width, height = height, width
    scene = _background(rng, width, height)
    style = rng.choice(["okey", "rummikub"])
    placed: list[Placed] = []
    occupied = np.zeros((height, width), np.uint8)
    tile_h = rng.uniform(28, 150) if rng.random() < 0.85 else rng.uniform(150, 260)
    if rng.random() < 0.45:
        rows = rng.randint(1, 2)
        count = rng.randint(3, 15)
        row_w = count * tile_h * TILE_W / TILE_H
        if row_w > width * 0.95:
            tile_h *= width * 0.95 / row_w
            row_w = width * 0.95
        x0 = rng.uniform(0, width - row_w)
        y0 = rng.uniform(tile_h * 0.6, max(tile_h * 0.7, height - rows * tile_h * 1.15))
        rack_colour = _jitter(rng.choice([(30, 30, 30), (40, 70, 110), (120, 120, 120), (30, 40, 90)]), rng, 15)
        cv2.rectangle(scene, (int(x0 - 10), int(y0 - tile_h * 0.6)),
                      (int(x0 + row_w + 10), int(y0 + rows * tile_h * 1.1 + tile_h * 0.2)), rack_colour, -1)
        angle = rng.uniform(-0.08, 0.08)
        for row in range(rows):
            gap = rng.uniform(0, 0.06)
            for i in range(count):
                tile = _random_tile(rng, style)
                upside = rng.random() < 0.15
                cx = x0 + (i + 0.5) * tile_h * TILE_W / TILE_H * (1 + gap)
                cy = y0 + row * tile_h * 1.1
                if cx + tile_h * 0.4 > width:
                    break
                corners = _tile_corners(cx, cy, tile_h, angle + (math.pi if upside else 0))
                _paste(scene, render_face(tile, style, rng), corners, rng)
                placed.append(Placed(tile, corners, upside))
                cv2.fillConvexPoly(occupied, corners.astype(np.int32), 255)
        cv2.rectangle(occupied, (int(x0 - 10), int(y0 - tile_h * 0.6)),
                      (int(x0 + row_w + 10), int(y0 + rows * tile_h * 1.1 + tile_h * 0.2)), 255, -1)
    loose = rng.randint(0, 25) if placed else rng.randint(1, 40)
    tries = 0
    while loose and tries < 300:
        tries += 1
        size = tile_h * rng.uniform(0.85, 1.15)
        cx, cy = rng.uniform(-size * 0.2, width + size * 0.2), rng.uniform(-size * 0.2, height + size * 0.2)
        angle = rng.uniform(-math.pi, math.pi) if rng.random() < 0.5 else rng.gauss(0, 0.15)
        corners = _tile_corners(cx, cy, size, angle)
        mask = np.zeros_like(occupied)
        cv2.fillConvexPoly(mask, corners.astype(np.int32), 255)
        if (mask & occupied).any():
            continue
        tile = _random_tile(rng, style)
        _paste(scene, render_face(tile, style, rng), corners, rng)
        upside = math.cos(angle) < 0
        placed.append(Placed(tile, corners, upside))
        occupied |= cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=rng.randint(0, 3))
        loose -= 1
    return _photograph(scene, placed, rng)


def _photograph(scene: np.ndarray, placed: list[Placed], rng: random.Random) -> tuple[np.ndarray, list[Placed]]:
    """Perspective, lighting, colour cast, blur, noise and JPEG: the camera's part."""
    h, w = scene.shape[:2]
    d = min(w, h) * rng.uniform(0, 0.12)
    source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    # Corners move outwards only, so the warped scene still fills the frame (no mirrored borders).
    target = source + np.float32([[rng.uniform(0, d), rng.uniform(0, d)] for _ in range(4)]) * np.float32(
        [[-1, -1], [1, -1], [1, 1], [-1, 1]])
    matrix = cv2.getPerspectiveTransform(source, target)
    scene = cv2.warpPerspective(scene, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    placed = [Placed(p.tile, cv2.perspectiveTransform(p.corners[None].astype(np.float32), matrix)[0], p.upside_down)
              for p in placed]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    light = 1 + rng.uniform(0, 0.35) * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    warmth = rng.uniform(-0.08, 0.08)
    cast = np.float32([1 - warmth, 1, 1 + warmth])
    image = scene.astype(np.float32) * light[..., None] * cast * rng.uniform(0.7, 1.1)
    if rng.random() < 0.6:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.6))
    image += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 7), image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(55, 95)])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR), placed


def visible_boxes(placed: list[Placed], width: int, height: int) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Axis-aligned boxes clipped to the frame; tiles mostly outside it are dropped."""
    boxes = []
    for p in placed:
        x1, y1 = p.corners.min(0)
        x2, y2 = p.corners.max(0)
        area = (x2 - x1) * (y2 - y1)
        cx1, cy1, cx2, cy2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
        if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < 0.6 * area:
            continue
        boxes.append((p.tile, (float(cx1), float(cy1), float(cx2), float(cy2)), p.upside_down))
    return boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    add_photos_argument(parser)  # optional here: the dataset's empty tables as backgrounds, else textures only
    args = parser.parse_args()
    use_photos(args.photos)
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "labels.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["image", "tile", "x1", "y1", "x2", "y2", "upside_down"])
        for index in range(args.count):
            image, placed = render_scene(random.Random(args.seed * 100_003 + index))
            name = f"scene_{index:04d}.jpg"
            cv2.imwrite(str(args.out / name), image)
            for tile, box, upside in visible_boxes(placed, image.shape[1], image.shape[0]):
                writer.writerow([name, tile, *(round(v, 1) for v in box), int(upside)])


if __name__ == "__main__":
    main()
