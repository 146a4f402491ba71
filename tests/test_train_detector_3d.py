"""scripts/train_detector.py --racks3d: racks rendered in 3-D join the detector's training as a pool of their own,
each tile boxed by its seen face; a folder never rendered is refused with a clear message, and options that cannot
work are refused before anything loads.

The training scripts need the ``train`` extra (PyTorch): without it these tests are skipped.
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import train_detector
from training_draws import refusal, shares_drawn

DATA = Path(__file__).resolve().parent / "data" / "vision"


@pytest.fixture()
def only_3d(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave out the real photos and the older renders, so the pools hold only what the 3-D folders give."""
    monkeypatch.setattr(train_detector, "load_photos", lambda: [])
    monkeypatch.setattr(train_detector, "split_photos", lambda photos: ([], []))
    monkeypatch.setattr(train_detector, "backgrounds", lambda: [])
    monkeypatch.setattr(train_detector, "synthetic_scenes", lambda directory=None: [])


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "racks3d-train"
    folder.mkdir()
    shutil.copy(DATA / "rack3d_tilted_faint.jpg", folder)
    rows = [row for row in (DATA / "racks3d.csv").read_text().splitlines()[1:] if row.startswith("rack3d_tilted_faint.jpg,")]
    (folder / "labels.csv").write_text("\n".join(["image,tile,x1,y1,x2,y2,upside_down,style", *rows]) + "\n")
    return folder


def test_each_3d_photo_is_learnt_with_its_tiles_faces(tmp_path: Path, only_3d: None) -> None:
    folder = _folder(tmp_path)
    pools = train_detector.build_pools(racks=False, racks3d=(folder,))
    assert len(pools["racks3d"]) == 1 and not pools["racks"] and not pools["real"]
    image, boxes = pools["racks3d"][0]
    labelled = np.array([[float(v) for v in row.split(",")[2:6]]
                         for row in (folder / "labels.csv").read_text().splitlines()[1:]], np.float32)
    scale = train_detector.BASE_LONG_SIDE / 960  # the photo is 960×720, loaded at the training's base size
    assert max(image.shape[:2]) == train_detector.BASE_LONG_SIDE
    np.testing.assert_allclose(boxes, labelled * scale, rtol=1e-5)


def test_a_folder_never_rendered_is_refused(tmp_path: Path, only_3d: None) -> None:
    with pytest.raises(SystemExit, match="render it first with scripts/render_racks_3d.py"):
        train_detector.build_pools(racks=False, racks3d=(tmp_path / "racks3d-missing",))


def _blank_patch(sample: object, rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size = train_detector.PATCH // 4
    return (np.zeros((train_detector.PATCH, train_detector.PATCH, 3), np.uint8), np.zeros((6, size, size), np.float32),
            np.zeros((size, size), np.float32))


@pytest.mark.parametrize("with_3d", [True, False])
def test_the_3d_share_comes_out_of_the_racks_share_and_nothing_else(monkeypatch: pytest.MonkeyPatch, with_3d: bool) -> None:
    """With a 3-D pool, 0.15 of the batch is drawn from it, out of the racks' 0.4; without one, as before."""
    sample = (np.zeros((400, 400, 3), np.uint8), np.zeros((0, 4), np.float32))
    pools = {"real": [sample], "synthetic": [sample], "racks": [sample], "racks3d": [sample] if with_3d else []}
    monkeypatch.setattr(train_detector, "_patch", _blank_patch)
    share = shares_drawn(monkeypatch, pools, lambda: train_detector.batch(pools, random.Random(3), 3000, share3d=0.15))
    assert share["racks3d"] == pytest.approx(0.15 if with_3d else 0.0, abs=0.02)
    assert share["racks"] == pytest.approx(0.25 if with_3d else 0.40, abs=0.02)
    assert share["real"] == pytest.approx(0.45, abs=0.02)
    assert share["synthetic"] == pytest.approx(0.15, abs=0.02)


@pytest.mark.parametrize("options, message", [
    (["--racks3d", "scripts/cache/racks3d-train-tilted", "--no-racks"], "leave out --no-racks"),
    (["--share3d", "0.5"], "--share3d 0.5: give a share between 0 and 0.4"),
    (["--share3d", "0"], "--share3d 0.0: give a share between 0 and 0.4"),
])
def test_options_that_cannot_work_are_refused_before_anything_loads(options: list[str], message: str) -> None:
    assert message in refusal(train_detector.__file__, options)
