"""The photo page (issue 10): confidence on the tile, typed tiles kept when nothing is found, rule checks
flagged for a tap, the "one tile away" offer, plain retake advice, a second photo of the same rack."""

from __future__ import annotations

import io
import re
import types
from dataclasses import dataclass, replace
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import TableStore

TOKEN = "test-token"


@dataclass(frozen=True)
class Seen:
    tile: str
    box: tuple[int, int, int, int]
    confidence: float = 0.97
    low_confidence: bool = False
    warnings: tuple[str, ...] = ()
    other_colour: str | None = None


class Reader:
    def __init__(self, *tiles: Seen, warnings: tuple[str, ...] = ()) -> None:
        self.tiles = tiles
        self.warnings = warnings

    def recognize(self, data: bytes, table: bool = False) -> object:
        return types.SimpleNamespace(tiles=self.tiles, width=400, height=200, warnings=self.warnings)


def _row(codes: str, top: int = 10, unsure: tuple[int, ...] = ()) -> list[Seen]:
    return [Seen(code, (10 + 20 * i, top, 28 + 20 * i, top + 26), 0.42 if i in unsure else 0.97, i in unsure)
            for i, code in enumerate(codes.split())]


@pytest.fixture
def table(store: TableStore, client: FlaskClient) -> str:
    table_id = store.create_table(game="okey", players=["Ali", "Can", "Deniz", "Ece"], pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table_id: True}
    return table_id


def _photo(client: FlaskClient, table: str, **fields: str) -> str:
    data = {"csrf_token": TOKEN, "picker": "picker-tiles", "photo": (io.BytesIO(b"jpeg"), "r.jpg", "image/jpeg"), **fields}
    response = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data")
    assert response.status_code == 200
    return response.text


