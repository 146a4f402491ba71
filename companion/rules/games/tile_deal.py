"""The dice ritual's events, shared by the okey tile games (O2, O3, H2): ``deal``, ``reroll``, ``indicator``.

A game with ``deal_tiles`` in its entry lists :data:`DEAL_EVENTS` among its events and :data:`DEAL_OPS`
among its operations; a card game lists neither, so its tables have no dice and no indicator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.rules.deal import at_seats, plan_deal, reroll_indicator, roll_deal
from companion.rules.errors import InvalidDealError, InvalidEventError
from companion.rules.explain import player
from companion.rules.registry import EventRule, find_game
from companion.rules.schema import Field
from companion.rules.round import Deal, TableView, event_field, event_int
from companion.rules.tiles import okey_for, tile_like

__all__ = ["DEAL_EVENTS", "DEAL_OPS", "hand_with_indicator", "op_deal"]


QUICK_DEAL_DICE = ("no dice are rolled with the quick deal (option quick_deal, O2.6): everybody takes their tiles "
                   "and one tile is turned up; leave the dice out, or turn quick_deal off")


def _prepare_deal(table: TableView, event: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``{"type": "deal", "roll": true}``: the server rolls now, so the recorded event replays the same.  Dice sent
    for a quick deal are refused, never silently dropped (a log that holds some still replays: they are ignored)."""
    if getattr(table.options, "quick_deal", False) and event.get("dice") is not None:
        raise InvalidEventError(QUICK_DEAL_DICE)
    if event.pop("roll", False) and "dice" not in event:
        seats = _seats(table)
        plan = roll_deal(players=len(seats), dealer=seats.index(table.dealer), rng=rng, game=table.game,
                         options=table.options)
        if plan.rolls:
            event.update(dice=list(plan.rolls), rolled=True)
    return event


def _seats(table: TableView) -> tuple[int, ...]:
    """The seats the dice ritual counts (O2.5: 2, 3 or 4), those that left the match out (O6 ``elimination``)."""
    seats = table.in_play
    if table.dealer not in seats:
        raise InvalidEventError(f"{player(table.dealer)} left the match and cannot deal")
    return seats


def _on_deal(table: TableView, event: Mapping[str, Any]) -> Deal:
    if table.deal.started:
        raise InvalidEventError("this hand's deal is already recorded: undo it to change the dice")
    quick = getattr(table.options, "quick_deal", False)
    dice = None if quick else event_field(event, "dice")  # a quick deal's dice (refused since) are not used
    if dice is None:
        first = second = None
    elif isinstance(dice, list) and len(dice) == 2:
        first, second = dice
    else:
        raise InvalidEventError(f"invalid dice {dice!r} in deal event: give the two rolls, e.g. [5, 2]")
    seats = _seats(table)
    plan = plan_deal(players=len(seats), dealer=seats.index(table.dealer), first_roll=first, second_roll=second,
                     game=table.game, options=table.options)
    return replace(table.deal, plan=at_seats(plan, seats, table.seats), rolled=bool(event.get("rolled")))


def _on_reroll(table: TableView, event: Mapping[str, Any]) -> Deal:
    if table.deal.plan is None:
        raise InvalidEventError("no deal to reroll: record the deal's dice first")
    die = event_int(event, "die", 1, 6, "a die shows 1-6")
    return replace(table.deal, plan=reroll_indicator(table.deal.plan, die), indicator=None)


def _prepare_indicator(table: TableView, event: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A second indicator this hand replaces a mistyped one: the event keeps which, for the history."""
    event.pop("replaces", None)
    old = table.deal.indicator
    if old is not None and str(event.get("tile", "")).strip().upper() != old.code:
        event["replaces"] = old.code
    return event


def _on_indicator(table: TableView, event: Mapping[str, Any]) -> Deal:
    """The tile turned up (O3); a later one replaces a mistyped one.  A gösterme or a 101 penalty already
    recorded stays (the player showed the twin of the tile on the table, not of what was typed); a wrong
    declaration was judged with the old okey, so it must be undone first and recorded again."""
    tile = tile_like(event_field(event, "tile"))
    okey_for(tile)  # refuses a false okey: it is put back and the die rolled again (O2.3)
    old = table.deal.indicator
    if old is not None and tile != old and table.deal.wrong_declarations:
        raise InvalidEventError(
            f"cannot replace the indicator {old.code} by {tile.code}: a wrong declaration this hand was judged "
            f"with the okey {okey_for(old).code}; undo it, replace the indicator, then record it again"
        )
    return replace(table.deal, indicator=tile)


DEAL_EVENTS: dict[str, EventRule] = {
    "deal": EventRule(_on_deal, prepare=_prepare_deal,
                      fields={"dice": Field("list", max_items=4), "roll": Field(), "rolled": Field()}),
    "reroll": EventRule(_on_reroll, fields={"die": Field()}),
    "indicator": EventRule(_on_indicator, prepare=_prepare_indicator,
                           fields={"tile": Field(max_length=8), "replaces": Field(max_length=8)}),
}


def hand_with_indicator(table: TableView, hand: Mapping[str, Any]) -> dict[str, Any]:
    """The hand record, with the indicator turned up this hand when the record does not give one."""
    record = dict(hand)
    if record.get("indicator") is None and table.deal.indicator is not None:
        record["indicator"] = table.deal.indicator.code
    return record


def op_deal(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Batch/CLI ``deal``: the formal deal (O2) — stacks, leftover tile, indicator and the take list.
    Seats are 0-based here; without ``dice`` they are rolled (``seed`` makes it repeatable)."""
    game = request["game"]
    players = _int_field(request, "players", 4)
    spec = find_game(game)
    if players not in spec.players:  # O7: the points-counting game is four players' (a table refuses it too)
        counts = ", ".join(str(n) for n in spec.players)
        raise InvalidDealError(f"invalid players {players}: {spec.title} is played by {counts} players")
    dealer = _int_field(request, "dealer", 0)
    dice = request.get("dice")
    if dice is not None and getattr(options, "quick_deal", False):
        raise InvalidDealError(QUICK_DEAL_DICE)
    if dice is None:
        seed = request.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise InvalidDealError(f"field 'seed' must be a whole number or a text, not {seed!r}")
        rng = random.Random(seed)
        plan = roll_deal(players=players, dealer=dealer, rng=rng, game=game, options=options)
    else:
        if not isinstance(dice, Sequence) or isinstance(dice, str) or len(dice) != 2:
            raise InvalidDealError(f"field 'dice' must be two numbers such as [5, 2], not {dice!r}")
        first, second = (_as_int("dice", d) for d in dice)
        plan = plan_deal(
            players=players, dealer=dealer, first_roll=first, second_roll=second, game=game, options=options
        )
    return plan.to_dict()


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidDealError(f"field {name!r} must be a whole number, not {value!r}")
    try:
        return int(value)
    except ValueError:
        raise InvalidDealError(f"field {name!r} must be a whole number, not {value!r}") from None


def _int_field(request: Mapping[str, Any], name: str, default: int) -> int:
    value = request.get(name, default)
    return default if value is None else _as_int(name, value)


DEAL_OPS = {"deal": op_deal}
