"""Melds (O3, O4, H1, H4): wilds, laid-out meld verdicts, order-free melds, laid openings."""

from __future__ import annotations

import pytest

from companion.rules.errors import ImpossibleHandError, InvalidTileError, RulesError
from companion.rules.melds import Meld, Wilds, check_laid_meld, check_laid_opening, find_meld
from companion.rules.options import Okey101Options
from companion.rules.tiles import FALSE_OKEY, JOKER, parse_tile, parse_tiles

# Seed 000's worked example: the indicator is red 4, so red 5 is the okey.
SEED_INDICATOR = "R4"


def test_O3_indicator_R4_makes_R5_the_okey_and_F_plays_R5() -> None:
    wilds = Wilds.from_indicator(SEED_INDICATOR)
    assert wilds.okey == parse_tile("R5")
    assert wilds.is_wild(parse_tile("R5")) and wilds.is_wild(JOKER)
    assert not wilds.is_wild(FALSE_OKEY)
    assert wilds.face(FALSE_OKEY) == parse_tile("R5")
    assert wilds.face(parse_tile("K7")) == parse_tile("K7")


def test_O3_indicator_13_makes_the_1_the_okey() -> None:
    assert Wilds.from_indicator("K13").okey == parse_tile("K1")


def test_O3_false_okey_without_indicator_is_an_error() -> None:
    with pytest.raises(InvalidTileError, match="needs an indicator"):
        check_laid_meld("R4 F R6", indicator=None, wrap_13_1=False)


def test_O3_seed_false_okey_examples() -> None:
    # {red 4, false okey, red 6} is a run and {black 5, blue 5, yellow 5, false okey} a set.
    assert check_laid_meld("R4 F R6", indicator=SEED_INDICATOR, wrap_13_1=True).value == 15
    verdict = check_laid_meld("K5 B5 Y5 F", indicator=SEED_INDICATOR, wrap_13_1=True)
    assert verdict.valid and verdict.meld is not None and verdict.meld.kind == "set"
    assert verdict.value == 20


def test_O4_seed_joker_examples() -> None:
    # One okey completes a set of 8s; two okeys fill 7 and 8 in 6-?-?-9.
    assert check_laid_meld("K8 B8 R5", indicator=SEED_INDICATOR, wrap_13_1=True).value == 24
    verdict = check_laid_meld("Y6 R5 R5 Y9", indicator=SEED_INDICATOR, wrap_13_1=True)
    assert verdict.meld is not None
    assert [f.code for f in verdict.meld.faces] == ["Y6", "Y7", "Y8", "Y9"]


def test_O4_set_needs_distinct_colours() -> None:
    verdict = check_laid_meld("R7 B7 B7", indicator=SEED_INDICATOR, wrap_13_1=True)
    assert not verdict.valid
    assert verdict.reason == "illegal set: [R7, B7, B7] (a colour repeats; a set needs distinct colours, O4)"
    assert check_laid_meld("R7 B7 K7 Y7", indicator=SEED_INDICATOR, wrap_13_1=True).value == 28


def test_O4_12_13_1_is_valid_and_13_1_2_is_illegal() -> None:
    assert check_laid_meld("K12 K13 K1", indicator=SEED_INDICATOR, wrap_13_1=True).value == 26
    assert check_laid_meld("K1 K2 K3", indicator=SEED_INDICATOR, wrap_13_1=True).value == 6
    verdict = check_laid_meld("K13 K1 K2", indicator=SEED_INDICATOR, wrap_13_1=True)
    assert not verdict.valid and "13-1-2 never wraps, O4" in verdict.reason


def test_O4_13_1_2_is_illegal_message() -> None:
    verdict = check_laid_meld("R12 R13 R1 R2", indicator="K4", wrap_13_1=True)
    assert verdict.reason == "illegal run: [R12, R13, R1, R2] (13-1-2 never wraps, O4)"
    assert verdict.to_dict() == {"valid": False, "value": 0, "reason": verdict.reason, "tiles": [], "faces": []}


def test_H1_no_wrap_in_101() -> None:
    verdict = check_laid_meld("R12 R13 R1", indicator="K4", wrap_13_1=False)
    assert not verdict.valid and "wrap_13_1 is off, H1" in verdict.reason


def test_H4_wild_value_is_fixed_by_its_position() -> None:
    # <okey> R12 R13 is R11 R12 R13 = 36; R12 R13 <okey> is R12 R13 R1 with wrap, illegal without.
    front = check_laid_meld("R5 R12 R13", indicator=SEED_INDICATOR, wrap_13_1=False)
    assert front.value == 36 and front.meld is not None
    assert front.meld.faces[0] == parse_tile("R11")
    assert not check_laid_meld("R12 R13 R5", indicator=SEED_INDICATOR, wrap_13_1=False).valid
    assert check_laid_meld("R12 R13 R5", indicator=SEED_INDICATOR, wrap_13_1=True).value == 26


