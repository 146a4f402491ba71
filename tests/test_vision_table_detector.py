"""A photo of melds laid on the table is read with the table's own detector (``models/detector_table.onnx``, issue
10): the pickers of melds say so, the photo page, ``recognize --table`` and the batch's ``"table"`` pass it on, the
table detector finds the tiles of lines running away from the camera that the racks' detector boxes two or three at a
time, and a models folder without it reads such a photo as any other."""

from __future__ import annotations

import csv
import io
import json
import re
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import TableStore
from test_kept_photos import _jpeg
from vision import Recognizer
from vision.postprocess import box_iou
from vision.recognizer import MODELS_DIR, TABLE_DETECTOR

DATA = Path(__file__).parent / "data" / "vision"
TOKEN = "test-token"


def _right(recognition: Any, image: str) -> int:
    """Labelled tiles of ``image`` (tests/data/vision/table3d.csv) a box found covers (IoU ≥ 0.5, with the label's box
    or with the box of all the tile shows) and reads right."""
    with (DATA / "table3d.csv").open(newline="") as labels:
        tiles = [row for row in csv.DictReader(labels) if row["image"] == image]
    assert tiles, image
    found = np.array([t.box for t in recognition.tiles], np.float32).reshape(-1, 4)
    right = 0
    for row in tiles:
        best = np.zeros(len(found))
        for keys in (("x1", "y1", "x2", "y2"), ("whole_x1", "whole_y1", "whole_x2", "whole_y2")):
            best = np.maximum(best, box_iou(np.array([float(row[k]) for k in keys], np.float32), found))
        at = int(best.argmax()) if len(found) else -1
        right += at >= 0 and best[at] >= 0.5 and recognition.tiles[at].tile == row["tile"]
    return right


def test_the_models_folder_ships_a_table_detector() -> None:
    recognizer = Recognizer()
    assert (MODELS_DIR / TABLE_DETECTOR).is_file() and recognizer.reads_tables
    on_table = recognizer.on_table()
    assert on_table is not recognizer and on_table._detector is recognizer._table
    assert on_table._classifier is recognizer._classifier, "the table's view shares every other session"
    assert recognizer._detector is not recognizer._table, "the racks' recogniser keeps the racks' detector"
    assert not Recognizer(table_detector=False).reads_tables


def test_the_table_detector_finds_tiles_of_lines_seen_end_on() -> None:
    """A 3-D render of melds laid askew (scripts/render_racks_3d.py --style table --askew, seed 9612): lines running
    away from the camera, each tile a strip three or four times as wide as it is high.  The racks' detector boxes two
    or three strips as one tile; the table's finds them."""
    recognizer = Recognizer()
    image = DATA / "table3d_askew.jpg"
    as_rack = _right(recognizer.recognize(image), image.name)
    as_table = _right(recognizer.recognize(image, table=True), image.name)
    assert as_table >= as_rack + 3, (as_rack, as_table)


def test_a_rack_is_read_with_the_racks_detector_unless_the_photo_is_said_to_show_the_table() -> None:
    recognizer = Recognizer()
    image = DATA / "table3d_askew.jpg"
    plain = [(t.tile, t.box) for t in recognizer.recognize(image).tiles]
    assert plain == [(t.tile, t.box) for t in recognizer.recognize(image, table=False).tiles]
    assert plain != [(t.tile, t.box) for t in recognizer.recognize(image, table=True).tiles]
    assert plain == [(t.tile, t.box) for t in recognizer.recognize(image).tiles], "reading a table changes nothing after"


def test_without_the_table_detector_a_table_photo_is_read_as_any_photo(tmp_path: Path) -> None:
    for model in MODELS_DIR.iterdir():
        if model.name != TABLE_DETECTOR and model.suffix in (".onnx", ".json"):
            (tmp_path / model.name).symlink_to(model)
    recognizer = Recognizer(tmp_path)
    assert not recognizer.reads_tables and recognizer.on_table() is recognizer
    image = DATA / "table3d_askew.jpg"
    shipped = Recognizer().recognize(image)
    assert [(t.tile, t.box) for t in recognizer.recognize(image, table=True).tiles] == \
        [(t.tile, t.box) for t in shipped.tiles]


