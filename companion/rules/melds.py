"""Melds (O4, H1, H4): what is wild, laid-out meld verdicts, order-free melds, laid openings.

Wild tiles are the real copies of the okey and ``J``; a false okey ``F`` is a plain tile that plays
as the okey's face (O3).  Seed 000's worked example: indicator R4, so the okey is R5 and ``F`` plays R5.

>>> wilds = Wilds.from_indicator("R4")
>>> wilds.okey, wilds.is_wild(parse_tile("R5")), wilds.face(FALSE_OKEY)
(R5, True, R5)
>>> check_laid_meld("R12 R13 R1", indicator="R4", wrap_13_1=True).value
26
>>> check_laid_meld("R13 R1 R2", indicator="R4", wrap_13_1=True).reason
'illegal run: [R13, R1, R2] (13-1-2 never wraps, O4)'
>>> check_laid_meld("R5 R12 R13", indicator="R4", wrap_13_1=False)     # the okey R5 stands for R11
[R5, R12, R13] = 36
>>> find_meld("R13 R11 R5", indicator="R4", wrap_13_1=False)
[R11, R5, R13]

Laid-out melds are read in table order: a wild's value is fixed by where it lies.  Runs may be laid
ascending or descending (eguneys/scalaokey reads both ways and players lay from either end); a
wild then stands for the number its position demands.  When a meld holds at most one real tile the
position does not fix the reading (``R7 J J`` is 7-8-9, 9-8-7 reversed, or a set of 7s); the most
valuable legal reading counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, cast

from companion.rules import _search
from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError, InvalidRequestError, InvalidTileError
from companion.rules.options import Okey101Options
from companion.rules.tiles import (
    COLOURS,
    FALSE_OKEY,
    Tile,
    TileLike,
    TilesLike,
    check_tile_counts,
    okey_for,
    parse_tile,
    tile_from_index,
    tile_like,
    tiles_like,
)

__all__ = [
    "Wilds",
    "Meld",
    "MeldRuleIds",
    "MeldVerdict",
    "OpeningCheck",
    "check_laid_meld",
    "check_meld_101",
    "find_meld",
    "check_laid_opening",
    "opening_to_beat",
    "needed_to_open",
    "check_layout_size",
    "meld_notation",
    "MAX_MELDS",
    "MAX_MELD_TILES",
]

MeldKind = Literal["set", "run", "pair"]

OKEY_HAS_NO_J = "invalid tile 'J': J is the Rummikub joker, okey has no J"
"""What every okey operation (an indicator given) says of a ``J`` (O1, §0)."""


MAX_MELD_TILES = 13
"""The longest meld: a run 1-13 (O4)."""
MAX_MELDS = 53
"""The most melds a layout can hold: a whole set of 106 tiles, at least 2 a meld."""


def check_layout_size(melds: int) -> None:
    """Refuse a layout of more melds than a whole set makes, before judging any of them.

    >>> check_layout_size(54)
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible layout: 54 melds given, a whole set makes at most 53 melds
    """
    if melds > MAX_MELDS:
        raise ImpossibleHandError(f"impossible layout: {melds} melds given, a whole set makes at most {MAX_MELDS} melds")


def meld_notation(tiles: Sequence[Tile]) -> str:
    """``[R1, R2, R3]``: how a meld prints in messages."""
    return "[" + ", ".join(t.code for t in tiles) + "]"


@lru_cache(maxsize=256)
def _wilds_for(indicator: TileLike) -> Wilds:
    return Wilds(okey_for(indicator), tile_like(indicator))


@dataclass(frozen=True)
class Wilds:
    """What is wild in one hand: the real copies of the okey, and ``J``.

    ``okey`` is ``None`` when there is no indicator (cases that model the wild as ``J`` only).
    ``indicator`` is the face-up tile: one of the two copies of its tile (O1, O3), so a hand holds at
    most one more.
    """

    okey: Tile | None
    indicator: Tile | None = None

    @classmethod
    def from_indicator(cls, indicator: TileLike | None) -> Wilds:
        """The wilds for an indicator (O3: the okey is one above it, 13 → 1)."""
        if indicator is not None and not isinstance(indicator, (str, Tile)):  # a list or an object: no tile code
            raise InvalidTileError(f"invalid indicator {indicator!r}: expected a tile code such as 'R4'")
        return cls(None) if indicator is None else _wilds_for(indicator)

    def check_counts(self, tiles: Sequence[Tile]) -> None:
        """Raise :class:`ImpossibleHandError` when ``tiles`` hold more copies of a tile than a set has,
        the face-up indicator counted as one of its tile's two copies (O1, O3).

        >>> Wilds.from_indicator("R4").check_counts(tiles_like("R4 R4"))
        Traceback (most recent call last):
        ...
        companion.rules.errors.ImpossibleHandError: impossible hand: 2 × R4 and the face-up indicator R4, a set has only 2 (O1, O3)
        """
        self.check_no_joker(tiles)
        check_tile_counts(tiles)
        shown = self.indicator
        if shown is not None and sum(1 for tile in tiles if tile == shown) > 1:
            raise ImpossibleHandError(
                f"impossible hand: 2 × {shown.code} and the face-up indicator {shown.code}, a set has only 2 (O1, O3)"
            )

    def check_no_joker(self, tiles: Sequence[Tile]) -> None:
        """Refuse ``J`` where an indicator is given: an okey set has false okeys, no jokers (O1, §0).

        Without an indicator (Rummikub, R1) ``J`` is the joker and welcome.

        >>> Wilds.from_indicator("Y7").check_no_joker(tiles_like("R1 J"))
        Traceback (most recent call last):
        ...
        companion.rules.errors.InvalidHandRecordError: invalid tile 'J': J is the Rummikub joker, okey has no J
        """
        if self.okey is not None and any(tile.is_joker for tile in tiles):
            raise InvalidHandRecordError(OKEY_HAS_NO_J)

    def is_wild(self, tile: Tile) -> bool:
        """Whether ``tile`` is wild: an okey copy or a joker."""
        return tile.is_joker or (self.okey is not None and tile == self.okey)

    def face(self, tile: Tile) -> Tile:
        """The face ``tile`` plays as: a false okey plays the okey's face, others themselves."""
        if tile.is_false_okey:
            if self.okey is None:
                raise InvalidTileError(
                    "invalid tile 'F': a false okey plays as the okey's face, so it needs an "
                    "indicator; give the indicator (e.g. indicator='R4')"
                )
            return self.okey
        return tile

    def split(self, tiles: Sequence[Tile]) -> tuple[list[int], list[Tile], dict[int, list[Tile]]]:
        """The face indices of the plain tiles, the wild tiles, and the tiles behind each face.

        Raises :class:`ImpossibleHandError` when ``tiles`` hold more copies of a tile than a set has.
        """
        okey = self.okey.index if self.okey is not None else -1
        shown = self.indicator.index if self.indicator is not None else -1
        known = _INDEX_BY_ID.get
        found = [known(id(t)) for t in tiles]
        indices = [tile_index(t) for t in tiles] if None in found else cast(list[int], found)
        counts = [0] * 54
        faces: list[int] = []
        wild: list[Tile] = []
        behind: dict[int, list[Tile]] = {}
        for index, tile in zip(indices, tiles):
            counts[index] += 1
            if index == okey or index == _JOKER_INDEX:
                wild.append(tile)
                continue
            if index == _FALSE_OKEY_INDEX:
                index = self.face(tile).index
            faces.append(index)
            if index in behind:
                behind[index].append(tile)
            else:
                behind[index] = [tile]
        if max(counts) > 2 or (shown >= 0 and counts[shown] > 1) or (okey >= 0 and counts[_JOKER_INDEX]):
            self.check_counts(tiles)
        return faces, wild, behind