def test_H4_runs_may_be_laid_descending() -> None:
    verdict = check_laid_meld("Y12 Y11 R5", indicator=SEED_INDICATOR, wrap_13_1=False)
    assert verdict.value == 33  # the okey at the low end stands for Y10
    assert not check_laid_meld("Y10 R5 Y9", indicator=SEED_INDICATOR, wrap_13_1=False).valid


def test_H4_set_wilds_take_the_set_number() -> None:
    verdict = check_laid_meld("Y10 R5 K10", indicator=SEED_INDICATOR, wrap_13_1=False)
    assert verdict.value == 30 and verdict.meld is not None
    assert {f.number for f in verdict.meld.faces} == {10}


def test_H4_verdict_to_dict() -> None:
    verdict = check_laid_meld("R5 Y11 Y12", indicator=SEED_INDICATOR, wrap_13_1=False)
    assert verdict.to_dict() == {
        "valid": True,
        "value": 33,
        "reason": "legal run worth 33",
        "tiles": ["R5", "Y11", "Y12"],
        "faces": ["Y10", "Y11", "Y12"],
    }


def test_O4_meld_repr_is_the_notation() -> None:
    meld = find_meld("R3 R1 R2", indicator=None, wrap_13_1=False)
    assert isinstance(meld, Meld)
    assert repr(meld) == "[R1, R2, R3]" and meld.value == 6 and meld.kind == "run"


def test_O4_find_meld_is_order_free_and_takes_the_best_reading() -> None:
    meld = find_meld("Y11 R5 Y12", indicator=SEED_INDICATOR, wrap_13_1=False)
    assert meld is not None and meld.value == 36  # the okey as Y13
    assert find_meld("Y1 Y12 Y13", indicator=None, wrap_13_1=True) is not None
    assert find_meld("Y1 Y12 Y13", indicator=None, wrap_13_1=False) is None
    assert find_meld("K1 K1 K2 K3 K4", indicator=None, wrap_13_1=True) is None
    assert find_meld("Y1 J J", indicator=None, wrap_13_1=True) is not None
    assert find_meld("R5 R6", indicator=None, wrap_13_1=True) is None


def test_O5_pairs_as_laid() -> None:
    assert check_laid_meld("B1 B1", indicator="R2", wrap_13_1=False).valid
    assert check_laid_meld("F R3", indicator="R2", wrap_13_1=False).valid
    assert not check_laid_meld("B1 B2", indicator="R2", wrap_13_1=False).valid


def test_H4_laid_opening_of_111_opens() -> None:
    check = check_laid_opening("R11 R12 R13 | K11 K12 K13 | B13 Y13 R13", indicator="B6")
    assert check.opens and check.total == 111
    assert check.to_dict()["verdicts"][0]["faces"] == ["R11", "R12", "R13"]


def test_H4_laid_opening_below_101_or_with_an_illegal_meld_fails() -> None:
    assert not check_laid_opening("R5 R6 R7 | K8 B8 Y8", indicator="B6").opens
    check = check_laid_opening("R12 R13 R1 | K11 K12 K13 | B11 B12 B13", indicator="B6")
    assert not check.opens and "illegal run: [R12, R13, R1]" in check.reason


def test_H4_laid_opening_with_pairs() -> None:
    five = "R3 R3 | K5 K5 | B8 B8 | Y11 Y11 | R13 R13"
    assert check_laid_opening(five, indicator="B6").opens
    assert not check_laid_opening(five.replace("R13 R13", "R13 R12"), indicator="B6").opens
    assert not check_laid_opening(["R3 R3", "K5 K5"], indicator="B6", options=Okey101Options()).opens
    assert check_laid_opening(["R3 R3", "K5 K5"], indicator="B6", options=Okey101Options(opening_pairs=2)).opens


def test_H4_laid_opening_errors() -> None:
    with pytest.raises(ImpossibleHandError, match="no melds given"):
        check_laid_opening(" | ", indicator="B6")
    with pytest.raises(ImpossibleHandError, match="3 × R7"):
        check_laid_opening("R7 B7 K7 | R7 R8 R9 | R6 R7 R8", indicator="B6")


def test_errors_quote_bad_tile_codes() -> None:
    with pytest.raises(InvalidTileError, match="'R14'"):
        check_laid_meld("R12 R13 R14", indicator="B6", wrap_13_1=False)
    with pytest.raises(RulesError):
        find_meld("Q1 R2 R3", indicator="B6", wrap_13_1=False)


def test_accepts_tiles_or_strings() -> None:
    tiles = parse_tiles("R1 R2 R3")
    assert check_laid_meld(tiles, indicator=parse_tile("B6"), wrap_13_1=False).value == 6
    assert check_laid_meld(["R1", "R2", "R3"], indicator="B6", wrap_13_1=False).value == 6