# -- the page: a picker of melds says its photo shows the table -------------------------------------------------------


class Reader:
    def __init__(self) -> None:
        self.asked: list[bool] = []

    def recognize(self, data: bytes, table: bool = False) -> object:
        self.asked.append(table)
        tiles = [types.SimpleNamespace(tile=code, box=(10 + 30 * i, 10, 36 + 30 * i, 46), confidence=0.97,
                                       low_confidence=False, warnings=()) for i, code in enumerate(["R7", "R8", "R9"])]
        return types.SimpleNamespace(tiles=tiles, width=400, height=200, warnings=())


def _sends(page: str) -> dict[str, str]:
    """Each photo input's picker → the "table" value it sends with the photo."""
    sent = {}
    for vals in re.findall(r"""type="file"[^>]*hx-vals='([^']+)'""", page):
        fields = json.loads(vals)
        sent[fields["picker"]] = fields["table"]
    return sent


def _signed_in(client: FlaskClient, table_id: str) -> str:
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table_id: True}
    return table_id


@pytest.mark.parametrize("game, page, sends", [
    ("okey101", "opening", {"meld-picker": "1"}),
    ("okey", "win", {"picker-tiles": "0"}),
    ("rummikub", "laydown", {"picker-table": "1", "picker-rack": "0"}),
    ("rummikub", "turn", {"picker-table_before": "1", "picker-table_after": "1"}),
])
def test_a_picker_of_melds_says_its_photo_shows_the_table(game: str, page: str, sends: dict[str, str],
                                                          client: FlaskClient, store: TableStore) -> None:
    table_id = _signed_in(client, store.create_table(game=game, players=["Ali", "Can", "Deniz", "Ece"], pin="1234"))
    html = client.get(f"/t/{table_id}/{page}").text
    sent = _sends(html)
    assert {picker: sent.get(picker) for picker in sends} == sends, sent


@pytest.mark.parametrize("fields, table", [({"table": "1"}, True), ({"table": "0"}, False), ({}, False),
                                          ({"table": "yes"}, False)])
def test_the_photo_page_reads_a_table_photo_with_the_table_detector(fields: dict[str, str], table: bool,
                                                                    client: FlaskClient, app: Flask,
                                                                    store: TableStore) -> None:
    table_id = _signed_in(client, store.create_table(game="okey101", players=["Ali", "Can", "Deniz", "Ece"],
                                                     pin="1234"))
    reader = app.extensions["recognizer"] = Reader()
    response = client.post(f"/t/{table_id}/photo", content_type="multipart/form-data", data={
        "csrf_token": TOKEN, "picker": "meld-picker", "photo": (io.BytesIO(b"jpeg"), "t.jpg", "image/jpeg"),
        **fields})
    assert response.status_code == 200 and 'data-code="R8"' in response.text
    assert reader.asked == [table]


# -- the command line and the batch -----------------------------------------------------------------------------------


