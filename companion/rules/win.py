"""Okey win checks (O5): 14 tiles that split into melds or seven pairs; 15 tiles and their discards.

>>> check_win("R1 R2 R3 B5 Y5 K5 R9 R10 R11 R12 K10 K11 K12 Y8", indicator="Y7")   # Y8 is an okey
WinCheck(melds: [R1, R2, R3, Y8] [Y5, B5, K5] [R9, R10, R11, R12] [K10, K11, K12])
>>> check_win("R1 R1 K3 K3 B5 B5 Y7 Y7 R9 R9 K11 K11 B13 B13", indicator="B6").kind
'pairs'
>>> winning_discards("R1 R2 R3 B5 Y5 K5 R9 R10 R11 R12 K10 K11 K12 Y8 B1", indicator="Y7").to_dict()["winning_discards"]
['B1']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.rules import _search
from companion.rules.errors import ImpossibleHandError
from companion.rules.melds import Meld, Wilds, make_meld, meld_from_placement
from companion.rules.options import OkeyOptions
from companion.rules.tiles import Colour, Tile, TileLike, TilesLike, tile_from_index, tiles_like

__all__ = ["WinCheck", "WinningDiscard", "DiscardCheck", "check_win", "winning_discards", "check_hand"]

WinKind = Literal["melds", "pairs"]
_DEFAULT = OkeyOptions()


@dataclass(frozen=True)
class WinCheck:
    """The verdict on 14 tiles: winning or not, how (melds or seven pairs), and the split shown."""

    winning: bool
    kind: WinKind | None
    melds: tuple[Meld, ...]
    colour: Colour | None
    """The colour of a one-colour winning hand (every plain face one colour, O6), else ``None``."""
    wilds: int
    """How many okeys (and jokers) the hand holds."""

    def __repr__(self) -> str:
        if not self.winning:
            return "WinCheck(not winning)"
        return f"WinCheck({self.kind}: {' '.join(repr(m) for m in self.melds)})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "winning": self.winning,
            "kind": self.kind,
            "melds": [m.to_list() for m in self.melds],
            "colour_hand": self.colour.value if self.colour else None,
            "okeys": self.wilds,
        }


@dataclass(frozen=True)
class WinningDiscard:
    """A discard that leaves a winning 14; discarding an okey is the double win (O5, O6)."""

    tile: Tile
    okey_discard: bool
    win: WinCheck

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile.code, "okey_discard": self.okey_discard, "win": self.win.to_dict()}


@dataclass(frozen=True)
class DiscardCheck:
    """The verdict on 15 tiles: every discard that leaves a winning 14."""

    discards: tuple[WinningDiscard, ...] = field(default=())

    @property
    def winning(self) -> bool:
        return bool(self.discards)

    @property
    def okey_discard(self) -> bool:
        """Whether some winning discard is an okey (the double win)."""
        return any(d.okey_discard for d in self.discards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winning_discards": [d.tile.code for d in self.discards],
            "okey_discard": self.okey_discard,
            "details": [d.to_dict() for d in self.discards],
        }


def _hand(tiles: TilesLike, size: int, what: str) -> tuple[Tile, ...]:
    hand = tiles_like(tiles)
    if len(hand) != size:
        raise ImpossibleHandError(
            f"impossible hand: {len(hand)} tiles given, {what} needs exactly {size} "
            f"(14 to check a finished hand, 15 to find the winning discards)"
        )
    return hand


def _pairs(faces: list[int], wild: list[Tile], behind: dict[int, list[Tile]], okey_pairs: bool) -> tuple[Meld, ...] | None:
    """Seven pairs: identical faces, a wild completing a single, two wilds if ``okey_pairs``."""
    singles = sum(len(tiles) % 2 for tiles in behind.values())
    spare = len(wild) - singles
    if spare < 0 or spare % 2 or (spare and not okey_pairs):
        return None
    pools = {face: list(tiles) for face, tiles in behind.items()}
    wild_pool = list(wild)
    melds = []
    for face in sorted(pools):
        tiles = pools[face]
        face_tile = tile_from_index(face)
        while tiles:
            partner = tiles.pop() if len(tiles) >= 2 else wild_pool.pop()
            melds.append(make_meld("pair", [face_tile, face_tile], [tiles.pop(), partner]))
    while wild_pool:
        face_tile = tile_from_index(12)
        melds.append(make_meld("pair", [face_tile, face_tile], [wild_pool.pop(), wild_pool.pop()]))
    return tuple(melds)


def _colour(faces: Sequence[int]) -> Colour | None:
    colours = {tile_from_index(f).colour for f in faces}
    return colours.pop() if len(colours) == 1 else None


def _check(hand: Sequence[Tile], wilds: Wilds, options: OkeyOptions) -> WinCheck:
    faces, wild, behind = wilds.split(hand)
    pairs = _pairs(faces, wild, behind, options.okey_pair_of_okeys)
    if pairs is not None:
        return WinCheck(True, "pairs", pairs, _colour(faces), len(wild))
    if not _search.may_meld_all(faces, len(wild), options.wrap_13_1):
        return WinCheck(False, None, (), None, len(wild))
    state = _search.encode_counts(faces, wilds=len(wild))
    placements = _search.meld_all(state, options.wrap_13_1)
    if placements is None:
        return WinCheck(False, None, (), None, len(wild))
    pools = {face: list(tiles) for face, tiles in behind.items()}
    wild_pool = list(wild)
    melds = tuple(meld_from_placement(p, pools, wild_pool) for p in placements)
    return WinCheck(True, "melds", melds, _colour(faces), len(wild))


def check_win(tiles: TilesLike, *, indicator: TileLike | None, options: OkeyOptions | None = None) -> WinCheck:
    """Whether 14 tiles win (O5): all in sets and runs, or seven pairs.

    A hand that wins both ways is reported as pairs, the win that scores more (O6).
    ``indicator=None`` means only ``J`` is wild (and ``F`` is then an error).
    """
    hand = _hand(tiles, 14, "a win check")
    return _check(hand, Wilds.from_indicator(indicator), options or _DEFAULT)


def winning_discards(
    tiles: TilesLike, *, indicator: TileLike | None, options: OkeyOptions | None = None
) -> DiscardCheck:
    """Every discard from 15 tiles that leaves a winning 14 (O5); an okey discard is the double win."""
    hand = _hand(tiles, 15, "a discard search")
    wilds = Wilds.from_indicator(indicator)
    wilds.split(hand)  # bad tiles and impossible counts are reported for the whole hand
    chosen = options or _DEFAULT
    discards = []
    for tile in sorted(set(hand), key=lambda t: t.index):
        rest = list(hand)
        rest.remove(tile)
        win = _check(rest, wilds, chosen)
        if win.winning:
            discards.append(WinningDiscard(tile, wilds.is_wild(tile), win))
    return DiscardCheck(tuple(discards))


def check_hand(
    tiles: TilesLike, *, indicator: TileLike | None, options: OkeyOptions | None = None
) -> WinCheck | DiscardCheck:
    """:func:`check_win` for 14 tiles, :func:`winning_discards` for 15."""
    hand = tiles_like(tiles)
    if len(hand) == 15:
        return winning_discards(hand, indicator=indicator, options=options)
    if len(hand) != 14:
        raise ImpossibleHandError(
            f"impossible hand: {len(hand)} tiles given; give 14 tiles to check a finished hand "
            "or 15 to find the winning discards"
        )
    return check_win(hand, indicator=indicator, options=options)
