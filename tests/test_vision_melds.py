"""Melds laid on the table, photographed (issue 10, H4): the photo's tiles split into melds as a player laid them
(``vision.melds``), for the opening checker and the Rummikub turn referee.

Two rendered photos (``tests/data/vision/table_*.jpg``, ``table.csv``: each tile's meld) are read by the shipped
recogniser end to end; the rest lays tiles out by hand: turned any way, seen at a slant (far tiles smaller), with
gaps a little wider or narrower than a tile's step.
"""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from vision.melds import LONGEST, looks_like_meld, photo_melds

DATA = Path(__file__).parent / "data" / "vision"
W, H = 30.0, 42.0  # a tile's face, upright


def _laid(lines: list[list[tuple[str, float]]], turn: float = 0.0, far: float = 1.0, line_gap: float = 0.4
          ) -> tuple[list[tuple[float, float, float, float]], list[str]]:
    """Boxes and codes of tiles laid in ``lines``: each a list of (code, step before it in tile widths: 1 touching,
    0 the line's first); the layout turned by ``turn`` degrees and, with ``far`` < 1, each line smaller than the one
    before by that factor (seen at a slant, the far lines first).  Boxes are the turned tiles' upright boxes."""
    boxes, codes = [], []
    y, scale = 0.0, far ** (len(lines) - 1)
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    for line in lines:
        x = 0.0
        for code, step in line:
            x += step * W * scale
            corners = np.array([[x, y], [x + W * scale, y], [x + W * scale, y + H * scale], [x, y + H * scale]])
            turned = corners @ np.array([[c, s], [-s, c]])
            boxes.append((*turned.min(0), *turned.max(0)))
            codes.append(code)
        y += (1 + line_gap) * H * scale
        scale /= far
    return [tuple(float(v) for v in box) for box in boxes], codes  # type: ignore[misc]


def _melds(boxes: list[tuple[float, float, float, float]], codes: list[str]) -> list[list[str]]:
    """The melds as ``photo_melds`` gives them, each its codes in order."""
    melds: dict[int, dict[int, str]] = defaultdict(dict)
    for code, (meld, place) in zip(codes, photo_melds(boxes, codes)):
        melds[meld][place] = code
    return [[m[p] for p in sorted(m)] for _, m in sorted(melds.items())]


def _line(*melds: str, gap: float = 1.6) -> list[tuple[str, float]]:
    """A line of melds, tiles touching, ``gap`` tile widths from the start of one meld's last tile to the next's."""
    out: list[tuple[str, float]] = []
    for meld in melds:
        for k, code in enumerate(meld.split()):
            out.append((code, 0.0 if not out else 1.0 if k else gap))
    return out


OPENING = [_line("R1 R2 R3", "K7 Y7 B7"), _line("B4 B5 B6 B7", "Y13 K13 R13")]
MELDS = [["R1", "R2", "R3"], ["K7", "Y7", "B7"], ["B4", "B5", "B6", "B7"], ["Y13", "K13", "R13"]]


@pytest.mark.parametrize("turn", [0, 12, 30, 60, 90, 135, -70])
def test_H4_melds_come_apart_whatever_the_photo_s_turn(turn: float) -> None:
    boxes, codes = _laid(OPENING, turn=turn)
    got = _melds(boxes, codes)
    assert sorted(map(tuple, (sorted(m) for m in got))) == sorted(map(tuple, (sorted(m) for m in MELDS)))
    for meld in got:  # each meld in laid order, one way or the other
        assert any(meld in (want, want[::-1]) for want in MELDS), meld


def test_H4_a_photo_upright_reads_line_by_line_left_to_right() -> None:
    boxes, codes = _laid(OPENING)
    assert _melds(boxes, codes) == MELDS


def test_H4_far_tiles_smaller_than_near_ones_split_alike() -> None:
    """Seen at a slant, the far line's tiles are half as large as the near line's: a gap between two far melds is
    narrower in pixels than a touching step of the near line, and still a gap."""
    lines = [_line("R1 R2 R3", "K7 Y7 B7", gap=1.5), _line("B4 B5 B6", "Y9 Y10 Y11", gap=1.5),
             _line("K1 K2 K3 K4", "R5 Y5 B5", gap=1.5)]
    boxes, codes = _laid(lines, far=0.7)
    assert _melds(boxes, codes) == [["R1", "R2", "R3"], ["K7", "Y7", "B7"], ["B4", "B5", "B6"], ["Y9", "Y10", "Y11"],
                                    ["K1", "K2", "K3", "K4"], ["R5", "Y5", "B5"]]


