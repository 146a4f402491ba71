"""Okey's points-counting variant (RULES.md O7): its registry entry — the worked example of
``docs/adding-a-game.md``.  The engine is :mod:`companion.rules.okey_points`.
"""

from __future__ import annotations

from typing import Any

from companion.rules.games.tile_deal import DEAL_EVENTS, DEAL_OPS, hand_with_indicator
from companion.rules.okey_points import (
    HANDS,
    PLAYERS,
    OkeyPointsOptions,
    admit_okey_points_hand,
    okey_points_standings,
    score_okey_points_hand,
)
from companion.rules.registry import GameSpec, Templates, register
from companion.rules.round import HandResult, TableView
from companion.rules.schema import Field, Schema

__all__ = ["SPEC", "OKEY_POINTS_HAND_SCHEMA"]

OKEY_POINTS_HAND_SCHEMA: Schema = {
    "indicator": Field(max_length=8),
    "finisher": Field(),
    "racks": Field("list", items=Field("tiles")),
}
"""The hand record ``{"indicator": "R4", "finisher": 0 | null, "racks": ["", "R5 K7", 23, …]}`` (O7): its fields,
types and bounds; the engine judges the values (four racks, tiles or a typed sum)."""


def _record_hand(table: TableView, hand: dict[str, Any]) -> HandResult:
    """The hand, with the indicator turned up this hand when the record does not give one."""
    record = hand_with_indicator(table, hand)
    return HandResult(score_okey_points_hand(record, table.options), record=record)


SPEC = register(GameSpec(
    id="okey_points",
    title="Okey points",
    aliases=("okey-points", "okey points", "points", "sayili okey", "sayılı okey"),
    players=(PLAYERS,),
    options=OkeyPointsOptions,
    profiles={"reference": {}, "right_of_dealer_starts": {"starter": "right_of_dealer"}},
    option_numbers={"hands": HANDS},
    score_hand=score_okey_points_hand,
    standings=okey_points_standings,
    record_hand=_record_hand,
    sheet="penalty",
    picker="tiles",
    templates=Templates(hand="okey_points_hand.html", form="okey_points.hand", actions="games/okey_points_actions.html"),
    events=DEAL_EVENTS,
    deal_tiles=21,
    hand_fields=OKEY_POINTS_HAND_SCHEMA,
    ops=DEAL_OPS,
    admit_hand=admit_okey_points_hand,
))
