"""Turkish Rummy — Rummy 40 / 51 (RULES.md §T, seed 004): its registry entry; the engine is
:mod:`companion.rules.turkish`."""

from __future__ import annotations

from companion.rules.games._cards import card_ops
from companion.rules.registry import GameSpec, Templates, register
from companion.rules.schema import Field, Schema
from companion.rules.turkish import (
    PLAYERS,
    PROFILES,
    TurkishOptions,
    admit_turkish_hand,
    best_turkish_opening,
    check_turkish_laid,
    check_turkish_meld,
    score_turkish_hand,
    turkish_deal,
    turkish_going_out,
    turkish_joker_swap,
    turkish_pass_deal,
    turkish_standings,
)

__all__ = ["SPEC", "TURKISH_HAND_SCHEMA"]

TURKISH_HAND_SCHEMA: Schema = {
    "finisher": Field(),
    "rummy": Field(),
    "players": Field("list", items=Field("object", fields={"cards": Field("tiles", max_items=106)})),
}
"""The hand record ``{"finisher": 0, "rummy": false, "players": [{"cards": ""}, {"cards": "2C 3D"}, …]}`` (T6, T7):
its fields, types and bounds (no hand holds more cards than the 106 of the deck)."""

SPEC = register(GameSpec(
    id="turkish",
    title="Turkish Rummy",
    aliases=("turkish rummy", "turkish_rummy", "turkish-rummy", "rummy 40", "rummy40"),
    players=PLAYERS,
    options=TurkishOptions,
    profiles=PROFILES,
    score_hand=score_turkish_hand,
    standings=turkish_standings,
    sheet="penalty",
    picker="cards",
    pass_deal=turkish_pass_deal,
    templates=Templates(hand="turkish_hand.html", form="cards.hand", actions="games/cards_actions.html", tools="games/cards_tools.html"),
    hand_fields=TURKISH_HAND_SCHEMA,
    admit_hand=admit_turkish_hand,
    ops=card_ops(meld=check_turkish_meld, laid=check_turkish_laid, opening=best_turkish_opening,
                 going_out=turkish_going_out, joker=turkish_joker_swap, deal=turkish_deal),
))
