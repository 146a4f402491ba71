"""Rummikub (RULES.md §R): tiles, melds, the initial meld, the lay-down assistant, joker retrieval, scores.

The assistant's optimum is checked against the brute force of tests/rummikub_oracle.py on seeded
small positions (random and adversarial: both jokers, duplicated near runs, wrap), and every answer
it gives is checked for what a player would check: each meld legal, every table tile still on the
table, only rack tiles added, the value as R6 counts it.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

import rummikub_oracle as oracle
from companion.rules.errors import IllegalMeldError, ImpossibleHandError, InvalidHandRecordError, InvalidTileError
from companion.rules.rummikub import (
    RummikubOptions,
    check_initial_meld,
    check_meld,
    check_turn,
    rack_sum,
    retrieve_joker,
    score_hand,
    solve,
    standings,
)
from companion.rules.rummikub_laydown import LayDown, arrange_table, lay_down, parse_table, rummikub_tiles
from companion.rules.tiles import COLOURS, JOKER, Tile


def codes(text: str) -> list[str]:
    return [t.code for t in rummikub_tiles(text)]


def assert_sound(result: LayDown, table: str, rack: str, wrap: bool = False) -> None:
    """What a player checks on the assistant's answer (R4)."""
    table_tiles = parse_table(table)[0]
    rack_tiles = rummikub_tiles(rack)
    for meld in result.melds:
        verdict = check_meld(meld.tiles, RummikubOptions(wrap_13_1=wrap))
        assert verdict.valid, (meld, verdict.reason)
        assert len(meld.faces) == len(meld.tiles)
        for tile, face in zip(meld.tiles, meld.faces):
            assert tile.is_joker or tile == face
    on_table = Counter(t for m in result.melds for t in m.tiles)
    assert on_table == Counter(table_tiles) + Counter(result.placed)
    assert not Counter(result.placed) - Counter(rack_tiles)
    assert result.value == sum(30 if t.is_joker else t.number for t in result.placed)
    assert sum(f for m in result.melds for f in m.from_rack) == (len(result.placed) if result.possible else 0)


# --- R1 tiles -----------------------------------------------------------------------------------


def test_R1_tiles_with_real_jokers_and_orange_read_as_yellow():
    assert codes("r7, o13 j k1") == ["R7", "Y13", "J", "K1"]
    with pytest.raises(InvalidTileError, match="false okey"):
        rummikub_tiles("R7 F")
    with pytest.raises(InvalidTileError, match="'R14'"):
        rummikub_tiles("R14")
    with pytest.raises(InvalidTileError, match="expected tiles as a string"):
        rummikub_tiles(7, "rack")


def test_R1_three_copies_or_three_jokers_are_an_impossible_position():
    with pytest.raises(ImpossibleHandError, match=r"3 × R7 \(table 2, rack 1\)"):
        lay_down("R7 B7 Y7 R7 K7 B7", "R7")
    with pytest.raises(ImpossibleHandError, match="3 × J"):
        lay_down("R4 J R6 K1 K2 J", "J")


# --- R2 melds -----------------------------------------------------------------------------------


def test_R2_sets_and_runs():
    assert check_meld("R7 B7 K7").valid and check_meld("R7 B7 K7 Y7").valid
    assert not check_meld("R7 B7 B7").valid
    assert check_meld("K3 K4 K5 K6").valid and not check_meld("K3 K4 K6").valid
    assert not check_meld("R7 B7").valid


def test_R2_one_is_always_low_unless_wrap_13_1():
    assert check_meld("R1 R2 R3").valid
    assert not check_meld("R12 R13 R1").valid
    assert check_meld("R12 R13 R1", RummikubOptions(wrap_13_1=True)).valid
    assert not check_meld("R13 R1 R2", RummikubOptions(wrap_13_1=True)).valid
    assert lay_down("", "R12 R13 R1", goal="all").possible is False
    wrapped = lay_down("", "R12 R13 R1", goal="all", wrap_13_1=True)
    assert wrapped.possible and wrapped.melds[0].tiles == tuple(rummikub_tiles("R12 R13 R1"))


# --- R3 initial meld ----------------------------------------------------------------------------


