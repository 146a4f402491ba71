"""Bugs an audit of the tile games found, each named after its rule: O6 elimination, R1 tile counts in
Rummikub, O1 (no J in okey), O1/O3 the indicator in 101 rack points, the H4 opening ratchet and the O3
indicator in the deal plan."""

from __future__ import annotations

import re
from html import unescape
from typing import Any, Callable

import pytest
from flask.testing import FlaskClient

from companion.cli import answer
from companion.rules import options_for
from companion.rules.deal import plan_deal, reroll_indicator
from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError, InvalidRequestError
from companion.rules.match import okey_standings
from companion.rules.melds import check_laid_meld, check_laid_opening, find_meld
from companion.rules.opening import best_opening, max_pairs, min_leftover_penalty
from companion.rules.options import Okey101Options, OkeyOptions
from companion.rules.photo import check_photo
from companion.rules.rummikub import check_initial_meld, check_meld, check_turn, rack_sum, retrieve_joker
from companion.rules.scoring import OkeyHandScore, rack_points, score_okey_hand
from companion.rules.win import check_hand, check_win, winning_discards
from companion.store import TableStore

MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"  # indicator Y2: okey Y3


def _okey(overrides: dict[str, Any]) -> OkeyOptions:
    options = options_for("okey", overrides)
    assert isinstance(options, OkeyOptions)
    return options


def _win(seat: int, options: OkeyOptions, discard: str = "K1") -> OkeyHandScore:
    return score_okey_hand({"players": 4, "indicator": "Y2", "winner": seat, "tiles": MELDS, "discard": discard},
                           options)


# -- O6: with elimination, the one left above 0 wins alone ----------------------------------------------


def test_O6_elimination_one_winner() -> None:
    options = _okey({"elimination": True})
    # four okey-discard wins by player 1: 20, 4, 4, 4; two wins by player 2: 16, 4, 0, 0 (players 3, 4 leave);
    # two more by player 1: player 2 reaches 0 and leaves, player 1 is the one left.
    hands = [_win(0, options, "Y3")] * 4 + [_win(1, options)] * 2 + [_win(0, options)] * 2
    standings = okey_standings(4, hands, options)
    assert standings.finished and standings.points == (16, 0, 0, 0)
    assert standings.eliminated == (2, 3, 1)
    assert standings.winners == (0,), "only the player left above 0 wins"
    assert standings.losers == (1, 3, 2), "everybody who left loses, the last to leave first"
    over = standings.explain[-1]
    assert over.params["rule"] == "last_left" and over.params["winners"] == [0]
    assert over.text == ("The match is over: only one player is left above 0 and wins (O6): player 1 (16); "
                         "players 2, 4 and 3 lose.")


def test_O6_elimination_three_players_one_winner() -> None:
    options = _okey({"elimination": True, "start_points": 4})
    win = score_okey_hand({"players": 3, "indicator": "Y2", "winner": 2, "tiles": MELDS, "discard": "Y3"}, options)
    standings = okey_standings(3, [win], options)
    assert standings.finished and standings.points == (0, 0, 4)
    assert standings.winners == (2,) and standings.losers == (1, 0)


def test_O6_elimination_with_partners_the_team_above_0_wins() -> None:
    options = _okey({"elimination": True, "partners": True, "start_points": 4})
    win = score_okey_hand({"players": 4, "indicator": "Y2", "winner": 1, "tiles": MELDS, "discard": "Y3"}, options)
    standings = okey_standings(4, [win], options)
    assert standings.finished and standings.team_points == (0, 4)
    assert standings.winners == (1, 3) and standings.losers == (0, 2)
    assert "the team still above 0 wins" in standings.explain[-1].text


# -- R1: two of each tile and two jokers ------------------------------------------------------------------


