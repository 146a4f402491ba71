"""Synthetic photos of real Okey racks (ıstaka), with labels: the tiles a player photographs from the seat.

What is drawn (every choice from one ``random.Random``, so a seed fixes a photo):

- **Tiles:** ivory faces with a bevel (lit top-left edge, shaded bottom-right edge), a large bold
  engraved numeral in the upper half (fonts from every bold Latin TTF found on the machine: DejaVu,
  Noto, TLWG, Liberation, FreeFont, URW), below it a small symbol in the same ink: a heart in a round
  recess, a heart, a spade, a dot, a ring, a crescent and star, or none.  False okeys (``F``) show an
  emblem and no number: a star in rings, a clover, a plain mark, a double ring.  Inks: red, yellow-
  orange, blue (from royal to teal) and black, with hue/value spread.
- **Rack:** two tiers, tiles upright and touching in two rows, groups separated by gaps, 14-22 tiles
  (a few photos with fewer), the ledge in front of each row hides the tiles' foot, wood or plastic
  in several colours, the tiles' top edges visible as a thin strip.
- **Scene:** the rack on felt/wood/cloth with loose tiles (face up: labelled; face down: not tiles to
  read) around it.
- **Camera:** a pinhole camera over the rack plane: seat-height views tilted 20-60° and rotated
  (±35°, sometimes a quarter turn), or a straight front close-up where one tile is about an eighth of
  the photo's width (the rack runs off the frame); warm indoor light, dim light, flash glare, blur,
  noise, JPEG.

    .venv/bin/python scripts/render_racks.py --out scripts/cache/racks --count 600 --seed 2
    .venv/bin/python scripts/render_racks.py --out scripts/cache/racks-dev-front --count 25 --seed 9101 --style front   # a dev set (scripts/vision_figures.py lists them all)

writes ``rack_0000.jpg`` … and ``labels.csv`` (image, tile, x1, y1, x2, y2, upside_down, style), the
same columns as ``render_tiles.py`` plus the view style (``tilted``, ``front``, ``rotated``) so the
evaluation can report per style.  A tile is labelled when at least 60 % of its face is in the frame.
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
from PIL import Image, ImageDraw, ImageFilter, ImageFont

# Bold upright Latin faces; whichever are installed are used (Debian: fonts-dejavu-core, fonts-noto-core,
# fonts-tlwg-*, fonts-liberation, fonts-freefont-ttf, fonts-urw-base35).
FONT_CANDIDATES = (
    "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSansCondensed-Bold.ttf", "dejavu/DejaVuSerif-Bold.ttf",
    "dejavu/DejaVuSerifCondensed-Bold.ttf", "noto/NotoSans-Bold.ttf", "noto/NotoSerif-Bold.ttf",
    "noto/NotoSansDisplay-Bold.ttf", "noto/NotoSerifDisplay-Bold.ttf", "tlwg/Loma-Bold.ttf", "tlwg/Garuda-Bold.ttf",
    "tlwg/Kinnari-Bold.ttf", "tlwg/Norasi-Bold.ttf", "tlwg/Sawasdee-Bold.ttf", "tlwg/Umpush-Bold.ttf",
    "tlwg/Waree-Bold.ttf", "liberation/LiberationSans-Bold.ttf", "liberation/LiberationSerif-Bold.ttf",
    "liberation/LiberationSansNarrow-Bold.ttf", "freefont/FreeSansBold.ttf", "freefont/FreeSerifBold.ttf",
)
FONT_ROOT = Path("/usr/share/fonts/truetype")
URW_ROOT = Path("/usr/share/fonts/opentype/urw-base35")
FONTS = [str(FONT_ROOT / name) for name in FONT_CANDIDATES if (FONT_ROOT / name).exists()]
FONTS += sorted(str(p) for p in URW_ROOT.glob("*-Bold.otf")) if URW_ROOT.exists() else []


def _installed(names: tuple[str, ...]) -> list[str]:
    """The paths of the faces ``names`` (under /usr/share/fonts) this machine has."""
    return [str(FONT_ROOT.parent / name) for name in names if (FONT_ROOT.parent / name).exists()]


def _absent(names: tuple[str, ...]) -> list[str]:
    """The faces ``names`` this machine lacks."""
    return [name for name in names if not (FONT_ROOT.parent / name).exists()]


# Bold faces the training pool never drew (``--unseen-fonts``): monospaced faces with slab serifs and a flagged,
# footed 1, a geometric sans and a heavy old-style serif, to measure how reading carries over to a tile set
# whose numerals the classifier has not learnt.
UNSEEN_FONT_CANDIDATES = (
    "truetype/dejavu/DejaVuSansMono-Bold.ttf", "truetype/liberation/LiberationMono-Bold.ttf",
    "truetype/tlwg/TlwgMono-Bold.ttf", "truetype/tlwg/TlwgTypo-Bold.ttf",
    "truetype/tlwg/Laksaman-Bold.ttf", "opentype/urw-base35/URWGothic-Demi.otf",
    "opentype/urw-base35/URWBookman-Demi.otf",
)
UNSEEN_FONTS = _installed(UNSEEN_FONT_CANDIDATES)
# Heavier and narrower faces than any the training pool drew (``--heavy-fonts``), never trained on either: black
# and extra-bold sans faces, condensed and extra-condensed ones, a condensed black serif. Real Okey numerals are
# often engraved this heavy or this narrow. They come from packages the renderer's pool does not need.
HEAVY_FONT_CANDIDATES = (
    "truetype/noto/NotoSans-Black.ttf", "truetype/noto/NotoSans-ExtraCondensedBold.ttf",
    "truetype/noto/NotoSerif-CondensedBlack.ttf", "truetype/lato/Lato-Black.ttf", "opentype/inter/Inter-Black.otf",
    "opentype/league-spartan/LeagueSpartan-Black.otf", "opentype/bebas-neue/BebasNeue-Bold.otf",
    "truetype/roboto/unhinted/RobotoCondensed-Bold.ttf", "truetype/open-sans/OpenSans-ExtraBold.ttf",
    "opentype/cantarell/Cantarell-ExtraBold.otf",
)
HEAVY_FONTS = _installed(HEAVY_FONT_CANDIDATES)
HEAVY_FONT_PACKAGES = ("fonts-noto-extra fonts-lato fonts-inter fonts-league-spartan fonts-bebas-neue "
                       "fonts-roboto-unhinted fonts-open-sans fonts-cantarell")
# Numeral shapes the pool lacked, added to it for training racks (``--more-shapes``): a slab serif, old-style figures,
# monospaced faces with a slashed or dotted 0 and a footed 1, book serifs. None is one of the unseen or heavy faces
# (nor a copy of one), so those dev sets still measure faces never trained on.
SHAPE_FONT_CANDIDATES = (
    "opentype/roboto/slab/RobotoSlab-Bold.otf", "opentype/ebgaramond/EBGaramond12-Bold.otf",
    "truetype/firacode/FiraCode-Bold.ttf", "truetype/jetbrains-mono/JetBrainsMono-Bold.ttf",
    "truetype/charis/CharisSIL-Bold.ttf", "truetype/crosextra/Caladea-Bold.ttf",
    "truetype/noto/NotoSansMono-ExtraBold.ttf",
)
SHAPE_FONTS = _installed(SHAPE_FONT_CANDIDATES)
SHAPE_FONT_PACKAGES = ("fonts-roboto-slab fonts-ebgaramond fonts-firacode fonts-jetbrains-mono fonts-sil-charis "
                       "fonts-crosextra-caladea fonts-noto-core")
# The faces every set in models/README was rendered with: a machine that lacks some draws other racks from the same
# seed (another face is drawn, and every random draw after it moves), so its figures are not the README's.
FONT_PACKAGES = "fonts-dejavu-core fonts-noto-core fonts-tlwg-*-ttf fonts-liberation fonts-freefont-ttf fonts-urw-base35"
URW_BOLD_FACES = 6
POOLS_CLASH = "--unseen-fonts, --heavy-fonts and --more-shapes are three pools: choose one"


def missing_fonts(unseen: bool = False, heavy: bool = False, shapes: bool = False) -> list[str]:
    """The faces of the renderer's pool (or of ``--unseen-fonts``, ``--heavy-fonts``) that this machine lacks; with
    ``shapes`` the pool's and ``--more-shapes``' faces."""
    if shapes and not (unseen or heavy):
        return missing_fonts() + _absent(SHAPE_FONT_CANDIDATES)
    if unseen or heavy:
        return _absent(UNSEEN_FONT_CANDIDATES if unseen else HEAVY_FONT_CANDIDATES)
    missing = [name for name in FONT_CANDIDATES if not (FONT_ROOT / name).exists()]
    urw = len(FONTS) - (len(FONT_CANDIDATES) - len(missing))
    return missing + ([f"urw-base35/*-Bold.otf ({urw} of {URW_BOLD_FACES})"] if urw < URW_BOLD_FACES else [])


def font_packages(heavy: bool = False, shapes: bool = False) -> str:
    """The Debian packages of the faces a pool draws (the training pool's, ``--heavy-fonts``' or ``--more-shapes``')."""
    return HEAVY_FONT_PACKAGES if heavy else FONT_PACKAGES + (" " + SHAPE_FONT_PACKAGES if shapes else "")


def use_pool(unseen: bool = False, heavy: bool = False, shapes: bool = False) -> None:
    """Draw the numerals from the pool the flags choose (one at most): ``--unseen-fonts``' faces or
    ``--heavy-fonts``' instead of the training pool's, or ``--more-shapes``' beside them."""
    if shapes:
        FONTS.extend(SHAPE_FONTS)
    if heavy:
        FONTS[:] = HEAVY_FONTS
    if unseen:
        FONTS[:] = UNSEEN_FONTS

TILE_H = 150
NUMBERED = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)]
SYMBOLS = ("heart_recess", "heart_recess", "heart", "spade", "dot", "ring", "crescent", "none")
EMBLEMS = ("star_rings", "clover", "plain", "double_ring", "star")
STYLES = ("tilted", "front", "rotated")
# Tiles laid face up on the table in melds (an Okey 101 opening, a win spread out to show): asked for by name only,
# so the racks every other seed draws stay as they were.
TABLE = "table"


