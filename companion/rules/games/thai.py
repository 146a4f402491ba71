"""Thai Rummy (Dummy, RULES.md §D): its registry entry, who deals next, and the ``meld``/``check``/``pickup``
operations.  The engine is :mod:`companion.rules.thai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.registry import GameSpec, Templates, register, request_field
from companion.rules.schema import Field, Schema
from companion.rules.thai import (
    THAI_PROFILES,
    ThaiHandScore,
    ThaiOptions,
    ThaiStandings,
    admit_thai_hand,
    check_knock,
    check_pickup,
    meld_answer,
    score_thai_hand,
    thai_standings,
)

__all__ = ["SPEC", "THAI_HAND_SCHEMA", "op_meld", "op_check", "op_pickup"]

THAI_HAND_SCHEMA: Schema = {
    "knocker": Field(),
    "knock_card": Field(max_length=20),
    "dark": Field(),
    "fed_by": Field(),
    "players": Field("list", items=Field("object", fields={
        "born": Field(), "laid": Field("tiles", max_items=52), "hand": Field("tiles", max_items=52),
        "layoff_discards": Field(),
    })),
    "first_card": Field(max_length=20),
    "first_card_by": Field(),
}
"""The hand record (D5, D6; see :func:`companion.rules.thai.score_thai_hand`): its fields, types and bounds (one
deck: no player lays or holds more than 52 cards)."""


def _cards(request: Mapping[str, Any]) -> Any:
    """The request's cards: ``cards`` (batch), or ``tiles`` (the command line's positional words)."""
    if request.get("cards") in (None, "") and request.get("tiles") not in (None, ""):
        return request["tiles"]
    return request_field(request, "cards")


def op_meld(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``meld`` (D2): ``{"cards":"QS KS AS"}`` → ``{"valid","value","reason","melds"}``; ``|`` separates melds."""
    return meld_answer(_cards(request), options)


def op_check(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``check`` (D4): can this hand knock, with ``table`` melds to lay off on?
    ``{"cards":"8H 9H 10H 7C 7D 7H 5S","table":"JH QH KH"}`` → ``{"knocks","knock_cards","melds","layoffs","reason"}``;
    the knock card is chosen with the table's values (``options``: a speto worth 100 as the knock card, D6)."""
    return check_knock(_cards(request), request.get("table") or (), options).to_dict()


def op_pickup(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``pickup`` (D2, D3): may ``card`` be picked up from the discard ``row`` with this ``cards`` hand?"""
    born = request.get("born", False)
    if not isinstance(born, bool):
        raise ValueError(f"invalid born {born!r}: use true or false")
    return check_pickup(request_field(request, "row"), request_field(request, "card"), request.get("cards") or "",
                        born=born, table=request.get("table") or ()).to_dict()


def _pass_deal(
    dealer: int, seats: int, options: Any, score: ThaiHandScore | None, standings: ThaiStandings | None = None
) -> int:
    """D6: the knocker deals the next hand; after a hand without a knock the deal passes on in the direction
    of play (which every feeding reverses).  Before the hand ends nobody can tell: the dealer is answered."""
    if score is None:
        return dealer
    if score.knocker is not None:
        return score.knocker
    reverse = standings is not None and standings.direction == "reverse"
    return (dealer + (-1 if reverse else 1)) % seats


SPEC = register(GameSpec(
    id="thai",
    title="Thai Rummy",
    aliases=("dummy", "thai rummy", "thai_rummy", "ดัมมี่", "รัมมี่ไทย", "knock rummy"),
    players=(2, 3, 4),
    options=ThaiOptions,
    profiles=THAI_PROFILES,
    score_hand=score_thai_hand,
    standings=thai_standings,
    pass_deal=_pass_deal,
    sheet="race",
    picker="cards",
    templates=Templates(hand="thai_hand.html", form="thai.hand", actions="games/thai_actions.html",
                        status="games/thai_status.html"),
    hand_fields=THAI_HAND_SCHEMA,
    admit_hand=admit_thai_hand,
    ops={"meld": op_meld, "check": op_check, "pickup": op_pickup},
))