def test_H4_a_narrow_gap_is_read_from_the_melds_the_codes_make() -> None:
    """Steps a little wider than touching (a fifth of a tile, where a box a little off its tile puts one too) and a
    little narrower than a clear gap (two fifths): between tiles that cannot be one meld, the narrow one parts two
    melds; inside what reads as one run, the wide one keeps it one where one part alone would be no meld."""
    boxes, codes = _laid([[("K3", 0), ("K4", 1), ("K5", 1), ("R7", 1.2), ("R8", 1), ("R9", 1)]])
    assert _melds(boxes, codes) == [["K3", "K4", "K5"], ["R7", "R8", "R9"]]
    boxes, codes = _laid([[("K3", 0), ("K4", 1), ("K5", 1), ("K6", 1), ("K7", 1.4), ("K8", 1)]])
    assert _melds(boxes, codes) == [["K3", "K4", "K5", "K6", "K7", "K8"]]
    # Where both parts would be melds as well, the geometry has its way: two runs.
    boxes, codes = _laid([[("K3", 0), ("K4", 1), ("K5", 1), ("K6", 1.4), ("K7", 1), ("K8", 1)]])
    assert _melds(boxes, codes) == [["K3", "K4", "K5"], ["K6", "K7", "K8"]]


def test_H4_the_okey_standing_in_a_meld_counts_as_a_wild_where_the_codes_decide() -> None:
    """Y7 Y8 and the okey R5 (as Y9) Y10, then a fifth of a tile too far for touching, B2 K2 Y2: with the indicator
    known (R4), the run looks legal and the melds part; without it, the run looks like no meld and nothing says to."""
    line = [("Y7", 0), ("Y8", 1), ("R5", 1), ("Y10", 1), ("B2", 1.2), ("K2", 1), ("Y2", 1)]
    boxes, codes = _laid([line])
    parts = photo_melds(boxes, codes, okey="R5")
    assert [meld for meld, _ in parts] == [0, 0, 0, 0, 1, 1, 1]
    assert len({meld for meld, _ in photo_melds(boxes, codes)}) == 1


def test_H4_a_clear_gap_or_touching_tiles_outweigh_the_codes() -> None:
    """Two runs that would make one, laid a whole tile apart, stay two; tiles that touch stay one meld though they
    make none (a tile read wrong, an okey standing in): the page shows the melds as laid, and the referee judges."""
    boxes, codes = _laid([_line("R1 R2 R3", "R4 R5 R6", gap=2.0)])
    assert _melds(boxes, codes) == [["R1", "R2", "R3"], ["R4", "R5", "R6"]]
    boxes, codes = _laid([_line("R1 R2 K9 Y3")])
    assert _melds(boxes, codes) == [["R1", "R2", "K9", "Y3"]]


def test_H4_a_tile_apart_is_a_meld_of_its_own_and_no_meld_is_longer_than_a_run() -> None:
    boxes, codes = _laid([_line("R1 R2 R3", "K9", gap=3.0)])
    assert _melds(boxes, codes) == [["R1", "R2", "R3"], ["K9"]]
    row = " ".join(f"{'RYBK'[k % 4]}{k % 13 + 1}" for k in range(20))
    boxes, codes = _laid([_line(row)])
    assert all(len(meld) <= LONGEST for meld in _melds(boxes, codes))
    assert sum(map(len, _melds(boxes, codes))) == 20


