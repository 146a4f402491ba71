"""The Rummikub lay-down assistant (R4): rearrange the whole table around the rack tiles laid.

Exact, never greedy: an integer programme in the style of den Hertog & Hulshof (2006), solved by
HiGHS through :func:`scipy.optimize.milp`.  One variable per meld *template* counts how often that
meld lies on the new table (0-2), one per tile kind counts the rack tiles laid, and every tile on the
table must end up in a meld.  Templates are sets of 3 or 4 distinct colours and runs of 3-5 tiles
(longer runs split into those, so nothing is lost), without jokers: a joker is a stand-in, one
variable per face counts the jokers standing for it (so 190-odd templates instead of the ~750 of
joker-bearing ones), and only templates the position's tiles and jokers can build enter.

The objective is lexicographic, as weights: the goal first (most tiles, or most points as R6 counts
them, a joker 30), then the fewest table melds changed when the current grouping is given, then the
other measure.  ``mip_rel_gap`` is 0, so the optimum is proven, never approximated.

>>> result = lay_down("R4 R5 R6 | K9 K10 K11", "R7 J B9 Y9", goal="tiles")
>>> result.melds
([K9, K10, K11], [Y9, B9, J], [R4, R5, R6, R7])
>>> result.placed, result.value, result.changed
((R7, Y9, B9, J), 55, 1)
>>> lay_down("", "R4 J R6", goal="all").melds[0].faces
(R4, R5, R6)
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Literal

from companion.rules import _search
from companion.rules.errors import IllegalMeldError, ImpossibleHandError, InvalidTileError, RulesError
from companion.rules.melds import MeldRuleIds, check_laid_meld, meld_notation
from companion.rules.tiles import COLOURS, JOKER, Tile, TilesLike, format_tiles, tile_from_index, tiles_like

__all__ = [
    "GOALS",
    "Goal",
    "LaidMeld",
    "LayDown",
    "lay_down",
    "arrange_table",
    "parse_table",
    "rummikub_tiles",
    "tile_points",
]

Goal = Literal["tiles", "points", "all"]
GOALS: tuple[Goal, ...] = ("tiles", "points", "all")

KINDS = 53
"""Tile kinds in the programme: ``Tile.index`` 0-51 for the numbered tiles, 52 for the joker."""
JOKER_KIND = 52
COPIES = 2
JOKERS = 2
JOKER_POINTS = 30
"""R6: a joker left on a rack counts 30, and so does a joker laid, in the "points" goal."""
HIGHS_OPTIONS: dict[str, Any] = {"mip_rel_gap": 0.0, "time_limit": 60.0, "presolve": True}
"""Proven optima (no relative gap).  Presolve stays on: without it HiGHS 1.12 (SciPy 1.17) "repairs" some
solutions of these small programmes and prints a debug line from C++ to the process's stdout for each, where
no HiGHS option or Python redirect silences it, and the batch answers one JSON line per request (R4)."""

RULE_IDS = MeldRuleIds(meld="R2", wrap="R2")
"""What Rummikub's meld verdicts cite: R2 (melds as O4, 1 always low unless ``wrap_13_1``)."""

MeldKind = Literal["set", "run"]


def tile_points(tile: Tile, joker_points: int = JOKER_POINTS) -> int:
    """The points of a tile as R6 counts them: its number, a joker 30."""
    return joker_points if tile.is_joker else tile.number


