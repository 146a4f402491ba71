"""Thai Rummy (RULES.md §D) in the product: the registry entry, whole matches replayed through the table
reducer (who deals next, which way play goes), batch and command line, the HTTP API and the web pages."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.rules.registry import find_game
from companion.store import TableStore
from companion.tables import InvalidEventError, InvalidTableError, new_meta, replay

PLAYERS = ["Somchai", "Malee", "Niran"]
TOKEN = "test-token"


def seat(laid: str = "", hand: str = "", **more: Any) -> dict[str, Any]:
    return {"laid": laid, "hand": hand, **more}


def knock(knocker: int | None, card: str | None, *players: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"knocker": knocker, "knock_card": card, "players": list(players), **fields}


# The three-player match of tests/test_rules_thai.py: (hand, totals after it, dealer of the next hand).
MATCH = [
    (knock(1, "5H", seat("7C 7D 7H", "KD 3S"), seat("10H JH QH KH AH | 2C 2D 2S"), seat(hand="9S QS")),
     (0, 165, -110), 1),
    (knock(None, None, seat("4D 5D 6D 7D"), seat("KS KC KH", "AC"), seat(hand="QS 2C")), (20, 180, -210), 2),
    (knock(0, "2C", seat("8S 9S 10S JS | AD AH AC", born=False), seat("3H 4H 5H", "6C"), seat("QD QC QH", "7S"),
           dark=True, fed_by=2), (270, 190, -235), 0),
    (knock(None, None, seat("4C 5C 6C"), seat("9H 10H JH"), seat("2D 3D 4D", "KC")), (285, 215, -230), 2),
    (knock(0, "3C", seat("5S 6S 7S 8S | 10C 10D 10S 10H | KD KH KS"), seat("4C 5C 6C", "AS"), seat(hand="2H")),
     (425, 215, -240), 0),
    (knock(0, "4S", seat("JC QC KC AC | 9D 10D JD"), seat("6H 7H 8H"), seat("5D 6D 7D", "QS"), fed_by=1),
     (545, 180, -275), 0),
]


def test_D_registry_entry() -> None:
    spec = find_game("Dummy")
    assert (spec.id, spec.hand_event, spec.sheet, spec.picker, spec.players) == ("thai", "thai_hand", "race",
                                                                                    "cards", (2, 3, 4))
    assert find_game("ดัมมี่") is spec and find_game("thai rummy") is spec
    assert spec.deal_tiles is None and not spec.events and set(spec.ops) == {"meld", "check", "pickup"}
    assert set(spec.profiles) == {"reference", "thai_table"}


def test_D6_table_replays_a_whole_match_the_knocker_deals_feeding_reverses() -> None:
    meta = new_meta("THAI1", game="thai", players=PLAYERS, first_dealer=2)
    events: list[dict[str, Any]] = []
    for number, (hand, totals, dealer) in enumerate(MATCH, start=1):
        events.append({"type": "thai_hand", "hand": hand})
        state = replay(meta, events)
        assert state.totals == totals, number
        assert state.dealer == dealer, number
        assert state.hands[-1].entries == tuple(b - a for a, b in zip(
            replay(meta, events[:-1]).totals, totals)), number
    # Hand 2: nobody knocked, the deal passed on from player 2 to player 3; hand 4: after player 3 fed
    # player 1 in hand 3 play goes the other way, so the deal passes from player 1 back to player 3.
    assert [row.dealer for row in state.hands] == [2, 1, 2, 0, 2, 0]
    assert state.finished and state.winners == (0,)
    assert state.standings.direction == "forward"  # fed twice: back to the first direction
    assert state.standings.explain[-1].text == "Player 1 reached 500 first and wins with 545 (D6)."
    with pytest.raises(InvalidEventError, match="already finished"):
        replay(meta, [*events, {"type": "thai_hand", "hand": MATCH[0][0]}])


def test_D1_tables_of_two_to_four_players_and_no_other_games_events() -> None:
    with pytest.raises(InvalidTableError):
        new_meta("THAI2", game="thai", players=["A", "B", "C", "D", "E"])
    meta = new_meta("THAI3", game="thai", players=["A", "B"])
    with pytest.raises(InvalidEventError, match="belongs to Okey"):
        replay(meta, [{"type": "gosterme", "player": 0}])
    with pytest.raises(InvalidEventError, match="belongs to"):
        replay(meta, [{"type": "deal", "dice": [5, 2]}])
    with pytest.raises(ValueError, match="without jokers"):
        replay(meta, [{"type": "thai_hand", "hand": knock(0, "5H", seat("QS KS AS"), seat(hand="*"))}])


# -- batch and the command line --------------------------------------------------------------------


def test_D2_batch_meld() -> None:
    assert answer({"op": "meld", "game": "thai", "cards": "QS KS AS"}) == {
        "valid": True, "value": 75, "reason": "legal run worth 75", "melds": [["QS", "KS", "AS"]]}
    bad = answer({"op": "meld", "game": "thai", "cards": "AS 2S 3S"})
    assert bad["valid"] is False and bad["value"] == 0 and "ace is high only" in bad["reason"]
    assert "without jokers" in answer({"op": "meld", "game": "thai", "cards": "7C * 7H"})["error"]
    assert "missing field 'cards'" in answer({"op": "meld", "game": "thai"})["error"]


def test_D6_batch_score_the_issue_example() -> None:
    result = answer({"op": "score", "game": "thai", "hand": {
        "knocker": 0, "knock_card": "5H", "dark": False, "fed_by": None,
        "players": [{"born": True, "laid": "QS KS AS", "hand": ""}, {"born": False, "laid": "", "hand": "KH"}]}})
    assert result["scores"] == [125, -20]
    assert result["explain"][1].startswith("Player 2 is not born when player 1 knocks")
    assert result["explain_detail"][0]["key"] == "thai.knock"
    table = answer({"op": "score", "game": "thai", "profile": "thai_table", "hand": knock(
        0, "QS", seat("7C 7D 7H"), seat("4D 5D 6D", "KH"))})
    assert table["scores"] == [115, 5]
    assert "unknown field 'winner'" in answer({"op": "score", "game": "thai", "hand": {"winner": 0}})["error"]


def test_D4_batch_check_and_pickup() -> None:
    check = answer({"op": "check", "game": "thai", "cards": "JH 7S 2D", "table": "8H 9H 10H | 7C 7D 7H"})
    assert check["knocks"] and check["knock_cards"] == ["2D"]
    assert check["layoffs"] == [{"meld": 0, "cards": ["JH"]}, {"meld": 1, "cards": ["7S"]}]
    pickup = answer({"op": "pickup", "game": "thai", "row": "3D 9S 7H KC", "card": "9S", "cards": "9H 9D 2C"})
    assert pickup["legal"] and pickup["taken"] == ["9S", "7H", "KC"] and pickup["born_now"]
    assert "invalid born 'yes'" in answer({"op": "pickup", "game": "thai", "row": "3D", "card": "3D", "born": "yes"})["error"]


def test_D_cli_meld_check_score(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["meld", "--game", "thai", "QS", "KS", "AS"]) == 0
    assert capsys.readouterr().out.strip() == "valid meld worth 75 (legal run worth 75)"
    assert main(["check", "--game", "dummy", "JH", "7S", "2D", "--table", "8H 9H 10H | 7C 7D 7H"]) == 0
    out = capsys.readouterr().out
    assert "put 2D face down" in out and "lay off on table meld 1: JH" in out
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(MATCH[2][0]))
    assert main(["score", "--game", "thai", "--hand", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "scores: 250 10 -25"
    assert main(["meld", "--game", "thai", "7C", "*"]) == 2
    assert "without jokers" in capsys.readouterr().err
    assert main(["meld", "R1", "R2", "R3"]) == 2  # a tile game still needs its indicator
    assert "--indicator is required for Okey 101" in capsys.readouterr().err


# -- the HTTP API ----------------------------------------------------------------------------------


def test_D_api_table_hand_event_and_refusal(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={"game": "thai", "players": PLAYERS, "pin": "1234"})
    assert created.status_code == 201
    table = created.json["id"]
    headers = {"X-Table-Pin": "1234"}
    response = client.post(f"/api/tables/{table}/events", headers=headers, json={"type": "thai_hand", "hand": MATCH[0][0]})
    assert response.status_code == 201
    sheet = response.json["sheet"]
    assert sheet["hands"][0]["entries"] == [0, 165, -110] and sheet["dealer"] == 1
    version = client.get(f"/api/tables/{table}/version").json["version"]
    bad = client.post(f"/api/tables/{table}/events", headers=headers,
                      json={"type": "thai_hand", "hand": knock(0, "5H", seat("QS KS AS", "KH"), seat(), seat())})
    assert bad.status_code == 422 and "knocked but still holds 'KH'" in bad.json["error"]
    assert client.get(f"/api/tables/{table}/version").json["version"] == version  # nothing recorded
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{table}/export.csv").text)))
    assert rows[1][2:5] == ["0", "165", "-110"] and "Malee knocked with 5H" in rows[1][5]


# -- the web pages ---------------------------------------------------------------------------------


def text(html: str) -> str:
    """The page's words; a rule id linked inside parentheses reads as it does on screen: ``(D6)``."""
    words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))
    return re.sub(r"\( ", "(", re.sub(r" \)", ")", words))


