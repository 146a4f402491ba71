"""What the forty-fourth round's look at the pages found wanting, mended: a gösterme refused twice named the seat
from 0, the Rami opening checker counted cards against three decks whatever the table's size, and a blank rack of a
player who did not finish scored 0 in Okey 101 and Okey points."""

from __future__ import annotations

import re

import pytest

from companion.store import TableStore
from companion.tables import InvalidEventError

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]


def test_O6_the_same_seats_gosterme_twice_names_the_seat_as_players_count_them(store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    store.record(table, {"type": "indicator", "tile": "R4"})
    store.record(table, {"type": "gosterme", "player": 0})
    with pytest.raises(InvalidEventError, match=re.escape("Player 1 already showed the indicator this hand")):
        store.record(table, {"type": "gosterme", "player": 0})


# -- M1: the opening checker counts the cards against the table's deck ------------------------------------------

THREE_KH = "KH KS KD | KH KS KD | KH KC KD"


def _web_table(client, store: TableStore, game: str, players: list[str]) -> str:
    table = store.create_table(game=game, players=players, pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = "fix-token"
    return table


def _said(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("players, refused", [(PLAYERS, True), ([*PLAYERS, "Filiz"], False)], ids=["4-two-decks",
                                                                                                  "5-three-decks"])
@pytest.mark.parametrize("field", ["melds", "hand"])
def test_M1_the_rami_opening_checker_counts_cards_against_the_tables_deck(client, store: TableStore, players,
                                                                           refused, field) -> None:
    """Four players play two decks (three KH cannot be), five or six three (M1); the checker used three always."""
    table = _web_table(client, store, "rami40", players)
    cards = THREE_KH if field == "melds" else THREE_KH.replace(" |", "")
    said = _said(client.post(f"/t/{table}/cards/opening", data={"csrf_token": "fix-token", field: cards}).text)
    assert ("3 × KH entered" in said) is refused, said


def test_M1_the_batch_counts_against_the_deck_of_the_players_given() -> None:
    from companion.cli import answer

    request = {"op": "meld", "game": "rami40", "cards": THREE_KH}
    assert "2 decks hold only 2" in answer({**request, "players": 4})["error"]
    assert answer({**request, "players": 5})["opens"] is True
    assert answer(request)["opens"] is True, "no players given: the largest deck (three decks)"
    assert "Turkish Rummy is played by 2 to 6" in answer({"op": "opening", "game": "turkish", "players": 7,
                                                          "cards": "KH KS KD"})["error"]


# -- H6, O7: only the finisher's rack is empty ------------------------------------------------------------------


def _record101(players: list[dict], finisher: int | None = 0) -> dict:
    return {"indicator": "R4", "finisher": finisher, "finish": "normal", "players": players}


def test_H6_an_opened_player_who_did_not_finish_keeps_tiles(store: TableStore) -> None:
    from companion.rules.errors import InvalidHandRecordError
    from companion.rules.scoring_101 import admit_okey101_hand, score_okey101_hand

    blank = _record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": ""},
                        {"opened": None, "rack": ""}, {"opened": None, "rack": "K1"}])
    with pytest.raises(InvalidHandRecordError, match=re.escape("player 2 opened but keeps nothing on the rack")):
        admit_okey101_hand(blank)
    assert score_okey101_hand(blank).scores[1] == 0, "scoring alone still takes it: an old log replays"
    typed_zero = _record101([{"opened": "melds", "rack": ""}, {"opened": "pairs", "sum": 0, "okeys": 0},
                             {"opened": None, "rack": ""}, {"opened": None, "rack": ""}])
    with pytest.raises(InvalidHandRecordError, match="player 2 opened but keeps nothing"):
        admit_okey101_hand(typed_zero)
    # a player who never opened pays 202 whatever the rack: theirs may stay blank; an okey alone is a rack too
    admit_okey101_hand(_record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "sum": 0, "okeys": 1},
                                   {"opened": None, "rack": ""}, {"opened": None, "rack": ""}]))
    stock_out = _record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "K2"},
                            {"opened": None, "rack": ""}, {"opened": None, "rack": ""}], finisher=None)
    with pytest.raises(InvalidHandRecordError, match="player 1 opened but keeps nothing"):
        admit_okey101_hand(stock_out)
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234")
    store.record(table, {"type": "indicator", "tile": "R4"})
    with pytest.raises(InvalidHandRecordError, match="player 2 opened"):
        store.record(table, {"type": "okey101_hand", "hand": blank})
    assert not store.get(table).hands


