"""Bad input (issue 11): every odd request gets a clear 4xx (or an error line) and changes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from companion.cli import answer
from companion.cli import main as cli_main
from companion.rules.registry import find_game


def test_meld_with_several_melds_answers_top_level_valid_and_value():
    reply = answer({"op": "meld", "game": "okey101", "indicator": "R4", "tiles": "R10 R11 R12 | K13 Y13 B13"})
    assert (reply["valid"], reply["value"], reply["total"]) == (True, 72, 72)
    reply = answer({"op": "meld", "game": "okey101", "indicator": "R4", "tiles": "R10 R11 R12 | K13 Y1 B13"})
    assert reply["valid"] is False and reply["value"] == reply["total"] == 33


PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
PIN = {"X-Table-Pin": "1234"}
TOKEN = "bad-input-token"


def _table(client, game="okey", **extra) -> str:
    response = client.post("/api/tables", json={"game": game, "players": PLAYERS, "pin": "1234", **extra})
    assert response.status_code == 201, response.json
    return response.json["id"]


def _post(client, table_id, event):
    return client.post(f"/api/tables/{table_id}/events", json=event, headers=PIN)


def _log(client, table_id):
    return client.get(f"/api/tables/{table_id}/events").json


@pytest.fixture
def viewer(app, client):
    """A phone that only watches: it has a CSRF token (every page gives one) but no PIN."""
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return phone


# -- request sizes -------------------------------------------------------------------------------------


def test_request_size_the_opening_checker_refuses_thousands_of_melds_fast(client, viewer):
    table_id = _table(client, "okey101")
    melds = " | ".join(["R1 R2 R3"] * 5000)
    start = time.perf_counter()
    response = viewer.post(f"/t/{table_id}/opening", data={"csrf_token": TOKEN, "melds": melds, "indicator": "K4"},
                           headers={"HX-Request": "true"})
    assert response.status_code in (413, 422)
    assert time.perf_counter() - start < 0.5
    assert "melds" in response.text


def test_request_size_a_meld_longer_than_any_is_refused(client, viewer):
    table_id = _table(client, "okey101")
    response = viewer.post(f"/t/{table_id}/opening", headers={"HX-Request": "true"},
                           data={"csrf_token": TOKEN, "melds": " ".join(["R1"] * 60), "indicator": "K4"})
    assert response.status_code == 422 and "60 × R1" in response.text
    # no copy too many: 52 tiles, each at most twice, in one line
    long_meld = " ".join(f"{colour}{number}" for colour in "RB" for number in [*range(1, 14)] * 2)
    response = viewer.post(f"/t/{table_id}/opening", headers={"HX-Request": "true"},
                           data={"csrf_token": TOKEN, "melds": long_meld, "indicator": "K4"})
    assert response.status_code == 422 and "52 tiles given, a meld has at most 13" in response.text


@pytest.mark.parametrize("route", ["opening", "win/check", "hand/check", "gosterme"])
def test_request_size_a_huge_form_is_413_before_it_is_read(client, viewer, route):
    table_id = _table(client, "okey101" if route in ("opening", "hand/check") else "okey")
    start = time.perf_counter()
    response = viewer.post(f"/t/{table_id}/{route}", data={"csrf_token": TOKEN, "melds": "R1 " * 400_000},
                           headers={"HX-Request": "true"})
    assert response.status_code == 413
    assert time.perf_counter() - start < 0.5


def test_request_size_batch_and_cli_refuse_a_rack_of_thousands():


    reply = answer({"op": "opening", "indicator": "R4", "tiles": "R1 " * 50_000})
    assert "error" in reply and "tiles" in reply["error"]
    reply = answer({"op": "meld", "indicator": "R4", "tiles": " | ".join(["R1 R2 R3"] * 5000)})
    assert reply == {"error": "field 'tiles' is 54,997 characters long; a request's texts are at most 10,000 "
                              "characters"}
    reply = answer({"op": "meld", "indicator": "R4", "tiles": " | ".join(["R1 R2 R3"] * 60)})
    assert "error" in reply and "60 melds given" in reply["error"]


# -- events against their schema ------------------------------------------------------------------------


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = {"x": value}
    return value


@pytest.mark.parametrize("event, field", [
    ({"type": "rename", "player": 0, "name": "Ayla", "colour": "red"}, "colour"),
    ({"type": "gosterme", "player": 1, "extra": _nested(900)}, "extra"),
    ({"type": "okey_hand", "hand": {"winner": None, "note": "x"}}, "note"),
    ({"type": "okey_hand", "hand": {"winner": None, "gosterme": [[[1]]]}}, "gosterme"),
])
def test_events_unknown_fields_are_refused_naming_the_field(client, event, field):
    table_id = _table(client)
    assert _post(client, table_id, {"type": "indicator", "tile": "R4"}).status_code == 201
    before = _log(client, table_id)
    response = _post(client, table_id, event)
    assert response.status_code == 422, response.json
    assert repr(field) in response.json["error"] or field in response.json["error"]
    assert _log(client, table_id) == before, "nothing recorded"
    assert client.get(f"/t/{table_id}").status_code == 200


def test_events_a_deeply_nested_body_is_a_clear_400(client):
    table_id = _table(client)
    body = '{"type": "rename", "player": 0, "name": "A", "x": ' + "[" * 30_000 + "]" * 30_000 + "}"
    response = client.post(f"/api/tables/{table_id}/events", data=body, content_type="application/json", headers=PIN)
    assert response.status_code in (400, 413, 422) and "error" in response.json


def test_events_numbers_have_sane_bounds(client):
    table_id = _table(client, "okey101")
    players = [{"opened": "melds", "rack": ""}, {"opened": None, "sum": 10**300, "okeys": 0},
               {"opened": None, "rack": "R1"}, {"opened": None, "rack": "R2"}]
    response = _post(client, table_id, {"type": "okey101_hand", "hand": {"indicator": "K4", "finisher": 0,
                                                                         "players": players}})
    assert response.status_code == 422 and "sum" in response.json["error"]
    assert client.get(f"/api/tables/{table_id}/export.csv").status_code == 200
    response = _post(client, table_id, {"type": "reroll", "die": 10**300})
    assert response.status_code == 422


GOOD_HANDS = {
    "okey_points": {"indicator": "R4", "finisher": 0, "racks": ["", "R5 K7", 23, "B1"]},
    "rami40": {"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": "2C 3D"},
                                          {"opened": False, "cards": "KH"}, {"opened": True, "cards": 12}]},
    "rami51": {"finisher": None, "players": [{"opened": True, "cards": "2C"}, {"opened": True, "cards": "3D"},
                                             {"opened": True, "cards": "4H"}, {"opened": True, "cards": "5S"}]},
    "turkish": {"finisher": 1, "rummy": True, "players": [{"cards": "AS *"}, {"cards": ""}, {"cards": "2C"},
                                                          {"cards": ["3D", "4D"]}]},
    "thai": {"knocker": 0, "knock_card": "5H", "dark": False, "fed_by": None, "players": [
        {"laid": "QS KS AS 6H 7H 8H", "hand": ""}, {"laid": "", "hand": "KH"}, {"laid": "2D 3D 4D", "hand": "9C"},
        {"laid": "", "hand": "JC"}]},
}
"""A valid hand of each game that declares its hand record (four players), spoiled below one field at a time."""


def _spoiled(game: str, path: tuple, value: object) -> dict:
    hand = json.loads(json.dumps(GOOD_HANDS[game]))
    target = hand
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return hand


@pytest.mark.parametrize("game, path, value, said", [
    ("okey_points", ("note",), "x", "unknown field 'note' in hand in the okey_points_hand event"),
    ("okey_points", ("racks", 1), _nested(50), "hand.racks[1] {'x': {'x'"),
    ("okey_points", ("racks",), ["R1"] * 5000, "hand.racks ['R1', 'R1'"),
    ("okey_points", ("indicator",), "R4" * 5000, "hand.indicator 'R4R4"),
    ("rami40", ("players", 1, "cards"), ["2C"] * 5000, "hand.players[1].cards ['2C', '2C'"),
    ("rami40", ("players", 1, "colour"), "red", "unknown field 'colour' in hand.players[1] in the rami40_hand event"),
    ("rami40", ("players",), [{"cards": ""}] * 100, "hand.players [{'cards': ''}"),
    ("rami51", ("rami_sec",), _nested(50), "hand.rami_sec {'x'"),
    ("turkish", ("players", 0, "cards"), "AS " * 5000, "hand.players[0].cards 'AS AS"),
    ("turkish", ("players", 2), [[["2C"]]], "hand.players[2] [[['2C']]]"),
    ("thai", ("players", 1, "hand"), _nested(900), "hand.players[1].hand {'x'"),
    ("thai", ("players", 0, "laid"), [["QS"]], "hand.players[0].laid[0] ['QS']"),
    ("thai", ("players", 0, "layoff_discards"), 10**300, "hand.players[0].layoff_discards 1000"),
    ("thai", ("knock_card",), ["5H"] * 5000, "hand.knock_card ['5H'"),
    ("thai", ("winner",), 0, "unknown field 'winner' in hand in the thai_hand event"),
])
def test_events_a_huge_or_deep_hand_is_refused_naming_the_field(client, game, path, value, said):
    """Every game's hand record has its declared shape (``hand_fields``), checked before anything is stored, in
    the hand event and in an amend: the message names the field, shows the value cut short, and says what fits
    there (one value, an object, a list of at most so many) — not only that the record is too deep somewhere."""
    table_id = _table(client, game)
    before = _log(client, table_id)
    spec = find_game(game)
    response = _post(client, table_id, {"type": spec.hand_event, "hand": _spoiled(game, path, value)})
    assert response.status_code == 422, response.json
    error = response.json["error"]
    assert said in error and len(error) < 400, error
    assert "nested too deeply" not in error
    assert _log(client, table_id) == before, "nothing recorded"
    assert _post(client, table_id, {"type": spec.hand_event, "hand": GOOD_HANDS[game]}).status_code == 201
    recorded = _log(client, table_id)
    response = _post(client, table_id, {"type": "amend", "hand": 1, "record": _spoiled(game, path, value)})
    same_place = said.split(" in the ")[0].replace("hand.", "record.", 1).replace(" in hand", " in record")
    assert response.status_code == 422, response.json
    assert same_place in response.json["error"] and "in the amend event" in response.json["error"], response.json
    assert _log(client, table_id) == recorded, "nothing recorded"


def test_events_a_long_card_list_is_the_engines_to_judge():
    """A card list longer than the generic 60 items is within the card game's own bound (the cards a deck
    holds), so the engine answers in the game's words: here, that two decks hold only two 2C."""
    from companion.rules.games.rami import RAMI_HAND_SCHEMA
    from companion.rules.schema import check_record

    check_record(_spoiled("rami40", ("players", 1, "cards"), ["2C"] * 70), RAMI_HAND_SCHEMA, "the rami40 hand")


