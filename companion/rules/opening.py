"""Okey 101 openings (H4): the best opening of a rack, its pairs, and the least penalty left.

>>> best_opening("R11 R12 R13 K10 K11 K12 K13 B13 Y13 R1 K2 B3", indicator="B6")
Opening(108: [K10, K11, K12] [R11, R12, R13] [Y13, B13, K13]; 0 pairs)
>>> best_opening("R5 K1 R7", indicator="K13").value          # the okey K1 fills the gap: R6
18
>>> min_leftover_penalty("K1 R1", indicator="K13")          # an okey left in hand counts 101
102
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules import _search
from companion.rules.melds import Meld, Wilds, meld_from_placement, needed_to_open, opening_to_beat
from companion.rules.options import Okey101Options
from companion.rules.tiles import Tile, TileLike, TilesLike, tiles_like

__all__ = ["Opening", "best_opening", "max_pairs", "min_leftover_penalty"]

_DEFAULT = Okey101Options()


@dataclass(frozen=True)
class Opening:
    """The most a rack can open with (H4): melds and their value, and the pairs route."""

    value: int
    melds: tuple[Meld, ...]
    opens: bool
    """``value`` reaches ``opening_minimum`` (101) and, under ``opening_ratchet``, beats the highest so far."""
    pairs: int
    """The most pairs the rack holds (a wild completes a pair; two wilds pair if allowed)."""
    pairs_open: bool
    """``pairs`` reaches ``opening_pairs`` (5) and, under ``opening_ratchet``, beats the most so far."""
    pair_tiles: tuple[tuple[Tile, Tile], ...]
    leftover: tuple[Tile, ...]
    """The tiles the best melds leave in the rack."""

    def __repr__(self) -> str:
        melds = " ".join(repr(m) for m in self.melds)
        return f"Opening({self.value}: {melds}; {self.pairs} pairs)"

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "melds": [m.to_list() for m in self.melds],
            "opens": self.opens,
            "pairs": self.pairs,
            "pairs_open": self.pairs_open,
            "pair_tiles": [[a.code, b.code] for a, b in self.pair_tiles],
            "leftover": [t.code for t in self.leftover],
        }


def _pair_tiles(rack: Sequence[Tile], wilds: Wilds, okey_pairs: bool) -> tuple[tuple[Tile, Tile], ...]:
    """The most pairs: identical faces first, then wilds on the highest singles, then wild + wild."""
    faces, wild, behind = wilds.split(rack)
    pairs: list[tuple[Tile, Tile]] = []
    singles: list[tuple[int, Tile]] = []
    for face, tiles in sorted(behind.items()):
        for i in range(0, len(tiles) - 1, 2):
            pairs.append((tiles[i], tiles[i + 1]))
        if len(tiles) % 2:
            singles.append((face % 13, tiles[-1]))
    pool = list(wild)
    for _number, tile in sorted(singles, key=lambda s: -s[0]):
        if not pool:
            break
        pairs.append((tile, pool.pop()))
    while okey_pairs and len(pool) >= 2:
        pairs.append((pool.pop(), pool.pop()))
    return tuple(pairs)


def max_pairs(tiles: TilesLike, *, indicator: TileLike | None, okey_pair_of_okeys: bool = True) -> int:
    """The most pairs in ``tiles`` (H4 pairs route).

    >>> max_pairs("R2 R12 K1", indicator="K13")      # the okey K1 pairs with a single
    1
    """
    return len(_pair_tiles(tiles_like(tiles), Wilds.from_indicator(indicator), okey_pair_of_okeys))


def best_opening(
    tiles: TilesLike,
    *,
    indicator: TileLike | None,
    options: Okey101Options | None = None,
    highest_so_far: int | None = None,
    most_pairs_so_far: int | None = None,
) -> Opening:
    """The most face value of disjoint melds in a rack (H4), and whether it opens.

    An okey counts as the tile it stands for, a false okey as the okey's face.  Also the pairs
    route: the most pairs and whether they reach ``opening_pairs``.  With option ``opening_ratchet``
    the melds must also beat ``highest_so_far`` and the pairs ``most_pairs_so_far`` (the highest
    openings laid so far in the hand, ``None`` while nobody opened that way), as in
    :func:`companion.rules.melds.check_laid_opening`.

    >>> ratchet = Okey101Options(opening_ratchet=True)
    >>> best_opening("R11 R12 R13 K10 K11 K12 K13 B13 Y13", indicator="B6", options=ratchet, highest_so_far=108).opens
    False
    """
    chosen = options or _DEFAULT
    points_bar = opening_to_beat(chosen, highest_so_far, "highest_so_far")
    pairs_bar = opening_to_beat(chosen, most_pairs_so_far, "most_pairs_so_far")
    rack = tiles_like(tiles)
    wilds = Wilds.from_indicator(indicator)
    faces, wild, behind = wilds.split(rack)
    state = _search.encode_counts(faces, wilds=len(wild))
    placements, left_faces, left_wilds = _search.best_melds(state, chosen.wrap_13_1)
    pools = {face: list(tiles) for face, tiles in behind.items()}
    wild_pool = list(wild)
    melds = tuple(meld_from_placement(p, pools, wild_pool) for p in placements)
    leftover = tuple(pools[f].pop() for f in left_faces) + tuple(wild_pool[:left_wilds])
    value = sum(m.value for m in melds)
    pair_tiles = _pair_tiles(rack, wilds, chosen.okey_pair_of_okeys)
    return Opening(
        value=value,
        melds=melds,
        opens=value >= needed_to_open(chosen.opening_minimum, points_bar),
        pairs=len(pair_tiles),
        pairs_open=len(pair_tiles) >= needed_to_open(chosen.opening_pairs, pairs_bar),
        pair_tiles=pair_tiles,
        leftover=leftover,
    )


def min_leftover_penalty(
    tiles: TilesLike, *, indicator: TileLike, wrap_13_1: bool = False, okey_penalty: int = 101
) -> int:
    """The least face sum a rack can keep after laying melds, an okey kept costing ``okey_penalty`` (H6).

    >>> min_leftover_penalty("R11 R12 R13 K1 Y2", indicator="K13")    # the okey joins the run
    2
    """
    rack = tiles_like(tiles)
    wilds = Wilds.from_indicator(indicator)
    faces, wild, _behind = wilds.split(rack)
    total = sum(_search.face_number(f) for f in faces) + okey_penalty * len(wild)
    state = _search.encode_counts(faces, wilds=len(wild))
    return total - _search.best_saving(state, wrap_13_1, okey_penalty)
