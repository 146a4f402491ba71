"""Audit r43: Okey (O1-O7) and Okey 101 (H1-H8) as a table meets them, through the web API, the table reducer and the
batch/CLI interface.  Each expected number is worked out by hand from RULES.md (sections O and H and their settled
readings); the comment on each test says how.  These are the behaviours found correct; the discrepancies found in the
same audit are reported separately and are not locked in here."""

from __future__ import annotations

import csv
import io

import pytest

from companion.cli import answer
from companion.rules.errors import InvalidHandRecordError
from companion.tables import InvalidEventError, new_meta, replay

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
PIN = {"X-Table-Pin": "1234"}
MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"  # melds with indicator R4 / K4 (no okey used)
WRONG = "R1 R2 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"  # not a win (R1 R2 R4 is no run)
RED_PAIRS = "R1 R1 R2 R2 R3 R3 R6 R6 R7 R7 R9 R9 R11 R11"
BLACK_PAIRS = "K1 K1 K2 K2 K3 K3 K6 K6 K7 K7 K9 K9 K11 K11"


# -- helpers -------------------------------------------------------------------------------------------------


def table(client, game: str, **settings) -> str:
    response = client.post("/api/tables", json={"game": game, "players": PLAYERS, "pin": "1234", **settings})
    assert response.status_code == 201, response.json
    return response.json["id"]


def post(client, table_id: str, event: dict, status: int = 201) -> dict:
    response = client.post(f"/api/tables/{table_id}/events", json=event, headers=PIN)
    assert response.status_code == status, response.json
    return response.json


def okey(events, **settings):
    return replay(new_meta("T", game="okey", players=PLAYERS, **settings), events)


def okey101(events, **settings):
    return replay(new_meta("T", game="okey101", players=PLAYERS, **settings), events)


def win(winner, tiles=MELDS, discard="Y8", indicator=None, **extra) -> dict:
    hand = {"winner": winner, "tiles": tiles, "discard": discard, **extra}
    if indicator is not None:
        hand["indicator"] = indicator
    return {"type": "okey_hand", "hand": hand}


def hand101(finisher, players, indicator="R4", **extra) -> dict:
    return {"type": "okey101_hand", "hand": {"indicator": indicator, "finisher": finisher, "players": players, **extra}}


def rack(opened, tiles) -> dict:
    return {"opened": opened, "rack": tiles}


def typed(opened, total, okeys=0) -> dict:
    return {"opened": opened, "sum": total, "okeys": okeys}


# -- O5/O6: Okey hands through the API -----------------------------------------------------------------------


def test_O6_colour_hand_of_seven_pairs_with_indicator_multiplier(client):
    # Seven pairs, all red: base 4 (O6 pairs); colour hand doubles (settled: a one-colour seven pairs doubles too)
    # = 8; indicator K4 is black, y2_b3_r4_k5 gives ×5 and multiplies the win, colour hand included: 4×2×5 = 40.
    table_id = table(client, "okey", options={"colour_hand": "any", "indicator_colour_multiplier": "y2_b3_r4_k5",
                                              "start_points": 100})
    post(client, table_id, {"type": "indicator", "tile": "K4"})
    sheet = post(client, table_id, win(0, RED_PAIRS, "B8"))["sheet"]
    assert sheet["hands"][0]["entries"] == [0, -40, -40, -40]
    assert sheet["totals"] == [100, 60, 60, 60]
    assert sheet["hands"][0]["result"]["kind"] == "pairs" and sheet["hands"][0]["result"]["multiplier"] == 10


def test_O6_colour_hand_red_black_an_okey_plays_the_red_it_stands_for(client):
    # Indicator K4: the okey is K5 (black tile) but it completes the R11 pair, so it plays red (settled: an okey
    # playing R7 is red).  Seven pairs 4 × red colour hand 2 = 8 with the red_black sub-option.
    table_id = table(client, "okey", options={"colour_hand": "red_black", "start_points": 100})
    post(client, table_id, {"type": "indicator", "tile": "K4"})
    sheet = post(client, table_id, win(0, "R1 R1 R2 R2 R3 R3 R6 R6 R7 R7 R9 R9 R11 K5", "B8"))["sheet"]
    assert sheet["hands"][0]["entries"] == [0, -8, -8, -8]
    assert sheet["hands"][0]["result"]["colour_hand"] == "R"


