"""The second classifier's look (issue 10, twenty-sixth round): the first classifier, taught racks built in 3-D, reads
each tile; the one shipped before it looks at the same crops, with the same ink and number reader, and a tile is sure
only where both read it alike and both are sure (``vision.recognizer.SECOND_CLASSIFIER``).  It never changes a
reading.  It flags, and it settles one tap: a reader that saw one of the two digits both classifiers hold (thirty-fifth
round)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision import Recognizer
from vision.numerals import NUMBERS
from vision.recognizer import MODELS_DIR, SECOND_CLASSIFIER
from vision_labels import DATA, earlier_classifier, on_found_tiles, sure_colour_mistakes, tile_boxes

LABELS = {**tile_boxes("labels.csv"), **tile_boxes("racks.csv"), **tile_boxes("racks3d.csv")}
TWO_DIGITS = ("10", "11", "12", "13")

pytestmark = pytest.mark.skipif(not (MODELS_DIR / SECOND_CLASSIFIER).is_file(),
                                reason=f"models/{SECOND_CLASSIFIER} is not there")


def _sure_wrong_colours(recognizer: Recognizer, image: str) -> list[tuple[str, str]]:
    """The sure tiles of ``image`` whose colour is wrong: (truth, read)."""
    return [mistake[:2] for mistake in sure_colour_mistakes(recognizer.recognize(DATA / image).tiles, image)]


@pytest.mark.parametrize("image, mistakes", [("rack3d_rotated_warm.jpg", 1), ("rack3d_tilted_faint.jpg", 1)])
def test_the_second_look_flags_the_first_classifiers_sure_colour_mistakes(image: str, mistakes: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """rack3d_rotated_warm.jpg (a warm light on a rotated rack, its colours strengthened): alone, the first classifier
    is sure of an R10 read yellow at 0.94 (of an R2 and an R13 too, at 0.88-0.99, before the twenty-eighth round
    measured the tiles' widths past their second boxes); rack3d_tilted_faint.jpg: of an R13 read Y13 at 0.94.  Held to
    the same checks, the second classifier is not sure of them, so each is flagged.  Both read on the boxes the detector
    of the forty-eighth round found (``found_tiles.csv``)."""
    on_found_tiles(monkeypatch, image)
    alone = _sure_wrong_colours(Recognizer(second_look=False), image)
    assert len(alone) >= mistakes and all(truth[0] == "R" and read[0] == "Y" for truth, read in alone), alone
    assert _sure_wrong_colours(Recognizer(), image) == []


def _settled(with_second: str, alone: str) -> bool:
    """A reading the photo's warm groups settled between the two classifiers: red for yellow or yellow for red."""
    return {with_second[0], alone[0]} == {"R", "Y"} and with_second[1:] == alone[1:]


def test_the_second_look_changes_no_reading_but_a_settled_red_or_yellow_and_only_adds_flags() -> None:
    """On every labelled test photo: the same tiles, boxes, confidences and warnings with the second look and without
    it, but for a tile the two classifiers read red and yellow that the photo's warm groups settled (read the other
    colour, flagged: ``_settled_by_warm_groups``); a tile sure with it is sure without it unless it reads 10-13 (two
    classifiers holding two digits against a reader's one settle that tap); and it flags at least one tile more on
    the 3-D racks."""
    alone, both = Recognizer(second_look=False), Recognizer()
    added = settled = 0
    for image in LABELS:
        first, second = alone.recognize(DATA / image), both.recognize(DATA / image)
        assert [(t.box, t.warnings) for t in first.tiles] == [(t.box, t.warnings) for t in second.tiles], image
        for t, u in zip(second.tiles, first.tiles):
            if t.tile != u.tile:
                assert _settled(t.tile, u.tile) and t.low_confidence, (image, t.tile, u.tile)
                settled += 1
            else:
                assert t.confidence == u.confidence, (image, t.tile)
        assert all(t.low_confidence or t.tile[1:] in TWO_DIGITS
                   for t, u in zip(second.tiles, first.tiles) if u.low_confidence), image
        added += sum(t.low_confidence and not u.low_confidence for t, u in zip(second.tiles, first.tiles))
    assert added >= 4
    assert settled >= 3  # the reds of rack3d_tilted_one_ink.jpg read yellow by the first classifier


def test_the_second_classifier_is_held_to_its_own_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second classifier, reading a tile as the first does, must be ``SECOND_SURE_FROM`` sure of it (0.65, under
    the first's ``LOW_CONFIDENCE``): above any confidence, every tile is flagged; at nothing, the sure tiles are the
    default's and perhaps more, never fewer; the readings never change."""
    import vision.recognizer as recognizer_module

    assert recognizer_module.SECOND_SURE_FROM < recognizer_module.LOW_CONFIDENCE
    image = DATA / "rack3d_tilted_faint.jpg"
    default = Recognizer().recognize(image).tiles
    monkeypatch.setattr(recognizer_module, "SECOND_SURE_FROM", 1.01)
    strict = Recognizer().recognize(image).tiles
    monkeypatch.setattr(recognizer_module, "SECOND_SURE_FROM", 0.0)
    lenient = Recognizer().recognize(image).tiles
    assert [t.tile for t in strict] == [t.tile for t in default] == [t.tile for t in lenient]
    assert sum(not t.low_confidence for t in default) >= 5 and all(t.low_confidence for t in strict)
    assert all(not u.low_confidence for t, u in zip(default, lenient) if not t.low_confidence)


class _ContrarySecond(Recognizer):
    """Its second classifier reads every tile's colour as the first's next colour, sure of it."""

    def classify(self, crops: np.ndarray, classifier: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if classifier is None:
            return super().classify(crops)
        kinds, colours, upsides = super().classify(crops)
        return kinds, np.eye(4)[(np.argmax(colours, 1) + 1) % 4] * 0.97 + 0.01, upsides


def test_a_second_classifier_that_reads_another_colour_flags_every_numbered_tile() -> None:
    """Where the second classifier reads another colour, the first's reading stands and the tile is flagged."""
    alone, contrary = Recognizer(second_look=False).recognize(DATA / "rack_front.jpg"), \
        _ContrarySecond().recognize(DATA / "rack_front.jpg")
    assert [t.tile for t in contrary.tiles] == [t.tile for t in alone.tiles]
    numbered = [t for t in contrary.tiles if t.tile not in ("F", "J")]
    assert len(numbered) >= 10 and all(t.low_confidence for t in numbered)
    assert sum(not t.low_confidence for t in alone.tiles) >= 10


def test_models_without_a_second_classifier_read_with_the_first_alone() -> None:
    """A models folder with no ``classifier_second.onnx`` (an older one) reads as before: no second look."""
    folder = earlier_classifier()
    assert not (folder / SECOND_CLASSIFIER).exists()
    assert Recognizer(folder)._second is None and Recognizer()._second is not None
    assert Recognizer(second_look=False)._second is None


# -- the look as a setting: ``recognize``/``serve``/``service --no-second-look``, ``"second_look": false`` in batch --


def _sure_wrong_from_the_command_line(capsys: pytest.CaptureFixture[str], *args: str) -> list[tuple[str, str]]:
    from types import SimpleNamespace

    from companion.cli import main

    image = "rack3d_rotated_warm.jpg"
    assert main(["recognize", "--json", *args, str(DATA / image)]) == 0
    tiles = [SimpleNamespace(**tile) for tile in json.loads(capsys.readouterr().out)["tiles"]]
    return [mistake[:2] for mistake in sure_colour_mistakes(tiles, image)]


def test_recognize_without_the_second_look_reads_with_one_classifier(capsys: pytest.CaptureFixture[str]) -> None:
    """``recognize --no-second-look``: the first classifier alone, sure of the reds it reads yellow on the warm 3-D
    rack; without the option those are flagged."""
    assert _sure_wrong_from_the_command_line(capsys) == []
    alone = _sure_wrong_from_the_command_line(capsys, "--no-second-look")
    assert len(alone) >= 1 and all(truth[0] == "R" and read[0] == "Y" for truth, read in alone), alone


@pytest.mark.parametrize("value", ["no", 0, None, [False]])
def test_a_batch_second_look_must_be_true_or_false(value: Any) -> None:
    from companion.cli import CommandError, op_recognize

    with pytest.raises(CommandError, match="field 'second_look' must be true or false"):
        op_recognize({"image": str(DATA / "rack3d_rotated_warm.jpg"), "second_look": value})


@pytest.mark.parametrize("args, looks", [([], True), (["--no-second-look"], False)])
def test_serve_hands_the_setting_to_the_photo_pickers(args: list[str], looks: bool, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import waitress

    from companion.cli import main
    from companion.web.views_hands import recognizer

    served: list[Any] = []
    monkeypatch.setattr(waitress, "serve", lambda app, **settings: served.append(app))
    assert main(["serve", "--port", "1", "--host", "127.0.0.1", "--data-dir", str(tmp_path), *args]) == 0
    with served[0].app_context():
        assert (recognizer()._second is not None) is looks
    assert ("one classifier (--no-second-look)" in capsys.readouterr().out) is not looks


class _LostLeadingDigit(Recognizer):
    """Its number reader sees one digit only of every tile the first classifier reads as 10-13 (the 1 of a 10 or an
    11, the 2 of a 12, the 3 of a 13: a leading 1 lost at the crop's edge), sure of it."""

    def read_numbers(self, pixels: np.ndarray, boxes: np.ndarray, kinds: np.ndarray, upside_down: np.ndarray,
                     frames: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        numbers, no_number, turned = super().read_numbers(pixels, boxes, kinds, upside_down, frames)
        for index in np.flatnonzero(np.argmax(kinds[:, :len(NUMBERS)], 1) >= 9):
            digit = max(1, NUMBERS[int(np.argmax(kinds[index, :len(NUMBERS)]))] % 10)
            numbers[index] = np.full(len(NUMBERS), 0.0025)
            numbers[index, digit - 1] = 0.97
        return numbers, no_number, turned


def _two_digit_tiles(recognizer: Recognizer) -> list[tuple[str, bool]]:
    """rack_tilted_teens.jpg's tiles read as 10-13 (it has six): (reading, flagged)."""
    tiles = recognizer.recognize(DATA / "rack_tilted_teens.jpg").tiles
    return [(t.tile, t.low_confidence) for t in tiles if t.tile[1:] in TWO_DIGITS]


def test_two_classifiers_that_hold_two_digits_settle_the_readers_one_without_a_tap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that sees one of a tile's two digits (a 12 read 2) leaves the classifier's number standing and asks a
    tap (``fuse_number``); where both classifiers give that two-digit number at least ``BOTH_HOLD_TWO_DIGITS`` of
    their P(number), the tap is settled (thirty-fifth round: the classifiers right 41 times of 41 there).  One
    classifier alone, or a bar no classifier reaches, leaves every such tile flagged; the readings never change."""
    import vision.numerals as numerals_module

    plain = _two_digit_tiles(Recognizer())
    settled = _two_digit_tiles(_LostLeadingDigit())
    assert len(plain) == 6 and [tile for tile, _ in settled] == [tile for tile, _ in plain]
    assert 4 <= sum(not flagged for _, flagged in settled) <= sum(not flagged for _, flagged in plain)
    assert all(flagged for _, flagged in _two_digit_tiles(_LostLeadingDigit(second_look=False)))
    monkeypatch.setattr(numerals_module, "BOTH_HOLD_TWO_DIGITS", 1.01)
    assert all(flagged for _, flagged in _two_digit_tiles(_LostLeadingDigit()))