def test_O7_only_the_player_who_completed_the_rack_has_none(client, store: TableStore) -> None:
    from companion.cli import answer
    from companion.rules.errors import InvalidHandRecordError
    from companion.rules.okey_points import admit_okey_points_hand

    with pytest.raises(InvalidHandRecordError, match=re.escape("player 3's rack is empty, but only the player who "
                                                               "completed the rack has none (O7)")):
        admit_okey_points_hand({"indicator": "R4", "finisher": 0, "racks": ["", "R5", "", 9]})
    with pytest.raises(InvalidHandRecordError, match="player 1's rack is empty"):
        admit_okey_points_hand({"indicator": "R4", "finisher": None, "racks": ["", "R5", "K1", 9]})
    admit_okey_points_hand({"indicator": "R4", "finisher": 0, "racks": ["", "R5", 0, 9]})  # a typed sum stands
    reply = answer({"op": "score", "game": "okey_points", "hand": {"indicator": "R4", "finisher": 0,
                                                                    "racks": ["", "R5", "", 9]}})
    assert "player 3's rack is empty" in reply["error"]
    table = _web_table(client, store, "okey_points", PLAYERS)
    with client.session_transaction() as session:
        session["pins"] = {table: True}
    client.post(f"/t/{table}/deal/indicator", data={"csrf_token": "fix-token", "indicator": "R4"})
    client.set_cookie("lang", "tr")
    fields = {"csrf_token": "fix-token", "finisher": "0", "rack1": "R5 K7", "sum3": "9"}
    preview = client.post(f"/t/{table}/points/check", data=fields, headers={"HX-Request": "true"})
    said = _said(preview.text)
    assert preview.status_code == 200 and "3. oyuncunun ıstakası boş olamaz" in said and 'class="sheet"' in preview.text
    recorded = client.post(f"/t/{table}/points", data=fields)
    assert recorded.status_code == 422 and "3. oyuncunun ıstakası boş olamaz" in _said(recorded.text)
    assert not store.get(table).hands
    assert client.post(f"/t/{table}/points", data={**fields, "rack2": "B3"}).status_code == 303


def test_H6_the_hand_form_says_an_opened_players_rack_is_blank(client, store: TableStore) -> None:
    table = _web_table(client, store, "okey101", PLAYERS)
    with client.session_transaction() as session:
        session["pins"] = {table: True}
    store.record(table, {"type": "indicator", "tile": "R4"})
    form = {"csrf_token": "fix-token", "finisher": "0", "finish": "normal", "opened0": "melds", "rack0": "",
            "opened1": "melds", "rack1": "", "opened2": "none", "rack2": "", "opened3": "none", "rack3": ""}
    page = client.post(f"/t/{table}/hand", data=form)
    assert page.status_code == 422 and "Player 2 opened, so their rack cannot be empty" in _said(page.text)
    assert client.post(f"/t/{table}/hand", data={**form, "rack1": "K5"}).status_code == 303


# -- M1, T1: a card game's deal rolls no dice, in the batch as on the command line ----------------------------


@pytest.mark.parametrize("game", ["rami40", "rami51", "turkish"])
@pytest.mark.parametrize("field, value", [("dice", [5, 2]), ("seed", 3)])
def test_M1_T1_the_batch_refuses_dice_for_a_card_deal(game, field, value) -> None:
    from companion.cli import answer

    request = {"op": "deal", "game": game, "players": 4, "dealer": 0}
    error = answer({**request, field: value})["error"]
    assert error.startswith(f"field '{field}' is the dice ritual's (Okey, Okey 101, Okey points); ") and \
        error.endswith("is dealt without dice: leave it out"), error
    assert answer(request)["cards_each"] == 13