def rummikub_tiles(value: TilesLike, what: str = "tiles") -> tuple[Tile, ...]:
    """Parse Rummikub tiles: the notation of RULES.md §0 with the joker ``J``, orange ``O`` read as ``Y``.

    >>> rummikub_tiles("r7, o13 j")
    (R7, Y13, J)
    >>> rummikub_tiles("R7 F")
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidTileError: invalid tile 'F' in tiles: F is Okey's false okey; a Rummikub set has jokers J (R1)
    >>> rummikub_tiles("R7 X7", "rack")
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidTileError: invalid Rummikub tile 'X7' in rack: write a colour letter R, Y (or O), B or K and a number 1-13, or J for a joker (e.g. R7, K13, J)
    >>> rummikub_tiles(7, "rack")
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidTileError: invalid rack 7: expected tiles as a string such as 'R7 K13 J'
    """
    if isinstance(value, str):
        text = " ".join(_orange(token) for token in value.replace(",", " ").split())
        try:
            tiles = tiles_like(text)
        except InvalidTileError as error:  # said in Rummikub's words: no false okey, a joker J
            bad = re.match(r"invalid tile '([^']*)'", str(error))
            if bad is None:
                raise
            raise InvalidTileError(f"invalid Rummikub tile {bad[1]!r} in {what}: write a colour letter R, Y (or O), B "
                                   "or K and a number 1-13, or J for a joker (e.g. R7, K13, J)") from None
    elif isinstance(value, (list, tuple)) and all(isinstance(v, (str, Tile)) for v in value):
        tiles = tuple(t for v in value for t in ((v,) if isinstance(v, Tile) else rummikub_tiles(v, what)))
    else:
        raise InvalidTileError(f"invalid {what} {value!r}: expected tiles as a string such as 'R7 K13 J'")
    if any(t.is_false_okey for t in tiles):
        raise InvalidTileError(
            f"invalid tile 'F' in {what}: F is Okey's false okey; a Rummikub set has jokers J (R1)"
        )
    return tiles


def _orange(token: str) -> str:
    return "Y" + token[1:] if token[:1] in ("O", "o") and token[1:].isdigit() else token


def parse_table(value: Any) -> tuple[tuple[Tile, ...], tuple[tuple[Tile, ...], ...] | None]:
    """A table as ``(tiles, melds)``: ``melds`` is the grouping when one is given, else ``None``.

    The grouping is given with ``|`` between melds (``"R1 R2 R3 | K5 K6 K7"``; a single meld as
    ``"R1 R2 R3 |"``) or as a list of melds; plain tiles are a multiset the assistant arranges.

    >>> parse_table("r1 r2 r3 | K5 K6 K7")
    ((R1, R2, R3, K5, K6, K7), ((R1, R2, R3), (K5, K6, K7)))
    >>> parse_table("R1 R2 R3")
    ((R1, R2, R3), None)
    """
    if isinstance(value, str):
        if "|" not in value:
            return rummikub_tiles(value, "table"), None
        melds = tuple(rummikub_tiles(part, "table") for part in value.split("|") if part.strip())
    elif isinstance(value, (list, tuple)) and all(isinstance(m, (list, tuple)) for m in value):
        melds = tuple(rummikub_tiles(list(m), "table") for m in value)
    elif isinstance(value, (list, tuple)):
        return rummikub_tiles(list(value), "table"), None
    else:
        raise InvalidTileError(
            f"invalid table {value!r}: expected tiles as a string such as 'R1 R2 R3 | K5 K6 K7' "
            "('|' between melds) or a list of melds"
        )
    return tuple(t for meld in melds for t in meld), melds


@dataclass(frozen=True)
class _Template:
    """A meld without jokers: a set of 3-4 colours or a run of 3-5, its faces in laid order."""

    kind: MeldKind
    faces: tuple[int, ...]
    value: int


@lru_cache(maxsize=2)
def _catalogue(wrap: bool) -> tuple[tuple[_Template, ...], dict[tuple[int, ...], int]]:
    """Every template, and each one's index by its sorted faces."""
    templates: list[_Template] = []
    for number in range(1, 14):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                templates.append(_Template("set", tuple(c * 13 + number - 1 for c in colours), number * size))
    last = 14 if wrap else 13
    for colour in range(4):
        for length in (3, 4, 5):
            for start in range(1, last - length + 2):
                numbers = [(n - 1) % 13 + 1 for n in range(start, start + length)]
                templates.append(_Template("run", tuple(colour * 13 + n - 1 for n in numbers), sum(numbers)))
    return tuple(templates), {tuple(sorted(t.faces)): i for i, t in enumerate(templates)}


@dataclass(frozen=True)
class LaidMeld:
    """A meld of the new table: tiles in laid order, the face each stands for (a joker's is where it
    stands), which tiles come from the rack, and whether it is one of the given melds, unchanged."""

    tiles: tuple[Tile, ...]
    faces: tuple[Tile, ...]
    kind: MeldKind
    from_rack: tuple[bool, ...]
    kept: bool

    def __repr__(self) -> str:
        return meld_notation(self.tiles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiles": [t.code for t in self.tiles],
            "faces": [f.code for f in self.faces],
            "kind": self.kind,
            "from_rack": list(self.from_rack),
            "kept": self.kept,
        }


