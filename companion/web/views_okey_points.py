"""The end of an Okey points hand (RULES.md O7): who completed the rack, the tiles (or the sum) left on each
rack; the verdict comes from the rules engine (``companion.rules.okey_points``).

The form previews with htmx (``…/check`` answers the verdict fragment) and records with a plain POST;
``?amend=N`` opens it filled in from recorded hand N, to correct it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.rules.okey_points import MAX_TYPED_SUM, score_okey_points_hand
from companion.rules.registry import find_game
from companion.rules.tiles import format_tiles, parse_tiles
from companion.tables import TableState
from companion.web.api import get_store
from companion.web.views_base import form_int, form_text, html_blueprint, render
from companion.web.views_hands import after_recording, amending, hand_event, indicator_of, only_for, verdict_fragment
from companion.web.views_table import record, require_editor
from companion.web.views_text import engine_text

GAME = find_game("okey_points")
TEMPLATE = GAME.templates.hand

bp = html_blueprint("okey_points", __name__, url_prefix="/t")


def _state(table_id: str) -> TableState:
    state = get_store().get(table_id)
    only_for(state, GAME.id)
    return state


def hand_record(state: TableState) -> dict[str, Any]:
    """The hand record of the form (see ``companion.rules.okey_points``)."""
    finisher_text = form_text("finisher")
    if not finisher_text:
        raise ValueError(_("Tap who completed the rack, or “nobody: stock exhausted”."))
    finisher = None if finisher_text == "none" else form_int("finisher", _("The finisher"), low=0,
                                                             high=len(state.players) - 1)
    racks: list[Any] = []
    for seat, name in enumerate(state.players):
        tiles = form_text(f"rack{seat}")
        if form_text(f"sum{seat}") and not tiles:
            racks.append(form_int(f"sum{seat}", _("The sum of %(name)s", name=name), low=0, high=MAX_TYPED_SUM))
        else:
            racks.append(format_tiles(parse_tiles(tiles)))
    return {"indicator": indicator_of(state), "finisher": finisher, "racks": racks}


def _verdict(state: TableState) -> dict[str, Any]:
    hand = hand_record(state)
    return {"hand": hand, "score": score_okey_points_hand(hand, state.options)}


def _form(record: Mapping[str, Any]) -> dict[str, str]:
    """The form filled in from a recorded hand (to correct it)."""
    finisher = record.get("finisher")
    form = {"finisher": "none" if finisher is None else str(finisher), "indicator": str(record.get("indicator") or "")}
    for seat, rack in enumerate(record.get("racks") or []):
        if isinstance(rack, int) and not isinstance(rack, bool):
            form[f"sum{seat}"] = str(rack)
        else:
            form[f"rack{seat}"] = rack if isinstance(rack, str) else " ".join(map(str, rack or []))
    return form


@bp.get("/<table_id>/points")
def hand(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    corrected = amending(state)
    form = _form(corrected.record) if corrected else {}
    return render(TEMPLATE, state=state, table_id=state.id, form=form, amend=corrected)


@bp.post("/<table_id>/points/check")
def hand_check(table_id: str) -> Response:
    """The verdict fragment: each rack's points and why, nothing recorded."""
    return verdict_fragment(TEMPLATE, _verdict, _state(table_id))


@bp.post("/<table_id>/points")
def hand_record_post(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    corrected = amending(state)
    try:
        recorded = record(table_id, hand_event(GAME.hand_event, hand_record(state), corrected))
    except ValueError as error:
        return render(TEMPLATE, status=422, state=state, table_id=state.id, error=engine_text(str(error)),
                      form=request.form, amend=corrected)
    return after_recording(state, recorded, corrected)