@pytest.mark.parametrize("args, table", [(["--table"], True), ([], False)])
def test_recognize_table_reads_with_the_table_detector(args: list[str], table: bool, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import vision

    from companion.cli import main

    asked: list[bool] = []

    def recognize_file(path: Any, second_look: bool = True, table: bool = False) -> dict[str, Any]:
        asked.append(table)
        return {"image": str(path), "tiles": [], "warnings": [], "elapsed_ms": 1.0}

    monkeypatch.setattr(vision, "recognize_file", recognize_file)
    assert main(["recognize", "--json", *args, str(DATA / "table3d_askew.jpg")]) == 0
    assert asked == [table] and json.loads(capsys.readouterr().out)["tiles"] == []


def test_recognize_table_on_the_command_line_reads_more_of_an_askew_table(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    image = DATA / "table3d_askew.jpg"
    read = []
    for args in ([], ["--table"]):
        assert main(["recognize", "--json", *args, str(image)]) == 0
        tiles = json.loads(capsys.readouterr().out)["tiles"]
        read.append(_right(types.SimpleNamespace(tiles=[types.SimpleNamespace(**t) for t in tiles]), image.name))
    assert read[1] >= read[0] + 3, read


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_a_batch_table_must_be_true_or_false(value: Any) -> None:
    from companion.cli import CommandError, op_recognize

    with pytest.raises(CommandError, match="field 'table' must be true or false"):
        op_recognize({"image": str(DATA / "table3d_askew.jpg"), "table": value})


# -- kept photos: a photo of the table is kept as one, and exported apart ------------------------------------------


def test_a_kept_photo_of_the_table_is_exported_apart_for_the_table_detector(
        tmp_path: Path, client: FlaskClient, app: Flask, store: TableStore,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    from companion.kept_photos import kept_photos

    app.config["KEEP_PHOTOS"] = True
    app.extensions["recognizer"] = Reader()
    table_id = _signed_in(client, store.create_table(game="okey101", players=["Ali", "Can", "Deniz", "Ece"],
                                                     pin="1234"))
    idents = []
    for seed, fields in ((1, {"picker": "meld-picker", "table": "1"}), (2, {"picker": "picker-tiles", "table": "0"})):
        page = client.post(f"/t/{table_id}/photo", content_type="multipart/form-data", data={
            "csrf_token": TOKEN, "photo": (io.BytesIO(_jpeg(seed)), "p.jpg", "image/jpeg"), **fields}).text
        ident = re.search(r'data-keep="[^"]*/photo/([0-9a-f]{20})/labels"', page)
        assert ident is not None
        idents.append(ident.group(1))
        sent = {"tiles": [{"index": i, "code": code, "checked": "accepted"} for i, code in enumerate(["R7", "R8", "R9"])]}
        labelled = client.post(f"/t/{table_id}/photo/{idents[-1]}/labels", data=json.dumps(sent),
                               content_type="application/json", headers={"X-CSRF-Token": TOKEN})
        assert labelled.status_code == 204
    kept = kept_photos(Path(app.config["DATA_DIR"]))
    assert [kept.read(ident)["table"] for ident in idents] == [True, False]
    out = tmp_path / "out"
    assert main(["photos", "export", str(out), "--data-dir", app.config["DATA_DIR"]]) == 0
    said = capsys.readouterr().out
    assert "2 labelled photos, 6 tiles" in said and "1 of them show melds laid on the table" in said
    assert f"--labelled {out / 'table'} --table" in said
    for folder, ident in ((out, idents[1]), (out / "table", idents[0])):
        with open(folder / "labels.csv", newline="") as handle:
            assert {row["image"] for row in csv.DictReader(handle)} == {f"images/{ident}.jpg"}
        assert (folder / "drawn" / f"{ident}.jpg").is_file()
    assert sorted(p.name for p in (out / "images").iterdir()) == [f"{idents[1]}.jpg"]


def test_a_photo_kept_before_tables_were_told_apart_exports_as_a_rack(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A kept folder written by an earlier version has no ``table`` in its records: its photos are racks, as then."""
    from companion.cli import main
    from companion.kept_photos import kept_photos

    kept = kept_photos(tmp_path / "data")
    ident = kept.keep(_jpeg(3), (400, 200), [{"code": "R7", "box": (10, 10, 35, 50), "confidence": 0.9,
                                              "unsure": False}])
    assert ident is not None
    record = json.loads((kept.root / "read" / f"{ident}.json").read_text())
    del record["table"]
    (kept.root / "read" / f"{ident}.json").write_text(json.dumps(record))
    kept.label(ident, {"tiles": [{"index": 0, "code": "R7", "checked": "accepted"}]})
    assert main(["photos", "export", str(tmp_path / "out"), "--data-dir", str(tmp_path / "data")]) == 0
    said = capsys.readouterr().out
    assert "1 labelled photos, 1 tiles" in said and "show melds laid on the table" not in said
    assert not (tmp_path / "out" / "table").exists()
