"""Okey win checks (O5): melds or seven pairs from 14 tiles, winning discards from 15."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.rules.errors import ImpossibleHandError, InvalidTileError
from companion.rules.options import OkeyOptions
from companion.rules.tiles import Colour, parse_tiles
from companion.rules.win import DiscardCheck, WinCheck, check_hand, check_win, winning_discards

SETS_AND_RUNS = "R9 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 R3 K11 K12 K13"


def _all_tiles_used(hand: str, win: WinCheck) -> bool:
    return Counter(t for m in win.melds for t in m.tiles) == Counter(parse_tiles(hand))


def test_O5_sets_and_runs_win() -> None:
    win = check_win(SETS_AND_RUNS, indicator="B6")
    assert win.winning and win.kind == "melds" and _all_tiles_used(SETS_AND_RUNS, win)
    assert all(m.kind in ("set", "run") for m in win.melds)


def test_O5_junk_tiles_do_not_win() -> None:
    hand = "R9 K9 B9 R5 R6 R7 K1 K2 K3 Y4 Y5 Y6 B13 R8"
    win = check_win(hand, indicator="B6")
    assert not win.winning and win.kind is None and win.melds == ()
    assert win.to_dict() == {"winning": False, "kind": None, "melds": [], "colour_hand": None, "okeys": 0}


def test_O5_okey_stands_for_any_tile() -> None:
    hand = "R9 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 B7 K11 K12 K13"  # the okey B7 is R3
    win = check_win(hand, indicator="B6")
    assert win.winning and win.wilds == 1 and _all_tiles_used(hand, win)
    run = next(m for m in win.melds if any(t.code == "B7" for t in m.tiles))
    assert [f.code for f in run.faces] == ["R1", "R2", "R3"]


def test_O5_false_okey_is_not_wild() -> None:
    assert not check_win("R9 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 F K11 K12 K13", indicator="B6").winning
    assert check_win("R9 K9 B9 Y9 R5 K5 Y5 B5 B5 B6 F K11 K12 K13", indicator="B6").winning


def test_O4_12_13_1_wins_only_with_wrap() -> None:
    hand = "R9 K9 B9 Y9 K2 B2 Y2 R2 R12 R13 R1 Y4 Y5 Y6"
    assert check_win(hand, indicator="B6").winning
    assert not check_win(hand, indicator="B6", options=OkeyOptions(wrap_13_1=False)).winning


def test_O4_13_1_2_never_wins() -> None:
    assert not check_win("R9 K9 B9 Y9 K2 B2 Y2 R2 R13 R1 R2 Y4 Y5 Y6", indicator="B6").winning


def test_O5_seven_pairs() -> None:
    win = check_win("R1 R1 K3 K3 B5 B5 Y7 Y7 R9 R9 K11 K11 B13 B13", indicator="B6")
    assert win.winning and win.kind == "pairs" and len(win.melds) == 7
    assert all(m.kind == "pair" for m in win.melds)


def test_O5_seed_okey_completes_a_pair() -> None:
    # Seed 000: 4 4 2 2 9 9 5 5 13 13 7 7 4 + one okey (red 5) completes the last pair.
    hand = "K4 K4 Y2 Y2 B9 B9 K5 K5 Y13 Y13 B7 B7 Y4 R5"
    win = check_win(hand, indicator="R4")
    assert win.kind == "pairs" and win.wilds == 1 and _all_tiles_used(hand, win)


def test_O5_two_okeys_make_a_pair() -> None:
    hand = "B1 B1 B2 B2 K3 K3 K4 K4 R5 R5 Y6 Y6 J J"
    assert check_win(hand, indicator=None).kind == "pairs"
    assert not check_win(hand, indicator=None, options=OkeyOptions(okey_pair_of_okeys=False)).winning


def test_O5_joker_is_wild_without_indicator() -> None:
    assert check_win("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 J", indicator=None).winning


def test_O6_colour_hand_flag() -> None:
    hand = "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 R5"  # red 5 is the okey: not a colour break
    win = check_win(hand, indicator="R4")
    assert win.colour is Colour.BLUE and win.to_dict()["colour_hand"] == "B"
    assert check_win(SETS_AND_RUNS, indicator="B6").colour is None


def test_O5_win_to_dict() -> None:
    data = check_win("R1 R2 R3 B5 Y5 K5 R9 R10 R11 R12 K10 K11 K12 Y8", indicator="Y7").to_dict()
    assert data["winning"] and data["kind"] == "melds" and data["okeys"] == 1
    assert sorted(len(m) for m in data["melds"]) == [3, 3, 4, 4]


def test_O5_winning_discards() -> None:
    found = winning_discards(SETS_AND_RUNS + " Y1", indicator="B6")
    assert [d.tile.code for d in found.discards] == ["Y1"] and not found.okey_discard
    assert found.to_dict()["winning_discards"] == ["Y1"]


def test_O5_discarding_an_okey_is_the_double_win() -> None:
    found = winning_discards(SETS_AND_RUNS + " B7", indicator="B6")
    assert found.okey_discard
    data = found.to_dict()
    assert "B7" in data["winning_discards"] and data["okey_discard"] is True
    assert any(d["okey_discard"] for d in data["details"])


def test_O5_no_winning_discard() -> None:
    found = winning_discards("R1 R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 Y10 Y12 B1 B3", indicator="B6")
    assert not found.winning and found.to_dict() == {"winning_discards": [], "okey_discard": False, "details": []}


def test_check_hand_dispatches_on_14_or_15() -> None:
    assert isinstance(check_hand(SETS_AND_RUNS, indicator="B6"), WinCheck)
    assert isinstance(check_hand(SETS_AND_RUNS + " Y1", indicator="B6"), DiscardCheck)


@pytest.mark.parametrize("hand", ["R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", SETS_AND_RUNS + " Y1 Y2"])
def test_errors_wrong_number_of_tiles(hand: str) -> None:
    count = len(hand.split())
    with pytest.raises(ImpossibleHandError, match=f"{count} tiles given"):
        check_hand(hand, indicator="B6")
    with pytest.raises(ImpossibleHandError, match=f"{count} tiles given, a win check needs exactly 14"):
        check_win(hand, indicator="B6")


def test_errors_three_copies() -> None:
    with pytest.raises(ImpossibleHandError, match="3 × R7, a set has only 2"):
        check_win("R7 R7 R7 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 R3 K11", indicator="B6")
    with pytest.raises(ImpossibleHandError, match="3 × R7"):
        winning_discards("R7 R7 R7 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 R3 K11 K12", indicator="B6")


def test_errors_false_okey_without_indicator() -> None:
    with pytest.raises(InvalidTileError, match="needs an indicator"):
        check_win("R9 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 F K11 K12 K13", indicator=None)


def test_errors_bad_codes() -> None:
    with pytest.raises(InvalidTileError, match="'X9'"):
        check_win("X9 K9 B9 Y9 R5 K5 B5 Y5 R1 R2 R3 K11 K12 K13", indicator="B6")
    with pytest.raises(InvalidTileError, match="indicator"):
        check_win(SETS_AND_RUNS, indicator="F")