# Parsing hands out one shared object per tile, so its id finds its index without hashing the
# dataclass (a Python-level hash of the colour enum): a third of a 14-tile check otherwise.
_INDEX_BY_ID = {id(t): t.index for t in map(tile_from_index, range(54))}
_FALSE_OKEY_INDEX = FALSE_OKEY.index
_JOKER_INDEX = _FALSE_OKEY_INDEX + 1


def tile_index(tile: Tile) -> int:
    """``tile.index``, fast for the shared tiles that parsing returns."""
    index = _INDEX_BY_ID.get(id(tile))
    return tile.index if index is None else index


@dataclass(frozen=True)
class Meld:
    """A meld: the real tiles in laid order and the face each stands for.  Its repr is the notation."""

    tiles: tuple[Tile, ...]
    faces: tuple[Tile, ...]
    kind: MeldKind
    value: int

    def __repr__(self) -> str:
        return meld_notation(self.tiles)

    def to_list(self) -> list[str]:
        """The tile codes in laid order."""
        return [t.code for t in self.tiles]


def make_meld(kind: MeldKind, faces: Sequence[Tile], tiles: Sequence[Tile]) -> Meld:
    """A :class:`Meld` whose value is the sum of the faces."""
    return Meld(tuple(tiles), tuple(faces), kind, sum(f.number for f in faces))