@dataclass(frozen=True)
class LayDown:
    """The assistant's answer.

    ``possible`` — for goal "all": every selected tile goes (else ``cannot`` names the tiles the
    best arrangement of the selection leaves over, and ``melds`` is the table as it is); for "tiles"
    and "points": at least one tile can be laid; in initial-meld mode the rack reaches the minimum.
    ``value`` is the points of the tiles ``placed`` (R6: a joker 30), ``opening`` the R3 value of
    the melds made from the rack alone (initial-meld mode), ``changed`` how many of the given table
    melds changed (``None`` without a grouping).
    """

    possible: bool
    goal: Goal
    initial: bool
    melds: tuple[LaidMeld, ...]
    placed: tuple[Tile, ...]
    value: int
    cannot: tuple[Tile, ...]
    changed: int | None
    opening: int | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "possible": self.possible,
            "goal": self.goal,
            "initial": self.initial,
            "melds": [[t.code for t in m.tiles] for m in self.melds],
            "faces": [[f.code for f in m.faces] for m in self.melds],
            "from_rack": [list(m.from_rack) for m in self.melds],
            "kept": [m.kept for m in self.melds],
            "placed": [t.code for t in self.placed],
            "value": self.value,
            "tiles": len(self.placed),
            "cannot": [t.code for t in self.cannot],
            "changed": self.changed,
            "opening": self.opening,
            "reason": self.reason,
        }


