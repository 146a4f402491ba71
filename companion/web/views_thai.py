"""The end of a Thai Rummy hand (RULES.md §D): who knocked and with which card, dark or fed, what each
player laid on the table and kept in hand; the verdict comes from the rules engine
(``companion.rules.thai``).

The form previews with htmx (``…/check`` answers the verdict fragment) and records with a plain POST;
``?amend=N`` opens it filled in from recorded hand N, to correct it.  A player's "born" is not asked: a
player who laid cards is born (D3), and for the knocker the dark-knock box says it (D6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from companion.rules.cards import format_cards
from companion.rules.registry import find_game
from companion.rules.thai import thai_cards
from companion.tables import TableState
from companion.web.hand_form import hand_form_routes
from companion.web.views_base import form_int, form_text, html_blueprint
from companion.web.views_text import engine_text

GAME = find_game("thai")

bp = html_blueprint("thai", __name__, url_prefix="/t")


def _seat_or_none(name: str, label: str, players: int) -> int | None:
    raw = form_text(name, "none")
    return None if raw in ("", "none") else form_int(name, label, low=0, high=players - 1)


def _cards(name: str, label: str | None = None) -> str:
    """A card field in our notation (``q♠ ks, as`` → ``QS KS AS``); a bad card is refused naming it, and ``label``
    (the player, the field) where it was typed."""
    try:
        return format_cards(thai_cards(form_text(name)))
    except ValueError as error:
        if label is None:
            raise
        raise ValueError(f"{label}: {engine_text(str(error))}") from None


def hand_record(state: TableState) -> dict[str, Any]:
    """The hand record of the form (see :func:`companion.rules.thai.score_thai_hand`)."""
    seats = len(state.players)
    if not form_text("knocker"):
        raise ValueError(_("Tap who knocked, or “nobody: the stock ran out”."))
    knocker = _seat_or_none("knocker", _("The knocker"), seats)
    hand: dict[str, Any] = {
        "knocker": knocker,
        "knock_card": (_cards("knock_card") or None) if knocker is not None else None,
        "dark": knocker is not None and bool(form_text("dark")),
        "fed_by": _seat_or_none("fed_by", _("Fed by"), seats) if knocker is not None else None,
        "players": [],
    }
    for seat, name in enumerate(state.players):
        laid_label = f"{name} · {_('Laid on the table (melds and lay-offs, ฝาก)')}"
        entry: dict[str, Any] = {"laid": _cards(f"laid{seat}", laid_label),
                                 "hand": _cards(f"hand{seat}", f"{name} · {_('Left in hand')}")}
        if seat == knocker:
            entry["born"] = not hand["dark"]
        if state.options.layoff_discard_penalty:
            entry["layoff_discards"] = form_int(f"layoff_discards{seat}", _("The lay-off discards of %(name)s",
                                                name=name), low=0, high=50, default=0)
        hand["players"].append(entry)
    if state.options.first_card_bonus or state.options.first_card_speto_bonus:
        first = _cards("first_card")
        if first:
            hand["first_card"] = first
            hand["first_card_by"] = _seat_or_none("first_card_by", _("Melded by"), seats)
    return hand


def _form(record: Mapping[str, Any]) -> dict[str, str]:
    """The form filled in from a recorded hand (to correct it)."""
    knocker, fed_by = record.get("knocker"), record.get("fed_by")
    form = {
        "knocker": "none" if knocker is None else str(knocker),
        "knock_card": str(record.get("knock_card") or ""),
        "fed_by": "none" if fed_by is None else str(fed_by),
        "first_card": str(record.get("first_card") or ""),
        "first_card_by": "none" if record.get("first_card_by") is None else str(record.get("first_card_by")),
    }
    if record.get("dark"):
        form["dark"] = "1"
    for seat, entry in enumerate(record.get("players") or []):
        if isinstance(entry, Mapping):
            for field in ("laid", "hand"):
                value = entry.get(field) or ""
                form[f"{field}{seat}"] = value if isinstance(value, str) else " ".join(map(str, value))
            form[f"layoff_discards{seat}"] = str(entry.get("layoff_discards") or "")
    return form


hand_form_routes(bp, GAME, "thai", read=hand_record, fill=_form)