def test_O6_colour_hand_red_black_ignores_an_all_blue_hand(client):
    # red_black: only all-red or all-black hands double; an all-blue seven pairs is the plain 4.
    table_id = table(client, "okey", options={"colour_hand": "red_black"})
    post(client, table_id, {"type": "indicator", "tile": "K4"})
    sheet = post(client, table_id, win(0, RED_PAIRS.replace("R", "B"), "Y8"))["sheet"]
    assert sheet["hands"][0]["entries"] == [0, -4, -4, -4]


@pytest.mark.parametrize(("indicator", "lost"), [("R4", 4), ("K4", 2)])
def test_O6_colour_hand_false_okey_plays_the_okeys_colour(indicator, lost):
    # F plays as the okey's face (O3).  Indicator R4: F is R5, the hand R1-R3 | R4 F R6 | R7-R10 | R11 R12 R13 R1
    # is all red: 2 × 2 = 4.  Indicator K4: F is K5 (black), R5 F B5 is a set and the hand is not one colour: 2.
    tiles = ("R1 R2 R3 R4 F R6 R7 R8 R9 R10 R11 R12 R13 R1" if indicator == "R4"
             else "R1 R2 R3 R5 F B5 R7 R8 R9 R10 R11 R12 R13 R1")
    state = okey([win(0, tiles, "B8", indicator)], options={"colour_hand": "any"})
    assert state.hands[0].entries == (0, -lost, -lost, -lost)


def test_O6_pairs_okey_discard_colour_and_indicator_multiplier_all_multiply():
    # All-black seven pairs finished by discarding the okey R5 (indicator R4): pairs_and_okey_discard 8;
    # black colour hand (red_black) ×2; red indicator with red_black_x2 ×2: 8 × 4 = 32.
    state = okey([win(0, BLACK_PAIRS, "R5", "R4")], options={
        "colour_hand": "red_black", "pairs_and_okey_discard": 8, "indicator_colour_multiplier": "red_black_x2",
        "start_points": 100})
    assert state.hands[0].entries == (0, -32, -32, -32)
    assert state.hands[0].result["okey_discard"] is True and state.hands[0].result["multiplier"] == 4


def test_O5_a_hand_that_is_melds_and_seven_pairs_scores_as_pairs():
    # R1-R4 twice and B5-B7 twice split into four runs and into seven pairs: settled reading O5 says seven pairs, 4.
    state = okey([win(0, "R1 R2 R3 R4 R1 R2 R3 R4 B5 B6 B7 B5 B6 B7", "Y8", "K1")])
    assert state.hands[0].entries == (0, -4, -4, -4) and state.hands[0].result["kind"] == "pairs"


@pytest.mark.parametrize(("pair_of_okeys", "entries"), [(True, (0, -4, -4, -4)), (False, (-4, 0, 0, 0))])
def test_O5_okey_pair_of_okeys_option(pair_of_okeys, entries):
    # Six pairs and both okeys (R5 R5, indicator R4).  On: the two okeys are the seventh pair, 4 each.  Off: an
    # okey pairs only a tile without its twin, there is none, no melds either: a wrong declaration, the declarer -4.
    tiles = "R1 R1 B2 B2 Y3 Y3 K4 K4 R7 R7 B9 B9 R5 R5"
    state = okey([{"type": "indicator", "tile": "R4"}, win(0, tiles, "Y11")],
                 options={"okey_pair_of_okeys": pair_of_okeys})
    row = state.hands[0] if state.hands else state.current
    assert row.entries == entries


