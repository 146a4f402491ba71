"""Okey, the 20-point game (RULES.md §O): its registry entry, the gösterme event, the hand recorder and ``check``.

The engine is :mod:`companion.rules.win` (O5), :mod:`companion.rules.scoring_okey` (O6) and
:func:`companion.rules.match.okey_standings`; the options are :class:`companion.rules.options.OkeyOptions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.rules.errors import InvalidEventError, InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, player
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
        raise InvalidEventError(f"{player(seat).capitalize()} already showed the indicator this hand: it counts once")
    return replace(table.deal, gosterme=(*table.deal.gosterme, seat))


def _admit_gosterme(table: TableView, event: dict[str, Any], rng: Any) -> dict[str, Any]:
    """A new gösterme, checked before it is stored (a log an earlier version wrote still replays): one copy of
    the indicator's tile is the indicator, so one seat a hand can show the other (O1/O3 settled reading); a seat
    that left the match (O6 ``elimination``) shows nothing."""
    seat = event_seat(table, event)
    if seat in table.left:
        raise InvalidEventError(f"{player(seat).capitalize()} left the match (O6) and cannot show the indicator's "
                                "twin any more")
    shown = [other for other in table.deal.gosterme if other != seat]
    if shown:
        raise InvalidEventError(f"{player(shown[0]).capitalize()} already showed the indicator's twin this hand, and "
                                "there is only one (the other copy is the indicator): undo that gösterme if it was "
                                "recorded for the wrong player")
    return event


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
    # A seat leaves mid-hand only by its own wrong declaration (O5, O6): one that left before the hand shows nothing,
    # one that showed the twin and then declared wrongly keeps its gösterme.
    declared = {score.winner for score in table.deal.wrong_declarations}
    gone = [seat for seat in shown if seat in table.left and seat not in declared]
    if gone:
        raise InvalidHandRecordError(f"{player(gone[0]).capitalize()} left the match (O6) and cannot show the "
                                     "indicator's twin any more")
    record = {**record, "gosterme": shown}
    score = score_okey_hand(record, table.options)
    if not score.valid:
        wrong = score_okey_hand({**record, "gosterme": []}, table.options)
        deal = replace(table.deal, gosterme=tuple(shown),
                       wrong_declarations=(*table.deal.wrong_declarations, wrong))
        closing = None
        if shown:  # should the declaration end the match, the gösterme shown before it counts (O6)
            shows = score_okey_hand({**record, "winner": None, "gosterme": shown}, table.options)
            shows = replace(shows, explain=tuple(line for line in shows.explain if line.key != "okey.stock_exhausted"))
            closing = replace(combine_okey_scores([shows, *deal.wrong_declarations]),  # the last says how it ended
                              explain=(*(line for w in deal.wrong_declarations for line in w.explain), *shows.explain))
        return HandResult(wrong, over=False, deal=deal, record=record, closing=closing,
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


def _admit_options(options: OkeyOptions) -> None:
    """A new table starts above 0: the match ends when someone is at 0 or less (O6)."""
    if options.start_points < 1:
        raise InvalidOptionError(f"invalid value {options.start_points!r} for option 'start_points' of okey; use "
                                 "1-10000")


def op_check(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``check`` (O5): 14 tiles → verdict and arrangement; 15 tiles → the winning discards."""
    return check_hand(request_field(request, "tiles"), indicator=request_field(request, "indicator"),
                      options=options).to_dict()  # without the indicator nothing would be wild (O3)


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
    events={**DEAL_EVENTS, "gosterme": EventRule(_on_gosterme, prepare=_admit_gosterme, fields={"player": Field()})},
    hand_fields=OKEY_HAND_SCHEMA,
    deal_tiles=14,
    pass_deal=_pass_deal,
    left=_left,
    ops={"check": op_check, **DEAL_OPS},
    admit_options=_admit_options,
))
