"""A slow, obviously correct brute force for the rules engine's searches (the "perft" of rummy).

It shares nothing with ``companion.rules._search``: every wild is given every face in turn (or left
unused), and the concrete tiles are split by trying every legal meld that holds the first tile,
runs of any length straight from the definition of O4.  Tiles here are ``(colour, number)`` pairs
with colour 0-3 and number 1-13; a wild is ``None``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from companion.rules.melds import Wilds
from companion.rules.tiles import Tile

Face = tuple[int, int]
ALL_FACES: tuple[Face, ...] = tuple((c, n) for c in range(4) for n in range(1, 14))


def split_hand(tiles: Sequence[Tile], wilds: Wilds) -> tuple[list[Face], int]:
    """The plain faces (a false okey as the okey's face) and the number of wilds."""
    faces: list[Face] = []
    count = 0
    for tile in tiles:
        if wilds.is_wild(tile):
            count += 1
        else:
            face = wilds.face(tile)
            faces.append(("RYBK".index(face.code[0]), face.number))
    return faces, count


def run_numbers(wrap: bool) -> list[tuple[int, ...]]:
    """Every legal run as its numbers: 3+ consecutive, 1 low or (with wrap) right after 13."""
    runs = [tuple(range(a, b + 1)) for a in range(1, 14) for b in range(a + 2, 14)]
    if wrap:
        runs += [tuple(range(a, 14)) + (1,) for a in range(2, 13)]
    return runs


def legal_melds_with(first: Face, tiles: Counter[Face], wrap: bool) -> Iterator[tuple[Face, ...]]:
    """Every legal meld made of ``tiles`` (a multiset) that contains ``first``."""
    colour, number = first
    others = [c for c in range(4) if c != colour and tiles[(c, number)]]
    for size in (2, 3):
        for chosen in combinations(others, size):
            yield (first, *((c, number) for c in chosen))
    for numbers in run_numbers(wrap):
        if number in numbers:
            meld = tuple((colour, n) for n in numbers)
            if all(tiles[f] >= 1 for f in meld):
                yield meld


def _key(tiles: Counter[Face]) -> tuple[tuple[Face, int], ...]:
    return tuple(sorted((f, k) for f, k in tiles.items() if k))


@lru_cache(maxsize=None)
def _splits(key: tuple[tuple[Face, int], ...], wrap: bool) -> bool:
    tiles = Counter(dict(key))
    if not tiles:
        return True
    first = min(tiles)
    for meld in legal_melds_with(first, tiles, wrap):
        rest = tiles.copy()
        rest.subtract(meld)
        if _splits(_key(rest), wrap):
            return True
    return False


def wild_assignments(count: int) -> Iterator[tuple[Face, ...]]:
    """Every multiset of faces the wilds can stand for."""
    return combinations_with_replacement(ALL_FACES, count)


def splits_into_melds(faces: Sequence[Face], wilds: int, wrap: bool) -> bool:
    """Whether the tiles split into melds for some faces given to the wilds."""
    return any(
        _splits(_key(Counter([*faces, *extra])), wrap) for extra in wild_assignments(wilds)
    )


def seven_pairs(faces: Sequence[Face], wilds: int, okey_pairs: bool) -> bool:
    """Whether the tiles pair up: two equal faces, a face and a wild, or two wilds if allowed."""
    tiles: list[Face | None] = [*faces, *([None] * wilds)]

    def pairable(rest: list[Face | None]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            both_wild = first is None and other is None
            if (first == other and not both_wild) or (first is None) != (other is None) or (both_wild and okey_pairs):
                if pairable(others[:i] + others[i + 1 :]):
                    return True
        return False

    return pairable(tiles)


def wins(faces: Sequence[Face], wilds: int, wrap: bool, okey_pairs: bool) -> bool:
    """O5: 14 tiles in melds or in seven pairs."""
    return seven_pairs(faces, wilds, okey_pairs) or splits_into_melds(faces, wilds, wrap)


@lru_cache(maxsize=None)
def _best(key: tuple[tuple[Face, int], ...], wrap: bool) -> int:
    tiles = Counter(dict(key))
    if not tiles:
        return 0
    first = min(tiles)
    rest = tiles.copy()
    rest[first] -= 1
    best = _best(_key(rest), wrap)
    for meld in legal_melds_with(first, tiles, wrap):
        rest = tiles.copy()
        rest.subtract(meld)
        best = max(best, sum(n for _, n in meld) + _best(_key(rest), wrap))
    return best


def best_value(faces: Sequence[Face], wilds: int, wrap: bool) -> int:
    """H4: the most face value of disjoint melds; each wild stands for any face or is left out."""
    best = 0
    for used in range(wilds + 1):
        for extra in wild_assignments(used):
            best = max(best, _best(_key(Counter([*faces, *extra])), wrap))
    return best


def best_saving(faces: Sequence[Face], wilds: int, wrap: bool, wild_worth: int) -> int:
    """What melds take out of the rack, real faces at face value and each melded wild at ``wild_worth``."""
    best = 0
    tagged = [(f, False) for f in faces]
    for used in range(wilds + 1):
        for extra in wild_assignments(used):
            best = max(best, _saving(tuple(sorted(tagged + [(f, True) for f in extra])), wrap, wild_worth))
    return best


@lru_cache(maxsize=None)
def _saving(tiles: tuple[tuple[Face, bool], ...], wrap: bool, wild_worth: int) -> int:
    if not tiles:
        return 0
    (first, first_wild), rest = tiles[0], list(tiles[1:])
    best = _saving(tuple(rest), wrap, wild_worth)
    counts = Counter(f for f, _ in tiles)
    for meld in legal_melds_with(first, counts, wrap):
        others = list(meld)
        others.remove(first)
        for choice in _pick(others, rest):
            left = list(rest)
            for item in choice:
                left.remove(item)
            taken = [(first, first_wild), *choice]
            worth = sum(wild_worth if wild else face[1] for face, wild in taken)
            best = max(best, worth + _saving(tuple(left), wrap, wild_worth))
    return best


def _pick(faces: Sequence[Face], pool: list[tuple[Face, bool]]) -> Iterator[list[tuple[Face, bool]]]:
    """Every way to take one tile per face from ``pool`` (real or wild copy)."""
    if not faces:
        yield []
        return
    for option in {item for item in pool if item[0] == faces[0]}:
        rest = list(pool)
        rest.remove(option)
        for tail in _pick(faces[1:], rest):
            yield [option, *tail]


def max_pairs(faces: Sequence[Face], wilds: int, okey_pairs: bool) -> int:
    """H4 pairs route: the size of the largest set of disjoint pairs."""
    tiles: list[Face | None] = [*faces, *([None] * wilds)]

    def most(rest: list[Face | None]) -> int:
        if len(rest) < 2:
            return 0
        first, others = rest[0], rest[1:]
        best = most(others)
        for i, other in enumerate(others):
            both_wild = first is None and other is None
            if (first == other and not both_wild) or (first is None) != (other is None) or (both_wild and okey_pairs):
                best = max(best, 1 + most(others[:i] + others[i + 1 :]))
        return best

    return most(tiles)


# Seeded hand families, shared by the oracle tests and scripts/bench_rules.py.

FULL_SET: tuple[str, ...] = tuple(f"{c}{n}" for c in "RYBK" for n in range(1, 14) for _ in range(2)) + ("F", "F")


def random_indicator(rng: random.Random) -> str:
    return f"{rng.choice('RYBK')}{rng.randint(1, 13)}"


def random_hand(rng: random.Random, size: int, indicator: str) -> list[str]:
    """``size`` tiles drawn from a full set less the indicator."""
    pool = list(FULL_SET)
    pool.remove(indicator)
    return rng.sample(pool, size)


def _random_meld(rng: random.Random, wrap: bool) -> list[str]:
    colour = rng.choice("RYBK")
    if rng.random() < 0.4:
        number = rng.randint(1, 13)
        return [f"{c}{number}" for c in rng.sample("RYBK", rng.choice((3, 3, 4)))]
    numbers = rng.choice(run_numbers(wrap))
    if len(numbers) > 6:
        start = rng.randrange(len(numbers) - 2)
        numbers = numbers[start : start + rng.randint(3, min(6, len(numbers) - start))]
        if len(numbers) < 3:
            numbers = (1, 2, 3)
    return [f"{colour}{n}" for n in numbers]


def constructed_hand(rng: random.Random, size: int, indicator: str, wrap: bool, wild_swaps: int) -> list[str]:
    """Melds of exactly ``size`` tiles (a win when ``size`` is 14), up to ``wild_swaps`` tiles
    swapped for okeys or false okeys."""
    okey = f"{indicator[0]}{int(indicator[1:]) % 13 + 1}"
    while True:
        pool = Counter(FULL_SET)
        pool[indicator] -= 1
        hand: list[str] = []
        for _ in range(40):
            meld = _random_meld(rng, wrap)
            if len(hand) + len(meld) <= size and all(pool[t] >= 1 for t in meld) and okey not in meld:
                hand += meld
                pool.subtract(meld)
            if len(hand) == size:
                break
        if len(hand) != size:
            continue
        for _ in range(wild_swaps):
            spare = [t for t in (okey, "F") if pool[t] >= 1]
            if spare:
                choice = rng.choice(spare)
                victim = rng.randrange(size)
                pool[hand[victim]] += 1
                hand[victim] = choice
                pool[choice] -= 1
        rng.shuffle(hand)
        return hand


def pairs_hand(rng: random.Random, indicator: str, wilds: int) -> list[str]:
    """Seven pairs, ``wilds`` of whose tiles are okeys."""
    okey = f"{indicator[0]}{int(indicator[1:]) % 13 + 1}"
    faces = rng.sample([t for t in FULL_SET[::2] if t not in (indicator, okey)], 7)
    hand = [t for f in faces for t in (f, f)]
    for i in range(wilds):
        hand[2 * i + 1] = okey
    rng.shuffle(hand)
    return hand


def near_miss(rng: random.Random, hand: list[str], indicator: str) -> list[str]:
    """``hand`` with one tile swapped for a random other tile (at most two copies of any)."""
    while True:
        changed = list(hand)
        changed[rng.randrange(len(hand))] = rng.choice(FULL_SET)
        counts = Counter(changed)
        if all(k <= 2 for k in counts.values()) and counts[indicator] <= 1:
            return changed


def adversarial_hand(rng: random.Random, size: int, indicator: str) -> list[str]:
    """Hard shapes: both okeys and both false okeys, duplicates of near runs in two colours."""
    okey = f"{indicator[0]}{int(indicator[1:]) % 13 + 1}"
    hand = [okey, okey, "F", "F"]
    colours = rng.sample("RYBK", 2)
    low = rng.randint(1, 6)
    band = [f"{c}{n}" for c in colours for n in range(low, low + 8) for _ in range(2)]
    band = [t for t in band if t not in (okey, indicator)]
    rng.shuffle(band)
    hand += band[: size - 4]
    while len(hand) < size:
        tile = rng.choice(FULL_SET)
        if Counter(hand)[tile] < 2 and tile not in (okey, indicator):
            hand.append(tile)
    rng.shuffle(hand)
    return hand