def test_O5_wrong_declaration_with_partners_and_indicator_multiplier_costs_the_team_4(client):
    # O5: the declarer pays wrong_finish_penalty 4; with partners the declarer's team pays it; the indicator-colour
    # multiplier never touches it (settled O6), even black ×5.
    table_id = table(client, "okey", options={"partners": True, "indicator_colour_multiplier": "y2_b3_r4_k5"})
    post(client, table_id, {"type": "indicator", "tile": "K4"})
    sheet = post(client, table_id, win(1, WRONG))["sheet"]
    assert sheet["totals"] == [20, 16] and sheet["current"]["entries"] == [0, -4]
    assert sheet["hands"] == []


def test_O6_partners_gosterme_by_the_winners_partner_and_okey_discard_with_multiplier(client):
    # Partners: seat 0 wins by discarding the okey R5 (4) with a red indicator under y2_b3_r4_k5 (×4) = 16 for
    # the other team; seat 2 (same team) showed the twin: the other team loses 1 more (never multiplied) = 17.
    table_id = table(client, "okey", options={"partners": True, "indicator_colour_multiplier": "y2_b3_r4_k5"})
    post(client, table_id, {"type": "indicator", "tile": "R4"})
    post(client, table_id, {"type": "gosterme", "player": 2})
    sheet = post(client, table_id, win(0, discard="R5"))["sheet"]
    assert sheet["hands"][0]["entries"] == [0, -17]
    assert sheet["totals"] == [20, 3] and sheet["teams"] == [[0, 2], [1, 3]]


def test_O6_partners_gosterme_by_the_other_team():
    # Seat 0 wins with melds: team 1 loses 2; seat 1 showed the twin: team 0 loses 1.  Teams 19 and 18.
    state = okey([{"type": "indicator", "tile": "R4"}, {"type": "gosterme", "player": 1}, win(0)],
                 options={"partners": True})
    assert state.hands[0].entries == (-1, -2) and state.totals == (19, 18)


def test_O6_stock_exhausted_gosterme_stands_and_is_not_multiplied(client):
    # Stock exhausted: nobody scores; the gösterme point stands (settled O6) and the indicator-colour multiplier
    # never applies to it (black ×5 ignored): the other three lose 1.
    table_id = table(client, "okey", options={"indicator_colour_multiplier": "y2_b3_r4_k5"})
    post(client, table_id, {"type": "indicator", "tile": "K4"})
    post(client, table_id, {"type": "gosterme", "player": 3})
    sheet = post(client, table_id, {"type": "okey_hand", "hand": {"winner": None}})["sheet"]
    assert sheet["hands"][0]["entries"] == [-1, -1, -1, 0]


def test_O6_start_points_match_ends_at_0_the_two_highest_win():
    # start_points 6.  Hand 1 seat 0 wins plain: (6, 4, 4, 4).  Hand 2 seat 1 wins by discarding an okey, the
    # others lose 4: (2, 4, 0, 0): someone is at 0, the match is over.  Two highest: seat 1 (4) and seat 0 (2);
    # two lowest: seats 2 and 3 (0 each).  A further hand is refused.
    state = okey([win(0, indicator="R4"), win(1, discard="R5", indicator="R4")], options={"start_points": 6})
    assert state.totals == (2, 4, 0, 0) and state.finished
    assert state.winners == (1, 0) and state.standings.losers == (2, 3)
    with pytest.raises(InvalidEventError, match="already finished"):
        replay(new_meta("T", game="okey", players=PLAYERS, options={"start_points": 6}),
               [win(0, indicator="R4"), win(1, discard="R5", indicator="R4"), win(2, indicator="R4")])


