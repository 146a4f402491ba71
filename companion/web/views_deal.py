"""The deal assistant (O2, H2): dice rolled by the app or typed in, the 21 stacks drawn round the table
with the chosen stack, the tile to flip and the take order, the false-okey re-roll, then the indicator.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterator
from typing import Any

from flask import current_app, flash, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.rules.deal import DealPlan
from companion.rules.tiles import parse_tiles
from companion.web.api import get_store
from companion.web.views_base import form_int, form_text, html_blueprint, render
from companion.web.views_table import SEAT_COLOURS, TABLE_CENTRE, record, require_editor, seat_angle, seat_positions
from companion.web.views_text import engine_text

bp = html_blueprint("deal", __name__, url_prefix="/t")

_FELT_REACH = 122.0
STACK_DEPTH = 44.0
_SIDE_FACING = 300.0
"""How long a row of stacks may be when only two sides of the felt hold stacks (two players)."""
_SIDE_CORNERED = 2 * (_FELT_REACH - STACK_DEPTH / 2) - 8
"""How long a row may be when the next side holds stacks too: the rows stop short of each other's corner."""


def dice_rng() -> random.Random:
    """The app's dice (tests put a seeded ``random.Random`` in ``app.extensions["dice"]``)."""
    rng: random.Random = current_app.extensions.setdefault("dice", random.SystemRandom())
    return rng


def die_face(number: int) -> str:
    """The die face character for ``number`` (1-6).

    >>> die_face(1), die_face(6)
    ('⚀', '⚅')
    """
    return chr(0x2680 + number - 1)


Box = tuple[float, float, float, float]
"""An upright rectangle of the drawing: left, top, right, bottom (viewBox units)."""

TAKERS_FONT = 17.0
_DIGIT_WIDTH = 0.7
"""A bold digit's or "+"'s width in em, a little over the widest sans-serif faces' (DejaVu Sans Bold 0.7)."""
_PILL_PAD = 4.0
_PILL_HEIGHT = TAKERS_FONT + 6
_PILL_GAP = 3.0
_ASIDE = 12.0
"""What a label beside its stack costs against one just in front (:func:`_offsets`)."""
_DRAWING = (0.0, 0.0, 440.0, 440.0)


def stack_layout(plan: DealPlan) -> list[dict[str, Any]]:
    """Where each of the 21 stacks is drawn: in front of its owner, from the owner's left to right, with
    its letter (upper case) and a label of the seats that take from it, in take order ("2+3+4+1").

    A label sits on the felt just in front of its stack; where it would cover a neighbour's label or a
    stack (a long label, a corner) it moves along the row or further in, and ``lead`` joins it to its stack.
    """
    takers: dict[int, list[int]] = {}
    for take in plan.takes:
        seats = takers.setdefault(take.stack, [])
        if take.seat not in seats:
            seats.append(take.seat)
    layout = []
    angles = {seat: seat_angle(seat, plan.table_seats) for seat in plan.seat_ids}  # only the seats in play (O6)
    facing = len(angles) == 2 and math.isclose(abs(angles[plan.seat_ids[0]] - angles[plan.seat_ids[1]]), math.pi)
    for seat, angle in angles.items():
        own = [stack for stack in plan.stacks if stack.owner == seat]
        edge_x = TABLE_CENTRE + _FELT_REACH * math.cos(angle)
        edge_y = TABLE_CENTRE - _FELT_REACH * math.sin(angle)
        tangent = (-math.sin(angle), -math.cos(angle))
        side = _SIDE_FACING if facing else _SIDE_CORNERED
        spacing = min(42.0, side / max(len(own), 1))
        for k, stack in enumerate(own):
            offset = (k - (len(own) - 1) / 2) * spacing
            layout.append({
                "x": edge_x + offset * tangent[0],
                "y": edge_y + offset * tangent[1],
                "rot": math.degrees(math.atan2(tangent[1], tangent[0])),
                "inward": (-math.cos(angle), math.sin(angle)),
                "tangent": tangent,
                "w": spacing - 4,
                "h": STACK_DEPTH,
                "letter": stack.letter.upper() if stack.letter else None,
                "chosen": stack.index == plan.chosen_stack,
                "takers": takers.get(stack.index, []),
                "label": None,
            })
    _place_labels(layout)
    return layout


