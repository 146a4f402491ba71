"""The three routes of a game's end-of-hand form, made once for every game that has its own form.

A game's view module keeps only what differs: how the form becomes the hand record (``read``) and how a
recorded hand fills the form in again (``fill``).  Everything else comes from the game's registry entry:
the page (``templates.hand``, whose ``verdict`` block htmx swaps), the hand event, the scoring, and the
endpoint the sheet links to correct a hand (``templates.form``, which must be this blueprint's ``hand``):

- ``GET  /t/<id>/<path>``: the form; ``?amend=N`` fills it in from recorded hand N, to correct it;
- ``POST /t/<id>/<path>/check``: the ``verdict`` block (what the form would record, and why), nothing recorded;
- ``POST /t/<id>/<path>``: records the hand event (or the ``amend`` event), then back to the table; a
  refused hand shows the form again, as sent, with the reason (422).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, request
from werkzeug.wrappers import Response

from companion.rules.registry import GameSpec
from companion.tables import TableState
from companion.web.api import get_store
from companion.web.views_base import render
from companion.web.views_hands import (
    after_recording,
    amending,
    hand_event,
    only_for,
    refusal,
    sent_again,
    verdict_fragment,
)
from companion.web.views_table import record, require_editor
from companion.web.views_text import engine_text

HandReader = Callable[[TableState], dict[str, Any]]
"""The submitted form as the game's hand record; a :class:`ValueError` says what is wrong with it."""
FormFiller = Callable[[Mapping[str, Any]], dict[str, str]]
"""A recorded hand as the form's fields (to correct it)."""


def table_playing(table_id: str, game: GameSpec) -> TableState:
    """The table, refused with a clear message when it plays another game than ``game``."""
    state = get_store().get(table_id)
    only_for(state, game.id)
    return state


def hand_form_routes(bp: Blueprint, game: GameSpec, path: str, *, read: HandReader, fill: FormFiller) -> None:
    """Add the form, its preview and its record route for ``game`` to ``bp`` (endpoints ``hand``,
    ``hand_check`` and ``hand_record_post``); a missing piece is refused when the module is imported."""
    if not callable(read) or not callable(fill):
        raise TypeError(f"the hand form of {game.id} needs read(state) and fill(record) functions")
    if game.templates.form != f"{bp.name}.hand":
        raise ValueError(f"the hand form of {game.id} is the endpoint {bp.name}.hand, but its registry entry "
                         f"names {game.templates.form!r} (Templates.form)")
    template = game.templates.hand

    def verdict(state: TableState) -> dict[str, Any]:
        hand = read(state)
        return {"hand": hand, "score": game.score_hand(hand, state.options), "refused": refusal(state, hand)}

    @bp.get(f"/<table_id>/{path}")
    def hand(table_id: str) -> Response:
        if (denied := require_editor(table_id)) is not None:
            return denied
        state = table_playing(table_id, game)
        corrected = amending(state)
        form = fill(corrected.record) if corrected else {}
        return render(template, state=state, table_id=state.id, form=form, amend=corrected)

    @bp.post(f"/<table_id>/{path}/check")
    def hand_check(table_id: str) -> Response:
        """The verdict fragment: each player's points and why, nothing recorded."""
        return verdict_fragment(template, verdict, table_playing(table_id, game))

    @bp.post(f"/<table_id>/{path}")
    def hand_record_post(table_id: str) -> Response:
        if (denied := require_editor(table_id)) is not None:
            return denied
        state = table_playing(table_id, game)
        corrected = amending(state)
        try:
            recorded = record(table_id, hand_event(game.hand_event, read(state), corrected))
        except ValueError as error:
            if (again := sent_again(state, corrected)) is not None:
                return again
            return render(template, status=422, state=state, table_id=state.id, error=engine_text(str(error)),
                          form=request.form, amend=corrected)
        return after_recording(state, recorded, corrected)
