"""Rummikub (RULES.md §R, seed 002): its registry entry and its operations: ``solve`` (the lay-down assistant,
R4), ``opening`` (the best initial meld of a rack, R3), ``meld`` (melds as laid, R2-R3), ``turn`` (was a turn
legal, R3-R5) and ``joker`` (may a tile take a laid joker, R5).

The engine is :mod:`companion.rules.rummikub` (R1-R6) and :mod:`companion.rules.rummikub_laydown` (R4).
No dice ritual: Rummikub players simply take 14 tiles each (R1).
"""

from __future__ import annotations

from companion.rules.registry import GameSpec, Templates, register
from companion.rules.rummikub import (
    PROFILES,
    RummikubOptions,
    admit_hand,
    joker,
    meld,
    opening,
    score_hand,
    solve,
    standings,
    turn,
)
from companion.rules.schema import Field, Schema

__all__ = ["SPEC", "RUMMIKUB_HAND_SCHEMA"]

RUMMIKUB_HAND_SCHEMA: Schema = {
    "winner": Field(),
    "racks": Field("list", required=True, max_items=4, items=Field("tiles")),
}
"""The hand record ``{"winner": 0 | null, "racks": ["", "R5 J", …]}`` (R6): its fields, types and bounds."""

SPEC = register(GameSpec(
    id="rummikub",
    title="Rummikub",
    aliases=("rummikub", "rumikub", "rummy-o", "руммикуб", "rummikub (sabra)"),
    players=(2, 3, 4),
    options=RummikubOptions,
    profiles=PROFILES,
    option_numbers={"initial_meld": (30, 50)},
    score_hand=score_hand,
    standings=standings,
    sheet="zero_sum",
    picker="tiles",
    templates=Templates(hand="rummikub_hand.html", form="rummikub.hand", actions="games/rummikub_actions.html",
                        tools="games/rummikub_tools.html"),
    hand_fields=RUMMIKUB_HAND_SCHEMA,
    ops={"solve": solve, "opening": opening, "meld": meld, "turn": turn, "joker": joker},
    admit_hand=admit_hand,
))
