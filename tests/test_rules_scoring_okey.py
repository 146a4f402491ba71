"""Okey hand scores: RULES.md O5 (declaring a win) and O6 (the 20-point count)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.rules import ImpossibleHandError, InvalidHandRecordError, InvalidOptionError, InvalidTileError
from companion.rules import Colour, options_for
from companion.rules.options import OkeyOptions
from companion.rules.scoring import score_okey_hand

MELDS = "R1 R2 R3 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"  # indicator Y7: okey Y8, none in hand
PAIRS = "R1 R1 K3 K3 B5 B5 Y7 Y7 R9 R9 K11 K11 B13 B13"  # indicator B6: okey B7, none in hand
ALL_RED = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R11 R12 R13"  # indicator K7
ALL_BLUE = "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B11 B12 B13"  # indicator K7
RED_PAIRS = "R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R9 R9"  # indicator K7
NOT_A_WIN = "R1 R2 R4 B5 Y6 K5 B9 B10 B12 B12 K10 K11 Y12 Y13"


def okey(overrides: dict[str, Any] | None = None) -> OkeyOptions:
    options = options_for("okey", overrides)
    assert isinstance(options, OkeyOptions)
    return options


def hand(**fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"players": 4, "indicator": "Y7", "winner": 0, "tiles": MELDS, "discard": "K1"}
    record.update(fields)
    return record


def test_O6_plain_win_costs_every_opponent_2() -> None:
    score = score_okey_hand(hand())
    assert score.deltas == (0, -2, -2, -2)
    assert score.valid and score.kind == "melds" and not score.okey_discard and score.multiplier == 1
    assert score.team_deltas is None and score.reason is None
    assert [line.key for line in score.explain] == ["okey.win"]
    assert score.explain[0].text == "Player 1 won with melds: every opponent loses 2."


def test_O6_winner_seat_does_not_pay() -> None:
    assert score_okey_hand(hand(winner=2)).deltas == (-2, -2, 0, -2)


def test_O6_okey_discard_costs_4() -> None:
    score = score_okey_hand(hand(discard="Y8"))
    assert score.deltas == (0, -4, -4, -4) and score.okey_discard
    assert score.explain[0].key == "okey.win_okey_discard"


def test_O5_okey_used_in_the_hand_then_discarded() -> None:
    # The hand uses one okey (Y8 for R4) and the winner discards the other one.
    score = score_okey_hand(hand(tiles=MELDS.replace("R4", "Y8"), discard="Y8"))
    assert score.valid and score.okey_discard and score.deltas == (0, -4, -4, -4)


def test_O6_false_okey_discard_is_not_an_okey_discard() -> None:
    score = score_okey_hand(hand(discard="F"))
    assert not score.okey_discard and score.deltas == (0, -2, -2, -2)


def test_O6_pairs_win_costs_4() -> None:
    score = score_okey_hand(hand(indicator="B6", tiles=PAIRS))
    assert score.kind == "pairs" and score.deltas == (0, -4, -4, -4)
    assert score.explain[0].key == "okey.win_pairs"


def test_O6_pairs_and_okey_discard_default_4() -> None:
    score = score_okey_hand(hand(indicator="B6", tiles=PAIRS, discard="B7"))
    assert score.kind == "pairs" and score.okey_discard and score.deltas == (0, -4, -4, -4)
    assert score.explain[0].key == "okey.win_pairs_okey_discard"


def test_O6_pairs_and_okey_discard_option_8() -> None:
    score = score_okey_hand(hand(indicator="B6", tiles=PAIRS, discard="B7"), okey({"pairs_and_okey_discard": 8}))
    assert score.deltas == (0, -8, -8, -8)


def test_O5_two_okeys_make_a_pair() -> None:
    tiles = PAIRS.replace("B13 B13", "B7 B7")
    assert score_okey_hand(hand(indicator="B6", tiles=tiles)).kind == "pairs"
    off = score_okey_hand(hand(indicator="B6", tiles=tiles), okey({"okey_pair_of_okeys": False}))
    assert not off.valid


def test_O6_point_values_are_options() -> None:
    options = okey({"win_points": 3, "okey_discard_points": 6, "pairs_points": 5, "gosterme_points": 2})
    assert score_okey_hand(hand(), options).deltas == (0, -3, -3, -3)
    assert score_okey_hand(hand(discard="Y8"), options).deltas == (0, -6, -6, -6)
    assert score_okey_hand(hand(indicator="B6", tiles=PAIRS), options).deltas == (0, -5, -5, -5)
    assert score_okey_hand(hand(winner=None, gosterme=[1]), options).deltas == (-2, 0, -2, -2)


def test_O6_gosterme_costs_every_opponent_1() -> None:
    score = score_okey_hand(hand(gosterme=[3]))
    assert score.deltas == (-1, -3, -3, -2)
    assert score.gosterme == (3,) and score.explain[-1].key == "okey.gosterme"
    assert "Player 4 showed the indicator's twin (gösterme): every opponent loses 1." in score.to_dict()["explain"]


def test_O6_stock_exhausted_nobody_scores_but_gosterme_counts() -> None:
    score = score_okey_hand({"players": 4, "indicator": "R4", "winner": None})
    assert score.deltas == (0, 0, 0, 0) and score.valid and score.kind is None
    assert score.explain[0].key == "okey.stock_exhausted"
    with_show = score_okey_hand({"players": 4, "indicator": "R4", "winner": None, "gosterme": [1]})
    assert with_show.deltas == (-1, 0, -1, -1)


def test_O6_three_and_two_players() -> None:
    assert score_okey_hand(hand(players=3, winner=1)).deltas == (-2, 0, -2)
    assert score_okey_hand(hand(players=2, winner=1, discard="Y8")).deltas == (-4, 0)


def test_O6_colour_hand_off_by_default() -> None:
    score = score_okey_hand(hand(indicator="K7", tiles=ALL_RED))
    assert score.deltas == (0, -2, -2, -2) and score.colour_hand is None


def test_O6_colour_hand_any_doubles() -> None:
    options = okey({"colour_hand": "any"})
    score = score_okey_hand(hand(indicator="K7", tiles=ALL_BLUE), options)
    assert score.colour_hand is Colour.BLUE and score.multiplier == 2 and score.deltas == (0, -4, -4, -4)
    doubled = score_okey_hand(hand(indicator="K7", tiles=ALL_BLUE, discard="K8"), options)
    assert doubled.deltas == (0, -8, -8, -8)
    assert doubled.explain[-1].text == "Every opponent loses 4 × 2 = 8."
    assert score_okey_hand(hand(), options).multiplier == 1


def test_O6_colour_hand_red_black_only() -> None:
    options = okey({"colour_hand": "red_black"})
    assert score_okey_hand(hand(indicator="K7", tiles=ALL_RED), options).deltas == (0, -4, -4, -4)
    assert score_okey_hand(hand(indicator="K7", tiles=ALL_BLUE), options).deltas == (0, -2, -2, -2)


def test_O6_colour_hand_of_pairs() -> None:
    score = score_okey_hand(hand(indicator="K7", tiles=RED_PAIRS), okey({"colour_hand": "any"}))
    assert score.kind == "pairs" and score.deltas == (0, -8, -8, -8)


@pytest.mark.parametrize(
    ("indicator", "tiles", "factor"),
    [("R7", MELDS, 2), ("K7", ALL_RED, 2), ("Y7", MELDS, 1), ("B6", PAIRS, 1)],
)
def test_O6_indicator_colour_multiplier_red_black_x2(indicator: str, tiles: str, factor: int) -> None:
    options = okey({"indicator_colour_multiplier": "red_black_x2"})
    score = score_okey_hand(hand(indicator=indicator, tiles=tiles), options)
    base = 4 if tiles == PAIRS else 2
    assert score.multiplier == factor and score.deltas[1] == -base * factor


@pytest.mark.parametrize(("indicator", "factor"), [("Y7", 2), ("B7", 3), ("R7", 4), ("K7", 5)])
def test_O6_indicator_colour_multiplier_y2_b3_r4_k5(indicator: str, factor: int) -> None:
    score = score_okey_hand(hand(indicator=indicator), okey({"indicator_colour_multiplier": "y2_b3_r4_k5"}))
    assert score.deltas == (0, -2 * factor, -2 * factor, -2 * factor)
    assert score.explain[1].key == "okey.indicator_colour" and score.explain[1].params["factor"] == factor


def test_O6_colour_hand_and_indicator_colour_multiply() -> None:
    options = okey({"colour_hand": "any", "indicator_colour_multiplier": "y2_b3_r4_k5"})
    score = score_okey_hand(hand(indicator="K7", tiles=ALL_RED, discard="K8"), options)
    assert score.multiplier == 10 and score.deltas == (0, -40, -40, -40)


def test_O6_gosterme_is_never_multiplied() -> None:
    options = okey({"indicator_colour_multiplier": "y2_b3_r4_k5"})
    assert score_okey_hand(hand(indicator="K7", winner=None, gosterme=[0]), options).deltas == (0, -1, -1, -1)


def test_O6_partners_the_other_team_loses() -> None:
    options = okey({"partners": True})
    score = score_okey_hand(hand(winner=1, discard="Y8"), options)
    assert score.team_deltas == (-4, 0)
    assert score.deltas == (-4, 0, -4, 0)  # each seat shows its team's change; the team loses 4 once
    assert "the other team (players 1 and 3) loses 4" in score.explain[0].text
    assert score.explain[-1].text == "Teams: players 1 and 3 -4, players 2 and 4 +0."
    shown = score_okey_hand(hand(winner=0, gosterme=[2]), options)
    assert shown.team_deltas == (0, -3)


def test_O5_wrong_declaration_costs_the_declarer() -> None:
    score = score_okey_hand(hand(winner=2, tiles=NOT_A_WIN))
    assert not score.valid and score.kind is None and score.deltas == (0, 0, -4, 0)
    assert score.reason == "the 14 tiles do not split into melds or seven pairs"
    assert score.explain[0].key == "okey.wrong_finish"
    assert score.to_dict()["valid"] is False


def test_O5_wrong_declaration_penalty_is_an_option() -> None:
    assert score_okey_hand(hand(tiles=NOT_A_WIN), okey({"wrong_finish_penalty": 6})).deltas == (-6, 0, 0, 0)
    off = score_okey_hand(hand(tiles=NOT_A_WIN), okey({"wrong_finish_penalty": 0}))
    assert off.deltas == (0, 0, 0, 0) and not off.valid and "penalty is off" in off.explain[0].text
    team = score_okey_hand(hand(winner=3, tiles=NOT_A_WIN), okey({"partners": True}))
    assert team.team_deltas == (0, -4)


def test_O5_wrong_declaration_still_counts_gosterme() -> None:
    assert score_okey_hand(hand(tiles=NOT_A_WIN, gosterme=[1])).deltas == (-5, 0, -1, -1)


def test_to_dict_is_plain_json() -> None:
    data = score_okey_hand(hand(indicator="K7", tiles=ALL_RED), okey({"colour_hand": "any"})).to_dict()
    assert data["deltas"] == [0, -4, -4, -4] and data["valid"] is True and data["kind"] == "melds"
    assert data["okey_discard"] is False and data["colour_hand"] == "R" and data["multiplier"] == 2
    assert data["explain"][0] == "Player 1 won with melds: every opponent loses 2."
    assert data["explain_detail"][0] == {
        "key": "okey.win",
        "params": {"seat": 0, "points": 2},
        "text": "Player 1 won with melds: every opponent loses 2.",
    }


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"indicator": None}, InvalidHandRecordError, "needs 'indicator'"),
        ({"indicator": "F"}, InvalidHandRecordError, "invalid indicator 'F'"),
        ({"indicator": "X4"}, InvalidTileError, "invalid tile 'X4'"),
        ({"winner": 4}, InvalidHandRecordError, "invalid winner 4: with 4 players the seats are 0-3"),
        ({"winner": True}, InvalidHandRecordError, "invalid winner True"),
        ({"winner": "1"}, InvalidHandRecordError, "invalid winner '1'"),
        ({"tiles": MELDS + " K1"}, InvalidHandRecordError, "exactly 14 tiles .* got 15"),
        ({"tiles": None}, InvalidHandRecordError, "invalid tiles None"),
        ({"tiles": MELDS.replace("R1", "R0")}, InvalidTileError, "invalid tile 'R0'"),
        ({"discard": None}, InvalidHandRecordError, "needs 'discard'"),
        ({"discard": "Y7", "tiles": MELDS.replace("R4", "Y7")}, ImpossibleHandError, "3 × Y7"),
        ({"discard": "J"}, InvalidHandRecordError, "okey has no J"),
        ({"gosterme": [1, 2]}, InvalidHandRecordError, "at most one seat"),
        ({"gosterme": [7]}, InvalidHandRecordError, "invalid gosterme seat 7"),
        ({"gosterme": 2}, InvalidHandRecordError, "invalid gosterme 2: give a list"),
        ({"players": 5}, InvalidHandRecordError, "invalid players 5"),
    ],
)
def test_bad_okey_hand_records(fields: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        score_okey_hand(hand(**fields))


def test_bad_record_and_options() -> None:
    with pytest.raises(InvalidHandRecordError, match="must be an object"):
        score_okey_hand([1, 2])  # type: ignore[arg-type]
    with pytest.raises(InvalidHandRecordError, match="partners need 4 players"):
        score_okey_hand(hand(players=3), okey({"partners": True}))
    with pytest.raises(InvalidOptionError, match="are not okey options"):
        score_okey_hand(hand(), options_for("okey101"))  # type: ignore[arg-type]


def test_O6_elimination_a_hand_takes_nothing_from_the_seats_that_left() -> None:
    assert score_okey_hand(hand(left=[2])).deltas == (0, -2, 0, -2)
    assert score_okey_hand(hand(left=[2, 3], gosterme=[1])).deltas == (-1, -2, 0, 0)
    assert score_okey_hand(hand(winner=None, left=[0], gosterme=[1])).deltas == (0, 0, -1, -1)
    assert score_okey_hand(hand(left=[])).deltas == score_okey_hand(hand()).deltas


@pytest.mark.parametrize(("left", "says"), [
    ([0], "Player 1 left the match (O6) and cannot win any more"),
    ("2", "invalid left '2': a list of the seats that left the match"),
    ([4], "invalid seat that left 4: with 4 players the seats are 0-3"),
    ([2, 2], "each seat leaves once"),
    ([1, 2, 3], "a hand needs two players still in the match"),
])
def test_O6_elimination_who_left_is_checked(left: Any, says: str) -> None:
    with pytest.raises(InvalidHandRecordError, match=re.escape(says)):
        score_okey_hand(hand(left=left))


def test_O6_elimination_a_gosterme_shown_before_its_player_left_still_counts() -> None:
    """A seat leaves mid-hand only by its own wrong declaration (O5): a gösterme it showed before counts, from the
    seats still in.  One that left before the hand is refused by the table, which knows when it left."""
    assert score_okey_hand(hand(winner=None, gosterme=[2], left=[2])).deltas == (-1, -1, 0, -1)
    assert score_okey_hand(hand(winner=None, gosterme=[2], left=[2, 3])).deltas == (-1, -1, 0, 0)


def test_O6_with_partners_nobody_leaves() -> None:
    with pytest.raises(InvalidHandRecordError, match="with partners nobody leaves"):
        score_okey_hand(hand(left=[1]), options_for("okey", {"partners": True}))