@pytest.fixture
def thai_table(client: FlaskClient, store: TableStore) -> str:
    table = store.create_table(game="thai", players=PLAYERS, pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    return table


def post(client: FlaskClient, url: str, data: dict[str, str]) -> Any:
    return client.post(url, data={"csrf_token": TOKEN, **data})


FED = {"knocker": "0", "knock_card": "2c", "dark": "1", "fed_by": "2", "laid0": "8S 9S 10S JS AD AH AC",
       "laid1": "3H 4H 5H", "hand1": "6C", "laid2": "QD QC QH", "hand2": "7S"}


def test_D_new_table_page_offers_thai_and_its_options(client: FlaskClient) -> None:
    assert "Thai Rummy (Dummy)" in client.get("/").text
    options = client.get("/new/options?game=thai").text
    assert 'name="opt_target"' in options and 'name="opt_speto_knock_card_points"' in options
    assert "Falling off the building" in text(options) and 'name="opt_wrap_13_1"' not in options


def test_D_web_hand_form_previews_records_and_shows_direction(client: FlaskClient, store: TableStore,
                                                             thai_table: str) -> None:
    page = text(client.get(f"/t/{thai_table}").text)
    assert "The first to reach 500 points wins." in page and "Play goes: Somchai → Malee → Niran" in page
    assert "9 cards each; the next card turned up starts the discard row (D1)" in page
    assert "Deal assistant" not in page and "indicator" not in page.lower()
    form = client.get(f"/t/{thai_table}/thai").text
    assert "Who knocked?" in text(form) and "Dark knock (น็อคมืด)" in text(form)
    preview = post(client, f"/t/{thai_table}/thai/check", FED)
    assert preview.status_code == 200
    shown = text(preview.text)
    assert "Somchai knocked dark with 2C: (75 + 50) × 2 → 250 (dark knock, D6)." in shown
    assert "Niran fed Somchai the card they knocked with (โง่): -50" in shown
    wrong = post(client, f"/t/{thai_table}/thai/check", {**FED, "hand0": "KD"})
    assert wrong.status_code == 422 and "move KD to the knocker's laid cards" in text(wrong.text)
    twice = post(client, f"/t/{thai_table}/thai", {**FED, "hand1": "6C QD"})
    assert twice.status_code == 422 and "QD is entered twice" in text(twice.text)
    assert store.get(thai_table).hands == ()  # nothing recorded
    recorded = post(client, f"/t/{thai_table}/thai", FED)
    assert recorded.status_code == 303
    state = store.get(thai_table)
    assert state.totals == (250, 10, -25) and state.dealer == 0
    sheet = text(client.get(f"/t/{thai_table}").text)
    assert "Play goes the other way round (feeding, โง่): Somchai → Niran → Malee" in sheet
    assert "Somchai knocked: they deal and start the next hand (D6)." in sheet


def test_D6_web_winner_announced(client: FlaskClient, store: TableStore, thai_table: str) -> None:
    for hand, _totals, _dealer in MATCH:
        store.record(thai_table, {"type": "thai_hand", "hand": hand})
    page = text(client.get(f"/t/{thai_table}").text)
    assert "Match over. Winners: Somchai" in page and "Somchai (545) reached 500 first and won (D6)." in page
    assert "Play goes" not in page


def test_D_web_form_of_another_game_is_refused(client: FlaskClient, store: TableStore, thai_table: str) -> None:
    response = post(client, f"/t/{thai_table}/points/check", {"finisher": "0"})
    assert response.status_code == 422 and "This table plays Thai Rummy (Dummy)" in text(response.text)


@pytest.mark.parametrize(("lang", "words"), [("th", "น็อคมืด"), ("tr", "karanlık vurdu"), ("ru", "втёмную")])
def test_D_explanations_and_errors_in_the_readers_language(client: FlaskClient, thai_table: str, lang: str,
                                                           words: str) -> None:
    client.set_cookie("lang", lang)
    preview = text(post(client, f"/t/{thai_table}/thai/check", FED).text)
    assert words in preview and "knocked dark" not in preview
    joker = text(post(client, f"/t/{thai_table}/thai/check", {**FED, "hand1": "*"}).text)
    assert "without jokers" not in joker and "*" in joker


def test_D_web_recorded_hand_is_corrected_from_its_form(client: FlaskClient, store: TableStore, thai_table: str) -> None:
    post(client, f"/t/{thai_table}/thai", FED)
    form = client.get(f"/t/{thai_table}/thai?amend=1").text
    assert "Correct hand 1" in text(form) and 'value="8S 9S 10S JS AD AH AC"' in form and 'name="dark" value="1" checked' in form
    corrected = post(client, f"/t/{thai_table}/thai", {**FED, "dark": "", "amend": "1"})
    assert corrected.status_code == 303
    state = store.get(thai_table)
    assert len(state.hands) == 1 and state.totals == (125, 10, -25) and state.hands[0].amended
