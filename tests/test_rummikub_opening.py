"""Rummikub's ``opening`` (R3): the most a rack's initial meld can be worth, against an oracle written from the rule
book that tries every way of cutting the rack into melds.

R2: a set is three or four tiles of one number in different colours, a run three or more consecutive numbers of
one colour (1 never follows 13 unless ``wrap_13_1``); a joker stands for any tile.  R3: the initial meld is made of
rack tiles alone, worth the sum of its numbers, a joker counting as the tile it stands for.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from companion.cli import main
from companion.rules.errors import RulesError
from companion.rules.rummikub import RummikubOptions, check_meld, opening


def _meld_worth(tiles: tuple[str, ...]) -> int | None:
    """The most ``tiles`` are worth as one meld, or None where they make none (R2), jokers placed at best."""
    jokers = tiles.count("J")
    real = [(tile[0], int(tile[1:])) for tile in tiles if tile != "J"]
    if len(tiles) < 3 or not real:
        return None
    worths = []
    numbers = {number for _, number in real}
    colours = [colour for colour, _ in real]
    if len(numbers) == 1 and len(set(colours)) == len(colours) and len(tiles) <= 4:
        worths.append(numbers.pop() * len(tiles))
    if len(set(colours)) == 1 and len({n for _, n in real}) == len(real):
        length = len(tiles)
        for start in range(1, 15 - length):
            if all(start <= n < start + length for _, n in real):
                worths.append(sum(range(start, start + length)))
    del jokers
    return max(worths, default=None)


def _oracle(rack: list[str]) -> int:
    """The most any set of disjoint melds of ``rack`` is worth (0: no meld at all)."""
    count = len(rack)

    @lru_cache(maxsize=None)
    def best(mask: int) -> int:
        if not mask:
            return 0
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        result = best(rest)  # the first tile left in the rack
        sub = rest
        while True:  # every meld holding the first tile: it and any subset of the rest
            meld = sub | (1 << first)
            if bin(meld).count("1") >= 3:
                worth = _meld_worth(tuple(rack[i] for i in range(count) if meld >> i & 1))
                if worth is not None:
                    result = max(result, worth + best(mask & ~meld))
            if not sub:
                break
            sub = (sub - 1) & rest
        return result

    return best((1 << count) - 1)


def _random_rack(rng: random.Random) -> list[str]:
    low = rng.randint(1, 10)
    numbers = list(range(low, min(13, low + rng.randint(2, 5)) + 1))
    colours = rng.sample("RYBK", rng.randint(1, 4))
    pool = [f"{c}{n}" for c in colours for n in numbers] * 2 + ["J", "J"]
    return rng.sample(pool, min(len(pool), rng.randint(3, 10)))


@pytest.mark.parametrize("seed", range(4))
def test_R3_best_initial_meld_agrees_with_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        rack = _random_rack(rng)
        result = opening({"tiles": " ".join(rack)})
        assert result["value"] == _oracle(rack), rack
        assert result["opens"] == (result["value"] >= 30)
        laid = [tile for meld in result["melds"] for tile in meld]
        assert sorted(laid + result["left"].split()) == sorted(rack)
        verdicts = [check_meld(" ".join(meld)) for meld in result["melds"]]
        assert all(verdict.valid for verdict in verdicts), result["melds"]
        assert sum(verdict.value for verdict in verdicts) == result["value"]


def test_R3_jokers_count_as_the_best_tile_they_can_stand_for() -> None:
    """The lay-down that lays the most points (a joker 30 wherever it lies) counts the joker as K4 here; the
    best initial meld puts it after R12, as R13."""
    result = opening({"tiles": "R10 R11 R12 K1 K2 K3 J B5"})
    assert result["value"] == 10 + 11 + 12 + 13 + 1 + 2 + 3
    assert result["melds"] == [["R10", "R11", "R12", "J"], ["K1", "K2", "K3"]]
    assert result["left"] == "B5"


def test_R3_the_minimum_is_the_tables_option() -> None:
    rack = {"tiles": "R10 R11 R12 B9"}
    assert opening(rack)["opens"] is True
    fifty = opening(rack, RummikubOptions(initial_meld=50))
    assert (fifty["value"], fifty["opens"], fifty["minimum"]) == (33, False, 50)


def test_R2_wrap_13_1_lets_a_run_turn_the_corner() -> None:
    assert opening({"tiles": "R12 R13 R1"})["value"] == 0
    assert opening({"tiles": "R12 R13 R1"}, RummikubOptions(wrap_13_1=True))["value"] == 26


def test_a_rack_without_melds_and_bad_racks() -> None:
    none = opening({"tiles": "R1 B5 K9"})
    assert (none["value"], none["melds"], none["opens"], none["left"]) == (0, [], False, "R1 B5 K9")
    for bad in ({"tiles": "J J J R1"}, {"tiles": "R14"}, {}, {"tiles": "R1", "rack": "R2"}):
        with pytest.raises(RulesError):
            opening(bad)


def test_the_command_line_answers_opening_for_rummikub(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["opening", "--game", "rummikub", "R10", "R11", "R12", "K1", "K2", "K3", "J", "B5"]) == 0
    out = capsys.readouterr().out
    assert "best opening: 52 points (opens with melds)" in out
    assert "melds: R10 R11 R12 J | K1 K2 K3" in out and "left: B5" in out
    assert main(["opening", "--game", "rummikub", "-o", "initial_meld=50", "R10", "R11", "R12", "B9"]) == 0
    assert "33 points (does not open" in capsys.readouterr().out