def meld_from_placement(placement: _search.Placement, behind: dict[int, list[Tile]], wild: list[Tile]) -> Meld:
    """Turn a search placement into a :class:`Meld`, taking real tiles from ``behind`` and ``wild``."""
    kind, faces, wild_at = placement
    tiles = [wild.pop() if is_wild else behind[face].pop() for face, is_wild in zip(faces, wild_at)]
    return make_meld(kind, [tile_from_index(f) for f in faces], tiles)


@dataclass(frozen=True)
class MeldVerdict:
    """Whether a laid-out meld is legal, its value, and why (the reason cites the rule)."""

    valid: bool
    value: int
    reason: str
    meld: Meld | None

    def __repr__(self) -> str:
        return f"{self.meld!r} = {self.value}" if self.meld is not None else self.reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "value": self.value,
            "reason": self.reason,
            "tiles": self.meld.to_list() if self.meld else [],
            "faces": [f.code for f in self.meld.faces] if self.meld else [],
        }


def _illegal(what: str, tiles: Sequence[Tile], why: str) -> MeldVerdict:
    return MeldVerdict(False, 0, f"illegal {what}: {meld_notation(tiles)} ({why})", None)


def _mixed(rule: str) -> str:
    return f"a set is one number in distinct colours, a run consecutive numbers in one colour, {rule}"


def _read_set(tiles: Sequence[Tile], faces: Sequence[Tile | None], rule: str) -> Meld | str:
    """Read ``tiles`` as a set; wilds take the set's number and a missing colour."""
    plain = [f for f in faces if f is not None]
    colours = [f.colour for f in plain]
    if len(set(colours)) < len(colours):
        return f"a colour repeats; a set needs distinct colours, {rule}"
    if len(tiles) > 4:
        return f"a set has at most 4 tiles, one per colour, {rule}"
    number = plain[0].number if plain else 13
    spare = iter(c for c in COLOURS if c not in colours)
    return make_meld("set", [f if f is not None else Tile(next(spare), number) for f in faces], tiles)


@dataclass(frozen=True)
class MeldRuleIds:
    """The rule ids a game's meld verdicts cite: ``meld``, its rule on sets and runs; ``wrap``, where its option
    ``wrap_13_1`` is set.  Okey and Okey 101 cite O4 and H1 (the defaults); Rummikub cites R2 for both."""

    meld: str = "O4"
    wrap: str = "H1"


OKEY_RULE_IDS = MeldRuleIds()


def _run_span_problem(start: int, length: int, wrap: bool, rules: MeldRuleIds = OKEY_RULE_IDS) -> str:
    """Why numbers ``start .. start+length-1`` (14 = a 1 after 13) are no run, or ``""``.

    With ``wrap`` off, 1 never follows 13, so a span past 13 or below 1 fails on that; with it on, only
    13-1-2 (1 both after 13 and low) is left to fail.
    """
    end = start + length - 1
    if start >= 1 and end <= 13:
        return ""
    if not wrap:
        return f"1 after 13 is not allowed here (wrap_13_1 is off, {rules.wrap})"
    if start >= 2 and end == 14:
        return ""
    if start == 1 and end == 14:
        return f"1 may be low or follow 13, never both, {rules.meld}"
    return f"13-1-2 never wraps, {rules.meld}"


