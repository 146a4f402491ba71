"""Okey 101 (RULES.md §H): its registry entry, the penalty and void-hand events, the hand recorder and the
``opening``/``meld``/``check`` operations.

The engine is :mod:`companion.rules.opening` (H4), :mod:`companion.rules.scoring_101` (H6, H7) and
:func:`companion.rules.match.okey101_standings` (H8); the options are
:class:`companion.rules.options.Okey101Options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.rules.errors import InvalidEventError
from companion.rules.games.okey import op_check
from companion.rules.games.tile_deal import DEAL_EVENTS, DEAL_OPS, hand_with_indicator
from companion.rules.match import Okey101Standings, okey101_standings
from companion.rules.melds import check_laid_opening, check_meld_101
from companion.rules.opening import best_opening
from companion.rules.options import Okey101Options
from companion.rules.registry import EventRule, GameSpec, Templates, register, request_field
from companion.rules.round import Deal, HandResult, Penalty, TableView, event_field, event_seat, list_field
from companion.rules.schema import Field
from companion.rules.scoring_101 import (
    OKEY101_HAND_SCHEMA,
    PENALTY_REASONS,
    Okey101HandScore,
    pending_penalties,
    admit_okey101_hand,
    score_okey101_hand,
)

__all__ = ["SPEC", "op_opening", "op_meld"]

HANDS = (3, 5, 7, 9, 11)
"""H8: the numbers of hands a match may have."""


def _on_penalty(table: TableView, event: Mapping[str, Any]) -> Deal:
    """H7: an extra penalty for a player in the hand being played (added to that player's entry)."""
    seat = event_seat(table, event)
    reason = event_field(event, "reason")
    if reason not in PENALTY_REASONS:
        raise InvalidEventError(
            f"unknown penalty reason {reason!r} in penalty event; use one of: {', '.join(PENALTY_REASONS)}"
        )
    penalty = Penalty(table.hands + 1, seat, reason, table.options.penalty_points)
    return replace(table.deal, penalties=(*table.deal.penalties, penalty))


def _on_void_hand(table: TableView, event: Mapping[str, Any]) -> None:
    """H4: every player opened with pairs — the hand is dealt again, nobody scores."""
    return None


def _record_hand(table: TableView, hand: dict[str, Any]) -> HandResult:
    """The hand with this hand's extra penalties (H7); a void hand (H4) is dealt again.  The row keeps the
    record without the penalties (they are events of their own)."""
    record = hand_with_indicator(table, hand)
    pending = [{"player": p.player, "reason": p.reason} for p in table.deal.penalties]
    score = score_okey101_hand({**record, "penalties": [*pending, *list_field(record, "penalties")]}, table.options)
    return HandResult(None if score.void else score, record=record,
                      refusal="makes it void: undo the hand instead, or correct it with the players' scores")


def _pending(table: TableView) -> Okey101HandScore | None:
    """The +101 penalties (H7) of the hand in play: they count in the totals at once."""
    if not table.deal.penalties:
        return None
    return pending_penalties([{"player": p.player, "reason": p.reason} for p in table.deal.penalties],
                             table.seats, table.options)


def _entries(score: Okey101HandScore) -> tuple[int, ...]:
    return score.team_scores if score.team_scores is not None else score.scores


def _totals(standings: Okey101Standings) -> tuple[int, ...]:
    return standings.team_totals or standings.totals


def _ledger(standings: Okey101Standings) -> tuple[Penalty, ...]:
    return tuple(Penalty(e.hand, e.seat, e.reason, e.points) for e in standings.ledger)


def _so_far(request: Mapping[str, Any]) -> dict[str, Any]:
    """The highest openings laid so far in the hand (option ``opening_ratchet``, H4), if the request gives them."""
    return {name: request.get(name) for name in ("highest_so_far", "most_pairs_so_far")}


def op_opening(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``opening`` (H4): the best opening of a rack; with ``opening_ratchet``, against the optional
    ``highest_so_far`` (points) and ``most_pairs_so_far`` (pairs) of the hand."""
    tiles = request_field(request, "tiles")
    return best_opening(tiles, indicator=request_field(request, "indicator"), options=options,
                        **_so_far(request)).to_dict()


def op_meld(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``meld``: referee melds as laid out on the table, one or several separated by ``|`` (an
    opening: with ``opening_ratchet``, against the optional ``highest_so_far``/``most_pairs_so_far``)."""
    tiles = request_field(request, "tiles")
    indicator: Any = request_field(request, "indicator")  # without it nothing would be wild (O3)
    if isinstance(tiles, str) and "|" in tiles:
        return check_laid_opening(tiles, indicator=indicator, options=options, **_so_far(request)).to_dict()
    return check_meld_101(tiles, indicator=indicator, options=options).to_dict()


SPEC = register(GameSpec(
    id="okey101",
    title="Okey 101",
    aliases=("okey_101", "101", "okey-101", "101 okey"),
    players=(2, 3, 4),
    options=Okey101Options,
    profiles={
        "reference": {},
        "no_doublings": {"multipliers": False},
        "partners": {"partners": True},
        "dealer_starts": {"starter": "dealer"},
    },
    option_numbers={"hands": HANDS},
    score_hand=score_okey101_hand,
    standings=okey101_standings,
    entries=_entries,
    totals=_totals,
    ledger=_ledger,
    record_hand=_record_hand,
    pending=_pending,
    sheet="penalty",
    picker="tiles",
    templates=Templates(hand="okey101_hand.html", form="hands.okey101_hand", actions="games/okey101_actions.html",
                        tools="games/okey101_tools.html"),
    events={**DEAL_EVENTS, "penalty": EventRule(_on_penalty, fields={"player": Field(), "reason": Field()}),
            "void_hand": EventRule(_on_void_hand, fields={})},
    hand_fields=OKEY101_HAND_SCHEMA,
    deal_tiles=21,
    ops={"opening": op_opening, "meld": op_meld, "check": op_check, **DEAL_OPS},
    admit_hand=admit_okey101_hand,
))