# -- odd types are 4xx, never 500 ------------------------------------------------------------------------


@pytest.mark.parametrize("reason", [["islek"], {"a": 1}, 7, None])
def test_odd_types_penalty_reason(client, reason):
    table_id = _table(client, "okey101")
    response = _post(client, table_id, {"type": "penalty", "player": 1, "reason": reason})
    assert response.status_code in (400, 422) and "reason" in response.json["error"]


@pytest.mark.parametrize("raw", ['1e400', 'Infinity', '-Infinity', 'NaN', '2.5', '1e5'])
def test_odd_types_options_numbers(client, raw):
    body = '{"game": "okey", "players": ["A", "B"], "pin": "1234", "options": {"start_points": ' + raw + '}}'
    response = client.post("/api/tables", data=body, content_type="application/json")
    assert response.status_code in (400, 422) and "start_points" in response.json["error"]


@pytest.mark.parametrize("profile", [["reference"], {"a": 1}, 3])
def test_odd_types_profile(client, profile):
    response = client.post("/api/tables", json={"game": "okey", "players": ["A", "B"], "pin": "1234",
                                                "profile": profile})
    assert response.status_code == 422 and "profile" in response.json["error"]


def test_odd_types_batch_options_and_profile():


    assert "error" in answer({"op": "options", "profile": ["x"]})
    assert "start_points" in answer({"op": "options", "options": {"start_points": float("inf")}})["error"]


