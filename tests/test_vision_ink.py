"""The ink-colour look (issue 10: "blue is read as black, orange and red as black in dim light"): the
ink measured against the tile's own face, fused with the classifier's colour, every change flagged;
and boxes set aside unread (mostly outside the photo, face down) instead of guessed at.

Photos: tests/data/vision (rendered racks, seed 9101; real Rummikub photos, CC BY 4.0, see README there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import DetectedTile, Recognizer
from vision.ink import (BLUER_FLAG, BLUER_SWITCH, INK_MODEL, NEAR_BLUES, YELLOWER_FLAG, YELLOWER_FROM, InkColour,
                        bluer_than_black, face_patches, fuse_colour, ink_features, ink_hues, loose_frames, near_the_blues,
                        yellower_than_red)
from vision.ink import (BRIGHTNESS_APART, DARK_AS_BLACK, DARK_AS_RED, DARKER_THAN_YELLOWS, GROUP_AMONG, GROUPS_APART,
                        HALF_WAY_IN_BRIGHTNESS, PART_WAY_IN_HUE, REDDER_THAN_YELLOWS, TOWARDS_BLUE, TOWARDS_YELLOW,
                        among_the_yellows, as_dark_as_the_blacks, as_dark_as_the_reds, brighter_towards_the_yellows,
                        ink_brightness, towards_the_blues, towards_the_yellows)
from vision.numerals import tile_frames
from vision.postprocess import COLOURS, KINDS, box_iou
from vision.recognizer import (CUT_WARNING, FACE_DOWN_WARNING, IN_FRAME, MODELS_DIR, UNREADABLE_WARNING, _drop_twins,
                               _in_frame, _set_aside)
from vision_labels import DATA, earlier_classifier, on_found_tiles, tile_boxes
needs_ink = pytest.mark.skipif(not (MODELS_DIR / INK_MODEL).is_file(), reason="models/ink_colour.json is missing")


LABELS = {**tile_boxes("labels.csv"), **tile_boxes("racks.csv")}
PHOTOS = ["real_table_16.jpg", "real_table_17.jpg", "real_table_8.jpg", "real_rack_6.jpg", "rack_front.jpg",
          "rack_tilted_dim.jpg", "synthetic_mixed.jpg"]


def _ink_reading(pixels: np.ndarray, image: str) -> list[tuple[str, np.ndarray]]:
    tiles = [(tile, box) for tile, box in LABELS[image] if tile[0] in COLOURS]
    boxes = np.array([box for _, box in tiles], np.float32)
    model = InkColour(MODELS_DIR / INK_MODEL)
    features = [ink_features(patch) for patch in face_patches(pixels, boxes, tile_frames(boxes))]
    return list(zip([tile for tile, _ in tiles], model.probabilities(features)))


@needs_ink
@pytest.mark.parametrize("image", PHOTOS)
def test_the_ink_tells_the_colours_apart(image: str) -> None:
    """On the labelled boxes of real and rendered photos the ink alone reads nearly every colour right,
    and a colour it is sure of (≥ 0.9) is right."""
    read = _ink_reading(cv2.imread(str(DATA / image)), image)
    measured = [(tile, p) for tile, p in read if np.isfinite(p).all()]
    right = [tile[0] == COLOURS[int(np.argmax(p))] for tile, p in measured]
    assert len(measured) >= 0.9 * len(read) and sum(right) >= 0.9 * len(measured), read
    assert all(ok for ok, (_, p) in zip(right, measured) if p.max() >= 0.9), read


@needs_ink
@pytest.mark.parametrize("cast", [(0.55, 0.8, 1.15), (1.2, 1.0, 0.7), (0.45, 0.45, 0.45)],
                         ids=["warm-lamp", "cool-light", "dim"])
def test_the_lights_colour_cancels(cast: tuple[float, float, float]) -> None:
    """A warm lamp, cool light or a dim room (the photo's channels scaled, BGR) changes the face and the ink
    alike, so the ink's colours stay what they were on nearly every tile."""
    image = "real_table_16.jpg"
    pixels = cv2.imread(str(DATA / image))
    tinted = np.clip(pixels.astype(np.float32) * np.array(cast, np.float32), 0, 255).astype(np.uint8)
    before = [int(np.argmax(p)) for _, p in _ink_reading(pixels, image)]
    after = [int(np.argmax(p)) for _, p in _ink_reading(tinted, image)]
    assert sum(a == b for a, b in zip(before, after)) >= 0.9 * len(before), (before, after)


def test_ink_features_of_a_blank_face_and_of_each_ink() -> None:
    """No ink on a plain face (a face-down tile); red, yellow-orange, blue and black ink on ivory give
    the log-ratios the model relies on, whatever the face's own tint."""
    for face in [(200, 230, 240), (150, 190, 235)]:  # ivory, and ivory under a warm lamp (BGR)
        assert ink_features(np.full((24, 24, 3), face, np.uint8)) is None
        inks = {"R": (40, 40, 200), "Y": (20, 140, 230), "B": (170, 110, 20), "K": (30, 30, 30)}
        features = {}
        for colour, ink in inks.items():
            patch = np.full((24, 24, 3), face, np.uint8)
            patch[6:18, 8:16] = np.array(ink) * np.array(face) / 240
            features[colour] = ink_features(patch)
        assert features["B"][2] < features["K"][2] < features["Y"][2] and features["K"][2] < features["R"][2]
        assert features["Y"][0] < features["R"][0]  # orange keeps more green than red does
        assert abs(features["K"][2]) < 0.3 and features["K"][3] < features["R"][3]


@pytest.mark.parametrize("degrees", [0, 20, 45, 70, 110])
def test_a_loose_tile_is_measured_in_its_own_outline(degrees: float) -> None:
    """A loose tile at any angle: its frame comes from its outline (centre, sides, angle), so the patch
    lies inside its face — a face-down (blank) tile shows no ink even turned 45°, where the middle of
    its box would take in the felt; a tile with a red numeral shows red ink."""
    felt = np.full((200, 200, 3), (40, 90, 30), np.uint8)
    rect = ((100.0, 100.0), (40.0, 56.0), float(degrees))
    corners = cv2.boxPoints(rect).astype(np.int32)
    blank = felt.copy()
    cv2.fillConvexPoly(blank, corners, (200, 230, 240))
    x, y, w, h = cv2.boundingRect(corners)
    boxes = np.array([[x, y, x + w, y + h]], np.float32)
    frames = loose_frames(blank, boxes, np.full((1, 5), np.nan, np.float32))
    cx, cy, angle, width, height = frames[0]
    assert abs(cx - 100) < 3 and abs(cy - 100) < 3 and abs(width - 40) < 4 and abs(height - 56) < 4
    assert ink_features(face_patches(blank, boxes, frames)[0]) is None
    numbered = blank.copy()
    cv2.circle(numbered, (100, 100), 9, (40, 40, 200), -1)
    features = ink_features(face_patches(numbered, boxes, frames)[0])
    assert features is not None and features[0] > 0.5 and features[2] > 0.5  # red: R above G and B


@pytest.mark.parametrize("seed", range(200))
def test_fusion_flags_every_change_of_colour(seed: int) -> None:
    """Whatever the two looks say, the colour used differs from the classifier's only with a flag, an
    ink sure of another colour always flags, and no ink measured changes nothing."""
    rng = np.random.default_rng(seed)
    classifier, ink = rng.dirichlet(np.ones(4) * 0.5), rng.dirichlet(np.ones(4) * 0.5)
    fused, flag = fuse_colour(classifier, ink)
    assert abs(fused.sum() - 1) < 1e-9
    if int(np.argmax(fused)) != int(np.argmax(classifier)) or (ink.max() >= 0.9 and np.argmax(ink) != np.argmax(classifier)):
        assert flag
    if int(np.argmax(ink)) == int(np.argmax(classifier)):
        assert not flag and fused.max() >= classifier.max()
    unchanged, no_flag = fuse_colour(classifier, np.full(4, np.nan))
    assert unchanged is classifier and not no_flag


def test_a_colour_the_ink_alone_would_move_is_offered_as_the_classifier_reads_it_flagged() -> None:
    """Where the ink's look moves a tile's likeliest colour away from the classifier's, the tile is flagged and offered
    in the classifier's colour (on the 3-D racks the classifier was right on 25 such tiles of 36, the two looks' product
    on 9); where they agree the product makes it surer; with no ink measured the classifier's stands."""
    kinds = np.zeros((3, len(KINDS)))
    kinds[:, KINDS.index("5")] = 1.0
    red, yellow = COLOURS.index("R"), COLOURS.index("Y")
    classifier = np.array([[0.30, 0.60, 0.05, 0.05], [0.90, 0.04, 0.03, 0.03], [0.30, 0.60, 0.05, 0.05]])
    ink = np.array([[0.95, 0.03, 0.01, 0.01], [0.90, 0.05, 0.03, 0.02], [np.nan] * 4])
    assert int(np.argmax(fuse_colour(classifier[0], ink[0])[0])) == red  # the product would read it red
    frames = np.full((3, 5), np.nan)
    (moved, moved_flag), (agreed, agreed_flag), (alone, alone_flag) = Recognizer._fused_colours(
        kinds, classifier, ink, [None] * 3, frames, False)
    assert np.array_equal(moved, classifier[0]) and int(np.argmax(moved)) == yellow and moved_flag
    assert int(np.argmax(agreed)) == red and agreed[red] > classifier[1, red] and not agreed_flag
    assert np.array_equal(alone, classifier[2]) and not alone_flag


class _ContraryInk(Recognizer):
    """Its ink is sure of the colour after the classifier's on every tile."""

    def read_tiles(self, pixels: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> tuple[DetectedTile, ...]:
        original = self.classify

        def classify(crops: np.ndarray, classifier: object = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            kinds, colours, upsides = original(crops, classifier)
            if classifier is None:  # the first classifier's colours (the second's look is held to the same ink)
                self._contrary = np.eye(4)[(np.argmax(colours, 1) + 1) % 4] * 0.97 + 0.01
            return kinds, colours, upsides

        class Sure:
            colours = COLOURS

            def probabilities(inner, features: list[np.ndarray | None]) -> np.ndarray:
                return self._contrary

        self.classify, self._ink = classify, Sure()  # type: ignore[method-assign, assignment]
        return super().read_tiles(pixels, boxes, scores)


@needs_ink
def test_a_contrary_ink_flags_every_numbered_tile() -> None:
    pixels = cv2.imread(str(DATA / "rack_front.jpg"))
    plain = Recognizer(check_ink=False)
    boxes, scores = plain.find_tiles(pixels)
    before, after = plain.read_tiles(pixels, boxes, scores), _ContraryInk().read_tiles(pixels, boxes, scores)
    assert [t.box for t in after] == [t.box for t in before]
    for old, new in zip(before, after):
        if old.tile in ("F", "J"):
            assert new.tile == old.tile
            continue
        assert new.low_confidence and new.tile[1:] == old.tile[1:], (old, new)


def _tile(box: tuple[int, int, int, int], confidence: float, *warnings: str, tile: str = "K1",
          flagged: bool = True) -> DetectedTile:
    return DetectedTile(tile, box, confidence, flagged, False, warnings)


def test_only_unreadable_boxes_mostly_outside_or_face_down_are_set_aside() -> None:
    row = [_tile((x, 100, x + 40, 160), 0.9) for x in range(0, 400, 40)]
    cut_small = _tile((0, 100, 15, 160), 0.2, CUT_WARNING, UNREADABLE_WARNING)        # a sliver of a tile
    cut_big = _tile((0, 100, 35, 160), 0.2, CUT_WARNING, UNREADABLE_WARNING)          # most of it is in
    cut_sure = _tile((0, 100, 15, 160), 0.8, CUT_WARNING)                             # read surely: kept
    face_down = _tile((300, 300, 340, 360), 0.05, UNREADABLE_WARNING, FACE_DOWN_WARNING)
    faint = _tile((300, 300, 340, 360), 0.3, UNREADABLE_WARNING, FACE_DOWN_WARNING)   # a faint real tile
    back = _tile((300, 300, 340, 360), 0.3, UNREADABLE_WARNING, FACE_DOWN_WARNING, tile="F")  # a plain back as F
    tiles = tuple(row) + (cut_small, cut_big, cut_sure, face_down, faint, back)
    aside = [_set_aside(t, share < IN_FRAME) for t, share in zip(tiles, _in_frame(tiles))]
    assert aside == [False] * len(row) + [True, False, False, True, False, True]


def test_a_tile_found_twice_is_one_tile_but_a_pair_side_by_side_stays_two() -> None:
    """Two boxes read as the same tile a fraction of a tile apart are one tile found twice (the surer box
    stays); the two copies of a tile standing side by side on a rack (a pair, çift) are two tiles."""
    row = [_tile((x, 100, x + 40, 160), 0.9, tile=f"R{n}") for n, x in enumerate(range(0, 280, 40), 1)]
    pair = row + [_tile((280, 100, 320, 160), 0.9, tile="B5"), _tile((320, 100, 360, 160), 0.8, tile="B5")]
    assert _drop_twins(tuple(pair)) == tuple(pair)
    twin = _tile((42, 102, 82, 162), 0.6, tile="R2")  # R2 found again, 2 px off
    kept = _drop_twins(tuple(row + [twin]))
    assert kept == tuple(row)
    inside = _tile((42, 102, 82, 162), 0.75, tile="R9", flagged=False)  # a sure box inside R2's: R2 again
    assert _drop_twins(tuple(row + [inside])) == tuple(row)
    swollen = _tile((28, 86, 92, 174), 0.75, tile="R9", flagged=False)  # a sure box over R2 and beyond: kept
    assert _drop_twins(tuple(row + [swollen])) == tuple(row + [swollen])
    half = _tile((52, 100, 80, 160), 0.6, tile="R12")  # a flagged box on half of R2 and the gap: the same tile
    assert _drop_twins(tuple(row + [half])) == tuple(row)
    beside = _tile((282, 100, 322, 160), 0.6, tile="R12")  # a flagged tile a width on from R7: a tile of its own
    assert len(_drop_twins(tuple(row + [beside]))) == len(row) + 1
    loose = (_tile((500, 500, 540, 560), 0.5, tile="Y7"), _tile((505, 503, 545, 563), 0.7, tile="Y7"),
             _tile((560, 500, 600, 560), 0.7, tile="Y7"))  # a twin, and a second Y7 beside them
    assert _drop_twins(loose) == loose[1:]


def test_two_boxes_read_sure_in_two_colours_are_two_tiles_even_half_inside_each_other() -> None:
    """On a rack turned 60° the two tiers' tiles can stand so close in the photo that one's box lies half inside the
    other's (measured on the 3-D renders: a B6 in front of an R4, both read sure, the B6 dropped).  A sure box half
    inside another read in the same colour is that tile again (a half box: an R12's 2), as before."""
    row = [_tile((x, 100, x + 40, 160), 0.9, tile=f"K{n}", flagged=False) for n, x in enumerate(range(0, 280, 40), 1)]
    back = _tile((282, 100, 322, 160), 0.99, tile="R4", flagged=False)
    front = _tile((284, 104, 320, 158), 0.97, tile="B6", flagged=False)  # inside R4's box, read sure in blue
    assert _drop_twins(tuple(row + [back, front])) == tuple(row + [back, front])
    again = replace(front, tile="R2")  # read sure in red: R4 found again
    assert _drop_twins(tuple(row + [back, again])) == tuple(row + [back])
    unsure = replace(front, low_confidence=True)  # flagged: the same tile, whatever it reads
    assert _drop_twins(tuple(row + [back, unsure])) == tuple(row + [back])


def _turned_row(degrees: float, across: float = 0.0, first: int = 1, top: float = 100.0) -> list[DetectedTile]:
    """Seven 60 px boxes of a rack row turned ``degrees``, tiles 50 px apart along it (R1 … R7 from ``first``),
    shifted ``across`` px across it (the other tier)."""
    angle = np.radians(degrees)
    along, side = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    centres = [np.array([100.0, top]) + 50 * k * along + across * side for k in range(7)]
    return [_tile((int(x - 30), int(y - 30), int(x + 30), int(y + 30)), 0.9, tile=f"R{first + k}", flagged=False)
            for k, (x, y) in enumerate(centres)]


def test_a_tile_found_again_across_a_turned_row_is_one_tile() -> None:
    """On a rack turned 40°, a second box on a tile lies shifted across the row by about half a tile (further
    than half a tile from the first, and outside the row): it is that tile again.  The same tile a tier lower
    (1.3 tiles across) and the same tile beside it in the row (a pair) are tiles of their own."""
    row = _turned_row(40)
    angle = np.radians(40)
    x, y = np.array([100.0, 100.0]) + 50 * 2 * np.array([np.cos(angle), np.sin(angle)]) + \
        0.55 * 50 * np.array([-np.sin(angle), np.cos(angle)])
    again = _tile((int(x - 30), int(y - 30), int(x + 30), int(y + 30)), 0.7, tile="R3", flagged=False)
    assert _drop_twins(tuple(row + [again])) == tuple(row)
    lower = _turned_row(40, across=65, first=3)  # R3 … R9 a tier lower: R3 under R3's neighbour, R4 under R4…
    assert _drop_twins(tuple(row + lower)) == tuple(row + lower)
    pair = _turned_row(40)
    pair[3] = replace(pair[3], tile="R3")  # R3 R3 side by side
    assert _drop_twins(tuple(pair)) == tuple(pair)


@needs_ink
def test_a_tile_mostly_outside_the_photo_is_set_aside_and_said() -> None:
    """synthetic_mixed.jpg has a sliver of a tile at its edge (not labelled: under 60 % in the frame): it is
    set aside, counted in a warning, and every labelled tile is still found."""
    result = Recognizer.default().recognize(DATA / "synthetic_mixed.jpg")
    truth = np.array([box for _, box in LABELS["synthetic_mixed.jpg"]], np.float32)
    assert result.set_aside and all(box_iou(np.array(t.box, np.float32), truth).max() < 0.5 for t in result.set_aside)
    assert any(w.startswith(f"{len(result.set_aside)} tile(s) set aside unread") for w in result.warnings)
    found = np.array([t.box for t in result.tiles], np.float32)
    assert all(box_iou(box, found).max() >= 0.5 for box in truth)
    assert result.to_dict()["set_aside"][0]["box"] == list(result.set_aside[0].box)


@pytest.mark.parametrize("image", ["real_table_16.jpg", "rack_front.jpg"])
def test_a_black_and_white_photo_never_gives_a_sure_colour(image: str) -> None:
    """A greyscale photo (a monochrome camera, a black-and-white filter) cannot show red from black:
    every numbered tile is flagged and the photo says why; the same photo in colour is read as before."""
    colour = cv2.imread(str(DATA / image))
    ok, grey = cv2.imencode(".jpg", cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
    result = Recognizer.default().recognize(grey.tobytes())
    numbered = [t for t in result.tiles if t.tile not in ("F", "J")]
    assert numbered and all(t.low_confidence and "no colour in the photo" in t.warnings for t in numbered)
    assert any(w.startswith("no colour in the photo") for w in result.warnings)
    in_colour = Recognizer.default().recognize(DATA / image)
    assert not any("no colour in the photo" in t.warnings for t in in_colour.tiles)


def _face(ink_bgr: tuple[int, int, int], light: tuple[float, float, float]) -> np.ndarray:
    """A 24×24 face patch: ivory with a numeral stroke of ``ink_bgr``, both under ``light`` (BGR gains)."""
    patch = np.full((24, 24, 3), (200, 225, 235), np.float64)
    patch[5:19, 9:15] = ink_bgr
    return np.clip(patch * np.array(light), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_blue_greyed_by_the_light_stands_out_from_the_photos_blacks(light: tuple[float, float, float]) -> None:
    """Under one light (neutral, a dim warm lamp, a dim cool room) the black tiles of a photo lie together,
    and a dull blue among them, read black, lies well below them in red to blue."""
    blacks = [_face((45, 45, 45), light), _face((38, 40, 42), light), _face((50, 48, 47), light), _face((42, 44, 40), light)]
    dull_blue = _face((95, 70, 55), light)
    features = [ink_features(patch) for patch in [*blacks, dull_blue]]
    shift = bluer_than_black(features, np.ones(len(features), bool))
    assert np.all(np.abs(shift[:4]) < BLUER_FLAG), shift
    assert shift[4] <= -BLUER_SWITCH, shift


@needs_ink
def test_a_tile_read_black_but_bluer_than_the_blacks_is_flagged_or_read_blue(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recogniser acts on the photo's comparison: a tile read black a little bluer than the others is
    flagged and stays black, one much bluer is read blue (flagged); the rest is unchanged."""
    import vision.recognizer as recognizer_module

    plain = Recognizer().recognize(DATA / "rack_front.jpg")
    blacks = [t for t in plain.tiles if t.tile[0] == "K"]
    assert len(blacks) == 2 and not any(t.low_confidence for t in blacks)

    def compared(features: list[np.ndarray | None], black: np.ndarray) -> np.ndarray:
        shift = np.full(len(features), np.nan)
        first, second = np.flatnonzero(black)[:2]
        shift[first], shift[second] = -(BLUER_SWITCH + 0.1), -(BLUER_FLAG + 0.05)
        return shift

    monkeypatch.setattr(recognizer_module, "bluer_than_black", compared)
    # Two blacks compared are too few to read one blue (BLUER_SWITCH_AMONG): both are flagged, both stay black.
    after = Recognizer().recognize(DATA / "rack_front.jpg")
    changed = [(old, new) for old, new in zip(plain.tiles, after.tiles) if old != new]
    assert len(changed) == 2 and all(new.low_confidence for _, new in changed)
    assert sorted(new.tile for _, new in changed) == ["K1", "K1"]
    # Where enough were compared, the much bluer one is read blue.
    monkeypatch.setattr(recognizer_module, "BLUER_SWITCH_AMONG", 1)
    after = Recognizer().recognize(DATA / "rack_front.jpg")
    changed = [(old, new) for old, new in zip(plain.tiles, after.tiles) if old != new]
    assert len(changed) == 2 and all(new.low_confidence for _, new in changed)
    assert sorted(new.tile for _, new in changed) == ["B1", "K1"]
    assert all(old.box == new.box for old, new in changed)


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_navy_blues_read_black_lie_near_the_photos_blues(light: tuple[float, float, float]) -> None:
    """A rack of many blues and one black: the dark navies the light greys are read black together, so they are
    most of the "blacks" ``bluer_than_black`` compares with and it sees nothing; against the photo's blues read blue
    (a reference that does not depend on what was read black) they lie within ``NEAR_BLUES``, the black well above."""
    blues = [_face((95, 62, 48), light), _face((100, 70, 50), light), _face((90, 60, 50), light)]
    navies = [_face((62, 50, 45), light), _face((60, 48, 44), light), _face((64, 50, 44), light), _face((63, 51, 45), light)]
    features = [ink_features(patch) for patch in [*blues, *navies, _face((45, 45, 45), light)]]
    black = np.array([False] * 3 + [True] * 5)
    assert np.all(np.abs(bluer_than_black(features, black)[3:7]) < BLUER_FLAG)
    gap = near_the_blues(features, black, ~black)
    assert np.all(gap[3:7] < NEAR_BLUES) and gap[7] > NEAR_BLUES + 0.2, gap
    assert np.isnan(gap[:3]).all()


def _first_chosen_at(value: float) -> Callable[..., np.ndarray]:
    """A stand-in for one of the photo's looks (``values``, ``chosen``, then any groups): ``value`` for the first chosen
    tile, NaN for every other."""
    def look(values: Sequence[object], chosen: np.ndarray, *groups: np.ndarray) -> np.ndarray:
        out = np.full(len(values), np.nan)
        out[np.flatnonzero(chosen)[0]] = value
        return out
    return look


def _rack_front_changed(monkeypatch: pytest.MonkeyPatch,
                        **looks: Callable[..., np.ndarray]) -> tuple[tuple[DetectedTile, ...],
                                                                     list[tuple[DetectedTile, DetectedTile]]]:
    """rack_front.jpg read as shipped, then with the recogniser's ``looks`` (names in ``vision.recognizer``) replaced:
    the tiles read first, and the (before, after) pairs of tiles that changed."""
    import vision.recognizer as recognizer_module

    plain = Recognizer().recognize(DATA / "rack_front.jpg").tiles
    for name, look in looks.items():
        monkeypatch.setattr(recognizer_module, name, look)
    after = Recognizer().recognize(DATA / "rack_front.jpg").tiles
    return plain, [(old, new) for old, new in zip(plain, after) if old != new]


@needs_ink
def test_a_tile_read_black_near_the_blues_is_flagged_and_left_black(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recogniser acts on ``near_the_blues``: a tile read black that lies near the photo's blues is flagged, its
    reading unchanged; the other tiles are read as before."""
    plain, changed = _rack_front_changed(monkeypatch, near_the_blues=_first_chosen_at(NEAR_BLUES - 0.05))
    blacks = [t for t in plain if t.tile[0] == "K"]
    assert len(blacks) == 2 and not any(t.low_confidence for t in blacks)
    assert len(changed) == 1
    old, new = changed[0]
    assert new.low_confidence and new.tile == old.tile and new.tile[0] == "K" and new.box == old.box


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_navy_beside_two_blacks_and_one_blue_lies_towards_the_blue(light: tuple[float, float, float]) -> None:
    """A small rack: two blacks, one blue, and a navy the light greys, read black.  Too few blacks for
    ``bluer_than_black`` and blues for ``near_the_blues``; between the other blacks and the blue the navy lies more than
    ``TOWARDS_BLUE`` of the way, each black well back towards the others.  With one other black, or no blue, no share."""
    inks = [(45, 45, 45), (40, 42, 44), (62, 50, 45), (95, 62, 48), (200, 60, 40)]
    features = [ink_features(_face(ink, light)) for ink in inks]
    black, blue = np.array([True, True, True, False, False]), np.array([False, False, False, True, False])
    assert np.isnan(bluer_than_black(features, black)).all() and np.isnan(near_the_blues(features, black, blue)).all()
    share = towards_the_blues(features, black, blue)
    assert share[2] > TOWARDS_BLUE + 0.1 and np.all(share[:2] < 0), share
    assert np.isnan(share[3:]).all()
    assert np.isnan(towards_the_blues(features, black & (np.arange(5) != 0), blue)).all()  # one other black
    assert np.isnan(towards_the_blues(features, black, np.zeros(5, bool))).all()  # no blue


@needs_ink
def test_a_tile_read_black_towards_the_blues_is_flagged_and_left_black(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recogniser acts on ``towards_the_blues``: a tile read black lying over ``TOWARDS_BLUE`` of the way to the
    photo's blues is flagged, its reading unchanged; the other tiles are read as before."""
    plain, changed = _rack_front_changed(monkeypatch, towards_the_blues=_first_chosen_at(TOWARDS_BLUE + 0.05))
    blacks = [t for t in plain if t.tile[0] == "K"]
    assert len(blacks) == 2 and not any(t.low_confidence for t in blacks)
    assert len(changed) == 1
    old, new = changed[0]
    assert new.low_confidence and new.tile == old.tile and new.tile[0] == "K" and new.box == old.box


@needs_ink
def test_a_rack_of_navy_blues_read_black_in_3d_has_no_sure_tile_of_a_wrong_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """rack3d_tilted_navy.jpg (scripts/render_racks_3d.py, tilted, seed 9961, photo 6): eight blues and one black
    standing, dim, on glossy tiles.  The classifier shipped until the twenty-sixth round (``earlier_classifier``) reads
    four dark navies (3, 6, 10, 12) black at 0.79-0.92, and the bluer-than-black check misses them: they are four of
    its five "blacks".  Against the photo's blues they lie near, and each is flagged; the black 9 is not.  (With the shipped
    models and that look taken away, one of them, the 3, is sure black.)"""
    import vision.recognizer as recognizer_module

    truth = tile_boxes("racks3d.csv")["rack3d_tilted_navy.jpg"]
    boxes = np.array([box for _, box in truth], np.float32)

    def read(recognizer: Recognizer) -> tuple[list[tuple[str, str]], list[str]]:
        wrong, blacks = [], []
        for tile in recognizer.recognize(DATA / "rack3d_tilted_navy.jpg").tiles:
            overlap = box_iou(np.array(tile.box, np.float32), boxes)
            best = int(np.argmax(overlap))
            if overlap[best] < 0.5 or tile.low_confidence:
                continue
            if truth[best][0][0] != tile.tile[0]:
                wrong.append((truth[best][0], tile.tile))
            elif tile.tile[0] == "K":
                blacks.append(tile.tile)
        return wrong, blacks

    earlier = Recognizer(earlier_classifier())  # the classifier that read them black
    for recognizer in (Recognizer(), earlier):
        wrong, blacks = read(recognizer)
        assert wrong == [] and "K9" in blacks
    monkeypatch.setattr(recognizer_module, "NEAR_BLUES", -np.inf)
    wrong, _ = read(earlier)
    assert len([w for w in wrong if w[0][0] == "B" and w[1][0] == "K"]) >= 3, wrong


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_greyed_orange_stands_out_from_the_photos_reds_by_its_hue(light: tuple[float, float, float]) -> None:
    """Under one light, with the photo's colours greyed to half their strength (a dim room), the red tiles'
    inks lie in one direction from the blacks and a yellow-orange's well towards yellow from them, though
    both are as faint: the orange is ``YELLOWER_FLAG`` or more from the reds, each red well within it."""
    def greyed(ink_bgr: tuple[int, int, int]) -> np.ndarray:
        patch = _face(ink_bgr, light).astype(np.float32)
        grey = patch.mean(2, keepdims=True)
        return np.clip(grey + (patch - grey) * 0.5, 0, 255).astype(np.uint8)

    reds = [greyed((40, 40, 200)), greyed((50, 35, 190)), greyed((45, 50, 205)), greyed((35, 30, 180))]
    blacks = [greyed((45, 45, 45)), greyed((40, 42, 44))]
    orange = greyed((30, 130, 225))
    features = [ink_features(patch) for patch in [*reds, orange, *blacks]]
    red = np.array([True] * 5 + [False] * 2)
    shift = yellower_than_red(ink_hues(features), red)
    assert np.all(np.abs(shift[:4]) < YELLOWER_FLAG * 0.6), shift
    assert shift[4] >= YELLOWER_FLAG and ink_hues(features)[4] >= YELLOWER_FROM, (shift, ink_hues(features))
    assert np.isnan(shift[5:]).all()


def _faded(image: str, saturation: float) -> np.ndarray:
    pixels = cv2.imread(str(DATA / image)).astype(np.float32)
    grey = pixels.mean(2, keepdims=True)
    return np.clip(grey + (pixels - grey) * saturation, 0, 255).astype(np.uint8)


def _sure_wrong(image: str, tiles: tuple[DetectedTile, ...]) -> list[tuple[str, str]]:
    truth = LABELS[image]
    boxes = np.array([box for _, box in truth], np.float32)
    wrong = []
    for tile in tiles:
        overlap = box_iou(np.array(tile.box, np.float32), boxes)
        best = int(np.argmax(overlap))
        if overlap[best] >= 0.5 and truth[best][0] != tile.tile and not tile.low_confidence:
            wrong.append((truth[best][0], tile.tile))
    return wrong


@needs_ink
def test_a_yellow_orange_the_light_greys_to_red_is_flagged_not_sure(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rendered front rack (check set) read exactly as taken; its colours halved, its Y5 and Y11 are read red.
    Their hue lies well towards yellow from the rack's other reds, so both are flagged for a tap (their reading
    is left as it is) and no tile is sure and wrong; without the comparison both would be sure reds.  Read on the
    boxes the detector of the forty-eighth round found (``found_tiles.csv``): a later one, boxing the faded rack
    otherwise, leaves the reds to be caught."""
    import vision.recognizer as recognizer_module

    image = "rack_front_orange.jpg"
    on_found_tiles(monkeypatch, image, f"{image} faded 0.5")
    as_taken = Recognizer().recognize(DATA / image)
    assert sorted(t.tile for t in as_taken.tiles) == sorted(tile for tile, _ in LABELS[image])
    assert not _sure_wrong(image, as_taken.tiles)
    faint = _faded(image, 0.5)
    read = Recognizer().recognize(faint)
    assert not _sure_wrong(image, read.tiles), _sure_wrong(image, read.tiles)
    yellow = np.array([box for tile, box in LABELS[image] if tile in ("Y5", "Y11")], np.float32)
    on_yellow = [t for t in read.tiles if float(box_iou(np.array(t.box, np.float32), yellow).max()) >= 0.5]
    assert sorted(t.tile for t in on_yellow) == ["R11", "R5"] and all(t.low_confidence for t in on_yellow)

    monkeypatch.setattr(recognizer_module, "yellower_than_red", lambda hues, red: np.full(len(hues), np.nan))
    monkeypatch.setattr(recognizer_module, "FLAG_AGAINST_WARM_GROUPS", False)  # flags both too (fortieth round)
    without = Recognizer().recognize(faint)
    assert sorted(_sure_wrong(image, without.tiles)) == [("Y11", "R11"), ("Y5", "R5")]


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_black_tinted_towards_yellow_is_as_dark_as_the_photos_blacks(light: tuple[float, float, float]) -> None:
    """Under one light the yellow-orange inks lie well above the photo's blacks in brightness, and a black ink tinted
    warm (read yellow under a lamp) lies with the blacks: within ``DARK_AS_BLACK`` of their median."""
    yellows = [_face((30, 160, 230), light), _face((20, 140, 215), light), _face((40, 175, 240), light)]
    blacks = [_face((45, 45, 45), light), _face((38, 40, 42), light), _face((50, 48, 47), light)]
    tinted = _face((38, 48, 60), light)
    features = [ink_features(patch) for patch in [*yellows, *blacks, tinted]]
    yellow = np.array([True] * 3 + [False] * 3 + [True])
    gap = as_dark_as_the_blacks(features, yellow, ~yellow)
    assert np.all(gap[:3] >= 4 * DARK_AS_BLACK), gap
    assert gap[6] < DARK_AS_BLACK and np.isnan(gap[3:6]).all(), gap


REDS_BGR = [(40, 40, 200), (50, 35, 190), (45, 50, 205)]
YELLOWS_BGR = [(30, 160, 230), (20, 140, 215), (40, 175, 240)]


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_deep_orange_lies_towards_the_yellows_from_the_reds_under_any_light(light: tuple[float, float, float]) -> None:
    """Under one light (neutral, a warm lamp, a cool one) the reds' hues lie together, the yellow-orange inks' well
    towards yellow, and a deep orange (the ink a warm lamp lets the classifier read red) more than ``TOWARDS_YELLOW``
    of the way from the reds to the yellows; each red within it.  Yellows, blacks and the orange read yellow: NaN."""
    inks = [*REDS_BGR, (30, 105, 225), *YELLOWS_BGR, (45, 45, 45), (40, 42, 44)]
    features = [ink_features(_face(ink, light)) for ink in inks]
    red = np.array([True] * 4 + [False] * 5)
    yellow = np.array([False] * 4 + [True] * 3 + [False] * 2)
    share = towards_the_yellows(ink_hues(features), red, yellow)
    assert np.all(np.abs(share[:3]) < TOWARDS_YELLOW), share
    assert share[3] > TOWARDS_YELLOW, share
    assert np.isnan(share[4:]).all()


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_pale_orange_lies_part_way_to_the_yellows_in_hue_and_over_half_in_brightness(light: tuple[float, float, float]) -> None:
    """A yellow-orange in a reddish bounce light, read red: under ``TOWARDS_YELLOW`` of the way from the reds to the
    yellows in hue but over ``PART_WAY_IN_HUE``, and over ``HALF_WAY_IN_BRIGHTNESS`` of the way in brightness, under
    any light; no red is over both bars.  Yellows, blacks: NaN; yellows no lighter than the reds: NaN."""
    inks = [*REDS_BGR, (60, 88, 232), *YELLOWS_BGR, (45, 45, 45), (40, 42, 44)]
    features = [ink_features(_face(ink, light)) for ink in inks]
    red = np.array([True] * 4 + [False] * 5)
    yellow = np.array([False] * 4 + [True] * 3 + [False] * 2)
    in_hue = towards_the_yellows(ink_hues(features), red, yellow)
    in_brightness = brighter_towards_the_yellows(ink_brightness(features), red, yellow)
    assert PART_WAY_IN_HUE + 0.03 < in_hue[3] < TOWARDS_YELLOW, in_hue
    assert in_brightness[3] > HALF_WAY_IN_BRIGHTNESS + 0.1, in_brightness
    assert not np.any((in_hue[:3] > PART_WAY_IN_HUE) & (in_brightness[:3] > HALF_WAY_IN_BRIGHTNESS))
    assert np.isnan(in_brightness[4:]).all()
    brightness = ink_brightness(features)
    as_light = np.where(yellow, float(np.median(brightness[:3])) + 0.5 * BRIGHTNESS_APART, brightness)
    assert np.isnan(brighter_towards_the_yellows(as_light, red, yellow)).all()


@needs_ink
@pytest.mark.parametrize(("in_hue", "in_brightness", "flagged"),
                         [(PART_WAY_IN_HUE + 0.05, HALF_WAY_IN_BRIGHTNESS + 0.1, True),
                          (PART_WAY_IN_HUE + 0.05, HALF_WAY_IN_BRIGHTNESS - 0.1, False),
                          (PART_WAY_IN_HUE - 0.05, 1.0, False)])
def test_a_tile_read_red_part_way_to_the_yellows_in_hue_and_brightness_is_flagged(
        monkeypatch: pytest.MonkeyPatch, in_hue: float, in_brightness: float, flagged: bool) -> None:
    """The recogniser acts on the two shares together: a tile read red over both bars is flagged, its reading
    unchanged; over only one, it stays as it was (each look alone is too weak), as do the other tiles."""
    plain, changed = _rack_front_changed(monkeypatch, towards_the_yellows=_first_chosen_at(in_hue),
                                         brighter_towards_the_yellows=_first_chosen_at(in_brightness))
    reds = [t for t in plain if t.tile[0] == "R" and not t.low_confidence]
    assert len(reds) >= 3
    assert len(changed) == int(flagged)
    for old, new in changed:
        assert new.low_confidence and new.tile == old.tile and new.tile[0] == "R" and new.box == old.box


def test_the_share_of_the_way_does_not_depend_on_how_far_the_light_spreads_the_hues() -> None:
    """A share of the way between the photo's own reds and yellows: hues turned and stretched alike (a light, the
    colours strengthened) give the same shares; too few reds or yellows, or the two groups less than
    ``GROUPS_APART`` apart, give none."""
    hues = np.array([-4.0, 3.0, 8.0, 26.0, 55.0, 61.0, 70.0])
    red = np.array([True, True, True, True, False, False, False])
    share = towards_the_yellows(hues, red, ~red)
    assert np.allclose(towards_the_yellows(hues * 0.6 + 15.0, red, ~red), share, equal_nan=True)
    assert share[3] > TOWARDS_YELLOW and np.all(share[:3] < TOWARDS_YELLOW)
    one_yellow = ~red & (hues > 65)
    assert GROUP_AMONG == 2 and np.isnan(towards_the_yellows(hues, red, one_yellow)).all()
    two_reds = red & (hues > 5)  # two reds: each compared with one other only
    assert np.isnan(towards_the_yellows(hues, two_reds, ~red)).all()
    close = np.array([0.0, 2.0, 4.0, 6.0, 0.5 * GROUPS_APART, 0.6 * GROUPS_APART, 0.7 * GROUPS_APART])
    assert np.isnan(towards_the_yellows(close, red, ~red)).all()


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_red_read_yellow_is_as_dark_as_the_photos_reds(light: tuple[float, float, float]) -> None:
    """Under one light the yellow-orange inks lie above the reds' in brightness relative to their faces, and a red
    whose hue a warm lamp turned towards yellow (read yellow) lies with the reds: more than ``DARK_AS_RED`` below
    their median, where every yellow lies above it."""
    reddish = (30, 30, 165)  # a deep red, the warm lamp turning its hue towards the yellows'
    features = [ink_features(_face(ink, light)) for ink in [*YELLOWS_BGR, reddish, *REDS_BGR]]
    yellow = np.array([True] * 4 + [False] * 3)
    gap = as_dark_as_the_reds(features, yellow, ~yellow)
    assert np.all(gap[:3] > DARK_AS_RED), gap
    assert gap[3] < DARK_AS_RED, gap
    assert np.isnan(gap[4:]).all()


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.6, 0.5, 0.4), (0.45, 0.45, 0.55)])
def test_a_red_read_yellow_beside_one_red_is_darker_and_redder_than_the_yellows(light: tuple[float, float, float]) -> None:
    """Under one light, with one red read red (too few for ``as_dark_as_the_reds``) and a red read yellow among four
    yellow-orange inks: that "yellow" lies more than ``DARKER_THAN_YELLOWS`` below the other yellows' brightness and
    ``REDDER_THAN_YELLOWS`` from their hue towards red; no true yellow is both.  Two reds read red: the look stays out."""
    inks = [*YELLOWS_BGR, (35, 150, 225), REDS_BGR[0], REDS_BGR[1], REDS_BGR[2], (45, 45, 45), (40, 42, 44)]
    features = [ink_features(_face(ink, light)) for ink in inks]
    yellow = np.array([True] * 5 + [False] * 4)
    one_red = np.array([False] * 5 + [True, False, False, False])  # the third red is not read red: a black, say
    darker = among_the_yellows(ink_brightness(features), yellow, one_red)
    redder = among_the_yellows(ink_hues(features), yellow, one_red)
    assert darker[4] < DARKER_THAN_YELLOWS and redder[4] < REDDER_THAN_YELLOWS, (darker, redder)
    assert not np.any((darker[:4] < DARKER_THAN_YELLOWS) & (redder[:4] < REDDER_THAN_YELLOWS)), (darker, redder)
    assert np.isnan(darker[5:]).all() and np.isnan(redder[5:]).all()
    two_reds = one_red | np.array([False] * 6 + [True, False, False])
    assert np.isnan(among_the_yellows(ink_brightness(features), yellow, two_reds)).all()