def _read_ascending(
    tiles: Sequence[Tile], faces: Sequence[Tile | None], wrap: bool, rules: MeldRuleIds
) -> Meld | str:
    """Read ``tiles`` as a run laid ascending; each wild stands for the number its position demands."""
    plain = [(i, f) for i, f in enumerate(faces) if f is not None]
    if len({f.colour for _, f in plain}) > 1:
        return _mixed(rules.meld)
    colour = plain[0][1].colour if plain else COLOURS[0]
    length = len(tiles)
    problem = f"the numbers must follow each other in laid order, {rules.meld}"
    best: Meld | None = None
    for start in range(-12, 15):
        if any((start + i - 1) % 13 + 1 != f.number for i, f in plain):
            continue
        why = _run_span_problem(start, length, wrap, rules)
        if why:
            problem = why
            continue
        meld = make_meld("run", [Tile(colour, (start + i - 1) % 13 + 1) for i in range(length)], tiles)
        if best is None or meld.value > best.value:
            best = meld
    return best if best is not None else problem


def check_laid_meld(
    tiles: TilesLike, *, indicator: TileLike | None, wrap_13_1: bool, rules: MeldRuleIds = OKEY_RULE_IDS
) -> MeldVerdict:
    """Judge a meld as laid on the table, left to right (101 referee, H4).

    Two tiles are judged as a pair (identical faces, or a wild completing one).  ``rules``: the rule ids the
    reasons cite, the game's own (Rummikub's R2 instead of O4 and H1).

    >>> check_laid_meld("R3 F", indicator="R2", wrap_13_1=False)
    [R3, F] = 6
    >>> check_laid_meld("Y10 R3 Y9", indicator="R2", wrap_13_1=False).reason
    'illegal run: [Y10, R3, Y9] (the numbers must follow each other in laid order, O4)'
    >>> check_laid_meld("Y12 Y11 R3", indicator="R2", wrap_13_1=False).meld.faces
    (Y12, Y11, Y10)
    >>> check_laid_meld("R12 R13 J", indicator=None, wrap_13_1=False, rules=MeldRuleIds("R2", "R2")).reason
    'illegal run: [R12, R13, J] (1 after 13 is not allowed here (wrap_13_1 is off, R2))'
    """
    laid = tiles_like(tiles)
    if len(laid) > MAX_MELD_TILES:
        raise ImpossibleHandError(
            f"impossible meld: {len(laid)} tiles given, a meld has at most {MAX_MELD_TILES} "
            f"(a run 1-13, {rules.meld}); separate melds with '|' or new lines"
        )
    wilds = Wilds.from_indicator(indicator)
    wilds.check_counts(laid)
    faces: list[Tile | None] = [None if wilds.is_wild(t) else wilds.face(t) for t in laid]
    if len(laid) == 2:
        return _check_pair(laid, faces)
    if len(laid) < 3:
        return _illegal("meld", laid, f"a meld has at least 3 tiles (a pair 2), {rules.meld}")
    plain = [f for f in faces if f is not None]
    one_number = len({f.number for f in plain}) <= 1
    one_colour = len({f.colour for f in plain}) <= 1
    readings: list[Meld | str] = []
    if one_number:
        readings.append(_read_set(laid, faces, rules.meld))
    if one_colour:
        readings.append(_read_ascending(laid, faces, wrap_13_1, rules))
        descending = _read_ascending(laid[::-1], faces[::-1], wrap_13_1, rules)
        if isinstance(descending, Meld):
            descending = make_meld("run", descending.faces[::-1], laid)
        readings.append(descending)
    legal = [r for r in readings if isinstance(r, Meld)]
    if legal:
        best = max(legal, key=lambda m: m.value)
        return MeldVerdict(True, best.value, f"legal {best.kind} worth {best.value}", best)
    if not readings:
        return _illegal("meld", laid, _mixed(rules.meld))
    if one_number and len(plain) > 1:
        return _illegal("set", laid, str(readings[0]))
    runs = [str(r) for r in readings[-2:]]
    return _illegal("run", laid, next((r for r in runs if "follow each other" not in r), runs[0]))