@pytest.mark.parametrize("where", ["players", "name", "rename", "id"])
def test_odd_types_a_lone_surrogate(client, where):
    if where == "players":
        body = '{"game": "okey", "players": ["A\\ud800", "B"], "pin": "1234"}'
        response = client.post("/api/tables", data=body, content_type="application/json")
    elif where == "name":
        body = '{"game": "okey", "players": ["A", "B"], "pin": "1234", "name": "x\\udfff"}'
        response = client.post("/api/tables", data=body, content_type="application/json")
    else:
        table_id = _table(client)
        event = ('{"type": "rename", "player": 0, "name": "A\\ud800"}' if where == "rename"
                 else '{"type": "rename", "player": 0, "name": "Ayla", "id": "x\\ud800"}')
        response = client.post(f"/api/tables/{table_id}/events", data=event, content_type="application/json",
                               headers=PIN)
    assert response.status_code in (400, 422), response.data


@pytest.mark.parametrize("route, game", [("win/check", "okey"), ("hand/check", "okey101"), ("opening", "okey101")])
def test_odd_types_check_routes_without_htmx(client, viewer, route, game):
    table_id = _table(client, game)
    response = viewer.post(f"/t/{table_id}/{route}", data={"csrf_token": TOKEN, "tiles": "R1", "melds": "R1 R2 R3"})
    assert response.status_code < 500


# -- names -----------------------------------------------------------------------------------------------


def test_names_invisible_and_bidi_characters_are_stripped(client):
    response = client.post("/api/tables", json={"game": "okey", "pin": "1234",
                                                "players": ["A\u200bli", "\u202eCan", "Dei\u0301z", "Ece\ufeff"]})
    assert response.status_code == 201, response.json
    assert response.json["state"]["players"] == ["Ali", "Can", "De\u00edz", "Ece"]


