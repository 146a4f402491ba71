"""Okey's points-counting variant (RULES.md O7, game ``okey_points``), end to end: the engine against a slow
oracle, whole matches replayed hand by hand, the batch/CLI ``score``, the API event and the web table."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.rules import InvalidHandRecordError, InvalidTileError, options_for
from companion.rules.errors import ImpossibleHandError, InvalidOptionError
from companion.rules.okey_points import OkeyPointsOptions, okey_points_standings, score_okey_points_hand
from companion.rules.registry import find_game
from companion.store import TableStore
from companion.tables import InvalidEventError, InvalidTableError, new_meta, replay

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
TOKEN = "test-token"


def hand(finisher=0, racks=("", "R5 K7", "B13 Y1", "K2 K2"), indicator="R4"):
    return {"indicator": indicator, "finisher": finisher, "racks": list(racks)}


def face_sum_oracle(rack: str, indicator: str) -> int:
    """Slow and obvious: the number written on each tile; F is the tile one above the indicator (O3)."""
    total = 0
    for code in rack.split():
        if code.upper() == "F":
            number = int(indicator[1:])
            total += 1 if number == 13 else number + 1
        else:
            total += int(code[1:])
    return total


# -- the engine ------------------------------------------------------------------------------------


def test_O7_each_player_scores_the_face_values_left_on_the_rack():
    score = score_okey_points_hand(hand())
    assert score.scores == (0, 12, 14, 4)
    assert score.finisher == 0
    assert [line.key for line in score.explain] == ["okey_points.finisher"] + ["okey_points.rack"] * 3
    assert str(score.explain[2]) == "Player 3 keeps B13 Y1: 13 + 1 = 14."


def test_O7_the_okey_counts_its_face_and_a_false_okey_the_okeys_face():
    score = score_okey_points_hand(hand(racks=("", "R5", "F", "F R5 K13")))
    assert score.scores == (0, 5, 5, 23)
    assert "F plays as R5" in str(score.explain[2])
    assert score_okey_points_hand(hand(indicator="B13", racks=("", "F", "B1", "")) | {"finisher": 3}).scores == (0, 1, 1, 0)


def test_O7_stock_exhausted_everybody_counts():
    score = score_okey_points_hand(hand(finisher=None, racks=("R1 R2", "", "K13", "Y9")))
    assert score.scores == (3, 0, 13, 9)
    assert score.explain[0].key == "okey_points.stock_exhausted"


def test_O7_a_rack_may_be_typed_as_its_sum_or_given_as_a_list():
    score = score_okey_points_hand(hand(racks=("", 23, ["B1", "b2"], 0)))
    assert score.scores == (0, 23, 3, 0)
    assert "typed sum" in str(score.explain[1])


def test_O7_random_racks_agree_with_the_face_sum_oracle():
    rng = random.Random(70)
    deck = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + ["F", "F"]
    for _ in range(300):
        rng.shuffle(deck)
        indicator = next(t for t in deck if t != "F")
        pool = deck.copy()
        pool.remove(indicator)  # the indicator is one of the tiles: it lies face up, on no rack
        finisher = rng.choice([None, 0, 1, 2, 3])
        racks, start = [], 0
        for seat in range(4):
            size = 0 if seat == finisher else rng.randint(0, 22)
            racks.append(" ".join(pool[start:start + size]))
            start += size
        score = score_okey_points_hand({"indicator": indicator, "finisher": finisher, "racks": racks})
        assert score.scores == tuple(face_sum_oracle(rack, indicator) for rack in racks), (indicator, racks)


@pytest.mark.parametrize("record, error, fragment", [
    ({"indicator": "R4", "finisher": 0}, InvalidHandRecordError, "invalid racks None"),
    (hand() | {"winner": 0}, InvalidHandRecordError, "unknown field 'winner'"),
    ({"finisher": 0, "racks": ["", "", "", ""]}, InvalidHandRecordError, "needs 'indicator'"),
    ({"indicator": "R4", "racks": ["", "", "", ""]}, InvalidHandRecordError, "needs 'finisher'"),
    (hand(indicator="F"), InvalidHandRecordError, "indicator is a numbered tile"),
    (hand(finisher=1), InvalidHandRecordError, "finisher's rack must be empty"),
    (hand(finisher=4), InvalidHandRecordError, "invalid finisher 4"),
    (hand(finisher=True), InvalidHandRecordError, "invalid finisher True"),
    (hand(racks=("", "R5")), InvalidHandRecordError, "the 4 racks"),
    (hand() | {"racks": "R5 R6"}, InvalidHandRecordError, "invalid racks 'R5 R6'"),
    (hand(racks=("", "R5 Q9", "", "")), InvalidTileError, "'Q9'"),
    (hand(racks=("", "R5 J", "", "")), InvalidHandRecordError, "okey has no J"),
    (hand(racks=("", -3, "", "")), InvalidHandRecordError, "invalid sum -3"),
    (hand(racks=("", 10**300, "", "")), InvalidHandRecordError, "a rack is worth 0-286"),
    (hand(racks=("", {"sum": 3}, "", "")), InvalidHandRecordError, "give tiles such as"),
    (hand(racks=("", "R4 R4", "", "")), ImpossibleHandError, "counting every rack and the indicator"),
    ("R5", InvalidHandRecordError, "give an object"),
])
def test_O7_bad_hand_records_are_explained(record, error, fragment):
    with pytest.raises(error) as raised:
        score_okey_points_hand(record)
    assert fragment in str(raised.value)


def test_O7_options_hands_and_starter():
    assert options_for("okey_points") == OkeyPointsOptions(hands=11, starter="dealer")
    assert options_for("okey points", {"hands": "5"}).hands == 5
    with pytest.raises(InvalidOptionError, match="use one of 3, 5, 7, 9, 11"):
        options_for("okey_points", {"hands": 4})
    with pytest.raises(InvalidOptionError, match="not okey_points options"):
        score_okey_points_hand(hand(), options_for("okey101"))


def test_O7_the_lowest_total_after_the_fixed_number_of_hands_wins():
    options = OkeyPointsOptions(hands=3)
    first = score_okey_points_hand(hand())                                      # 0 12 14 4
    second = score_okey_points_hand(hand(finisher=3, racks=("K13", "R1", "B2 B3", "")))  # 13 1 5 0
    standings = okey_points_standings(4, [first, second], options)
    assert (standings.totals, standings.finished, standings.subtotal) == ((13, 13, 19, 4), False, (13, 13, 19, 4))
    assert standings.leaders == (3,) and standings.winners == ()
    third = score_okey_points_hand(hand(finisher=None, racks=("R1", "R1", "Y9", "K9")))
    over = okey_points_standings(4, [first, second, third], options)
    assert (over.totals, over.finished, over.winners) == ((14, 14, 28, 13), True, (3,))
    assert str(over.explain[-1]) == "All 3 hands are played: player 4 wins with the lowest total (O7)."
    with pytest.raises(InvalidHandRecordError, match="already over before hand 4"):
        okey_points_standings(4, [first, second, third, first], options)


def test_O7_ties_share_the_win():
    level = score_okey_points_hand(hand(finisher=None, racks=("R2", "K2", "B1", "Y5")))
    standings = okey_points_standings(4, [level] * 3, OkeyPointsOptions(hands=3))
    assert standings.winners == (2,)
    tied = score_okey_points_hand(hand(finisher=None, racks=("R2", "K2", "B9", "Y5")))
    assert okey_points_standings(4, [tied] * 3, OkeyPointsOptions(hands=3)).winners == (0, 1)


# -- the registry entry and the reducer ------------------------------------------------------------


def test_O7_registry_entry():
    spec = find_game("sayılı okey")
    assert (spec.id, spec.hand_event, spec.sheet, spec.picker, spec.players) == (
        "okey_points", "okey_points_hand", "penalty", "tiles", (4,))
    assert set(spec.events) == {"deal", "reroll", "indicator"}
    assert "gosterme" not in spec.event_types and "penalty" not in spec.event_types


def test_O7_table_replays_a_whole_match_hand_by_hand():
    meta = new_meta("PTS01", game="okey_points", players=PLAYERS, options={"hands": 3})
    events = [{"type": "deal", "dice": [5, 2]}, {"type": "indicator", "tile": "R4"}]
    state = replay(meta, events)
    assert state.deal.plan.tiles_per_seat == (22, 21, 21, 21)  # O7: the dealer has 22 and starts
    assert state.deal.plan.starter == 0
    sheets = []
    for number, racks in enumerate([("", "R5 K7", "B13 Y1", "K2 K2"), ("K13", "", "B2 B3", "R1"),
                                    ("R1", "R1", "", "K9")], start=1):
        finisher = racks.index("")
        events += [{"type": "okey_points_hand", "hand": {"finisher": finisher, "racks": list(racks)}}]
        state = replay(meta, events)
        sheets.append(state.totals)
        assert state.dealer == number % 4
        if number < 3:
            events += [{"type": "indicator", "tile": "R4"}]
    assert sheets == [(0, 12, 14, 4), (13, 12, 19, 5), (14, 13, 19, 14)]
    assert state.finished and state.winners == (1,)
    assert state.hands[0].result["explain"][1] == "Player 2 keeps R5 K7: 5 + 7 = 12."
    with pytest.raises(InvalidEventError, match="already finished"):
        replay(meta, [*events, {"type": "deal", "dice": [1, 1]}])


def test_O7_table_refuses_other_games_events_and_player_counts():
    meta = new_meta("PTS02", game="okey_points", players=PLAYERS)
    for event, owner in (({"type": "gosterme", "player": 0}, "Okey"), ({"type": "penalty", "player": 0}, "Okey 101"),
                         ({"type": "okey101_hand", "hand": {}}, "Okey 101")):
        with pytest.raises(InvalidEventError, match=f"belongs to {owner}, and this table plays Okey points"):
            replay(meta, [event])
    with pytest.raises(InvalidTableError, match="Okey points is played by 4 players"):
        new_meta("PTS03", game="okey_points", players=PLAYERS[:3])


# -- batch and the command line --------------------------------------------------------------------


def test_O7_batch_score():
    result = answer({"op": "score", "game": "okey_points", "hand": hand()})
    assert result["scores"] == [0, 12, 14, 4]
    assert result["explain"][0] == "Player 1 completed the rack: 0."
    assert result["explain_detail"][1]["key"] == "okey_points.rack"
    assert "unknown field 'winner'" in answer({"op": "score", "game": "okey_points", "hand": {"winner": 0}})["error"]
    assert "has no 'check' operation" in answer({"op": "check", "game": "okey_points", "tiles": "R1"})["error"]
    assert answer({"op": "deal", "game": "okey_points", "dice": [5, 2]})["tiles_per_seat"] == [22, 21, 21, 21]


def test_O7_cli_score(tmp_path, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand(finisher=None, racks=("R1", "R2", "R3", "F"))))
    assert main(["score", "--game", "okey_points", "--hand", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "scores: 1 2 3 5"
    assert main(["options", "--game", "okey_points", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"hands": 11, "starter": "dealer"}


# -- the HTTP API ----------------------------------------------------------------------------------


def test_O7_api_table_and_hand_event(client):
    created = client.post("/api/tables", json={"game": "okey_points", "players": PLAYERS, "pin": "1234",
                                                "options": {"hands": 3}})
    assert created.status_code == 201
    table = created.json["id"]
    headers = {"X-Table-Pin": "1234"}
    client.post(f"/api/tables/{table}/events", json={"type": "indicator", "tile": "R4"}, headers=headers)
    response = client.post(f"/api/tables/{table}/events", headers=headers,
                           json={"type": "okey_points_hand", "hand": {"finisher": 0, "racks": ["", "R5 K7", 9, "F"]}})
    assert response.status_code == 201
    sheet = response.json["sheet"]
    assert sheet["hands"][0]["entries"] == [0, 12, 9, 5] and sheet["totals"] == [0, 12, 9, 5]
    bad = client.post(f"/api/tables/{table}/events", headers=headers,
                      json={"type": "okey_points_hand", "hand": {"indicator": "K7", "finisher": 1, "racks": ["", "R5", "", ""]}})
    assert bad.status_code == 422 and "finisher's rack must be empty" in bad.json["error"]
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{table}/export.csv").text)))
    assert rows[0] == ["\ufeffHand", "Dealer", *PLAYERS, "Explanation"]  # a byte-order mark for spreadsheets
    assert rows[1][2:6] == ["0", "12", "9", "5"] and "Can keeps R5 K7" in rows[1][6]
    exported = client.get(f"/api/tables/{table}/export.json").json
    assert exported["table"]["game"] == "okey_points" and exported["events"][-1]["type"] == "okey_points_hand"


# -- the web table ---------------------------------------------------------------------------------


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def points_table(client: FlaskClient, store: TableStore) -> str:
    table = store.create_table(game="okey_points", players=PLAYERS, pin="1234", options={"hands": 3})
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    return table


def post(client: FlaskClient, url: str, data: dict[str, str]):
    return client.post(url, data={"csrf_token": TOKEN, **data})


def test_O7_new_table_page_offers_the_game(client: FlaskClient, store: TableStore) -> None:
    assert "Okey points (face values, lowest wins)" in client.get("/").text
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    three = post(client, "/new", {"game": "okey_points", "player0": "Ali", "player1": "Can", "player2": "Deniz",
                                  "pin": "1234"})
    assert three.status_code == 422 and "Okey points (face values, lowest wins) is played by 4 players" in text(three.text)
    assert store.list_tables() == []
    options = client.get("/new/options?game=okey_points").text
    assert 'name="opt_hands"' in options and 'name="opt_starter"' in options
    assert 'name="opt_penalty_points"' not in options


def test_O7_web_hand_form_previews_records_and_explains(client: FlaskClient, store: TableStore, points_table: str):
    page = client.get(f"/t/{points_table}").text
    assert "Lowest total wins after 3 hands." in text(page) and "Hand 1 of 3" in text(page)
    assert f"/t/{points_table}/points" in page and "Gösterme" not in page and "Extra penalty" not in page
    assert "Opening checker" not in page
    post(client, f"/t/{points_table}/deal/indicator", {"indicator": "R4"})
    form = client.get(f"/t/{points_table}/points").text
    assert "Who completed the rack?" in form
    fields = {"finisher": "0", "rack1": "R5 K7", "rack2": "F", "sum3": "9"}
    preview = post(client, f"/t/{points_table}/points/check", fields)
    assert preview.status_code == 200 and "Can keeps R5 K7 → 12." in text(preview.text)
    wrong = post(client, f"/t/{points_table}/points/check", {**fields, "rack0": "K1"})
    assert wrong.status_code == 422 and "Whoever finished has no tiles left: clear the tiles (K1)" in text(wrong.text)
    recorded = post(client, f"/t/{points_table}/points", fields)
    assert recorded.status_code == 303
    state = store.get(points_table)
    assert state.totals == (0, 12, 5, 9) and state.dealer == 1
    sheet = text(client.get(f"/t/{points_table}").text)
    assert "Hand 2 of 3" in sheet and "Deniz keeps F → 5." in sheet
    assert "<polyline" in client.get(f"/t/{points_table}").text  # the chart
    history = text(client.get(f"/t/{points_table}/history").text)
    assert "hand scored" in history and "Ali finished" in history


def test_O7_tiles_and_a_typed_sum_for_one_rack_are_refused_not_one_dropped(
    client: FlaskClient, store: TableStore, points_table: str
) -> None:
    post(client, f"/t/{points_table}/deal/indicator", {"indicator": "R4"})
    fields = {"finisher": "0", "rack1": "R5 K7", "sum1": "30", "rack2": "F", "sum3": "9"}
    for path in ("/points/check", "/points"):
        refused = post(client, f"/t/{points_table}{path}", fields)
        assert refused.status_code == 422, path
        assert "Can has tiles and a typed sum: keep one of them (clear the tiles or the sum)." in text(refused.text)
    assert store.get(points_table).hands == (), "nothing recorded"


def test_O7_web_forms_of_other_games_are_refused(client: FlaskClient, store: TableStore, points_table: str):
    response = post(client, f"/t/{points_table}/hand/check", {"finisher": "0"})
    assert response.status_code == 422 and "This table plays Okey points" in text(response.text)
    okey = store.create_table(game="okey", players=PLAYERS, pin="1234")
    with client.session_transaction() as session:
        session["pins"] = {okey: True}
    response = post(client, f"/t/{okey}/points/check", {"finisher": "0"})
    assert response.status_code == 422 and "This table plays Okey (20 points)" in text(response.text)


@pytest.mark.parametrize("lang", ["tr", "ru", "th"])
def test_O7_explanations_are_translated(client: FlaskClient, store: TableStore, points_table: str, lang: str):
    store.record(points_table, {"type": "indicator", "tile": "R4"})
    store.record(points_table, {"type": "okey_points_hand", "hand": {"finisher": None, "racks": ["R1", "R2", "R3", "R4"]}})
    client.set_cookie("lang", lang)
    page = text(client.get(f"/t/{points_table}").text)
    assert "keeps tiles worth" not in page and "stock ran out" not in page


def test_O7_a_recorded_hand_is_corrected_from_its_form(client: FlaskClient, store: TableStore, points_table: str):
    store.record(points_table, {"type": "indicator", "tile": "R4"})
    store.record(points_table, {"type": "okey_points_hand", "hand": {"finisher": 0, "racks": ["", "R5 K7", 9, "F"]}})
    store.record(points_table, {"type": "okey_points_hand",
                                "hand": {"indicator": "K1", "finisher": None, "racks": ["R1", "R1", "B2", "K3"]}})
    assert store.get(points_table).totals == (1, 13, 11, 8)
    sheet = client.get(f"/t/{points_table}").text
    assert f"/t/{points_table}/points?amend=1" in sheet
    form = client.get(f"/t/{points_table}/points?amend=1").text
    assert "Correct hand 1" in text(form) and 'value="R5 K7"' in form and 'value="9"' in form
    fixed = post(client, f"/t/{points_table}/points", {"amend": "1", "indicator": "R4", "finisher": "0",
                                                        "rack1": "R5", "sum2": "9", "rack3": "F"})
    assert fixed.status_code == 303
    state = store.get(points_table)
    assert state.hands[0].amended and state.hands[0].entries == (0, 5, 9, 5) and state.totals == (1, 6, 11, 8)
    refused = post(client, f"/t/{points_table}/points", {"amend": "1", "indicator": "R4", "finisher": "1",
                                                          "rack1": "R5"})
    assert refused.status_code == 422 and "Whoever finished has no tiles left" in text(refused.text)
    assert store.get(points_table).totals == (1, 6, 11, 8)
