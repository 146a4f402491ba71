"""Okey racks built in 3-D and rendered by Blender's path tracer (Cycles, on the CPU): a second renderer, never
trained on, to measure how the reading carries over to photos drawn another way.

``render_racks.py`` draws a rack flat and warps it into a photo (2.5-D); everything the recogniser learnt came from
it.  Real racks differ from it in ways a flat drawing cannot show, and that is what this renderer adds:

- **Geometry:** tiles are bevelled blocks (2.6 × 3.8 × 1 cm up to their set's aspect) standing in two rows on a
  two-tier rack, leaning back a few degrees against the tier behind; each tier's ledge hides the tiles' foot, the
  tiles' tops and sides show, the upper row stands behind and above the lower one, so a low view loses its foot
  behind the lower row.  Loose tiles lie on the table, face up or face down.
- **Light:** a lamp (an area light, warm to neutral), the room (the world's light), sometimes a flash at the
  phone; the glossy tiles show real highlights where the light's reflection meets the eye, shadows fall between
  rows, and the engraving is lit by the light (a bump map), not painted.
- **Camera:** a phone's main camera (26 mm equivalent, 4:3) at seat height: views tilted 20-60° down onto the
  rack (``tilted``), the same turned in the hand by up to a quarter turn (``rotated``), or a close front view where
  a tile is about an eighth of the photo's width (``front``); focus on the rack with a phone's depth of field,
  then a sensor's noise and JPEG.
- **Melds on the table** (``table``): no rack; the tiles lie face up on the table in lines of melds, as an Okey 101
  opening is laid (``render_racks.py --style table`` lays them alike), the phone held over them from a seat, 20-50°
  from straight down, or straight above; the labels give each tile's meld.

The faces are drawn with the 2.5-D renderer's designs (``render_racks.random_look``: fonts, inks, symbols, false
okeys' emblems), without its painted bevel and engraving.  Each tile's ink is drawn from the whole spread of real sets
(a rack's yellows from orange to golden), as every set up to the thirty-sixth round was rendered; with ``--set-inks``
the rack's set prints each colour with one ink, as a real set does (``render_racks.set_inks``).  Labels come from the render itself: a second render in
flat colours, one per tile face, gives each tile's visible face pixels (hidden by the ledge, another tile or the
frame, or not); a tile is labelled when at least 60 % of its face is in the photo and not hidden, its box the
visible face's.

Needs Blender as a Python module (``pip install bpy``: Python 3.11, about 370 MB, not a dependency of the project)
with OpenCV and Pillow, in its own environment::

    python3.11 -m venv ../bpyenv && ../bpyenv/bin/pip install bpy opencv-python-headless pillow
    ../bpyenv/bin/python scripts/render_racks_3d.py --out scripts/cache/racks3d-9801-tilted --count 25 --seed 9801 --style tilted   # a dev set (scripts/vision_figures.py)

writes ``rack_0000.jpg`` … and ``labels.csv`` with ``render_racks.py``'s columns plus the whole tile's box
(``whole_x1`` … ``whole_y2``: face, top and sides), for ``eval_vision.py --synthetic``.  About 30 s a photo on 2 cores
(24 samples); ``--labels-only`` writes labels.csv again from the same scenes in about 2 s a photo.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENCV_IO_ENABLE_OPENEXR", "1")   # the render is read back as linear light

try:
    import bpy  # type: ignore[import-not-found]  # noqa: I001  (bpy first: it makes bmesh and mathutils importable)
    import bmesh  # type: ignore[import-not-found]
    from mathutils import Euler, Matrix, Vector  # type: ignore[import-not-found]
except ImportError:
    sys.stderr.write("render_racks_3d.py needs Blender as a Python module, which is not a dependency of the project: "
                     "in an environment of its own (Python 3.11), pip install bpy opencv-python-headless pillow, "
                     "and run this script with that environment's python\n")
    raise SystemExit(2) from None
import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent))
import render_racks as flat  # noqa: E402

STYLES = ("tilted", "front", "rotated")
SIZE = (960, 720)
FACE_PX = 256  # the face texture's height
TILE_H = 3.8  # cm
DEPTH = 1.0
BEVEL = 0.12


@dataclass
class Placed:
    """A tile in the scene: its code, its object, upside down or not, labelled or not (face-down loose tiles)."""

    tile: str
    obj: object
    upside_down: bool
    face_up: bool
    meld: int = -1
    """Laid on the table (``--style table``): the meld the tile is in, numbered from 0."""


def face_texture(tile: str, rng: random.Random, look: dict[str, object], width: int) -> tuple[np.ndarray, np.ndarray]:
    """The face's colours (RGB) and its engraving's depth (1 where the ink is cut in, 0 on the face), FACE_PX high."""
    h, w = FACE_PX, width
    face = look["face"]
    image = Image.new("RGB", (w, h), face)  # type: ignore[arg-type]
    mask = Image.new("RGB", (w, h), (0, 0, 0))   # the engraving, drawn with the same shapes in white
    draw, cut = ImageDraw.Draw(image), ImageDraw.Draw(mask)
    if tile == "F":
        ink = flat._ink(str(look["false_ink"]), rng, look.get("inks"))  # type: ignore[arg-type]
        flat._emblem(draw, str(look["emblem"]), w, h, ink, rng)
        flat._emblem(cut, str(look["emblem"]), w, h, (255, 255, 255), random.Random(0))
        return np.asarray(image), np.asarray(mask.convert("L"), np.float32) / 255 * 0.5
    ink = flat._ink(tile[0], rng, look.get("inks"))  # type: ignore[arg-type]
    text = tile[1:]
    bold = int(look["bold"]) * 2 - 1 if int(look["bold"]) else 0  # type: ignore[call-overload]  # the face is drawn larger
    glyph = flat.numeral(text, look, h, bold)
    limit = w * 0.86
    if glyph.width > limit:
        glyph = glyph.resize((int(limit), glyph.height))
    x = int(w / 2 - glyph.width / 2)
    y = int(h * float(look["digit_y"]) - glyph.height / 2)  # type: ignore[arg-type]
    image.paste(ink, (x, y), glyph)
    mask.paste((255, 255, 255), (x, y), glyph)
    symbol = str(look["symbol"])
    if symbol != "none":
        cx, cy, r = w / 2, h * float(look["symbol_y"]), w * float(look["symbol_r"])  # type: ignore[arg-type]
        flat._symbol(draw, symbol, cx, cy, r, ink, face)  # type: ignore[arg-type]
        flat._symbol(cut, symbol, cx, cy, r, (255, 255, 255), (0, 0, 0))
    if text in ("6", "9") and look["underline"]:
        draw.line((w * 0.35, y + glyph.height + 3, w * 0.65, y + glyph.height + 3), fill=ink, width=5)
        cut.line((w * 0.35, y + glyph.height + 3, w * 0.65, y + glyph.height + 3), fill=(255, 255, 255), width=5)
    depth = np.asarray(mask.convert("L").filter(ImageFilter.GaussianBlur(1.2)), np.float32) / 255
    return np.asarray(image), depth if look["engraved"] else depth * 0.15


def _image(name: str, pixels: np.ndarray, folder: Path) -> object:
    """A Blender image from an RGB or grey array, through a PNG file in ``folder``."""
    path = folder / f"{name}.png"
    Image.fromarray(pixels).save(path)
    image = bpy.data.images.load(str(path))
    image.colorspace_settings.name = "sRGB" if pixels.ndim == 3 else "Non-Color"
    return image


def _srgb_to_linear(rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
    out = []
    for c in rgb:
        v = c / 255
        out.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    return (*out, 1.0)  # type: ignore[return-value]


def _principled(name: str, colour: tuple[int, int, int], roughness: float) -> object:
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = _srgb_to_linear(colour)
    bsdf.inputs["Roughness"].default_value = roughness
    return material


def _face_material(name: str, colours: object, depth: object, roughness: float, engraving: float) -> object:
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = roughness
    colour = nodes.new("ShaderNodeTexImage")
    colour.image = colours
    colour.extension = "EXTEND"
    links.new(colour.outputs["Color"], bsdf.inputs["Base Color"])
    cut = nodes.new("ShaderNodeTexImage")
    cut.image = depth
    cut.extension = "EXTEND"
    bump = nodes.new("ShaderNodeBump")
    bump.invert = True
    bump.inputs["Strength"].default_value = engraving
    bump.inputs["Distance"].default_value = 0.04
    links.new(cut.outputs["Color"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    return material


def _wood_material(rng: random.Random) -> object:
    base = rng.choice([(150, 100, 55), (110, 70, 40), (175, 130, 80), (70, 45, 30), (190, 150, 100)])
    material = _principled("rack", base, rng.uniform(0.35, 0.7))
    if rng.random() < 0.35:   # a plastic rack: one colour
        plastic = rng.choice([(150, 30, 30), (30, 110, 50), (30, 60, 150), (30, 30, 30), (220, 220, 215), (180, 120, 40)])
        material.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = _srgb_to_linear(plastic)
        return material
    nodes, links = material.node_tree.nodes, material.node_tree.links
    wave = nodes.new("ShaderNodeTexWave")
    wave.inputs["Scale"].default_value = rng.uniform(0.3, 1.2)
    wave.inputs["Distortion"].default_value = rng.uniform(2, 8)
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = _srgb_to_linear(tuple(int(c * 0.7) for c in base))  # type: ignore[arg-type]
    ramp.color_ramp.elements[1].color = _srgb_to_linear(base)
    links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], nodes["Principled BSDF"].inputs["Base Color"])
    return material


def _table_material(rng: random.Random) -> object:
    kind = rng.choice(["felt", "felt", "wood", "cloth"])
    if kind == "felt":
        base = rng.choice([(30, 110, 45), (35, 85, 140), (130, 40, 40), (45, 80, 60), (100, 50, 60), (35, 35, 40)])
    elif kind == "wood":
        base = rng.choice([(120, 80, 45), (90, 60, 35), (160, 120, 80)])
    else:
        base = tuple(rng.randint(60, 230) for _ in range(3))  # type: ignore[assignment]
    material = _principled("table", base, 0.95 if kind == "felt" else 0.6)
    nodes, links = material.node_tree.nodes, material.node_tree.links
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = rng.uniform(2, 30)
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = _srgb_to_linear(tuple(int(c * 0.8) for c in base))  # type: ignore[arg-type]
    ramp.color_ramp.elements[1].color = _srgb_to_linear(tuple(min(255, int(c * 1.15)) for c in base))  # type: ignore[arg-type]
    links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], nodes["Principled BSDF"].inputs["Base Color"])
    return material


def _tile_mesh(name: str, width: float) -> object:
    """A bevelled block ``width`` × DEPTH × TILE_H centred on its origin, its face towards −y: material 1 (with UVs
    across the face) on the flat face, 0 elsewhere."""
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=Vector((width, DEPTH, TILE_H)), verts=bm.verts)
    bmesh.ops.bevel(bm, geom=list(bm.edges) + list(bm.verts), offset=BEVEL, segments=2, affect="EDGES",
                    profile=0.5)
    uv = bm.loops.layers.uv.new()
    for face in bm.faces:
        if face.normal.y < -0.99:
            face.material_index = 1
            for loop in face.loops:
                co = loop.vert.co
                loop[uv].uv = (co.x / width + 0.5, co.z / TILE_H + 0.5)
        else:
            face.material_index = 0
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def _box(name: str, size: tuple[float, float, float], centre: tuple[float, float, float], material: object) -> object:
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=Vector(size), verts=bm.verts)
    bmesh.ops.bevel(bm, geom=list(bm.edges), offset=0.08, segments=1, affect="EDGES")
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    obj.location = centre
    obj.data.materials.append(material)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _add_tile(tile: str, rng: random.Random, look: dict[str, object], width: float, body: object, folder: Path,
              index: int, location: Vector, rotation: Euler, upside: bool, face_up: bool = True, meld: int = -1) -> Placed:
    colours, depth = face_texture(tile, rng, look, int(FACE_PX * width / TILE_H))
    if upside:
        colours, depth = colours[::-1, ::-1].copy(), depth[::-1, ::-1].copy()
    face = _face_material(f"face{index}", _image(f"face{index}", colours, folder),
                          _image(f"cut{index}", (depth * 255).astype(np.uint8), folder),
                          float(look["roughness"]), float(look["engraving"]))  # type: ignore[arg-type]
    obj = bpy.data.objects.new(f"tile{index}", _tile_mesh(f"tile{index}", width))
    obj.data.materials.append(body)
    obj.data.materials.append(face)
    obj.location = location
    obj.rotation_euler = rotation
    bpy.context.scene.collection.objects.link(obj)
    return Placed(tile, obj, upside, face_up, meld)


def _tile_set(rng: random.Random, inks: bool) -> tuple[dict[str, object], float, object]:
    """A set's look (``render_racks.random_look``, with the glaze's roughness and the engraving's depth; with ``inks``
    one ink a colour), its tiles' width and the material of their bodies."""
    look = flat.random_look(rng)
    look["roughness"] = rng.uniform(0.12, 0.35)
    look["engraving"] = rng.uniform(0.5, 1.0)
    if inks:
        look["inks"] = flat.set_inks(rng)
    width = TILE_H * float(look["aspect"])  # type: ignore[arg-type]
    return look, width, _principled("body", look["face"], float(look["roughness"]))  # type: ignore[arg-type]


