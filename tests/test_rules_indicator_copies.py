"""O1/O3: the face-up indicator is one of the two copies of its tile, in every operation.

A rack (or a meld on the table) holding both copies of the indicator's tile cannot exist while the
indicator lies face up; every operation refuses it with an :class:`ImpossibleHandError` that names the
tile and the indicator.  Scoring already refused it; these cover the rest.
"""

from __future__ import annotations

import pytest

from companion.cli import answer
from companion.rules.errors import ImpossibleHandError
from companion.rules.melds import check_laid_meld, check_laid_opening, find_meld
from companion.rules.opening import best_opening, max_pairs, min_leftover_penalty
from companion.rules.win import check_hand, check_win, winning_discards

# Indicator R4 (the okey is R5).  This is a win with one R4; it carries both R4s.
FOURTEEN = "R2 R3 R4 R4 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 K5"
FIFTEEN = FOURTEEN + " Y1"
RACK = "R2 R3 R4 R4 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 K5 Y1 Y2 Y3 B11 B12 B13 K1"


def _refused(error: pytest.ExceptionInfo[ImpossibleHandError]) -> None:
    message = str(error.value)
    assert "R4" in message and "indicator" in message, message


@pytest.mark.parametrize("call", [
    lambda: check_win(FOURTEEN, indicator="R4"),
    lambda: check_hand(FOURTEEN, indicator="R4"),
    lambda: winning_discards(FIFTEEN, indicator="R4"),
    lambda: check_hand(FIFTEEN, indicator="R4"),
    lambda: best_opening(RACK, indicator="R4"),
    lambda: max_pairs(RACK, indicator="R4"),
    lambda: min_leftover_penalty(RACK, indicator="R4"),
    lambda: check_laid_meld("R4 R4", indicator="R4", wrap_13_1=False),
    lambda: check_laid_meld("R2 R3 R4 R4", indicator="R4", wrap_13_1=False),
    lambda: find_meld("R4 Y4 R4", indicator="R4", wrap_13_1=False),
    lambda: check_laid_opening("R2 R3 R4 | Y4 B4 R4", indicator="R4"),
], ids=["check_win", "check_hand_14", "winning_discards", "check_hand_15", "best_opening", "max_pairs",
        "min_leftover_penalty", "laid_pair", "laid_run", "find_meld", "laid_opening"])
def test_O3_indicator_is_one_of_the_two_copies(call):
    with pytest.raises(ImpossibleHandError) as error:
        call()
    _refused(error)


def test_O3_one_copy_beside_the_indicator_is_fine():
    assert check_laid_meld("R2 R3 R4", indicator="R4", wrap_13_1=False).valid
    assert check_win("R1 R2 R3 R4 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 K5", indicator="R4").winning


@pytest.mark.parametrize("op, request_fields", [
    ("check", {"game": "okey", "tiles": FOURTEEN}),
    ("check", {"game": "okey", "tiles": FIFTEEN}),
    ("opening", {"game": "okey101", "tiles": RACK}),
    ("meld", {"game": "okey101", "tiles": "R4 R4"}),
    ("meld", {"game": "okey101", "tiles": "R2 R3 R4 | R4 Y4 B4"}),
    ("score", {"game": "okey", "hand": {"players": 4, "indicator": "R4", "winner": 0, "tiles": FOURTEEN,
                                            "discard": "Y1"}}),
])
def test_O3_batch_refuses_both_copies_of_the_indicator(op, request_fields):
    reply = answer({"op": op, "indicator": "R4", **request_fields})
    assert "error" in reply and "R4" in reply["error"], reply
