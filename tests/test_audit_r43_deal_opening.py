"""Audit (round 43): the dice ritual and deal assistant (O2, O3, H2), the Okey win check (O3-O5) and the 101
opening checks and penalties (H4, H7), plus the points variant (O7) — the behaviours found correct.

Every expected answer is worked out by hand from the rule book (docs/rules.md); the comment on each test says
how.  The seeded brute force at the end is independent of ``companion.rules._search`` and of tests/oracle.py:
it tries every legal meld through the lowest tile, each meld position filled by the real tile or a wild.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import lru_cache
from html import unescape
from itertools import combinations, product

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.rules import InvalidDealError
from companion.rules.deal import next_dealer, plan_deal, reroll_indicator
from companion.rules.errors import ImpossibleHandError, InvalidTileError
from companion.rules.melds import check_laid_meld, check_laid_opening, check_meld_101
from companion.rules.okey_points import score_okey_points_hand
from companion.rules.opening import best_opening, max_pairs
from companion.rules.options import Okey101Options, OkeyOptions, options_for
from companion.rules.win import check_hand, check_win, winning_discards
from companion.store import TableStore

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
TOKEN = "audit-token"


def _received(plan) -> list[int]:
    counts = [0] * plan.players
    for take in plan.takes:
        counts[take.seat] += take.count
    return counts


# ---------------------------------------------------------------------------------------------------------
# O2 / H2 / O3: the dice ritual


def test_O2_4_the_cli_prints_the_seed_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    # O2.4 worked example: dealer player 1, rolls 5 then 2 -> 5th stack from the dealer's left, 2nd tile from
    # its bottom; stacks a-i to players 2,3,4,1,2,3,4,1,2; 3 takes 4 of j, 4 the last of j and 3 of k, 1 the
    # last 2 of k and 2 of l; player 2 (dealer's right) holds 15 and starts.
    assert main(["deal", "--game", "okey", "--players", "4", "--dealer", "1", "--dice", "5", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "the 5th stack counted from the dealer's left" in lines[1] and "6 tiles" in lines[1]
    assert "the 2nd tile from the bottom" in lines[2]
    takes = [line for line in lines if " takes " in line]
    whole = [f"Player {p} takes stack {s}." for p, s in zip("234123412", "abcdefghi")]
    assert takes == whole + [
        "Player 3 takes the top 4 tiles of stack j.",
        "Player 4 takes the last tile of stack j.",
        "Player 4 takes the top 3 tiles of stack k.",
        "Player 1 takes the last 2 tiles of stack k.",
        "Player 1 takes the top 2 tiles of stack l.",
    ]
    assert lines[-1].startswith("Player 2 has 15 tiles and starts by discarding; the others have 14.")


def test_O2_4_worked_example_through_the_batch_is_the_same_walk() -> None:
    # Same ritual as JSON (0-based seats): the chosen stack (index 4) holds the leftover tile (6 tiles) and is
    # never dealt from; the stock is 106 - (15 + 3 x 14) - 1 indicator = 48 (O3).
    reply = answer({"op": "deal", "game": "okey", "players": 4, "dealer": 0, "dice": [5, 2]})
    assert reply["chosen_stack"] == 4 and reply["indicator_from_bottom"] == 2
    assert reply["stacks"][4] == {"index": 4, "owner": 0, "tiles": 6, "letter": None}
    assert [(t["seat"], t["letter"], t["count"], t["part"]) for t in reply["takes"][9:]] == [
        (2, "j", 4, "top"), (3, "j", 1, "bottom"), (3, "k", 3, "top"), (0, "k", 2, "bottom"), (0, "l", 2, "top")]
    assert reply["tiles_per_seat"] == [14, 15, 14, 14] and reply["stock"] == 48 and reply["starter"] == 1


@pytest.mark.parametrize(("in_front", "dealer", "roll", "owner"), [
    ((3, 6, 6, 6), 0, 4, 1),   # 4 > the dealer's 3 stacks: the 1st stack of the player on the right
    ((3, 6, 6, 6), 0, 3, 0),   # exactly the dealer's last stack
    ((6, 2, 2, 11), 2, 6, 3),  # dealer (seat 2) has 2, its right (seat 3) 11: roll 6 is seat 3's 4th
    ((1, 1, 18, 1), 0, 3, 2),  # past the dealer (1) and the right-hand player (1) into seat 2's stacks
    ((7, 7, 7), 1, 6, 1),      # three players: 7 each, a die never leaves the dealer's stacks
])
def test_O2_2_the_first_roll_counts_on_into_the_stacks_of_the_player_on_the_dealers_right(
    in_front: tuple[int, ...], dealer: int, roll: int, owner: int
) -> None:
    # O2.2: count `roll` stacks from the dealer's left; past the dealer's stacks counting continues to the
    # player on the dealer's right (seat + 1), and on round the table.  O2.4: taking starts just right of it.
    plan = plan_deal(players=len(in_front), dealer=dealer, first_roll=roll, second_roll=1, stacks_in_front=in_front)
    assert plan.chosen_stack == roll - 1 and plan.stacks[plan.chosen_stack].owner == owner
    assert plan.stacks[plan.chosen_stack].tiles == 6 and plan.stacks[plan.chosen_stack].letter is None
    assert plan.takes[0].stack == plan.chosen_stack + 1 and plan.takes[0].part == "whole"
    assert [plan.stacks[i].owner for i in range(21)] == [
        seat for seat in [(dealer + k) % len(in_front) for k in range(len(in_front))] for _ in range(in_front[seat])]


@pytest.mark.parametrize("second", range(1, 7))
def test_O2_3_the_second_roll_counts_up_from_the_bottom_of_the_six_tile_stack(second: int) -> None:
    # O2.3: the n-th tile from the bottom of the chosen (6-tile) stack; a repeat after a false okey changes
    # only that count, never the chosen stack nor the takes.
    plan = plan_deal(players=4, dealer=3, first_roll=2, second_roll=second)
    assert plan.indicator_from_bottom == second
    assert f"the {['1st', '2nd', '3rd', '4th', '5th', '6th'][second - 1]} tile from the bottom" in plan.explain()[2]
    again = reroll_indicator(plan, 7 - second)
    assert again.rolls == (2, 7 - second) and again.takes == plan.takes and again.chosen_stack == plan.chosen_stack


def test_O2_3_a_false_okey_turned_up_is_refused_and_the_reroll_clears_the_indicator(store: TableStore) -> None:
    # O2.3 / O3: the indicator is always a numbered tile; F goes back and the second die is rolled again.
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    store.record(table, {"type": "deal", "dice": [5, 2]})
    with pytest.raises(InvalidTileError, match="rolled again"):
        store.record(table, {"type": "indicator", "tile": "F"})
    state = store.record(table, {"type": "reroll", "die": 6})
    assert state.deal.plan.rolls == (5, 6) and state.deal.indicator is None
    state = store.record(table, {"type": "indicator", "tile": "R13"})
    assert state.deal.okey.code == "R1"  # O3: after 13 comes 1


def _pattern_ok(plan, per_seat: int) -> None:
    """O2.4/O2.5 (Okey, 14 tiles) and H2 (21 tiles): whole stacks in turn from the starter round the table,
    then the remainder in seat order from the starter; every stack walked in order right of the chosen one."""
    n = plan.players
    order = [(plan.starter + k) % n for k in range(n)]
    rounds = per_seat // 5
    whole = [t for t in plan.takes if t.part == "whole"]
    assert [t.seat for t in whole[: rounds * n]] == order * rounds
    assert _received(plan) == [per_seat + (seat == plan.starter) for seat in range(n)]
    stacks = list(dict.fromkeys(t.stack for t in plan.takes))
    assert stacks == [(plan.chosen_stack + k) % 21 for k in range(1, len(stacks) + 1)]
    per_stack = Counter()
    for take in plan.takes:
        per_stack[take.stack] += take.count
    assert all(count <= 5 for count in per_stack.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_O2_5_two_three_and_four_players_follow_the_same_walk(players: int) -> None:
    # O2.5: whole stacks in turn until each has 10, one more whole stack for the starter (15), then 4 tiles
    # for each other player in seat order (counter-clockwise from the starter).
    for dealer in range(players):
        for roll in range(1, 7):
            plan = plan_deal(players=players, dealer=dealer, first_roll=roll, second_roll=3)
            assert plan.starter == (dealer + 1) % players
            _pattern_ok(plan, 14)
            tail = plan.takes[2 * players:]
            assert (tail[0].seat, tail[0].count, tail[0].part) == (plan.starter, 5, "whole")
            others = [(plan.starter + k) % players for k in range(1, players)]
            got = Counter()
            for take in tail[1:]:
                got[take.seat] += take.count
            assert list(dict.fromkeys(t.seat for t in tail[1:])) == others and set(got.values()) == {4}


@pytest.mark.parametrize(("game", "players", "options", "stock"), [
    ("okey", 4, {}, 48), ("okey", 3, {}, 62), ("okey", 2, {}, 76),
    ("okey", 4, {"indicator_drawable_last": True}, 49),
    ("okey", 4, {"quick_deal": True}, 48),
    ("okey101", 4, {}, 20), ("okey101", 3, {}, 41), ("okey101", 2, {}, 62),
    ("okey101", 4, {"indicator_drawable_last": True}, 21),
    ("okey101", 4, {"quick_deal": True, "indicator_drawable_last": True}, 21),
    ("okey_points", 4, {}, 20),
])
def test_O3_the_stock_left_after_the_deal(game: str, players: int, options: dict, stock: int) -> None:
    # O3: 106 tiles less those dealt (14 each + 1 for the starter in Okey; 21 + 1 in 101 and O7) less the face-up
    # indicator, unless indicator_drawable_last makes it the stock's last tile (rules.md: 48 and 20 with four).
    dice = {} if options.get("quick_deal") else {"dice": [3, 4]}  # a quick deal rolls none (dice sent: refused)
    reply = answer({"op": "deal", "game": game, "players": players, "dealer": 0, **dice, "options": options})
    assert reply["stock"] == stock
    assert sum(reply["tiles_per_seat"]) + stock + (0 if options.get("indicator_drawable_last") else 1) == 106


def test_O2_6_quick_deal_takes_14_and_15_and_needs_no_dice() -> None:
    # O2.6: everybody takes 14, the starter (dealer's right) 15, one tile turned up: no stacks, no rolls.
    reply = answer({"op": "deal", "game": "okey", "players": 3, "dealer": 2, "options": {"quick_deal": True}})
    assert reply["tiles_per_seat"] == [15, 14, 14] and reply["rolls"] is None and reply["takes"] == []
    assert reply["explain"][0].startswith("Quick deal: everybody takes 14 tiles")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("starter", ["right_of_dealer", "dealer"])
def test_H2_okey101_deals_21_and_22_to_the_starter(players: int, starter: str) -> None:
    # H2: 21 each, 22 to the starter; option starter = right_of_dealer (default) | dealer.  The walk is O2's.
    options = options_for("okey101", {"starter": starter})
    for dealer in range(players):
        plan = plan_deal(players=players, dealer=dealer, first_roll=6, second_roll=6, game="okey101", options=options)
        assert plan.starter == (dealer if starter == "dealer" else (dealer + 1) % players)
        _pattern_ok(plan, 21)
        assert plan.explain()[-1].startswith(f"Player {plan.starter + 1} has 22 tiles and starts by discarding")


def test_H2_quick_deal_in_101_is_21_and_22() -> None:
    # H2: with quick_deal everybody simply takes 21 (the starter 22) and one tile is turned up.
    reply = answer({"op": "deal", "game": "101", "players": 4, "dealer": 1, "options": {"quick_deal": True}})
    assert reply["tiles_per_seat"] == [21, 21, 22, 21] and reply["stacks"] == []


def test_O7_the_dealer_gets_22_and_starts() -> None:
    # O7: each player 21 tiles, the dealer 22, and the dealer starts by discarding.
    reply = answer({"op": "deal", "game": "okey_points", "players": 4, "dealer": 2, "dice": [5, 2]})
    assert reply["starter"] == 2 and reply["tiles_per_seat"] == [21, 21, 22, 21]


def test_O2_1_the_deal_passes_to_the_right_after_each_hand(store: TableStore) -> None:
    # O2.1 / H2: after each hand the deal moves one seat to the right (seat + 1); the next ritual counts from the
    # new dealer.  H4: a void hand (all opened with pairs) is dealt again by the same dealer.
    assert [next_dealer(d, 3) for d in range(3)] == [1, 2, 0]
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", first_dealer=3)
    store.record(table, {"type": "deal", "dice": [5, 2]})
    store.record(table, {"type": "indicator", "tile": "R4"})
    state = store.record(table, {"type": "void_hand"})
    assert state.dealer == 3 and state.deal.plan is None and not state.hands
    state = store.record(table, {"type": "deal", "dice": [5, 2]})
    assert state.deal.plan.dealer == 3 and state.deal.plan.starter == 0 and state.deal.plan.stacks[4].owner == 3
    store.record(table, {"type": "indicator", "tile": "R4"})
    hand = {"finisher": 0, "players": [{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "K7"},
                                       {"opened": None, "rack": "B1"}, {"opened": "melds", "rack": "Y3"}]}
    state = store.record(table, {"type": "okey101_hand", "hand": hand})
    assert state.dealer == 0
    state = store.record(table, {"type": "deal", "dice": [1, 1]})
    assert state.deal.plan.dealer == 0 and state.deal.plan.starter == 1
    assert state.deal.plan.tiles_per_seat == (21, 22, 21, 21)


def test_O2_1_okey_points_table_passes_the_deal_and_the_dealer_keeps_starting(store: TableStore) -> None:
    # O7 with O2.1: the dealer starts (22 tiles); next hand the seat to the right deals and starts.
    table = store.create_table(game="okey_points", players=PLAYERS, pin="1234", first_dealer=1)
    state = store.record(table, {"type": "deal", "dice": [2, 3]})
    assert state.deal.plan.starter == 1 and state.deal.plan.tiles_per_seat == (21, 22, 21, 21)
    store.record(table, {"type": "indicator", "tile": "R4"})
    state = store.record(table, {"type": "okey_points_hand", "hand": {"finisher": 0, "racks": ["", "R3 K7", "B1 B2", "Y3 Y9"]}})
    assert state.dealer == 2 and state.totals == (0, 10, 3, 12)
    state = store.record(table, {"type": "deal", "dice": [2, 3]})
    assert state.deal.plan.starter == 2 and state.deal.plan.tiles_per_seat == (21, 21, 22, 21)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_O2_the_deal_page_walks_the_table_through_typed_dice(client: FlaskClient, store: TableStore) -> None:
    # O2.2-O2.4 on the deal assistant: typed dice 5 and 2 give the seed's walk with the players' names;
    # a die of 7 is refused (422) and nothing is recorded.
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    refused = client.post(f"/t/{table}/deal", data={"csrf_token": TOKEN, "die1": "7", "die2": "2"})
    assert refused.status_code == 422 and store.get(table).deal.plan is None
    page = client.post(f"/t/{table}/deal", data={"csrf_token": TOKEN, "die1": "5", "die2": "2"}, follow_redirects=True)
    words = _text(page.text)
    assert "Can takes stack A. Deniz takes stack B. Ece takes stack C. Ali takes stack D." in words
    assert "Deniz takes the top 4 tiles of stack J. Ece takes the last tile of stack J." in words
    assert "Ali takes the last 2 tiles of stack K. Ali takes the top 2 tiles of stack L." in words
    assert "48 tiles are left to draw" in words
    assert store.get(table).deal.plan.rolls == (5, 2)


def test_O2_bad_deal_requests_name_what_is_wrong() -> None:
    assert "invalid first roll 7" in answer({"op": "deal", "game": "okey", "dice": [7, 2]})["error"]
    assert "two numbers such as [5, 2]" in answer({"op": "deal", "game": "okey", "dice": [5]})["error"]
    assert "no 'deal' operation" in answer({"op": "deal", "game": "rummikub", "dice": [5, 2]})["error"]
    with pytest.raises(InvalidDealError, match="a quick deal has no chosen stack"):
        reroll_indicator(plan_deal(players=4, dealer=0, options=options_for("okey", {"quick_deal": True})), 3)


# ---------------------------------------------------------------------------------------------------------
# O3-O5: the win check

R4 = "R4"  # indicator red 4: the okey is R5 (wild), F plays as a plain red 5 (O3)


def _win(tiles: str, indicator: str = R4, **options) -> object:
    return check_win(tiles, indicator=indicator, options=OkeyOptions(**options))


def test_O5_okeys_at_both_ends_of_runs_win() -> None:
    # O5: an okey may stand for any tile: R5 is B1 before B2 B3, and Y11 after Y9 Y10.
    win = _win("R5 B2 B3 Y9 Y10 R5 K1 K2 K3 K4 R7 Y7 B7 K7")
    assert win.winning and win.kind == "melds" and win.wilds == 2


def test_O5_two_okeys_in_one_run_and_in_one_set() -> None:
    # O5: both okeys fill a gap and an end (B6 and B8 around B7 ...), or two colours of a set of 9s.
    assert _win("B5 R5 B7 R5 B9 K1 K2 K3 Y11 Y12 Y13 R10 B10 K10").winning
    assert _win("K9 R5 R5 B1 B2 B3 Y4 Y5 Y6 Y7 K11 K12 K13 K10").winning


def test_O3_a_false_okey_next_to_its_own_face_plays_the_okeys_face() -> None:
    # O3: F is a plain R5: R4 (the indicator's twin) F R5(okey as R6) R7 is a run 4-5-6-7.
    assert _win("R4 F R5 R7 B1 B2 B3 Y9 Y10 Y11 K12 Y12 B12 R12").winning
    # F is not wild: as a 9 in a set of 9s it does not win (nothing else can take a red 5 here).
    assert not _win("F Y9 B9 R1 R2 R3 K1 K2 K3 K4 Y11 Y12 Y13 B13").winning


def test_O3_indicator_13_makes_the_1_the_okey_and_the_false_okey_a_1() -> None:
    # O3: indicator K13 -> okey K1; F plays K1, so K12 K13 F is 12-13-1: a run only with wrap_13_1 (O4).
    hand = "K12 K13 F R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 B13"
    assert _win(hand, "K13", wrap_13_1=True).winning
    assert not _win(hand, "K13", wrap_13_1=False).winning
    assert check_win(hand, indicator="K13", options=Okey101Options()).winning is False  # H1: off in 101


def test_O4_a_thirteen_tile_run_and_the_second_1_wins_only_by_wrapping() -> None:
    # O4: K1..K13 + K1: the second 1 can only follow 13 (K11 K12 K13 K1), so wrap_13_1 decides.
    hand = "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1"
    assert _win(hand, "Y3", wrap_13_1=True).winning
    assert not _win(hand, "Y3", wrap_13_1=False).winning


def test_O4_13_1_2_never_even_with_an_okey() -> None:
    # O4: K13 K1 + okey: the okey as K12 gives 12-13-1 (wrap on) — a win; without wrap no reading exists.
    # K13 okey K2 would need 13-1-2, never legal: not a win with or without wrap.
    wrap_hand = "K13 K1 R5 Y1 Y2 Y3 B4 B5 B6 B7 R9 Y9 B9 K9"
    assert _win(wrap_hand, wrap_13_1=True).winning and not _win(wrap_hand, wrap_13_1=False).winning
    never = "K13 K2 R5 Y1 Y2 Y3 B4 B5 B6 B7 R9 Y9 B9 K9"
    assert not _win(never, wrap_13_1=True).winning and not _win(never, wrap_13_1=False).winning


def test_O4_a_set_of_four_takes_an_okey_but_a_fifth_tile_never() -> None:
    # O4: a set is 3 or 4 tiles of distinct colours: R7 Y7 B7 + okey is a set of four (the okey is K7, 28);
    # R7 Y7 B7 K7 + okey would be five.
    assert check_laid_meld("R7 Y7 B7 R5", indicator=R4, wrap_13_1=True).value == 28
    verdict = check_laid_meld("R7 Y7 B7 K7 R5", indicator=R4, wrap_13_1=True)
    assert not verdict.valid and "at most 4" in verdict.reason
    # 4 four-tile sets hold 16 > 14, so: three sets of four + an okey + a lone K2 — the okey cannot save K2.
    assert not _win("R7 Y7 B7 K7 R9 Y9 B9 K9 R11 Y11 B11 K11 R5 Y2").winning


def test_O5_seven_pairs_of_identical_tiles_with_false_okeys_and_okeys() -> None:
    # O5: a pair is two identical tiles; F F is a pair of red 5s; F + okey is a pair (the okey completes it);
    # the indicator's twin R4 + okey is a pair.
    assert _win("R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 F F").kind == "pairs"
    assert _win("R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 F R5").kind == "pairs"
    assert _win("R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 R4 R5").kind == "pairs"
    assert not _win("R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 R4 Y6").winning  # R4 Y6 is no pair


def test_O5_okey_pair_of_okeys_on_and_off_with_the_settled_reading() -> None:
    # O5: six pairs + both okeys: a pair of okeys only with okey_pair_of_okeys on.  Settled reading: with it
    # off an okey pairs only a tile without a twin — five pairs + two singles + two okeys still win.
    six = "R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 R5 R5"
    assert _win(six).kind == "pairs" and not _win(six, okey_pair_of_okeys=False).winning
    five = "R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 Y13 R5 R5"
    assert _win(five, okey_pair_of_okeys=False).kind == "pairs"
    # F has no twin here, so the okey may pair it even with the option off (F + okey = two red 5s).
    assert _win("R1 R1 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 F R5", okey_pair_of_okeys=False).kind == "pairs"


def test_O5_fifteen_tiles_give_the_winning_discards_and_the_okey_double_win() -> None:
    # O5: from 15 tiles, every discard that leaves a winning 14.  R1 R2 R3 | Y5 B5 K5 | R9 R10 R11 R12 |
    # K10 K11 K12 + okey + Y13: only Y13 may go (any other discard leaves Y13 alone beside the okey).
    result = check_hand("R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 R5 Y13", indicator=R4)
    assert {d.tile.code: d.okey_discard for d in result.discards} == {"Y13": False}
    # A winning hand that uses an okey, plus the other okey: discarding an okey is the double win (O5, O6).
    both = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 R5 R5"
    result = check_hand(both, indicator=R4)
    assert {d.tile.code: d.okey_discard for d in result.discards}["R5"] is True and result.okey_discard
    reply = answer({"op": "check", "game": "okey", "indicator": R4, "tiles": both})
    assert reply["okey_discard"] is True and "R5" in reply["winning_discards"]


def test_O1_O3_the_indicator_is_counted_as_a_copy_of_its_tile() -> None:
    # Settled reading O1/O3: the face-up indicator is one copy, so a hand holds at most one more.
    with pytest.raises(ImpossibleHandError, match="face-up indicator R4"):
        _win("R4 R4 K2 K2 B3 B3 Y4 Y4 K9 K9 B12 B12 F F")
    with pytest.raises(ImpossibleHandError, match="face-up indicator R4"):
        winning_discards("R4 R4 R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12", indicator=R4)
    reply = answer({"op": "opening", "game": "okey101", "indicator": R4, "tiles": "R4 R4 R5"})
    assert "face-up indicator R4" in reply["error"]


# ---------------------------------------------------------------------------------------------------------
# H4: openings


def test_H4_the_rule_book_example_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    # H4 example: 33 + 39 + 6 + 42 = 120 opens; without the black run 78 does not.
    melds = "R10 R11 R12 | K13 Y13 B13 | B1 B2 B3 | K9 K10 K11 K12"
    assert main(["meld", "--game", "101", "--indicator", R4, melds]) == 0
    assert "opens: melds worth 120 (at least 101, H4)" in capsys.readouterr().out
    assert main(["meld", "--game", "101", "--indicator", R4, melds.rsplit("|", 1)[0]]) == 0
    assert "does not open: melds worth 78, 101 needed (H4)" in capsys.readouterr().out


def test_H4_okeys_count_as_the_tile_they_replace_and_false_okeys_as_the_okeys_face() -> None:
    # H4: R5 (okey) K12 K13 is K11 K12 K13 = 36, not 30: with R13 Y13 B13 (39) and Y8 Y9 Y10 (27) that is 102,
    # which opens (at face value 5 it would be 96).  F plays R5: F R6 R7 adds 18 -> 120.
    rack = "R5 K12 K13 R13 Y13 B13 Y8 Y9 Y10 B1 K4"
    opening = best_opening(rack, indicator=R4)
    assert opening.value == 102 and opening.opens and [t.code for t in opening.leftover] == ["B1", "K4"]
    assert best_opening(rack + " F R6 R7", indicator=R4).value == 120
    laid = check_laid_opening("R5 K12 K13 | R13 Y13 B13 | Y8 Y9 Y10", indicator=R4)
    assert laid.total == 102 and laid.opens
    assert check_laid_meld("F Y5 B5", indicator=R4, wrap_13_1=False).value == 15


@pytest.mark.parametrize(("meld", "wrap", "value"), [
    ("R13 R12 R11", False, 36),   # settled H4: a laid run reads either way
    ("R5 R12 R13", False, 36),    # the okey laid first stands for R11
    ("R12 R13 R5", True, 26),     # laid after 13 it is the 1 (wrap on): worth 1
    ("R12 R13 R5", False, None),  # ... and with wrap off no reading exists
    ("R1 R13 R12", True, 26),     # 12-13-1 laid descending
    ("R13 R1 R5", True, None),    # 13-1-2 never
    ("R5 R5 K13", False, 39),     # two okeys with K13: the set of 13s is the most valuable reading
    ("K12 K13 F", True, 26),      # indicator K13 below: F is K1 after 13
])
def test_H4_laid_melds_read_in_table_order(meld: str, wrap: bool, value: int | None) -> None:
    indicator = "K13" if "F" in meld else R4
    verdict = check_laid_meld(meld, indicator=indicator, wrap_13_1=wrap)
    assert (verdict.value if verdict.valid else None) == value, verdict.reason


def test_H4_five_pairs_open_four_do_not_and_pairs_may_use_okeys() -> None:
    # H4: at least 5 pairs; an okey completes a pair (K5 + okey); two okeys are a pair while
    # okey_pair_of_okeys is on; F F is a pair of red 5s.
    five = "R3 R3 | K5 R5 | B8 B8 | Y11 Y11 | F F"
    assert check_laid_opening(five, indicator=R4).reason == "opens: 5 pairs (at least 5, H4)"
    assert not check_laid_opening(five.rsplit("|", 1)[0], indicator=R4).opens
    assert check_meld_101("R5 R5", indicator=R4).valid
    assert not check_meld_101("R5 R5", indicator=R4, options=Okey101Options(okey_pair_of_okeys=False)).valid
    assert max_pairs("R3 R3 K5 R5 B8 B8 Y11 Y11 F F", indicator=R4) == 5
    opening = best_opening("R3 R3 K5 R5 B8 B8 Y11 Y11 F F K1", indicator=R4)
    assert opening.pairs == 5 and opening.pairs_open


def test_H4_melds_and_pairs_mixed_in_one_opening_do_not_open() -> None:
    # H4: melds worth 101 OR five pairs: one opening is one route.
    mixed = check_laid_opening("K11 K12 K13 | R13 Y13 B13 | B10 B11 B12 | R3 R3", indicator=R4)
    assert not mixed.opens and "not both" in mixed.reason


def test_H4_opening_minimum_and_opening_pairs_options() -> None:
    # H4 options: opening_minimum (120 -> the rule book's 120 still opens, one point less would not) and
    # opening_pairs (4 -> four pairs open).
    melds = "R10 R11 R12 | K13 Y13 B13 | B1 B2 B3 | K9 K10 K11 K12"
    assert check_laid_opening(melds, indicator=R4, options=Okey101Options(opening_minimum=120)).opens
    assert not check_laid_opening(melds, indicator=R4, options=Okey101Options(opening_minimum=121)).opens
    reply = answer({"op": "meld", "game": "okey101", "indicator": R4, "tiles": "R3 R3 | K5 R5 | B8 B8 | Y11 Y11",
                    "options": {"opening_pairs": 4}})
    assert reply["opens"] is True


def test_H4_opening_ratchet_beat_means_more_than_for_melds_and_for_pairs() -> None:
    # Settled H4: "beat" means more than: after 120 the next needs 121; after 5 pairs the next needs 6; melds
    # and pairs are ratcheted separately (a pairs bar does not touch a melds opening).
    ratchet = {"opening_ratchet": True}
    melds = "R10 R11 R12 | K13 Y13 B13 | B1 B2 B3 | K9 K10 K11 K12"
    ask = {"op": "meld", "game": "okey101", "indicator": R4, "tiles": melds, "options": ratchet}
    assert answer({**ask, "highest_so_far": 119})["opens"] is True
    assert answer({**ask, "highest_so_far": 120})["opens"] is False
    assert answer({**ask, "most_pairs_so_far": 12})["opens"] is True
    pairs = "R3 R3 | K5 R5 | B8 B8 | Y11 Y11 | F F"
    assert answer({**ask, "tiles": pairs, "most_pairs_so_far": 5})["opens"] is False
    assert answer({**ask, "tiles": pairs + " | K1 K1", "most_pairs_so_far": 5})["opens"] is True
    assert answer({**ask, "tiles": pairs, "highest_so_far": 200})["opens"] is True


# ---------------------------------------------------------------------------------------------------------
# H7 penalties and O7 scoring


@pytest.mark.parametrize("reason", ["discarded_okey", "failed_opening", "islek", "take_back"])
def test_H7_each_penalty_reason_adds_101_and_is_never_doubled(store: TableStore, reason: str) -> None:
    # H7: +101 to the offender's hand entry, never multiplied — even when an okey-discard finish doubles the
    # hand (H6): player 2 keeps K7 -> 7 x 2 = 14, then + 101 = 115.
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234")
    store.record(table, {"type": "indicator", "tile": R4})
    state = store.record(table, {"type": "penalty", "player": 1, "reason": reason})
    assert state.totals == (0, 101, 0, 0)  # counts at once
    hand = {"finisher": 0, "finish": "okey_discard",
            "players": [{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "K7"},
                        {"opened": "melds", "rack": "B1"}, {"opened": "melds", "rack": "Y3"}]}
    state = store.record(table, {"type": "okey101_hand", "hand": hand})
    assert state.totals == (-202, 115, 2, 6)


def test_H7_penalty_points_option_and_bad_reasons(store: TableStore) -> None:
    # H7: the amount is option penalty_points; an unknown reason is refused naming the four known ones.
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", options={"penalty_points": 50})
    assert store.record(table, {"type": "penalty", "player": 3, "reason": "islek"}).totals == (0, 0, 0, 50)
    with pytest.raises(ValueError, match="discarded_okey, failed_opening, islek, take_back"):
        store.record(table, {"type": "penalty", "player": 3, "reason": "late"})


def test_O7_rule_book_example_and_what_okeys_count() -> None:
    # O7 example: R3 K7 = 10, B1 B2 = 3, Y3 Y9 = 12, the finisher 0.  An okey left counts its own face
    # (R5 = 5), F the okey's face (5).
    score = score_okey_points_hand({"indicator": R4, "finisher": 0, "racks": ["", "R3 K7", "B1 B2", "Y3 Y9"]})
    assert score.scores == (0, 10, 3, 12)
    score = score_okey_points_hand({"indicator": R4, "finisher": None, "racks": ["R5", "F", "R5 F", "K13"]})
    assert score.scores == (5, 5, 10, 13)


# ---------------------------------------------------------------------------------------------------------
# Seeded brute force (independent): O4/O5 win checks, H4 laid-meld values and rack values.

_COLOURS = "RYBK"


def _okey(indicator: str) -> str:
    return f"{indicator[0]}{int(indicator[1:]) % 13 + 1}"


def _windows(wrap: bool) -> list[tuple[int, ...]]:
    runs = [tuple(range(a, b + 1)) for a in range(1, 14) for b in range(a + 2, 14)]
    if wrap:
        runs += [tuple(range(a, 14)) + (1,) for a in range(2, 13)]  # 1 after 13, never also low
    return runs


_WINDOWS = {wrap: _windows(wrap) for wrap in (False, True)}


def _split(tiles: list[str], indicator: str) -> tuple[list[tuple[int, int]], int]:
    okey = _okey(indicator)
    faces, wilds = [], 0
    for tile in tiles:
        if tile == okey:
            wilds += 1
        else:
            face = okey if tile == "F" else tile
            faces.append((_COLOURS.index(face[0]), int(face[1:])))
    return faces, wilds


def _melds_through(first, counts, wilds, wrap):
    colour, number = first
    others = [c for c in range(4) if c != colour]
    for size in (2, 3):
        for cols in combinations(others, size):
            places = [(c, number) for c in cols]
            for need in range(min(wilds, size) + 1):
                for at in combinations(range(size), need):
                    real = [p for i, p in enumerate(places) if i not in at]
                    if all(counts[p] >= 1 for p in real):
                        yield [first, *real], need, number * (size + 1)
    for window in _WINDOWS[wrap]:
        if number in window:
            rest = [n for n in window if n != number]
            for need in range(min(wilds, len(rest)) + 1):
                for at in combinations(range(len(rest)), need):
                    real = [(colour, n) for i, n in enumerate(rest) if i not in at]
                    if all(counts[p] >= 1 for p in real):
                        yield [first, *real], need, sum(window)


def _key(counts: Counter) -> tuple:
    return tuple(sorted((f, k) for f, k in counts.items() if k > 0))


@lru_cache(maxsize=None)
def _splits(key: tuple, wilds: int, wrap: bool) -> bool:
    counts = Counter(dict(key))
    if not counts:
        return wilds == 0
    for used, need, _value in _melds_through(min(counts), counts, wilds, wrap):
        rest = counts.copy()
        rest.subtract(used)
        if min(rest.values(), default=0) >= 0 and _splits(_key(rest), wilds - need, wrap):
            return True
    return False


@lru_cache(maxsize=None)
def _best(key: tuple, wilds: int, wrap: bool) -> int:
    counts = Counter(dict(key))
    if not counts:
        return 0
    first = min(counts)
    rest = counts.copy()
    rest[first] -= 1
    best = _best(_key(rest), wilds, wrap)
    for used, need, value in _melds_through(first, counts, wilds, wrap):
        rest = counts.copy()
        rest.subtract(used)
        if min(rest.values(), default=0) >= 0:
            best = max(best, value + _best(_key(rest), wilds - need, wrap))
    return best


def _brute_wins(tiles: list[str], indicator: str, wrap: bool, okey_pairs: bool) -> bool:
    faces, wilds = _split(tiles, indicator)
    singles = sum(k % 2 for k in Counter(faces).values())
    spare = wilds - singles  # settled O5: an okey pairs a tile without a twin, or (option) another okey
    if spare >= 0 and (spare == 0 or (okey_pairs and spare % 2 == 0)):
        return True
    return _splits(_key(Counter(faces)), wilds, wrap)


def _pool(indicator: str) -> Counter:
    pool = Counter(f"{c}{n}" for c in _COLOURS for n in range(1, 14) for _ in range(2))
    pool["F"] = 2
    pool[indicator] -= 1  # the face-up indicator is one of its tile's copies (settled O1/O3)
    return pool


def _tile_for(colour: int, number: int, indicator: str) -> str:
    tile = f"{_COLOURS[colour]}{number}"
    return "F" if tile == _okey(indicator) else tile  # the okey's face is played by a false okey


def _random_meld(rng: random.Random, wrap: bool) -> list[tuple[int, int]]:
    if rng.random() < 0.35:
        number = rng.randint(1, 13)
        return [(c, number) for c in rng.sample(range(4), rng.choice((3, 4)))]
    window = rng.choice([w for w in _WINDOWS[wrap] if w[-1] == 1] if wrap and rng.random() < 0.3 else _WINDOWS[wrap])
    if len(window) > 7 and rng.random() < 0.6:
        start = rng.randrange(len(window) - 2)
        window = window[start:start + rng.randint(3, len(window) - start)]
    colour = rng.randrange(4)
    return [(colour, n) for n in window]


def _constructed(rng: random.Random, size: int, indicator: str, wrap: bool, swaps: int) -> list[str]:
    """Melds of exactly ``size`` tiles, then up to ``swaps`` tiles (mostly at meld ends) swapped for okeys."""
    okey = _okey(indicator)
    while True:
        pool, hand, melds = _pool(indicator), [], []
        for _ in range(60):
            tiles = [_tile_for(c, n, indicator) for c, n in _random_meld(rng, wrap)]
            need = Counter(tiles)
            if len(hand) + len(tiles) <= size and all(pool[t] >= k for t, k in need.items()):
                hand += tiles
                melds.append(tiles)
                pool.subtract(need)
            if len(hand) == size:
                break
        if len(hand) != size:
            continue
        for _ in range(swaps):
            if pool[okey] < 1:
                break
            meld = rng.choice(melds)
            at = rng.choice((0, len(meld) - 1)) if rng.random() < 0.7 else rng.randrange(len(meld))
            hand[hand.index(meld[at])] = okey
            pool[meld[at]] += 1
            pool[okey] -= 1
            meld[at] = okey
        return hand


def _near_miss(rng: random.Random, hand: list[str], indicator: str) -> list[str]:
    pool = _pool(indicator)
    pool.subtract(Counter(hand))
    hand = list(hand)
    hand[rng.randrange(len(hand))] = rng.choice(sorted(t for t, k in pool.items() if k > 0))
    return hand


def _pairs_hand(rng: random.Random, indicator: str, okeys: int) -> list[str]:
    okey = _okey(indicator)
    faces = sorted(t for t, k in _pool(indicator).items() if k >= 2 and t != okey)
    hand = [t for t in rng.sample(faces, 7) for _ in range(2)]
    for at in rng.sample(range(14), okeys):
        hand[at] = okey
    return hand


def _indicator(rng: random.Random) -> str:
    return f"{rng.choice(_COLOURS)}{rng.randint(1, 13)}"


def test_O5_check_win_agrees_with_a_brute_force_on_adversarial_hands() -> None:
    # O4/O5 on 700 seeded hands: melds with okeys swapped in at run ends, false okeys for the okey's face,
    # wrap runs, seven pairs with okeys, and near misses; both options varied.
    rng = random.Random(4301)
    wins = 0
    for _ in range(700):
        indicator, wrap, pairs_of_okeys = _indicator(rng), rng.random() < 0.5, rng.random() < 0.5
        family = rng.randrange(4)
        if family < 2:
            hand = _constructed(rng, 14, indicator, wrap, rng.randint(0, 2))
        else:
            hand = _pairs_hand(rng, indicator, rng.randint(0, 2))
        if family % 2:
            hand = _near_miss(rng, hand, indicator)
        expected = _brute_wins(hand, indicator, wrap, pairs_of_okeys)
        options = OkeyOptions(wrap_13_1=wrap, okey_pair_of_okeys=pairs_of_okeys)
        assert check_win(hand, indicator=indicator, options=options).winning == expected, (hand, indicator, wrap)
        wins += expected
    assert 200 < wins < 650


def test_O5_winning_discards_agree_with_the_brute_force() -> None:
    rng = random.Random(4302)
    for _ in range(40):
        indicator, wrap = _indicator(rng), rng.random() < 0.5
        hand = _constructed(rng, 14, indicator, wrap, rng.randint(0, 2))
        pool = _pool(indicator)
        pool.subtract(Counter(hand))
        hand.append(rng.choice(sorted(t for t, k in pool.items() if k > 0)))
        hand = _near_miss(rng, hand, indicator) if rng.random() < 0.3 else hand
        expected = {t for i, t in enumerate(hand) if _brute_wins(hand[:i] + hand[i + 1:], indicator, wrap, True)}
        found = winning_discards(hand, indicator=indicator, options=OkeyOptions(wrap_13_1=wrap))
        assert {d.tile.code for d in found.discards} == expected, (hand, indicator, wrap)
        assert found.okey_discard == (_okey(indicator) in expected)


_ALL_FACES = [(c, n) for c in range(4) for n in range(1, 14)]


def _brute_laid(tiles: list[str], indicator: str, wrap: bool) -> int | None:
    """The most valuable legal reading of a laid meld: each okey given every face, the run read either way."""
    okey = _okey(indicator)
    slots = [None if t == okey else (_COLOURS.index((okey if t == "F" else t)[0]), int((okey if t == "F" else t)[1:]))
             for t in tiles]
    holes = [i for i, s in enumerate(slots) if s is None]
    windows = set(_WINDOWS[wrap])
    best = None
    for faces in product(_ALL_FACES, repeat=len(holes)):
        seq = list(slots)
        for i, face in zip(holes, faces):
            seq[i] = face
        colours, numbers = [c for c, _ in seq], tuple(n for _, n in seq)
        legal = (3 <= len(seq) <= 4 and len(set(numbers)) == 1 and len(set(colours)) == len(seq)) or (
            len(set(colours)) == 1 and (numbers in windows or numbers[::-1] in windows))
        if legal and (best is None or sum(numbers) > best):
            best = sum(numbers)
    return best


def test_H4_laid_meld_values_agree_with_the_brute_force() -> None:
    # H4 + settled reading: a laid meld's value is its most valuable legal reading in table order (run either
    # way, okey = the tile it stands for, F = the okey's face, 1 after 13 worth 1).
    rng = random.Random(4303)
    legal = 0
    for _ in range(1200):
        indicator, wrap = _indicator(rng), rng.random() < 0.5
        okey = _okey(indicator)
        tiles = [_tile_for(c, n, indicator) for c, n in _random_meld(rng, True)]
        tiles = tiles[::-1] if rng.random() < 0.5 else tiles
        if len(tiles) > 6:
            tiles = tiles[: rng.randint(3, 6)]
        for _ in range(rng.randint(0, 2)):
            tiles[rng.randrange(len(tiles))] = okey
        if rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = rng.choice(sorted(t for t, k in _pool(indicator).items() if k))
        counts = Counter(tiles)
        if max(counts.values()) > 2 or counts[indicator] > 1:
            continue
        expected = _brute_laid(tiles, indicator, wrap)
        verdict = check_laid_meld(tiles, indicator=indicator, wrap_13_1=wrap)
        assert (verdict.value if verdict.valid else None) == expected, (tiles, indicator, wrap, verdict.reason)
        legal += expected is not None
    assert legal > 500


def test_H4_best_opening_value_agrees_with_the_brute_force() -> None:
    # H4: the most face value of disjoint melds in a rack, okeys at the tile they stand for.
    rng = random.Random(4304)
    for _ in range(80):
        indicator, wrap = _indicator(rng), rng.random() < 0.5
        rack = _constructed(rng, rng.choice((10, 14)), indicator, wrap, rng.randint(0, 2))
        rack = _near_miss(rng, rack, indicator) if rng.random() < 0.5 else rack
        faces, wilds = _split(rack, indicator)
        opening = best_opening(rack, indicator=indicator, options=Okey101Options(wrap_13_1=wrap))
        assert opening.value == _best(_key(Counter(faces)), wilds, wrap), (rack, indicator, wrap)
        laid = " | ".join(" ".join(t.code for t in meld.tiles) for meld in opening.melds)
        if laid:  # what the rack check proposes, laid on the table in that order, is worth the same
            assert check_laid_opening(laid, indicator=indicator, options=Okey101Options(wrap_13_1=wrap)).total == \
                opening.value
