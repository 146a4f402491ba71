"""Rummikub (RULES.md §R, seed 002): tiles, melds, the initial meld, joker retrieval, hand scores, the match.

The tiles are Okey's with two real jokers ``J`` (R1); melds are O4's with 1 always low unless
``wrap_13_1`` (R2).  The lay-down assistant (R4) lives in :mod:`companion.rules.rummikub_laydown`;
:func:`solve` is its JSON face.

>>> check_meld("R4 J R6").meld.faces
(R4, R5, R6)
>>> check_initial_meld("R10 R11 R12 | K1 B1 Y1").value
36
>>> retrieve_joker("R4 J R6", "R5")
[R4, R5, R6]
>>> score = score_hand({"winner": 0, "racks": ["", "R5 J", "K12 B1"]})
>>> score.scores
(48, -35, -13)
>>> score.explain[1]
Player 2 keeps R5 J: 5 + 30 (joker) = 35 → −35.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules.errors import IllegalMeldError, InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, details, player, result_dict, texts, they
from companion.rules.melds import Meld, MeldVerdict, check_laid_meld, meld_notation
from companion.rules.rummikub_laydown import (
    COPIES,
    GOALS,
    JOKER_POINTS,
    JOKERS,
    RULE_IDS,
    LayDown,
    arrange_table,
    lay_down,
    parse_table,
    rummikub_tiles,
    tile_points,
)
from companion.rules.schema import short_repr
from companion.rules.tiles import Tile, TileLike, TilesLike, check_tile_counts, format_tiles

__all__ = [
    "PROFILES",
    "RummikubHandScore",
    "RummikubOptions",
    "RummikubStandings",
    "TurnCheck",
    "InitialMeldCheck",
    "arrange_table",
    "check_initial_meld",
    "check_meld",
    "check_turn",
    "lay_down",
    "rack_sum",
    "retrieve_joker",
    "admit_hand",
    "score_hand",
    "solve",
    "standings",
    "JokerTake",
    "joker",
    "meld",
    "take_joker",
    "turn",
]

InitialMeld = Literal[30, 50]


@dataclass(frozen=True)
class RummikubOptions:
    """Rummikub (RULES.md §R)."""

    wrap_13_1: bool = False
    """R2: a run may end 12-13-1 (off: 1 is always low; 13-1-2 never)."""
    initial_meld: InitialMeld = 30
    """R3: the least value of the first lay-down, from the rack alone (a joker counts as its tile)."""
    table_after_initial_meld: bool = False
    """R3: in the turn of the initial meld the player may go on to use the table."""
    joker_points: int = JOKER_POINTS
    """R6: what a joker left on a rack costs."""
    hands: int = 0
    """R6: the number of hands in the match; 0 = no fixed number (the table decides when to stop)."""
    turn_seconds: int = 60
    """R4: the shared turn timer, in seconds (0 = off)."""
    timeout_draw: int = 3
    """R4: tiles a player draws as a penalty when the timer runs out (official rules: put the moved
    tiles back and draw three)."""


PROFILES: dict[str, dict[str, Any]] = {
    "reference": {},
    "initial_50": {"initial_meld": 50},
    "free_first_turn": {"table_after_initial_meld": True},
    "no_timer": {"turn_seconds": 0},
}
"""Named profiles: overrides of the defaults ("reference" is the rule book)."""


def _options(options: RummikubOptions | None) -> RummikubOptions:
    if options is None:
        return RummikubOptions()
    if not isinstance(options, RummikubOptions):
        raise InvalidOptionError(f"options {options!r} are not Rummikub options; use RummikubOptions()")
    return options


def _check_copies(tiles: Sequence[Tile], what: str) -> None:
    """Refuse tiles no Rummikub set holds (R1): more than two copies of a numbered tile, or more than two
    jokers, in what one operation is given (a meld, a laid initial meld, a table, a rack).

    >>> _check_copies(rummikub_tiles("R10 R10 R10"), "table")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible table: 3 × R10, a Rummikub set has only 2 (R1)
    """
    check_tile_counts(tiles, copies=COPIES, specials=JOKERS, what=what, of="a Rummikub set", rule="R1")


# --- melds (R2) -------------------------------------------------------------------------------


def check_meld(tiles: TilesLike, options: RummikubOptions | None = None) -> MeldVerdict:
    """Judge one meld as laid on the table, left to right (R2); a joker stands where it lies.

    >>> check_meld("R12 R13 R1").reason
    'illegal run: [R12, R13, R1] (1 after 13 is not allowed here (wrap_13_1 is off, R2))'
    >>> check_meld("R12 R13 R1", RummikubOptions(wrap_13_1=True)).value
    26
    >>> check_meld("R7 B7").reason
    'illegal meld: [R7, B7] (a meld has at least 3 tiles, R2)'
    """
    laid = rummikub_tiles(tiles, "meld")
    _check_copies(laid, f"meld {meld_notation(laid)}")
    if len(laid) < 3:
        return MeldVerdict(False, 0, f"illegal meld: {meld_notation(laid)} (a meld has at least 3 tiles, R2)", None)
    return check_laid_meld(laid, indicator=None, wrap_13_1=_options(options).wrap_13_1, rules=RULE_IDS)


def _melds(value: Any) -> tuple[tuple[Tile, ...], ...]:
    tiles, grouping = parse_table(value)
    return grouping if grouping is not None else ((tiles,) if tiles else ())


@dataclass(frozen=True)
class InitialMeldCheck:
    """R3: whether laid melds make an initial meld: each valid, worth ``value`` ≥ the minimum."""

    opens: bool
    value: int
    minimum: int
    verdicts: tuple[MeldVerdict, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"opens": self.opens, "value": self.value, "minimum": self.minimum, "reason": self.reason,
                "melds": [v.to_dict() for v in self.verdicts]}


def check_initial_meld(melds: Any, options: RummikubOptions | None = None) -> InitialMeldCheck:
    """Judge a first lay-down (R3): melds from the rack, ``|`` between them, worth at least 30 (or 50).

    >>> check_initial_meld("J R12 R13").reason
    'opens: 11 + 12 + 13 = 36 ≥ 30 (R3: a joker counts as the tile it stands for)'
    >>> check_initial_meld("R4 R5 R6 | K1 K2 K3").reason
    'does not open: 15 + 6 = 21 < 30 (R3)'
    """
    options = _options(options)
    laid = _melds(melds)
    _check_copies([t for meld in laid for t in meld], "initial meld")
    verdicts = tuple(check_meld(meld, options) for meld in laid)
    minimum = options.initial_meld
    bad = next((v for v in verdicts if not v.valid), None)
    if not verdicts:
        return InitialMeldCheck(False, 0, minimum, (), f"nothing laid: the initial meld is worth at least {minimum} (R3)")
    if bad is not None:
        return InitialMeldCheck(False, 0, minimum, verdicts, f"does not open: {bad.reason}")
    value = sum(v.value for v in verdicts)
    parts = [str(v.value) for v in verdicts]
    if len(verdicts) == 1 and verdicts[0].meld is not None:
        parts = [str(f.number) for f in verdicts[0].meld.faces]
    sum_text = " + ".join(parts) + (f" = {value}" if len(parts) > 1 else "")
    if value >= minimum:
        jokers = any(t.is_joker for v in verdicts if v.meld for t in v.meld.tiles)
        why = " (R3: a joker counts as the tile it stands for)" if jokers else " (R3)"
        return InitialMeldCheck(True, value, minimum, verdicts, f"opens: {sum_text} ≥ {minimum}{why}")
    return InitialMeldCheck(False, value, minimum, verdicts, f"does not open: {sum_text} < {minimum} (R3)")


# --- joker retrieval (R5) and whole turns (R3-R5) -------------------------------------------------


def retrieve_joker(meld: TilesLike, tile: TileLike, options: RummikubOptions | None = None) -> Meld:
    """R5: put ``tile`` in place of the joker it is exactly the tile of; the new meld (the joker is
    freed and must be laid again in the same turn — :func:`check_turn` checks that).

    >>> retrieve_joker("R7 B7 J", "Y7")
    [R7, B7, Y7]
    >>> retrieve_joker("R4 J R6", "R7")
    Traceback (most recent call last):
    ...
    companion.rules.errors.IllegalMeldError: R7 cannot take the joker of [R4, J, R6]: it stands for R5 (R5)
    """
    options = _options(options)
    laid = rummikub_tiles(meld, "meld")
    parsed = rummikub_tiles(tile if isinstance(tile, str) else [tile], "tile")
    before = check_meld(laid, options)
    if not before.valid or before.meld is None:
        raise IllegalMeldError(f"cannot take a joker from {meld_notation(laid)}: {before.reason}")
    if len(parsed) != 1 or parsed[0].is_joker:
        raise IllegalMeldError(f"a joker is taken by laying the one exact tile it stands for, not {tile!r} (R5)")
    given = parsed[0]
    stands = [before.meld.faces[p] for p, t in enumerate(laid) if t.is_joker]
    if not stands:
        raise IllegalMeldError(f"{meld_notation(laid)} holds no joker (R5)")
    for place, laid_tile in enumerate(laid):
        if laid_tile.is_joker:
            after = check_meld(laid[:place] + (given,) + laid[place + 1 :], options)
            if after.valid and after.meld is not None:
                return after.meld
    faces = " or ".join(sorted({f.code for f in stands}))
    if before.meld.kind == "set":
        missing = sorted({f"{c}{before.meld.faces[0].number}" for c in "RYBK"}
                         - {t.code for t in laid if not t.is_joker})
        faces = " or ".join(missing)
    raise IllegalMeldError(
        f"{given.code} cannot take the joker of {meld_notation(laid)}: it stands for {faces} (R5)"
    )


@dataclass(frozen=True)
class TurnCheck:
    """Whether a turn's table is legal (R3-R5): ``laid`` are the rack tiles it added."""

    valid: bool
    laid: tuple[Tile, ...]
    value: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "laid": [t.code for t in self.laid], "value": self.value, "reason": self.reason}


