"""Okey, the 20-point game (RULES.md §O): its registry entry, the gösterme event, the hand recorder and ``check``.

The engine is :mod:`companion.rules.win` (O5), :mod:`companion.rules.scoring_okey` (O6) and
:func:`companion.rules.match.okey_standings`; the options are :class:`companion.rules.options.OkeyOptions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.rules.errors import InvalidEventError
from companion.rules.explain import Explanation
from companion.rules.games.tile_deal import DEAL_EVENTS, DEAL_OPS, hand_with_indicator
from companion.rules.match import OkeyStandings, okey_standings
from companion.rules.options import OkeyOptions
from companion.rules.registry import EventRule, GameSpec, Templates, register, request_field
from companion.rules.round import Deal, HandResult, TableView, event_seat, list_field
from companion.rules.schema import Field
from companion.rules.scoring_okey import (
    OKEY_HAND_SCHEMA,
    OkeyHandScore,
    combine_okey_scores,
    pending_gosterme,
    score_okey_hand,
)
from companion.rules.win import check_hand

__all__ = ["SPEC", "op_check"]


def _on_gosterme(table: TableView, event: Mapping[str, Any]) -> Deal:
    """O6: a player shows the indicator's twin before the first draw; it counts once per player and hand."""
    seat = event_seat(table, event)
    if table.deal.indicator is None:
        raise InvalidEventError("no indicator yet: record the indicator before a gösterme (O6)")
    if seat in table.deal.gosterme:
        raise InvalidEventError(f"player {seat} already showed the indicator this hand: it counts once")
    return replace(table.deal, gosterme=(*table.deal.gosterme, seat))


def _record_hand(table: TableView, hand: dict[str, Any]) -> HandResult:
    """The hand with this hand's gösterme and wrong declarations.  A wrong declaration costs the declarer and
    play goes on (O5): the same hand and dealer, the penalty in the totals at once (:func:`_pending`), a
    gösterme still waiting for the hand's end."""
    record = hand_with_indicator(table, hand)
    record.setdefault("players", table.seats)
    record.pop("left", None)  # who left is the table's to say (O6 elimination), never the form's
    if table.left:
        record["left"] = list(table.left)
    given = list_field(record, "gosterme")
    shown = [*table.deal.gosterme, *(seat for seat in given if seat not in table.deal.gosterme)]
    record = {**record, "gosterme": shown}
    score = score_okey_hand(record, table.options)
    if not score.valid:
        wrong = score_okey_hand({**record, "gosterme": []}, table.options)
        deal = replace(table.deal, gosterme=tuple(shown),
                       wrong_declarations=(*table.deal.wrong_declarations, wrong))
        return HandResult(wrong, over=False, deal=deal, record=record,
                          refusal=f"is not a valid win: {score.reason}; record a valid win or the stock running out")
    return HandResult(combine_okey_scores([*table.deal.wrong_declarations, score]), record=record)


def _pending(table: TableView) -> OkeyHandScore | None:
    """The wrong declarations of the hand in play (O5): they count in the totals at once."""
    return combine_okey_scores(table.deal.wrong_declarations) if table.deal.wrong_declarations else None


def _waiting(table: TableView) -> tuple[Explanation, ...]:
    """A gösterme counts when the hand is recorded (O6): said on the row of the hand in play."""
    return pending_gosterme(table.deal.gosterme, table.options) if table.deal.gosterme else ()


def _entries(score: OkeyHandScore) -> tuple[int, ...]:
    return score.team_deltas if score.team_deltas is not None else score.deltas


def _totals(standings: OkeyStandings) -> tuple[int, ...]:
    return standings.team_points or standings.points


def _start(options: OkeyOptions) -> int:
    return options.start_points


def _left(standings: OkeyStandings) -> tuple[int, ...]:
    """The seats that left the match (O6 ``elimination``): they neither deal nor take tiles any more."""
    return tuple(standings.eliminated)


def _pass_deal(dealer: int, seats: int, options: OkeyOptions, score: Any, standings: Any = None) -> int:
    """The deal passes to the right (O2.1), past the seats that left the match (O6 ``elimination``).

    >>> from companion.rules.options import options_for
    >>> s = okey_standings(4, [], options_for("okey"))
    >>> _pass_deal(1, 4, options_for("okey"), None, replace(s, eliminated=(2, 3)))
    0
    """
    gone = set(_left(standings)) if standings is not None else set()
    for step in range(1, seats + 1):
        seat = (dealer + step) % seats
        if seat not in gone:
            return seat
    return dealer


def op_check(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``check`` (O5): 14 tiles → verdict and arrangement; 15 tiles → the winning discards."""
    return check_hand(request_field(request, "tiles"), indicator=request.get("indicator"), options=options).to_dict()


SPEC = register(GameSpec(
    id="okey",
    title="Okey",
    aliases=("duz", "duz_okey", "düz okey"),
    players=(2, 3, 4),
    options=OkeyOptions,
    profiles={
        "reference": {},
        "kahvehane": {"pairs_and_okey_discard": 8, "colour_hand": "any"},
        "partners": {"partners": True},
    },
    score_hand=score_okey_hand,
    standings=okey_standings,
    entries=_entries,
    totals=_totals,
    start=_start,
    record_hand=_record_hand,
    pending=_pending,
    waiting=_waiting,
    sheet="countdown",
    picker="tiles",
    templates=Templates(hand="okey_win.html", form="hands.okey_win", actions="games/okey_actions.html"),
    events={**DEAL_EVENTS, "gosterme": EventRule(_on_gosterme, fields={"player": Field()})},
    hand_fields=OKEY_HAND_SCHEMA,
    deal_tiles=14,
    pass_deal=_pass_deal,
    left=_left,
    ops={"check": op_check, **DEAL_OPS},
))