@dataclass(frozen=True)
class Tile:
    """A tile in the photo: its code, the four corners of its visible face (x, y), upside down or not."""

    tile: str
    corners: np.ndarray
    upside_down: bool
    meld: int = -1
    """On the table (``render_table_plane``): the meld the tile is laid in, numbered from 0 in the photo."""


def _ink_hsv(colour: str, rng: random.Random) -> tuple[float, float, float]:
    """An ink's hue (degrees), saturation and value for R/Y/B/K, with the spread real sets show between them (blue
    from royal to teal, yellow to orange)."""
    if colour == "R":
        return rng.uniform(-8, 6), rng.uniform(0.75, 0.97), rng.uniform(0.5, 0.8)
    if colour == "Y":
        return rng.uniform(20, 44), rng.uniform(0.8, 1.0), rng.uniform(0.7, 0.93)
    if colour == "B":
        return rng.uniform(182, 228), rng.uniform(0.6, 0.95), rng.uniform(0.35, 0.7)
    return rng.uniform(0, 360), rng.uniform(0, 0.2), rng.uniform(0.05, 0.22)


def set_inks(rng: random.Random) -> dict[str, tuple[float, float, float]]:
    """One set's four inks (hue, saturation, value): a real set prints every tile of a colour with the same ink, so
    the spread between sets (``_ink_hsv``) is not found between the tiles of one rack."""
    return {colour: _ink_hsv(colour, rng) for colour in "RYBK"}


def _ink(colour: str, rng: random.Random, inks: dict[str, tuple[float, float, float]] | None = None
         ) -> tuple[int, int, int]:
    """An RGB ink for R/Y/B/K: drawn from the whole spread of real sets, or, given a set's ``inks``, that set's ink
    with the little a print varies between tiles (2 degrees of hue, 0.03 of saturation and value)."""
    if inks is None:
        h, s, v = _ink_hsv(colour, rng)
    else:
        h, s, v = inks[colour]
        h += rng.uniform(-2, 2)
        s = min(max(s + rng.uniform(-0.03, 0.03), 0.0), 1.0)
        v = min(max(v + rng.uniform(-0.03, 0.03), 0.0), 1.0)
    rgb = cv2.cvtColor(np.uint8([[[int(h % 360 / 2), int(s * 255), int(v * 255)]]]), cv2.COLOR_HSV2RGB)[0, 0]
    return int(rgb[0]), int(rgb[1]), int(rgb[2])


def _ivory(rng: random.Random) -> tuple[int, int, int]:
    base = rng.choice([(238, 230, 205), (244, 240, 226), (232, 222, 192), (240, 236, 228), (226, 214, 180)])
    return tuple(int(np.clip(c + rng.randint(-8, 8), 0, 255)) for c in base)  # type: ignore[return-value]


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]) -> None:
    draw.ellipse((cx - r, cy - r * 0.75, cx, cy + r * 0.15), fill=fill)
    draw.ellipse((cx, cy - r * 0.75, cx + r, cy + r * 0.15), fill=fill)
    draw.polygon([(cx - r * 0.97, cy - r * 0.2), (cx + r * 0.97, cy - r * 0.2), (cx, cy + r)], fill=fill)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int], points: int = 5) -> None:
    pts = [(cx + (r if i % 2 == 0 else r * 0.42) * math.sin(i * math.pi / points),
            cy - (r if i % 2 == 0 else r * 0.42) * math.cos(i * math.pi / points)) for i in range(2 * points)]
    draw.polygon(pts, fill=fill)


def _symbol(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, ink: tuple[int, int, int],
            face: tuple[int, int, int]) -> None:
    recess = tuple(int(c * 0.86) for c in face)
    if kind == "heart_recess":
        draw.ellipse((cx - r * 1.35, cy - r * 1.35, cx + r * 1.35, cy + r * 1.35), fill=recess)
        draw.arc((cx - r * 1.35, cy - r * 1.35, cx + r * 1.35, cy + r * 1.35), 200, 340,
                 fill=tuple(int(c * 0.7) for c in face), width=max(1, int(r / 5)))
        _heart(draw, cx, cy, r * 0.85, ink)
    elif kind == "heart":
        _heart(draw, cx, cy, r, ink)
    elif kind == "spade":
        draw.ellipse((cx - r, cy - r * 0.3, cx, cy + r * 0.55), fill=ink)
        draw.ellipse((cx, cy - r * 0.3, cx + r, cy + r * 0.55), fill=ink)
        draw.polygon([(cx - r * 0.97, cy + r * 0.2), (cx + r * 0.97, cy + r * 0.2), (cx, cy - r)], fill=ink)
        draw.polygon([(cx, cy + r * 0.2), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=ink)
    elif kind == "dot":
        draw.ellipse((cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), fill=ink)
    elif kind == "ring":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=max(2, int(r / 3)))
    elif kind == "crescent":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        draw.ellipse((cx - r * 0.55, cy - r * 0.9, cx + r * 1.1, cy + r * 0.75), fill=face)
        _star(draw, cx + r * 0.45, cy, r * 0.35, ink)