def stack_box(stack: dict[str, Any]) -> Box:
    """The upright box a (possibly turned) stack covers."""
    turn = math.radians(stack["rot"])
    half_w = (abs(math.cos(turn)) * stack["w"] + abs(math.sin(turn)) * stack["h"]) / 2
    half_h = (abs(math.sin(turn)) * stack["w"] + abs(math.cos(turn)) * stack["h"]) / 2
    return stack["x"] - half_w, stack["y"] - half_h, stack["x"] + half_w, stack["y"] + half_h


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _gap(a: Box, b: Box) -> float:
    """How far apart two boxes are (the larger of the gaps across and along; negative if they overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def _inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _place_labels(layout: list[dict[str, Any]]) -> None:
    """Put each takers label on the felt just in front of its stack, or beside it at a row's end, never on a
    stack or another label, and nearer its own stack than any other.  Short labels go first, so that a long
    one ("2+3+4+1") is the one that moves; a label that would take another's place in front of its stack
    steps aside if it can do so at once (at a corner, the label at a row's end goes beside its stack)."""
    stacks = [stack_box(stack) for stack in layout]
    labelled = sorted((s for s in layout if s["takers"]), key=lambda s: len(s["takers"]))
    sizes = {id(stack): _label_size(stack) for stack in labelled}
    wanted = {id(stack): (next(_places(stack, *sizes[id(stack)]))[1], stack["inward"]) for stack in labelled}
    taken = list(stacks)
    for stack in labelled:
        text = "+".join(str(seat + 1) for seat in stack["takers"])
        width, height = sizes[id(stack)]
        own = stack_box(stack)
        del wanted[id(stack)]
        # the own places still to fill of labels no longer than this one, and of any label of another row
        # (at a corner, the label at a row's end steps aside: it reads as that stack's, not the other row's)
        others = [box for key, (box, inward) in wanted.items() if sizes[key][0] <= width or inward != stack["inward"]]

        def fits(box: Box, keep_clear: list[Box]) -> bool:
            return (_inside(box, _DRAWING) and not any(_overlap(box, other) for other in taken + keep_clear)
                    and all(_gap(box, own) <= _gap(box, other) for other in stacks))  # reads as its stack's

        near = (place for place in _places(stack, width, height, _ASIDE) if fits(place[1], others))
        anywhere = (place for place in _places(stack, width, height) if fits(place[1], []))
        (x, y), box = next(near, None) or next(anywhere, None) or next(_places(stack, width, height))
        taken.append(box)
        lead = None
        if _gap(box, own) > _PILL_GAP + 0.5:  # not touching its stack: a line joins them
            lead = (stack["x"] + stack["inward"][0] * STACK_DEPTH / 2, stack["y"] + stack["inward"][1] * STACK_DEPTH / 2,
                    x, y)
        stack["label"] = {"text": text, "x": x, "y": y, "w": width, "h": height, "lead": lead, "font": TAKERS_FONT}


def _label_size(stack: dict[str, Any]) -> tuple[float, float]:
    digits = 2 * len(stack["takers"]) - 1
    return digits * _DIGIT_WIDTH * TAKERS_FONT + 2 * _PILL_PAD, _PILL_HEIGHT


def _places(stack: dict[str, Any], width: float, height: float,
            within: float = math.inf) -> Iterator[tuple[tuple[float, float], Box]]:
    """Where a label may go, best first, up to the cost ``within``: in front of the stack (towards the
    centre), beside it (at a row's end), then along the row and further in."""
    (ix, iy), (tx, ty) = stack["inward"], stack["tangent"]
    deep = abs(ix) * width + abs(iy) * height  # the label's size towards the centre and along the row
    long = abs(tx) * width + abs(ty) * height
    front = STACK_DEPTH / 2 + _PILL_GAP + deep / 2
    beside = stack["w"] / 2 + _PILL_GAP + long / 2
    for cost, depth, slide in _offsets(round(front, 3), round(deep + _PILL_GAP, 3), round(beside, 3)):
        if cost > within:
            return
        x = stack["x"] + ix * depth + tx * slide
        y = stack["y"] + iy * depth + ty * slide
        yield (x, y), (x - width / 2, y - height / 2, x + width / 2, y + height / 2)


@functools.lru_cache(maxsize=64)
def _offsets(front: float, level: float, beside: float) -> tuple[tuple[float, float, float], ...]:
    """(cost, towards the centre, along the row) of each place to try, cheapest first: a row further in
    costs its depth, a slide along the row ¾ of its length, the place beside the stack :data:`_ASIDE`."""
    tries: list[tuple[float, float, float]] = [
        (depth * level + 0.75 * shift, front + depth * level, float(sign * shift))
        for depth in range(5) for shift in range(0, 121, 4) for sign in ((1,) if shift == 0 else (1, -1))]
    tries += [(_ASIDE, 0.0, sign * beside) for sign in (1, -1)]
    return tuple(sorted(tries))


def _context(table_id: str, **extra: Any) -> dict[str, Any]:
    state = get_store().get(table_id)
    plan = state.deal.plan
    context: dict[str, Any] = {
        "state": state,
        "table_id": state.id,
        "plan": plan,
        "stacks": stack_layout(plan) if plan and not plan.quick else None,
        "seat_points": seat_positions(len(state.players)),
        "seat_colours": SEAT_COLOURS,
        "die_face": die_face,
    }
    context.update(extra)
    return context


@bp.get("/<table_id>/deal")
def show(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    return render("deal.html", **_context(table_id))


def _act(table_id: str, action: Callable[[], None], done: str) -> Response:
    """Run ``action`` for the scorekeeper, then go to ``done``; bad input re-shows the assistant with why."""
    if (denied := require_editor(table_id)) is not None:
        return denied
    try:
        action()
    except ValueError as error:
        return render("deal.html", status=422, error=engine_text(str(error)), **_context(table_id))
    return redirect(done, 303)


def _next_step(table_id: str) -> str:
    return url_for("deal.show", table_id=table_id.upper()) + "#step"


@bp.post("/<table_id>/deal")
def roll(table_id: str) -> Response:
    """Record the deal: the app rolls (``roll``), the real dice are typed (``die1``, ``die2``), or a quick deal."""

    def action() -> None:
        if "roll" in request.form:
            record(table_id, {"type": "deal", "roll": True})
        elif "quick" in request.form:
            record(table_id, {"type": "deal"})
        else:
            first = form_int("die1", _("The first die"), low=1, high=6)
            second = form_int("die2", _("The second die"), low=1, high=6)
            record(table_id, {"type": "deal", "dice": [first, second]})

    return _act(table_id, action, _next_step(table_id))


@bp.post("/<table_id>/deal/reroll")
def reroll(table_id: str) -> Response:
    """A false okey came up as the indicator (O2.3): the second die is rolled again."""

    def action() -> None:
        die = dice_rng().randint(1, 6) if "roll" in request.form else form_int("die", _("The die"), low=1, high=6)
        record(table_id, {"type": "reroll", "die": die})

    return _act(table_id, action, _next_step(table_id))


@bp.post("/<table_id>/deal/indicator")
def indicator(table_id: str) -> Response:
    """The tile turned face up: exactly one numbered tile.  A second one replaces a mistyped indicator (the
    assistant stays open and says what changed); undo puts the old one back."""
    if (denied := require_editor(table_id)) is not None:
        return denied
    old = get_store().get(table_id).deal.indicator

    def action() -> None:
        tiles = parse_tiles(form_text("indicator"))
        if len(tiles) != 1:
            raise ValueError(_("Enter exactly one tile as the indicator, for example R4 (you entered %(n)d).", n=len(tiles)))
        if old is not None and tiles[0] == old:
            raise ValueError(_("%(tile)s is already the indicator: tap the tile really turned face up.", tile=old.code))
        new = record(table_id, {"type": "indicator", "tile": tiles[0].code}).deal
        if old is not None and new.indicator is not None and new.okey is not None:
            flash(_("Indicator changed from %(old)s to %(new)s: the okey is now %(okey)s.",
                    old=old.code, new=new.indicator.code, okey=new.okey.code))

    if old is None:
        return _act(table_id, action, url_for("table.show", table_id=table_id.upper()))
    return _act(table_id, action, url_for("deal.show", table_id=table_id.upper()) + "#indicator")