def check_turn(before: Any, after: Any, *, opened: bool, options: RummikubOptions | None = None,
               rack: Any = None) -> TurnCheck:
    """Referee a whole turn: the table ``before`` and ``after`` (melds separated by ``|``).

    Every meld after is valid (R4); no tile left the table — a joker taken back (R5) is laid
    again; the tiles added came from the rack (checked against ``rack``, the player's tiles before the turn,
    when it is given); before the player has ``opened``, the new melds are rack tiles alone worth at least
    the minimum and the table is otherwise untouched (R3).

    >>> check_turn("R4 J R6", "R4 R5 R6 | K9 K10 J", opened=True).reason
    'legal turn: lays R5 K9 K10 (R4)'
    >>> check_turn("R4 J R6", "R4 R5 R6", opened=True).reason
    'illegal turn: J left the table; a joker taken back is laid again in the same turn (R5)'
    """
    options = _options(options)
    old, new = _melds(before), _melds(after)
    _check_copies([t for m in old for t in m], "table before the turn")
    _check_copies([t for m in new for t in m], "table after the turn")
    verdicts = [check_meld(meld, options) for meld in new]
    for number, verdict in enumerate(verdicts, start=1):
        if not verdict.valid:
            return TurnCheck(False, (), 0, f"illegal turn: meld {number} {verdict.reason} (R4)")
    old_tiles: Counter[Tile] = Counter(t for m in old for t in m)
    new_tiles: Counter[Tile] = Counter(t for m in new for t in m)
    gone = old_tiles - new_tiles
    if gone:
        missing: list[Tile] = sorted(gone.elements(), key=lambda t: t.index)
        lost = format_tiles(missing)
        if all(t.is_joker for t in gone):
            return TurnCheck(False, (), 0, f"illegal turn: {lost} left the table; a joker taken back is laid "
                                           "again in the same turn (R5)")
        return TurnCheck(False, (), 0, f"illegal turn: {lost} left the table; table tiles stay on it (R4)")
    laid = tuple(sorted((new_tiles - old_tiles).elements(), key=lambda t: t.index))
    value = sum(tile_points(t, options.joker_points) for t in laid)
    if not laid:
        return TurnCheck(False, (), 0, "nothing laid: a player who cannot lay down draws a tile (R4)")
    if rack is not None:
        held = rummikub_tiles(rack, "rack")
        _check_copies([*old_tiles.elements(), *held], "table before the turn and rack")
        foreign: Counter[Tile] = Counter(laid) - Counter(held)
        if foreign:
            strange: list[Tile] = sorted(foreign.elements(), key=lambda t: t.index)
            return TurnCheck(False, laid, value, f"illegal turn: {format_tiles(strange)} came onto the table but not "
                                                 "from the rack; only the player's own tiles are laid (R4)")
    if not opened:
        keys = [_meld_key(meld, verdict) for meld, verdict in zip(new, verdicts)]
        before_keys = Counter(_meld_key(meld, check_meld(meld, options)) for meld in old)
        if before_keys - Counter(keys) and not options.table_after_initial_meld:
            return TurnCheck(False, laid, value, "illegal turn: the initial meld is laid from the rack alone; "
                                                 "the table stays as it is (R3)")
        # The melds the turn made: those of the new table that were not on the table before.
        added: list[tuple[tuple[Tile, ...], int]] = []
        for meld, verdict, key in zip(new, verdicts, keys):
            if before_keys[key]:
                before_keys[key] -= 1
            else:
                added.append((meld, verdict.value))
        worth = _rack_melds_worth(added, Counter(laid), options.initial_meld)
        if worth < options.initial_meld:
            return TurnCheck(False, laid, value, f"illegal turn: the new melds of rack tiles are worth {worth}, "
                                                 f"the initial meld needs {options.initial_meld} (R3)")
    return TurnCheck(True, laid, value, f"legal turn: lays {format_tiles(laid)} (R4)")