@pytest.mark.parametrize("players", [["Ali", "Al\u200bi"], ["Ali", "\u2066Ali\u2069"], ["e\u0301", "\u00e9"]])
def test_names_that_only_look_alike_are_duplicates(client, players):
    response = client.post("/api/tables", json={"game": "okey", "pin": "1234", "players": players})
    assert response.status_code == 422 and "duplicate" in response.json["error"]


@pytest.mark.parametrize("name", ["\u200b", "\u202e\u202c", " \u200d "])
def test_names_empty_after_cleaning_are_refused(client, name):
    response = client.post("/api/tables", json={"game": "okey", "pin": "1234", "players": ["Ali", name]})
    assert response.status_code == 422 and "name" in response.json["error"]
    table_id = _table(client)
    response = _post(client, table_id, {"type": "rename", "player": 1, "name": name})
    assert response.status_code == 422


def test_names_page_form_is_cleaned_too(client):
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    response = client.post("/new", data={"csrf_token": TOKEN, "game": "okey", "pin": "1234",
                                         "player0": "A\u200bli", "player1": "Ali"})
    assert response.status_code == 422


# -- event ids ------------------------------------------------------------------------------------------


def test_event_id_reused_with_another_payload_is_409_naming_the_id(client):
    table_id = _table(client)
    first = {"type": "rename", "player": 0, "name": "Ayla", "id": "tap-7"}
    assert _post(client, table_id, first).status_code == 201
    assert _post(client, table_id, first).status_code == 200, "the same event again: recorded once"
    response = _post(client, table_id, {**first, "name": "Burak"})
    assert response.status_code == 409 and "tap-7" in response.json["error"]
    assert client.get(f"/api/tables/{table_id}").json["players"][0] == "Ayla"
    response = client.post(f"/api/tables/{table_id}/undo", json={"id": "tap-7"}, headers=PIN)
    assert response.status_code == 409 and "tap-7" in response.json["error"]


def test_event_id_a_rolled_deal_sent_twice_is_the_same_event(client):
    table_id = _table(client)
    deal = {"type": "deal", "roll": True, "id": "roll-1"}
    assert _post(client, table_id, deal).status_code == 201
    assert _post(client, table_id, deal).status_code == 200


# -- the data dir and a read-only database ----------------------------------------------------------------


def test_an_unwritable_data_dir_is_a_clear_message_and_status_2(capsys):
    assert cli_main(["serve", "--data-dir", "/proc/okey-x", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "/proc/okey-x" in err and "Traceback" not in err and "--data-dir" in err


READ_ONLY_SCRIPT = """
import json, sys
from companion.web import create_app
app = create_app({"DATA_DIR": sys.argv[1], "SECRET_KEY": "k"})
client = app.test_client()
table = sys.argv[2]
codes = [client.get(path).status_code for path in
         ("/", f"/t/{table}", f"/t/{table}/history", f"/api/tables/{table}", f"/api/tables/{table}/export.csv", "/api/tables")]
write = client.post(f"/api/tables/{table}/events", json={"type": "rename", "player": 0, "name": "Z"},
                    headers={"X-Table-Pin": "1234"})
print(json.dumps({"codes": codes, "write": write.status_code, "error": write.get_json()}))
"""


@pytest.fixture
def open_dir():
    """A temporary folder any user may enter (pytest's own are private to root)."""
    base = Path(tempfile.mkdtemp(prefix="okey-ro-"))
    base.chmod(0o755)
    yield base
    for folder in (base, *base.iterdir()):
        folder.chmod(0o755)
    shutil.rmtree(base)


def test_reads_work_from_a_read_only_database(open_dir):
    tmp_path = open_dir
    data = tmp_path / "ro"
    data.mkdir()
    from companion.store import TableStore

    with TableStore(data / "tables.sqlite") as store:
        table_id = store.create_table(game="okey", players=["A", "B"], pin="1234")
        store.record(table_id, {"type": "rename", "player": 0, "name": "Ayla"})
    os.chmod(data / "tables.sqlite", 0o444)
    os.chmod(data, 0o555)
    command = [sys.executable, "-c", READ_ONLY_SCRIPT, str(data), table_id]
    if os.geteuid() == 0:  # root writes anywhere: run as nobody, for whom the database really is read-only
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), "HOME": str(tmp_path)}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=False)
    os.chmod(data, 0o755)
    assert result.returncode == 0, result.stderr[-2000:]
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["codes"] == [200] * 6, answer
    assert answer["write"] == 503 and "read-only" in answer["error"]["error"]
