"""Rummikub (RULES.md §R): the end of a hand (R6), the lay-down assistant (R4) and the turn referee (R3-R5).

The hand form previews with htmx (``…/check`` answers the verdict fragment) and records with a plain
POST; ``?amend=N`` opens it filled in from recorded hand N.  The lay-down assistant and the turn referee
record nothing: anybody at the table may ask them (viewers too), and they work without JavaScript.

The shared turn timer (R4, option ``turn_seconds``): the player whose turn it is taps their name on any
phone; the server keeps who started when (in memory: a timer is not a score, and a restart simply stops
it), and every phone counts down from the server's clock, not its own.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask import current_app, jsonify, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.rules.registry import find_game
from companion.rules.rummikub_laydown import lay_down, parse_table, rummikub_tiles
from companion.rules.tiles import format_tiles
from companion.tables import TableState
from companion.web.hand_form import hand_form_routes, table_playing
from companion.web.views_base import form_int, form_text, html_blueprint, render
from companion.web.views_text import engine_text

GAME = find_game("rummikub")
LAYDOWN = "rummikub_laydown.html"
TURN = "rummikub_turn.html"

bp = html_blueprint("rummikub", __name__, url_prefix="/t")


def hand_record(state: TableState) -> dict[str, Any]:
    """The hand record of the form: ``{"winner": seat | None, "racks": [...]}`` (R6)."""
    winner_text = form_text("winner")
    if not winner_text:
        raise ValueError(_("Tap who went out, or “nobody: the pool ran out”."))
    winner = None if winner_text == "none" else form_int("winner", _("The winner"), low=0,
                                                         high=len(state.players) - 1)
    racks = [format_tiles(rummikub_tiles(form_text(f"rack{seat}"), "rack")) for seat in range(len(state.players))]
    return {"winner": winner, "racks": racks}


def _form(record: Mapping[str, Any]) -> dict[str, str]:
    """The form filled in from a recorded hand (to correct it)."""
    winner = record.get("winner")
    form = {"winner": "none" if winner is None else str(winner)}
    for seat, rack in enumerate(record.get("racks") or []):
        form[f"rack{seat}"] = rack if isinstance(rack, str) else " ".join(map(str, rack or []))
    return form


hand_form_routes(bp, GAME, "rummikub", read=hand_record, fill=_form)


# -- the lay-down assistant (R4) -------------------------------------------------------------------


GOAL_BUTTONS = ("all", "tiles", "points")


@bp.route("/<table_id>/laydown", methods=["GET", "POST"])
def laydown(table_id: str) -> Response:
    """Pick the table and the rack tiles: "Lay down" places the selection (goal all), "Best move" the most
    tiles or the most points; the new table is drawn with the moved and the laid tiles marked."""
    state = table_playing(table_id, GAME)
    form = {"table": form_text("table"), "rack": form_text("rack"), "initial": form_text("initial")}
    if request.method == "GET":
        return render(LAYDOWN, state=state, table_id=state.id, form=form)
    goal = form_text("goal", "all")
    if goal not in GOAL_BUTTONS:
        goal = "all"
    options = state.options
    try:
        grouped = parse_table(form["table"])[1] is not None
        result = lay_down(form["table"], form["rack"], goal=goal, initial=bool(form["initial"]),  # type: ignore[arg-type]
                          wrap_13_1=options.wrap_13_1, initial_meld=options.initial_meld,
                          table_after_initial_meld=options.table_after_initial_meld,
                          joker_points=options.joker_points)
    except ValueError as error:
        return render(LAYDOWN, status=422, state=state, table_id=state.id, form=form, error=engine_text(str(error)))
    return render(LAYDOWN, state=state, table_id=state.id, form=form, result=result, goal=goal, grouped=grouped)


# -- the turn referee (R3-R5) ----------------------------------------------------------------------


TURN_FIELDS = {"turn": ("table_before", "table_after", "rack", "opened"), "joker": ("meld", "tile", "joker_opened")}
"""The fields of the page's two forms; each form carries the other's as hidden fields, so that asking one
question keeps what was typed for the other.  (Not "after": a picker with photos sends its own field of that name.)"""


def _turn_question(form: Mapping[str, str]) -> dict[str, Any]:
    question: dict[str, Any] = {"before": form["table_before"], "after": form["table_after"],
                                "opened": bool(form["opened"])}
    if form["rack"]:
        question["rack"] = form["rack"]
    return question


def _joker_question(form: Mapping[str, str]) -> dict[str, Any]:
    return {"meld": form["meld"], "tile": form["tile"], "opened": bool(form["joker_opened"])}


@bp.route("/<table_id>/turn", methods=["GET", "POST"])
def turn_referee(table_id: str) -> Response:
    """Two questions the engine answers: was a whole turn legal (the table before and after it, R3-R5), and may
    a tile take a joker lying on the table (R5); the verdict says why in the reader's language."""
    state = table_playing(table_id, GAME)
    form = {name: form_text(name) for fields in TURN_FIELDS.values() for name in fields}
    if request.method == "GET":
        form.update(opened="1", joker_opened="1")
        return render(TURN, state=state, table_id=state.id, form=form, fields=TURN_FIELDS)
    asked = form_text("check")
    if asked not in TURN_FIELDS:
        asked = "turn"
    question = _turn_question(form) if asked == "turn" else _joker_question(form)
    try:
        result = GAME.ops[asked](question, state.options)
    except ValueError as error:
        return render(TURN, status=422, state=state, table_id=state.id, form=form, fields=TURN_FIELDS, asked=asked,
                      error=engine_text(str(error)))
    shown = {**result, "reason": engine_text(result["reason"])}
    if asked == "joker":  # the rack tile, outlined in the meld afterwards, as the engine reads it ("o5" is Y5)
        shown["placed"] = format_tiles(rummikub_tiles(form["tile"], "tile"))
    return render(TURN, state=state, table_id=state.id, form=form, fields=TURN_FIELDS, asked=asked, result=shown)


# -- the shared turn timer (R4) --------------------------------------------------------------------


TIMERS = "rummikub_turn_timers"
"""``app.extensions[TIMERS]``: table id → ``{"seat", "started", "seconds"}`` of the turn being timed."""


def _timer(state: TableState) -> dict[str, Any]:
    timers: dict[str, dict[str, Any]] = current_app.extensions.setdefault(TIMERS, {})
    running = timers.get(state.id)
    seat = running["seat"] if running else None
    return {
        "seat": seat,
        "name": state.players[seat] if seat is not None and seat < len(state.players) else None,
        "started": running["started"] if running else None,
        "seconds": running["seconds"] if running else state.options.turn_seconds,
        "draw": state.options.timeout_draw,
        "now": time.time(),
    }


@bp.get("/<table_id>/timer")
def timer_show(table_id: str) -> Response:
    """Who is being timed since when, and the server's clock (phones count from it)."""
    return jsonify(_timer(table_playing(table_id, GAME)))


@bp.post("/<table_id>/timer")
def timer_start(table_id: str) -> Response:
    """The player whose turn it is starts the timer (anybody at the table may tap it: it records no score)."""
    state = table_playing(table_id, GAME)
    if not state.options.turn_seconds:
        raise ValueError(_("The turn timer is off at this table (option turn_seconds = 0)."))
    seat = form_int("seat", _("The player"), low=0, high=len(state.players) - 1)
    timers: dict[str, dict[str, Any]] = current_app.extensions.setdefault(TIMERS, {})
    timers[state.id] = {"seat": seat, "started": time.time(), "seconds": state.options.turn_seconds}
    return jsonify(_timer(state))
