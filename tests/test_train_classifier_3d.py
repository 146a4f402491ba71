"""scripts/train_classifier.py --racks3d: racks rendered in 3-D join the classifier's training as their own pool,
each tile cropped by its face box and by its whole box; a folder without labels is refused with a clear message.

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

import train_classifier
from training_draws import refusal, shares_drawn

DATA = Path(__file__).resolve().parent / "data" / "vision"


@pytest.fixture()
def only_3d(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave out the real photos and the older renders, so the pools hold only what the 3-D folders give."""
    original = train_classifier.synthetic_scenes
    monkeypatch.setattr(train_classifier, "load_photos", lambda: [])
    monkeypatch.setattr(train_classifier, "split_photos", lambda photos: ([], []))
    monkeypatch.setattr(train_classifier, "synthetic_scenes",
                        lambda directory=None: original(directory) if directory is not None and "3d" in directory.name else [])


def _folder(tmp_path: Path, with_wholes: bool) -> Path:
    folder = tmp_path / "racks3d-train"
    folder.mkdir()
    shutil.copy(DATA / "rack3d_tilted_faint.jpg", folder)
    rows = (DATA / "racks3d.csv").read_text().splitlines()[1:4]
    header = "image,tile,x1,y1,x2,y2,upside_down,style"
    if with_wholes:
        header += ",whole_x1,whole_y1,whole_x2,whole_y2"
        rows = [row + "," + ",".join(f"{float(v) + d:.1f}" for v, d in zip(row.split(",")[2:6], (-4, -3, 6, 5)))
                for row in rows]
    (folder / "labels.csv").write_text("\n".join([header, *rows]) + "\n")
    return folder


def test_each_3d_tile_is_learnt_from_its_face_and_its_whole_box(tmp_path: Path, only_3d: None) -> None:
    pools = train_classifier.build_pools(7, racks=False, racks3d=(_folder(tmp_path, with_wholes=True),))
    assert len(pools["racks3d"]) == 6  # three tiles, two crops each
    labels = [(kind, colour) for _, kind, colour, _ in pools["racks3d"]]
    assert labels[0] == labels[1] == (train_classifier.KINDS.index("1"), train_classifier.COLOURS.index("B"))
    assert all(upside == -1 for *_, upside in pools["racks3d"])  # up/down stays with the older renders
    assert pools["none"]  # background and straddling boxes from the same photos


def test_labels_without_whole_boxes_give_one_crop_a_tile(tmp_path: Path, only_3d: None) -> None:
    pools = train_classifier.build_pools(7, racks=False, racks3d=(_folder(tmp_path, with_wholes=False),))
    assert len(pools["racks3d"]) == 3


def test_a_folder_never_rendered_is_refused(tmp_path: Path, only_3d: None) -> None:
    with pytest.raises(SystemExit, match="render it first with scripts/render_racks_3d.py"):
        train_classifier.build_pools(7, racks=False, racks3d=(tmp_path / "racks3d-missing",))


@pytest.mark.parametrize("share3d, racks, synthetic", [(0.12, 0.23, 0.15), (0.37, 0.10, 0.03)])
def test_the_3d_share_comes_out_of_the_racks_share_then_the_flat_synthetic_tiles(
        monkeypatch: pytest.MonkeyPatch, share3d: float, racks: float, synthetic: float) -> None:
    """Up to 0.25 of each batch comes out of the 2.5-D racks' 0.35, any more out of the flat synthetic tiles' 0.15;
    the real photos and the "none" crops keep their shares."""
    crop = (np.zeros((96, 96, 3), np.uint8), 0, 0, -1)
    pools = {"real": [crop], "synthetic": [crop], "racks": [crop], "racks3d": [crop], "none": [crop]}
    share = shares_drawn(monkeypatch, pools, lambda: train_classifier.batch(pools, random.Random(3), 4000, share3d=share3d))
    assert share["racks3d"] == pytest.approx(share3d, abs=0.02)
    assert share["racks"] == pytest.approx(racks, abs=0.02)
    assert share["synthetic"] == pytest.approx(synthetic, abs=0.015)
    assert share["real"] == pytest.approx(0.38, abs=0.02)
    assert share["none"] == pytest.approx(0.12, abs=0.02)


