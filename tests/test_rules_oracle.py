"""The fast searches agree with the brute force of tests/oracle.py on seeded hands (O5, H4, H6).

Families: random draws, constructed melds (some tiles swapped for okeys and false okeys), near
misses (one tile changed), seven pairs, and adversarial racks (both okeys, both false okeys,
duplicated near runs).  Hands with more wilds than the oracle can enumerate quickly are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

import oracle
from companion.rules.melds import Wilds
from companion.rules.opening import best_opening, max_pairs, min_leftover_penalty
from companion.rules.options import Okey101Options, OkeyOptions
from companion.rules.tiles import parse_tiles
from companion.rules.win import check_win, winning_discards

Family = Callable[[random.Random, str, bool], list[str]]


def _fourteen(rng: random.Random, indicator: str, wrap: bool) -> list[str]:
    family = rng.randrange(5)
    if family == 0:
        return oracle.random_hand(rng, 14, indicator)
    if family == 1:
        return oracle.constructed_hand(rng, 14, indicator, wrap, rng.randint(0, 2))
    if family == 2:
        return oracle.near_miss(rng, oracle.constructed_hand(rng, 14, indicator, wrap, rng.randint(0, 2)), indicator)
    if family == 3:
        return oracle.pairs_hand(rng, indicator, rng.randint(0, 2))
    return oracle.near_miss(rng, oracle.pairs_hand(rng, indicator, rng.randint(0, 2)), indicator)


def _hands(seed: int, count: int, make: Family, max_wilds: int) -> Iterator[tuple[str, str, bool, list, int]]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        indicator = oracle.random_indicator(rng)
        wrap = rng.random() < 0.5
        hand = make(rng, indicator, wrap)
        faces, wilds = oracle.split_hand(parse_tiles(" ".join(hand)), Wilds.from_indicator(indicator))
        if wilds <= max_wilds:
            made += 1
            yield " ".join(hand), indicator, wrap, faces, wilds


@pytest.mark.parametrize(("seed", "max_wilds", "count"), [(0, 1, 500), (1, 1, 500), (2, 1, 500), (3, 2, 80), (4, 2, 80)])
def test_O5_check_win_matches_oracle(seed: int, max_wilds: int, count: int) -> None:
    winners = 0
    for hand, indicator, wrap, faces, wilds in _hands(seed, count, _fourteen, max_wilds):
        pairs_of_okeys = wilds != 2 or seed % 2 == 0
        options = OkeyOptions(wrap_13_1=wrap, okey_pair_of_okeys=pairs_of_okeys)
        expected = oracle.wins(faces, wilds, wrap, pairs_of_okeys)
        assert check_win(hand, indicator=indicator, options=options).winning == expected, (hand, indicator, wrap)
        winners += expected
    assert winners > 20  # the families really do produce wins


def test_O5_winning_discards_match_oracle() -> None:
    def fifteen(rng: random.Random, indicator: str, wrap: bool) -> list[str]:
        hand = _fourteen(rng, indicator, wrap)
        extra = oracle.near_miss(rng, hand, indicator)[: 1]
        copies = 1 if extra[0] == indicator else 2  # the face-up indicator is the other copy (O3)
        return hand + extra if (hand + extra).count(extra[0]) <= copies else hand + ["F"]

    for hand, indicator, wrap, _faces, _wilds in _hands(10, 40, fifteen, 1):
        tiles = parse_tiles(hand)
        if sum(1 for t in tiles if t.is_false_okey) > 2:
            continue
        options = OkeyOptions(wrap_13_1=wrap)
        wilds = Wilds.from_indicator(indicator)
        expected = set()
        for i, tile in enumerate(tiles):
            rest = tiles[:i] + tiles[i + 1 :]
            faces, count = oracle.split_hand(rest, wilds)
            if oracle.wins(faces, count, wrap, True):
                expected.add(tile.code)
        found = winning_discards(tiles, indicator=indicator, options=options)
        assert {d.tile.code for d in found.discards} == expected, (hand, indicator, wrap)


def _rack(size: int) -> Family:
    def make(rng: random.Random, indicator: str, wrap: bool) -> list[str]:
        family = rng.randrange(4)
        if family == 0:
            return oracle.random_hand(rng, size, indicator)
        if family == 1:
            return oracle.constructed_hand(rng, size, indicator, wrap, rng.randint(0, 2))
        if family == 2:
            return oracle.near_miss(rng, oracle.constructed_hand(rng, size, indicator, wrap, 2), indicator)
        return oracle.adversarial_hand(rng, size, indicator)

    return make


@pytest.mark.parametrize(
    ("size", "max_wilds", "count"),
    [(22, 0, 60), (22, 1, 8), (14, 1, 25), (10, 2, 10), (7, 2, 12)],
)
def test_H4_best_opening_matches_oracle(size: int, max_wilds: int, count: int) -> None:
    for hand, indicator, wrap, faces, wilds in _hands(size * 7 + max_wilds, count, _rack(size), max_wilds):
        opening = best_opening(hand, indicator=indicator, options=Okey101Options(wrap_13_1=wrap))
        assert opening.value == oracle.best_value(faces, wilds, wrap), (hand, indicator, wrap)
        assert sum(m.value for m in opening.melds) == opening.value
        laid = [t for m in opening.melds for t in m.tiles] + list(opening.leftover)
        assert sorted(t.code for t in laid) == sorted(hand.split())


@pytest.mark.parametrize("max_wilds", [0, 1, 2])
def test_H4_max_pairs_match_oracle(max_wilds: int) -> None:
    for hand, indicator, _wrap, faces, wilds in _hands(40 + max_wilds, 80, _rack(10), max_wilds):
        for okey_pairs in (True, False):
            expected = oracle.max_pairs(faces, wilds, okey_pairs)
            assert max_pairs(hand, indicator=indicator, okey_pair_of_okeys=okey_pairs) == expected, hand


def test_H6_min_leftover_penalty_matches_oracle() -> None:
    for hand, indicator, wrap, faces, wilds in _hands(77, 15, _rack(7), 2):
        total = sum(n for _, n in faces) + 101 * wilds
        expected = total - oracle.best_saving(faces, wilds, wrap, 101)
        assert min_leftover_penalty(hand, indicator=indicator, wrap_13_1=wrap) == expected, (hand, indicator)
