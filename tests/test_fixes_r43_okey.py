"""Okey and Okey 101 as the forty-third round's audit found them wanting, mended: one gösterme a hand, a gösterme that
outlives its player's wrong declaration or the match it ends, ties at the end of a match, and 101 records no set can
produce (more than two okeys, racks of more than 21 tiles, sums no 21 tiles reach, elden after a pairs opening).
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError, InvalidOptionError
from companion.rules.options import options_for
from companion.rules.scoring_101 import MAX_RACK_SUM, admit_okey101_hand, score_okey101_hand
from companion.cli import answer
from companion.store import TableStore
from companion.tables import InvalidEventError, new_meta, replay

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"  # melds with the indicator R4 (no okey used)
WRONG = "R1 R2 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"  # not a win: R1 R2 R4 is no run
INDICATOR = {"type": "indicator", "tile": "R4"}
TOKEN = "test-token"


def okey(events: list[dict], **options: object):
    return replay(new_meta("T", game="okey", players=PLAYERS, options=options), events)


def hand(winner: int | None, tiles: str = MELDS) -> dict:
    return {"type": "okey_hand", "hand": {"winner": winner, "tiles": tiles, "discard": "Y8"}}


def words(html: str) -> str:
    html = re.sub(r"</?a\b[^>]*>", "", html)  # links inside a sentence (rule ids) are part of it
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# -- O1/O3, O6: one gösterme a hand ------------------------------------------------------------------------


def test_O6_a_second_players_gosterme_is_refused_before_it_is_stored(store: TableStore) -> None:
    """One copy of the indicator's tile is the indicator, so only one seat can hold the other (settled O1/O3)."""
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    store.record(table, INDICATOR)
    store.record(table, {"type": "gosterme", "player": 1})
    with pytest.raises(InvalidEventError, match=re.escape("Player 2 already showed the indicator's twin this hand, "
                                                          "and there is only one")):
        store.record(table, {"type": "gosterme", "player": 2})
    assert [event.type for event in store.events(table)] == ["indicator", "gosterme"]
    state = store.record(table, hand(0))  # the hand is still recordable
    assert state.hands[0].entries == (-1, -2, -3, -3)


def test_O6_a_log_holding_two_gosterme_still_replays() -> None:
    """An earlier version stored a second one: the table opens, and the hand says why it cannot be recorded."""
    state = okey([INDICATOR, {"type": "gosterme", "player": 1}, {"type": "gosterme", "player": 2}])
    assert state.deal.gosterme == (1, 2)
    with pytest.raises(InvalidHandRecordError, match="only one tile is the indicator's twin"):
        okey([INDICATOR, {"type": "gosterme", "player": 1}, {"type": "gosterme", "player": 2}, hand(0)])


def test_O6_the_page_refuses_a_second_gosterme_in_the_players_language(client: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    store.record(table, INDICATOR)
    store.record(table, {"type": "gosterme", "player": 0})
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    client.set_cookie("lang", "tr")
    page = client.post(f"/t/{table}/gosterme", data={"csrf_token": TOKEN, "player": "2"})
    assert page.status_code == 422
    assert "1. oyuncu bu elde göstergenin eşini zaten gösterdi" in words(page.text)
    assert len(store.events(table)) == 2


# -- O5/O6: a gösterme outlives its player's wrong declaration -------------------------------------------


def test_O6_elimination_a_player_who_showed_then_declared_wrongly_leaves_and_the_hand_is_still_recordable() -> None:
    """Can shows the twin, then declares wrongly: 4 - 4 = 0, out at once (elimination).  Ali wins: Deniz and Ece lose
    2; Can's gösterme, shown while still in, costs Ali, Deniz and Ece 1 each."""
    events = [INDICATOR, {"type": "gosterme", "player": 1}, hand(1, WRONG)]
    assert okey(events, elimination=True, start_points=4).left == (1,)
    state = okey([*events, hand(0)], elimination=True, start_points=4)
    assert state.totals == (3, 0, 1, 1) and state.hands[0].entries == (-1, -4, -3, -3)
    stock_out = okey([*events, hand(None)], elimination=True, start_points=4)
    assert stock_out.totals == (3, 0, 3, 3)


def test_O6_a_wrong_declaration_that_ends_the_match_counts_the_gosterme_shown_before_it() -> None:
    """Deniz showed the twin; Can's wrong declaration takes Can to 0 and ends the match, and so the hand: the
    gösterme counts (it stands whenever the hand ends without a win).  Then Deniz (4) wins; Ali and Ece tie on 3."""
    state = okey([INDICATOR, {"type": "gosterme", "player": 2}, hand(1, WRONG)], start_points=4)
    assert state.finished and state.totals == (3, -1, 4, 3)
    assert state.hands[0].explain == (
        "Player 2's declaration is wrong (the 14 tiles do not split into melds or seven pairs): player 2 loses 4; "
        "nobody else changes.",
        "Player 3 showed the indicator's twin (gösterme): every opponent loses 1.",
    )
    assert state.winners == (2, 0, 3) and state.standings.losers == (1,)


def test_O6_a_hand_cut_short_by_the_match_end_cannot_be_amended_and_says_to_undo() -> None:
    events = [INDICATOR, hand(1, WRONG), {"type": "amend", "hand": 1, "record": {"winner": 1, "tiles": MELDS,
                                                                                 "discard": "Y8"}}]
    with pytest.raises(InvalidEventError, match=re.escape("hand 1 was not over when what it cost ended the match (a "
                                                          "wrong declaration): a correction cannot replace it; undo")):
        okey(events, start_points=4)


# -- O6: ties at the end of a match ------------------------------------------------------------------------


def test_O6_three_tied_on_top_all_win_and_the_sheet_says_why(client: FlaskClient, store: TableStore) -> None:
    """Start 4, Can declares wrongly (-4): 4, 0, 4, 4 — three tied on top share the two winning places."""
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options={"start_points": 4})
    store.record(table, INDICATOR)
    state = store.record(table, hand(1, WRONG))
    assert state.totals == (4, 0, 4, 4) and state.winners == (0, 2, 3) and state.standings.losers == (1,)
    assert state.standings.explain[-1].text == (
        "The match is over: somebody is at 0 or less, and the highest win, players tied on a place sharing it (O6): "
        "player 1 (4), player 3 (4), player 4 (4); player 2 loses.")
    page = words(client.get(f"/t/{table}").text)
    assert "Winners: Ali, Deniz, Ece" in page and "Losers: Can" in page
    assert "the highest win, players tied on a place sharing it (O6): Ali (4), Deniz (4), Ece (4)." in page


