"""The end of an Okey points hand (RULES.md O7): who completed the rack, the tiles (or the sum) left on each
rack; the verdict comes from the rules engine (``companion.rules.okey_points``).

The form previews with htmx (``…/check`` answers the verdict fragment) and records with a plain POST;
``?amend=N`` opens it filled in from recorded hand N, to correct it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from companion.rules.okey_points import MAX_TYPED_SUM
from companion.rules.registry import find_game
from companion.rules.tiles import format_tiles, parse_tiles
from companion.tables import TableState
from companion.web.hand_form import hand_form_routes
from companion.web.views_base import form_int, form_text, html_blueprint
from companion.web.views_hands import indicator_of

GAME = find_game("okey_points")

bp = html_blueprint("okey_points", __name__, url_prefix="/t")


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
        if form_text(f"sum{seat}") and tiles:
            raise ValueError(_("%(name)s has tiles and a typed sum: keep one of them (clear the tiles or the sum).",
                               name=name))
        if form_text(f"sum{seat}"):
            racks.append(form_int(f"sum{seat}", _("The sum of %(name)s", name=name), low=0, high=MAX_TYPED_SUM))
        else:
            racks.append(format_tiles(parse_tiles(tiles)))
    return {"indicator": indicator_of(state), "finisher": finisher, "racks": racks}


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


hand_form_routes(bp, GAME, "points", read=hand_record, fill=_form)
