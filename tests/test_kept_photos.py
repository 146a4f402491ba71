"""Photos kept at the table (issue 10): with ``serve --keep-photos`` the photos the pickers read are kept on the
host with the tiles as the players used them, and ``okey-companion photos export`` writes them as a folder that
``scripts/eval_vision.py --labelled`` measures: real racks to measure the reader on, gathered by playing."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.cli import main
from companion.kept_photos import KeptPhotos, LabelError, kept_photos, photo_id
from companion.store import TableStore
from test_photo_page import Reader, Seen

TOKEN = "test-token"
ROOT = Path(__file__).resolve().parent.parent


def _jpeg(seed: int = 0) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 255, (200, 400, 3), np.uint8)
    return cv2.imencode(".jpg", pixels)[1].tobytes()


def _read(*codes: str) -> list[dict[str, object]]:
    return [{"code": code, "box": (10 + 30 * i, 10, 35 + 30 * i, 50), "confidence": 0.9, "unsure": False}
            for i, code in enumerate(codes)]


def _labels(*codes: str, checked: str = "accepted") -> dict[str, object]:
    return {"tiles": [{"index": i, "code": code, "checked": checked} for i, code in enumerate(codes)]}


# -- the folder -----------------------------------------------------------------------------------------


def test_a_photo_is_kept_once_with_its_reading_and_its_labels(tmp_path: Path) -> None:
    kept = KeptPhotos(tmp_path / "kept")
    data = _jpeg()
    ident = kept.keep(data, (400, 200), _read("R7", "K13"))
    assert ident == photo_id(data) and kept.keep(data, (400, 200), _read("R7", "K13")) == ident
    assert kept.count() == 1 and (kept.root / "images" / f"{ident}.jpg").read_bytes() == data
    assert kept.label(ident, {"tiles": [{"index": 1, "code": "K12", "checked": "fixed"},
                                        {"index": 0, "code": "r7", "checked": "accepted"}]}) == 2
    [photo] = kept.labelled()
    assert [(t["code"], t["read"], t["checked"]) for t in photo.tiles] == [("R7", "R7", "accepted"), ("K12", "K13", "fixed")]
    assert photo.tiles[1]["box"] == [40, 10, 65, 50]


@pytest.mark.parametrize("sent, wrong", [
    (None, "labels must be"),
    ({"tiles": "R7 K13"}, "labels must be"),
    (_labels("R7"), "1 labels for the 2 tiles"),
    ({"tiles": [{"index": 0, "code": "R7", "checked": "accepted"}] * 2}, "label index 0"),
    ({"tiles": [{"index": 0, "code": "R7", "checked": "accepted"}, {"index": 5, "code": "R7", "checked": "accepted"}]},
     "label index 5"),
    ({"tiles": [{"index": 0, "code": "R7", "checked": "accepted"}, {"index": True, "code": "R7", "checked": "accepted"}]},
     "label index True"),
    (_labels("R7", "R14"), "label code 'R14'"),
    (_labels("R7", "R7 R8"), "label code 'R7 R8'"),
    (_labels("R7", "K13", checked="guessed"), "label checked 'guessed'"),
    ({"tiles": [1, 2]}, "a label must be an object"),
])
def test_labels_that_do_not_fit_the_photo_are_refused_and_nothing_is_kept(tmp_path: Path, sent: object, wrong: str) -> None:
    kept = KeptPhotos(tmp_path / "kept")
    ident = kept.keep(_jpeg(), (400, 200), _read("R7", "K13"))
    assert ident is not None
    with pytest.raises(LabelError, match=wrong):
        kept.label(ident, sent)
    assert list(kept.labelled()) == []


@pytest.mark.parametrize("ident", ["0" * 20, "../../etc/passwd", "ABCDEF0123456789abcd", ""])
def test_labels_for_a_photo_that_was_not_kept_are_refused(tmp_path: Path, ident: str) -> None:
    with pytest.raises(LabelError, match="no kept photo"):
        KeptPhotos(tmp_path / "kept").label(ident, _labels("R7"))


def test_a_full_folder_keeps_no_more(tmp_path: Path) -> None:
    kept = KeptPhotos(tmp_path / "kept", most=2)
    assert kept.keep(_jpeg(1), (400, 200), []) and kept.keep(_jpeg(2), (400, 200), [])
    assert kept.keep(_jpeg(3), (400, 200), []) is None and kept.count() == 2
    assert kept.keep(_jpeg(1), (400, 200), _read("R7")) == photo_id(_jpeg(1)), "a photo kept already is read again"


def test_a_folder_full_of_bytes_keeps_no_more(tmp_path: Path) -> None:
    kept = KeptPhotos(tmp_path / "kept", most_bytes=len(_jpeg(1)) + len(_jpeg(2)) + 10)
    assert kept.keep(_jpeg(1), (400, 200), []) and kept.keep(_jpeg(2), (400, 200), [])
    assert kept.keep(_jpeg(3), (400, 200), []) is None and kept.count() == 2


def test_a_photo_with_no_tiles_found_is_kept_and_says_so(client: FlaskClient, app: Flask, table: str) -> None:
    app.config["KEEP_PHOTOS"] = True
    app.extensions["recognizer"] = Reader()
    data = _jpeg()
    page = _photo(client, table, data)
    assert "No tiles found" in page and "data-kept-note" in page
    assert kept_photos(Path(app.config["DATA_DIR"])).read(photo_id(data))["tiles"] == []


def test_a_photo_the_host_cannot_write_is_still_read(client: FlaskClient, app: Flask, table: str) -> None:
    app.config["KEEP_PHOTOS"] = True
    app.extensions["recognizer"] = Reader(Seen("R7", (10, 10, 40, 60)))
    (Path(app.config["DATA_DIR"]) / "kept-photos").write_text("a file where the folder should be")
    page = _photo(client, table, _jpeg())
    assert 'data-code="R7"' in page and "data-keep" not in page and "data-kept-note" not in page


# -- the photo page ---------------------------------------------------------------------------------------


@pytest.fixture
def table(store: TableStore, client: FlaskClient) -> str:
    table_id = store.create_table(game="okey", players=["Ali", "Can", "Deniz", "Ece"], pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return table_id


def _photo(client: FlaskClient, table: str, data: bytes) -> str:
    fields = {"csrf_token": TOKEN, "picker": "picker-tiles", "photo": (io.BytesIO(data), "r.jpg", "image/jpeg")}
    response = client.post(f"/t/{table}/photo", data=fields, content_type="multipart/form-data")
    assert response.status_code == 200
    return response.text


def _send(client: FlaskClient, url: str, sent: object, token: str = TOKEN) -> tuple[int, str]:
    response = client.post(url, data=json.dumps(sent), content_type="application/json", headers={"X-CSRF-Token": token})
    return response.status_code, response.text


def test_the_page_keeps_the_photo_and_takes_its_labels_when_the_host_keeps_photos(
        client: FlaskClient, app: Flask, table: str) -> None:
    app.config["KEEP_PHOTOS"] = True
    app.extensions["recognizer"] = Reader(Seen("R7", (10, 10, 40, 60)), Seen("K13", (40, 10, 70, 60), 0.4, True))
    data = _jpeg()
    page = _photo(client, table, data)
    url = f"/t/{table}/photo/{photo_id(data)}/labels"
    assert f'data-keep="{url}"' in page and "data-kept-note" in page
    kept = kept_photos(Path(app.config["DATA_DIR"]))
    assert kept.read(photo_id(data))["tiles"][1] == {"code": "K13", "box": [40, 10, 70, 60], "confidence": 0.4,
                                                     "unsure": True}
    assert _send(client, url, _labels("R7", "K13", checked="garbage"))[0] == 422
    assert list(kept.labelled()) == []
    assert _send(client, url, _labels("R7", "K13"), token="forged")[0] == 400
    status, text = _send(client, url, {"tiles": [{"index": 0, "code": "R7", "checked": "accepted"},
                                                 {"index": 1, "code": "B13", "checked": "fixed"}]})
    assert status == 204, text
    [photo] = kept.labelled()
    assert [t["code"] for t in photo.tiles] == ["R7", "B13"]


def test_the_picker_says_before_a_photo_is_taken_that_photos_are_kept(client: FlaskClient, app: Flask, table: str) -> None:
    with client.session_transaction() as session:
        session["pins"] = {table: True}
    assert "data-keeps-photos" not in client.get(f"/t/{table}/win").text
    app.config["KEEP_PHOTOS"] = True
    page = client.get(f"/t/{table}/win").text
    assert "data-keeps-photos" in page and "Photos taken here are kept on the computer running the app" in page


def test_photos_are_not_kept_unless_the_host_says_so(client: FlaskClient, app: Flask, table: str) -> None:
    app.extensions["recognizer"] = Reader(Seen("R7", (10, 10, 40, 60)))
    data = _jpeg()
    page = _photo(client, table, data)
    assert "data-keep" not in page and "data-kept-note" not in page
    assert not (Path(app.config["DATA_DIR"]) / "kept-photos").exists()
    assert _send(client, f"/t/{table}/photo/{photo_id(data)}/labels", _labels("R7"))[0] == 404


# -- the export and its measure ---------------------------------------------------------------------------


def test_export_writes_a_folder_that_eval_vision_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = tmp_path / "data"
    kept = kept_photos(data_dir)
    first = kept.keep(_jpeg(1), (400, 200), _read("R7", "K13"))
    kept.keep(_jpeg(2), (400, 200), _read("B1"))  # never used: not exported
    assert first is not None
    kept.label(first, {"tiles": [{"index": 0, "code": "R7", "checked": "confirmed"},
                                 {"index": 1, "code": "K12", "checked": "fixed"}]})
    out = tmp_path / "out"
    assert main(["photos", "export", str(out), "--data-dir", str(data_dir)]) == 0
    said = capsys.readouterr().out
    assert "1 labelled photos, 2 tiles (1 picked from the list, 1 tapped as read right, 0 taken as read)" in said
    assert "kept photos without labels: 1 " in said
    with open(out / "labels.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["image"], r["tile"], r["read"], r["checked"]) for r in rows] == [
        (f"images/{first}.jpg", "R7", "R7", "confirmed"), (f"images/{first}.jpg", "K12", "K13", "fixed")]
    assert cv2.imread(str(out / "drawn" / f"{first}.jpg")).shape == (200, 400, 3)

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from eval_vision import synthetic_samples
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    [sample] = synthetic_samples(out)
    assert sample.path == out / "images" / f"{first}.jpg" and sample.upside_down is None
    assert sample.tiles == (("R7", (10.0, 10.0, 35.0, 50.0)), ("K12", (40.0, 10.0, 65.0, 50.0)))


def test_export_without_kept_photos_says_how_to_keep_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["photos", "export", str(tmp_path / "out"), "--data-dir", str(tmp_path / "data")]) == 2
    assert "start the app with 'okey-companion serve --keep-photos'" in capsys.readouterr().err


def test_the_service_unit_passes_keep_photos_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["service", "--print", "--user", "root", "--data-dir", str(tmp_path), "--keep-photos"]) == 0
    assert "--keep-photos" in capsys.readouterr().out