def _emblem(draw: ImageDraw.ImageDraw, kind: str, w: int, h: int, ink: tuple[int, int, int], rng: random.Random) -> None:
    cx, cy, r = w / 2, h * rng.uniform(0.4, 0.5), w * rng.uniform(0.28, 0.36)
    line = max(2, int(r / 8))
    if kind == "star_rings":
        for k in (1.0, 0.78):
            draw.ellipse((cx - r * k, cy - r * k, cx + r * k, cy + r * k), outline=ink, width=line)
        _star(draw, cx, cy, r * 0.6, ink)
    elif kind == "clover":
        for dx, dy in ((0, -0.38), (-0.38, 0.05), (0.38, 0.05)):
            draw.ellipse((cx + (dx - 0.3) * r, cy + (dy - 0.3) * r, cx + (dx + 0.3) * r, cy + (dy + 0.3) * r), fill=ink)
        draw.line((cx, cy + 0.1 * r, cx + 0.15 * r, cy + 0.8 * r), fill=ink, width=line)
    elif kind == "plain":
        draw.rounded_rectangle((cx - r * 0.55, cy - r * 0.8, cx + r * 0.55, cy + r * 0.8), radius=int(r * 0.2), outline=ink, width=line)
    elif kind == "double_ring":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=line)
        draw.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=ink)
    else:
        _star(draw, cx, cy, r, ink)


def render_face(tile: str, rng: random.Random, look: dict[str, object]) -> np.ndarray:
    """An upright tile face (BGR, TILE_H tall, width by the set's aspect) in the set's ``look``."""
    w, h = int(TILE_H * float(look["aspect"])), TILE_H  # type: ignore[arg-type]
    face = look["face"]  # type: ignore[assignment]
    image = Image.new("RGB", (w, h), face)  # type: ignore[arg-type]
    draw = ImageDraw.Draw(image)
    # Bevel: lit top-left edge, shaded bottom-right edge, a soft line where the face turns.
    bevel = max(2, int(w * rng.uniform(0.04, 0.08)))
    dark = tuple(int(c * rng.uniform(0.62, 0.8)) for c in face)  # type: ignore[attr-defined]
    light = tuple(min(255, int(c * 1.06 + 8)) for c in face)  # type: ignore[attr-defined]
    draw.polygon([(0, h), (w, h), (w, 0), (w - bevel, bevel), (w - bevel, h - bevel), (bevel, h - bevel)], fill=dark)
    draw.polygon([(0, 0), (w, 0), (w - bevel, bevel), (bevel, bevel), (bevel, h - bevel), (0, h)], fill=light)
    if tile == "F":
        ink = _ink(str(look["false_ink"]), rng)
        _emblem(draw, str(look["emblem"]), w, h, ink, rng)
    else:
        ink = _ink(tile[0], rng)
        text = tile[1:]
        glyph = numeral(text, look, h, int(look["bold"]))  # type: ignore[call-overload]
        limit = w * 0.9
        if glyph.width > limit:
            glyph = glyph.resize((int(limit), glyph.height))
        x = int(w / 2 - glyph.width / 2)
        y = int(h * float(look["digit_y"]) - glyph.height / 2)  # type: ignore[arg-type]
        if look["engraved"]:
            # Engraved: a shadow up-left inside the cut, a highlight down-right on its far wall.
            shade = tuple(int(c * 0.55) for c in face)  # type: ignore[attr-defined]
            image.paste(shade, (x - 2, y - 2), glyph)
            image.paste(light, (x + 2, y + 2), glyph)
        image.paste(ink, (x, y), glyph)
        symbol = str(look["symbol"])
        if symbol != "none":
            _symbol(draw, symbol, w / 2, h * float(look["symbol_y"]), w * float(look["symbol_r"]), ink, face)  # type: ignore[arg-type]
        if text in ("6", "9") and look["underline"]:
            draw.line((w * 0.35, y + glyph.height + 1, w * 0.65, y + glyph.height + 1), fill=ink, width=3)
    out = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)
    return cv2.GaussianBlur(out, (0, 0), 0.6)


def numeral(text: str, look: dict[str, object], face_height: int, bold: int) -> Image.Image:
    """The numeral ``text`` as a mask ("L", 4 px of margin), in the set's font at its size for a face
    ``face_height`` px high, thickened by a ``bold``-px maximum filter (0: as the font draws it)."""
    font = ImageFont.truetype(str(look["font"]), int(face_height * float(look["digit_size"])))  # type: ignore[arg-type]
    left, top, right, bottom = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), text, font=font)
    glyph = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(glyph).text((4 - left, 4 - top), text, font=font, fill=255)
    return glyph.filter(ImageFilter.MaxFilter(bold)) if bold > 0 else glyph


def random_look(rng: random.Random) -> dict[str, object]:
    """One tile set's design: every tile of a rack shares it (real sets are uniform)."""
    return {
        "aspect": rng.uniform(0.62, 0.76), "face": _ivory(rng), "font": rng.choice(FONTS),
        "digit_size": rng.uniform(0.4, 0.56), "digit_y": rng.uniform(0.3, 0.38), "bold": rng.choice([0, 0, 3, 3, 5]),
        "engraved": rng.random() < 0.7, "symbol": rng.choice(SYMBOLS), "symbol_y": rng.uniform(0.7, 0.78),
        "symbol_r": rng.uniform(0.09, 0.14), "emblem": rng.choice(EMBLEMS), "false_ink": rng.choice("KRBYK"),
        "underline": rng.random() < 0.4,
    }


def _random_hand(rng: random.Random, count: int) -> list[str]:
    """``count`` tiles from a real Okey set (each tile twice, two false okeys), some grouped like a player would."""
    deck = NUMBERED * 2 + ["F", "F"]
    rng.shuffle(deck)
    hand = deck[:count]
    if rng.random() < 0.6:  # players sort: runs of one colour, sets of one number
        by_colour = rng.random() < 0.5
        hand.sort(key=lambda t: (t == "F", t[0], int(t[1:])) if t != "F" and by_colour else
                  (t == "F", int(t[1:]) if t != "F" else 0, t[0]))
    return hand


