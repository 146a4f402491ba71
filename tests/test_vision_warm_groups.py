"""A photo's own two groups of warm inks settle a tile the two classifiers read red and yellow, one each
(``vision.ink.warm_groups``, ``vision.recognizer._settled_by_warm_groups``): a set prints every red alike, so a warm
lamp that reads the reds of a rack yellow leaves their inks together, darker and redder than the yellows'.  The tile
stays flagged for a tap; a tile both classifiers read alike is never moved, but flagged where its group says the other
colour."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.recognizer as recognizer_module
from vision import Recognizer
from vision.postprocess import COLOURS, KINDS, box_iou
from vision_labels import DATA, tile_boxes

RED, YELLOW, BLACK = COLOURS.index("R"), COLOURS.index("Y"), COLOURS.index("K")


def _ink(rg: float, gb: float, brightness: float) -> np.ndarray:
    return np.array([rg, gb, rg + gb, brightness, 0.2])


def _probabilities(colour: int, sure: float = 0.8) -> np.ndarray:
    probabilities = np.full(len(COLOURS), (1 - sure) / (len(COLOURS) - 1))
    probabilities[colour] = sure
    return probabilities


def _photo() -> tuple[list[np.ndarray | None], np.ndarray, np.ndarray]:
    """Twelve tiles in rows: two blacks, five dark reds (hue near 40° from the blacks under a warm light), four golden
    yellows (near 57°, lighter), and a red lying loose on the table.  Their inks, kinds (all numbered 5) and frames."""
    reds = [_ink(0.78, 0.62, 0.41), _ink(0.8, 0.66, 0.42), _ink(0.76, 0.6, 0.40), _ink(0.79, 0.64, 0.43),
            _ink(0.81, 0.63, 0.41)]
    yellows = [_ink(0.55, 0.86, 0.54), _ink(0.52, 0.84, 0.53), _ink(0.56, 0.88, 0.55), _ink(0.54, 0.85, 0.52)]
    features: list[np.ndarray | None] = [_ink(0.01, 0.02, 0.2), _ink(0.0, 0.03, 0.21), *reds, *yellows,
                                         _ink(0.79, 0.63, 0.42)]
    kinds = np.zeros((len(features), len(KINDS)))
    kinds[:, KINDS.index("5")] = 1.0
    frames = np.zeros((len(features), 4))
    frames[-1, 3] = np.nan  # the loose one
    return features, kinds, frames


def test_warm_groups_split_a_photos_reds_from_its_yellows() -> None:
    from vision.ink import ink_brightness, ink_hues, warm_groups

    features, _, frames = _photo()
    warm = np.array([False, False] + [True] * 10)
    groups = warm_groups(ink_hues(features), ink_brightness(features), warm)
    assert groups.tolist() == [-1, -1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0]


def test_a_tile_read_red_and_yellow_is_settled_by_its_group_and_stays_flagged() -> None:
    features, kinds, frames = _photo()
    first = [(_probabilities(BLACK), False), (_probabilities(BLACK), False)]
    second = list(first)
    # Reds: the first classifier reads three of them yellow; the second reads the first two red, the third yellow.
    first += [(_probabilities(YELLOW, 0.6), True), (_probabilities(YELLOW, 0.9), False), (_probabilities(YELLOW), True),
              (_probabilities(RED), False), (_probabilities(RED), False)]
    second += [(_probabilities(RED), False), (_probabilities(RED, 0.7), False), (_probabilities(YELLOW), False),
               (_probabilities(RED), False), (_probabilities(RED), False)]
    # Yellows: the first reads one red where the second reads it yellow; one the second reads red.
    first += [(_probabilities(RED, 0.55), True), (_probabilities(YELLOW), False), (_probabilities(YELLOW), False),
              (_probabilities(YELLOW), False)]
    second += [(_probabilities(YELLOW), False), (_probabilities(RED), False), (_probabilities(YELLOW), False),
               (_probabilities(YELLOW), False)]
    # The loose red: read yellow by the first, red by the second; not in a row, so not settled.
    first.append((_probabilities(YELLOW), True))
    second.append((_probabilities(RED), False))
    settled, previous = recognizer_module._settled_by_warm_groups(first, second, kinds, features, frames)
    read = [COLOURS[int(np.argmax(colour))] for colour, _ in settled]
    assert read == ["K", "K", "R", "R", "Y", "R", "R", "Y", "Y", "Y", "Y", "Y"]
    moved = [index for index in range(len(first)) if not np.array_equal(settled[index][0], first[index][0])]
    assert moved == [2, 3, 7]
    assert all(settled[index][1] for index in moved)  # flagged, the one that was sure too
    # The third red both read yellow: not moved, flagged (it was already), red offered (fortieth round).
    assert np.array_equal(settled[4][0], first[4][0]) and settled[4][1]
    assert all(settled[index] is first[index] for index in range(len(first)) if index not in (*moved, 4))
    # The colour moved is the swap of red and yellow; the colour the first classifier read is kept, to offer for a tap.
    assert previous == {2: YELLOW, 3: YELLOW, 4: RED, 7: RED}


def test_with_no_groups_told_nothing_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    features, kinds, frames = _photo()
    first = [(_probabilities(YELLOW), True)] * len(features)
    second = [(_probabilities(RED), False)] * len(features)
    monkeypatch.setattr(recognizer_module, "warm_groups", lambda hues, brightness, warm: np.full(len(hues), -1))
    assert recognizer_module._settled_by_warm_groups(first, second, kinds, features, frames) == (first, {})


def _reds_read(recognizer: Recognizer, image: str) -> tuple[list[str], list[bool], list[str | None]]:
    """The tiles labelled red on ``image``, as read (their colours), flagged, and the colour each may be instead,
    matched by box."""
    truth = [(tile, box) for tile, box in tile_boxes("racks3d.csv")[image] if tile[0] == "R"]
    tiles = recognizer.recognize(cv2.imread(str(DATA / image))).tiles
    colours, flagged, others = [], [], []
    for tile, box in truth:
        overlaps = box_iou(np.array(box, np.float32), np.array([t.box for t in tiles], np.float32))
        best = tiles[int(np.argmax(overlaps))]
        colours.append(best.tile[0])
        flagged.append(best.low_confidence)
        others.append(best.other_colour)
    return colours, flagged, others


def test_a_warm_lamp_reading_a_racks_reds_yellow_is_settled_by_the_photos_groups(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """rack3d_tilted_one_ink.jpg (scripts/render_racks_3d.py --set-inks, tilted, seed 9701, photo 2): a green table,
    a dark red ink and a golden yellow one.  The first classifier reads all seven reds yellow; the second reads five of
    them red.  The photo's warm inks split into its reds and yellows, and three of those five lie clearly with the
    reds: read red, flagged, yellow offered for the tap.  Without the groups all seven read yellow."""
    image = "rack3d_tilted_one_ink.jpg"
    colours, flagged, others = _reds_read(Recognizer(), image)
    assert len(colours) == 7 and colours.count("R") >= 3, colours
    assert all(flag and other == "Y" for colour, flag, other in zip(colours, flagged, others) if colour == "R")
    monkeypatch.setattr(recognizer_module, "_settled_by_warm_groups", lambda fused, *rest: (fused, {}))
    before, _, _ = _reds_read(Recognizer(), image)
    assert before.count("R") == 0, before


def test_a_tile_both_classifiers_read_against_its_group_is_flagged_not_moved() -> None:
    """Both classifiers read a red yellow, sure: its group says red, so it is flagged for a tap with red offered, and
    its reading stays yellow (a tile is never moved to a colour neither classifier read)."""
    features, kinds, frames = _photo()
    first = [(_probabilities(BLACK), False)] * 2 + [(_probabilities(RED), False)] * 5 + \
        [(_probabilities(YELLOW), False)] * 4 + [(_probabilities(RED), False)]
    first[4] = (_probabilities(YELLOW, 0.95), False)   # a red read yellow by both
    first[8] = (_probabilities(RED, 0.9), False)       # a yellow read red by both
    second = list(first)
    settled, offered = recognizer_module._settled_by_warm_groups(first, second, kinds, features, frames)
    assert offered == {4: RED, 8: YELLOW}
    for index in (4, 8):
        assert np.array_equal(settled[index][0], first[index][0]) and settled[index][1]
    assert all(settled[index] is first[index] for index in range(len(first)) if index not in (4, 8))


def test_too_few_warm_tiles_are_not_grouped(monkeypatch: pytest.MonkeyPatch) -> None:
    features, kinds, frames = _photo()
    first = [(_probabilities(BLACK), False)] * (len(features) - 3) + [(_probabilities(YELLOW), False)] * 3
    monkeypatch.setattr(recognizer_module, "warm_groups", lambda *args: pytest.fail("grouped three warm inks"))
    assert recognizer_module._settled_by_warm_groups(first, list(first), kinds, features, frames) == (first, {})


def test_window_light_oranges_read_red_by_both_classifiers_are_flagged() -> None:
    """rack3d_rotated_window.jpg (render_racks_3d.py --unseen-light, rotated, seed 9881, photo 15): a window's
    daylight; the set's yellow is an orange both classifiers read red, sure.  Its two groups of warm inks flag at least
    four of those for a tap, yellow offered; the two true reds stay sure."""
    truth = tile_boxes("racks3d.csv")["rack3d_rotated_window.jpg"]
    tiles = Recognizer().recognize(cv2.imread(str(DATA / "rack3d_rotated_window.jpg"))).tiles
    boxes = np.array([t.box for t in tiles], np.float32)
    oranges_flagged, reds_sure = 0, 0
    for tile, box in truth:
        best = tiles[int(np.argmax(box_iou(np.array(box, np.float32), boxes)))]
        if tile[0] == "Y" and best.tile[0] == "R" and best.low_confidence and best.other_colour == "Y":
            oranges_flagged += 1
        if tile[0] == "R" and best.tile == tile and not best.low_confidence:
            reds_sure += 1
    assert oranges_flagged >= 4 and reds_sure >= 2


def test_a_tile_beyond_its_groups_centre_is_told_by_its_side_of_the_line() -> None:
    """An orange lying on the far side of the yellows (a window's daylight read it red, sure) is told yellow: it lies
    past the yellows' centre along the line from the reds', though farther from that centre than the shares of the two
    distances would tell; a tile between the two centres is told only near one of them (``WARM_SPLIT``)."""
    from vision.ink import WARM_SPLIT, warm_groups

    hues = np.array([1.0, 2.0, 0.5, 1.5, 20.0, 22.0, 21.0, 19.0, 31.0, 11.0, 4.0])
    brightness = np.array([0.40, 0.41, 0.40, 0.42, 0.55, 0.56, 0.55, 0.54, 0.70, 0.48, 0.43])
    groups = warm_groups(hues, brightness, np.ones(len(hues), bool))
    assert groups[:8].tolist() == [0] * 4 + [1] * 4
    assert groups[8] == 1, "beyond the yellows: yellow"
    assert groups[9] == -1, "half way between the two: untold"
    assert groups[10] == 0 and WARM_SPLIT >= 0.15, "near the reds: red"


def test_inks_too_near_in_hue_are_told_by_their_brightness_the_darker_red() -> None:
    """Orange-brown reds among yellows in hue (the fonts set's rack read all yellow, three reds sure): the
    brightness alone splits them where the two lie ``DARK_APART`` apart, the darker red; not where they lie closer,
    nor where the darker group is the yellower in hue."""
    from vision.ink import DARK_APART, warm_groups

    hues = np.array([19.2, 21.8, 26.1, 26.5, 26.6, 30.8, 31.9, 33.1])
    brightness = np.array([0.538, 0.625, 0.645, 0.527, 0.531, 0.634, 0.605, 0.609])
    warm = np.ones(len(hues), bool)
    assert warm_groups(hues, brightness, warm).tolist() == [0, 1, 1, 0, 0, 1, 1, 1]
    odd = warm_groups(np.r_[hues, -0.6], np.r_[brightness, 0.727], np.r_[warm, True])  # a glared yellow alone at -1°
    assert odd.tolist() == [0, 1, 1, 0, 0, 1, 1, 1, 1], "a hue split with the yellower the darker: by brightness"
    assert (warm_groups(hues, np.where(brightness < 0.56, 0.605 - 0.5 * DARK_APART, brightness), warm) < 0).all()
    darker_yellower = np.where(brightness < 0.56, 37.0, hues)
    assert (warm_groups(darker_yellower, brightness, warm) < 0).all()


def test_brightness_alone_tells_nothing_from_few_inks_or_a_spread_darker_group() -> None:
    """Four reds of one rack, two of them lit brighter (``DARK_GROUPS_FROM``); and a lamp's photo whose darker group
    spreads wider than the gap (blacks read red among the reds): a set's reds, printed with one ink, lie together."""
    from vision.ink import DARK_GROUPS_FROM, warm_groups

    four = warm_groups(np.array([-2.1, 7.0, 8.5, 6.2]), np.array([0.558, 0.618, 0.727, 0.729]), np.ones(4, bool))
    assert DARK_GROUPS_FROM > 4 and (four < 0).all()
    hues = np.array([78.6, 65.5, 67.9, 27.5, 37.3, 31.0, 46.2, 51.3, 54.0, 71.6, 75.5, 25.9, 33.5, 51.1, 51.7, 56.9])
    brightness = np.array([0.386, 0.407, 0.409, 0.441, 0.453, 0.464, 0.479, 0.506, 0.512, 0.587, 0.601, 0.608, 0.642,
                           0.75, 0.804, 0.81])
    assert (warm_groups(hues, brightness, np.ones(len(hues), bool)) < 0).all()