def test_R3_initial_meld_is_worth_30_from_the_rack_alone():
    assert check_initial_meld("R10 R11 R12").opens
    assert not check_initial_meld("R4 R5 R6").opens
    assert check_initial_meld("B10 R10 K10").value == 30
    result = lay_down("R4 R5 R6", "R7 R10 R11 R12", initial=True)
    assert result.possible and result.placed == tuple(rummikub_tiles("R10 R11 R12"))
    assert result.opening == 33
    assert lay_down("R4 R5 R6", "R7", initial=True).possible is False


def test_R3_a_joker_counts_as_the_tile_it_stands_for():
    assert check_initial_meld("J R12 R13").value == 36
    result = lay_down("", "J R12 R13", initial=True)
    assert result.possible and result.opening == 36
    assert result.melds[0].faces == tuple(rummikub_tiles("R11 R12 R13"))


def test_R3_initial_meld_option_50():
    options = RummikubOptions(initial_meld=50)
    assert not check_initial_meld("R10 R11 R12 | K5 B5 Y5", options).opens
    assert solve({"table": "", "rack": "R10 R11 R12 K5 B5 Y5", "initial": True}, options)["possible"] is False
    assert solve({"table": "", "rack": "R10 R11 R12 K5 B5 Y5 R13", "initial": True}, options)["possible"] is True
    assert solve({"table": "", "rack": "R10 R11 R12 K5 B5 Y5", "initial": True})["possible"] is True


def test_R3_table_after_initial_meld_lets_the_rest_of_the_move_use_the_table():
    table, rack = "R4 R5 R6", "K10 K11 K12 R7 B3"
    plain = lay_down(table, rack, initial=True)
    assert plain.placed == tuple(rummikub_tiles("K10 K11 K12")) and plain.changed is None
    free = lay_down(table, rack, initial=True, table_after_initial_meld=True)
    assert free.placed == tuple(rummikub_tiles("R7 K10 K11 K12")) and free.opening == 33
    assert_sound(free, table, rack)


# --- R4 the lay-down assistant --------------------------------------------------------------------


def test_R4_rearranges_the_whole_table():
    result = lay_down("R1 R2 R3 R4 R5 R6", "R7")
    assert result.placed == (Tile(COLOURS[0], 7),)
    assert_sound(result, "R1 R2 R3 R4 R5 R6", "R7")
    moved = lay_down("R3 R4 R5 | B5 Y5 K5", "R5 R6 R7 B4")
    assert len(moved.placed) == 3
    assert_sound(moved, "R3 R4 R5 | B5 Y5 K5", "R5 R6 R7 B4")


def test_R4_jokers_are_shown_where_they_stand():
    result = lay_down("", "R4 J R6", goal="all")
    assert [t.code for t in result.melds[0].tiles] == ["R4", "J", "R6"]
    assert [f.code for f in result.melds[0].faces] == ["R4", "R5", "R6"]
    assert solve({"table": "", "rack": "R4 J R6", "goal": "all"})["faces"] == [["R4", "R5", "R6"]]


def test_R4_points_goal_finds_the_most_points_not_the_most_tiles():
    tiles = lay_down("", "R1 R2 R4 J Y13 K13", goal="tiles")
    points = lay_down("", "R1 R2 R4 J Y13 K13", goal="points")
    assert len(tiles.placed) == 4 and tiles.value == 37
    assert len(points.placed) == 3 and points.value == 56


def test_R4_all_goal_names_the_tiles_that_cannot_go():
    result = lay_down("R4 R5 R6", "R7 B1 K13", goal="all")
    assert not result.possible
    assert sorted(t.code for t in result.cannot) == ["B1", "K13"]
    assert result.placed == () and result.value == 0
    assert solve({"table": "R4 R5 R6", "rack": "R7 R3", "goal": "all"})["possible"] is True


def test_R4_fewest_table_melds_changed_break_the_tie():
    table = "R1 R2 R3 | R4 R5 R6"
    result = lay_down(table, "R7")
    assert result.changed == 1
    assert [m.kept for m in result.melds].count(True) == 1
    assert result.melds[0].tiles == tuple(rummikub_tiles("R1 R2 R3"))
    assert_sound(result, table, "R7")
    untouched = lay_down("R4 R5 R6 | K9 K10 K11 | B2 Y2 R2", "Y9 B9 R9")
    assert untouched.changed == 0 and len(untouched.melds) == 4