def _texture(rng: random.Random, width: int, height: int, kind: str) -> np.ndarray:
    nprng = np.random.default_rng(rng.randrange(2**32))
    if kind == "felt":
        base = rng.choice([(40, 110, 30), (45, 90, 140), (120, 60, 40), (40, 80, 60), (60, 50, 110), (30, 30, 35)])
        image = np.full((height, width, 3), [c + rng.randint(-20, 20) for c in base], np.float32)
        image += cv2.GaussianBlur(nprng.normal(0, 12, (height, width)).astype(np.float32), (0, 0), 1.0)[..., None]
    elif kind == "wood":
        base = np.array(rng.choice([(40, 75, 120), (30, 55, 95), (70, 110, 160), (25, 35, 60)]), np.float32)
        y = np.linspace(0, rng.uniform(20, 90), height)[:, None]
        x = np.linspace(0, 1, width)[None, :]
        grain = np.sin(y + 3 * np.sin(x * rng.uniform(1, 6)) + nprng.normal(0, 0.3, (height, 1)))
        image = base * (0.8 + 0.2 * grain)[..., None]
    else:
        base = np.array([rng.randint(60, 230) for _ in range(3)], np.float32)
        weave = nprng.normal(0, 20, (height // 3 + 1, width // 3 + 1)).astype(np.float32)
        image = base * (1 + cv2.resize(weave, (width, height), interpolation=cv2.INTER_NEAREST)[..., None] / 255)
    return np.clip(image, 0, 255).astype(np.uint8)


def _paste_face(canvas: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    """Warp ``face`` onto ``canvas`` at ``corners`` (only the region it covers is touched)."""
    h, w = face.shape[:2]
    x1, y1 = np.floor(corners.min(0)).astype(int) - 1
    x2, y2 = np.ceil(corners.max(0)).astype(int) + 1
    x1, y1 = max(x1, 0), max(y1, 0)
    x2, y2 = min(x2, canvas.shape[1]), min(y2, canvas.shape[0])
    if x2 <= x1 or y2 <= y1:
        return
    local = (corners - np.float32([x1, y1])).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), local)
    size = (x2 - x1, y2 - y1)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size).astype(np.float32)[..., None] / 255
    region = canvas[y1:y2, x1:x2]
    region[:] = (region * (1 - alpha) + warped * alpha).astype(np.uint8)