def _meld_key(meld: tuple[Tile, ...], verdict: MeldVerdict) -> tuple[tuple[int, int], ...]:
    """A meld as players tell it apart on the table (``verdict``: its :func:`check_meld`): its tiles, each with the
    face it stands for, in no order — a set written in any order, or a run read from either end, is the same meld;
    a joker moved to stand for another tile makes another meld."""
    faces = verdict.meld.faces if verdict.meld is not None else meld
    return tuple(sorted((tile.index, face.index) for tile, face in zip(meld, faces)))


def _rack_melds_worth(melds: Sequence[tuple[tuple[Tile, ...], int]], rack: Counter[Tile], enough: int) -> int:
    """What the melds laid from the rack alone are worth (R3): the most that disjoint ``melds`` (with their
    values) made only of the ``rack`` tiles laid add up to, the search stopping once it reaches ``enough``.

    >>> r456 = rummikub_tiles("R4 R5 R6")
    >>> _rack_melds_worth([(r456, 15), (r456, 15)], Counter(r456), 30)
    15
    """
    best = 0

    def search(start: int, left: Counter[Tile], worth: int) -> None:
        nonlocal best
        best = max(best, worth)
        for number in range(start, len(melds)):
            if best >= enough:
                return
            tiles, meld_value = melds[number]
            needed = Counter(tiles)
            if not needed - left:
                search(number + 1, left - needed, worth + meld_value)

    search(0, rack, 0)
    return best


