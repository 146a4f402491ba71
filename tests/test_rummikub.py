"""Rummikub (RULES.md §R, game ``rummikub``) as a product: batch and command line (``solve``, ``score``), the
HTTP API's tables and ``rummikub_hand`` events, the web hand form, the lay-down assistant page, translations.
The rules themselves are tested in tests/test_rules_rummikub.py."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.store import TableStore

PLAYERS = ["Ali", "Can", "Deniz"]
TOKEN = "test-token"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# -- batch and the command line ---------------------------------------------------------------------


def test_R4_batch_solve():
    result = answer({"op": "solve", "game": "rummikub", "table": "R1 R2 R3", "rack": "R4 K9", "goal": "tiles",
                     "initial": False})
    assert result["possible"] is True and result["melds"] == [["R1", "R2", "R3", "R4"]]
    assert result["placed"] == ["R4"] and result["value"] == 4
    joker = answer({"op": "solve", "game": "rummikub", "table": "", "rack": "R4 J R6", "goal": "all"})
    assert joker["melds"] == [["R4", "J", "R6"]] and joker["faces"] == [["R4", "R5", "R6"]] and joker["value"] == 40
    impossible = answer({"op": "solve", "game": "rummikub", "table": "R4 R5 R6", "rack": "R7 B1", "goal": "all"})
    assert impossible["possible"] is False and impossible["cannot"] == ["B1"]
    opening = answer({"op": "solve", "game": "rummikub", "table": "R4 R5 R6", "rack": "R7", "initial": True})
    assert opening["possible"] is False
    fifty = answer({"op": "solve", "game": "rummikub", "table": "", "rack": "R10 R11 R12", "initial": True,
                    "options": {"initial_meld": 50}})
    assert fifty["possible"] is False


@pytest.mark.parametrize(("request_", "message"), [
    ({"table": "R7 R7 R7", "rack": "R4"}, "3 × R7"),
    ({"table": "R1 R2 R4 |", "rack": "R3"}, "the table is not valid melds"),
    ({"table": "B7 R7 B9 R9", "rack": "K7"}, "cannot be split into valid melds"),
    ({"table": "", "rack": 5}, "invalid rack 5"),
    ({"table": "", "rack": "R14"}, "'R14'"),
    ({"table": "", "rack": "R1", "goal": "best"}, "invalid goal 'best'"),
    ({"table": "", "rack": "R1", "initial": "yes"}, "invalid initial"),
    ({"table": "", "rack": "R1", "tabel": ""}, "unknown field 'tabel'"),
])
def test_R4_batch_solve_bad_input_is_a_clear_error(request_, message):
    result = answer({"op": "solve", "game": "rummikub", **request_})
    assert set(result) == {"error"} and message in result["error"]


def test_R6_batch_score():
    result = answer({"op": "score", "game": "rummikub", "hand": {"winner": 0, "racks": ["", "R5 J", "K12 B1"]}})
    assert result["scores"] == [48, -35, -13]
    assert result["explain"][0] == "Player 1 went out: + the others' racks 35 + 13 = +48 (R6)."
    pool = answer({"op": "score", "game": "rummikub", "hand": {"winner": None, "racks": ["R3 R4", "K10", "J"]}})
    assert pool["scores"] == [26, -3, -23]
    assert "invalid rack 5" in answer({"op": "score", "game": "rummikub", "hand": {"winner": 0, "racks": ["", 5]}})["error"]
    assert "unknown field" in answer({"op": "score", "game": "rummikub", "hand": {"winner": 0, "racks": ["", ""],
                                                                                 "finisher": 0}})["error"]


def test_R4_command_line_solve_for_people(capsys):
    assert main(["solve", "--game", "rummikub", "table=R4 J R6 | K9 K10 K11", "rack=R5 Y9 B9", "goal=tiles"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "possible: most tiles: lays 3 tiles worth 23; 1 table meld changed"
    assert "K9 K10 K11   (unchanged)" in out and "R4 *R5 R6" in out and "J(R9)" in out
    assert main(["solve", "--game", "rummikub", "table=R4 R4 R4", "rack=R5"]) == 2
    assert "3 × R4" in capsys.readouterr().err
    assert main(["solve", "--game", "rummikub", "--json", "table=", "rack=R1 R2 R3"]) == 0
    assert json.loads(capsys.readouterr().out)["placed"] == ["R1", "R2", "R3"]


def test_R6_command_line_score(tmp_path, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"winner": None, "racks": ["R3", "K10 J"]}))
    assert main(["score", "--game", "rummikub", "--hand", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "scores: 37 -37"


# -- the HTTP API ----------------------------------------------------------------------------------


def test_R6_api_table_and_hand_event(client: FlaskClient):
    created = client.post("/api/tables", json={"game": "rummikub", "players": PLAYERS, "pin": "1234",
                                                "options": {"hands": 2}})
    assert created.status_code == 201
    table = created.json["id"]
    headers = {"X-Table-Pin": "1234"}
    response = client.post(f"/api/tables/{table}/events", headers=headers,
                           json={"type": "rummikub_hand", "hand": {"winner": 1, "racks": ["R5 J", "", "K12"]}})
    assert response.status_code == 201
    sheet = response.json["sheet"]
    assert sheet["hands"][0]["entries"] == [-35, 47, -12] and sheet["totals"] == [-35, 47, -12]
    bad = client.post(f"/api/tables/{table}/events", headers=headers,
                      json={"type": "rummikub_hand", "hand": {"winner": 0, "racks": ["R1", "", ""]}})
    assert bad.status_code == 422 and "the winner emptied the rack" in bad.json["error"]
    wrong = client.post(f"/api/tables/{table}/events", headers=headers,
                        json={"type": "rummikub_hand", "hand": {"winner": 0, "racks": ["", "R7 R7", "R7"]}})
    assert wrong.status_code == 422 and "3 × R7" in wrong.json["error"]
    other = client.post(f"/api/tables/{table}/events", headers=headers, json={"type": "gosterme", "player": 0})
    assert other.status_code == 422
    response = client.post(f"/api/tables/{table}/events", headers=headers,
                           json={"type": "rummikub_hand", "hand": {"winner": None, "racks": ["R1", "R2", "R3"]}})
    assert response.json["sheet"]["totals"] == [-32, 46, -14]
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{table}/export.csv").text)))
    assert rows[0][2:5] == PLAYERS and rows[1][2:5] == ["-35", "47", "-12"]
    exported = client.get(f"/api/tables/{table}/export.json").json
    assert exported["table"]["game"] == "rummikub" and exported["events"][-1]["type"] == "rummikub_hand"


def test_R1_api_refuses_five_players(client: FlaskClient):
    created = client.post("/api/tables", json={"game": "rummikub", "players": PLAYERS + ["Ece", "Filiz"], "pin": "1234"})
    assert created.status_code in (400, 422)


# -- the web ---------------------------------------------------------------------------------------


@pytest.fixture
def rummikub_table(client: FlaskClient, store: TableStore) -> str:
    table = store.create_table(game="rummikub", players=PLAYERS, pin="1234", options={"hands": 3})
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    return table


def post(client: FlaskClient, url: str, data: dict[str, str]):
    return client.post(url, data={"csrf_token": TOKEN, **data})


def test_R6_new_table_page_offers_rummikub_and_its_options(client: FlaskClient):
    assert "Rummikub" in client.get("/").text
    options = client.get("/new/options?game=rummikub").text
    assert 'name="opt_initial_meld"' in options and 'name="opt_turn_seconds"' in options
    assert 'name="opt_penalty_points"' not in options


def test_R6_web_hand_form_previews_records_and_explains(client: FlaskClient, store: TableStore, rummikub_table: str):
    page = client.get(f"/t/{rummikub_table}").text
    assert f"/t/{rummikub_table}/rummikub" in page and f"/t/{rummikub_table}/laydown" in page
    assert "Gösterme" not in page and "Deal assistant" not in text(page)
    form = client.get(f"/t/{rummikub_table}/rummikub").text
    assert "Who went out?" in form and 'data-tile="J"' in form
    fields = {"winner": "0", "rack1": "R5 J", "rack2": "K12"}
    preview = post(client, f"/t/{rummikub_table}/rummikub/check", fields)
    assert preview.status_code == 200 and "Can keeps R5 J: −35." in text(preview.text)
    wrong = post(client, f"/t/{rummikub_table}/rummikub/check", {**fields, "rack0": "K1"})
    assert wrong.status_code == 422 and "Player 1 won, so their rack is empty: clear the tiles (K1)" in text(wrong.text)
    recorded = post(client, f"/t/{rummikub_table}/rummikub", fields)
    assert recorded.status_code == 303
    assert store.get(rummikub_table).totals == (47, -35, -12)
    sheet = client.get(f"/t/{rummikub_table}").text
    assert "Ali went out" in text(sheet) and "<polyline" in sheet


def test_R4_laydown_page_draws_the_new_table(client: FlaskClient, rummikub_table: str):
    page = client.get(f"/t/{rummikub_table}/laydown").text
    assert "Lay-down assistant" in page and 'name="table"' in page and 'name="rack"' in page
    shown = post(client, f"/t/{rummikub_table}/laydown",
                 {"table": "R4 R5 R6 | K9 K10 K11", "rack": "R7 J B9 Y9", "goal": "tiles"})
    assert shown.status_code == 200
    html = shown.text
    assert "4 tiles laid, worth 55 points." in text(html) and "Table melds changed: 1." in text(html)
    assert html.count("data-placed") == 4 and html.count('class="laid-meld moved"') == 2
    assert "=K9" in html or "=R9" in html
    impossible = post(client, f"/t/{rummikub_table}/laydown", {"table": "R4 R5 R6", "rack": "R7 B1", "goal": "all"})
    assert "Not possible." in text(impossible.text) and "These tiles cannot go:" in text(impossible.text)
    bad = post(client, f"/t/{rummikub_table}/laydown", {"table": "R7 R7 R7", "rack": "", "goal": "all"})
    assert bad.status_code == 422 and "3 × R7" in text(bad.text)


@pytest.mark.parametrize("lang", ["tr", "ru", "th"])
def test_R6_explanations_and_pages_are_translated(client: FlaskClient, store: TableStore, rummikub_table: str, lang: str):
    store.record(rummikub_table, {"type": "rummikub_hand", "hand": {"winner": None, "racks": ["R1", "R2", "R3"]}})
    client.set_cookie("lang", lang)
    page = text(client.get(f"/t/{rummikub_table}").text)
    assert "pool ran out" not in page and "Lay-down assistant" not in page
    laydown = text(client.get(f"/t/{rummikub_table}/laydown").text)
    assert "Best move" not in laydown


def test_R4_the_shared_turn_timer_counts_from_the_server_clock(client: FlaskClient, store: TableStore,
                                                                rummikub_table: str):
    page = client.get(f"/t/{rummikub_table}").text
    assert "data-turn-timer" in page and 'data-timer-seat="2"' in page
    idle = client.get(f"/t/{rummikub_table}/timer").json
    assert idle["seat"] is None and idle["seconds"] == 60 and idle["draw"] == 3
    started = post(client, f"/t/{rummikub_table}/timer", {"seat": "1"}).json
    assert started["seat"] == 1 and started["name"] == "Can" and started["seconds"] == 60
    assert 0 <= started["now"] - started["started"] < 5
    seen = client.get(f"/t/{rummikub_table}/timer").json
    assert seen["started"] == started["started"] and seen["now"] >= started["now"]
    assert post(client, f"/t/{rummikub_table}/timer", {"seat": "7"}).status_code == 422
    assert client.post(f"/t/{rummikub_table}/timer", data={"seat": "1"}).status_code in (400, 403)


def test_R4_no_timer_when_the_option_is_off(client: FlaskClient, store: TableStore):
    table = store.create_table(game="rummikub", players=PLAYERS, pin="1234", options={"turn_seconds": 0})
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    assert "data-turn-timer" not in client.get(f"/t/{table}").text
    refused = post(client, f"/t/{table}/timer", {"seat": "0"})
    assert refused.status_code == 422 and "turn timer is off" in text(refused.text)


def test_R1_a_photo_for_a_rummikub_picker_reads_jokers(client: FlaskClient, app, rummikub_table: str):
    import io

    from test_pages import FakeRecognition, FakeTile

    class Reader:
        def recognize(self, data: bytes, table: bool = False) -> FakeRecognition:
            return FakeRecognition([FakeTile("J", (10, 10, 50, 70), 0.97, False),
                                    FakeTile("F", (60, 10, 100, 70), 0.95, False),
                                    FakeTile("R7", (110, 10, 150, 70), 0.99, False)])

    app.extensions["recognizer"] = Reader()
    form = client.get(f"/t/{rummikub_table}/laydown").text
    assert '"special": "J"' in form
    response = client.post(f"/t/{rummikub_table}/photo", content_type="multipart/form-data", data={
        "csrf_token": TOKEN, "picker": "picker-rack", "special": "J",
        "photo": (io.BytesIO(b"photo"), "rack.jpg", "image/jpeg")})
    assert response.status_code == 200
    assert response.text.count('data-code="J"') >= 2 and 'data-code="F"' not in response.text
    assert 'class="box low" data-code="J"' in response.text   # the F read as a joker is to be confirmed
    assert '<option value="J">J</option>' in response.text and '<option value="F">' not in response.text, \
        "a tile is corrected to this set's joker"
