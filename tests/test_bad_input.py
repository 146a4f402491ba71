"""Bad input (issue 11): every odd request gets a clear 4xx (or an error line) and changes nothing."""

from __future__ import annotations

from companion.cli import answer


def test_meld_with_several_melds_answers_top_level_valid_and_value():
    reply = answer({"op": "meld", "game": "okey101", "indicator": "R4", "tiles": "R10 R11 R12 | K13 Y13 B13"})
    assert (reply["valid"], reply["value"], reply["total"]) == (True, 72, 72)
    reply = answer({"op": "meld", "game": "okey101", "indicator": "R4", "tiles": "R10 R11 R12 | K13 Y1 B13"})
    assert reply["valid"] is False and reply["value"] == reply["total"] == 33