@pytest.mark.parametrize(("call", "words"), [
    (lambda: check_initial_meld("R10 R11 R12 | R10 R11 R12 | R10 R11 R12"), "impossible initial meld: 3 × R10"),
    (lambda: check_initial_meld("R10 R11 J | K10 K11 J | B10 B11 J"), "impossible initial meld: 3 × J"),
    (lambda: check_turn("", "R10 R11 R12 | R10 R11 R12 | R10 R11 R12", opened=True),
     "impossible table after the turn: 3 × R10"),
    (lambda: check_turn("R10 R11 R12 | R10 R11 R12 | R10 R11 R12", "R10 R11 R12 R13 | R10 R11 R12 | R10 R11 R12",
                        opened=True), "impossible table before the turn: 3 × R10"),
    (lambda: rack_sum("J J J"), "impossible rack: 3 × J"),
    (lambda: rack_sum("K5 K5 K5 R1"), "impossible rack: 3 × K5"),
    (lambda: check_meld("J J J"), "3 × J"),
], ids=["initial_copies", "initial_jokers", "turn_after", "turn_before", "rack_jokers", "rack_copies", "meld_jokers"])
def test_R1_rummikub_has_two_of_each_tile_and_two_jokers(call: Callable[[], object], words: str) -> None:
    with pytest.raises(ImpossibleHandError) as error:
        call()
    assert words in str(error.value) and "a Rummikub set has only 2 (R1)" in str(error.value)


def test_R1_two_copies_and_two_jokers_are_fine() -> None:
    assert check_initial_meld("R10 R11 R12 | R10 R11 R12 | K10 J J").opens
    assert check_turn("", "R10 R11 R12 | R10 R11 R12", opened=True).valid
    assert rack_sum("J J R5 R5") == 70
    assert retrieve_joker("R4 J R6", "R5").faces[1].code == "R5"


# -- O1: an okey set has no J ---------------------------------------------------------------------------------


OKEY_J = "R1 J J B5 Y5 K5 B9 B10 B11 Y8 Y8 K11 K12 K13"


@pytest.mark.parametrize("call", [
    lambda: check_win(OKEY_J, indicator="Y7"),
    lambda: check_win("R1 R2 J B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13", indicator="Y7"),
    lambda: check_hand(OKEY_J, indicator="Y7"),
    lambda: winning_discards(OKEY_J + " R5", indicator="Y7"),
    lambda: check_laid_opening("R11 R12 J | K11 K12 K13 | Y11 Y12 Y13", indicator="Y7"),
    lambda: best_opening("R11 R12 J K11 K12 K13 Y11 Y12 Y13", indicator="Y7"),
    lambda: max_pairs("R2 J", indicator="Y7"),
    lambda: min_leftover_penalty("R11 R12 J", indicator="Y7"),
    lambda: check_laid_meld("R11 R12 J", indicator="Y7", wrap_13_1=False),
    lambda: find_meld("R11 R12 J", indicator="Y7", wrap_13_1=False),
    lambda: rack_points("R5 J", indicator="Y7"),
], ids=["check_win", "check_win_one_J", "check_hand", "winning_discards", "laid_opening", "best_opening",
        "max_pairs", "min_leftover_penalty", "laid_meld", "find_meld", "rack_points"])
def test_O1_okey_has_no_J(call: Callable[[], object]) -> None:
    with pytest.raises(InvalidHandRecordError, match="J is the Rummikub joker, okey has no J"):
        call()


@pytest.mark.parametrize(("op", "game"), [("check", "okey"), ("opening", "okey101"), ("meld", "okey101")])
def test_O1_batch_refuses_J_in_okey(op: str, game: str) -> None:
    tiles = "R11 R12 J | K11 K12 K13 | Y11 Y12 Y13" if op == "meld" else OKEY_J
    reply = answer({"op": op, "game": game, "indicator": "Y7", "tiles": tiles})
    assert "okey has no J" in reply.get("error", ""), reply


def test_O1_rummikub_keeps_its_jokers_and_a_photo_with_J_is_no_okey_win() -> None:
    assert check_meld("R4 J R6").valid and check_initial_meld("J R12 R13").opens
    assert check_win("R1 R2 R3 J Y5 K5 R9 R10 R11 R12 K10 K11 K12 Y8", indicator=None).wilds == 1
    assert check_photo(OKEY_J.split(), [False] * 14, indicator="Y7").one_away == ()


# -- O1/O3: the indicator is one copy of its tile, in rack points too ----------------------------------------