def test_R4_moved_tiles_and_rack_tiles_are_marked():
    result = lay_down("R4 R5 R6 | K9 K10 K11", "R7 J B9 Y9")
    changed = [m for m in result.melds if not m.kept]
    assert [t.code for t in result.melds[0].tiles] == ["K9", "K10", "K11"] and result.melds[0].kept
    flagged = sorted(t.code for m in changed for t, r in zip(m.tiles, m.from_rack) if r)
    assert flagged == ["B9", "J", "R7", "Y9"]


def test_R4_inconsistent_positions_are_errors_that_say_why():
    with pytest.raises(IllegalMeldError, match=r"meld 2 \[R1, R2, R4\]"):
        lay_down("K1 K2 K3 | R1 R2 R4", "R3")
    with pytest.raises(IllegalMeldError, match="cannot be split into valid melds, even with the rack's tiles"):
        lay_down("B7 R7 B9 R9", "K7")
    with pytest.raises(IllegalMeldError, match="cannot be split into valid melds"):
        lay_down("B7 R7 B9 R9", "K10 K11 K12", initial=True)
    with pytest.raises(InvalidTileError, match="invalid rack 5"):
        solve({"table": "", "rack": 5})
    with pytest.raises(InvalidHandRecordError, match="goal"):
        solve({"table": "", "rack": "R1", "goal": "most"})


def test_R4_table_validity_is_checked_like_the_upstream_cases():
    assert arrange_table("K11 Y11 R11") is not None
    assert arrange_table("Y11 R11") is None
    assert arrange_table("R1 R2 R3 R5") is None
    assert arrange_table("R7 B7 Y7 J") is not None   # a set of four with a joker


def test_R4_an_ungrouped_table_the_rack_mends_is_taken_as_it_comes():
    result = lay_down("B8 Y8 R5 R6 R7", "K8 R9")   # upstream fixture JY-G6: a 2-tile group on the board
    assert result.placed == tuple(rummikub_tiles("K8")) or len(result.placed) == 1
    assert_sound(result, "B8 Y8 R5 R6 R7", "K8 R9")


def test_R4_nothing_fits_means_draw():
    result = lay_down("R4 R5 R6", "B1")
    assert not result.possible and "draw" in result.reason


def _random_small_position(rng: random.Random) -> tuple[list[Tile], list[Tile]]:
    """A valid table and a rack in a few colours and numbers, so that tiles compete."""
    low = rng.randint(1, 8)
    numbers = list(range(low, low + 6))
    colours = rng.sample(COLOURS, rng.randint(2, 4))
    pool = [Tile(c, n) for c in colours for n in numbers for _ in range(2)] + [JOKER] * rng.choice((0, 1, 2))
    rng.shuffle(pool)
    table: list[Tile] = []
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.5:
            n = rng.choice(numbers)
            have = [c for c in colours if Tile(c, n) in pool]
            meld = [Tile(c, n) for c in have[: rng.randint(3, 4)]]
        else:
            c, start = rng.choice(colours), rng.choice(numbers[:4])
            meld = [Tile(c, k) for k in range(start, start + rng.randint(3, 4)) if k in numbers]
        if len(meld) >= 3 and all(meld.count(t) <= pool.count(t) for t in meld):
            if JOKER in pool and rng.random() < 0.3:
                meld[rng.randrange(len(meld))] = JOKER
            for tile in meld:
                pool.remove(tile)
            table += meld
    rack = pool[: rng.randint(2, 6)]
    return table, rack


def _text(tiles: list[Tile]) -> str:
    return " ".join(t.code for t in tiles)


@pytest.mark.parametrize("seed", range(8))
def test_R4_best_move_matches_the_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(14):
        table, rack = _random_small_position(rng)
        wrap = rng.random() < 0.2
        if not oracle.splits(table, wrap):
            continue
        most_tiles, most_points, everything = oracle.best_moves(table, rack, wrap)
        by_tiles = lay_down(_text(table), _text(rack), goal="tiles", wrap_13_1=wrap)
        by_points = lay_down(_text(table), _text(rack), goal="points", wrap_13_1=wrap)
        every = lay_down(_text(table), _text(rack), goal="all", wrap_13_1=wrap)
        assert len(by_tiles.placed) == most_tiles, (table, rack, by_tiles)
        assert by_points.value == most_points, (table, rack, by_points)
        assert every.possible == everything, (table, rack, every)
        for result in (by_tiles, by_points, every):
            if result.possible:
                assert_sound(result, _text(table), _text(rack), wrap)


