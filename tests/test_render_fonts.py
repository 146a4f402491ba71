"""scripts/render_racks.py's numeral faces: the training pool, and the two pools kept out of it to measure how the
reading carries over to a set's numerals never learnt (``--unseen-fonts``: monospaced, slab, geometric and old-style
faces; ``--heavy-fonts``: black, extra-bold and condensed faces), and the shapes added to it for training racks
(``--more-shapes``).

The renderers draw with Pillow, which comes with the ``train`` extra: without it these tests are skipped.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PIL")
SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import render_racks


def _faces(names: tuple[str, ...], root: Path) -> set[str]:
    return {Path(name).name for name in names} | {Path(name).name for name in root.glob("*-Bold.otf")}


def test_the_pools_kept_out_share_no_face_with_the_training_pool() -> None:
    trained = _faces(render_racks.FONT_CANDIDATES, render_racks.URW_ROOT)
    unseen = {Path(name).name for name in render_racks.UNSEEN_FONT_CANDIDATES}
    heavy = {Path(name).name for name in render_racks.HEAVY_FONT_CANDIDATES}
    assert not trained & unseen and not trained & heavy and not unseen & heavy


def test_the_shapes_added_for_training_are_no_dev_sets_face() -> None:
    """``--more-shapes`` adds faces to the training pool; none may be a face the dev sets keep out of it."""
    trained = _faces(render_racks.FONT_CANDIDATES, render_racks.URW_ROOT)
    shapes = {Path(name).name for name in render_racks.SHAPE_FONT_CANDIDATES}
    kept_out = {Path(name).name for name in render_racks.UNSEEN_FONT_CANDIDATES + render_racks.HEAVY_FONT_CANDIDATES}
    assert len(shapes) == len(render_racks.SHAPE_FONT_CANDIDATES)
    assert not shapes & kept_out and not shapes & trained
    missing = render_racks.missing_fonts(shapes=True)
    assert set(render_racks.missing_fonts()) <= set(missing)
    assert len(missing) - len(render_racks.missing_fonts()) + len(render_racks.SHAPE_FONTS) == len(shapes)


def test_missing_fonts_names_each_pools_own_faces() -> None:
    """Each pool is checked against its own list, so a machine without the heavy faces still renders the others."""
    heavy = render_racks.missing_fonts(heavy=True)
    unseen = render_racks.missing_fonts(unseen=True)
    assert set(heavy) <= set(render_racks.HEAVY_FONT_CANDIDATES)
    assert set(unseen) <= set(render_racks.UNSEEN_FONT_CANDIDATES)
    assert len(heavy) + len(render_racks.HEAVY_FONTS) == len(render_racks.HEAVY_FONT_CANDIDATES)


def test_two_pools_at_once_are_refused(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(SCRIPTS / "render_racks.py"), "--out", str(tmp_path / "racks"),
                             "--count", "1", "--unseen-fonts", "--heavy-fonts", "--any-fonts"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--unseen-fonts, --heavy-fonts and --more-shapes are three pools: choose one" in result.stderr
    assert not (tmp_path / "racks").exists()


def test_more_shapes_with_a_dev_pool_is_refused(tmp_path: Path) -> None:
    """A dev set drawn with the training's added shapes would no longer measure faces never trained on."""
    result = subprocess.run([sys.executable, str(SCRIPTS / "render_racks.py"), "--out", str(tmp_path / "racks"),
                             "--count", "1", "--unseen-fonts", "--more-shapes"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "three pools: choose one" in result.stderr
    assert not (tmp_path / "racks").exists()