def _check_pair(laid: Sequence[Tile], faces: Sequence[Tile | None]) -> MeldVerdict:
    plain = [f for f in faces if f is not None]
    if len(plain) == 2 and plain[0] != plain[1]:
        return _illegal("pair", laid, "a pair is two identical tiles (O5); a meld has at least 3 (O4)")
    face = plain[0] if plain else Tile(COLOURS[0], 13)
    meld = make_meld("pair", [face, face], laid)
    return MeldVerdict(True, meld.value, f"legal pair worth {meld.value}", meld)


def find_meld(tiles: TilesLike, *, indicator: TileLike | None, wrap_13_1: bool) -> Meld | None:
    """The most valuable single meld using exactly ``tiles`` in any order, or ``None``.

    >>> find_meld("Y10 R3 Y9", indicator="R2", wrap_13_1=False)
    [Y9, Y10, R3]
    >>> find_meld("R13 R1 R2", indicator="R2", wrap_13_1=True) is None
    True
    """
    hand = tiles_like(tiles)
    wilds = Wilds.from_indicator(indicator)
    faces, wild, behind = wilds.split(hand)
    if len(hand) < 3:
        return None
    candidates: list[tuple[Literal["set", "run"], list[Tile]]] = []
    if len(hand) <= 4:
        numbers = {tile_from_index(f).number for f in faces} or {13}
        for number in numbers:
            candidates.append(("set", [Tile(c, number) for c in COLOURS][: len(hand)]))
    colours = {tile_from_index(f).colour for f in faces} or {COLOURS[0]}
    for colour in colours:
        for start in range(1, 15 - len(hand) + 1):
            if not _run_span_problem(start, len(hand), wrap_13_1):
                candidates.append(("run", [Tile(colour, (start + i - 1) % 13 + 1) for i in range(len(hand))]))
    best: Meld | None = None
    for kind, targets in candidates:
        meld = _fit(kind, targets, faces, wild, behind)
        if meld is not None and (best is None or meld.value > best.value):
            best = meld
    return best


def _fit(
    kind: Literal["set", "run"], targets: list[Tile], faces: list[int], wild: list[Tile], behind: dict[int, list[Tile]]
) -> Meld | None:
    """Lay the plain tiles on the ``targets`` they match and wilds on the rest, if they fit exactly."""
    if kind == "set":
        number = targets[0].number
        if any(tile_from_index(f).number != number for f in faces) or len(set(faces)) < len(faces):
            return None
        present = [tile_from_index(f) for f in faces]
        spare = [Tile(c, number) for c in COLOURS if Tile(c, number) not in present]
        targets = sorted(present + spare[: len(targets) - len(present)], key=lambda t: t.index)
    wanted = sorted(t.index for t in targets)
    if any(faces.count(f) > wanted.count(f) for f in set(faces)) or len(wild) != len(targets) - len(faces):
        return None
    pools = {face: list(tiles) for face, tiles in behind.items()}
    spare_wilds = list(wild)
    laid = [pools[t.index].pop() if pools.get(t.index) else spare_wilds.pop() for t in targets]
    return make_meld(kind, targets, laid)


