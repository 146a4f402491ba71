"""The formal deal: RULES.md O2 (Okey) and H2 (Okey 101)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.rules import InvalidDealError, InvalidOptionError, options_for
from companion.rules.deal import (
    DealPlan,
    default_stacks_in_front,
    next_dealer,
    plan_deal,
    reroll_indicator,
    roll_deal,
)


def received(plan: DealPlan) -> list[int]:
    counts = [0] * plan.players
    for take in plan.takes:
        counts[take.seat] += take.count
    return counts


def taken_per_stack(plan: DealPlan) -> Counter[int]:
    counts: Counter[int] = Counter()
    for take in plan.takes:
        counts[take.stack] += take.count
    return counts


def test_O2_seed_worked_example() -> None:
    # Seed 000: dealer = player 1, rolls 5 then 2; players are 1-based there, seats 0-based here.
    plan = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2)
    assert plan.chosen_stack == 4 and plan.stacks[4].owner == 0 and plan.stacks[4].tiles == 6
    assert plan.indicator_from_bottom == 2
    steps = [(t.seat + 1, t.letter, t.count, t.part) for t in plan.takes]
    assert steps == [
        (2, "a", 5, "whole"),
        (3, "b", 5, "whole"),
        (4, "c", 5, "whole"),
        (1, "d", 5, "whole"),
        (2, "e", 5, "whole"),
        (3, "f", 5, "whole"),
        (4, "g", 5, "whole"),
        (1, "h", 5, "whole"),
        (2, "i", 5, "whole"),
        (3, "j", 4, "top"),
        (4, "j", 1, "bottom"),
        (4, "k", 3, "top"),
        (1, "k", 2, "bottom"),
        (1, "l", 2, "top"),
    ]
    # Stack a is the one to the right of the chosen one: the dealer's 6th stack.
    assert [s.letter for s in plan.stacks[4:18]] == [None, *"abcdefghijkl", None]
    assert plan.tiles_per_seat == (14, 15, 14, 14) and received(plan) == [14, 15, 14, 14]
    assert plan.starter == 1
    assert [t.order for t in plan.takes] == list(range(len(plan.takes)))


def test_O2_explain_walks_the_table_through_it() -> None:
    lines = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2).explain()
    assert "the 5th stack counted from the dealer's left" in lines[1]
    assert "2nd tile from the bottom" in lines[2]
    assert "Player 2 takes stack a." in lines
    assert "Player 3 takes the top 4 tiles of stack j." in lines
    assert "Player 4 takes the last tile of stack j." in lines
    assert "Player 1 takes the last 2 tiles of stack k." in lines
    assert lines[-1].startswith("Player 2 has 15 tiles and starts")


def test_O2_1_default_stacks_the_dealer_has_the_extra_ones() -> None:
    assert default_stacks_in_front(4, 0) == (6, 5, 5, 5)
    assert default_stacks_in_front(4, 2) == (5, 5, 6, 5)
    assert default_stacks_in_front(3, 1) == (7, 7, 7)
    assert default_stacks_in_front(2, 1) == (10, 11)
    plan = plan_deal(players=4, dealer=2, first_roll=1, second_roll=1)
    assert [s.owner for s in plan.stacks] == [2] * 6 + [3] * 5 + [0] * 5 + [1] * 5


def test_O2_1_the_deal_passes_to_the_right() -> None:
    assert [next_dealer(d, 4) for d in range(4)] == [1, 2, 3, 0]
    assert next_dealer(2, 3) == 0
    with pytest.raises(InvalidDealError, match="invalid dealer seat 4"):
        next_dealer(4, 4)


def test_O2_2_a_roll_beyond_the_dealers_stacks_continues_to_the_right() -> None:
    plan = plan_deal(players=4, dealer=1, first_roll=6, second_roll=3, stacks_in_front=[5, 4, 6, 6])
    assert plan.chosen_stack == 5 and plan.stacks[5].owner == 2
    assert "counting continues into the stacks in front of player 3" in plan.explain()[1]
    assert plan.takes[0].stack == 6 and plan.takes[0].seat == 2


def test_O2_2_counting_continues_past_a_seat_without_stacks() -> None:
    plan = plan_deal(players=2, dealer=0, first_roll=6, second_roll=1, stacks_in_front=[0, 21])
    assert plan.chosen_stack == 5 and plan.stacks[5].owner == 1
    assert received(plan) == [14, 15]


def test_O2_4_distribution_wraps_past_the_last_stack() -> None:
    plan = plan_deal(players=4, dealer=0, first_roll=6, second_roll=4, stacks_in_front=[21, 0, 0, 0])
    takes = [t.stack for t in plan.takes]
    assert plan.chosen_stack == 5 and takes[0] == 6 and takes[-1] == 17
    plan = plan_deal(players=4, dealer=0, first_roll=6, second_roll=4, game="okey101")
    assert [t.stack for t in plan.takes][-1] == (5 + 17) % 21 == 1
    assert plan.stacks[1].letter == "q"


def test_O2_every_stack_gives_at_most_its_tiles_and_the_chosen_one_none() -> None:
    for players in (2, 3, 4):
        for dealer in range(players):
            for roll in range(1, 7):
                for game in ("okey", "okey101"):
                    plan = plan_deal(players=players, dealer=dealer, first_roll=roll, second_roll=1, game=game)
                    per_stack = taken_per_stack(plan)
                    assert plan.chosen_stack is not None and plan.chosen_stack not in per_stack
                    assert all(count <= 5 for count in per_stack.values())
                    assert received(plan) == list(plan.tiles_per_seat)
                    # Takes walk the stacks in order, without skipping any.
                    stacks = list(dict.fromkeys(t.stack for t in plan.takes))
                    assert stacks == [(plan.chosen_stack + k) % 21 for k in range(1, len(stacks) + 1)]


def test_O2_3_false_okey_reroll_changes_only_the_indicator() -> None:
    plan = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2)
    again = reroll_indicator(plan, 6)
    assert again.indicator_from_bottom == 6 and again.rolls == (5, 6)
    assert again.takes == plan.takes and again.stacks == plan.stacks
    assert "6th tile from the bottom" in again.explain()[2]
    with pytest.raises(InvalidDealError, match="invalid second roll 0"):
        reroll_indicator(plan, 0)


def test_O2_5_two_players() -> None:
    plan = plan_deal(players=2, dealer=0, first_roll=3, second_roll=3)
    steps = [(t.seat, t.count, t.part) for t in plan.takes]
    assert steps == [(1, 5, "whole"), (0, 5, "whole")] * 2 + [(1, 5, "whole"), (0, 4, "top")]
    assert plan.tiles_per_seat == (14, 15)


def test_O2_5_three_players() -> None:
    plan = plan_deal(players=3, dealer=2, first_roll=1, second_roll=5)
    assert plan.starter == 0
    steps = [(t.seat, t.letter, t.count, t.part) for t in plan.takes[6:]]
    assert steps == [(0, "g", 5, "whole"), (1, "h", 4, "top"), (2, "h", 1, "bottom"), (2, "i", 3, "top")]
    assert plan.tiles_per_seat == (15, 14, 14)


def test_O2_6_quick_deal_has_no_stacks() -> None:
    options = options_for("okey", {"quick_deal": True})
    plan = plan_deal(players=4, dealer=2, options=options)
    assert plan.stacks == () and plan.takes == () and plan.rolls is None and plan.chosen_stack is None
    assert plan.tiles_per_seat == (14, 14, 14, 15)
    assert "Quick deal" in plan.explain()[0]
    with pytest.raises(InvalidDealError, match="quick deal"):
        reroll_indicator(plan, 3)
    assert roll_deal(players=4, dealer=2, rng=random.Random(1), options=options).quick


def test_H2_starter_right_of_dealer_gets_22() -> None:
    plan = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2, game="okey101")
    assert plan.starter == 1 and plan.tiles_per_seat == (21, 22, 21, 21)
    whole = [t for t in plan.takes if t.part == "whole"]
    assert len(whole) == 16 and [t.seat for t in whole[:4]] == [1, 2, 3, 0]
    tail = [(t.seat, t.letter, t.count, t.part) for t in plan.takes[16:]]
    assert tail == [(1, "q", 2, "top"), (2, "q", 1, "top"), (3, "q", 1, "top"), (0, "q", 1, "bottom")]


def test_H2_starter_dealer_option() -> None:
    options = options_for("okey101", {"starter": "dealer"})
    plan = plan_deal(players=4, dealer=3, first_roll=2, second_roll=2, game="101", options=options)
    assert plan.starter == 3 and plan.tiles_per_seat == (21, 21, 21, 22)
    assert plan.takes[0].seat == 3 and received(plan) == [21, 21, 21, 22]
    assert plan.explain()[-1].startswith("Player 4 has 22 tiles")


@pytest.mark.parametrize("players", [2, 3])
def test_H2_fewer_players(players: int) -> None:
    plan = plan_deal(players=players, dealer=0, first_roll=4, second_roll=1, game="okey101")
    assert received(plan) == [22 if seat == 1 else 21 for seat in range(players)]


def test_roll_deal_uses_the_injected_dice() -> None:
    dice = random.Random(7)
    first, second = dice.randint(1, 6), dice.randint(1, 6)
    plan = roll_deal(players=4, dealer=1, rng=random.Random(7))
    assert plan.rolls == (first, second)
    assert plan == plan_deal(players=4, dealer=1, first_roll=first, second_roll=second)


def test_to_dict_is_plain_json() -> None:
    data = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2).to_dict()
    assert data["rolls"] == [5, 2] and data["chosen_stack"] == 4 and data["starter"] == 1
    assert data["takes"][9] == {"order": 9, "seat": 2, "stack": 14, "letter": "j", "count": 4, "part": "top"}
    assert data["stacks"][4] == {"index": 4, "owner": 0, "tiles": 6, "letter": None}
    assert data["explain_detail"][1]["key"] == "deal.first_roll"
    assert data["explain_detail"][1]["params"] == {"roll": 5, "stack": 4, "owner": 0}
    assert len(data["explain"]) == len(data["explain_detail"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"first_roll": 7}, "invalid first roll 7: a die shows 1-6"),
        ({"first_roll": 0}, "invalid first roll 0"),
        ({"second_roll": True}, "invalid second roll True"),
        ({"second_roll": None}, "needs both dice rolls"),
        ({"players": 5}, "invalid number of players 5"),
        ({"players": 1}, "invalid number of players 1"),
        ({"dealer": 4}, r"invalid dealer seat 4: with 4 players the seats are 0-3"),
        ({"dealer": -1}, "invalid dealer seat -1"),
        ({"stacks_in_front": [6, 5, 5, 4]}, r"invalid stacks in front \[6, 5, 5, 4\]"),
        ({"stacks_in_front": [21, 0, 0]}, "one count per seat"),
        ({"stacks_in_front": [22, -1, 0, 0]}, "none negative"),
    ],
)
def test_O2_bad_deal_input(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"players": 4, "dealer": 0, "first_roll": 3, "second_roll": 3}
    arguments.update(kwargs)
    with pytest.raises(InvalidDealError, match=message):
        plan_deal(**arguments)  # type: ignore[arg-type]


def test_options_must_match_the_game() -> None:
    with pytest.raises(InvalidOptionError, match="are not okey101 options"):
        plan_deal(players=4, dealer=0, first_roll=1, second_roll=1, game="okey101", options=options_for("okey"))
    with pytest.raises(InvalidOptionError, match="unknown game 'chess'"):
        plan_deal(players=4, dealer=0, first_roll=1, second_roll=1, game="chess")
