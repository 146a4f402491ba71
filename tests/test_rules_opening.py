"""Okey 101 openings (H4) and the penalty left in hand (H6)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.rules.errors import ImpossibleHandError, InvalidTileError
from companion.rules.opening import best_opening, max_pairs, min_leftover_penalty
from companion.rules.options import Okey101Options
from companion.rules.tiles import parse_tiles


def test_H4_best_opening_takes_the_most_value() -> None:
    opening = best_opening("R11 R12 R13 K10 K11 K12 K13 B13 Y13 R1 K2 B3", indicator="B6")
    assert opening.value == 108 and opening.opens
    assert sorted(m.value for m in opening.melds) == [33, 36, 39]
    assert Counter(t.code for t in opening.leftover) == Counter(["R1", "K2", "B3"])


def test_H4_opening_of_101_opens() -> None:
    rack = "R10 R11 R12 R13 Y11 B11 K11 B5 B6 B7 B8 Y2 K3 K12 Y12 B12 R9 Y13 K13 B13 R4 R4"
    opening = best_opening(rack, indicator="K13")
    assert opening.value >= 101 and opening.opens
    assert opening.to_dict()["opens"] is True
    assert best_opening(rack, indicator="K13", options=Okey101Options(opening_minimum=500)).opens is False


def test_H4_okey_counts_as_the_tile_it_stands_for() -> None:
    assert best_opening("R5 K1 R7", indicator="K13").value == 18  # K1 is the okey: R6
    assert best_opening("R9 Y9 B9 K1", indicator="K13").value == 36


def test_H4_false_okey_counts_at_the_okey_face() -> None:
    assert best_opening("K3 K4 F", indicator="K4").value == 12  # okey K5; F plays K5


def test_H1_no_wrap_in_101_openings() -> None:
    assert best_opening("R12 R13 R1", indicator="K13").value == 0
    assert best_opening("R11 R12 R13 R1", indicator="K13", options=Okey101Options(wrap_13_1=True)).value == 37


def test_H4_uses_both_copies_and_keeps_long_runs() -> None:
    assert best_opening("R3 R4 R5 R3 R4 R5", indicator="K13").value == 24
    assert best_opening("R1 R2 R3 R4 R5 R6", indicator="K13").value == 21


def test_H4_two_okeys_and_two_false_okeys() -> None:
    opening = best_opening("B7 B7 F F R11 R12 Y12 K12", indicator="B6")
    # okeys B7 B7 wild; F F play B7: R11 R12 + okey R13 = 36, Y12 K12 + okey = 36 (or a 12 set)
    assert opening.value == 72
    laid = Counter(t for m in opening.melds for t in m.tiles) + Counter(opening.leftover)
    assert laid == Counter(parse_tiles("B7 B7 F F R11 R12 Y12 K12"))


def test_H4_pairs_route() -> None:
    opening = best_opening("R3 R3 K5 K5 B8 B8 Y11 Y11 R13 R13 K1 K2 Y4", indicator="B6")
    assert opening.pairs == 5 and opening.pairs_open
    assert opening.to_dict()["pairs_open"] is True
    assert max_pairs("R3 R3 K5 K5 B8 B8 Y11 Y11 K1 K2 Y4", indicator="B6") == 4


def test_H4_okey_completes_a_pair_and_two_okeys_pair() -> None:
    assert max_pairs("B7 R9 R3 R3 K5 K5 B8 B8 Y11 Y11", indicator="B6") == 5
    assert max_pairs("R3 R3 K1 K1", indicator="K13") == 2
    assert max_pairs("R3 R3 K1 K1", indicator="K13", okey_pair_of_okeys=False) == 1
    assert max_pairs("F F R2 R2", indicator="K13") == 2


def test_H4_opening_to_dict() -> None:
    data = best_opening("R5 K1 R7 Y2", indicator="K13").to_dict()
    assert data["value"] == 18 and data["melds"] == [["R5", "K1", "R7"]]
    assert data["leftover"] == ["Y2"] and data["pairs"] == 1 and data["pairs_open"] is False


def test_H6_min_leftover_penalty() -> None:
    assert min_leftover_penalty("K1 R1", indicator="K13") == 102  # an okey kept costs 101
    assert min_leftover_penalty("R11 R12 R13 K1 Y2", indicator="K13") == 2
    assert min_leftover_penalty("R11 R12 R13 K1 Y2", indicator="K13", okey_penalty=0) == 2


def test_errors() -> None:
    with pytest.raises(ImpossibleHandError, match="3 × R7"):
        best_opening("R7 R7 R7", indicator="K13")
    with pytest.raises(InvalidTileError, match="'R0'"):
        best_opening("R0 R1 R2", indicator="K13")
    with pytest.raises(InvalidTileError, match="needs an indicator"):
        best_opening("F R1 R2", indicator=None)