# -- H6 / O1: what no 101 set can produce ------------------------------------------------------------------


def record101(players: list[dict], finisher: int | None = 0, **extra: object) -> dict:
    return {"indicator": "R4", "finisher": finisher, "players": players, **extra}


def test_H6_more_than_two_okeys_between_the_racks_and_the_final_discard_are_refused(store: TableStore) -> None:
    """R5 is the okey (indicator R4): a set has two.  Refused where a hand enters (a table, the command line's score),
    while a log an earlier version wrote with such a hand still replays."""
    three = record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "R5"},
                       {"opened": "melds", "rack": "R5"}, {"opened": None, "rack": ""}], finish="okey_discard")
    with pytest.raises(ImpossibleHandError, match=re.escape("impossible hand: 3 okeys on the racks and the finishing "
                                                            "discard, but a set has only 2 (O1, O3)")):
        admit_okey101_hand(three)
    with pytest.raises(ImpossibleHandError, match="5 okeys on the racks"):
        admit_okey101_hand(record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "sum": 3, "okeys": 2},
                                      {"opened": "melds", "sum": 3, "okeys": 2}, {"opened": "melds", "rack": "R5"}]))
    two = record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "sum": 3, "okeys": 1},
                     {"opened": "melds", "rack": "R5"}, {"opened": None, "rack": ""}])
    admit_okey101_hand(two)
    assert score_okey101_hand(two).scores == (-101, 104, 101, 202)
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234")
    store.record(table, INDICATOR)
    with pytest.raises(ImpossibleHandError, match="3 okeys on the racks"):
        store.record(table, {"type": "okey101_hand", "hand": three})
    assert not store.get(table).hands
    written = replay(new_meta("T", game="okey101", players=PLAYERS), [INDICATOR, {"type": "okey101_hand",
                                                                                   "hand": three}])
    assert written.hands[0].entries == (-202, 202, 202, 404)
    store.record(table, {"type": "okey101_hand", "hand": two})
    with pytest.raises(InvalidEventError, match="the correction of hand 1 cannot be recorded: impossible hand: 3 "
                                                "okeys on the racks"):  # a correction enters too
        store.record(table, {"type": "amend", "hand": 1, "record": {**two, "finish": "okey_discard"}})


def test_H6_a_rack_of_more_than_21_tiles_and_a_sum_no_21_tiles_reach_are_refused() -> None:
    big = " ".join(f"{colour}{number}" for colour in "YBK" for number in range(1, 9))  # 24 tiles
    with pytest.raises(ImpossibleHandError, match=re.escape("impossible rack: 24 tiles for player 2, but a rack "
                                                            "holds at most 21")):
        admit_okey101_hand(record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": big},
                                      {"opened": None, "rack": ""}]))
    assert MAX_RACK_SUM == 255  # eight 13s, eight 12s, five 11s
    with pytest.raises(InvalidHandRecordError, match="invalid sum 256 for seat 1: a whole number from 0 to 255"):
        admit_okey101_hand(record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "sum": 256},
                                      {"opened": None, "rack": ""}]))
    top = record101([{"opened": "melds", "rack": ""}, {"opened": "melds", "sum": 255}, {"opened": None, "rack": ""}])
    admit_okey101_hand(top)
    assert score_okey101_hand(top).scores == (-101, 255, 202)
    result = answer({"op": "score", "game": "okey101", "hand": record101([{"opened": "melds", "rack": ""},
                                                                          {"opened": "melds", "sum": 300},
                                                                          {"opened": None, "rack": ""}])})
    assert "invalid sum 300" in result["error"]


