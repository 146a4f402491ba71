"""The JSON API: every route, PINs, idempotent ids, undo/redo and the error contract."""

from __future__ import annotations

import csv
import io

import pytest

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
PIN = {"X-Table-Pin": "1234"}


@pytest.fixture
def table_id(client) -> str:
    response = client.post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234"})
    assert response.status_code == 201
    return response.json["id"]


@pytest.fixture
def stranger(app):
    """Another phone: no session cookie, so it must send the PIN."""
    return app.test_client()


def post_event(client, table_id, event, headers=PIN):
    return client.post(f"/api/tables/{table_id}/events", json=event, headers=headers)


def test_create_table(client):
    response = client.post("/api/tables", json={
        "game": "okey101", "players": PLAYERS, "pin": "0427", "options": {"hands": 3}, "profile": "no_doublings",
        "name": "Friday", "first_dealer": 3,
    })
    assert response.status_code == 201
    body = response.json
    sheet = body["sheet"]
    assert (sheet["game"], sheet["players"], sheet["teams"], sheet["hands"]) == ("okey101", PLAYERS, None, [])
    assert (sheet["totals"], sheet["penalties"], sheet["dealer"]) == ([0, 0, 0, 0], [], 3)
    assert (sheet["finished"], sheet["winners"], sheet["version"]) == (False, [], 0)
    state = body["state"]
    assert (state["id"], state["name"], state["profile"]) == (body["id"], "Friday", "no_doublings")
    assert state["options"]["hands"] == 3
    assert [seat["dealer"] for seat in state["seats"]] == [False, False, False, True]


def test_create_table_missing_fields_are_named(client):
    for field in ("game", "players", "pin"):
        body = {"game": "okey", "players": PLAYERS, "pin": "1234"}
        del body[field]
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400
        assert response.json == {"error": f"missing field {field!r}"}


@pytest.mark.parametrize(
    "body, message",
    [
        ({"game": "okey", "players": PLAYERS, "pin": "12"}, "exactly 4 digits"),
        ({"game": "okey", "players": ["Ali"], "pin": "1234"}, "2, 3 or 4 players"),
        ({"game": "chess", "players": PLAYERS, "pin": "1234"}, "unknown game 'chess'"),
        ({"game": "okey", "players": PLAYERS, "pin": "1234", "options": {"start_points": "many"}}, "'many'"),
        ({"game": "okey", "players": PLAYERS, "pin": "1234", "profile": "secret"}, "unknown profile 'secret'"),
    ],
)
def test_create_table_invalid_settings_are_422(client, body, message):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert message in response.json["error"]
    assert client.get("/api/tables").json == []


def test_read_routes(client, table_id):
    post_event(client, table_id, {"type": "rename", "player": 0, "name": "Ayşe"})
    assert client.get(f"/api/tables/{table_id}").json["players"][0] == "Ayşe"
    assert client.get(f"/api/tables/{table_id.lower()}").json["id"] == table_id
    assert client.get(f"/api/tables/{table_id}/sheet").json["players"][0] == "Ayşe"
    assert client.get(f"/api/tables/{table_id}/version").json == {"version": 1}
    [event] = client.get(f"/api/tables/{table_id}/events").json
    assert (event["seq"], event["type"], event["payload"]["name"], event["undone"]) == (1, "rename", "Ayşe", False)
    [summary] = client.get("/api/tables").json
    assert (summary["id"], summary["players"][0], summary["version"]) == (table_id, "Ayşe", 1)


def test_unknown_table_is_404_json(client):
    for path in ("", "/sheet", "/version", "/events", "/export.csv", "/export.json"):
        response = client.get(f"/api/tables/NOPE9{path}")
        assert response.status_code == 404
        assert "no table 'NOPE9'" in response.json["error"]
    assert post_event(client, "NOPE9", {"type": "deal", "dice": [1, 1]}).status_code == 404
    assert client.post("/api/tables/NOPE9/undo", headers=PIN).status_code == 404