def test_O6_elimination_two_leave_the_winner_is_the_last_above_0():
    # elimination, start 5.  Hand 1 seat 0 wins plain: (5, 3, 3, 3).  Hand 2 seat 1 wins with an okey discard:
    # others lose 4: (1, 3, -1, -1): seats 2 and 3 leave.  Hand 3 seat 0 wins: only seat 1 (still in) loses 2:
    # (1, 1, -1, -1).  Hand 4 seat 1 wins: seat 0 loses 2 → -1 and leaves; seat 1 is the last above 0 and wins.
    events = [win(0, indicator="R4"), win(1, discard="R5", indicator="R4"), win(0, indicator="R4"),
              win(1, indicator="R4")]
    state = okey(events, options={"elimination": True, "start_points": 5})
    assert [row.entries for row in state.hands][1:] == [(-4, 0, -4, -4), (0, -2, 0, 0), (-2, 0, 0, 0)]
    assert state.totals == (-1, 1, -1, -1) and state.finished
    assert state.winners == (1,) and set(state.standings.losers) == {0, 2, 3}
    with pytest.raises(InvalidHandRecordError, match="left the match"):
        okey([*events[:3], win(3, indicator="R4")], options={"elimination": True, "start_points": 5})


def test_O6_elimination_with_partners_the_first_team_at_0_loses():
    # elimination with partners: one team is left above 0 as soon as the other reaches 0 (settled O6, "or team").
    # Start 4: seat 1 wins with seven pairs: team 0 loses 4 → 0: over, team 1 (seats 1, 3) wins.
    state = okey([win(1, "R1 R1 B2 B2 Y3 Y3 K4 K4 R7 R7 B9 B9 Y11 Y11", indicator="R4")],
                 options={"elimination": True, "partners": True, "start_points": 4})
    assert state.totals == (0, 4) and state.finished and state.winners == (1, 3)


def test_O6_amending_the_last_hand_reopens_a_finished_match():
    # start 4: an okey discard (4) puts three players at 0: over.  Corrected to a plain win (2): (4, 2, 2, 2), the
    # match goes on, and the next hand is recorded normally.
    first = win(0, discard="R5", indicator="R4")
    assert okey([first], options={"start_points": 4}).finished
    amend = {"type": "amend", "hand": 1, "record": {"winner": 0, "tiles": MELDS, "discard": "Y8"}}
    state = okey([first, amend, win(1, indicator="R4")], options={"start_points": 4})
    assert [row.entries for row in state.hands] == [(0, -2, -2, -2), (-2, 0, -2, -2)]
    assert state.hands[0].amended and state.totals == (2, 2, 0, 0) and state.finished


def test_O6_an_amendment_that_would_end_the_match_before_later_hands_is_refused():
    # Correcting hand 1 to an okey discard would put three players at 0 after hand 1, but hand 2 was played after
    # it: the correction does not fit the later hands and is refused (docs/api.md amend).
    events = [win(0, indicator="R4"), win(1, indicator="R4"),
              {"type": "amend", "hand": 1, "record": {"winner": 0, "tiles": MELDS, "discard": "R5"}}]
    with pytest.raises(InvalidEventError, match="correction of hand 1"):
        okey(events, options={"start_points": 4})


def test_O6_kahvehane_profile_through_the_batch_score():
    # Batch/CLI score, profile kahvehane (pairs_and_okey_discard 8, colour_hand any) + y2_b3_r4_k5: red seven pairs
    # finished with the okey K5 (indicator K4): 8 × 2 (colour) × 5 (black) = 80; seat 2's gösterme costs the others 1.
    reply = answer({"op": "score", "game": "okey", "profile": "kahvehane",
                    "options": {"indicator_colour_multiplier": "y2_b3_r4_k5"},
                    "hand": {"players": 4, "indicator": "K4", "winner": 0, "tiles": RED_PAIRS, "discard": "K5",
                             "gosterme": [2]}})
    assert reply["deltas"] == [-1, -81, -80, -81]


# -- H6/H7/H8: Okey 101 hands ------------------------------------------------------------------------------