def _counts(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * KINDS
    for tile in tiles:
        counts[JOKER_KIND if tile.is_joker else tile.index] += 1
    return counts


def _tile(kind: int) -> Tile:
    return JOKER if kind == JOKER_KIND else tile_from_index(kind)


def _check_counts(table: Sequence[Tile], rack: Sequence[Tile]) -> None:
    on_table, on_rack = Counter(table), Counter(rack)
    for tile in sorted(on_table + on_rack, key=lambda t: t.index):
        count = on_table[tile] + on_rack[tile]
        limit = JOKERS if tile.is_joker else COPIES
        if count > limit:
            raise ImpossibleHandError(
                f"impossible position: {count} × {tile.code} (table {on_table[tile]}, rack {on_rack[tile]}); "
                f"a Rummikub set has only {limit} (R1)"
            )


@dataclass(frozen=True)
class _Given:
    """The table's given grouping, each meld checked and split into templates (long runs into 3-5)."""

    melds: tuple[LaidMeld, ...]
    pieces: tuple[tuple[int, ...], ...]
    real: tuple[Counter[int], ...]
    """The faces of each meld's real tiles."""
    jokers: tuple[Counter[int], ...]
    """The faces each meld's jokers stand for."""


def _given_melds(melds: Sequence[Sequence[Tile]], wrap: bool) -> _Given:
    by_faces = _catalogue(wrap)[1]
    laid: list[LaidMeld] = []
    pieces: list[tuple[int, ...]] = []
    reals: list[Counter[int]] = []
    jokers: list[Counter[int]] = []
    for number, meld in enumerate(melds, start=1):
        verdict = check_laid_meld(meld, indicator=None, wrap_13_1=wrap, rules=RULE_IDS)
        if len(meld) < 3 or not verdict.valid or verdict.meld is None:
            why = verdict.reason if len(meld) >= 3 else f"a meld has at least 3 tiles: {meld_notation(meld)}"
            raise IllegalMeldError(
                f"the table is not valid melds: meld {number} {meld_notation(meld)} is illegal ({why}); "
                "every meld on the table is valid at the end of each turn (R4) — check the table"
            )
        faces = [f.index for f in verdict.meld.faces]
        kind: MeldKind = "set" if verdict.meld.kind == "set" else "run"
        laid.append(LaidMeld(tuple(meld), verdict.meld.faces, kind, (False,) * len(meld), True))
        chunks = [list(range(len(meld)))] if kind == "set" else _run_chunks(len(meld))
        pieces.append(tuple(by_faces[tuple(sorted(faces[i] for i in chunk))] for chunk in chunks))
        reals.append(Counter(f for f, t in zip(faces, meld) if not t.is_joker))
        jokers.append(Counter(f for f, t in zip(faces, meld) if t.is_joker))
    return _Given(tuple(laid), tuple(pieces), tuple(reals), tuple(jokers))


def _run_chunks(length: int) -> list[list[int]]:
    """Positions of a run split into pieces of 3-5 tiles: 6 → 3+3, 7 → 3+4, 9 → 3+3+3."""
    chunks: list[list[int]] = []
    start = 0
    while length - start > 5:
        chunks.append(list(range(start, start + 3)))
        start += 3
    chunks.append(list(range(start, length)))
    return chunks


@dataclass(frozen=True)
class _Solution:
    pieces: tuple[int, ...]
    """Templates of the new table's melds (repeated for a template used twice)."""
    opening: tuple[int, ...]
    """Templates of the melds made of rack tiles alone (initial-meld mode)."""
    jokers: tuple[int, ...]
    """For each face, the jokers standing for it in ``pieces``."""
    opening_jokers: tuple[int, ...]
    """For each face, the jokers standing for it in ``opening``."""
    placed: tuple[int, ...]
    """Rack tiles laid, per tile kind."""
    kept: tuple[bool, ...]


class _Model:
    """A small integer programme: columns with bounds and costs, sparse rows with bounds."""

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.cost: list[float] = []
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.data: list[float] = []
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []

    def column(self, low: float, high: float, cost: float = 0.0) -> int:
        self.lower.append(low)
        self.upper.append(high)
        self.cost.append(cost)
        return len(self.cost) - 1

    def row(self, low: float, high: float, terms: Sequence[tuple[int, float]]) -> None:
        row = len(self.row_lower)
        self.row_lower.append(low)
        self.row_upper.append(high)
        for col, value in terms:
            self.rows.append(row)
            self.cols.append(col)
            self.data.append(value)

    def maximise(self) -> list[int] | None:
        """The optimal integer values of the columns (maximising ``cost``), or ``None`` if infeasible."""
        if not self.cost:
            feasible = all(low <= 0.0 <= high for low, high in zip(self.row_lower, self.row_upper))
            return [] if feasible else None
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_array

        shape = (len(self.row_lower), len(self.cost))
        constraints = []
        if self.row_lower:
            matrix = coo_array((self.data, (self.rows, self.cols)), shape=shape).tocsr()
            constraints.append(LinearConstraint(matrix, self.row_lower, self.row_upper))
        with warnings.catch_warnings():
            # HiGHS options beyond scipy's five are passed on verbatim, with a warning.
            warnings.simplefilter("ignore", RuntimeWarning)
            result = milp(
                [-c for c in self.cost],
                integrality=[1] * len(self.cost),
                bounds=Bounds(self.lower, self.upper),
                constraints=constraints,
                options=HIGHS_OPTIONS,
            )
        if result.status == 2:
            return None
        if result.status != 0 or result.x is None:
            raise RulesError(f"the lay-down search did not finish ({result.message}); try fewer tiles")
        return [round(v) for v in result.x.tolist()]


def _usable(templates: Sequence[_Template], counts: Sequence[int], jokers: int) -> list[tuple[int, int]]:
    """(template, how many times it can lie) for the templates ``counts`` and ``jokers`` can build."""
    found = []
    for i, template in enumerate(templates):
        for bound in (2, 1):
            missing = 0
            for face in template.faces:
                if counts[face] < bound:
                    missing += bound - counts[face]
            if missing <= jokers:
                found.append((i, bound))
                break
    return found


def _solve(
    table: Sequence[int],
    rack: Sequence[int],
    *,
    wrap: bool,
    goal: Goal,
    joker_points: int,
    given: _Given | None,
    opening_minimum: int | None,
    rack_only: bool,
) -> _Solution | None:
    """The best new table, or ``None`` when no arrangement meets the constraints.

    ``rack_only``: the table stays as it is and only melds of rack tiles are laid (R3);
    ``opening_minimum``: the melds of rack tiles alone must be worth at least this much (R3).
    For goal "all" every rack tile given must be laid.

    Melds are templates without jokers; a joker on the new table stands for one face of one of
    them, so the count of each face on the table is its real tiles plus the jokers standing for it.
    Every template has three places or more and there are two jokers, so each holds a real tile.
    """
    templates = _catalogue(wrap)[0]
    on_table = [0] * KINDS if rack_only else list(table)
    available = [t + r for t, r in zip(on_table, rack)]
    jokers = available[JOKER_KIND]
    laid_kinds = [k for k in range(KINDS) if rack[k]]
    given_used = given if given is not None and not rack_only else None
    model = _Model()

    # Lexicographic objective as weights: the goal, then the given melds kept, then the other measure.
    points = {k: float(tile_points(_tile(k), joker_points)) for k in laid_kinds}
    most_points = sum(points[k] * rack[k] for k in laid_kinds) + 1.0
    most_tiles = sum(rack) + 1.0
    most_kept = (len(given_used.melds) if given_used else 0) + 1.0
    if goal == "points":
        weight = {k: points[k] * most_kept * most_tiles + 1.0 for k in laid_kinds}
        kept_weight = most_tiles
    else:
        first = 0.0 if goal == "all" else 1.0
        weight = {k: first * most_kept * most_points + points[k] for k in laid_kinds}
        kept_weight = most_points

    faces: dict[int, list[tuple[int, float]]] = {}

    def add(chosen: list[tuple[int, int]]) -> list[tuple[int, int]]:
        columns = []
        for i, bound in chosen:
            col = model.column(0, bound)
            columns.append((i, col))
            for face in templates[i].faces:
                faces.setdefault(face, []).append((col, 1.0))
        return columns

    pieces = [] if rack_only else add(_usable(templates, available, jokers))
    opening = add(_usable(templates, rack, rack[JOKER_KIND])) if opening_minimum is not None else []
    laid = {k: model.column(rack[k] if goal == "all" else 0, rack[k], weight[k]) for k in laid_kinds}
    stand_ins = {f: model.column(0, min(jokers, COPIES)) for f in faces} if jokers and pieces else {}
    opening_faces = {face: [(col, 1.0) for i, col in opening if face in templates[i].faces]
                     for face in sorted({f for i, _ in opening for f in templates[i].faces})}
    opening_stand_ins = {f: model.column(0, rack[JOKER_KIND]) for f in opening_faces} if rack[JOKER_KIND] else {}
    for face, col in opening_stand_ins.items():
        # A joker of the opening stands in one of the opening melds.
        model.row(float("-inf"), 0.0, [(col, 1.0)] + [(c, -v) for c, v in opening_faces[face]])
    # Each face on the new table: table tiles + rack tiles laid + jokers standing for it.
    for face in sorted(set(faces) | {k for k in range(JOKER_KIND) if available[k]}):
        terms = list(faces.get(face, []))
        if face in laid:
            terms.append((laid[face], -1.0))
        if face in stand_ins:
            terms.append((stand_ins[face], -1.0))
        if face in opening_stand_ins:
            terms.append((opening_stand_ins[face], -1.0))
        model.row(on_table[face], on_table[face], terms)
    if jokers:
        terms = [(col, 1.0) for col in (*stand_ins.values(), *opening_stand_ins.values())]
        if JOKER_KIND in laid:
            terms.append((laid[JOKER_KIND], -1.0))
        model.row(on_table[JOKER_KIND], on_table[JOKER_KIND], terms)
    if opening and not rack_only:
        # The opening melds are made of laid rack tiles only (R3).
        real: dict[int, list[tuple[int, float]]] = {}
        for i, col in opening:
            for face in templates[i].faces:
                real.setdefault(face, []).append((col, 1.0))
        for face, terms in real.items():
            terms += [(opening_stand_ins[face], -1.0)] if face in opening_stand_ins else []
            terms += [(laid[face], -1.0)] if face in laid else []
            model.row(float("-inf"), 0.0, terms)
        if opening_stand_ins:
            model.row(float("-inf"), 0.0, [(col, 1.0) for col in opening_stand_ins.values()]
                      + [(laid[JOKER_KIND], -1.0)])
    if opening_minimum is not None:
        model.row(float(opening_minimum), float("inf"), [(col, float(templates[i].value)) for i, col in opening])
    kept: list[int] = []
    if given_used is not None:
        # A given meld is kept only if its templates, real tiles and jokers all lie on the new table as it has them.
        kept = [model.column(0, 1, kept_weight) for _ in given_used.melds]
        column_of = dict(pieces)
        need: dict[int, list[tuple[int, float]]] = {}
        for m, keys in enumerate(given_used.pieces):
            for key in keys:
                need.setdefault(key, [(column_of[key], -1.0)]).append((kept[m], 1.0))
        for terms in need.values():
            model.row(float("-inf"), 0.0, terms)
        real_need: dict[int, list[tuple[int, float]]] = {}
        joker_need: dict[int, list[tuple[int, float]]] = {}
        for m in range(len(kept)):
            for face, count in given_used.real[m].items():
                real_need.setdefault(face, []).append((kept[m], float(count)))
            for face, count in given_used.jokers[m].items():
                joker_need.setdefault(face, []).append((kept[m], float(count)))
        for face, terms in real_need.items():
            model.row(float("-inf"), float(on_table[face]), terms + ([(laid[face], -1.0)] if face in laid else []))
        for face, terms in joker_need.items():
            model.row(float("-inf"), 0.0, terms + [(stand_ins[face], -1.0)])

    values = model.maximise()
    if values is None:
        return None

    def per_face(columns: dict[int, int]) -> tuple[int, ...]:
        counts = [0] * KINDS
        for face, col in columns.items():
            counts[face] = values[col]
        return tuple(counts)

    return _Solution(
        pieces=tuple(i for i, col in pieces for _ in range(values[col])),
        opening=tuple(i for i, col in opening for _ in range(values[col])),
        jokers=per_face(stand_ins),
        opening_jokers=per_face(opening_stand_ins),
        placed=per_face(laid),
        kept=tuple(values[col] == 1 for col in kept),
    )


_Piece = tuple[list[Tile], list[Tile], MeldKind, list[bool]]


def _pieces(
    templates: Sequence[int], jokers: Sequence[int], placed: list[int], wrap: bool, *, rack_jokers: int
) -> list[_Piece]:
    """Templates as melds: ``jokers[f]`` places of face ``f`` hold a joker; ``placed[k]`` tiles of kind
    ``k`` are marked as rack tiles (counted down); ``rack_jokers`` of the jokers are."""
    catalogue = _catalogue(wrap)[0]
    left = list(jokers)
    made: list[_Piece] = []
    for i in templates:
        template = catalogue[i]
        tiles: list[Tile] = []
        rack: list[bool] = []
        for face in template.faces:
            if left[face]:
                left[face] -= 1
                tiles.append(JOKER)
                rack.append(rack_jokers > 0)
                rack_jokers -= 1
            else:
                tiles.append(tile_from_index(face))
                rack.append(placed[face] > 0)
                placed[face] -= 1
        made.append((tiles, [tile_from_index(f) for f in template.faces], template.kind, rack))
    return made


def _follows(before: _Piece, run: _Piece) -> bool:
    """Whether ``run`` continues ``before`` into one legal run: same colour, the next number, and never a
    run from 1 on round to a 1 after 13 (R2 as O4: 1 may be low or follow 13, never both)."""
    start, first = before[1][0], run[1][0]
    end = start.number + len(before[1]) + len(run[1]) - 1
    return (start.colour == first.colour and start.number + len(before[1]) == first.number
            and (end <= 13 or start.number > 1))


def _join(pieces: list[_Piece]) -> list[_Piece]:
    """Sets by number (jokers last), then runs by colour, runs of one colour that follow each other
    joined into one (:func:`_follows`)."""
    sets: list[_Piece] = []
    for tiles, faces, kind, rack in pieces:
        if kind == "set":
            order = sorted(range(len(tiles)), key=lambda p: (tiles[p].is_joker, faces[p].index))
            sets.append(([tiles[p] for p in order], [faces[p] for p in order], kind, [rack[p] for p in order]))
    sets.sort(key=lambda p: (p[1][0].number, p[1][0].index))
    runs = sorted((p for p in pieces if p[2] == "run"), key=lambda p: (p[1][0].index // 13, p[1][0].number))
    joined: list[_Piece] = []
    for tiles, faces, kind, rack in runs:
        for before in joined:
            if _follows(before, (tiles, faces, kind, rack)):
                before[0].extend(tiles)
                before[1].extend(faces)
                before[3].extend(rack)
                break
        else:
            joined.append((list(tiles), list(faces), kind, list(rack)))
    return sets + joined


def _placed_tiles(placed: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(_tile(k) for k in range(KINDS) for _ in range(placed[k]))


def arrange_table(table: Any, *, wrap_13_1: bool = False) -> tuple[LaidMeld, ...] | None:
    """The table's tiles as valid melds (R4), or ``None`` when they cannot be.

    >>> arrange_table("R1 R2 R3 R4 K7 B7 J")
    ([B7, K7, J], [R1, R2, R3, R4])
    >>> arrange_table("R1 R2 R3 R5") is None
    True
    """
    tiles, grouping = parse_table(table)
    _check_counts(tiles, ())
    if grouping is not None:
        try:
            return _given_melds(grouping, wrap_13_1).melds
        except IllegalMeldError:
            return None
    return _arrange(tiles, wrap_13_1)


def _arrange(tiles: Sequence[Tile], wrap: bool) -> tuple[LaidMeld, ...] | None:
    """Split ``tiles`` into melds with the memoised search that checks Okey hands (jokers are its wilds):
    a table is valid far more often than not, and that search finds a split in well under a millisecond
    where the integer programme, with nothing to optimise, may branch for a while."""
    faces = [t.index for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(faces)
    if not _search.may_meld_all(faces, jokers, wrap):
        return None
    placements = _search.meld_all(_search.encode_counts(faces, wilds=jokers), wrap)
    if placements is None:
        return None
    made: list[_Piece] = []
    for kind, laid, wild_at in placements:
        made.append(([JOKER if w else tile_from_index(f) for f, w in zip(laid, wild_at)],
                     [tile_from_index(f) for f in laid], kind, [False] * len(laid)))
    return tuple(LaidMeld(tuple(t), tuple(f), k, tuple(r), False) for t, f, k, r in _join(made))


def lay_down(
    table: Any,
    rack: Any,
    *,
    goal: Goal = "tiles",
    initial: bool = False,
    wrap_13_1: bool = False,
    initial_meld: int = 30,
    table_after_initial_meld: bool = False,
    joker_points: int = JOKER_POINTS,
) -> LayDown:
    """Lay rack tiles on the table, rearranging everything (R4), or the initial meld (R3).

    ``table``: a multiset of tiles, or melds separated by ``|`` (then they must be valid melds, and
    the answer changes as few of them as it can).  ``rack``: the whole rack (goals "tiles" and
    "points": the best move) or a selection (goal "all": every tile must go).  ``initial``: the first
    lay-down, from the rack alone, worth at least ``initial_meld`` with each joker counting as the
    tile it stands for; with ``table_after_initial_meld`` the rest of the move may then use the table.

    >>> lay_down("", "R1 R2 R4 J Y13 K13", goal="tiles").placed
    (R1, R2, R4, J)
    >>> lay_down("", "R1 R2 R4 J Y13 K13", goal="points").placed
    (Y13, K13, J)
    >>> lay_down("R1 R2 R3", "B8 B9 B10 K2", initial=True).reason
    'no initial meld: the rack holds no melds worth 30 (R3: from the rack alone, a joker counting as the tile it stands for)'
    """
    if goal not in GOALS:
        raise RulesError(f"unknown goal {goal!r}; use one of: tiles, points, all")
    table_tiles, grouping = parse_table(table)
    rack_tiles = rummikub_tiles(rack, "rack")
    _check_counts(table_tiles, rack_tiles)
    wrap = wrap_13_1
    given = _given_melds(grouping, wrap) if grouping is not None else None
    table_counts, rack_counts = _counts(table_tiles), _counts(rack_tiles)
    rack_only = initial and not table_after_initial_meld
    minimum = initial_meld if initial else None

    def solve(goal_now: Goal) -> _Solution | None:
        return _solve(table_counts, rack_counts, wrap=wrap, goal=goal_now, joker_points=joker_points,
                      given=given, opening_minimum=minimum, rack_only=rack_only)

    def table_as_it_is() -> tuple[LaidMeld, ...]:
        if given is not None:
            return given.melds
        current = _arrange(table_tiles, wrap) if table_tiles else ()
        if current is None:
            raise IllegalMeldError(
                f"the table {format_tiles(table_tiles)} cannot be split into valid melds; every meld on the "
                "table is valid at the end of each turn (R4) — check for a missing or misread tile"
            )
        return current

    def unsolvable() -> IllegalMeldError:
        return IllegalMeldError(
            f"the table {format_tiles(table_tiles)} cannot be split into valid melds, even with the rack's "
            "tiles; every meld on the table is valid at the end of each turn (R4) — check for a missing or "
            "misread tile"
        )

    # An ungrouped table that is not valid melds by itself is taken as it comes: the rack may mend it
    # (a fixture of the upstream cases does that); only a table nothing can mend is an error.
    found = solve(goal)
    if found is not None and (goal == "all" or any(found.placed)):
        return _answer(found, goal, initial, table_as_it_is() if rack_only else (), given, rack_only, wrap,
                       joker_points)
    if found is None and not initial and goal != "all":
        raise unsolvable()
    cannot: tuple[Tile, ...] = ()
    if goal == "all":
        partial = solve("tiles")
        if partial is None and not initial:
            raise unsolvable()
        placed = partial.placed if partial is not None else (0,) * KINDS
        cannot = _placed_tiles([r - p for r, p in zip(rack_counts, placed)])
        reason = (f"{format_tiles(cannot)} cannot go: no arrangement of the table lays every selected tile"
                  if not initial else _no_opening(minimum or 0))
    elif initial:
        reason = _no_opening(minimum or 0)
    else:
        reason = "no rack tile fits: draw a tile (R4)"
    melds = tuple(LaidMeld(m.tiles, m.faces, m.kind, m.from_rack, given is not None) for m in table_as_it_is())
    return LayDown(False, goal, initial, melds, (), 0, cannot, 0 if given is not None else None, None, reason)


def _no_opening(minimum: int) -> str:
    return (f"no initial meld: the rack holds no melds worth {minimum} "
            "(R3: from the rack alone, a joker counting as the tile it stands for)")


def _answer(
    found: _Solution,
    goal: Goal,
    initial: bool,
    table_melds: tuple[LaidMeld, ...],
    given: _Given | None,
    rack_only: bool,
    wrap: bool,
    joker_points: int,
) -> LayDown:
    templates = _catalogue(wrap)[0]
    placed = list(found.placed)
    rack_jokers = placed[JOKER_KIND]
    # The opening melds first: they hold rack tiles only.
    made = _pieces(found.opening, found.opening_jokers, placed, wrap, rack_jokers=rack_jokers)
    rack_jokers -= sum(found.opening_jokers)
    kept_melds: list[LaidMeld] = []
    changed: int | None = None
    if rack_only:
        kept_melds = [LaidMeld(m.tiles, m.faces, m.kind, m.from_rack, given is not None) for m in table_melds]
        changed = 0 if given is not None else None
    else:
        pieces = list(found.pieces)
        jokers = list(found.jokers)
        if given is not None:
            for m, meld in enumerate(given.melds):
                if found.kept[m]:
                    kept_melds.append(meld)
                    for key in given.pieces[m]:
                        pieces.remove(key)
                    for face, count in given.jokers[m].items():
                        jokers[face] -= count
            changed = len(given.melds) - len(kept_melds)
        made += _pieces(pieces, jokers, placed, wrap, rack_jokers=rack_jokers)
    melds = tuple(kept_melds) + tuple(LaidMeld(tuple(t), tuple(f), k, tuple(r), False) for t, f, k, r in _join(made))
    laid = _placed_tiles(found.placed)
    value = sum(tile_points(t, joker_points) for t in laid)
    opening = sum(templates[i].value for i in found.opening) if initial else None
    what = {"tiles": "most tiles", "points": "most points", "all": "every selected tile"}[goal]
    reason = f"{what}: lays {len(laid)} tile{'s' if len(laid) != 1 else ''} worth {value}"
    if opening is not None:
        reason += f"; the initial meld is worth {opening} (R3)"
    if changed is not None:
        reason += f"; {changed} table meld{'s' if changed != 1 else ''} changed"
    return LayDown(True, goal, initial, melds, laid, value, (), changed, opening, reason)
