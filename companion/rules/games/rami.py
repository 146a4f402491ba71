"""Rami 40 and Rami 51 (RULES.md §M, seed 001): two registry entries over one engine,
:mod:`companion.rules.rami`; they differ only in the opening minimum (``RamiOptions`` / ``Rami51Options``).
"""

from __future__ import annotations

from typing import Any

from companion.rules.games._cards import card_ops
from companion.rules.rami import (
    PLAYERS,
    PROFILES,
    Rami51Options,
    RamiOptions,
    admit_rami_hand,
    best_rami_opening,
    check_rami_laid,
    check_rami_meld,
    rami_deal,
    rami_going_out,
    rami_joker_swap,
    rami_pass_deal,
    rami_standings,
    score_rami_hand,
)
from companion.rules.registry import GameSpec, Templates, register
from companion.rules.schema import Field, Schema

__all__ = ["RAMI40", "RAMI51", "RAMI_HAND_SCHEMA"]

RAMI_HAND_SCHEMA: Schema = {
    "finisher": Field(),
    "rami_sec": Field(),
    "players": Field("list", items=Field("object", fields={"opened": Field(), "cards": Field("tiles", max_items=160)})),
}
"""The hand record ``{"finisher": 0 | null, "rami_sec": false, "players": [{"opened": true, "cards": "2C 3D"}, …]}``
(M6, M7): its fields, types and bounds (no hand holds more cards than 3 decks and 4 jokers)."""


def _joker(meld: Any, cards: Any, *, opened: bool, options: Any) -> Any:
    return rami_joker_swap(meld, cards, opened=opened)


OPS = card_ops(meld=lambda cards, options: check_rami_meld(cards), laid=check_rami_laid,
               opening=best_rami_opening, going_out=rami_going_out, joker=_joker, deal=rami_deal)

TEMPLATES = Templates(hand="rami_hand.html", form="cards.hand", actions="games/cards_actions.html", tools="games/cards_tools.html")


def _register(game_id: str, title: str, aliases: tuple[str, ...], options: type[RamiOptions]) -> GameSpec:
    """One of the two entries: everything but the names and the opening minimum (the options class) is shared."""
    return register(GameSpec(
        id=game_id,
        title=title,
        aliases=aliases,
        players=PLAYERS,
        options=options,
        profiles=PROFILES,
        score_hand=score_rami_hand,
        standings=rami_standings,
        sheet="penalty",
        picker="cards",
        pass_deal=rami_pass_deal,
        templates=TEMPLATES,
        hand_fields=RAMI_HAND_SCHEMA,
        ops=OPS,
        admit_hand=admit_rami_hand,
    ))


RAMI40 = _register("rami40", "Rami 40", ("rami", "rami 40", "rami-40", "rami_40"), RamiOptions)
RAMI51 = _register("rami51", "Rami 51", ("rami 51", "rami-51", "rami_51"), Rami51Options)
