"""A slow, obviously correct brute force for the Rummikub lay-down assistant (R2-R4).

It shares nothing with the assistant's integer programme nor with ``companion.rules._search``:
the tiles are split by trying every legal meld that holds the lowest tile, runs of any length
straight from the definition of R2, and every place of a meld may take a real tile (when one is
left) *or* a joker — no greedy choice.  The best move tries every sub-multiset of the rack.
Tiles are ``(colour, number)`` pairs with colour 0-3 and number 1-13; a joker is ``None``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product

from companion.rules.tiles import Tile

Face = tuple[int, int]
Key = tuple[tuple[Face, int], ...]


def to_faces(tiles: Sequence[Tile]) -> tuple[list[Face], int]:
    faces = [("RYBK".index(t.code[0]), t.number) for t in tiles if not t.is_joker]
    return faces, sum(1 for t in tiles if t.is_joker)


def _runs(wrap: bool) -> list[tuple[int, ...]]:
    """Every run as numbers: 3+ consecutive, 1 low, or (wrap) right after 13 — never 13-1-2."""
    runs = [tuple(range(a, b + 1)) for a in range(1, 14) for b in range(a + 2, 14)]
    if wrap:
        runs += [tuple(range(a, 14)) + (1,) for a in range(2, 13)]
    return runs


def melds_with(first: Face, tiles: Counter[Face], jokers: int, wrap: bool) -> Iterator[tuple[list[Face], int, int]]:
    """Every legal meld holding ``first``: (its other real tiles, jokers used, R3 value)."""
    colour, number = first
    others = [c for c in range(4) if c != colour]
    for size in (3, 4):
        for chosen in combinations(others, size - 1):
            for used, wild in _fillings([(c, number) for c in chosen], tiles, jokers):
                yield used, wild, number * size
    for numbers in _runs(wrap):
        if number in numbers:
            places = [(colour, n) for n in numbers if n != number]
            for used, wild in _fillings(places, tiles, jokers):
                yield used, wild, sum(numbers)


def _fillings(places: list[Face], tiles: Counter[Face], jokers: int) -> Iterator[tuple[list[Face], int]]:
    """Every way to fill ``places``: each takes its real tile (if one is left) or a joker."""
    for wild in range(min(jokers, len(places)) + 1):
        for by_joker in combinations(range(len(places)), wild):
            used = [f for i, f in enumerate(places) if i not in by_joker]
            if all(tiles[f] >= 1 for f in used):
                yield used, wild


def _key(tiles: Counter[Face]) -> Key:
    return tuple(sorted((f, k) for f, k in tiles.items() if k))


@lru_cache(maxsize=None)
def best_split(key: Key, jokers: int, wrap: bool) -> int | None:
    """The most R3 value of a split of every tile (jokers included) into melds, or ``None``."""
    tiles = Counter(dict(key))
    if not tiles:
        return 0 if jokers == 0 else None
    first = min(tiles)
    best: int | None = None
    for used, wild, value in melds_with(first, tiles, jokers, wrap):
        rest = tiles.copy()
        rest[first] -= 1
        rest.subtract(used)
        below = best_split(_key(rest), jokers - wild, wrap)
        if below is not None and (best is None or below + value > best):
            best = below + value
    return best


def splits(tiles: Sequence[Tile], wrap: bool) -> bool:
    faces, jokers = to_faces(tiles)
    return best_split(_key(Counter(faces)), jokers, wrap) is not None


def sub_multisets(tiles: Sequence[Tile]) -> Iterator[tuple[Tile, ...]]:
    counts = Counter(tiles)
    kinds = sorted(counts, key=lambda t: t.index)
    for choice in product(*(range(counts[k] + 1) for k in kinds)):
        yield tuple(k for k, n in zip(kinds, choice) for _ in range(n))


def points(tiles: Sequence[Tile]) -> int:
    return sum(30 if t.is_joker else t.number for t in tiles)


def best_moves(
    table: Sequence[Tile], rack: Sequence[Tile], wrap: bool, *, initial: int | None = None, table_after: bool = False
) -> tuple[int, int, bool]:
    """(most tiles, most points, whether the whole rack goes) over every legal lay-down.

    ``initial``: the first lay-down, melds of rack tiles alone worth at least this much (R3); with
    ``table_after`` the other laid tiles may join the table.
    """
    most_tiles = most_points = 0
    everything = False
    for laid in sub_multisets(rack):
        if not laid or not _legal(table, laid, wrap, initial, table_after):
            continue
        most_tiles = max(most_tiles, len(laid))
        most_points = max(most_points, points(laid))
        everything = everything or len(laid) == len(rack)
    return most_tiles, most_points, everything


def _legal(table: Sequence[Tile], laid: Sequence[Tile], wrap: bool, initial: int | None, table_after: bool) -> bool:
    if initial is None:
        return splits([*table, *laid], wrap)
    if not table_after:
        faces, jokers = to_faces(laid)
        value = best_split(_key(Counter(faces)), jokers, wrap)
        return value is not None and value >= initial
    for opening in sub_multisets(laid):
        faces, jokers = to_faces(opening)
        value = best_split(_key(Counter(faces)), jokers, wrap)
        if value is not None and value >= initial:
            rest = list(laid)
            for tile in opening:
                rest.remove(tile)
            if splits([*table, *rest], wrap):
                return True
    return False
