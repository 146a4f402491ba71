"""The deal assistant (O2, H2): dice rolled by the app or typed in, the 21 stacks drawn round the table
with the chosen stack, the tile to flip and the take order, the false-okey re-roll, then the indicator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from flask import current_app, redirect, request, url_for
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


def stack_layout(plan: DealPlan) -> list[dict[str, Any]]:
    """Where each of the 21 stacks is drawn: in front of its owner, from the owner's left to right."""
    takers: dict[int, list[int]] = {}
    for take in plan.takes:
        seats = takers.setdefault(take.stack, [])
        if take.seat not in seats:
            seats.append(take.seat)
    layout = []
    for seat in range(plan.players):
        own = [stack for stack in plan.stacks if stack.owner == seat]
        angle = seat_angle(seat, plan.players)
        edge_x = TABLE_CENTRE + _FELT_REACH * math.cos(angle)
        edge_y = TABLE_CENTRE - _FELT_REACH * math.sin(angle)
        tangent = (-math.sin(angle), -math.cos(angle))
        side = _SIDE_FACING if plan.players == 2 else _SIDE_CORNERED
        spacing = min(42.0, side / max(len(own), 1))
        for k, stack in enumerate(own):
            offset = (k - (len(own) - 1) / 2) * spacing
            layout.append({
                "x": edge_x + offset * tangent[0],
                "y": edge_y + offset * tangent[1],
                "rot": math.degrees(math.atan2(tangent[1], tangent[0])),
                "upright": abs(math.cos(angle)) > 0.9,
                "w": spacing - 4,
                "h": STACK_DEPTH,
                "letter": stack.letter,
                "chosen": stack.index == plan.chosen_stack,
                "takers": takers.get(stack.index, []),
            })
    return layout


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
    """The tile turned face up: exactly one numbered tile."""

    def action() -> None:
        tiles = parse_tiles(form_text("indicator"))
        if len(tiles) != 1:
            raise ValueError(_("Enter exactly one tile as the indicator, for example R4 (you entered %(n)d).", n=len(tiles)))
        record(table_id, {"type": "indicator", "tile": tiles[0].code})

    return _act(table_id, action, url_for("table.show", table_id=table_id.upper()))