def render_rack_plane(rng: random.Random, look: dict[str, object], total: int | None = None) -> tuple[np.ndarray, list[Tile]]:
    """The rack seen straight on, in its own plane: the image and the tiles' face corners in it (``total``
    tiles, else a count drawn from ``rng``)."""
    per_row = rng.choice([11, 12, 13, 13, 14, 15])
    tile_h = TILE_H
    tile_w = tile_h * float(look["aspect"])  # type: ignore[arg-type]
    margin = tile_w * rng.uniform(0.3, 0.8)
    width = int(per_row * tile_w * 1.12 + 2 * margin)
    tier = tile_h * rng.uniform(1.12, 1.3)  # one tier: the tile plus the ledge in front of it
    height = int(2 * tier + tile_h * 0.45)
    wood = rng.random() < 0.6
    body = _texture(rng, width, height, "wood") if wood else np.full(
        (height, width, 3), rng.choice([(40, 40, 150), (60, 120, 40), (150, 90, 30), (30, 30, 30), (200, 200, 205), (50, 140, 200)]),
        np.uint8)
    plane = body.copy()
    tiles: list[Tile] = []
    if total is None:
        total = rng.choice([14, 15, 21, 22, 22, 20, 18, 16]) if rng.random() < 0.85 else rng.randint(5, 13)
    hand = _random_hand(rng, total)
    rows = [hand[: (len(hand) + 1) // 2], hand[(len(hand) + 1) // 2 :]] if len(hand) > per_row - 2 or rng.random() < 0.6 else [hand, []]
    ledge = np.array([int(c * 0.72) for c in body[height // 2, width // 2]], np.uint8)
    for row_index, row in enumerate(rows):
        top = tile_h * 0.2 + row_index * tier
        # The groups a player leaves: a gap of a quarter to a whole tile after some tiles.
        slots, x = [], margin + rng.uniform(0, tile_w * max(0.0, per_row - len(row) - 2) * 0.5)
        for i, _ in enumerate(row):
            slots.append(x)
            x += tile_w * rng.uniform(0.995, 1.01)
            if rng.random() < 0.18 and i < len(row) - 1:
                x += tile_w * rng.uniform(0.25, 1.1)
        if slots and slots[-1] + tile_w > width - 4:
            factor = (width - 4 - margin) / (slots[-1] + tile_w - margin)
            slots = [margin + (s - margin) * factor for s in slots]
        # The tiles' top edges show as a strip above the faces (they lean back a little).
        for tile, left in zip(row, slots):
            w = tile_w * (1 if left + tile_w < width - 4 else 0.98)
            edge = np.float32([[left, top - tile_h * 0.07], [left + w, top - tile_h * 0.07], [left + w, top], [left, top]])
            cv2.fillConvexPoly(plane, edge.astype(np.int32), tuple(int(c * 0.8) for c in look["face"])[::-1])  # type: ignore[attr-defined]
            upside = rng.random() < 0.04
            face = render_face(tile, rng, look)
            if upside:
                face = face[::-1, ::-1].copy()
            corners = np.float32([[left, top], [left + w, top], [left + w, top + tile_h], [left, top + tile_h]])
            _paste_face(plane, face, corners)
            cv2.line(plane, (int(left), int(top)), (int(left), int(top + tile_h)), (40, 40, 40), 1)
            tiles.append(Tile(tile, corners, upside))
        # The ledge hides the tiles' foot.
        lip = top + tile_h * rng.uniform(0.9, 0.97)
        cv2.rectangle(plane, (0, int(lip)), (width, int(top + tier)), ledge.tolist(), -1)
        cv2.line(plane, (0, int(lip)), (width, int(lip)), [min(255, int(c) + 40) for c in ledge], 2)
        tiles = [Tile(t.tile, _cut_foot(t.corners, lip), t.upside_down) if t.corners[2, 1] > lip else t for t in tiles]
    return plane, tiles


def _random_melds(rng: random.Random) -> list[list[str]]:
    """Melds a player lays down from one set (each tile twice, two false okeys): runs of one colour and groups of one
    number in distinct colours, three to five tiles, a false okey now and then in a tile's place."""
    left = {tile: 2 for tile in NUMBERED}
    falses = 2
    melds: list[list[str]] = []
    for _ in range(rng.choice([2, 3, 3, 4, 4, 5, 6])):
        for _attempt in range(20):
            if rng.random() < 0.55:
                colour, length = rng.choice("RYBK"), rng.choice([3, 3, 4, 4, 5])
                first = rng.randint(1, 14 - length)
                meld = [f"{colour}{n}" for n in range(first, first + length)]
            else:
                number = rng.randint(1, 13)
                meld = [f"{c}{number}" for c in rng.sample("RYBK", rng.choice([3, 3, 4]))]
            if all(left[t] > 0 for t in meld):
                break
        else:
            continue
        for tile in meld:
            left[tile] -= 1
        if falses and rng.random() < 0.15:
            meld[rng.randrange(len(meld))] = "F"
            falses -= 1
        melds.append(meld)
    return melds


def laid_lines(rng: random.Random) -> list[list[list[str]]]:
    """Melds a player lays down (:func:`_random_melds`) in the lines they lie in on the table: 7 to 15 tiles a line at
    most, a meld never across two lines."""
    melds = _random_melds(rng)
    per_line = rng.choice([7, 9, 11, 13, 15])
    lines: list[list[list[str]]] = [[]]
    for meld in melds:
        if lines[-1] and sum(len(m) for m in lines[-1]) + len(meld) > per_line:
            lines.append([])
        lines[-1].append(meld)
    return lines


def _face_corners(tile_w: float, tile_h: float, angle: float, centre: np.ndarray) -> np.ndarray:
    """The corners of a tile's face ``tile_w`` × ``tile_h`` lying at ``centre`` on the table, turned by ``angle``."""
    local = np.float32([[-tile_w, -tile_h], [tile_w, -tile_h], [tile_w, tile_h], [-tile_w, tile_h]]) / 2
    c, s = math.cos(angle), math.sin(angle)
    corners: np.ndarray = local @ np.float32([[c, s], [-s, c]]) + centre
    return corners


def _set_down(plane: np.ndarray, rng: random.Random, corners: np.ndarray, side: tuple[int, ...], tile_h: float,
              edge_only: bool) -> None:
    """A tile lying face up at ``corners`` on the table ``plane``, before its face is pasted: its soft shadow and its
    thickness, seen below the face (the camera is at the table's near side), in the colour ``side``; as a strip
    along its near edge (``edge_only``, a tile lying nearly level) or as the whole face's outline moved down (a tile
    turned any way)."""
    thick = np.float32([0, tile_h * rng.uniform(0.08, 0.12)])
    shadow = np.zeros(plane.shape[:2], np.uint8)
    cv2.fillConvexPoly(shadow, (corners + thick * 1.6).astype(np.int32), 255)
    alpha = cv2.GaussianBlur(shadow, (0, 0), tile_h * 0.05).astype(np.float32)[..., None] / 255
    plane[:] = (plane * (1 - 0.45 * alpha)).astype(np.uint8)
    edge = np.float32([corners[3], corners[2], corners[2] + thick, corners[3] + thick]) if edge_only else corners + thick
    cv2.fillConvexPoly(plane, edge.astype(np.int32), side)


def render_table_plane(rng: random.Random, look: dict[str, object]) -> tuple[np.ndarray, np.ndarray, list[Tile]]:
    """Melds laid face up on the table, seen straight from above, in the table's own plane: lines of melds, the tiles
    of a meld touching, a gap between melds, each tile set down by hand (a little turned and moved); a line laid
    from the far seat shows its tiles upside down.  Each tile's thickness shows as a strip along its near edge and
    it casts a soft shadow.  Returns the bare table (to fill the photo past the plane), the image and the tiles'
    face corners in it."""
    tile_h = TILE_H
    tile_w = tile_h * float(look["aspect"])  # type: ignore[arg-type]
    lines = laid_lines(rng)
    gap = [tile_w * rng.uniform(0.3, 1.4) for line in lines for _ in line]
    line_gap = tile_h * rng.uniform(0.15, 0.7)
    margin = tile_h * rng.uniform(0.6, 1.2)
    widths = [sum(len(m) for m in line) * tile_w * 1.01 + sum(gap[: len(line)]) for line in lines]
    width = int(max(widths) + 2 * margin)
    height = int(len(lines) * tile_h * 1.12 + (len(lines) - 1) * line_gap + 2 * margin)
    table = _texture(rng, width, height, rng.choice(["felt", "felt", "wood", "cloth"]))
    plane = table.copy()
    side = tuple(int(c * rng.uniform(0.62, 0.78)) for c in look["face"])[::-1]  # type: ignore[attr-defined]
    tiles: list[Tile] = []
    y = margin
    number = 0
    for line, line_width in zip(lines, widths):
        across = rng.random() < 0.15  # laid from the far seat: upside down to this camera
        x = margin + rng.uniform(0, max(0.0, width - 2 * margin - line_width))
        for meld, space in zip(line, gap):
            for tile in meld:
                angle = math.radians(rng.gauss(0, 1.5))
                cx = x + tile_w / 2 + rng.gauss(0, tile_w * 0.02)
                cy = y + tile_h / 2 + rng.gauss(0, tile_h * 0.02)
                corners = _face_corners(tile_w, tile_h, angle, np.float32([cx, cy]))
                _set_down(plane, rng, corners, side, tile_h, edge_only=True)
                face = render_face(tile, rng, look)
                upside = across != (rng.random() < 0.02)
                if upside:
                    face = face[::-1, ::-1].copy()
                _paste_face(plane, face, corners)
                tiles.append(Tile(tile, corners, upside, number))
                x += tile_w * rng.uniform(1.0, 1.02)
            x += space
            number += 1
        y += tile_h * 1.12 + line_gap
    return table, plane, tiles


def askew_line(rng: random.Random, line: list[list[str]], tile_w: float, tile_h: float, number: int,
               first: float) -> tuple[list[tuple[str, float, float, float, int]], float]:
    """One line of melds laid askew (``render_askew_plane`` and ``render_racks_3d.py --askew``), in its own frame:
    each tile's code, centre (along x from 0, about y = 0), its own small turn and its meld (numbered from
    ``number``); and the line's turn on the table, half the time within a few degrees of ``first``, else any way."""
    laid: list[tuple[str, float, float, float, int]] = []
    x = 0.0
    for meld in line:
        for tile in meld:
            laid.append((tile, x + tile_w / 2 + rng.gauss(0, tile_w * 0.02), rng.gauss(0, tile_h * 0.02),
                         math.radians(rng.gauss(0, 1.5)), number))
            x += tile_w * rng.uniform(1.0, 1.02)
        x += tile_w * rng.uniform(0.3, 1.4)
        number += 1
    return laid, first + (math.radians(rng.gauss(0, 3)) if rng.random() < 0.5 else rng.uniform(-math.pi, math.pi))


def render_askew_plane(rng: random.Random, look: dict[str, object]) -> tuple[np.ndarray, np.ndarray, list[Tile]]:
    """Melds laid face up on the table as players round it lay them: each line of melds (:func:`laid_lines`) at its
    own turn (half of them within a few degrees of the first line's, the others anywhere), set down where it touches
    no other line, a third of a tile or more apart; the tiles of a meld touching, a gap between melds, each tile a
    little turned and moved, its thickness along its near side and a soft shadow.  A line that finds no free place
    is not laid.  Returns the bare table, the image and the tiles' face corners in it, as
    :func:`render_table_plane` does."""
    tile_h = TILE_H
    tile_w = tile_h * float(look["aspect"])  # type: ignore[arg-type]
    lines = laid_lines(rng)
    count = sum(len(meld) for line in lines for meld in line)
    longest = tile_w * max(sum(len(m) for m in line) + len(line) for line in lines) + tile_h
    width = height = int(max(longest, math.sqrt(count * tile_w * tile_h * rng.uniform(4, 6))) + tile_h)
    table = _texture(rng, width, height, rng.choice(["felt", "felt", "wood", "cloth"]))
    plane = table.copy()
    side = tuple(int(c * rng.uniform(0.62, 0.78)) for c in look["face"])[::-1]  # type: ignore[attr-defined]
    occupied = np.zeros(plane.shape[:2], np.uint8)
    first = rng.uniform(-math.pi, math.pi)
    tiles: list[Tile] = []
    number = 0
    for line in lines:
        laid, turn = askew_line(rng, line, tile_w, tile_h, number, first)
        number += len(line)
        for attempt in range(120):
            if attempt == 60:  # no free place at its own turn: along the first line, as the table's edge leads
                turn = first
            cx, cy = rng.uniform(0, width), rng.uniform(0, height)
            c, s = math.cos(turn), math.sin(turn)
            corners = [_face_corners(tile_w, tile_h, turn + angle, np.float32([cx + c * tx - s * ty, cy + s * tx + c * ty]))
                       for _tile, tx, ty, angle, _meld in laid]
            if not all(0 <= float(p[:, 0].min()) and float(p[:, 0].max()) < width and 0 <= float(p[:, 1].min())
                       and float(p[:, 1].max()) < height for p in corners):
                continue
            mask = np.zeros(occupied.shape, np.uint8)
            for p in corners:
                cv2.fillConvexPoly(mask, p.astype(np.int32), 255)
            if (mask & occupied).any():
                continue
            occupied |= cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=max(1, int(tile_w * 0.35)))
            for (tile, _tx, _ty, _angle, meld), p in zip(laid, corners):
                _set_down(plane, rng, p, side, tile_h, edge_only=False)
                face = render_face(tile, rng, look)
                _paste_face(plane, face, p)
                tiles.append(Tile(tile, p, False, meld))
            break
    return table, plane, tiles


def _camera_table(rng: random.Random, plane_size: tuple[int, int], out_size: tuple[int, int]) -> np.ndarray:
    """The homography from the table's plane to the photo: from a seat, the phone held over the melds and tilted
    towards them (20-50° from straight down), sometimes turned a little or a lot, or straight from above."""
    pw, ph = plane_size
    ow, oh = out_size
    if rng.random() < 0.2:
        tilt, yaw, roll = rng.uniform(0, 12), rng.uniform(-8, 8), rng.uniform(-180, 180)
    else:
        tilt, yaw, roll = rng.uniform(20, 50), rng.uniform(-20, 20), rng.gauss(0, 8)
        if rng.random() < 0.3:
            roll = rng.choice([-1, 1]) * rng.uniform(15, 60)
    focal = max(ow, oh) * rng.uniform(0.8, 1.3)
    fill = rng.uniform(0.85, 1.4)
    distance = focal * max(pw / ow, ph / oh) / fill
    shift = np.float32([rng.uniform(-0.08, 0.08) * pw, rng.uniform(-0.08, 0.08) * ph, 0])
    return _view(_rotation(tilt, yaw, roll), shift, distance, focal, plane_size, out_size)


def render_table_photo(rng: random.Random, size: tuple[int, int] = (960, 720),
                       askew: bool = False) -> tuple[np.ndarray, list[Tile], str]:
    """One labelled photo of melds laid on the table (``render_table_plane``; ``askew``: ``render_askew_plane``),
    taken as ``_camera_table`` says."""
    width, height = size if rng.random() < 0.7 else size[::-1]
    look = random_look(rng)
    table, plane, tiles = (render_askew_plane if askew else render_table_plane)(rng, look)
    matrix = _camera_table(rng, (plane.shape[1], plane.shape[0]), (width, height))
    # Past the plane the table goes on: its bare cloth repeated (no tile is drawn twice).
    scene = cv2.warpPerspective(table, matrix, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_WRAP)
    inside = cv2.warpPerspective(np.full(plane.shape[:2], 255, np.uint8), matrix, (width, height)).astype(np.float32)[..., None] / 255
    warped = cv2.warpPerspective(plane, matrix, (width, height), flags=cv2.INTER_AREA)
    scene = (scene * (1 - inside) + warped * inside).astype(np.uint8)
    return _light(scene, rng), [_in_photo(t, matrix) for t in tiles], TABLE


def _in_photo(tile: Tile, matrix: np.ndarray, offset: np.ndarray | None = None) -> Tile:
    """A tile of a plane (moved by ``offset`` in it) as the photo ``matrix`` takes it: its corners in the photo, and
    upside down as the photo shows it (a rack or a table photographed turned over shows its tiles upside down)."""
    corners = cv2.perspectiveTransform((tile.corners if offset is None else tile.corners + offset)[None], matrix)[0]
    turned = float((corners[3] - corners[0])[1]) < 0
    return Tile(tile.tile, corners, tile.upside_down != turned, tile.meld)


def _cut_foot(corners: np.ndarray, lip: float) -> np.ndarray:
    cut = corners.copy()
    cut[2, 1] = cut[3, 1] = min(cut[2, 1], lip)
    return cut


def _camera(rng: random.Random, plane_size: tuple[int, int], out_size: tuple[int, int], style: str) -> np.ndarray:
    """The homography from the rack plane to the photo for a pinhole camera in the chosen style."""
    pw, ph = plane_size
    ow, oh = out_size
    if style == "front":
        tilt, yaw, roll = rng.uniform(0, 12), rng.uniform(-10, 10), rng.gauss(0, 3)
    else:
        tilt, yaw, roll = rng.uniform(20, 60), rng.uniform(-25, 25), rng.gauss(0, 8)
        if style == "rotated":
            roll = rng.choice([-1, 1]) * rng.uniform(15, 70) + (rng.choice([0, 90, -90, 180]) if rng.random() < 0.25 else 0)
    rotation = _rotation(tilt, yaw, roll)
    focal = max(ow, oh) * rng.uniform(0.8, 1.3)
    if style == "front":
        # One tile about an eighth of the width: the rack runs off the frame.
        tile_w = TILE_H * 0.7
        want = rng.uniform(1 / 10, 1 / 6.5) * ow
        distance = focal * tile_w / want
        shift = np.float32([rng.uniform(-0.35, 0.35) * pw, rng.uniform(-0.15, 0.15) * ph, 0])
    else:
        fill = rng.uniform(0.8, 1.5)
        distance = focal * pw / (fill * ow)
        shift = np.float32([rng.uniform(-0.1, 0.1) * pw, rng.uniform(-0.1, 0.1) * ph, 0])
    return _view(rotation, shift, distance, focal, plane_size, out_size)


def _rotation(tilt: float, yaw: float, roll: float) -> np.ndarray:
    """The camera's rotation for a view tilted, turned (yaw) and rolled by these degrees."""
    t, y, r = (math.radians(a) for a in (tilt, yaw, roll))
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    return rz @ rx @ ry


def _view(rotation: np.ndarray, shift: np.ndarray, distance: float, focal: float, plane_size: tuple[int, int],
          out_size: tuple[int, int]) -> np.ndarray:
    """The homography from a plane to the photo of a pinhole camera ``distance`` from the plane's centre
    (moved by ``shift`` in the plane), turned by ``rotation``."""
    pw, ph = plane_size
    ow, oh = out_size
    # Plane point (x, y) centred on the rack → camera coordinates; distance sets the scale.
    corners = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    centred = corners - np.float32([pw / 2, ph / 2])
    points = np.concatenate([centred, np.zeros((4, 1), np.float32)], 1) @ rotation.T
    points = points - shift @ rotation.T
    points[:, 2] += distance
    projected = np.float32(points[:, :2] / points[:, 2:3] * focal + np.float32([ow / 2, oh / 2]))
    return cv2.getPerspectiveTransform(corners, projected)


def _loose_tiles(scene: np.ndarray, rng: random.Random, look: dict[str, object], tile_px: float,
                 occupied: np.ndarray) -> list[Tile]:
    """Face-up loose tiles (labelled) and face-down ones (not) on the table around the rack."""
    placed = []
    h, w = scene.shape[:2]
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5, 8])):
        face_up = rng.random() < 0.75
        tile = rng.choice(NUMBERED + ["F"])
        face = render_face(tile, rng, look) if face_up else np.full(
            (TILE_H, int(TILE_H * float(look["aspect"])), 3), look["face"][::-1], np.uint8)  # type: ignore[index]
        fh, fw = face.shape[:2]
        size = tile_px * rng.uniform(0.8, 1.1)
        angle = rng.uniform(-math.pi, math.pi)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        local = np.float32([[-fw, -fh], [fw, -fh], [fw, fh], [-fw, fh]]) / 2 * size / fh
        c, s = math.cos(angle), math.sin(angle)
        corners = local @ np.float32([[c, s], [-s, c]]) + np.float32([cx, cy])
        mask = np.zeros(occupied.shape, np.uint8)
        cv2.fillConvexPoly(mask, corners.astype(np.int32), 255)
        if (mask & occupied).any():
            continue
        shadow = cv2.GaussianBlur(np.roll(mask, (3, 2), (0, 1)), (0, 0), 3).astype(np.float32)[..., None] / 255
        scene[:] = (scene * (1 - 0.4 * shadow)).astype(np.uint8)
        _paste_face(scene, face, corners)
        occupied |= cv2.dilate(mask, np.ones((5, 5), np.uint8))
        if face_up:
            placed.append(Tile(tile, corners, math.cos(angle) < 0))
    return placed


def _light(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Warm indoor light, dim light, flash glare, blur, noise, JPEG."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    mood = rng.choice(["warm", "warm", "neutral", "dim", "flash", "cool"])
    if mood == "warm":
        out *= np.float32([rng.uniform(0.7, 0.88), rng.uniform(0.9, 1.0), rng.uniform(1.0, 1.12)])
    elif mood == "cool":
        out *= np.float32([rng.uniform(1.0, 1.1), 1.0, rng.uniform(0.88, 0.97)])
    elif mood == "dim":
        out *= rng.uniform(0.3, 0.55) * np.float32([rng.uniform(0.7, 0.9), 0.95, 1.05])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    out *= (1 + rng.uniform(0, 0.5) * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5)))[..., None]
    if mood == "flash" or rng.random() < 0.15:
        cx, cy, r = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, rng.uniform(0.05, 0.2) * w
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r**2))
        out = out + glare[..., None] * rng.uniform(80, 220)
        if mood == "flash":
            out *= 1 + 0.4 * np.exp(-((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (2 * (0.5 * w) ** 2))[..., None] - 0.2
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 2.0))
    elif rng.random() < 0.3:
        length = rng.randint(3, 9)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((length / 2, length / 2), rng.uniform(0, 180), 1), (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    noise = rng.uniform(2, 6) * (2.5 if mood == "dim" else 1)
    out += np.random.default_rng(rng.randrange(2**32)).normal(0, noise, out.shape).astype(np.float32)
    image = np.clip(out, 0, 255).astype(np.uint8)
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 95)])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def render_photo(rng: random.Random, style: str | None = None, size: tuple[int, int] = (960, 720),
                 askew: bool = False) -> tuple[np.ndarray, list[Tile], str]:
    """One labelled rack photo: BGR image, the tiles in it (corners in the photo), the view style; ``askew`` (with the
    table style): its lines of melds laid each at its own turn."""
    if style == TABLE:
        return render_table_photo(rng, size, askew)
    style = style or rng.choice(STYLES)
    width, height = size if rng.random() < 0.75 or style == "front" else size[::-1]
    look = random_look(rng)
    plane, tiles = render_rack_plane(rng, look)
    scene = _texture(rng, width, height, rng.choice(["felt", "felt", "wood", "cloth"]))
    matrix = _camera(rng, (plane.shape[1], plane.shape[0]), (width, height), style)
    mask = cv2.warpPerspective(np.full(plane.shape[:2], 255, np.uint8), matrix, (width, height))
    shadow = cv2.GaussianBlur(np.roll(mask, (int(height * 0.02), int(width * 0.01)), (0, 1)), (0, 0), 8).astype(np.float32)[..., None] / 255
    scene = (scene * (1 - 0.5 * shadow)).astype(np.uint8)
    photo_tiles = [_in_photo(t, matrix) for t in tiles]
    sides = [float(np.linalg.norm(t.corners[3] - t.corners[0])) for t in photo_tiles]
    tile_px = float(np.median(sides)) if sides else 60.0
    loose = _loose_tiles(scene, rng, look, tile_px, cv2.dilate(mask, np.ones((9, 9), np.uint8)).copy()) if style != "front" else []
    warped = cv2.warpPerspective(plane, matrix, (width, height), flags=cv2.INTER_AREA)
    alpha = mask.astype(np.float32)[..., None] / 255
    scene = (scene * (1 - alpha) + warped * alpha).astype(np.uint8)
    return _light(scene, rng), photo_tiles + loose, style