def test_H6_okey_discard_finish_by_a_pairs_opener_is_x4(client):
    # Settled H6: doublings multiply.  Seat 0 opened with pairs and finishes with an okey: -101 ×2 ×2 = -404.
    # Seat 1 (melds) K7 B3 = 10 ×4 = 40; seat 2 never opened 202 ×4 = 808; seat 3 opened with pairs and keeps
    # Y3 + the okey R5 = 3 + 101 = 104, ×2 okey ×2 finisher's pairs ×2 own pairs = 832.
    table_id = table(client, "okey101")
    post(client, table_id, {"type": "indicator", "tile": "R4"})
    sheet = post(client, table_id, hand101(0, [rack("pairs", ""), rack("melds", "K7 B3"), rack(None, "K2"),
                                              rack("pairs", "Y3 R5")], finish="okey_discard"))["sheet"]
    assert sheet["hands"][0]["entries"] == [-404, 40, 808, 832]


def test_H6_flat_101_okey_is_never_doubled_and_an_unopened_player_pays_202_only():
    # okey_in_hand flat_101: seat 3 (pairs) keeps Y3 R5: 3 × 8 = 24, + 101 flat = 125.  Seat 2 never opened and
    # holds the okey: 202 × 4 = 808, no 101 on top (settled H6).
    state = okey101([hand101(0, [rack("pairs", ""), rack("melds", "K7 B3"), rack(None, "K2 B6"),
                                 rack("pairs", "Y3 R5")], finish="okey_discard")],
                    options={"okey_in_hand": "flat_101"})
    assert state.hands[0].entries == (-404, 40, 808, 125)


def test_H8_partners_finisher_clears_the_partners_hand_but_H7_penalties_stand(client):
    # Partners, seat 0 finishes (-101) with a take_back penalty (+101): 0.  Seat 2 (partner) kept K13 K12 = 25,
    # cleared by partner_finish_clears, but the işlek +101 fined during the hand stands (settled H6): 101.
    # Team 0 = 0 + 101 = 101; team 1 = seat 1 K7 B3 (10) + seat 3 never opened (202) = 212.
    table_id = table(client, "okey101", options={"partners": True})
    post(client, table_id, {"type": "indicator", "tile": "R4"})
    pending = post(client, table_id, {"type": "penalty", "player": 2, "reason": "islek"})["sheet"]
    assert pending["current"]["entries"] == [101, 0] and pending["totals"] == [101, 0]
    sheet = post(client, table_id, hand101(0, [rack("melds", ""), rack("melds", "K7 B3"), rack("melds", "K13 K12"),
                                              rack(None, "K2")],
                                           penalties=[{"player": 0, "reason": "take_back"}]))["sheet"]
    assert sheet["hands"][0]["entries"] == [101, 212] and sheet["totals"] == [101, 212]
    assert sheet["hands"][0]["result"]["scores"] == [0, 10, 101, 202]
    assert sorted((p["player"], p["reason"]) for p in sheet["penalties"]) == [(0, "take_back"), (2, "islek")]


def test_H8_partners_pairs_finisher_with_the_partners_failed_opening():
    # Partners, seat 0 opened with pairs and finishes: -202 (pairs_finish_doubles_finisher).  Seat 1 10 × 2 = 20,
    # seat 3 never opened 202 × 2 = 404; seat 2 (pairs, K13 K12) cleared to 0, + failed_opening 101.
    state = okey101([{"type": "penalty", "player": 2, "reason": "failed_opening"},
                     hand101(0, [rack("pairs", ""), rack("melds", "K7 B3"), rack("pairs", "K13 K12"),
                                 rack(None, "K2")])], options={"partners": True})
    assert state.hands[0].result["scores"] == [-202, 20, 101, 404]
    assert state.hands[0].entries == (-101, 424)