# --- the operations' requests: their fields -------------------------------------------------------

_COMMON_FIELDS = ("op", "game", "options", "profile")


def _known_fields(request: Mapping[str, Any], known: Sequence[str], op: str) -> None:
    """Refuse a field the ``op`` request does not take (beside those every request may carry), naming its fields."""
    for name in request:
        if name not in known and name not in _COMMON_FIELDS:
            raise InvalidHandRecordError(f"unknown field {short_repr(name)} in a {op} request; use "
                                         f"{', '.join(known)}")


def _flag(request: Mapping[str, Any], name: str, default: bool, meaning: str) -> bool:
    """A true-or-false field of a request, ``meaning`` saying what true means where it is refused."""
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise InvalidHandRecordError(f"invalid {name} {short_repr(value)}: use true ({meaning}) or false")
    return value


# --- the turn referee and joker retrieval as JSON (R2-R5) ----------------------------------------


def _tiles_field(request: Mapping[str, Any], op: str, what: str) -> Any:
    """The ``tiles`` of a ``meld`` or ``opening`` request, which takes no other field: the command line sends its
    text as both ``tiles`` and ``cards`` (the card games' name)."""
    _known_fields(request, ("tiles", "cards"), op)
    tiles: Any = request.get("tiles")
    if tiles in (None, ""):
        tiles = request.get("cards")
    elif request.get("cards") not in (None, "", tiles):
        raise InvalidHandRecordError(f"give the {op} once, as 'tiles' (a 'cards' field differs from it)")
    if tiles in (None, ""):
        raise InvalidHandRecordError(f"missing field 'tiles': {what}")
    return tiles


def meld(request: Mapping[str, Any], options: RummikubOptions | None = None) -> dict[str, Any]:
    """The batch/CLI ``meld`` operation (R2, R3): referee melds as laid on the table, one or several separated by
    ``|`` (several: an initial meld, each judged and their worth against the minimum).

    >>> meld({"tiles": "R4 J R6"})["reason"]
    'legal run worth 15'
    >>> meld({"tiles": "R10 R11 R12 | K1 K2 K3"})["reason"]
    'opens: 33 + 6 = 39 ≥ 30 (R3)'
    """
    tiles = _tiles_field(request, "meld", "the meld as it lies, e.g. \"R4 J R6\", or several separated by '|'")
    if not (isinstance(tiles, str) and "|" in tiles):
        return check_meld(tiles, options).to_dict()
    initial = check_initial_meld(tiles, options)
    verdicts = [verdict.to_dict() for verdict in initial.verdicts]
    total = sum(verdict.value for verdict in initial.verdicts)
    return {"valid": all(verdict.valid for verdict in initial.verdicts), "value": total, "total": total,
            "opens": initial.opens, "minimum": initial.minimum, "reason": initial.reason, "verdicts": verdicts}


def turn(request: Mapping[str, Any], options: RummikubOptions | None = None) -> dict[str, Any]:
    """The batch/CLI ``turn`` operation (R3-R5): was this turn legal — the table ``before`` and ``after`` it
    (melds separated by ``|``), whether the player had ``opened`` (made the initial meld) before it, and
    optionally their ``rack`` before it.

    >>> turn({"before": "R4 J R6", "after": "R4 R5 R6 | K9 K10 J"})["reason"]
    'legal turn: lays R5 K9 K10 (R4)'
    """
    _known_fields(request, ("before", "after", "opened", "rack"), "turn")
    if request.get("after") in (None, ""):
        raise InvalidHandRecordError("missing field 'after': the table as it lies after the turn, melds "
                                     "separated by '|'")
    opened = _flag(request, "opened", True, "the player made the initial meld before this turn")
    rack = request.get("rack")
    checked = check_turn(request.get("before") or "", request["after"], opened=opened, options=options,
                         rack=None if rack in (None, "") else rack)
    return checked.to_dict()


