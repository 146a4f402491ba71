"""scripts/render_racks.py's inks: a tile's ink drawn from every set's spread (how the renders up to the thirty-sixth
round were made, the same draws so their seeds still give the same photos), or one set's inks, each colour printed
alike on every tile of the rack (``set_inks``, which ``render_racks_3d.py --set-inks`` uses).

The renderers draw with Pillow, which comes with the ``train`` extra: without it these tests are skipped.
"""

from __future__ import annotations

import colorsys
import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("PIL")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import render_racks


def _hue(rgb: tuple[int, int, int]) -> float:
    """The hue in degrees, red near 0 (negative just below it), for comparing reds."""
    h = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360
    return h - 360 if h > 300 else h


def test_an_ink_drawn_from_every_sets_spread_is_drawn_as_before() -> None:
    """The seeds behind every figure in models/README.md must render the same photos: the same draws, the same inks
    (these values come from the renderer before set inks were added)."""
    rng = random.Random(37)
    inks = [render_racks._ink(colour, rng) for colour in "RYBKRY"]
    assert inks == [(174, 40, 40), (208, 141, 7), (37, 87, 136), (38, 36, 33), (183, 31, 46), (235, 119, 3)]


def test_one_sets_tiles_share_each_colours_ink() -> None:
    """Within one set a colour varies by a print's little (2 degrees of hue), far less than between sets."""
    for seed in range(40):
        rng = random.Random(seed)
        inks = render_racks.set_inks(rng)
        assert set(inks) == {"R", "Y", "B", "K"}
        for colour in "RYB":
            hues = [_hue(render_racks._ink(colour, rng, inks)) for _ in range(30)]
            assert max(hues) - min(hues) <= 6, (seed, colour, hues)


def test_set_inks_stay_within_the_spread_real_sets_show() -> None:
    """A set's inks are drawn from the same ranges as a lone tile's: reds stay red, yellows between orange and
    yellow, blues between royal and teal, blacks dark."""
    for seed in range(200):
        rng = random.Random(seed)
        inks = render_racks.set_inks(rng)
        red, yellow, blue, black = (render_racks._ink(c, rng, inks) for c in "RYBK")
        assert -12 <= _hue(red) <= 10
        assert 16 <= _hue(yellow) <= 48
        assert 178 <= _hue(blue) <= 232
        assert max(black) <= 0.26 * 255


def test_sets_differ_from_each_other() -> None:
    """The spread between sets is kept: over many racks the yellows range from orange to yellow."""
    hues = [_hue(render_racks._ink("Y", random.Random(seed), render_racks.set_inks(random.Random(seed))))
            for seed in range(100)]
    assert max(hues) - min(hues) > 15