@pytest.mark.parametrize("seed", range(3))
def test_R3_initial_meld_matches_the_brute_force(seed):
    rng = random.Random(100 + seed)
    for _ in range(10):
        table, rack = _random_small_position(rng)
        rack = rack + [t for t in rummikub_tiles("R9 R10 R11 K12 B12")[: rng.randint(0, 5)]
                       if Counter(table + rack)[t] < 2]
        if not oracle.splits(table, False):
            continue
        table_after = rng.random() < 0.5
        most_tiles, most_points, _ = oracle.best_moves(table, rack, False, initial=30, table_after=table_after)
        result = lay_down(_text(table), _text(rack), initial=True, table_after_initial_meld=table_after)
        assert len(result.placed) == most_tiles, (table, rack, table_after, result)
        by_points = lay_down(_text(table), _text(rack), goal="points", initial=True,
                             table_after_initial_meld=table_after)
        assert by_points.value == most_points, (table, rack, table_after, by_points)
        if result.possible:
            assert_sound(result, _text(table), _text(rack))
            assert result.opening is not None and result.opening >= 30


def test_R4_adversarial_both_jokers_and_twin_runs():
    table, rack = "R3 R4 R5 R3 R4 R5 J", "R6 R6 J R2"
    result = lay_down(table, rack)
    assert len(result.placed) == oracle.best_moves(parse_table(table)[0], rummikub_tiles(rack), False)[0]
    assert_sound(result, table, rack)


def test_R4_a_full_106_tile_position_is_solved_exactly():
    everything = [Tile(c, n) for c in COLOURS for n in range(1, 14) for _ in range(2)] + [JOKER, JOKER]
    rack = list(rummikub_tiles("R1 R2 R3 R4 Y10 Y11 Y12 Y13 B5 B6 B7 K1 K2 K3 K11 K12 K13 J B1 R13"))
    table = list(everything)
    for tile in rack:
        table.remove(tile)
    assert arrange_table(table) is not None
    started = time.perf_counter()
    result = lay_down(_text(table), _text(rack), goal="points")
    assert time.perf_counter() - started < 10
    assert len(result.placed) == 20 and result.possible
    assert_sound(result, _text(table), _text(rack))


# --- R5 joker retrieval -------------------------------------------------------------------------


def test_R5_a_joker_is_taken_by_its_exact_tile():
    assert retrieve_joker("R4 J R6", "R5").tiles == tuple(rummikub_tiles("R4 R5 R6"))
    assert retrieve_joker("R7 B7 J", "K7").tiles == tuple(rummikub_tiles("R7 B7 K7"))
    with pytest.raises(IllegalMeldError, match="stands for R5"):
        retrieve_joker("R4 J R6", "R7")
    with pytest.raises(IllegalMeldError, match="stands for K7 or Y7"):
        retrieve_joker("R7 B7 J", "R7")
    with pytest.raises(IllegalMeldError, match="holds no joker"):
        retrieve_joker("R4 R5 R6", "R7")


def test_R5_a_retrieved_joker_is_laid_again_in_the_same_turn():
    assert check_turn("R4 J R6", "R4 R5 R6 | K9 K10 J", opened=True).valid
    assert not check_turn("R4 J R6", "R4 R5 R6", opened=True).valid
    assert not check_turn("R4 R5 R6", "R4 R5 | R6 R7 R8", opened=True).valid
    assert "draws a tile" in check_turn("R4 R5 R6", "R4 R5 R6", opened=True).reason


def test_R3_a_turn_before_the_initial_meld_leaves_the_table_alone():
    assert check_turn("R4 R5 R6", "R4 R5 R6 | K10 K11 K12", opened=False).valid
    assert not check_turn("R4 R5 R6", "R4 R5 R6 | K1 K2 K3", opened=False).valid
    assert not check_turn("R4 R5 R6", "R4 R5 R6 R7 | K10 K11 K12", opened=False).valid