@pytest.mark.parametrize(("okey_in_hand", "seat2"), [("counts_101", 202), ("flat_101", 101)])
def test_H6_stock_exhausted_pairs_opener_pays_double(okey_in_hand, seat2):
    # No finisher, no -101.  Seat 0 (pairs) K7: 7 × 2 = 14; seat 1 (melds) 10; seat 2 (pairs) holds only the okey:
    # counts_101 → 101 × 2 = 202, flat_101 → 0 × 2 + 101 = 101; seat 3 never opened 202.
    state = okey101([hand101(None, [rack("pairs", "K7"), rack("melds", "K7 B3"), rack("pairs", "R5"),
                                    rack(None, "K2")])], options={"okey_in_hand": okey_in_hand})
    assert state.hands[0].entries == (14, 10, seat2, 202)


def test_H6_multipliers_off_ignores_elden_and_okey_discard():
    # multipliers off: elden + okey discard would be ×4; ignored: -101 and 202 each (the okey in seat 3's rack
    # is irrelevant, seat 3 never opened).
    state = okey101([hand101(0, [rack("melds", ""), rack(None, "K1"), rack(None, "K2"), rack(None, "R5")],
                             finish="okey_discard", elden=True)], options={"multipliers": False})
    assert state.hands[0].entries == (-101, 202, 202, 202)


def test_H6_elden_with_an_okey_discard_is_x4():
    # Elden doubles everything and an okey discard doubles again: finisher -404, nobody else opened: 808 each.
    state = okey101([hand101(0, [rack("melds", ""), rack(None, "K1"), rack(None, "K2"), rack(None, "R5")],
                             finish="okey_discard", elden=True)])
    assert state.hands[0].entries == (-404, 808, 808, 808)


def test_H6_pairs_finish_doubles_finisher_off_with_an_okey_discard():
    # Option off: the pairs finisher's own -101 is doubled by the okey discard only: -202.  Seat 1 (pairs) K1:
    # 1 ×2 ×2 ×2 = 8; seat 2 never opened 202 ×4 = 808; seat 3 (melds) holds the okey: 101 ×4 = 404.
    state = okey101([hand101(0, [rack("pairs", ""), rack("pairs", "K1"), rack(None, "K2"), rack("melds", "R5")],
                             finish="okey_discard")], options={"pairs_finish_doubles_finisher": False})
    assert state.hands[0].entries == (-202, 8, 808, 404)


def test_H6_typed_sums_with_okeys_and_flat_101():
    # Typed sums exclude okeys, 'okeys' counts them (settled H6).  flat_101: seat 1 (pairs) 12 × 2 + 101 = 125;
    # seat 2 never opened: 202 whatever it holds; seat 3 (melds) sum 0 with one okey: 0 + 101 = 101.
    state = okey101([hand101(0, [rack("melds", ""), typed("pairs", 12, 1), typed(None, 40, 0),
                                 typed("melds", 0, 1)])], options={"okey_in_hand": "flat_101"})
    assert state.hands[0].entries == (-101, 125, 202, 101)


def test_H6_elden_while_someone_else_opened_is_a_422_naming_why(client):
    # Settled H6: a record that says elden while someone else opened is refused; nothing is recorded.
    table_id = table(client, "okey101")
    post(client, table_id, {"type": "indicator", "tile": "R4"})
    reply = post(client, table_id, hand101(0, [rack("melds", ""), rack("melds", "K1"), rack(None, "K2"),
                                               rack(None, "K3")], elden=True), status=422)
    assert "elden" in reply["error"] and "[1]" in reply["error"]
    assert client.get(f"/api/tables/{table_id}/sheet").json["hands"] == []


