"""The card games' pages (Rami 40/51, Turkish Rummy): the end of a hand, the opening checker and the deal.

Every number comes from the rules engine through the game's registry entry (its ``score_hand`` and its
``opening``, ``meld`` and ``deal`` operations); the pages only collect cards with the card picker
(``templates/_cards.html``).  The hand forms preview with htmx (``…/check`` answers the verdict fragment)
and record with a plain POST; ``?amend=N`` opens a form filled in from recorded hand N.

A game's hand form is chosen by its ``templates.hand``; what the form's fields mean is the
:data:`HAND_FORMS` entry of that template (Rami's "never opened" and "rami sec", Turkish Rummy's "Rummy").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from flask import request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.rules._card_sheet import MAX_TYPED_SUM
from companion.rules.cards import format_cards, parse_cards
from companion.tables import TableState
from companion.web.api import get_store
from companion.web.views_base import form_int, form_text, html_blueprint, render
from companion.web.views_hands import after_recording, amending, hand_event, refusal, sent_again, verdict_fragment
from companion.web.views_table import record, require_editor
from companion.web.views_text import engine_text, game_label

bp = html_blueprint("cards", __name__, url_prefix="/t")

_MELD_SPLIT = re.compile(r"\s*[|\n]\s*")


def _state(table_id: str) -> TableState:
    state = get_store().get(table_id)
    if state.spec.picker != "cards" or state.spec.templates.hand not in HAND_FORMS:
        raise ValueError(_("This table plays %(game)s: use the end-of-hand button of its table page.",
                           game=game_label(state.game)))
    return state


def _cards_of(state: TableState, seat: int) -> Any:
    """What seat ``seat`` holds on the form: the cards tapped/typed, or the value typed."""
    cards = form_text(f"cards{seat}")
    typed = form_text(f"points{seat}")
    name = state.players[seat]
    if cards and typed:
        raise ValueError(_("%(name)s has cards and a typed value: keep one of them.", name=name))
    if typed:
        return form_int(f"points{seat}", _("The value of %(name)s", name=name), low=0, high=MAX_TYPED_SUM)
    try:
        return format_cards(parse_cards(cards))
    except ValueError as error:
        raise ValueError(f"{name}: {engine_text(str(error))}") from None


def _finisher(state: TableState, *, allow_none: bool) -> int | None:
    text = form_text("finisher")
    if not text:
        raise ValueError(_("Tap who went out."))
    if text == "none" and allow_none:
        return None
    return form_int("finisher", _("The finisher"), low=0, high=len(state.players) - 1)


def _rami_hand(state: TableState) -> dict[str, Any]:
    """The Rami hand record (M6/M7): finisher (or none: stock out), rami sec, each player's cards."""
    finisher = _finisher(state, allow_none=True)
    players = [{"opened": f"notopened{seat}" not in request.form, "cards": _cards_of(state, seat)}
               for seat in range(len(state.players))]
    return {"finisher": finisher, "rami_sec": "rami_sec" in request.form, "players": players}


def _rami_form(record: Mapping[str, Any]) -> dict[str, str]:
    finisher = record.get("finisher")
    form = {"finisher": "none" if finisher is None else str(finisher)}
    if record.get("rami_sec"):
        form["rami_sec"] = "on"
    for seat, entry in enumerate(record.get("players") or []):
        if entry.get("opened") is False:
            form[f"notopened{seat}"] = "on"
        _held_form(form, seat, entry.get("cards"))
    return form


def _turkish_hand(state: TableState) -> dict[str, Any]:
    """The Turkish Rummy hand record (T6/T7): finisher, Rummy, each player's cards."""
    finisher = _finisher(state, allow_none=False)
    players = [{"cards": _cards_of(state, seat)} for seat in range(len(state.players))]
    return {"finisher": finisher, "rummy": "rummy" in request.form, "players": players}


def _turkish_form(record: Mapping[str, Any]) -> dict[str, str]:
    form = {"finisher": str(record.get("finisher", ""))}
    if record.get("rummy"):
        form["rummy"] = "on"
    for seat, entry in enumerate(record.get("players") or []):
        _held_form(form, seat, entry.get("cards"))
    return form


def _held_form(form: dict[str, str], seat: int, held: Any) -> None:
    if isinstance(held, int) and not isinstance(held, bool):
        form[f"points{seat}"] = str(held)
    else:
        form[f"cards{seat}"] = held if isinstance(held, str) else " ".join(map(str, held or []))


HAND_FORMS: dict[str, tuple[Callable[[TableState], dict[str, Any]], Callable[[Mapping[str, Any]], dict[str, str]]]] = {
    "rami_hand.html": (_rami_hand, _rami_form),
    "turkish_hand.html": (_turkish_hand, _turkish_form),
}
"""By hand template: how the form becomes a hand record, and a recorded hand the form again."""


def _verdict(state: TableState) -> dict[str, Any]:
    hand = HAND_FORMS[state.spec.templates.hand][0](state)
    return {"hand": hand, "score": state.spec.score_hand(hand, state.options), "refused": refusal(state, hand)}


def _page(state: TableState, **context: Any) -> dict[str, Any]:
    deck = state.spec.ops["deal"]({"players": len(state.players), "hand": 1, "dealer": state.dealer},
                                  state.options)["deck"]
    return {"state": state, "table_id": state.id, "copies": deck["decks"], "jokers": deck["jokers"], **context}


@bp.get("/<table_id>/cards")
def hand(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    corrected = amending(state)
    form = HAND_FORMS[state.spec.templates.hand][1](corrected.record) if corrected else {}
    return render(state.spec.templates.hand, **_page(state, form=form, amend=corrected))


@bp.post("/<table_id>/cards/check")
def hand_check(table_id: str) -> Response:
    """The verdict fragment: each player's penalty and why, nothing recorded."""
    state = _state(table_id)
    return verdict_fragment(state.spec.templates.hand, _verdict, state)


@bp.post("/<table_id>/cards")
def hand_record_post(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    corrected = amending(state)
    try:
        recorded = record(table_id, hand_event(state.spec.hand_event, _verdict(state)["hand"], corrected))
    except ValueError as error:
        if (again := sent_again(state, corrected)) is not None:
            return again
        return render(state.spec.templates.hand, status=422,
                      **_page(state, error=engine_text(str(error)), form=request.form, amend=corrected))
    return after_recording(state, recorded, corrected)


@bp.route("/<table_id>/cards/opening", methods=["GET", "POST"])
def opening(table_id: str) -> Response:
    """The opening checker (M4, T3): the best opening of a hand, and the melds as laid out, each judged."""
    state = _state(table_id)
    context = _page(state, form=request.form)
    try:
        hand_text = form_text("hand")
        if hand_text:
            context["best"] = state.spec.ops["opening"]({"cards": hand_text, "players": len(state.players)},
                                                        state.options)
        melds_text = form_text("melds")
        if melds_text:
            # the game's own judgement of melds as laid (M2/M4, T3): each meld, the cards counted together
            # against the deck (M1, T1), the total against the opening
            melds = " | ".join(meld for meld in _MELD_SPLIT.split(melds_text) if meld)
            context["laid"] = state.spec.ops["meld"]({"cards": melds, "laid": True, "players": len(state.players)},
                                                     state.options)  # the table's deck (M1)
    except ValueError as error:
        context["error"] = engine_text(str(error))
    return render("cards_opening.html", block="verdict" if request.method == "POST" else None, **context)
