"""The count-based search core behind :mod:`melds`, :mod:`win` and :mod:`opening`.

A hand is a ``bytes`` *state* of 53 entries: the counts of the 52 numbered faces followed by the
number of wild tiles.  Inside a state faces are ordered number-major (R1 Y1 B1 K1 R2 ...), so a set
or run started at the lowest face only touches the next few numbers and fewer distinct states arise;
the functions here take and give ``Tile.index`` faces (colour-major) and convert at the edges.  Every search takes the
lowest face still in the state and tries each meld *template* that contains it (a set of 3 or 4
distinct colours, or a run of 3-5 tiles: longer runs split into shorter ones, so nothing is lost).
A template position is filled with the real tile when the state has one, else with a wild.  That
greedy choice is safe whenever tiles may be exchanged for wilds at no cost (a wild can stand where
the real tile stood), which holds for "split all tiles into melds" and for "most face value".

Results are memoised per state in module-level dicts, emptied when they pass ``CACHE_LIMIT``
entries; states are canonical, so different hands share sub-results.  Plain dicts of bytes → int
are invisible to the garbage collector (an ``lru_cache`` of this size made full collections take
hundreds of milliseconds).

>>> state = encode_counts([0, 1, 2], wilds=0)      # R1 R2 R3
>>> can_meld_all(state, True)
True
>>> best_value(encode_counts([10, 11, 12, 25], wilds=1), False)    # R11 R12 R13 Y13 + wild
46
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Literal, TypeVar

FACES = 52
WILD_SLOT = 52
MeldKind = Literal["set", "run"]
Template = tuple[tuple[int, ...], int, MeldKind, tuple[int, ...]]
"""(the other faces, the value of the whole template, its kind, all faces in laid order)."""

_Result = TypeVar("_Result", bool, int)
CACHE_LIMIT = 1 << 18
_MELD_ALL: dict[bool, dict[bytes, bool]] = {False: {}, True: {}}
_BEST_VALUE: dict[bool, dict[bytes, int]] = {False: {}, True: {}}
_BEST_SAVING: dict[tuple[bool, int], dict[bytes, int]] = {}


def clear_caches() -> None:
    """Forget every memoised state (for cold-cache measurements)."""
    for caches in (_MELD_ALL, _BEST_VALUE, _BEST_SAVING):
        for cache in caches.values():
            cache.clear()


def _bounded(cache: dict[bytes, _Result]) -> dict[bytes, _Result]:
    if len(cache) > CACHE_LIMIT:
        cache.clear()
    return cache


def face_number(face: int) -> int:
    """The number (1-13) of a face index."""
    return face % 13 + 1


def _all_templates(wrap: bool) -> list[tuple[MeldKind, tuple[int, ...]]]:
    templates: list[tuple[MeldKind, tuple[int, ...]]] = []
    for number in range(13):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                templates.append(("set", tuple(c * 13 + number for c in colours)))
    for colour in range(4):
        base = colour * 13
        for length in (3, 4, 5):
            for start in range(13 - length + 1):
                templates.append(("run", tuple(base + start + k for k in range(length))))
            if wrap:  # ... 12-13-1: the 1 ends the run
                templates.append(("run", tuple(base + k for k in range(14 - length, 13)) + (base,)))
    return templates


INTERNAL: tuple[int, ...] = tuple((f % 13) * 4 + f // 13 for f in range(FACES))
"""``Tile.index`` face → its place in a state."""
EXTERNAL: tuple[int, ...] = tuple(sorted(range(FACES), key=INTERNAL.__getitem__))
"""A place in a state → its ``Tile.index`` face."""


def _number(place: int) -> int:
    return place // 4 + 1


def _templates_by_face(wrap: bool) -> tuple[tuple[Template, ...], ...]:
    by_face: list[list[Template]] = [[] for _ in range(FACES)]
    for kind, faces in _all_templates(wrap):
        value = sum(face_number(f) for f in faces)
        places = tuple(INTERNAL[f] for f in faces)
        for place in places:
            others = tuple(p for p in places if p != place)
            by_face[place].append((others, value, kind, places))
    # Bigger templates first: a win is usually found sooner and values are higher.
    return tuple(tuple(sorted(ts, key=lambda t: -len(t[3]))) for ts in by_face)


TEMPLATES: dict[bool, tuple[tuple[Template, ...], ...]] = {
    False: _templates_by_face(False),
    True: _templates_by_face(True),
}


def _partners(reach: int, wrap: bool) -> tuple[frozenset[int], ...]:
    """For each face, the faces that can share a meld with it when ``reach - 1`` wilds fill a gap."""
    partners = []
    for face in range(FACES):
        colour, number = divmod(face, 13)
        near = {c * 13 + number for c in range(4) if c != colour}
        for other in range(13):
            distance = abs(other - number)
            if wrap:
                distance = min(distance, 13 - distance)
            if 0 < distance <= reach:
                near.add(colour * 13 + other)
        partners.append(frozenset(near))
    return tuple(partners)


_PARTNERS = {(wilds, wrap): _partners(wilds + 1, wrap) for wilds in range(5) for wrap in (False, True)}


def may_meld_all(faces: list[int], wilds: int, wrap: bool) -> bool:
    """A quick necessary condition for :func:`can_meld_all`: a tile that no other plain tile can
    join in a meld (even with every wild in the gap) needs a meld of its own with two wilds.

    >>> may_meld_all([0, 1, 30], 0, True), may_meld_all([0, 1, 30], 2, True)
    (False, True)
    """
    partners = _PARTNERS[min(wilds, 4), wrap]
    present = set(faces)
    lonely = 0
    for face in present:
        if present.isdisjoint(partners[face]):
            lonely += 1
    return 2 * lonely <= wilds


def encode_counts(faces: Iterable[int], *, wilds: int) -> bytes:
    """The state for the given face indices (repeats allowed) and number of wilds."""
    counts = bytearray(FACES + 1)
    for face in faces:
        counts[INTERNAL[face]] += 1
    counts[WILD_SLOT] = wilds
    return bytes(counts)


def _lowest(state: bytes) -> int:
    """The lowest face present, or ``FACES`` (or more) when only wilds remain."""
    return len(state) - len(state.lstrip(b"\0"))


def _fill(state: bytes, face: int, others: tuple[int, ...]) -> tuple[bytearray, int]:
    """``state`` less ``face`` and one of each of ``others`` where present; the wilds still needed."""
    work = bytearray(state)
    work[face] -= 1
    need = 0
    for other in others:
        if work[other]:
            work[other] -= 1
        else:
            need += 1
    return work, need


def can_meld_all(state: bytes, wrap: bool) -> bool:
    """Whether every tile of ``state`` (wilds included) splits into sets and runs."""
    return _can_meld_all(state, TEMPLATES[wrap], _bounded(_MELD_ALL[wrap]))


def _can_meld_all(state: bytes, templates: tuple[tuple[Template, ...], ...], cache: dict[bytes, bool]) -> bool:
    known = cache.get(state)
    if known is not None:
        return known
    face = _lowest(state)
    wilds = state[WILD_SLOT]
    result = False
    if face >= FACES:
        result = wilds == 0 or wilds >= 3
    else:
        for others, _value, _kind, _faces in templates[face]:
            work, need = _fill(state, face, others)
            if need <= wilds:
                work[WILD_SLOT] = wilds - need
                if _can_meld_all(bytes(work), templates, cache):
                    result = True
                    break
    cache[state] = result
    return result


Placement = tuple[MeldKind, tuple[int, ...], tuple[bool, ...]]
"""A meld found by a search: kind, faces in laid order, and which positions a wild fills."""


def _placement(state: bytes, template: Template) -> Placement:
    work = bytearray(state)
    wild_at = []
    for f in template[3]:
        if work[f]:
            work[f] -= 1
            wild_at.append(False)
        else:
            wild_at.append(True)
    return template[2], tuple(EXTERNAL[p] for p in template[3]), tuple(wild_at)


def _wild_only(wilds: int) -> list[Placement]:
    """Melds made of wilds alone: the set of 13s (the most valuable reading)."""
    if wilds < 3:
        return []
    faces = tuple(c * 13 + 12 for c in range(wilds))
    return [("set", faces, (True,) * wilds)]


def meld_all(state: bytes, wrap: bool) -> list[Placement] | None:
    """A split of every tile of ``state`` into melds, or ``None``."""
    if not can_meld_all(state, wrap):
        return None
    placements: list[Placement] = []
    while True:
        face = _lowest(state)
        wilds = state[WILD_SLOT]
        if face >= FACES:
            return placements + _wild_only(wilds)
        for template in TEMPLATES[wrap][face]:
            work, need = _fill(state, face, template[0])
            if need <= wilds:
                work[WILD_SLOT] = wilds - need
                if can_meld_all(bytes(work), wrap):
                    placements.append(_placement(state, template))
                    state = bytes(work)
                    break


def _wild_only_value(wilds: int) -> int:
    return 13 * wilds if wilds >= 3 else 0


def best_value(state: bytes, wrap: bool) -> int:
    """The most face value that disjoint melds from ``state`` can hold (a wild counts as its face)."""
    return _best_value(state, TEMPLATES[wrap], _bounded(_BEST_VALUE[wrap]))


def _best_value(state: bytes, templates: tuple[tuple[Template, ...], ...], cache: dict[bytes, int]) -> int:
    known = cache.get(state)
    if known is not None:
        return known
    face = _lowest(state)
    wilds = state[WILD_SLOT]
    if face >= FACES:
        best = _wild_only_value(wilds)
    else:
        work = bytearray(state)
        work[face] -= 1
        best = _best_value(bytes(work), templates, cache)
        for others, value, _kind, _faces in templates[face]:
            work, need = _fill(state, face, others)
            if need <= wilds:
                work[WILD_SLOT] = wilds - need
                total = value + _best_value(bytes(work), templates, cache)
                if total > best:
                    best = total
    cache[state] = best
    return best


def best_melds(state: bytes, wrap: bool) -> tuple[list[Placement], list[int], int]:
    """The melds of :func:`best_value`, the faces left over, and the wilds left over."""
    placements: list[Placement] = []
    leftover: list[int] = []
    while True:
        face = _lowest(state)
        wilds = state[WILD_SLOT]
        if face >= FACES:
            melds = _wild_only(wilds)
            return placements + melds, leftover, 0 if melds else wilds
        target = best_value(state, wrap)
        for template in TEMPLATES[wrap][face]:
            work, need = _fill(state, face, template[0])
            if need <= wilds:
                work[WILD_SLOT] = wilds - need
                if template[1] + best_value(bytes(work), wrap) == target:
                    placements.append(_placement(state, template))
                    state = bytes(work)
                    break
        else:
            work = bytearray(state)
            work[face] -= 1
            leftover.append(EXTERNAL[face])
            state = bytes(work)


def _fills(state: bytes, face: int, others: tuple[int, ...]) -> list[tuple[bytes, int]]:
    """Every way to fill a template: each position present may take the real tile or a wild.

    Returns the states left and the face sum of the real tiles taken (``face`` included).
    """
    start = bytearray(state)
    start[face] -= 1
    partial = [(start, _number(face))]
    for other in others:
        grown = []
        for work, real in partial:
            if work[WILD_SLOT]:
                with_wild = bytearray(work)
                with_wild[WILD_SLOT] -= 1
                grown.append((with_wild, real))
            if work[other]:
                work[other] -= 1
                grown.append((work, real + _number(other)))
        partial = grown
    return [(bytes(work), real) for work, real in partial]


def best_saving(state: bytes, wrap: bool, wild_worth: int) -> int:
    """The most that melds can take out of a rack: real faces at face value, each wild at ``wild_worth``.

    Unlike :func:`best_value`, a wild may stand where a real tile is present: keeping a real 3 and
    melding the okey saves more than the other way round.
    """
    cache = _bounded(_BEST_SAVING.setdefault((wrap, wild_worth), {}))
    return _best_saving(state, TEMPLATES[wrap], wild_worth, cache)


def _best_saving(
    state: bytes, templates: tuple[tuple[Template, ...], ...], wild_worth: int, cache: dict[bytes, int]
) -> int:
    known = cache.get(state)
    if known is not None:
        return known
    face = _lowest(state)
    wilds = state[WILD_SLOT]
    if face >= FACES:
        best = wild_worth * wilds if wilds >= 3 else 0
    else:
        work = bytearray(state)
        work[face] -= 1
        best = _best_saving(bytes(work), templates, wild_worth, cache)
        for others, _value, _kind, _faces in templates[face]:
            for rest, real in _fills(state, face, others):
                wilds_used = wilds - rest[WILD_SLOT]
                saving = real + wild_worth * wilds_used + _best_saving(rest, templates, wild_worth, cache)
                if saving > best:
                    best = saving
    cache[state] = best
    return best