def _add_table(rng: random.Random) -> None:
    """The table top: a plane 1.5 m across in one of ``_table_material``'s cloths."""
    table = bpy.data.objects.new("table", bpy.data.meshes.new("table"))
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=150)
    bm.to_mesh(table.data)
    bm.free()
    table.data.materials.append(_table_material(rng))
    bpy.context.scene.collection.objects.link(table)


def build_scene(rng: random.Random, folder: Path, inks: bool = False) -> tuple[list[Placed], Vector, float]:
    """The rack with its tiles and the table with loose tiles; returns the tiles, the rack's centre and its length.
    With ``inks`` the rack's set prints each colour with one ink (``render_racks.set_inks``); without, each tile's ink
    is drawn from every set's spread (how every set up to the thirty-sixth round was rendered)."""
    look, width, body = _tile_set(rng, inks)
    wood = _wood_material(rng)
    total = rng.choice([14, 15, 21, 22, 22, 20, 18, 16]) if rng.random() < 0.85 else rng.randint(5, 13)
    hand = flat._random_hand(rng, total)
    per_row = max(rng.choice([11, 12, 13, 13, 14, 15]), (len(hand) + 1) // 2 + 1)
    length = per_row * width * 1.12 + 3.0
    rows = [hand[: (len(hand) + 1) // 2], hand[(len(hand) + 1) // 2:]] if len(hand) > per_row - 2 or rng.random() < 0.6 else [hand, []]
    # Two tiers: the lower row on a shelf at the front, the upper one on a step behind and above it; a ledge in
    # front of each hides its tiles' foot.
    shelf, step, lip = rng.uniform(0.6, 1.2), TILE_H * rng.uniform(0.6, 0.8), rng.uniform(0.35, 0.7)
    depth_tier = DEPTH + rng.uniform(0.8, 1.4)
    _box("base", (length, 2 * depth_tier + 0.6, shelf), (0, depth_tier, shelf / 2), wood)
    _box("step", (length, depth_tier + 0.3, step), (0, depth_tier * 1.5 + 0.15, shelf + step / 2), wood)
    for y, z in ((-0.15, shelf), (depth_tier - 0.15, shelf + step)):
        _box("ledge", (length, 0.3, lip), (0, y, z + lip / 2), wood)
    placed: list[Placed] = []
    lean = math.radians(rng.uniform(4, 14))
    for row_index, row in enumerate(rows):
        y0, z0 = (0.1 if row_index == 1 else depth_tier + 0.1), (shelf if row_index == 1 else shelf + step)
        if not rows[1]:
            y0, z0 = 0.1, shelf
        x = -length / 2 + 1.5 + rng.uniform(0, width * max(0.0, per_row - len(row) - 2) * 0.5)
        for i, tile in enumerate(row):
            # Leaning back about its foot's front edge: the centre moves back and down with the lean.
            centre = Vector((x + width / 2, y0 + DEPTH / 2 * math.cos(lean) + TILE_H / 2 * math.sin(lean),
                             z0 + TILE_H / 2 * math.cos(lean) - DEPTH / 2 * math.sin(lean) + 0.01))
            placed.append(_add_tile(tile, rng, look, width, body, folder, len(placed), centre, Euler((-lean, 0, 0)),
                                    rng.random() < 0.04))
            x += width * rng.uniform(1.0, 1.015)
            if rng.random() < 0.18 and i < len(row) - 1:
                x += width * rng.uniform(0.25, 1.1)
    # Loose tiles on the table in front of the rack: some face up (read), some face down.
    deck = flat.NUMBERED * 2
    for _ in range(rng.choice([0, 0, 1, 2, 3, 4])):
        up = rng.random() < 0.6
        where = Vector((rng.uniform(-length / 2, length / 2), rng.uniform(-14, -3), DEPTH / 2 + 0.01))
        turn = Euler((math.radians(-90 if up else 90), 0, rng.uniform(-math.pi, math.pi)))
        placed.append(_add_tile(rng.choice(deck), rng, look, width, body, folder, len(placed), where, turn, False, up))
    _add_table(rng)
    centre = Vector((0, depth_tier / 2 + 0.5, shelf + (step + TILE_H) / 2 if rows[1] else shelf + TILE_H / 2))
    return placed, centre, length


def build_table_scene(rng: random.Random, folder: Path, inks: bool = False,
                      askew: bool = False) -> tuple[list[Placed], Vector, float]:
    """Melds laid face up on the table (``--style table``), as ``render_racks.render_table_plane`` lays them: lines of
    touching tiles away from the player (towards +y), a gap between melds, each tile set down by hand (turned a little,
    moved a little), a line laid from the far seat upside down; returns the tiles, the melds' centre and the longer
    side of the ground they cover.  ``askew``: each line at its own turn (``_askew_lines``)."""
    look, width, body = _tile_set(rng, inks)
    lines = flat.laid_lines(rng)
    if askew:  # turned any way: a tile's length may lie along either side of the ground
        placed, pad = _askew_lines(rng, lines, look, width, body, folder), (TILE_H, TILE_H)
    else:
        placed, pad = _parallel_lines(rng, lines, look, width, body, folder), (width, TILE_H)
    xs = [p.obj.location.x for p in placed]
    ys = [p.obj.location.y for p in placed]
    _add_table(rng)
    centre = Vector(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, DEPTH / 2))
    return placed, centre, max(max(xs) - min(xs) + pad[0], max(ys) - min(ys) + pad[1])


def _parallel_lines(rng: random.Random, lines: list[list[list[str]]], look: dict[str, object], width: float,
                    body: object, folder: Path) -> list[Placed]:
    """Lines of melds laid one above the other, away from the player (towards +y), each from its own start."""
    line_gap = TILE_H * rng.uniform(0.15, 0.7)
    placed: list[Placed] = []
    number = 0
    for index, line in enumerate(lines):
        across = rng.random() < 0.15  # laid from the far seat: upside down to this camera
        y = index * (TILE_H * 1.05 + line_gap)
        x = rng.uniform(0, width * 2)
        for meld in line:
            for tile in meld:
                where = Vector((x + width / 2 + rng.gauss(0, width * 0.02), y + rng.gauss(0, TILE_H * 0.02),
                                DEPTH / 2 + 0.01))
                turn = Euler((math.radians(-90), 0, math.radians(rng.gauss(0, 1.5))))
                upside = across != (rng.random() < 0.02)
                placed.append(_add_tile(tile, rng, look, width, body, folder, len(placed), where, turn, upside,
                                        meld=number))
                x += width * rng.uniform(1.0, 1.02)
            x += width * rng.uniform(0.3, 1.4)
            number += 1
    return placed


def _askew_lines(rng: random.Random, lines: list[list[list[str]]], look: dict[str, object], width: float, body: object,
                 folder: Path) -> list[Placed]:
    """Lines of melds laid as ``render_racks.render_askew_plane`` lays them: each at its own turn (half within a few
    degrees of the first line's, the others any way), where no tile comes nearer another line's than a tile and a
    third (centre to centre); a line that finds no place within 120 tries is not laid."""
    side = TILE_H * (2 + 0.8 * max(sum(len(m) for m in line) + len(line) for line in lines))
    first = rng.uniform(-math.pi, math.pi)
    centres: list[tuple[float, float]] = []
    placed: list[Placed] = []
    number = 0
    for line in lines:
        laid, turn = flat.askew_line(rng, line, width, TILE_H, number, first)
        number += len(line)
        for attempt in range(120):
            if attempt == 60:
                turn = first
            ox, oy = rng.uniform(0, side), rng.uniform(0, side)
            c, s = math.cos(turn), math.sin(turn)
            spots = [(ox + c * tx - s * ty, oy + s * tx + c * ty) for _, tx, ty, _, _ in laid]
            if all(math.dist(a, b) >= TILE_H * 1.35 for a in spots for b in centres):
                break
        else:
            continue
        centres += spots
        for (tile, _tx, _ty, angle, meld), (px, py) in zip(laid, spots):
            where = Vector((px, py, DEPTH / 2 + 0.01))
            # A tile upright at 0 reads along +x with its top towards +y; turned with its line.
            rotation = Euler((math.radians(-90), 0, turn + angle))
            flipped = rng.random() < 0.02
            placed.append(_add_tile(tile, rng, look, width, body, folder, len(placed), where, rotation, flipped,
                                    meld=meld))
            # Upside down as the seat at −y sees it: the tile's top turned towards the player.
            placed[-1].upside_down = flipped != (math.cos(turn + angle) < 0)
    return placed


def place_table_camera(rng: random.Random, centre: Vector, extent: float) -> object:
    """The phone held over the melds from a seat (at −y), tilted 20-50° from straight down onto them and turned a
    little (sometimes 15-60°), or straight above them and turned any way (a fifth of the photos)."""
    data = bpy.data.cameras.new("phone")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36
    data.lens = rng.uniform(24, 30)
    camera = bpy.data.objects.new("phone", data)
    bpy.context.scene.collection.objects.link(camera)
    bpy.context.scene.camera = camera
    half_view = math.atan(18 / data.lens)
    distance = extent / rng.uniform(0.75, 1.05) / 2 / math.tan(half_view)  # the melds across most of the photo
    if rng.random() < 0.2:
        down, yaw, roll = math.radians(rng.uniform(78, 89)), math.radians(rng.uniform(-8, 8)), rng.uniform(-math.pi, math.pi)
    else:
        down, yaw = math.radians(rng.uniform(40, 70)), math.radians(rng.uniform(-20, 20))
        roll = math.radians(rng.gauss(0, 8) if rng.random() < 0.7 else rng.choice([-1, 1]) * rng.uniform(15, 60))
    offset = Vector((math.sin(yaw) * math.cos(down), -math.cos(yaw) * math.cos(down), math.sin(down))) * distance
    camera.location = centre + offset
    _look_at(camera, centre, roll)
    data.dof.use_dof = rng.random() < 0.5
    data.dof.focus_distance = distance
    data.dof.aperture_fstop = rng.uniform(2.8, 8.0)
    return camera


def _look_at(camera: object, target: Vector, roll: float) -> None:
    direction = target - camera.location
    camera.rotation_euler = (direction.to_track_quat("-Z", "Y").to_matrix().to_4x4() @ Matrix.Rotation(roll, 4, "Z")).to_euler()


def place_camera(rng: random.Random, style: str, centre: Vector, length: float, placed: list[Placed]) -> object:
    data = bpy.data.cameras.new("phone")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36
    data.lens = rng.uniform(24, 30)   # a phone's main camera, 35 mm equivalent
    camera = bpy.data.objects.new("phone", data)
    bpy.context.scene.collection.objects.link(camera)
    bpy.context.scene.camera = camera
    half_view = math.atan(18 / data.lens)
    target = centre.copy()
    if style == "front":
        # A tile about an eighth of the photo's width: the view about eight tiles wide at the rack.
        tiles_wide = rng.uniform(6.5, 9.5)
        width = placed[0].obj.dimensions.x
        distance = tiles_wide * width / 2 / math.tan(half_view)
        down, yaw = math.radians(rng.uniform(5, 25)), math.radians(rng.uniform(-10, 10))
        target.x += rng.uniform(-length / 4, length / 4)
        roll = math.radians(rng.uniform(-5, 5))
    else:
        # The whole rack in view, seen from the seat: tilted 20-60° down onto it.
        fill = rng.uniform(0.55, 0.95)
        distance = length / fill / 2 / math.tan(half_view) * rng.uniform(0.9, 1.1)
        down, yaw = math.radians(rng.uniform(20, 60)), math.radians(rng.uniform(-25, 25))
        target.x += rng.uniform(-length, length) * 0.08
        roll = math.radians(rng.uniform(-10, 10))
        if style == "rotated":
            roll = math.radians(rng.uniform(35, 90) * rng.choice([-1, 1]))
    offset = Vector((math.sin(yaw) * math.cos(down), -math.cos(yaw) * math.cos(down), math.sin(down))) * distance
    camera.location = target + offset
    _look_at(camera, target, roll)
    data.dof.use_dof = rng.random() < 0.7
    data.dof.focus_distance = distance
    data.dof.aperture_fstop = rng.uniform(1.8, 6.0) * (4 if style == "front" else 1)
    return camera


def _unseen_light(rng: random.Random, centre: Vector) -> str:
    """Lights no training rack was rendered under (``--unseen-light``): a ceiling's fluorescent tube (a long thin
    greenish light straight above), a window's daylight from one side with a weak warm lamp, or two lamps of two
    colours from two sides (two shadows, the rack warm on one end and cool on the other)."""
    mood = rng.choice(["tube", "window", "two lamps"])
    lights: list[tuple[str, tuple[int, int, int], float, Vector, tuple[float, float]]] = []
    if mood == "tube":
        lights.append(("tube", (236, 255, 228), rng.uniform(2e5, 5e5),
                       Vector((rng.uniform(-30, 30), rng.uniform(-50, 20), rng.uniform(120, 220))), (rng.uniform(90, 150), 5)))
    elif mood == "window":
        side = rng.choice([-1, 1])
        lights.append(("window", (212, 228, 255), rng.uniform(3e5, 7e5),
                       Vector((side * rng.uniform(120, 200), rng.uniform(-80, 20), rng.uniform(40, 100))), (80, 100)))
        lights.append(("lamp", (255, 190, 130), rng.uniform(3e4, 1e5),
                       Vector((-side * rng.uniform(20, 60), rng.uniform(-60, 40), rng.uniform(80, 150))), (20, 20)))
    else:
        side = rng.choice([-1, 1])
        for name, colour, sign in (("warm", (255, 180, 110), side), ("cool", (215, 230, 255), -side)):
            lights.append((name, colour, rng.uniform(1.5e5, 4e5),
                           Vector((sign * rng.uniform(50, 110), rng.uniform(-70, 30), rng.uniform(70, 140))), (15, 15)))
    for name, colour, energy, where, (size, size_y) in lights:
        lamp = bpy.data.lights.new(name, "AREA")
        lamp.shape = "RECTANGLE"
        lamp.size, lamp.size_y = size, size_y
        lamp.energy = energy
        lamp.color = _srgb_to_linear(colour)[:3]
        obj = bpy.data.objects.new(name, lamp)
        obj.location = centre + where
        _look_at(obj, centre, rng.uniform(-0.3, 0.3))
        bpy.context.scene.collection.objects.link(obj)
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = _srgb_to_linear(lights[0][1])  # type: ignore[arg-type]
    background.inputs["Strength"].default_value = rng.uniform(0.1, 0.5)
    bpy.context.scene.world = world
    return mood


def light_scene(rng: random.Random, camera: object, centre: Vector, unseen: bool = False) -> str:
    if unseen:
        return _unseen_light(rng, centre)
    mood = rng.choice(["warm", "warm", "neutral", "dim", "flash", "cool"])
    kelvin = {"warm": (255, 196, 137), "neutral": (255, 244, 229), "cool": (220, 232, 255),
              "dim": (255, 180, 110), "flash": (255, 236, 210)}[mood]
    lamp = bpy.data.lights.new("lamp", "AREA")
    lamp.size = rng.uniform(10, 60)
    lamp.energy = rng.uniform(2e5, 6e5) * (0.25 if mood == "dim" else 1)
    lamp.color = _srgb_to_linear(kelvin)[:3]
    obj = bpy.data.objects.new("lamp", lamp)
    obj.location = centre + Vector((rng.uniform(-60, 60), rng.uniform(-60, 40), rng.uniform(70, 160)))
    _look_at(obj, centre, 0.0)
    bpy.context.scene.collection.objects.link(obj)
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = _srgb_to_linear(tuple(int(c * 0.8) for c in kelvin))  # type: ignore[arg-type]
    background.inputs["Strength"].default_value = rng.uniform(0.15, 0.6) * (0.3 if mood == "dim" else 1)
    bpy.context.scene.world = world
    if mood == "flash":
        flash = bpy.data.lights.new("flash", "POINT")
        flash.energy = rng.uniform(2e4, 8e4)
        flash.shadow_soft_size = 0.3
        light = bpy.data.objects.new("flash", flash)
        light.location = camera.location + Vector((rng.uniform(-1, 1), 0, rng.uniform(-1, 1)))
        bpy.context.scene.collection.objects.link(light)
    return mood


def _settings(samples: int, threads: int) -> None:
    scene = bpy.context.scene
    if threads:
        scene.render.threads_mode = "FIXED"
        scene.render.threads = threads
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = True
    scene.render.resolution_x, scene.render.resolution_y = SIZE
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = "Standard"
    scene.unit_settings.scale_length = 0.01


def _emission(name: str, rgb: tuple[int, int, int]) -> object:
    """A material that shines one flat colour (given as the 8-bit value it should take in the label render)."""
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    nodes.remove(nodes["Principled BSDF"])
    emit = nodes.new("ShaderNodeEmission")
    emit.inputs["Color"].default_value = _srgb_to_linear(rgb)
    material.node_tree.links.new(emit.outputs["Emission"], nodes["Material Output"].inputs["Surface"])
    return material


def label_pass(placed: list[Placed], path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Render each face-up tile in its own flat colours, its face (blue 128) and the rest of it (blue 64), all else
    black, one sample a pixel with no filter; returns two index images, the faces' and the whole tiles' (0: none;
    k: ``placed[k - 1]``)."""
    if len(placed) > 63:
        raise ValueError(f"{len(placed)} tiles: the label colours tell 63 apart")
    scene = bpy.context.scene
    scene.cycles.samples, scene.cycles.use_denoising = 1, False
    scene.cycles.pixel_filter_type = "BOX"
    black = _emission("black", (0, 0, 0))
    for obj in scene.objects:
        if obj.type == "MESH":
            for i in range(len(obj.data.materials)):
                obj.data.materials[i] = black
    for index, tile in enumerate(placed, start=1):
        if tile.face_up:
            tile.obj.data.materials[0] = _emission(f"side{index}", (index * 4, 255 - index * 4, 64))
            tile.obj.data.materials[1] = _emission(f"id{index}", (index * 4, 255 - index * 4, 128))
    scene.world = None
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    rgb = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB).astype(np.int32)
    guess = np.rint(rgb[..., 0] / 4).astype(np.int32)
    coded = (np.abs(rgb[..., 1] - (255 - 4 * guess)) <= 3) & (np.abs(rgb[..., 0] - 4 * guess) <= 3) & (guess > 0)
    face = coded & (np.abs(rgb[..., 2] - 128) <= 3)
    whole = coded & ((np.abs(rgb[..., 2] - 64) <= 3) | face)
    return np.where(face, guess, 0), np.where(whole, guess, 0)


def face_area(tile: Placed, camera: object) -> float:
    """The tile's flat face projected into the photo, in pixels (the whole face, seen or not)."""
    from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
    scene = bpy.context.scene
    mesh = tile.obj.data
    total = 0.0
    for polygon in mesh.polygons:
        if polygon.material_index != 1:
            continue
        points = []
        for vertex in polygon.vertices:
            co = world_to_camera_view(scene, camera, tile.obj.matrix_world @ mesh.vertices[vertex].co)
            points.append((co.x * SIZE[0], (1 - co.y) * SIZE[1]))
        total += abs(cv2.contourArea(np.float32(points)))
    return total


def finish(path: Path, rng: random.Random, mood: str, unseen: bool = False) -> np.ndarray:
    """What a phone does to the rendered light (a linear OpenEXR): its white balance (from the brightest pixels,
    leaving part of the light's colour), its exposure (the bright pixels near white, less in dim light; what is
    brighter than white is clipped, as a glare), the sRGB curve with some contrast, a sensor's noise and JPEG."""
    image = np.maximum(cv2.imread(str(path), cv2.IMREAD_UNCHANGED)[..., :3].astype(np.float32), 0)
    brightness = image.sum(2)
    white = image[brightness >= np.percentile(brightness, 97)].mean(0)
    image *= (white.mean() / np.maximum(white, 1e-6)) ** rng.uniform(0.5, 0.95)
    level = float(np.percentile(image.max(2), 97))
    target = rng.uniform(0.3, 0.5) if mood == "dim" else rng.uniform(0.65, 1.0)
    image *= target / max(level, 1e-6)
    srgb = np.where(image <= 0.0031308, 12.92 * image, 1.055 * np.power(np.maximum(image, 0.0031308), 1 / 2.4) - 0.055)
    srgb = 0.5 + (srgb - 0.5) * rng.uniform(1.0, 1.15)
    out = srgb * 255
    if unseen:
        out = _phone_processing(out, rng)
    noise = rng.uniform(1.5, 4.5) * (2.5 if mood == "dim" else 1)
    out += np.random.default_rng(rng.randrange(2**32)).normal(0, noise, out.shape).astype(np.float32)
    _, encoded = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, rng.randint(80, 95)])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def _phone_processing(out: np.ndarray, rng: random.Random) -> np.ndarray:
    """What no training rack had (``--unseen-light``): a hand's shake (a short straight smear at any angle, half the
    photos) and a phone's sharpening (an unsharp mask with its light halos, most photos)."""
    if rng.random() < 0.5:
        length = rng.randint(3, 9)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(float(kernel.sum()), 1e-6))
    if rng.random() < 0.7:
        soft = cv2.GaussianBlur(out, (0, 0), rng.uniform(1.0, 2.5))
        out = out + (out - soft) * rng.uniform(0.5, 1.5)
    return out