@pytest.mark.parametrize("turn", [35, 50, 75, 90, -60])
def test_H4_a_meld_laid_askew_of_the_others_is_chained_along_its_own_rows(turn: float) -> None:
    """Players round a table lay their melds each their own way: beside the two lines of the opening, a run laid
    turned ``turn`` degrees from them is one meld, not five tiles apart or three and two (its own rows' direction,
    taken from the tiles the first chains left out of every meld that looks legal, and from a meld whose ends run
    askew of the rows)."""
    boxes, codes = _laid(OPENING)
    run, run_codes = _laid([_line("Y9 Y10 Y11 Y12 Y13")], turn=turn)
    boxes += [(x1 + 420, y1 + 60, x2 + 420, y2 + 60) for x1, y1, x2, y2 in run]
    got = _melds(boxes, codes + run_codes)
    assert sorted(map(sorted, got)) == sorted(map(sorted, MELDS + [["Y9", "Y10", "Y11", "Y12", "Y13"]]))
    assert ["Y9", "Y10", "Y11", "Y12", "Y13"] in (got + [m[::-1] for m in got])


def test_H4_tiles_left_out_that_make_no_meld_along_their_own_rows_stay_as_they_were() -> None:
    """Two lines of melds and, askew of them, three tiles that make no meld whichever way: they stay apart as the
    first chains left them, and a box twice on one tile does not become a pair."""
    boxes, codes = _laid(OPENING)
    loose, loose_codes = _laid([_line("K2 R9 B5")], turn=70)
    boxes += [(x1 + 420, y1, x2 + 420, y2) for x1, y1, x2, y2 in loose] + [boxes[0]]
    got = _melds(boxes, codes + loose_codes + ["R1"])
    assert sorted(map(sorted, got)) == sorted(map(sorted, [m for m in MELDS if m != ["R1", "R2", "R3"]]
                                                  + [["R1", "R1", "R2", "R3"], ["K2"], ["R9"], ["B5"]]))


def test_photo_melds_wants_one_code_a_box() -> None:
    import warnings

    assert photo_melds([], []) == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # two boxes on one spot (the detector's two looks at a tile): no step of 0
        assert photo_melds([(0, 0, 10, 14), (0, 0, 10, 14)], ["R1", "J"]) == [(0, 0), (0, 1)]
    with pytest.raises(ValueError, match="2 boxes and 1 codes"):
        photo_melds([(0, 0, 1, 1), (1, 0, 2, 1)], ["R1"])


@pytest.mark.parametrize("codes, legal", [
    ("R3 R4 R5", True), ("R5 R4 R3", True), ("R12 R13 R1", False), ("R1 J R3", True), ("J J R9", True),
    ("K7 Y7 B7 R7", True), ("K7 Y7 B7 R7 K7", False), ("K7 K7 B7", False), ("R3 R4 K5", False),
    ("B2 B2", True), ("B2 F", True), ("B2 B3", False), ("R1", False), ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", True),
])
def test_looks_like_meld(codes: str, legal: bool) -> None:
    assert looks_like_meld(codes.split()) is legal