def test_R5_the_assistant_frees_a_joker_and_lays_it_again():
    result = lay_down("R4 J R6", "R5 K9 K10")
    assert len(result.placed) == 3
    assert_sound(result, "R4 J R6", "R5 K9 K10")


# --- R6 scores ----------------------------------------------------------------------------------


def test_R6_losers_pay_their_rack_and_the_winner_takes_the_total():
    score = score_hand({"winner": 2, "racks": ["R5 J", "K12 B1", "", "Y7"]})
    assert score.scores == (-35, -13, 55, -7)
    assert sum(score.scores) == 0
    assert score.per_seat[2][0].text == "Player 3 went out: + the others' racks 35 + 13 + 7 = +55 (R6)."
    assert score.to_dict()["explain_detail"][0]["key"] == "rummikub.winner"


def test_R6_pool_exhausted_lowest_rack_wins_and_the_others_pay_the_difference():
    score = score_hand({"winner": None, "racks": ["R3 R4", "K10", "J"]})
    assert score.scores == (26, -3, -23)
    assert score.leaders == (0,) and sum(score.scores) == 0
    tie = score_hand({"winner": None, "racks": ["R3", "K3", "B9"]})
    assert tie.leaders == (0, 1) and tie.scores == (6, 6, -12)


def test_R6_bad_hand_records_are_refused_saying_why():
    with pytest.raises(InvalidHandRecordError, match="unknown field 'winer'"):
        score_hand({"winer": 0, "racks": ["", "R1"]})
    with pytest.raises(InvalidHandRecordError, match="invalid rack 5 of player 2"):
        score_hand({"winner": 0, "racks": ["", 5]})
    with pytest.raises(InvalidHandRecordError, match="the winner emptied the rack"):
        score_hand({"winner": 1, "racks": ["", "R1"]})
    with pytest.raises(InvalidHandRecordError, match="invalid winner 4"):
        score_hand({"winner": 4, "racks": ["", "R1"]})
    with pytest.raises(ImpossibleHandError, match="3 × R7"):
        score_hand({"winner": 0, "racks": ["", "R7 R7", "R7"]})
    with pytest.raises(InvalidTileError, match="'X9'"):
        score_hand({"winner": 0, "racks": ["", "X9"]})
    with pytest.raises(InvalidHandRecordError, match="2-4 racks"):
        score_hand({"winner": 0, "racks": [""]})


def test_R6_joker_points_option():
    assert rack_sum("R5 J") == 35
    assert score_hand({"winner": 0, "racks": ["", "J"]}, RummikubOptions(joker_points=50)).scores == (50, -50)


def test_R6_replay_a_whole_match_asserting_the_sheet_after_each_hand():
    options = RummikubOptions(hands=4)
    hands = [
        ({"winner": 0, "racks": ["", "R5 J", "K12 B1", "Y7"]}, (55, -35, -13, -7)),
        # 3 + 13 + 60 = 76 to player 4.
        ({"winner": 3, "racks": ["R1 R2", "B13", "J J", ""]}, (52, -48, -73, 69)),
        # The pool ran out: players 2 and 3 tie at 5; player 1 pays 4 to each, player 4 pays 16 to each.
        ({"winner": None, "racks": ["K9", "Y2 Y3", "B5", "R10 R11"]}, (44, -28, -53, 37)),
        ({"winner": 1, "racks": ["R6", "", "K1 K2 K3", "B12"]}, (38, -4, -59, 25)),
    ]
    scored = []
    for number, (hand, totals) in enumerate(hands, start=1):
        scored.append(score_hand(hand, options))
        sheet = standings(4, scored, options)
        assert sheet.totals == totals, number
        assert sum(sheet.totals) == 0
        assert sheet.finished == (number == 4)
    assert sheet.winners == (0,)
    assert sheet.explain[0].text == "All 4 hands are played: player 1 wins with the highest total (+38)."
    with pytest.raises(InvalidHandRecordError, match="one too many"):
        standings(4, scored + scored[:1], options)


def test_R6_an_open_ended_match_never_finishes():
    win = score_hand({"winner": 1, "racks": ["R5", ""]})
    sheet = standings(2, [win] * 9, RummikubOptions())
    assert not sheet.finished and sheet.leaders == (1,) and sheet.totals == (-45, 45)