@dataclass(frozen=True)
class JokerTake:
    """Whether ``tile`` may take a laid meld's joker (R5): the meld afterwards and why."""

    allowed: bool
    meld_after: tuple[Tile, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"allowed": self.allowed, "freed": 1 if self.allowed else 0,
                "meld_after": format_tiles(self.meld_after), "reason": self.reason}


def take_joker(meld: TilesLike, tile: Any, *, opened: bool = True,
               options: RummikubOptions | None = None) -> JokerTake:
    """R5 at the table: may ``tile`` (from the rack) take the joker of the laid ``meld``?  Only the exact tile
    the joker stands for takes it, and the joker must be laid again in the same turn.  Before the initial meld
    the table is not touched (R3), unless the option ``table_after_initial_meld`` lets the rest of the move
    that lays it use the table.

    >>> take_joker("R4 J R6", "R5").reason
    'R5 takes the joker of [R4, J, R6]: lay the joker again in this turn (R5)'
    >>> take_joker("R4 J R6", "R7").reason
    'R7 cannot take the joker of [R4, J, R6]: it stands for R5 (R5)'
    """
    options = _options(options)
    laid = rummikub_tiles(meld, "meld")
    given = rummikub_tiles(tile, "tile")
    if len(given) != 1 or given[0].is_joker:
        shown = format_tiles(given) or "nothing"
        raise InvalidHandRecordError(f"a joker is taken by laying the one exact tile it stands for: give one "
                                     f"numbered tile, not {shown} (R5)")
    _check_copies([*laid, *given], "meld and tile")
    if not opened and not options.table_after_initial_meld:
        return JokerTake(False, laid, "a joker on the table is taken only after the initial meld: until then "
                                      "the table stays as it is (R3)")
    try:
        after = retrieve_joker(laid, given[0], options)
    except IllegalMeldError as error:
        return JokerTake(False, laid, str(error))
    when = "" if opened else " after laying the initial meld from the rack"
    return JokerTake(True, after.tiles, f"{given[0].code} takes the joker of {meld_notation(laid)}{when}: lay the "
                                        "joker again in this turn (R5)")


def joker(request: Mapping[str, Any], options: RummikubOptions | None = None) -> dict[str, Any]:
    """The batch/CLI ``joker`` operation (R5): may ``tile`` take the joker of the laid ``meld`` ({"meld": "R4 J R6",
    "tile": "R5", "opened": true})?

    >>> joker({"meld": "R7 B7 J", "tile": "K7"})["meld_after"]
    'R7 B7 K7'
    """
    _known_fields(request, ("meld", "tile", "opened"), "joker")
    for name, what in (("meld", "the laid meld holding the joker"), ("tile", "the rack tile laid in its place")):
        if request.get(name) in (None, ""):
            raise InvalidHandRecordError(f"missing field {name!r}: {what}")
    opened = _flag(request, "opened", True, "the player made the initial meld")
    return take_joker(request["meld"], request["tile"], opened=opened, options=options).to_dict()


# --- the lay-down assistant as JSON (R4) ----------------------------------------------------------


def solve(request: Mapping[str, Any], options: RummikubOptions | None = None) -> dict[str, Any]:
    """The batch/CLI ``solve`` operation (R4): which rack tiles can be laid onto the table's melds, most tiles or most
    points (``{"table", "rack", "goal", "initial"}`` → the new table).

    >>> solve({"table": "R1 R2 R3", "rack": "R4 K9", "goal": "tiles"})["melds"]
    [['R1', 'R2', 'R3', 'R4']]
    """
    options = _options(options)
    _known_fields(request, ("table", "rack", "goal", "initial"), "solve")
    goal = request.get("goal", "tiles")
    if goal not in GOALS:
        raise InvalidHandRecordError(f"invalid goal {goal!r}: use 'tiles', 'points' or 'all'")
    initial = _flag(request, "initial", False, "the initial meld, R3")
    result: LayDown = lay_down(
        request.get("table", ""),
        request.get("rack", ""),
        goal=goal,
        initial=initial,
        wrap_13_1=options.wrap_13_1,
        initial_meld=options.initial_meld,
        table_after_initial_meld=options.table_after_initial_meld,
        joker_points=options.joker_points,
    )
    return result.to_dict()