@pytest.mark.parametrize("share3d", [0.12, 0.25])
def test_a_3d_share_up_to_a_quarter_draws_as_it_always_did(monkeypatch: pytest.MonkeyPatch, share3d: float) -> None:
    """The shipped models' recipes (shares 0.12 and 0.25) must draw the very batches they drew before the share could
    reach into the flat synthetic tiles: every roll goes to the pool the earlier rule gave it."""
    pools = {name: [(np.zeros((96, 96, 3), np.uint8), 0, 0, -1)] for name in ("real", "synthetic", "racks", "racks3d", "none")}
    rolls: list[float] = []
    drawn: list[str] = []
    original_random, original_choice = random.Random.random, random.Random.choice

    def recording_random(self: random.Random) -> float:
        rolls.append(original_random(self))
        return rolls[-1]

    def recording_choice(self: random.Random, seq: list[object]) -> object:
        drawn.extend(name for name, pool in pools.items() if seq is pool)
        return original_choice(self, seq)

    monkeypatch.setattr(train_classifier, "augment",
                        lambda context, upside, rng, any_angle, faces=False: (context, upside))
    monkeypatch.setattr(random.Random, "random", recording_random)
    monkeypatch.setattr(random.Random, "choice", recording_choice)
    train_classifier.batch(pools, random.Random(5), 2000, share3d=share3d)
    earlier = ["real" if roll < 0.38 else "synthetic" if roll < 0.53 else "racks" if roll < 0.88 - share3d
               else "racks3d" if roll < 0.88 else "none" for roll in rolls]
    assert len(rolls) == 2000 and drawn == earlier


def test_without_colours_the_3d_tiles_teach_their_kind_only(tmp_path: Path, only_3d: None) -> None:
    pools = train_classifier.build_pools(7, racks=False, racks3d=(_folder(tmp_path, with_wholes=True),), colours3d=False)
    assert [kind for _, kind, _, _ in pools["racks3d"]][:2] == [train_classifier.KINDS.index("1")] * 2
    assert all(colour == -1 for _, _, colour, _ in pools["racks3d"])


def test_a_folder_whose_photos_are_not_there_is_refused(tmp_path: Path, only_3d: None) -> None:
    """Labels without their photos would leave the 3-D pool empty and train without it, silently."""
    folder = _folder(tmp_path, with_wholes=True)
    (folder / "rack3d_tilted_faint.jpg").unlink()
    with pytest.raises(SystemExit, match="names no photo that is there"):
        train_classifier.build_pools(7, racks=False, racks3d=(folder,))


@pytest.mark.parametrize("options, message", [
    (["--racks3d", "scripts/cache/racks3d-train-tilted", "--no-racks"], "leave out --no-racks"),
    (["--share3d", "0.5"], "--share3d 0.5: give a share above 0 and at most 0.4"),
    (["--share3d", "0"], "--share3d 0.0: give a share above 0 and at most 0.4"),
])
def test_options_that_cannot_work_are_refused_before_anything_loads(options: list[str], message: str) -> None:
    assert message in refusal(train_classifier.__file__, options)


def test_other_faces_reshape_the_tiles_crops_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--other-faces`` (tried in the fiftieth round, not kept): a tile's crop drawn narrower or wider, leaning, with
    lighter or heavier strokes.  Without it a crop is drawn as before from the same draws; "none" crops never take it."""
    context = np.random.default_rng(0).integers(0, 255, (train_classifier.CONTEXT, train_classifier.CONTEXT, 3), np.uint8)
    plain, again = (train_classifier.augment(context, 0, random.Random(3), False) for _ in range(2))
    assert np.array_equal(plain[0], again[0]) and plain[0].shape == (train_classifier.CROP_SIZE,) * 2 + (3,)
    other = train_classifier.augment(context, 0, random.Random(3), False, faces=True)
    assert other[0].shape == plain[0].shape and not np.array_equal(other[0], plain[0])
    told: list[tuple[str, bool]] = []
    none = train_classifier.KINDS.index("none")
    pools = {name: [(context.copy(), none if name == "none" else 0, 0, 0)]
             for name in ("real", "synthetic", "racks", "racks3d", "none")}
    pools_by_id = {id(pool[0][0]): name for name, pool in pools.items()}  # each pool's one context, told apart

    def recording(crop: np.ndarray, upside: int, rng: random.Random, any_angle: bool, faces: bool = False) -> tuple:
        told.append((pools_by_id[id(crop)], faces))
        return crop[:train_classifier.CROP_SIZE, :train_classifier.CROP_SIZE], upside

    monkeypatch.setattr(train_classifier, "augment", recording)
    train_classifier.batch(pools, random.Random(5), 200, share3d=0.1, faces=True)
    assert {name for name, _ in told} == set(pools)
    assert all(faces == (name != "none") for name, faces in told)