def test_H8_three_hands_a_void_hand_is_not_counted_and_a_fourth_is_refused(client):
    # hands=3.  Hand 1: -101, 10, 202, 5 × 2 = 10.  A void hand (H4) is replayed: not counted, its penalty gone.
    # Hand 2 as hand 1; seat 1 finishes hand 3 (-101) with an işlek +101: 0, seat 0 keeps 10.  Totals -192, 20,
    # 606, 30; the lowest (seat 0) wins; a fourth hand is refused.
    table_id = table(client, "okey101", options={"hands": 3})
    first = hand101(0, [typed("melds", 0), typed("melds", 10), typed(None, 0), typed("pairs", 5)])
    post(client, table_id, first)
    post(client, table_id, {"type": "penalty", "player": 3, "reason": "islek"})
    after_void = post(client, table_id, {"type": "void_hand"})["sheet"]
    assert after_void["totals"] == [-101, 10, 202, 10] and after_void["current"] is None
    post(client, table_id, first)
    post(client, table_id, {"type": "penalty", "player": 1, "reason": "islek"})
    sheet = post(client, table_id, hand101(1, [typed("melds", 10), typed("melds", 0), typed(None, 0),
                                              typed("pairs", 5)]))["sheet"]
    assert [row["entries"] for row in sheet["hands"]] == [[-101, 10, 202, 10], [-101, 10, 202, 10], [10, 0, 202, 10]]
    assert sheet["totals"] == [-192, 20, 606, 30] and sheet["finished"] and sheet["winners"] == [0]
    reply = post(client, table_id, first, status=422)
    assert "finished" in reply["error"]


def test_H8_a_tie_for_the_lowest_total_shares_the_win():
    # Seats 0 and 1 both end at -91 after 3 hands: both are winners (lowest total wins).
    hands = [hand101(0, [typed("melds", 0), typed("melds", 10), typed(None, 0), typed("pairs", 5)]),
             hand101(1, [typed("melds", 10), typed("melds", 0), typed(None, 0), typed("pairs", 5)]),
             hand101(2, [typed("melds", 0), typed("melds", 0), typed("melds", 0), typed(None, 0)])]
    state = okey101(hands, options={"hands": 3})
    assert state.totals == (-91, -91, 303, 222) and state.finished and state.winners == (0, 1)


def test_H8_partners_the_lowest_team_wins_with_both_seats():
    # hands=3, partners: seat 0 finishes each hand, seat 2 (partner) cleared: team 0 -101 a hand, team 1
    # 10 + 10 = 20 a hand.  After 3: (-303, 60); winners seats 0 and 2.
    hands = [hand101(0, [typed("melds", 0), typed("melds", 10), typed(None, 0), typed("pairs", 5)])] * 3
    state = okey101(hands, options={"hands": 3, "partners": True})
    assert state.totals == (-303, 60) and state.winners == (0, 2)


def test_H8_amend_a_101_hand_recomputes_the_totals_and_undo_takes_it_back(client):
    # Hand 1 corrected: seat 1 finished instead of seat 0.  Rows become (10, -101, 202, 10) and (-101, 10, 202, 10):
    # totals -91, -91, 404, 20.  Undo restores the original rows.
    table_id = table(client, "okey101", options={"hands": 3})
    first = hand101(0, [typed("melds", 0), typed("melds", 10), typed(None, 0), typed("pairs", 5)])
    post(client, table_id, first)
    post(client, table_id, first)
    corrected = {"finisher": 1, "players": [typed("melds", 10), typed("melds", 0), typed(None, 0), typed("pairs", 5)]}
    sheet = post(client, table_id, {"type": "amend", "hand": 1, "record": corrected})["sheet"]
    assert sheet["totals"] == [-91, -91, 404, 20] and sheet["hands"][0]["amended"]
    undone = client.post(f"/api/tables/{table_id}/undo", headers=PIN)
    assert undone.status_code == 200 and undone.json["sheet"]["totals"] == [-202, 20, 404, 20]


def test_H7_undoing_a_hand_puts_its_penalties_back_in_the_hand_being_played(client):
    # A penalty is an event of its own: undoing the hand leaves it pending, in the totals at once (+101).
    table_id = table(client, "okey101")
    post(client, table_id, {"type": "penalty", "player": 2, "reason": "discarded_okey"})
    post(client, table_id, hand101(0, [typed("melds", 0), typed("melds", 10), typed(None, 0), typed("pairs", 5)]))
    sheet = client.post(f"/api/tables/{table_id}/undo", headers=PIN).json["sheet"]
    assert sheet["hands"] == [] and sheet["totals"] == [0, 0, 101, 0]
    assert sheet["current"]["entries"] == [0, 0, 101, 0]