def test_unknown_route_and_method_are_json(client):
    assert client.get("/api/nothing-here").status_code == 404
    assert "error" in client.get("/api/nothing-here").json
    response = client.delete("/api/tables")
    assert response.status_code == 405 and "error" in response.json


def test_event_is_201_with_sheet_and_state(stranger, table_id):
    response = post_event(stranger, table_id, {"type": "deal", "dice": [5, 2]})
    assert response.status_code == 201
    assert response.json["sheet"]["version"] == 1
    assert response.json["state"]["deal"]["dice"] == [5, 2]
    assert response.json["state"]["deal"]["plan"]["chosen_stack"] == 4


def test_wrong_or_missing_pin_is_403(stranger, table_id):
    for headers in ({}, {"X-Table-Pin": "9999"}, {"X-Table-Pin": "abc"}):
        response = post_event(stranger, table_id, {"type": "deal", "dice": [5, 2]}, headers=headers)
        assert response.status_code == 403
        assert "X-Table-Pin" in response.json["error"]
        assert stranger.post(f"/api/tables/{table_id}/undo", headers=headers).status_code == 403
    assert stranger.get(f"/api/tables/{table_id}/version").json == {"version": 0}


def test_the_creator_session_remembers_the_pin(client, table_id):
    assert post_event(client, table_id, {"type": "deal", "dice": [5, 2]}, headers={}).status_code == 201


def test_duplicate_id_records_once(stranger, table_id):
    event = {"id": "3f2a", "type": "rename", "player": 2, "name": "Dilek"}
    first = post_event(stranger, table_id, event)
    again = post_event(stranger, table_id, event)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json["sheet"] == again.json["sheet"]
    assert len(stranger.get(f"/api/tables/{table_id}/events").json) == 1


def test_bad_tile_is_422_quoting_it_and_the_sheet_is_unchanged(stranger, table_id):
    before = stranger.get(f"/api/tables/{table_id}/sheet").json
    response = post_event(stranger, table_id, {"type": "indicator", "tile": "X9"})
    assert response.status_code == 422
    assert "'X9'" in response.json["error"]
    assert stranger.get(f"/api/tables/{table_id}/sheet").json == before


@pytest.mark.parametrize(
    "event, status, message",
    [
        ({}, 400, "missing field 'type'"),
        ({"type": "deal"}, 400, "missing field 'dice'"),
        ({"type": "gosterme"}, 400, "missing field 'player'"),
        ({"type": "fold"}, 422, "unknown event type 'fold'"),
        ({"type": "gosterme", "player": 4}, 422, "invalid player 4"),
        ({"type": "penalty", "player": 1, "reason": "islek"}, 422, "belongs to Okey 101"),
        ({"type": "deal", "dice": [7, 1]}, 422, "7"),
        ({"type": "deal", "dice": "5 2"}, 422, "invalid dice '5 2'"),
        ({"type": "reroll", "die": 3}, 422, "no deal to reroll"),
        ({"type": "rename", "player": 1, "name": "ali"}, 422, "duplicate player name 'ali'"),
        ({"type": "deal", "dice": [5, 2], "id": ["x"]}, 422, "invalid event id"),
    ],
)
def test_invalid_events(stranger, table_id, event, status, message):
    response = post_event(stranger, table_id, event)
    assert response.status_code == status
    assert message in response.json["error"]
    assert stranger.get(f"/api/tables/{table_id}/version").json == {"version": 0}


def test_malformed_json_is_400(stranger, table_id):
    response = stranger.post(f"/api/tables/{table_id}/events", data='{"type": "deal",', headers=PIN,
                             content_type="application/json")
    assert response.status_code == 400
    assert response.json["error"].startswith("malformed JSON")
    response = stranger.post(f"/api/tables/{table_id}/events", json=["deal"], headers=PIN)
    assert response.status_code == 400
    assert "JSON object" in response.json["error"]