def render_photo(seed: int, style: str, folder: Path, samples: int, threads: int = 0, photo: bool = True,
                 inks: bool = False, unseen_light: bool = False, askew: bool = False
                 ) -> tuple[np.ndarray | None, list[tuple[str, tuple[float, ...], tuple[float, ...], bool, int]]]:
    """One photo (``None`` with ``photo=False``: the labels only, from the same scene) and its labels: each tile's
    code, its visible face's box, the box of all of it that shows (face, top and sides), upside down or not, and its
    meld (melds laid on the table, ``table``; −1 on a rack)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    rng = random.Random(seed)
    _settings(samples, threads)
    if style == flat.TABLE:
        placed, centre, extent = build_table_scene(rng, folder, inks, askew)
        camera = place_table_camera(rng, centre, extent)
    else:
        placed, centre, length = build_scene(rng, folder, inks)
        camera = place_camera(rng, style, centre, length, placed)
    mood = light_scene(rng, camera, centre, unseen_light)
    bpy.context.view_layer.update()
    image = None
    if photo:
        settings = bpy.context.scene.render.image_settings
        settings.file_format, settings.color_depth = "OPEN_EXR", "16"
        bpy.context.scene.render.filepath = str(folder / "photo.exr")
        bpy.ops.render.render(write_still=True)
        image = finish(folder / "photo.exr", rng, mood, unseen_light)
        settings.file_format, settings.color_depth = "PNG", "8"
    faces, wholes = label_pass(placed, folder / "ids.png")
    labels = []
    for k, tile in enumerate(placed, start=1):
        seen = faces == k
        if tile.face_up and int(seen.sum()) >= max(0.6 * face_area(tile, camera), 30):
            labels.append((tile.tile, _bounds(seen), _bounds(wholes == k), tile.upside_down, tile.meld))
    return image, labels


def _bounds(mask: np.ndarray) -> tuple[float, float, float, float]:
    """The box (x1, y1, x2, y2) around a mask's pixels."""
    ys, xs = np.nonzero(mask)
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=9801)
    parser.add_argument("--style", choices=(*STYLES, flat.TABLE), required=True,
                        help="a rack seen tilted, front or rotated; or 'table': melds laid face up on the table, as an "
                             "Okey 101 opening (the labels give each tile's meld)")
    parser.add_argument("--start", type=int, default=0, help="first photo index (to render a set in parts)")
    parser.add_argument("--samples", type=int, default=24, help="path-tracing samples a pixel (denoised)")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0: all)")
    parser.add_argument("--set-inks", action="store_true",
                        help="each colour printed with one ink across the rack, as in a real set (default: each tile's "
                             "ink drawn from every set's spread, as the sets up to the thirty-sixth round were)")
    parser.add_argument("--unseen-fonts", action="store_true",
                        help="draw the numerals only in bold faces the training pool never saw (render_racks.UNSEEN_FONTS): "
                             "a 3-D dev set for a tile set whose numerals were never learnt")
    parser.add_argument("--heavy-fonts", action="store_true",
                        help="draw the numerals only in black, extra-bold and condensed faces the training pool never "
                             "saw (render_racks.HEAVY_FONTS): a 3-D dev set for a set's heavy numerals")
    parser.add_argument("--more-shapes", action="store_true",
                        help="add numeral shapes the pool lacks to it (render_racks.SHAPE_FONTS: slab, old-style, "
                             "monospaced): for training racks, never a dev set's")
    parser.add_argument("--unseen-light", action="store_true",
                        help="lights and a phone's processing no training rack had: a fluorescent tube, a window's "
                             "daylight, two lamps of two colours; a hand's shake, sharpening halos (a 3-D dev set)")
    parser.add_argument("--askew", action="store_true",
                        help="with --style table: each line of melds laid at its own turn, as players round a table "
                             "lay them")
    parser.add_argument("--labels-only", action="store_true",
                        help="write labels.csv again for photos already rendered (the same scenes, no photo render)")
    args = parser.parse_args()
    if args.askew and args.style != flat.TABLE:
        parser.error("--askew lays melds on the table: give it with --style table")
    if sum((args.unseen_fonts, args.heavy_fonts, args.more_shapes)) > 1:
        parser.error(flat.POOLS_CLASH)
    missing = flat.missing_fonts(args.unseen_fonts, args.heavy_fonts, args.more_shapes)
    if missing:
        parser.error(f"{len(missing)} font faces are missing: install them "
                     f"(apt-get install {flat.font_packages(args.heavy_fonts, args.more_shapes)})")
    flat.use_pool(args.unseen_fonts, args.heavy_fonts, args.more_shapes)
    names = [f"rack_{number:04d}.jpg" for number in range(args.start, args.start + args.count)]
    unrendered = [name for name in names if not (args.out / name).is_file()]
    if args.labels_only and unrendered:
        parser.error(f"--labels-only: {args.out / unrendered[0]} is not there ({len(unrendered)} of {len(names)} photos "
                     "missing): render the photos first, with the same --seed, --style, --start and --count")
    args.out.mkdir(parents=True, exist_ok=True)
    labels = args.out / "labels.csv"
    mode = "a" if args.start and labels.exists() else "w"
    table = args.style == flat.TABLE
    header = ["image", "tile", "x1", "y1", "x2", "y2", "upside_down", "style", "whole_x1", "whole_y1", "whole_x2", "whole_y2"]
    header += ["meld"] * table
    with open(labels, mode, newline="") as handle, tempfile.TemporaryDirectory() as scratch:
        writer = csv.writer(handle)
        if mode == "w":
            writer.writerow(header)
        for number, name in zip(range(args.start, args.start + args.count), names):
            folder = Path(scratch) / f"{number}"
            folder.mkdir()
            image, tiles = render_photo(args.seed * 100_003 + number, args.style, folder, args.samples, args.threads,
                                        photo=not args.labels_only, inks=args.set_inks,
                                        unseen_light=args.unseen_light, askew=args.askew)
            if image is not None:
                cv2.imwrite(str(args.out / name), image)
            for tile, box, whole, upside, meld in tiles:
                writer.writerow([name, tile, *(round(v, 1) for v in box), int(upside), args.style,
                                 *(round(v, 1) for v in whole)] + [meld] * table)
            handle.flush()
            print(f"{name}: {len(tiles)} tiles", flush=True)


if __name__ == "__main__":
    main()