def render_pair(rng: random.Random, style: str = "tilted", overlap: float = 1.5,
                size: tuple[int, int] = (960, 720)) -> tuple[list[np.ndarray], list[list[Tile]], list[list[tuple[int, int]]], str]:
    """A rack too wide for one photo, taken as two from one seat: its left part, then its right part.

    The rack lies on a table drawn in the rack's own plane, so both photos show the same table around it;
    each camera aims at one half of the tiles, the two sharing about ``overlap`` tiles' width, with its
    own small changes of tilt, turn and roll and its own light.  No loose tiles.  Returns both photos, the tiles in
    each, and for each of those tiles its number on the rack (the same tile in both photos has the same;
    numbered row by row, left to right) and its row there (0 the upper tier)."""
    width, height = size
    look = random_look(rng)
    plane, tiles = render_rack_plane(rng, look, rng.choice([21, 22, 22, 20, 15]))
    ph, pw = plane.shape[:2]
    left = min(float(t.corners[:, 0].min()) for t in tiles)
    span = max(float(t.corners[:, 0].max()) for t in tiles) - left
    pad_x, pad_y = pw // 2, ph * 2
    world = _texture(rng, pw + 2 * pad_x, ph + 2 * pad_y, rng.choice(["felt", "felt", "wood", "cloth"]))
    mask = np.zeros(world.shape[:2], np.uint8)
    mask[pad_y : pad_y + ph, pad_x : pad_x + pw] = 255
    shadow = cv2.GaussianBlur(np.roll(mask, (int(ph * 0.06), int(pw * 0.01)), (0, 1)), (0, 0), 12).astype(np.float32)[..., None] / 255
    world = (world * (1 - 0.5 * shadow)).astype(np.uint8)
    world[pad_y : pad_y + ph, pad_x : pad_x + pw] = plane
    offset = np.float32([pad_x, pad_y])
    if style == "front":
        tilt, yaw, roll = rng.uniform(0, 12), rng.uniform(-10, 10), rng.gauss(0, 3)
    else:
        tilt, yaw, roll = rng.uniform(20, 55), rng.uniform(-15, 15), rng.gauss(0, 6)
    focal = max(width, height) * rng.uniform(0.8, 1.3)
    # Each photo shows its half of the tiles, the tiles' width ``overlap`` times (give or take a fifth)
    # shared with the other photo, and a little of the rack past the end.
    tile_w = TILE_H * float(look["aspect"])  # type: ignore[arg-type]
    photos, seen, ids = [], [], []
    for side in (-1, 1):
        rotation = _rotation(tilt + rng.gauss(0, 3), yaw + side * rng.uniform(0, 6), roll + rng.gauss(0, 3))
        shared, end = overlap * tile_w * rng.uniform(0.8, 1.2), tile_w * rng.uniform(0.1, 0.6)
        view = span / 2 + shared / 2 + end
        distance = focal * pw / (pw / view * width)
        aim = left + span / 2 - pw / 2 + side * (view / 2 - shared / 2)
        shift = np.float32([aim, rng.uniform(-0.08, 0.08) * ph, 0])
        matrix = _view(rotation, shift, distance, focal, (world.shape[1], world.shape[0]), (width, height))
        scene = cv2.warpPerspective(world, matrix, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
        in_photo, indices = [], []
        for index, t in enumerate(tiles):
            in_photo.append(_in_photo(t, matrix, offset))
            indices.append((index, int(float(t.corners[:, 1].mean()) > ph / 2)))
        photos.append(_light(scene, rng))
        seen.append(in_photo)
        ids.append(indices)
    return photos, seen, ids, style


def visible_boxes(tiles: list[Tile], width: int, height: int) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Axis-aligned boxes clipped to the frame; tiles less than 60 % in the frame are left out."""
    boxes = []
    for t in tiles:
        x1, y1 = t.corners.min(0)
        x2, y2 = t.corners.max(0)
        area = max((x2 - x1) * (y2 - y1), 1e-6)
        cx1, cy1, cx2, cy2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
        if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < 0.6 * area or min(x2 - x1, y2 - y1) < 6:
            continue
        boxes.append((t.tile, (float(cx1), float(cy1), float(cx2), float(cy2)), t.upside_down))
    return boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--style", choices=(*STYLES, TABLE),
                        help="only this view style (default: each photo picks tilted, front or rotated); 'table': "
                             "melds laid face up on the table, as an Okey 101 opening or a win spread out to show")
    parser.add_argument("--askew", action="store_true",
                        help="with --style table: each line of melds laid at its own turn, as players round a table "
                             "lay them")
    parser.add_argument("--start", type=int, default=0, help="first photo index (to render a pool in parts)")
    parser.add_argument("--pairs", action="store_true",
                        help="each rack as two photos, its left and right part (rack_0000_left.jpg, _right.jpg); "
                             "labels.csv gains a rack_tile column: the same tile in both photos has the same number")
    parser.add_argument("--overlap", type=float, default=1.5,
                        help="with --pairs: how many tiles' width the two photos share (default 1.5)")
    parser.add_argument("--unseen-fonts", action="store_true",
                        help="draw the numerals only in bold faces the training pool never saw (UNSEEN_FONTS): "
                             "a dev set for a tile set whose numerals were never learnt")
    parser.add_argument("--heavy-fonts", action="store_true",
                        help="draw the numerals only in black, extra-bold and condensed faces the training pool never "
                             f"saw (HEAVY_FONTS; Debian: {HEAVY_FONT_PACKAGES}): a dev set for a set's heavy numerals")
    parser.add_argument("--more-shapes", action="store_true",
                        help="add numeral shapes the pool lacks to it (SHAPE_FONTS: slab, old-style, monospaced; "
                             f"Debian: {SHAPE_FONT_PACKAGES}): for training racks, never a dev set's")
    parser.add_argument("--any-fonts", action="store_true",
                        help="render with whichever faces are installed (the racks then differ from the README's sets)")
    args = parser.parse_args()
    if args.askew and args.style != TABLE:
        parser.error("--askew lays melds on the table: give it with --style table")
    if sum((args.unseen_fonts, args.heavy_fonts, args.more_shapes)) > 1:
        parser.error(POOLS_CLASH)
    missing = missing_fonts(args.unseen_fonts, args.heavy_fonts, args.more_shapes)
    if missing and not args.any_fonts:
        parser.error(f"{len(missing)} font faces are missing ({', '.join(missing[:4])}{' …' if len(missing) > 4 else ''}): "
                     f"the racks would not be those of models/README for the same seed. Install them "
                     f"(apt-get install {font_packages(args.heavy_fonts, args.more_shapes)}) or pass --any-fonts")
    if args.heavy_fonts and not HEAVY_FONTS:
        parser.error(f"none of HEAVY_FONT_CANDIDATES is installed (Debian: {HEAVY_FONT_PACKAGES})")
    if args.unseen_fonts and not UNSEEN_FONTS:
        parser.error("none of UNSEEN_FONT_CANDIDATES is installed (Debian: fonts-dejavu-core, fonts-liberation, "
                     "fonts-tlwg-*, fonts-urw-base35)")
    use_pool(args.unseen_fonts, args.heavy_fonts, args.more_shapes)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.pairs:
        _write_pairs(args.out, args.count, args.seed, args.style or "tilted", args.start, args.overlap)
        return
    labels = args.out / "labels.csv"
    mode = "a" if args.start and labels.exists() else "w"
    with open(labels, mode, newline="") as handle:
        writer = csv.writer(handle)
        table = args.style == TABLE  # the labels say which meld each tile is laid in
        if mode == "w":
            writer.writerow(["image", "tile", "x1", "y1", "x2", "y2", "upside_down", "style"] + ["meld"] * table)
        for index in range(args.start, args.start + args.count):
            image, tiles, style = render_photo(random.Random(args.seed * 100_003 + index), args.style, askew=args.askew)
            name = f"rack_{index:04d}.jpg"
            cv2.imwrite(str(args.out / name), image)
            for t in tiles:
                for tile, box, upside in visible_boxes([t], image.shape[1], image.shape[0]):
                    writer.writerow([name, tile, *(round(v, 1) for v in box), int(upside), style] + [t.meld] * table)
            handle.flush()


def _write_pairs(out: Path, count: int, seed: int, style: str, start: int, overlap: float) -> None:
    """The pairs, their labels (tiles at least 60 % in the frame, with their number on the rack) and, in
    ``whole.csv``, every tile's whole box in each photo, inside the frame or not (to tell which rack tile
    a box on a tile the frame cuts is), with its number and row on the rack."""
    labels, whole = out / "labels.csv", out / "whole.csv"
    mode = "a" if start and labels.exists() else "w"
    with open(labels, mode, newline="") as handle, open(whole, mode, newline="") as whole_handle:
        writer, whole_writer = csv.writer(handle), csv.writer(whole_handle)
        if mode == "w":
            writer.writerow(["image", "tile", "x1", "y1", "x2", "y2", "upside_down", "style", "rack_tile"])
            whole_writer.writerow(["image", "tile", "x1", "y1", "x2", "y2", "rack_tile", "rack_row"])
        for index in range(start, start + count):
            photos, seen, ids, style = render_pair(random.Random(seed * 100_003 + index), style, overlap)
            for half, image, tiles, numbers in zip(("left", "right"), photos, seen, ids):
                name = f"rack_{index:04d}_{half}.jpg"
                cv2.imwrite(str(out / name), image)
                for tile, (number, row) in zip(tiles, numbers):
                    for code, box, upside in visible_boxes([tile], image.shape[1], image.shape[0]):
                        writer.writerow([name, code, *(round(v, 1) for v in box), int(upside), style, number])
                    whole_writer.writerow([name, tile.tile, *(round(float(v), 1) for v in (*tile.corners.min(0), *tile.corners.max(0))),
                                           number, row])
            handle.flush()


if __name__ == "__main__":
    main()