def test_non_json_is_415(stranger, table_id):
    response = stranger.post(f"/api/tables/{table_id}/events", data="type=deal", headers=PIN,
                             content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert "application/json" in response.json["error"]
    assert stranger.post("/api/tables", data="game=okey").status_code == 415


def test_oversized_body_is_413(stranger, table_id):
    big = {"type": "rename", "player": 0, "name": "x", "padding": "y" * 70_000}
    response = post_event(stranger, table_id, big)
    assert response.status_code == 413
    assert "64 KB" in response.json["error"]
    assert stranger.post("/api/tables", json={"players": ["x" * 70_000]}).status_code == 413


def test_undo_redo_many_steps(stranger, table_id):
    for name in ("B", "C", "D"):
        post_event(stranger, table_id, {"type": "rename", "player": 0, "name": name})
    undo = lambda: stranger.post(f"/api/tables/{table_id}/undo", headers=PIN)  # noqa: E731
    redo = lambda: stranger.post(f"/api/tables/{table_id}/redo", headers=PIN)  # noqa: E731
    assert [undo().json["sheet"]["players"][0] for _ in range(3)] == ["C", "B", "Ali"]
    response = undo()
    assert response.status_code == 409 and "nothing to undo" in response.json["error"]
    assert [redo().json["state"]["players"][0] for _ in range(2)] == ["B", "C"]
    assert undo().status_code == 200
    assert redo().json["sheet"]["players"][0] == "C"
    assert redo().json["sheet"]["players"][0] == "D"
    response = redo()
    assert response.status_code == 409 and "nothing to redo" in response.json["error"]
    log = stranger.get(f"/api/tables/{table_id}/events").json
    assert [e["type"] for e in log].count("undo") == 4
    assert stranger.get(f"/api/tables/{table_id}/version").json["version"] == len(log)


def test_undo_with_an_id_is_idempotent(stranger, table_id):
    for name in ("B", "C"):
        post_event(stranger, table_id, {"type": "rename", "player": 0, "name": name})
    for _ in range(2):
        response = stranger.post(f"/api/tables/{table_id}/undo", json={"id": "undo-1"}, headers=PIN)
        assert response.json["sheet"]["players"][0] == "B"


def test_server_rolled_deal(stranger, table_id):
    response = post_event(stranger, table_id, {"type": "deal", "roll": True})
    dice = response.json["state"]["deal"]["dice"]
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
    assert response.json["state"]["deal"]["rolled"] is True


def test_exports(client, table_id):
    post_event(client, table_id, {"type": "rename", "player": 0, "name": "Ayşe"})
    exported = client.get(f"/api/tables/{table_id}/export.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    assert exported.json["table"]["players"][0] == "Ayşe"
    assert [e["type"] for e in exported.json["events"]] == ["rename"]
    response = client.get(f"/api/tables/{table_id}/export.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0] == ["Hand", "Dealer", "Ayşe", "Can", "Deniz", "Ece", "Explanation"]
    assert rows[-1] == ["Total", "", "20", "20", "20", "20", ""]


def test_pin_ok_and_remember_pin_helpers(app, table_id):
    from companion.web.api import pin_ok, remember_pin

    with app.test_request_context(headers=PIN):
        assert pin_ok(table_id)
    with app.test_request_context(headers={"X-Table-Pin": "0000"}):
        assert not pin_ok(table_id)
    with app.test_request_context():
        assert not pin_ok(table_id)
        remember_pin(table_id.lower())
        assert pin_ok(table_id)


MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"
PAIRS = "R1 R1 B2 B2 Y3 Y3 K4 K4 R7 R7 B9 B9 Y11 Y11"


def test_O6_a_whole_okey_match_to_the_end(stranger, table_id):
    wins = [(1, MELDS, "R5"), (2, PAIRS, "K2"), (1, MELDS, "Y8"), (1, MELDS, "R5"), (2, PAIRS, "K2"), (1, MELDS, "R5")]
    totals = [[16, 20, 16, 16], [12, 16, 16, 12], [10, 16, 14, 10], [6, 16, 10, 6], [2, 12, 10, 2], [-3, 11, 5, -2]]
    for number, ((winner, tiles, discard), expected) in enumerate(zip(wins, totals), start=1):
        assert post_event(stranger, table_id, {"type": "deal", "roll": True}).status_code == 201
        assert post_event(stranger, table_id, {"type": "indicator", "tile": "R4"}).status_code == 201
        if number == 6:
            assert post_event(stranger, table_id, {"type": "gosterme", "player": 3}).status_code == 201
        response = post_event(stranger, table_id, {
            "type": "okey_hand", "id": f"hand-{number}",
            "hand": {"winner": winner, "tiles": tiles, "discard": discard}})
        assert response.status_code == 201, response.json
        sheet = response.json["sheet"]
        assert sheet["totals"] == expected, f"after hand {number}"
        assert sheet["hands"][-1]["dealer"] == (number - 1) % 4
    assert (sheet["finished"], sheet["winners"]) == (True, [1, 2])
    assert sorted(response.json["state"]["standings"]["losers"]) == [0, 3]
    refused = post_event(stranger, table_id, {"type": "deal", "dice": [1, 2]})
    assert refused.status_code == 422 and "already finished" in refused.json["error"]
    assert stranger.get("/api/tables").json[0]["finished"] is True
    undone = stranger.post(f"/api/tables/{table_id}/undo", headers=PIN)
    assert undone.json["sheet"]["finished"] is False and undone.json["sheet"]["totals"] == [2, 12, 10, 2]
    rows = list(csv.reader(io.StringIO(stranger.get(f"/api/tables/{table_id}/export.csv").get_data(as_text=True))))
    assert len(rows) == 1 + 5 + 1 + 1 and rows[-1][:6] == ["Total", "", "2", "12", "10", "2"]
    assert rows[-2][0] == "6 (being played)", "the gösterme waiting in hand 6"


def test_H8_a_101_match_of_three_hands(stranger):
    created = stranger.post("/api/tables", json={"game": "okey101", "players": PLAYERS, "pin": "1234",
                                                 "options": {"hands": 3}})
    table_id = created.json["id"]

    def hand(finisher, *sums, **extra):
        players = [{"opened": opened, "sum": total} for opened, total in sums]
        return {"type": "okey101_hand", "hand": {"finisher": finisher, "players": players, **extra}}

    steps = [
        {"type": "deal", "dice": [3, 4]},
        {"type": "indicator", "tile": "R4"},
        {"type": "penalty", "player": 1, "reason": "islek"},
        hand(0, ("melds", 0), ("melds", 12), (None, 30), ("melds", 20)),
        {"type": "indicator", "tile": "K2"},
        {"type": "void_hand"},
        {"type": "deal", "dice": [6, 6]},
        {"type": "reroll", "die": 1},
        {"type": "indicator", "tile": "Y13"},
        hand(2, ("melds", 30), ("melds", 12), ("melds", 0), (None, 40)),
        {"type": "indicator", "tile": "B9"},
        hand(3, ("melds", 5), ("pairs", 10), ("melds", 7), ("melds", 0), finish="okey_discard"),
    ]
    for step in steps:
        response = post_event(stranger, table_id, step)
        assert response.status_code == 201, (step, response.json)
    sheet = response.json["sheet"]
    assert [row["entries"] for row in sheet["hands"]] == [[-101, 113, 202, 20], [30, 12, -101, 202], [10, 40, 14, -202]]
    assert [row["dealer"] for row in sheet["hands"]] == [0, 1, 2]
    assert sheet["totals"] == [-61, 165, 115, 20]
    assert sheet["penalties"] == [{"hand": 1, "player": 1, "reason": "islek", "points": 101}]
    assert (sheet["finished"], sheet["winners"]) == (True, [0])
    assert response.json["state"]["voided"] == 1
    assert any("okey" in line for line in sheet["hands"][2]["explain"])


def test_every_event_type_can_be_undone(stranger, table_id):
    events = [{"type": "deal", "dice": [5, 2]}, {"type": "reroll", "die": 4}, {"type": "indicator", "tile": "R4"},
              {"type": "gosterme", "player": 0}, {"type": "rename", "player": 0, "name": "Ayla"},
              {"type": "okey_hand", "hand": {"winner": 1, "tiles": MELDS, "discard": "Y8"}}]
    sheets = [stranger.get(f"/api/tables/{table_id}/sheet").json]
    states = [stranger.get(f"/api/tables/{table_id}").json]
    for event in events:
        response = post_event(stranger, table_id, event)
        sheets.append(response.json["sheet"])
        states.append(response.json["state"])
    for expected_sheet, expected_state in zip(reversed(sheets[:-1]), reversed(states[:-1])):
        response = stranger.post(f"/api/tables/{table_id}/undo", headers=PIN)
        assert response.json["state"]["deal"] == expected_state["deal"]
        assert response.json["state"]["players"] == expected_state["players"]
        assert response.json["sheet"]["hands"] == expected_sheet["hands"]


def test_a_bad_tile_in_a_hand_is_422_and_nothing_is_recorded(stranger, table_id):
    post_event(stranger, table_id, {"type": "indicator", "tile": "R4"})
    before = stranger.get(f"/api/tables/{table_id}/sheet").json
    hand = {"winner": 1, "tiles": MELDS.replace("K13", "K14"), "discard": "Y8"}
    response = post_event(stranger, table_id, {"type": "okey_hand", "hand": hand})
    assert response.status_code == 422
    assert "'K14'" in response.json["error"]
    assert stranger.get(f"/api/tables/{table_id}/sheet").json == before


def test_the_actor_header_goes_into_the_audit_log(stranger, table_id):
    stranger.post(f"/api/tables/{table_id}/events", json={"type": "deal", "dice": [1, 2]},
                  headers={**PIN, "X-Actor": "Can's phone"})
    assert stranger.get(f"/api/tables/{table_id}/events").json[0]["actor"] == "Can's phone"


def test_a_wrong_pin_header_is_refused_even_with_a_remembered_session(client, table_id):
    response = post_event(client, table_id, {"type": "deal", "dice": [5, 2]}, headers={"X-Table-Pin": "9999"})
    assert response.status_code == 403
    assert client.get(f"/api/tables/{table_id}/version").json == {"version": 0}


def test_pin_guessing_through_the_api_is_slowed_down(stranger, table_id):
    for guess in range(5):
        response = post_event(stranger, table_id, {"type": "deal", "dice": [5, 2]},
                              headers={"X-Table-Pin": f"000{guess}"})
        assert response.status_code == 403
    blocked = post_event(stranger, table_id, {"type": "deal", "dice": [5, 2]}, headers=PIN)
    assert blocked.status_code == 429 and "too many wrong PINs" in blocked.json["error"]
    assert stranger.get(f"/api/tables/{table_id}/version").json == {"version": 0}


def test_the_csv_explanation_names_the_players_not_their_seats(stranger, table_id):
    post_event(stranger, table_id, {"type": "deal", "dice": [3, 4]})
    post_event(stranger, table_id, {"type": "indicator", "tile": "R4"})
    post_event(stranger, table_id, {"type": "okey_hand", "hand": {"winner": 1, "tiles": MELDS, "discard": "R5"}})
    english = " / ".join(stranger.get(f"/api/tables/{table_id}/sheet").json["hands"][0]["explain"])
    assert "player 2" in english.lower()
    rows = list(csv.reader(io.StringIO(stranger.get(f"/api/tables/{table_id}/export.csv").get_data(as_text=True))))
    explanation = rows[1][-1]
    assert "Can" in explanation and "player" not in explanation.lower(), explanation