@pytest.mark.parametrize(("rack", "indicator", "words"), [
    ("R4 R4", "R4", "2 × R4 and the face-up indicator R4"),
    ("R4 R4 R4", "K4", "3 × R4"),
    ("F F F", "K4", "3 × F"),
])
def test_O3_rack_points_counts_the_indicator_as_a_copy(rack: str, indicator: str, words: str) -> None:
    with pytest.raises(ImpossibleHandError, match=re.escape(words)):
        rack_points(rack, indicator=indicator)


def test_O3_rack_points_with_one_copy_beside_the_indicator() -> None:
    assert rack_points("R4 K4 K4 F F", indicator="R4") == 4 + 4 + 4 + 5 + 5


TOKEN = "test-token"


def test_O3_hand_form_shows_both_copies_of_the_indicator_as_a_form_error(client: FlaskClient,
                                                                          store: TableStore) -> None:
    table = store.create_table(game="okey101", players=["Ali", "Can", "Deniz", "Ece"], pin="1234")
    store.record(table, {"type": "indicator", "tile": "R4"})
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    hand = {"csrf_token": TOKEN, "finisher": "1", "finish": "normal", "opened0": "melds", "rack0": "R4 R4",
            "opened1": "melds", "opened2": "none", "sum2": "12", "opened3": "melds", "rack3": "Y3 Y9"}
    check = client.post(f"/t/{table}/hand/check", data=hand, headers={"HX-Request": "true"})
    assert check.status_code == 422
    words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", check.text)))
    assert "R4" in words and "indicator" in words
    assert client.post(f"/t/{table}/hand", data=hand).status_code == 422
    assert store.get(table).hands == ()


# -- H4: option opening_ratchet -------------------------------------------------------------------------------


OPENING = "R11 R12 R13 | K11 K12 K13 | B13 Y13 R13"  # 111
PAIRS = "R3 R3 | K5 K5 | B8 B8 | Y11 Y11 | R1 R1"
RATCHET = Okey101Options(opening_ratchet=True)


def test_H4_opening_ratchet_a_later_opener_must_beat_the_highest_so_far() -> None:
    assert check_laid_opening(OPENING, indicator="B6", options=RATCHET).opens, "the first opener: 101 is enough"
    above = check_laid_opening(OPENING, indicator="B6", options=RATCHET, highest_so_far=110)
    assert above.opens and "more than 110" in above.reason and "opening_ratchet" in above.reason
    equal = check_laid_opening(OPENING, indicator="B6", options=RATCHET, highest_so_far=111)
    assert not equal.opens
    assert equal.reason == ("does not open: melds worth 111, 112 needed "
                            "(more than 111, the highest opening so far: opening_ratchet, H4)")
    low = check_laid_opening("R11 R12 R13 | K11 K12 K13", indicator="B6", options=RATCHET, highest_so_far=50)
    assert not low.opens and "101 needed" in low.reason, "the ratchet never lowers the 101"


def test_H4_opening_ratchet_off_ignores_the_highest_so_far() -> None:
    check = check_laid_opening(OPENING, indicator="B6", options=Okey101Options(), highest_so_far=120)
    assert check.opens and check.reason == "opens: melds worth 111 (at least 101, H4)"


def test_H4_opening_ratchet_counts_pairs_against_pairs() -> None:
    assert check_laid_opening(PAIRS, indicator="B6", options=RATCHET, most_pairs_so_far=4).opens
    five = check_laid_opening(PAIRS, indicator="B6", options=RATCHET, most_pairs_so_far=5)
    assert not five.opens and "6 needed" in five.reason
    assert check_laid_opening(PAIRS, indicator="B6", options=RATCHET, highest_so_far=150).opens, \
        "a melds opening does not raise the bar for pairs"
    assert check_laid_opening(OPENING, indicator="B6", options=RATCHET, most_pairs_so_far=6).opens