@dataclass(frozen=True)
class OpeningCheck:
    """The verdict on a first lay-down (H4): each meld, the total, and whether it opens."""

    verdicts: tuple[MeldVerdict, ...]
    total: int
    opens: bool
    reason: str
    okey_twin: Tile | None = None
    """With ``okey_pair_of_okeys`` off: the face an okey pairs though its twin is laid too (the pairs do not open)."""

    @property
    def valid(self) -> bool:
        """Every meld laid is legal."""
        return all(v.valid for v in self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        """``valid`` and ``value`` (= ``total``) answer like a single meld's verdict does."""
        return {
            "valid": self.valid,
            "value": self.total,
            "verdicts": [v.to_dict() for v in self.verdicts],
            "total": self.total,
            "opens": self.opens,
            "reason": self.reason,
        }


def _laid_melds(melds: str | Sequence[TilesLike]) -> list[tuple[Tile, ...]]:
    parts = [part for part in melds.split("|") if part.strip()] if isinstance(melds, str) else list(melds)
    check_layout_size(len(parts))
    return [tiles_like(part) for part in parts]


def check_meld_101(meld: TilesLike, *, indicator: TileLike, options: Okey101Options | None = None) -> MeldVerdict:
    """One meld as laid at a 101 table, judged with the table's options: runs 12-13-1 (``wrap_13_1``, H1) and two okeys
    as a pair (``okey_pair_of_okeys``, H4).

    >>> check_meld_101("R5 R5", indicator="R4").reason
    'legal pair worth 26'
    >>> check_meld_101("R5 R5", indicator="R4", options=Okey101Options(okey_pair_of_okeys=False)).reason
    'illegal pair: [R5, R5] (two okeys are no pair here (okey_pair_of_okeys is off, H4))'
    """
    chosen = options or Okey101Options()
    tiles = tiles_like(meld)
    verdict = check_laid_meld(tiles, indicator=indicator, wrap_13_1=chosen.wrap_13_1)
    wilds = Wilds.from_indicator(indicator)
    if len(tiles) == 2 and all(wilds.is_wild(t) for t in tiles) and not chosen.okey_pair_of_okeys:
        return _illegal("pair", tiles, "two okeys are no pair here (okey_pair_of_okeys is off, H4)")
    return verdict


def opening_to_beat(options: Okey101Options, so_far: int | None, name: str = "highest_so_far") -> int | None:
    """What a later opening must beat under option ``opening_ratchet`` (H4): ``so_far``, the highest opening
    laid so far in the hand (``None``: nobody has opened yet); ``None`` when the option is off.

    >>> opening_to_beat(Okey101Options(opening_ratchet=True), 105), opening_to_beat(Okey101Options(), 105)
    (105, None)
    """
    if so_far is not None and (isinstance(so_far, bool) or not isinstance(so_far, int) or so_far < 0):
        raise InvalidRequestError(
            f"invalid {name} {so_far!r}: give the highest opening laid so far in the hand as a whole number, "
            "or nothing if nobody has opened"
        )
    return so_far if options.opening_ratchet else None


def needed_to_open(minimum: int, bar: int | None) -> int:
    """What an opening must reach (H4): ``minimum``, and more than ``bar`` under ``opening_ratchet`` (``bar`` from
    :func:`opening_to_beat`; ``None``: nothing to beat).

    >>> needed_to_open(101, None), needed_to_open(101, 111), needed_to_open(101, 90)
    (101, 112, 101)
    """
    return minimum if bar is None else max(minimum, bar + 1)


def check_laid_opening(
    melds: str | Sequence[TilesLike],
    *,
    indicator: TileLike,
    options: Okey101Options | None = None,
    highest_so_far: int | None = None,
    most_pairs_so_far: int | None = None,
) -> OpeningCheck:
    """Judge a first lay-down in 101 (H4): melds worth ``opening_minimum`` or ``opening_pairs`` pairs.

    Melds are separated by ``|`` and read in table order (see :func:`check_laid_meld`).  With option
    ``opening_ratchet`` a later opener must beat the highest opening so far: melds must be worth more than
    ``highest_so_far`` (the highest melds opening in the hand), pairs must be more than
    ``most_pairs_so_far`` (the most pairs opened with); each is ``None`` while nobody opened that way.

    >>> check_laid_opening("R11 R12 R13 | K11 K12 K13 | B13 Y13 R13", indicator="B6").reason
    'opens: melds worth 111 (at least 101, H4)'
    >>> check_laid_opening("R3 R3 | K5 K5 | B8 B8 | Y11 Y11", indicator="B6").reason
    'does not open: 4 pairs, 5 needed (H4)'
    >>> ratchet = Okey101Options(opening_ratchet=True)
    >>> check_laid_opening("R11 R12 R13 | K11 K12 K13 | B13 Y13 R13", indicator="B6", options=ratchet,
    ...                    highest_so_far=111).reason
    'does not open: melds worth 111, 112 needed (more than 111, the highest opening so far: opening_ratchet, H4)'
    """
    chosen = options or Okey101Options()
    points_bar = opening_to_beat(chosen, highest_so_far, "highest_so_far")
    pairs_bar = opening_to_beat(chosen, most_pairs_so_far, "most_pairs_so_far")
    laid = _laid_melds(melds)
    if not laid:
        raise ImpossibleHandError(f"impossible opening {melds!r}: no melds given; separate melds with '|'")
    Wilds.from_indicator(indicator).check_counts([t for meld in laid for t in meld])
    verdicts = tuple(check_meld_101(m, indicator=indicator, options=chosen) for m in laid)
    total = sum(v.value for v in verdicts)
    invalid = [v for v in verdicts if not v.valid]
    pairs = [v for v in verdicts if v.meld is not None and v.meld.kind == "pair"]
    if invalid:
        return OpeningCheck(verdicts, total, False, f"does not open: {invalid[0].reason}")
    if len(pairs) == len(verdicts):
        if (twinned := _okey_pairs_a_twin(laid, indicator, chosen)) is not None:
            return OpeningCheck(verdicts, total, False, f"does not open: an okey pairs {twinned.code}, whose twin is "
                                "laid too: with okey_pair_of_okeys off an okey pairs only a tile whose twin is not in "
                                "the hand (H4, O5)", okey_twin=twinned)
        return _against(verdicts, total, len(pairs), chosen.opening_pairs, pairs_bar,
                        f"{len(pairs)} pairs", "the most pairs opened so far")
    if pairs:
        return OpeningCheck(
            verdicts, total, False, "does not open: lay either melds or pairs, not both, in one opening (H4)"
        )
    return _against(verdicts, total, total, chosen.opening_minimum, points_bar,
                    f"melds worth {total}", "the highest opening so far")


def _okey_pairs_a_twin(laid: Sequence[Sequence[Tile]], indicator: TileLike,
                       options: Okey101Options) -> Tile | None:
    """With ``okey_pair_of_okeys`` off an okey pairs only a tile whose twin is not in the hand (settled O5, as the
    rack's pairs count them): the face an okey pairs where another tile of that face is laid too, else ``None``.

    >>> off = Okey101Options(okey_pair_of_okeys=False)
    >>> _okey_pairs_a_twin([tiles_like("K5 R5"), tiles_like("K5 R5")], "R4", off)
    K5
    """
    if options.okey_pair_of_okeys:
        return None
    wilds = Wilds.from_indicator(indicator)
    faces = Counter(wilds.face(tile) for meld in laid for tile in meld if not wilds.is_wild(tile))
    for meld in laid:
        plain = [tile for tile in meld if not wilds.is_wild(tile)]
        if len(meld) == 2 and len(plain) == 1 and faces[wilds.face(plain[0])] > 1:
            return wilds.face(plain[0])
    return None


def _against(
    verdicts: tuple[MeldVerdict, ...], total: int, amount: int, minimum: int, bar: int | None,
    laid: str, so_far: str,
) -> OpeningCheck:
    """Whether ``amount`` (points or pairs) reaches ``minimum`` and, under the ratchet, beats ``bar`` (H4)."""
    if bar is None:
        if amount >= minimum:
            return OpeningCheck(verdicts, total, True, f"opens: {laid} (at least {minimum}, H4)")
        return OpeningCheck(verdicts, total, False, f"does not open: {laid}, {minimum} needed (H4)")
    needed = needed_to_open(minimum, bar)
    if amount >= needed:
        return OpeningCheck(verdicts, total, True, f"opens: {laid} (at least {minimum} and more than {bar}, "
                                                   f"{so_far}: opening_ratchet, H4)")
    why = f"more than {bar}, {so_far}" if needed > minimum else f"at least {minimum}, and more than {bar}, {so_far}"
    return OpeningCheck(verdicts, total, False, f"does not open: {laid}, {needed} needed ({why}: opening_ratchet, H4)")