def best_initial_meld(rack: TilesLike, options: RummikubOptions | None = None) -> LayDown | None:
    """The initial meld (R3) a rack holds that is worth the most: melds of its tiles alone, each joker counting
    as the tile it stands for; ``None`` where it holds no meld at all.

    Whether melds worth at least ``m`` can be laid is exact (the lay-down's own constraint), so the most is found
    by searching ``m``: each answer worth ``v`` ≥ ``m`` moves the search on to ``v + 1``.

    >>> best_initial_meld("R10 R11 R12 K1 K2 K3 J B5").opening      # the joker as R13, not K4
    52
    """
    options = _options(options)
    tiles = rummikub_tiles(rack, "rack")
    _check_copies(tiles, "rack")
    ceiling = sum(13 if tile.is_joker else tile.number for tile in tiles)

    def worth(minimum: int) -> LayDown | None:
        found = lay_down("", tiles, goal="points", initial=True, wrap_13_1=options.wrap_13_1, initial_meld=minimum,
                         joker_points=options.joker_points)
        return found if found.possible else None

    best = worth(1)
    if best is None:
        return None
    low, high = best.opening or 1, ceiling + 1  # melds worth ``low`` can be laid, worth ``high`` cannot
    while high - low > 1:
        middle = (low + high) // 2
        found = worth(middle)
        if found is None:
            high = middle
        else:
            best, low = found, found.opening or middle
    return best


def opening(request: Mapping[str, Any], options: RummikubOptions | None = None) -> dict[str, Any]:
    """The batch/CLI ``opening`` operation (R3): the most a rack's initial meld can be worth and whether it reaches
    the minimum (``{"tiles": "R10 R11 R12 K1 K2 K3 J"}``), with its melds and the tiles left.

    >>> result = opening({"tiles": "R10 R11 R12 K1 K2 K3 J B5"})
    >>> result["value"], result["opens"], result["melds"], result["left"]
    (52, True, [['R10', 'R11', 'R12', 'J'], ['K1', 'K2', 'K3']], 'B5')
    """
    options = _options(options)
    rack = rummikub_tiles(_tiles_field(request, "opening", "the rack, e.g. \"R10 R11 R12 K1 K2 K3 J\""), "rack")
    best = best_initial_meld(rack, options)
    laid = best.to_dict() if best else {"melds": [], "faces": []}
    melds, faces = laid["melds"], laid["faces"]
    value = (best.opening or 0) if best else 0
    used, left = Counter(code for meld in melds for code in meld), []
    for tile in rack:
        if used[tile.code]:
            used[tile.code] -= 1
        else:
            left.append(tile.code)
    opens = value >= options.initial_meld
    reasons = [f"{' '.join(meld)}: {' + '.join(code[1:] for code in face)} = {sum(int(code[1:]) for code in face)}"
               for meld, face in zip(melds, faces)]
    verdict = "opens" if opens else "does not open"
    reason = (f"best initial meld {value}: {verdict} ({value} {'≥' if opens else '<'} {options.initial_meld}, R3: "
              "from the rack alone, a joker counting as the tile it stands for)" if best
              else f"no meld in the rack: does not open (R3, {options.initial_meld} needed)")
    return {"value": value, "melds": melds, "opens": opens, "minimum": options.initial_meld, "left": " ".join(left),
            "reasons": reasons, "reason": reason}


# --- hand scores (R6) ---------------------------------------------------------------------------


def rack_sum(tiles: TilesLike, options: RummikubOptions | None = None) -> int:
    """The sum of a rack's tiles (R6): the numbers, a joker 30.

    >>> rack_sum("R5 J K13")
    48
    >>> rack_sum("J J J")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible rack: 3 × J, a Rummikub set has only 2 (R1)
    """
    rack = rummikub_tiles(tiles, "rack")
    _check_copies(rack, "rack")
    return sum(tile_points(t, _options(options).joker_points) for t in rack)