def _table_photos() -> dict[str, list[tuple[str, int]]]:
    tiles: dict[str, list[tuple[str, int]]] = defaultdict(list)
    with open(DATA / "table.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            tiles[row["image"]].append((row["tile"], int(row["meld"])))
    return tiles


@pytest.mark.parametrize("name", sorted(_table_photos()))
def test_H4_a_photo_of_the_laid_melds_is_read_meld_by_meld(name: str) -> None:
    """``table_near_gaps.jpg``: four melds in two lines, two a third of a tile from the next (the codes part them);
    ``table_turned.jpg``: six melds, the photo turned about 60° (``scripts/render_racks.py --style table --seed 9601``,
    photos 23 and 57)."""
    from vision import Recognizer

    truth: dict[int, list[str]] = defaultdict(list)
    for code, meld in _table_photos()[name]:
        truth[meld].append(code)
    recognition = Recognizer.default().recognize(DATA / name)
    assert not any(tile.low_confidence for tile in recognition.tiles)
    codes = [tile.tile for tile in recognition.tiles]
    got = _melds([tuple(float(v) for v in tile.box) for tile in recognition.tiles], codes)  # type: ignore[misc]
    assert sorted(got) == sorted(truth.values())


def test_H4_a_real_table_s_run_laid_askew_is_one_meld() -> None:
    """``real_table_askew.jpg``: six Rummikub melds on a real table (a held-out photo of the "rummikub-nvypk" set),
    five laid about 18° from level and a yellow run Y9-Y13 at about 45°.  Split by one rows' direction, the run came
    apart in three or four pieces."""
    from vision import Recognizer

    recognition = Recognizer.default().recognize(DATA / "real_table_askew.jpg")
    codes = [tile.tile for tile in recognition.tiles]
    got = _melds([tuple(float(v) for v in tile.box) for tile in recognition.tiles], codes)  # type: ignore[misc]
    assert sorted(map(sorted, got)) == sorted(map(sorted, [
        "Y9 Y10 Y11 Y12 Y13".split(), "R11 R12 R13".split(), "K2 B2 J".split(), "R4 Y4 K4".split(),
        "K6 K7 K8 K9 K10".split(), "B6 B7 B8".split()]))


def test_the_table_renderer_labels_each_tile_s_meld(tmp_path: Path) -> None:
    """``scripts/render_racks.py --style table`` writes a ``meld`` column; the other styles do not (their racks stay as
    every seed drew them).  The renderer draws with Pillow (the ``train`` extra): skipped without it."""
    import subprocess
    import sys

    pytest.importorskip("PIL")
    scripts = Path(__file__).resolve().parent.parent / "scripts"
    table, rack = tmp_path / "table", tmp_path / "rack"
    for out, style in ((table, "table"), (rack, "tilted")):
        subprocess.run([sys.executable, str(scripts / "render_racks.py"), "--out", str(out), "--count", "2", "--seed",
                        "9601", "--style", style, "--any-fonts"], check=True, timeout=120)
    with open(table / "labels.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(row["style"] == "table" and row["meld"].isdigit() for row in rows)
    with open(rack / "labels.csv", newline="") as handle:
        assert "meld" not in (csv.DictReader(handle).fieldnames or ())
    askew = tmp_path / "askew"
    subprocess.run([sys.executable, str(scripts / "render_racks.py"), "--out", str(askew), "--count", "2", "--seed",
                    "9603", "--style", "table", "--askew", "--any-fonts"], check=True, timeout=120)
    with open(askew / "labels.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(row["style"] == "table" and row["meld"].isdigit() for row in rows)
    refused = subprocess.run([sys.executable, str(scripts / "render_racks.py"), "--out", str(tmp_path / "no"),
                              "--askew", "--any-fonts"], capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "give it with --style table" in refused.stderr


def test_eval_melds_reads_labelled_melds_and_refuses_a_folder_without_them(tmp_path: Path) -> None:
    """``scripts/eval_melds.py`` on the two rendered photos of tests/data/vision (labelled as the renderer labels them):
    every meld split right; a folder whose labels give no meld, or with no labels at all, is refused in one line."""
    import shutil
    import subprocess
    import sys

    scripts = Path(__file__).resolve().parent.parent / "scripts"
    folder, rack = tmp_path / "table", tmp_path / "rack"
    folder.mkdir()
    rack.mkdir()
    with open(DATA / "table.csv", newline="") as handle, open(folder / "labels.csv", "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["image", "tile", "x1", "y1", "x2", "y2", "upside_down", "style", "meld"])
        for row in csv.DictReader(handle):
            writer.writerow([row["image"], row["tile"], row["x1"], row["y1"], row["x2"], row["y2"], 0, "table", row["meld"]])
    for name in _table_photos():
        shutil.copy(DATA / name, folder / name)
    (rack / "labels.csv").write_text("image,tile,x1,y1,x2,y2\n")
    run = subprocess.run([sys.executable, str(scripts / "eval_melds.py"), str(folder)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert "| photos / tiles / melds | 2 / 35 / 10 |" in run.stdout
    assert "| melds split right (every tile found, none added) | 100.0 % (10 / 10) |" in run.stdout
    refused = subprocess.run([sys.executable, str(scripts / "eval_melds.py"), str(rack)], capture_output=True,
                             text=True, timeout=300)
    assert refused.returncode != 0 and "no meld column" in refused.stderr and "Traceback" not in refused.stderr
    empty = subprocess.run([sys.executable, str(scripts / "eval_melds.py"), str(tmp_path / "nothing")],
                           capture_output=True, text=True, timeout=300)
    assert empty.returncode != 0 and "no labels.csv there" in empty.stderr and "Traceback" not in empty.stderr
