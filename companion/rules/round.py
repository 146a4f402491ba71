"""The hand in play and what a game's event handlers see of the table (pure, no Flask, no SQLite).

The reducer (:mod:`companion.tables`) keeps a :class:`Deal` for the hand being played; a game's own
events (:class:`companion.rules.registry.EventRule`) and its hand recorder get a :class:`TableView` and
answer a new :class:`Deal` or a :class:`HandResult`.  The field helpers give every event the same errors.

>>> table = TableView("okey", 4, None, dealer=0, deal=Deal(0), hands=0)
>>> event_seat(table, {"type": "gosterme", "player": 7})
Traceback (most recent call last):
...
companion.rules.errors.InvalidEventError: invalid player 7 in gosterme event: seats are 0-3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.deal import DealPlan
from companion.rules.errors import InvalidEventError, MissingFieldError
from companion.rules.tiles import Tile, okey_for

__all__ = [
    "Penalty",
    "Deal",
    "TableView",
    "HandResult",
    "event_field",
    "event_int",
    "event_seat",
    "list_field",
]


@dataclass(frozen=True)
class Penalty:
    """A ledger line (101's H7): ``points`` added to ``player``'s entry of hand ``hand`` (1-based)."""

    hand: int
    player: int
    reason: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "player": self.player, "reason": self.reason, "points": self.points}


@dataclass(frozen=True)
class Deal:
    """The hand being played: its dealer, dice, deal plan, indicator, and what was shown or fined so far
    (a gösterme, Okey's wrong declarations — their hand scores —, 101's extra penalties).

    A game without the dice ritual leaves everything but ``dealer`` empty.
    """

    dealer: int
    plan: DealPlan | None = None
    rolled: bool = False
    indicator: Tile | None = None
    gosterme: tuple[int, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    wrong_declarations: tuple[Any, ...] = ()

    @property
    def started(self) -> bool:
        """Dice or an indicator are recorded (a 101 penalty before the deal does not start it)."""
        return bool(self.plan or self.indicator)

    @property
    def dice(self) -> tuple[int, int] | None:
        return self.plan.rolls if self.plan else None

    @property
    def okey(self) -> Tile | None:
        return okey_for(self.indicator) if self.indicator else None

    @property
    def false_okey(self) -> Tile | None:
        """The face the false okeys play as (O3): the okey's."""
        return self.okey

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "dice": list(self.dice) if self.dice else None,
            "rolled": self.rolled,
            "plan": self.plan.to_dict() if self.plan else None,
            "indicator": _code(self.indicator),
            "okey": _code(self.okey),
            "false_okey": _code(self.false_okey),
            "gosterme": list(self.gosterme),
            "penalties": [p.to_dict() for p in self.penalties],
            "wrong_declarations": [score.winner for score in self.wrong_declarations],
        }


def _code(tile: Tile | None) -> str | None:
    return tile.code if tile else None


@dataclass(frozen=True)
class TableView:
    """What an event handler may read: the game id, the number of seats, the options, the dealer, the hand
    in play, how many hands are recorded and the seats that left the match (the game's ``left``, e.g. O6
    ``elimination``; none by default)."""

    game: str
    seats: int
    options: Any
    dealer: int
    deal: Deal
    hands: int
    left: tuple[int, ...] = ()

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats still in the match, in seat order (every seat unless some left).

        >>> TableView("okey", 4, None, dealer=0, deal=Deal(0), hands=2, left=(2, 3)).in_play
        (0, 1)
        """
        return tuple(seat for seat in range(self.seats) if seat not in self.left)


@dataclass(frozen=True)
class HandResult:
    """What a hand event did, as the game's ``record_hand`` says.

    - ``score``: the hand's score (``None``: the hand is void — dealt again by the same dealer, nothing on
      the sheet);
    - ``over``: the hand ended (its row goes on the sheet, the deal passes on); false keeps the hand in play
      with ``deal`` as the new hand in play (Okey's wrong declaration, O5: booked in the hand, its cost in
      the game's ``pending``);
    - ``record``: the hand record as scored (what the game filled in from the hand in play), kept on the
      sheet's row to correct the hand from;
    - ``refusal``: why a correction (``amend``) that gives this result cannot stand, after "the correction
      of hand N ".
    """

    score: Any | None
    over: bool = True
    deal: Deal | None = None
    record: Mapping[str, Any] = field(default_factory=dict)
    refusal: str = "does not end the hand: give a record that ends it"
    closing: Any | None = None
    """Where the hand goes on (``over`` false) but what it has cost ends the match, and so the hand: its score
    when more than ``pending`` counts then (Okey: a gösterme shown before the wrong declaration, O6)."""


def event_field(event: Mapping[str, Any], name: str) -> Any:
    """``event[name]``, or :class:`MissingFieldError` naming the field."""
    if name not in event:
        raise MissingFieldError(f"missing field {name!r} in {event.get('type')} event")
    return event[name]


def event_int(event: Mapping[str, Any], name: str, low: int, high: int, what: str) -> int:
    """A whole-number field in ``low..high``; ``what`` says the bounds in words."""
    value = event_field(event, name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidEventError(f"invalid {name} {value!r} in {event['type']} event: {what}")
    return int(value)


def event_seat(table: TableView, event: Mapping[str, Any]) -> int:
    """The event's ``player`` seat, checked against the table."""
    return event_int(event, "player", 0, table.seats - 1, f"seats are 0-{table.seats - 1}")


def list_field(record: Mapping[str, Any], name: str) -> list[Any]:
    """A list field of a hand record (empty when absent)."""
    value = record.get(name, [])
    if not isinstance(value, list):
        raise InvalidEventError(f"invalid {name} {value!r} in the hand: give a list")
    return value
