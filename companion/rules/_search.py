"""The count-based search core behind :mod:`melds`, :mod:`win` and :mod:`opening`.

A hand is an integer *state*: two bits per numbered face hold its count (0-2) and the bits from
``WILD_SHIFT`` up hold the number of wild tiles.  Inside a state the faces are ordered number-major
(R1 Y1 B1 K1 R2 ...), so a set or run started at the lowest face only touches the next few numbers
and fewer distinct states arise; the functions here take and give ``Tile.index`` faces
(colour-major) and convert at the edges.

Every search takes the lowest face still in the state and tries each meld *template* that holds it
(a set of 3 or 4 distinct colours, or a run of 3-5 tiles: longer runs split into shorter ones, so
nothing is lost).  A template position takes the real tile when the state has one, else a wild.
That greedy choice is safe whenever a tile and a wild may trade places at no cost (the wild stands
where the tile stood), which holds for "split all tiles into melds" and for "most face value".
With bit masks a template costs a handful of integer operations: the presence of every position
at once, a popcount for the wilds needed, one subtraction for the state left.

Results are memoised per state in module-level dicts, emptied when they pass ``CACHE_LIMIT``
entries; states are canonical, so different hands share sub-results.  Dicts of int → int are
invisible to the garbage collector (an ``lru_cache`` of this size made full collections take
hundreds of milliseconds).

>>> can_meld_all(encode_counts([0, 1, 2], wilds=0), True)       # R1 R2 R3
True
>>> best_value(encode_counts([10, 11, 12, 25], wilds=1), False)    # R11 R12 R13 Y13 + a wild
46
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Literal, TypeVar

FACES = 52
WILD_SHIFT = 2 * FACES
WILD_UNIT = 1 << WILD_SHIFT
FACE_MASK = WILD_UNIT - 1
MeldKind = Literal["set", "run"]
Template = tuple[int, int, int, MeldKind, tuple[int, ...]]
"""(mask of the other positions' low count bits, how many they are, the value of the whole
template, its kind, all its places in laid order)."""
Placement = tuple[MeldKind, tuple[int, ...], tuple[bool, ...]]
"""A meld found by a search: kind, ``Tile.index`` faces in laid order, which positions a wild fills."""

_Result = TypeVar("_Result", bool, int)
CACHE_LIMIT = 1 << 18
_MELD_ALL: dict[bool, dict[int, bool]] = {False: {}, True: {}}
_BEST_VALUE: dict[bool, dict[int, int]] = {False: {}, True: {}}
_BEST_SAVING: dict[tuple[bool, int], dict[int, int]] = {}


def clear_caches() -> None:
    """Forget every memoised state (for cold-cache measurements)."""
    for caches in (_MELD_ALL, _BEST_VALUE, _BEST_SAVING):
        for cache in caches.values():
            cache.clear()


def _bounded(cache: dict[int, _Result]) -> dict[int, _Result]:
    if len(cache) > CACHE_LIMIT:
        cache.clear()
    return cache


def face_number(face: int) -> int:
    """The number (1-13) of a ``Tile.index`` face."""
    return face % 13 + 1


INTERNAL: tuple[int, ...] = tuple((f % 13) * 4 + f // 13 for f in range(FACES))
"""``Tile.index`` face → its place in a state."""
EXTERNAL: tuple[int, ...] = tuple(sorted(range(FACES), key=INTERNAL.__getitem__))
"""A place in a state → its ``Tile.index`` face."""


def _number(place: int) -> int:
    return place // 4 + 1


def _all_templates(wrap: bool) -> list[tuple[MeldKind, tuple[int, ...]]]:
    """Every set and every run of 3-5 tiles, as ``Tile.index`` faces in laid order."""
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


def _templates_by_place(wrap: bool) -> tuple[tuple[Template, ...], ...]:
    by_place: list[list[Template]] = [[] for _ in range(FACES)]
    for kind, faces in _all_templates(wrap):
        value = sum(face_number(f) for f in faces)
        places = tuple(INTERNAL[f] for f in faces)
        for place in places:
            others = [p for p in places if p != place]
            mask = sum(1 << (2 * p) for p in others)
            by_place[place].append((mask, len(others), value, kind, places))
    # Bigger templates first: a win is found sooner.
    return tuple(tuple(sorted(ts, key=lambda t: -len(t[4]))) for ts in by_place)


TEMPLATES: dict[bool, tuple[tuple[Template, ...], ...]] = {
    False: _templates_by_place(False),
    True: _templates_by_place(True),
}
_LOW_BITS = sum(1 << (2 * p) for p in range(FACES))


def encode_counts(faces: Iterable[int], *, wilds: int) -> int:
    """The state for the given ``Tile.index`` faces (repeats allowed) and number of wilds."""
    state = wilds << WILD_SHIFT
    for face in faces:
        state += 1 << (2 * INTERNAL[face])
    return state


def _lowest(state: int) -> int:
    """The lowest place with a tile; call only when ``state & FACE_MASK``."""
    counts = state & FACE_MASK
    return ((counts & -counts).bit_length() - 1) >> 1


def _presence(state: int) -> int:
    """One low bit per place that holds a tile."""
    return (state | (state >> 1)) & _LOW_BITS


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


def can_meld_all(state: int, wrap: bool) -> bool:
    """Whether every tile of ``state`` (wilds included) splits into sets and runs."""
    return _can_meld_all(state, TEMPLATES[wrap], _bounded(_MELD_ALL[wrap]))


def _can_meld_all(state: int, templates: tuple[tuple[Template, ...], ...], cache: dict[int, bool]) -> bool:
    known = cache.get(state)
    if known is not None:
        return known
    wilds = state >> WILD_SHIFT
    result = False
    if not state & FACE_MASK:
        result = wilds == 0 or wilds >= 3
    else:
        place = _lowest(state)
        base = state - (1 << (2 * place))
        present = _presence(base)
        for mask, size, _value, _kind, _places in templates[place]:
            real = present & mask
            need = size - real.bit_count()
            if need <= wilds and _can_meld_all(base - real - need * WILD_UNIT, templates, cache):
                result = True
                break
    cache[state] = result
    return result


def _placement(state: int, template: Template) -> Placement:
    wild_at = []
    for place in template[4]:
        if (state >> (2 * place)) & 3:
            state -= 1 << (2 * place)
            wild_at.append(False)
        else:
            wild_at.append(True)
    return template[3], tuple(EXTERNAL[p] for p in template[4]), tuple(wild_at)


def _wild_only(wilds: int) -> list[Placement]:
    """Melds made of wilds alone: the set of 13s (the most valuable reading)."""
    if wilds < 3:
        return []
    return [("set", tuple(c * 13 + 12 for c in range(wilds)), (True,) * wilds)]


def _child(state: int, place: int, template: Template) -> int | None:
    """The state left once ``template`` is laid from ``state``, or ``None`` if wilds are short."""
    base = state - (1 << (2 * place))
    real = _presence(base) & template[0]
    need = template[1] - real.bit_count()
    return base - real - need * WILD_UNIT if need <= state >> WILD_SHIFT else None


def meld_all(state: int, wrap: bool) -> list[Placement] | None:
    """A split of every tile of ``state`` into melds, or ``None``."""
    if not can_meld_all(state, wrap):
        return None
    placements: list[Placement] = []
    while state & FACE_MASK:
        place = _lowest(state)
        for template in TEMPLATES[wrap][place]:
            child = _child(state, place, template)
            if child is not None and can_meld_all(child, wrap):
                placements.append(_placement(state, template))
                state = child
                break
    return placements + _wild_only(state >> WILD_SHIFT)


def _wild_only_value(wilds: int) -> int:
    return 13 * wilds if wilds >= 3 else 0


def best_value(state: int, wrap: bool) -> int:
    """The most face value that disjoint melds from ``state`` can hold (a wild counts as its face)."""
    return _best_value(state, TEMPLATES[wrap], _bounded(_BEST_VALUE[wrap]))


def _best_value(state: int, templates: tuple[tuple[Template, ...], ...], cache: dict[int, int]) -> int:
    known = cache.get(state)
    if known is not None:
        return known
    wilds = state >> WILD_SHIFT
    if not state & FACE_MASK:
        best = _wild_only_value(wilds)
    else:
        place = _lowest(state)
        base = state - (1 << (2 * place))
        best = _best_value(base, templates, cache)
        present = _presence(base)
        children: dict[int, int] = {}
        for mask, size, value, _kind, _places in templates[place]:
            real = present & mask
            need = size - real.bit_count()
            if need <= wilds:
                child = base - real - need * WILD_UNIT
                if value > children.get(child, 0):
                    children[child] = value
        for child, value in children.items():
            total = value + _best_value(child, templates, cache)
            if total > best:
                best = total
    cache[state] = best
    return best


def best_melds(state: int, wrap: bool) -> tuple[list[Placement], list[int], int]:
    """The melds of :func:`best_value`, the ``Tile.index`` faces left over, and the wilds left over."""
    placements: list[Placement] = []
    leftover: list[int] = []
    while state & FACE_MASK:
        place = _lowest(state)
        target = best_value(state, wrap)
        for template in TEMPLATES[wrap][place]:
            child = _child(state, place, template)
            if child is not None and template[2] + best_value(child, wrap) == target:
                placements.append(_placement(state, template))
                state = child
                break
        else:
            state -= 1 << (2 * place)
            leftover.append(EXTERNAL[place])
    wilds = state >> WILD_SHIFT
    melds = _wild_only(wilds)
    return placements + melds, leftover, 0 if melds else wilds


def _fills(state: int, place: int, template: Template) -> list[tuple[int, int]]:
    """Every way to lay ``template``: each position present may take the real tile or a wild.

    Returns the states left and the face sum of the real tiles taken (``place`` included).
    """
    base = state - (1 << (2 * place))
    real = _presence(base) & template[0]
    positions = [bit for bit in range(0, WILD_SHIFT, 2) if real >> bit & 1]
    need = template[1] - len(positions)
    wilds = state >> WILD_SHIFT
    fills = []
    for as_wild in range(len(positions) + 1):
        if need + as_wild > wilds:
            break
        for swapped in combinations(positions, as_wild):
            taken = [bit for bit in positions if bit not in swapped]
            child = base - sum(1 << bit for bit in taken) - (need + as_wild) * WILD_UNIT
            fills.append((child, _number(place) + sum(_number(bit // 2) for bit in taken)))
    return fills


def best_saving(state: int, wrap: bool, wild_worth: int) -> int:
    """The most that melds can take out of a rack: real faces at face value, each wild at ``wild_worth``.

    Unlike :func:`best_value`, a wild may stand where a real tile is present: keeping a real 3 and
    melding the okey saves more than the other way round.
    """
    cache = _bounded(_BEST_SAVING.setdefault((wrap, wild_worth), {}))
    return _best_saving(state, TEMPLATES[wrap], wild_worth, cache)


def _best_saving(
    state: int, templates: tuple[tuple[Template, ...], ...], wild_worth: int, cache: dict[int, int]
) -> int:
    known = cache.get(state)
    if known is not None:
        return known
    wilds = state >> WILD_SHIFT
    if not state & FACE_MASK:
        best = wild_worth * wilds if wilds >= 3 else 0
    else:
        place = _lowest(state)
        best = _best_saving(state - (1 << (2 * place)), templates, wild_worth, cache)
        for template in templates[place]:
            for child, real in _fills(state, place, template):
                saving = real + wild_worth * (wilds - (child >> WILD_SHIFT))
                saving += _best_saving(child, templates, wild_worth, cache)
                if saving > best:
                    best = saving
    cache[state] = best
    return best