def _words(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_no_tiles_found_keeps_the_typed_tiles(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader()
    page = _photo(client, table)
    assert "No tiles found: the tiles you typed are kept, nothing was replaced." in _words(page)
    assert "data-use-photo" not in page and "data-add-photo" not in page


def test_confidence_shows_on_each_tile(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("R7 K13", unsure=(1,)))
    page = _photo(client, table)
    assert re.findall(r"data-conf>(\d+)%", page) == ["97", "42"]
    assert re.search(r'class="lbl"[^>]*>K13 42%', page), "an unsure tile's box carries its confidence"


def test_a_rack_small_in_the_photo_is_shown_as_its_part_of_the_photo(client: FlaskClient, app: Flask, table: str) -> None:
    """A rack photographed from the seat is a strip of the photo: the page shows that part, the boxes in place."""
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3 R4", top=80))
    page = _photo(client, table)
    x, y, w, h = (int(v) for v in re.search(r'<svg viewBox="([\d ]+)"', page).group(1).split())
    assert re.search(r'<image [^>]*x="0" y="0" width="400" height="200"', page), "the photo keeps its own pixels"
    # The tiles span x 10-88 and y 80-106 (26 px tall): 13 px round them (clamped at the photo's left edge), and
    # room for the labels above.
    assert (x, x + w, y + h) == (0, 88 + 13, 106 + 13) and y <= 80 - 13 - 14, "the tiles, half a tile round them"
    assert w * h < 400 * 200 / 4 and x + w <= 400 and y + h <= 200
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3 R4", top=10), Seen("K5", (330, 150, 390, 195)))
    assert '<svg viewBox="0 0 400 200"' in _photo(client, table), "tiles all over the photo: the whole of it"


def test_a_tile_is_corrected_first_to_its_number_in_the_other_colours(client: FlaskClient, app: Flask, table: str) -> None:
    """A warm lamp reads a red yellow, a dim one a blue black: the number stays, so those come first in the list."""
    app.extensions["recognizer"] = Reader(*_row("Y5 K12 F", unsure=(0, 1, 2)))
    lists = re.findall(r"<select data-rec-fix.*?</select>", _photo(client, table), re.S)
    first = [re.findall(r'<option value="(\w+)"', chosen)[:3] for chosen in lists]
    assert first == [["R5", "B5", "K5"], ["R12", "Y12", "B12"], ["R1", "R2", "R3"]]
    app.extensions["recognizer"] = Reader(replace(Seen("K12", (10, 10, 28, 36), 0.5, True), other_colour="B"))
    lists = re.findall(r"<select data-rec-fix.*?</select>", _photo(client, table), re.S)
    assert re.findall(r'<option value="(\w+)"', lists[0])[:3] == ["B12", "R12", "Y12"], "the colour doubted for first"
    assert all(len(re.findall(r'<option value="\w+"', chosen)) == 53 + (3 if n < 2 else 0) for n, chosen in enumerate(lists))


def test_a_tile_with_no_number_seen_offers_the_special_tile_first(client: FlaskClient, app: Flask, table: str) -> None:
    """A tile on which the number reader saw no number may be a false okey's emblem read as a number: the false okey
    comes first in its list (on a Rummikub table the joker); a tile whose number was seen starts with its colours."""
    seen = replace(Seen("K4", (10, 10, 28, 36), 0.45, True), warnings=("no number seen: a false okey?",))
    app.extensions["recognizer"] = Reader(seen, *_row("R5", top=50, unsure=(0,)))
    lists = re.findall(r"<select data-rec-fix.*?</select>", _photo(client, table), re.S)
    assert [re.findall(r'<option value="(\w+)"', chosen)[:2] for chosen in lists] == [["F", "R4"], ["Y5", "B5"]]
    assert "No number seen" in lists[0] and "No number seen" not in lists[1]
    lists = re.findall(r"<select data-rec-fix.*?</select>", _photo(client, table, special="J"), re.S)
    assert re.findall(r'<option value="(\w+)"', lists[0])[:2] == ["J", "R4"]


def test_two_dashed_tiles_whose_colour_is_doubted_alike_are_offered_in_the_other_with_one_tap(
        client: FlaskClient, app: Flask, table: str) -> None:
    """A warm lamp reads a photo's reds yellow, all alike: where the reader doubted two or more dashed tiles' colour for
    the same other, one tap offers them all in it.  A dashed tile doubted for its number only is not offered."""
    doubted = [replace(tile, other_colour=other) for tile, other in zip(_row("Y5 Y7 Y8 K3 R2 Y9", unsure=(0, 1, 2, 3, 4)),
                                                                        ("R", "R", None, "B", "Y", None))]
    app.extensions["recognizer"] = Reader(*doubted)
    page = _photo(client, table)
    assert re.findall(r'data-recolour="(\w+)"', page) == ["YR"], "one black doubted blue, one red doubted yellow: no offer"
    assert "Dashed yellow tiles (2) → red" in _words(page)
    assert page.index("data-recolour=") < page.index('class="confirm-list'), "offered before the tiles to confirm one by one"
    assert 'data-code="Y5" data-read="Y5" data-other="R"' in page, "nothing is changed until the tap"
    assert re.search(r'data-code="Y8" data-read="Y8"\s+data-row', page), "its number doubted, not its colour"
    app.extensions["recognizer"] = Reader(*_row("Y5 Y7 Y8", unsure=(0, 1, 2)))
    assert "data-recolour" not in _photo(client, table), "dashed, but no colour doubted"


def test_O1_three_copies_are_flagged_for_a_tap_not_changed(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("R7 R7 R7 K1"))
    page = _photo(client, table)
    assert "R7 read 3 times, but a set has only two" in _words(page)
    assert len(re.findall(r'class="tile R low" data-rec="picker-tiles-\d" data-code="R7"', page)) == 3
    assert re.search(r"data-use-photo\s+disabled", page)


def test_O1_tile_count_and_retake_advice(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3 B5 Y5 K5 R9"))
    page = _photo(client, table, expect="14")
    words = _words(page)
    assert "7 tiles read where 14 are expected" in words
    assert "the left half, then the right half" in words
    assert "are expected" not in _words(_photo(client, table, expect="0-22"))


def test_faint_colours_are_said_and_the_retake_asks_for_light(client: FlaskClient, app: Flask, table: str) -> None:
    """A photo whose colours the recogniser strengthened says so, in the reader's language; with a third of
    its tiles unsure, the retake advice asks for more light rather than a closer photo."""
    from vision.recognizer import FAINT_COLOURS_MESSAGE
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3 B5 Y5 K5", unsure=(0, 3)), warnings=(FAINT_COLOURS_MESSAGE,))
    words = _words(_photo(client, table))
    assert "The colours in this photo are faint" in words
    assert "Retake in brighter light" in words and "hold the phone closer" not in words
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3 B5 Y5 K5", unsure=(0,)), warnings=(FAINT_COLOURS_MESSAGE,))
    words = _words(_photo(client, table))
    assert "The colours in this photo are faint" in words and "Retake" not in words, "one tile unsure: no retake"
    client.get("/lang?lang=tr&next=/")
    assert "Fotoğraftaki renkler soluk" in _words(_photo(client, table))


def test_a_blurred_photo_is_said_and_the_retake_asks_to_hold_the_phone_still(client: FlaskClient, app: Flask,
                                                                              table: str) -> None:
    from vision.recognizer import BLUR_MESSAGE
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3 B5 Y5 K5", unsure=(0,)), warnings=(BLUR_MESSAGE,))
    words = _words(_photo(client, table))
    assert "The photo is blurred (the phone moved, or did not focus)" in words
    assert "Retake holding the phone still" in words and "hold the phone closer" not in words
    client.get("/lang?lang=tr&next=/")
    assert "Fotoğraf bulanık" in _words(_photo(client, table))


def test_small_tiles_are_said_on_the_tile_and_for_the_photo(client: FlaskClient, app: Flask, table: str) -> None:
    tiles = [Seen(code, box, 0.9, True, ("small in the photo",)) for code, box in
             [("R1", (10, 10, 30, 36)), ("R2", (30, 10, 50, 36)), ("R3", (50, 10, 70, 36))]]
    app.extensions["recognizer"] = Reader(*tiles, warnings=("3 tile(s) small in the photo: hold the camera closer",))
    page = _photo(client, table)
    words = _words(page)
    assert "Tiles small in the photo: 3. Hold the camera closer" in words
    assert "hold the phone closer" in words, "the retake advice"
    assert unescape(page).count("90% · small in the photo: check it") == 3, "on each tile"


def test_glare_is_said_and_the_retake_asks_to_tilt_the_phone(client: FlaskClient, app: Flask, table: str) -> None:
    """A photo with part of its tiles under a lamp's or the flash's reflection says so, in the reader's
    language, and so does each tile under it; where tiles are missing (fewer than expected) the retake advice
    is about the glare; a tile under glare read surely stays sure, and with every tile there, no retake."""
    from vision.recognizer import GLARE_MESSAGE, GLARE_WARNING
    tiles = [Seen(code, (10 + 20 * i, 10, 28 + 20 * i, 36), warnings=(GLARE_WARNING,) if i < 2 else ())
             for i, code in enumerate("R1 R2 R3 B5 Y5 K5 R9".split())]
    app.extensions["recognizer"] = Reader(*tiles, warnings=(GLARE_MESSAGE,))
    page = _photo(client, table, expect="14")
    words = _words(page)
    assert "Glare (a lamp or the flash) washes out part of the tiles: tiles there may be misread, or not found" in words
    assert "Retake without the glare: tilt the phone a little" in words and "the left half" not in words
    assert unescape(page).count("97% · washed out by glare") == 2, "on each tile"
    assert "Tiles to confirm" not in words, "glare alone flags no tile"
    assert "Retake" not in _words(_photo(client, table)), "every tile read surely, none missing: no retake"
    client.get("/lang?lang=ru&next=/")
    words = _words(_photo(client, table, expect="14"))
    assert "Блик (от лампы или вспышки) засвечивает часть фишек" in words and "Переснимите без блика" in words


def test_O5_one_tile_away_is_offered_as_a_tap(client: FlaskClient, app: Flask, table: str, store: TableStore) -> None:
    store.record(table, {"type": "indicator", "tile": "Y3"})
    codes = "R7 R6 R9 K1 K2 K3 B5 Y5 K5 B9 B10 B11 B12 B13"
    app.extensions["recognizer"] = Reader(*_row(codes, unsure=(1,)))
    page = _photo(client, table, expect="14", win_hint="1")
    assert "One tile away from a win: if R6 (tile 2) is really one of these" in _words(page)
    assert re.search(r'data-one-away="picker-tiles-1" data-code="R8"', page)
    assert 'data-rec="picker-tiles-1" data-code="R6"' in page, "nothing is changed until the tap"
    assert "One tile away" not in _words(_photo(client, table, expect="14"))


def test_O4_one_tile_away_follows_the_tables_wrap_13_1(client: FlaskClient, app: Flask, store: TableStore) -> None:
    """A tile offered as "the hand wins" must win at this table: R12 R13 R1 is a run only with wrap_13_1, so a
    table that plays without it is offered nothing (the page offered R12, which check_win refuses there)."""
    from companion.rules.options import options_for
    from companion.rules.win import check_win

    codes = "R13 R1 R6 K1 K2 K3 B5 Y5 K5 B9 B10 B11 B12 B13"
    app.extensions["recognizer"] = Reader(*_row(codes, unsure=(2,)))
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    offered = {}
    for wrap in (True, False):
        table_id = store.create_table(game="okey", players=["Ali", "Can", "Deniz", "Ece"], pin="1234",
                                      options={"wrap_13_1": wrap})
        store.record(table_id, {"type": "indicator", "tile": "Y3"})
        page = _photo(client, table_id, expect="14", win_hint="1")
        offered[wrap] = re.findall(r'data-one-away="picker-tiles-2" data-code="(\w+)"', page)
    won = codes.replace("R6", "R12")
    assert check_win(won, indicator="Y3", options=options_for("okey", {"wrap_13_1": True})).winning
    assert not check_win(won, indicator="Y3", options=options_for("okey", {"wrap_13_1": False})).winning
    assert offered == {True: ["R12"], False: []}


def test_tiles_carry_their_rack_row_for_a_second_photo(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("R1 R2 R3"), *_row("K5 K6", top=60))
    page = _photo(client, table)
    assert re.findall(r'data-row="(\d)"', page) == ["0", "0", "0", "1", "1"]
    assert "data-add-photo" in page


def _after(tiles: list[Seen], size: tuple[int, int] = (400, 200)) -> str:
    import json

    return json.dumps({"size": list(size), "tiles": [{"code": t.tile, "box": list(t.box), "cut": "cut by the frame" in t.warnings}
                                                     for t in tiles]})


def test_a_second_photo_marks_the_tiles_the_last_photo_shows_too(client: FlaskClient, app: Flask, table: str) -> None:
    """The page sends the last photo's tiles back with the next photo; the tiles both show are marked, each
    with the index of its twin in the last photo, and said, so that adding them counts them once."""
    last = _row("R1 R2 R3 R4 R5 R6 R7") + _row("K1 K2 K3 K4 K5 K6", top=60)
    # The next photo starts four tiles further right, and one row lower in the frame.
    shifted = [Seen(t.tile, (t.box[0] - 80, t.box[1] + 10, t.box[2] - 80, t.box[3] + 10)) for t in last if t.box[0] >= 90]
    more = [Seen(code, (70 + 20 * i, 20, 88 + 20 * i, 46)) for i, code in enumerate(("R8", "R9"))]
    app.extensions["recognizer"] = Reader(*shifted[:3], *more, *shifted[3:])
    page = _photo(client, table, after=_after(last))
    assert re.findall(r'data-code="(\w+)"[^>]*data-same="(\d+)"', page) == [
        ("R5", "4"), ("R6", "5"), ("R7", "6"), ("K5", "11"), ("K6", "12")]
    assert re.findall(r'data-code="(R8|R9)"[^>]*data-same', page) == []
    assert "Tiles of this photo also in the last photo: 5 (marked ↔)" in _words(page)
    plain = _photo(client, table)
    assert "data-same" not in plain and "marked ↔" not in _words(plain)


def test_a_second_photo_of_another_rack_marks_nothing(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("B9 B10 B11 Y2 Y3"))
    page = _photo(client, table, after=_after(_row("R1 R2 R3 R4 R5")))
    assert "data-same" not in page and "data-add-photo" in page
    assert "This photo could not be laid over the last one" in _words(page)
    assert "could not be laid over" not in _words(_photo(client, table)), "a first photo says nothing of it"


@pytest.mark.parametrize("after", ["{", "[]", '{"size": [400, 200]}', '{"size": [0, 200], "tiles": []}',
                                   '{"size": [400, 200], "tiles": [{"code": "Q9", "box": [0, 0, 10, 10]}]}',
                                   '{"size": [400, 200], "tiles": [{"code": "R1", "box": [10, 0, 5, 10]}]}',
                                   '{"size": [400, 200], "tiles": [{"code": "R1", "box": [0, 0, "NaN", 10]}]}',
                                   '{"size": [400, 200], "tiles": ' + str([{"code": "R1", "box": [0, 0, 1, 1]}] * 65).replace("'", '"') + "}",
                                   "[" * 5000 + "]" * 5000, '{"size": [400, 200], "tiles": [], "pad": "' + "x" * 9000 + '"}'])
def test_last_photo_tiles_that_make_no_sense_are_refused_plainly(client: FlaskClient, app: Flask, table: str,
                                                                 after: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("R1 R2"))
    data = {"csrf_token": TOKEN, "picker": "picker-tiles", "after": after,
            "photo": (io.BytesIO(b"jpeg"), "r.jpg", "image/jpeg")}
    response = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "The tiles of the last photo came back unreadable" in _words(response.text)
    assert "data-rec" not in response.text


def test_tiles_carry_their_place_box_and_cut_for_the_next_photo(client: FlaskClient, app: Flask, table: str) -> None:
    tiles = _row("R1 R2") + [Seen("R3", (380, 10, 400, 36), warnings=("cut by the frame",))]
    app.extensions["recognizer"] = Reader(*tiles)
    page = _photo(client, table)
    assert re.findall(r'data-place="(\d+)"', page) == ["0", "1", "2"]
    assert re.findall(r'data-box="([\d. ]+)"', page) == ["10 10 28 36", "30 10 48 36", "380 10 400 36"]
    assert page.count("data-cut") == 1 and 'data-size="400 200"' in page


def test_a_photo_added_to_the_last_one_is_not_counted_as_a_whole_rack(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(*_row("R5 R6 R7 R8 R9"))
    alone = _words(_photo(client, table, expect="14"))
    assert "5 tiles read where 14 are expected" in alone
    part = _words(_photo(client, table, expect="14", after=_after(_row("R1 R2 R3 R4 R5 R6"))))
    assert "are expected" not in part and "A wide rack reads better" not in part


@pytest.mark.parametrize("enlarged, reduced", [(4, 2), (10, 4)], ids=["12-mp", "50-mp"])
def test_a_phone_photo_comes_back_at_the_size_it_was_read(client: FlaskClient, app: Flask, table: str, enlarged: int,
                                                         reduced: int) -> None:
    """A 12 MP upload (here 3200×2400) is read at its working size and shown back as that smaller JPEG, boxes over the
    whole photo; so is a phone's 50 MP mode (here 8000×6000), which the page refused as too large to read."""
    import base64
    from pathlib import Path

    import cv2
    import numpy as np

    app.extensions.pop("recognizer", None)  # the real recogniser
    small = cv2.imread(str(Path(__file__).parent / "data" / "vision" / "rack_front.jpg"))
    big = cv2.resize(small, None, fx=enlarged, fy=enlarged, interpolation=cv2.INTER_CUBIC)
    upload = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    data = {"csrf_token": TOKEN, "picker": "picker-tiles", "photo": (io.BytesIO(upload), "r.jpg", "image/jpeg")}
    page = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data").text
    height, width = big.shape[:2]
    assert f'viewBox="0 0 {width} {height}"' in page, "the boxes are in the whole photo's pixels"
    shown = base64.b64decode(re.search(r'href="data:image/jpeg;base64,([^"]+)"', page).group(1))
    assert len(shown) < len(upload) / 3
    assert cv2.imdecode(np.frombuffer(shown, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (height // reduced,
                                                                                       width // reduced)
    assert len(re.findall(r'class="box[ "]', page)) >= 10


def test_a_blurred_tile_says_so_on_itself_in_the_readers_language(client: FlaskClient, app: Flask, table: str) -> None:
    """A tile out of focus in a photo sharp on the whole (vision.recognizer TILE_BLUR_WARNING) is flagged and says
    why in its tooltip; the photo itself is not said blurred."""
    from vision.recognizer import BLUR_MESSAGE, TILE_BLUR_WARNING
    tiles = [Seen(code, (10 + 20 * i, 10, 28 + 20 * i, 36), 0.85 if i == 0 else 0.97, i == 0,
                  (TILE_BLUR_WARNING,) if i == 0 else ()) for i, code in enumerate("R1 R2 R3".split())]
    app.extensions["recognizer"] = Reader(*tiles)
    page = unescape(_photo(client, table))
    assert page.count("85% · blurred: check it") == 1 and page.count("blurred: check it") == 1
    assert "hold the phone still" not in _words(page), "the photo is not said blurred"
    assert BLUR_MESSAGE not in page
    client.get("/lang?lang=tr&next=/")
    assert "85% · bulanık: kontrol edin" in unescape(_photo(client, table))


HAND_ONE = {"type": "okey_hand", "hand": {"winner": 0, "tiles": "R1 R2 R3 R4 K4 K5 K6 B7 B8 B9 Y10 Y11 Y12 Y13",
                                         "discard": "R11", "indicator": "Y3"}}
"""Hand 1, won with Y3 as its indicator: what a correction (``amend=1``) is checked against."""


def test_O3_a_photo_is_checked_against_the_indicator_its_form_holds(client: FlaskClient, app: Flask, table: str,
                                                                   store: TableStore) -> None:
    """Correcting a recorded hand, the photo's tiles are checked against that hand's indicator (the form's field), not
    today's deal's: both copies of the old indicator are flagged, both of today's are not; with none turned up the
    one typed is used; what was typed that is no tile checks against none."""
    codes = "R7 R8 R9 K1 K2 K3 B5 Y5 K5 B9 B10 B11 Y3 Y3"
    app.extensions["recognizer"] = Reader(*_row(codes))
    twins = "Both Y3 read, but one Y3 is the indicator on the table"
    assert twins in _words(_photo(client, table, expect="14", indicator="Y3")), "none turned up: the typed one"
    store.record(table, HAND_ONE)
    store.record(table, {"type": "indicator", "tile": "K5"})
    assert twins not in _words(_photo(client, table, expect="14")), "today's indicator is K5"
    assert twins in _words(_photo(client, table, expect="14", amend="1", indicator="Y3")), "hand 1's, corrected"
    assert twins not in _words(_photo(client, table, expect="14", amend="1", indicator="R44")), "no tile: no check"
    store.record(table, {"type": "indicator", "tile": "Y3"})
    assert twins in _words(_photo(client, table, expect="14"))
    assert twins not in _words(_photo(client, table, expect="14", amend="1", indicator="")), "cleared in the form"


def test_O5_one_tile_away_uses_the_corrected_hands_indicator(client: FlaskClient, app: Flask, table: str,
                                                            store: TableStore) -> None:
    """The win offered on a photo while correcting hand 1 is judged with hand 1's indicator: with today's R7 the okey
    is R8, so R8 is offered as the false okey that stands for it; with the form's Y3, R8 itself."""
    codes = "R7 R6 R9 K1 K2 K3 B5 Y5 K5 B9 B10 B11 B12 B13"
    app.extensions["recognizer"] = Reader(*_row(codes, unsure=(1,)))
    store.record(table, HAND_ONE)
    store.record(table, {"type": "indicator", "tile": "R7"})
    offered = r'data-one-away="picker-tiles-1" data-code="(\w+)"'
    assert re.findall(offered, _photo(client, table, expect="14", win_hint="1")) == ["F"]
    assert re.findall(offered, _photo(client, table, expect="14", win_hint="1", amend="1", indicator="Y3")) == ["R8"]


def test_a_motion_photo_s_video_is_neither_read_nor_sent_back(client: FlaskClient, app: Flask, table: str) -> None:
    """A phone's motion photo carries a video after its JPEG: the recogniser gets the JPEG alone, and the page shows
    it without the video's megabytes."""
    import base64

    import cv2
    import numpy as np

    jpeg = cv2.imencode(".jpg", np.full((60, 80, 3), 200, np.uint8))[1].tobytes()
    got: list[bytes] = []

    class Keeping(Reader):
        def recognize(self, data: bytes, table: bool = False) -> object:
            got.append(data)
            return super().recognize(data)

    app.extensions["recognizer"] = Keeping(*_row("R7 R8 R9"))
    data = {"csrf_token": TOKEN, "picker": "picker-tiles",
            "photo": (io.BytesIO(jpeg + b"MotionPhoto_Data" + bytes(200_000)), "m.jpg", "image/jpeg")}
    page = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data").text
    assert got == [jpeg]
    shown = re.search(r"data:image/jpeg;base64,([A-Za-z0-9+/=]+)", page)
    assert shown is not None and base64.b64decode(shown.group(1)) == jpeg


def test_a_50_mp_photo_of_20_mb_is_taken_not_refused_as_too_much(client: FlaskClient, app: Flask, table: str) -> None:
    """A phone's 50 MP photo is 10-20 MB: the upload limit (16 MB until the forty-ninth round) takes it."""
    app.extensions["recognizer"] = Reader(*_row("R7 R8 R9"))
    data = {"csrf_token": TOKEN, "picker": "picker-tiles",
            "photo": (io.BytesIO(b"\xff\xd8" + bytes(20 * 1024 * 1024)), "r.jpg", "image/jpeg")}
    page = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data")
    assert page.status_code == 200 and page.text.count('class="box') == 3


def test_a_photo_too_large_to_read_says_how_to_take_it_in_the_reader_s_language(client: FlaskClient, app: Flask,
                                                                               table: str) -> None:
    """A photo too large to read (a JPEG over 200 MP, a PNG over 40 MP; a phone's 50 MP mode is read): the page says
    to take it at the camera's usual size, in English and in Turkish, not the reader's own English words."""
    class TooLarge(Reader):
        def recognize(self, data: bytes, table: bool = False) -> object:
            raise ValueError("image too large: 16384×16384 (max 200 MP); send a smaller photo")

    app.extensions["recognizer"] = TooLarge()
    data = {"csrf_token": TOKEN, "picker": "picker-tiles", "photo": (io.BytesIO(b"jpeg"), "r.jpg", "image/jpeg")}
    page = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data")
    assert page.status_code == 422
    assert "take it at the camera's usual size (12 MP" in _words(page.text)
    client.get("/lang?lang=tr&next=/")
    data["photo"] = (io.BytesIO(b"jpeg"), "r.jpg", "image/jpeg")
    page = client.post(f"/t/{table}/photo", data=data, content_type="multipart/form-data")
    assert "kameranın olağan boyutunda çekin" in _words(page.text) and "send a smaller photo" not in page.text