def test_H8_exports_of_a_partners_101_sheet(client):
    # CSV columns are the teams; the row is the team entries (101, 212) of the partners hand above, the totals row
    # the same, then the H7 ledger names the player and the reason; the JSON export carries the same sheet.
    table_id = table(client, "okey101", options={"partners": True})
    post(client, table_id, {"type": "indicator", "tile": "R4"})
    post(client, table_id, {"type": "penalty", "player": 2, "reason": "islek"})
    post(client, table_id, hand101(0, [rack("melds", ""), rack("melds", "K7 B3"), rack("melds", "K13 K12"),
                                       rack(None, "K2")], penalties=[{"player": 0, "reason": "take_back"}]))
    text = client.get(f"/api/tables/{table_id}/export.csv?lang=en").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["Hand", "Dealer", "Ali & Deniz", "Can & Ece"]
    assert rows[1][0] == "1" and rows[1][2:4] == ["101", "212"]
    assert rows[2][:4] == ["Total", "", "101", "212"]
    ledger = [row for row in rows[4:] if row]
    assert {(row[1], row[3]) for row in ledger[1:]} == {("Deniz", "101"), ("Ali", "101")}
    exported = client.get(f"/api/tables/{table_id}/export.json").json
    assert exported["sheet"]["totals"] == [101, 212] and exported["sheet"]["teams"] == [[0, 2], [1, 3]]


def test_H4_opening_ratchet_beat_means_more_than_and_still_101():
    # Settled H4: after an opening of 105 the next needs 106; a ratchet below 101 still needs 101.
    # R11 R12 R13 | K11 K12 K13 | B13 Y13 R13 (indicator B6) is 36 + 36 + 39 = 111.
    tiles = "R11 R12 R13 | K11 K12 K13 | B13 Y13 R13"
    options = {"opening_ratchet": True}
    equal = answer({"op": "meld", "game": "okey101", "indicator": "B6", "tiles": tiles, "options": options,
                    "highest_so_far": 111})
    lower = answer({"op": "meld", "game": "okey101", "indicator": "B6", "tiles": tiles, "options": options,
                    "highest_so_far": 110})
    assert (equal["total"], equal["opens"], lower["opens"]) == (111, False, True)
    short = answer({"op": "meld", "game": "okey101", "indicator": "B6", "tiles": "R11 R12 R13 | K11 K12 K13",
                    "options": options, "highest_so_far": 50})
    assert (short["total"], short["opens"]) == (72, False)


# -- O7: the points-counting variant ---------------------------------------------------------------------


def test_O7_points_variant_three_hands_lowest_total_wins(client):
    # hands=3.  Hand 1: finisher 0; R3 K7 = 10, B1 B2 = 3, Y3 Y9 = 12.  Hand 2: stock out; "R5 F" with indicator R4
    # = 5 (the okey counts its face) + 5 (F plays as R5) = 10; typed 12.  Hand 3 as hand 1.  Totals 10, 30, 18, 36:
    # seat 0 wins; a fourth hand is refused.
    table_id = table(client, "okey_points", options={"hands": 3})
    first = {"type": "okey_points_hand", "hand": {"indicator": "R4", "finisher": 0,
                                                  "racks": ["", "R3 K7", "B1 B2", "Y3 Y9"]}}
    post(client, table_id, first)
    post(client, table_id, {"type": "okey_points_hand", "hand": {"indicator": "R4", "finisher": None,
                                                                 "racks": ["R5 F", "R3 K7", 12, "Y3 Y9"]}})
    sheet = post(client, table_id, first)["sheet"]
    assert [row["entries"] for row in sheet["hands"]] == [[0, 10, 3, 12], [10, 10, 12, 12], [0, 10, 3, 12]]
    assert sheet["totals"] == [10, 30, 18, 36] and sheet["finished"] and sheet["winners"] == [0]
    post(client, table_id, first, status=422)