def test_H4_opening_ratchet_in_the_best_opening_and_the_batch() -> None:
    rack = "R11 R12 R13 K11 K12 K13 B13 Y13 R13"
    assert best_opening(rack, indicator="B6", options=RATCHET, highest_so_far=110).opens
    assert not best_opening(rack, indicator="B6", options=RATCHET, highest_so_far=111).opens
    assert best_opening(rack, indicator="B6", highest_so_far=111).opens
    pairs = best_opening("R3 R3 K5 K5 B8 B8 Y11 Y11 R1 R1", indicator="B6", options=RATCHET, most_pairs_so_far=5)
    assert not pairs.pairs_open
    reply = answer({"op": "meld", "game": "okey101", "indicator": "B6", "tiles": OPENING,
                    "options": {"opening_ratchet": True}, "highest_so_far": 111})
    assert reply["opens"] is False and "opening_ratchet" in reply["reason"]
    reply = answer({"op": "opening", "game": "okey101", "indicator": "B6", "tiles": rack,
                    "options": {"opening_ratchet": True}, "highest_so_far": 111})
    assert reply["opens"] is False


@pytest.mark.parametrize("value", [-1, "105", True, 10.5])
def test_H4_opening_ratchet_refuses_a_bad_highest_so_far(value: object) -> None:
    with pytest.raises(InvalidRequestError, match="highest_so_far"):
        check_laid_opening(OPENING, indicator="B6", options=RATCHET, highest_so_far=value)  # type: ignore[arg-type]


# -- O3: the indicator in the deal plan (indicator_drawable_last) ----------------------------------------------


@pytest.mark.parametrize(("game", "stock"), [("okey", 48), ("okey101", 20)])
def test_O3_the_deal_plan_says_the_indicator_is_never_drawn(game: str, stock: int) -> None:
    plan = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2, game=game)
    assert not plan.indicator_drawn_last and plan.stock == stock
    step = plan.explain()[3]  # right after the indicator is turned up
    assert step == ("The indicator itself is never drawn: when only the indicator's stack is left, its 5 other "
                    f"tiles are drawn in turn; after the deal {stock} tiles are left to draw (O3).")
    data = plan.to_dict()
    assert data["stock"] == stock and data["explain_detail"][3]["key"] == "deal.indicator_never_drawn"
    assert data["explain_detail"][3]["params"]["stock"] == stock


@pytest.mark.parametrize(("game", "stock"), [("okey", 49), ("okey101", 21)])
def test_O3_indicator_drawable_last_in_the_deal_plan(game: str, stock: int) -> None:
    options = options_for(game, {"indicator_drawable_last": True})
    plan = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2, game=game, options=options)
    assert plan.indicator_drawn_last and plan.stock == stock
    step = plan.explain()[3]
    assert step == ("The indicator is the last tile drawn (option indicator_drawable_last): when only the "
                    "indicator's stack is left, its 5 other tiles are drawn in turn, then the indicator; after the "
                    f"deal {stock} tiles are left to draw (O3).")
    assert not any("never drawn" in line for line in plan.explain())
    again = reroll_indicator(plan, 4)
    assert again.indicator_drawn_last and again.stock == stock and again.indicator_from_bottom == 4


def test_O3_quick_deal_says_what_happens_to_the_indicator() -> None:
    plan = plan_deal(players=4, dealer=0, options=options_for("okey", {"quick_deal": True}))
    assert plan.stock == 48 and "never drawn" in plan.explain()[-1]
    plan = plan_deal(players=4, dealer=0, options=options_for("okey", {"quick_deal": True,
                                                                       "indicator_drawable_last": True}))
    assert plan.stock == 49 and "last tile drawn" in plan.explain()[-1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_H2_quick_deal_the_stacks_are_optional_in_101(players: int) -> None:
    plan = plan_deal(players=players, dealer=0, game="okey101", options=options_for("okey101", {"quick_deal": True}))
    assert plan.quick and plan.rolls is None and plan.stacks == ()
    assert sorted(plan.tiles_per_seat) == [21] * (players - 1) + [22]
    assert plan.stock == 106 - 21 * players - 1 - 1
    assert "everybody takes 21 tiles" in plan.explain()[0]
    with pytest.raises(Exception, match="both dice"):
        plan_deal(players=players, dealer=0, game="okey101")