@dataclass(frozen=True)
class RummikubHandScore:
    """The scores of one Rummikub hand (R6), zero-sum, with the reasons.

    ``winner`` is the seat that emptied the rack, ``None`` when the pool ran out (then ``leaders``
    hold the lowest rack sum).
    """

    players: int
    winner: int | None
    leaders: tuple[int, ...]
    racks: tuple[tuple[Tile, ...], ...]
    sums: tuple[int, ...]
    scores: tuple[int, ...]
    explain: tuple[Explanation, ...]
    per_seat: tuple[tuple[Explanation, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "winner": self.winner,
            "leaders": list(self.leaders),
            "racks": [format_tiles(r) for r in self.racks],
            "sums": list(self.sums),
            "scores": list(self.scores),
            "explain": texts(self.explain),
            "explain_detail": details(self.explain),
            "per_seat": [texts(lines) for lines in self.per_seat],
        }


HAND_FIELDS = ("winner", "racks")


def _who(seat: int) -> str:
    return player(seat).capitalize()


def _sum_text(tiles: Sequence[Tile], options: RummikubOptions) -> str:
    if not tiles:
        return "nothing"
    parts = [f"{options.joker_points} (joker)" if t.is_joker else str(t.number) for t in tiles]
    total = sum(tile_points(t, options.joker_points) for t in tiles)
    return " + ".join(parts) + (f" = {total}" if len(parts) > 1 else "")


def score_hand(hand: Mapping[str, Any], options: RummikubOptions | None = None) -> RummikubHandScore:
    """Score one hand (R6) from ``{"winner": 0 | null, "racks": ["", "R5 J", …]}`` (one rack per seat).

    The winner emptied the rack: every other player scores minus the sum of their tiles (joker
    30), the winner plus the total.  ``winner: null`` — the pool ran out: the lowest rack sum wins
    and each other player pays the difference; with a tie for lowest, each of the tied players is
    paid the difference.

    >>> score_hand({"winner": None, "racks": ["R3 R4", "K10", "J"]}).scores
    (26, -3, -23)
    >>> score_hand({"winner": 0, "racks": ["R3", ""]})
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidHandRecordError: player 1 is the winner but the rack holds R3: the winner emptied the rack (R6); give "" as the winner's rack
    """
    options = _options(options)
    racks, winner = _hand_racks(hand)
    players = len(racks)
    sums = [sum(tile_points(t, options.joker_points) for t in rack) for rack in racks]
    per_seat: list[list[Explanation]] = [[] for _ in range(players)]
    scores = [0] * players
    if winner is not None:
        leaders: tuple[int, ...] = (winner,)
        for seat in range(players):
            if seat != winner:
                scores[seat] = -sums[seat]
                per_seat[seat].append(Explanation(
                    "rummikub.loser", {"seat": seat, "rack": format_tiles(racks[seat]), "sum": sums[seat]},
                    f"{_who(seat)} keeps {format_tiles(racks[seat]) or 'nothing'}: "
                    f"{_sum_text(racks[seat], options)} → −{sums[seat]}.",
                ))
        scores[winner] = sum(sums)
        losers = [s for s in range(players) if s != winner]
        per_seat[winner].insert(0, Explanation(
            "rummikub.winner", {"seat": winner, "points": scores[winner]},
            f"{_who(winner)} went out: + the others' racks "
            f"{' + '.join(str(sums[s]) for s in losers)} = +{scores[winner]} (R6).",
        ))
    else:
        low = min(sums)
        leaders = tuple(s for s in range(players) if sums[s] == low)
        for seat in range(players):
            if seat not in leaders:
                scores[seat] = -(sums[seat] - low) * len(leaders)
                paid = f" to each of {len(leaders)} players" if len(leaders) > 1 else ""
                per_seat[seat].append(Explanation(
                    "rummikub.pool_loser",
                    {"seat": seat, "sum": sums[seat], "lowest": low, "leaders": len(leaders), "score": scores[seat]},
                    f"{_who(seat)} keeps {format_tiles(racks[seat]) or 'nothing'} worth {sums[seat]}: "
                    f"pays {sums[seat]} − {low} = {sums[seat] - low}{paid} → −{-scores[seat]}.",
                ))
        gain = sum(sums[s] - low for s in range(players) if s not in leaders)
        for seat in leaders:
            scores[seat] = gain
            per_seat[seat].insert(0, Explanation(
                "rummikub.pool_winner", {"seat": seat, "sum": low, "points": gain},
                f"The pool ran out: {player(seat)} has the lowest rack ({low}) and is paid the differences: "
                f"+{gain} (R6).",
            ))
    seat_lines = tuple(tuple(lines) for lines in per_seat)
    return RummikubHandScore(
        players=players,
        winner=winner,
        leaders=leaders,
        racks=tuple(racks),
        sums=tuple(sums),
        scores=tuple(scores),
        explain=tuple(line for seat in (*leaders, *(s for s in range(players) if s not in leaders))
                      for line in seat_lines[seat]),
        per_seat=seat_lines,
    )


# --- the match ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RummikubStandings:
    """The zero-sum sheet: running totals after each hand; the highest total leads (and wins once the
    agreed number of hands, ``options.hands``, is played)."""

    players: int
    hands: int
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    hands_played: int
    finished: bool
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    explain: tuple[Explanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


def _hand_racks(hand: Mapping[str, Any]) -> tuple[list[tuple[Tile, ...]], int | None]:
    """The racks and the winner of a hand record (R6), checked: the fields, each seat's tiles, no tile more often
    than a set has it, the winner's rack empty."""
    if not isinstance(hand, Mapping):
        raise InvalidHandRecordError(f"a hand record must be an object such as {{\"winner\": 0, \"racks\": [\"\", \"R5\"]}}, not {hand!r}")
    for name in hand:
        if name not in HAND_FIELDS:
            raise InvalidHandRecordError(f"unknown field {name!r} in a Rummikub hand; use winner and racks")
    if "racks" not in hand:
        raise InvalidHandRecordError('a Rummikub hand needs "racks": one string of tiles per seat, "" for an empty rack')
    racks_value = hand["racks"]
    if not isinstance(racks_value, (list, tuple)) or not 2 <= len(racks_value) <= 4:
        raise InvalidHandRecordError(f"invalid racks {racks_value!r}: give a list of 2-4 racks, one string per seat")
    racks: list[tuple[Tile, ...]] = []
    for seat, rack in enumerate(racks_value):
        if not isinstance(rack, str):
            raise InvalidHandRecordError(
                f"invalid rack {rack!r} of {player(seat)}: give the tiles left as a string such as 'R5 J' (\"\" if empty)"
            )
        racks.append(rummikub_tiles(rack, f"rack of {player(seat)}"))
    players = len(racks)
    if "winner" not in hand:
        raise InvalidHandRecordError('a Rummikub hand needs "winner": the seat (0-based) that went out, or null if the pool ran out')
    winner = hand["winner"]
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < players):
        raise InvalidHandRecordError(f"invalid winner {winner!r}: give a seat 0-{players - 1}, or null if the pool ran out")
    _check_copies([t for rack in racks for t in rack], "hand on the racks")
    if winner is not None and racks[winner]:
        raise InvalidHandRecordError(
            f"{player(winner)} is the winner but the rack holds {format_tiles(racks[winner])}: "
            'the winner emptied the rack (R6); give "" as the winner\'s rack'
        )
    return racks, winner


def admit_hand(hand: Mapping[str, Any], options: RummikubOptions | None = None, standings: Any = None) -> None:
    """Refuse a new hand record no game can produce (the registry's ``admit_hand``: checked where a hand enters,
    never on replay): an empty rack beside the winner's, for a player who empties the rack wins (R6).

    >>> admit_hand({"winner": 0, "racks": ["", ""]})
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidHandRecordError: player 2's rack is empty, but player 1 is the winner: only the winner emptied the rack (R6); give the tiles player 2 kept
    """
    _options(options)
    racks, winner = _hand_racks(hand)
    emptied = next((seat for seat, rack in enumerate(racks) if not rack and seat != winner), None)
    if emptied is not None:
        if winner is None:
            raise InvalidHandRecordError(
                f"{player(emptied)}'s rack is empty, but nobody won: the pool runs out only while every rack holds "
                f"tiles, and a player who empties the rack wins the hand (R6); mark {player(emptied)} as the winner "
                f'("winner": {emptied}), or give the tiles {player(emptied)} kept'
            )
        raise InvalidHandRecordError(
            f"{player(emptied)}'s rack is empty, but {player(winner)} is the winner: only the winner emptied the rack "
            f"(R6); give the tiles {player(emptied)} kept"
        )


def standings(players: int, hands: Sequence[RummikubHandScore], options: RummikubOptions | None = None) -> RummikubStandings:
    """Replay the hands: totals add up (zero-sum); with ``options.hands`` > 0 the match ends after that many.

    >>> win = score_hand({"winner": 1, "racks": ["R5", "", "K10 J"]})
    >>> standings(3, [win, win], RummikubOptions(hands=2)).explain[0]
    All 2 hands are played: player 2 wins with the highest total (+90).
    """
    options = _options(options)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidHandRecordError(f"invalid players {players!r}: Rummikub is played by 2-4 players (R1)")
    totals = [0] * players
    history: list[tuple[int, ...]] = []
    for number, hand in enumerate(hands, start=1):
        if hand.players != players:
            raise InvalidHandRecordError(f"hand {number} has {hand.players} racks, the table has {players} players")
        if options.hands and number > options.hands:
            raise InvalidHandRecordError(f"hand {number} is one too many: the match is {options.hands} hands")
        totals = [t + s for t, s in zip(totals, hand.scores)]
        history.append(tuple(totals))
    best = max(totals)
    leaders = tuple(s for s in range(players) if totals[s] == best)
    finished = bool(options.hands) and len(history) == options.hands
    lines: list[Explanation] = []
    if finished:
        lines.append(Explanation(
            "rummikub.match_over", {"winners": list(leaders), "totals": totals, "hands": options.hands},
            f"All {options.hands} hands are played: {they(leaders, 'win')} with the highest total (+{best})."
            if best > 0 else f"All {options.hands} hands are played: {they(leaders, 'win')} with the highest total ({best}).",
        ))
    return RummikubStandings(
        players=players,
        hands=options.hands,
        totals=tuple(totals),
        history=tuple(history),
        hands_played=len(history),
        finished=finished,
        leaders=leaders,
        winners=leaders if finished else (),
        explain=tuple(lines),
    )
