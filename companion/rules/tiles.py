"""Tile notation (RULES.md §0) and the indicator → okey rule (O3).

A tile is a colour letter and a number, ``R7``; ``F`` is the false okey (sahte okey) and ``J`` the
Rummikub joker.  Tiles are tiny immutable values whose ``repr`` is their notation:

>>> parse_tiles("r7, K13 f")
(R7, K13, F)
>>> format_tiles(parse_tiles("b1 b2,b3"))
'B1 B2 B3'
>>> okey_for("R13")
R1
>>> parse_tile("R14")
Traceback (most recent call last):
...
companion.rules.errors.InvalidTileError: invalid tile 'R14': the number must be 1-13 (e.g. R7, K13, F)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Union

from companion.rules.errors import ImpossibleHandError, InvalidTileError

__all__ = [
    "Colour",
    "Tile",
    "TileLike",
    "TilesLike",
    "FALSE_OKEY",
    "JOKER",
    "ALL_NUMBERED",
    "parse_tile",
    "parse_tiles",
    "format_tiles",
    "tile_like",
    "tiles_like",
    "okey_for",
    "check_tile_counts",
]


class Colour(StrEnum):
    """The four tile colours; the value is the notation letter (Rummikub's orange is ``Y``)."""

    RED = "R"
    YELLOW = "Y"
    BLUE = "B"
    BLACK = "K"


COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.YELLOW, Colour.BLUE, Colour.BLACK)

_FALSE_OKEY_CODE = "F"
_JOKER_CODE = "J"


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile.  ``colour`` and ``number`` are ``None``/``0`` for the false okey and the joker.

    ``index`` is a dense integer (0-51 numbered tiles by colour then number, 52 false okey, 53 joker)
    for fast searches.
    """

    colour: Colour | None
    number: int
    special: str = ""

    @property
    def is_false_okey(self) -> bool:
        return self.special == _FALSE_OKEY_CODE

    @property
    def is_joker(self) -> bool:
        return self.special == _JOKER_CODE

    @property
    def is_numbered(self) -> bool:
        return not self.special

    @property
    def index(self) -> int:
        if self.special:
            return 52 if self.is_false_okey else 53
        assert self.colour is not None  # numbered tiles always have a colour
        return COLOURS.index(self.colour) * 13 + self.number - 1

    @property
    def code(self) -> str:
        if self.special:
            return self.special
        assert self.colour is not None
        return f"{self.colour.value}{self.number}"

    def __repr__(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.code

    def sort_key(self) -> tuple[int, int]:
        return (self.index, 0)


FALSE_OKEY = Tile(None, 0, _FALSE_OKEY_CODE)
JOKER = Tile(None, 0, _JOKER_CODE)
ALL_NUMBERED: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in range(1, 14))
_BY_CODE: dict[str, Tile] = {t.code: t for t in (*ALL_NUMBERED, FALSE_OKEY, JOKER)}
_BY_INDEX: tuple[Tile, ...] = (*ALL_NUMBERED, FALSE_OKEY, JOKER)

TileLike = Union[Tile, str]
TilesLike = Union[str, Iterable[TileLike]]

_SPLIT = re.compile(r"[\s,|]+")
_SHAPE = re.compile(r"([A-Za-z])(\d+)")


def tile_from_index(index: int) -> Tile:
    """The tile with dense index ``index`` (see :class:`Tile`)."""
    return _BY_INDEX[index]


def parse_tile(code: str) -> Tile:
    """Parse one tile code such as ``R7``, ``k13`` or ``F``; raise :class:`InvalidTileError` otherwise."""
    text = code.strip()
    tile = _BY_CODE.get(text.upper())
    if tile is not None:
        return tile
    hint = "(e.g. R7, K13, F)"
    shape = _SHAPE.fullmatch(text)
    if not text:
        raise InvalidTileError(f"invalid tile {code!r}: empty tile code {hint}")
    if shape is None:
        raise InvalidTileError(
            f"invalid tile {code!r}: expected a colour letter R, Y, B or K and a number 1-13, "
            f"or F (false okey) or J (joker) {hint}"
        )
    letter, digits = shape.groups()
    if letter.upper() not in {c.value for c in COLOURS}:
        raise InvalidTileError(
            f"invalid tile {code!r}: unknown colour {letter!r}; use R (red), Y (yellow), "
            f"B (blue) or K (black) {hint}"
        )
    raise InvalidTileError(f"invalid tile {code!r}: the number must be 1-13 {hint}")


MAX_TILES = 106
"""A whole set: no hand, rack or layout holds more tiles (more is a typo or an attack, refused before parsing)."""


def _at_most_a_set(count: int) -> None:
    if count > MAX_TILES:
        raise ImpossibleHandError(f"impossible hand: {count} tiles given, a whole set has only {MAX_TILES}")


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse tiles separated by spaces, commas or ``|``; case-insensitive."""
    tokens = [token for token in _SPLIT.split(text.strip()) if token]
    _at_most_a_set(len(tokens))
    return tuple(parse_tile(token) for token in tokens)


def tile_like(value: TileLike) -> Tile:
    """Normalise a tile or a tile code to a :class:`Tile`."""
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        return parse_tile(value)
    raise InvalidTileError(f"invalid tile {value!r}: expected a tile code such as 'R7'")


def tiles_like(value: TilesLike) -> tuple[Tile, ...]:
    """Normalise a notation string or an iterable of tiles/codes to a tuple of tiles."""
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, (bool, int, float)) or not isinstance(value, Iterable) or isinstance(value, Mapping):
        raise InvalidTileError(f"invalid tiles {value!r}: give the tiles as text such as 'R1 R2 R3'")
    tiles = tuple(value)
    _at_most_a_set(len(tiles))
    return tuple(tile_like(v) for v in tiles)


def format_tiles(tiles: TilesLike) -> str:
    """The notation of ``tiles``, space separated: the inverse of :func:`parse_tiles`."""
    return " ".join(t.code for t in tiles_like(tiles))


def okey_for(indicator: TileLike) -> Tile:
    """The okey for an indicator (O3): one above it in its colour, 13 → 1.

    >>> okey_for("K7"), okey_for("Y13")
    (K8, Y1)
    """
    tile = tile_like(indicator)
    if not tile.is_numbered:
        raise InvalidTileError(
            f"invalid indicator {tile.code!r}: the indicator is always a numbered tile "
            "(a false okey turned up is put back and the die rolled again, O2.3)"
        )
    assert tile.colour is not None
    return Tile(tile.colour, tile.number % 13 + 1)


def check_tile_counts(tiles: Iterable[Tile], *, copies: int = 2, specials: int = 2, what: str = "hand",
                      of: str = "a set", rule: str | None = None) -> None:
    """Raise :class:`ImpossibleHandError` if ``tiles`` hold more copies of a tile than a set has.

    A set has two of each numbered tile and two false okeys (or two jokers).  ``what`` names the tiles in the
    message, ``of`` the set, ``rule`` the rule it quotes.

    >>> check_tile_counts(parse_tiles("R7 R7 R7"))
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible hand: 3 × R7, a set has only 2
    >>> check_tile_counts(parse_tiles("J J J"), what="rack", of="a Rummikub set", rule="R1")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible rack: 3 × J, a Rummikub set has only 2 (R1)
    """
    counts = Counter(tiles)
    for tile, count in sorted(counts.items(), key=lambda item: item[0].index):
        limit = copies if tile.is_numbered else specials
        if count > limit:
            quoted = f" ({rule})" if rule else ""
            raise ImpossibleHandError(f"impossible {what}: {count} × {tile.code}, {of} has only {limit}{quoted}")