def test_H6_elden_after_a_pairs_opening_is_refused() -> None:
    """21 tiles laid in one turn cannot all be pairs, and nobody else has melds to add to."""
    with pytest.raises(InvalidHandRecordError, match="elden with a pairs opening is impossible"):
        admit_okey101_hand(record101([{"opened": "pairs", "rack": ""}, {"opened": None, "rack": "K1"},
                                      {"opened": None, "rack": "K2"}], elden=True))


def test_H6_the_hand_form_refuses_elden_after_a_pairs_opening_and_a_sum_above_255(client: FlaskClient,
                                                                                  store: TableStore) -> None:
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234")
    store.record(table, INDICATOR)
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    form = {"csrf_token": TOKEN, "finisher": "0", "finish": "normal", "opened0": "pairs", "rack0": "",
            "opened1": "none", "rack1": "B1", "opened2": "none", "rack2": "B2", "opened3": "none", "rack3": "B3"}
    page = client.post(f"/t/{table}/hand", data={**form, "elden": "1"})
    assert page.status_code == 422 and "Elden cannot follow a pairs opening" in words(page.text)
    page = client.post(f"/t/{table}/hand", data={**form, "opened1": "melds", "rack1": "", "sum1": "300"})
    assert page.status_code == 422 and "255" in words(page.text)
    assert not store.get(table).hands


# -- O6: a match must start above 0 ------------------------------------------------------------------------


def test_O6_start_points_0_is_refused_for_a_new_table(client: FlaskClient) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape("invalid value 0 for option 'start_points' of okey; use "
                                                           "1-10000")):
        new_meta("T", game="okey", players=PLAYERS, options={"start_points": 0})
    response = client.post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234",
                                                "options": {"start_points": 0}})
    assert response.status_code in (400, 422) and "start_points" in response.json["error"]
    assert options_for("okey", {"start_points": 0}).start_points == 0  # a stored table with it still opens


# -- the second audit: laid pairs without okey pairs, a check without its indicator, O7's four players ----------


def test_H4_O5_with_okey_pair_of_okeys_off_a_laid_okey_pairs_no_tile_whose_twin_is_laid(client: FlaskClient,
                                                                                         store: TableStore) -> None:
    """As the rack's count reads it (settled O5): K5 R5 | K5 R5 pairs two okeys with K5s that are twins."""
    off = {"okey_pair_of_okeys": False}
    twins = answer({"op": "meld", "game": "okey101", "indicator": "R4", "options": off,
                    "tiles": "K5 R5 | K5 R5 | Y1 Y1 | Y2 Y2 | Y3 Y3"})
    assert twins["opens"] is False and "an okey pairs K5, whose twin is laid too" in twins["reason"]
    singles = answer({"op": "meld", "game": "okey101", "indicator": "R4", "options": off,
                      "tiles": "K5 R5 | B5 R5 | Y1 Y1 | Y2 Y2 | Y3 Y3"})
    assert singles["opens"] is True
    rack = answer({"op": "opening", "game": "okey101", "indicator": "R4", "options": off,
                   "tiles": "K5 K5 R5 R5 Y1 Y1 Y2 Y2 Y3 Y3"})
    assert rack["pairs"] == 4 and rack["pairs_open"] is False  # the two checks agree
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", options=off)
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    page = words(client.post(f"/t/{table}/opening", data={"csrf_token": TOKEN, "indicator": "R4",
                                                            "melds": "K5 R5 | K5 R5 | Y1 Y1 | Y2 Y2 | Y3 Y3"}).text)
    assert "Does not open: an okey pairs K5, but its twin is laid too" in page and "Opens." not in page


def test_O3_a_check_or_meld_without_the_indicator_is_refused_not_judged_without_okeys() -> None:
    """Without the indicator nothing would be wild: the batch asks for it, as the command line does."""
    for op, game in (("check", "okey"), ("check", "okey101"), ("meld", "okey101")):
        result = answer({"op": op, "game": game, "tiles": "R1 R2 R3 J Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12"})
        assert result == {"error": "missing field 'indicator' in request"}, (op, game)
    with_it = answer({"op": "check", "game": "okey", "indicator": "R4",
                      "tiles": "R1 R2 R3 J Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12"})
    assert "J is the Rummikub joker, okey has no J" in with_it["error"]


def test_O7_the_points_game_is_dealt_for_four_players_only() -> None:
    assert answer({"op": "deal", "game": "okey_points", "players": 3, "dice": [1, 1]}) == {
        "error": "invalid players 3: Okey points is played by 4 players"}
    assert answer({"op": "deal", "game": "okey_points", "players": 4, "dice": [1, 1]})["players"] == 4
