"""A table's state as a pure reducer over its recorded events (no Flask, no SQLite).

The store keeps the events; :func:`replay` folds them into a frozen :class:`TableState` whose
``to_dict()``/``sheet()`` the web app serves.  Seats are 0-based, as in the rules engine.

>>> meta = new_meta("K7P2Q", game="okey", players=["Ali", "Can", "Deniz", "Ece"])
>>> state = replay(meta, [{"type": "deal", "dice": [5, 2]}, {"type": "indicator", "tile": "r4"}])
>>> state.dealer, state.deal.okey, state.deal.false_okey
(0, R5, R5)
>>> replay(meta, [{"type": "gosterme", "player": 7}])
Traceback (most recent call last):
...
companion.tables.InvalidEventError: invalid player 7 in gosterme event: seats are 0-3
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Union, cast

from companion.rules.deal import DealPlan, next_dealer, plan_deal, reroll_indicator, roll_deal
from companion.rules.explain import Explanation, details, texts
from companion.rules.options import (
    GameOptions,
    Okey101Options,
    OkeyOptions,
    normalise_game,
    options_for,
    options_to_dict,
)
from companion.rules.match import Okey101Standings, OkeyStandings, okey101_standings, okey_standings
from companion.rules.scoring import (
    PENALTY_REASONS,
    Okey101HandScore,
    OkeyHandScore,
    score_okey101_hand,
    score_okey_hand,
)
from companion.rules.scoring_101 import pending_penalties
from companion.rules.scoring_okey import combine_okey_scores, pending_gosterme
from companion.rules.tiles import Tile, okey_for, tile_like

__all__ = [
    "InvalidEventError",
    "MissingFieldError",
    "InvalidTableError",
    "TableMeta",
    "Deal",
    "Penalty",
    "HandRow",
    "TableState",
    "EVENT_TYPES",
    "GAME_TITLES",
    "new_meta",
    "prepare_event",
    "replay",
]

Standings = Union[OkeyStandings, Okey101Standings]
HandScore = Union[OkeyHandScore, Okey101HandScore]

GAME_TITLES = {"okey": "Okey", "okey101": "Okey 101"}
MAX_NAME = 24
MAX_TABLE_NAME = 60


class InvalidEventError(ValueError):
    """An event that does not fit the table: wrong game, seat out of range, match finished, bad field …"""


class MissingFieldError(InvalidEventError):
    """An event without a field it needs."""


class InvalidTableError(ValueError):
    """Table settings that cannot be: wrong number of players, a duplicate name, a bad PIN …"""


@dataclass(frozen=True)
class TableMeta:
    """What a table is created with; everything else comes from its events."""

    id: str
    name: str
    game: str
    players: tuple[str, ...]
    options: GameOptions
    profile: str = "reference"
    first_dealer: int = 0
    created_at: str = ""

    def with_id(self, table_id: str) -> TableMeta:
        return replace(self, id=table_id)


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidTableError(f"invalid {what} {name!r}: type a name of 1-{MAX_NAME} characters")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME:
        raise InvalidTableError(f"invalid {what} {name!r}: at most {MAX_NAME} characters, please shorten it")
    return cleaned


def _check_distinct(names: Iterable[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise InvalidTableError(f"duplicate player name {name!r}: give every player a different name")
        seen.add(name.casefold())


def new_meta(
    table_id: str,
    *,
    game: str,
    players: list[str] | tuple[str, ...],
    options: Mapping[str, Any] | None = None,
    profile: str = "reference",
    first_dealer: int = 0,
    name: str | None = None,
    created_at: str = "",
) -> TableMeta:
    """Validated table settings: 2-4 distinct names of at most 24 characters, options for the game."""
    canonical = normalise_game(game)
    if not isinstance(players, (list, tuple)) or not 2 <= len(players) <= 4:
        raise InvalidTableError(f"invalid players {players!r}: a table has 2, 3 or 4 players, as a list of names")
    names = tuple(_check_name(player, "player name") for player in players)
    _check_distinct(names)
    chosen = options_for(canonical, options, profile=profile)
    if chosen.partners and len(names) != 4:
        raise InvalidTableError(f"partners need 4 players, not {len(names)}: turn the partners option off")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
        raise InvalidTableError(f"invalid first dealer {first_dealer!r}: seats are 0-{len(names) - 1}")
    if name is None or not str(name).strip():
        title = f"{GAME_TITLES[canonical]} – {', '.join(names)}"
    elif not isinstance(name, str) or len(name.strip()) > MAX_TABLE_NAME:
        raise InvalidTableError(f"invalid table name {name!r}: at most {MAX_TABLE_NAME} characters")
    else:
        title = " ".join(name.split())
    return TableMeta(table_id, title, canonical, names, chosen, profile, first_dealer, created_at)


@dataclass(frozen=True)
class Penalty:
    """A 101 ledger line (H7): ``points`` added to ``player``'s entry of hand ``hand`` (1-based)."""

    hand: int
    player: int
    reason: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "player": self.player, "reason": self.reason, "points": self.points}


@dataclass(frozen=True)
class Deal:
    """The hand being played: its dealer, dice, deal plan, indicator, and what was shown or fined so far
    (a gösterme, Okey's wrong declarations, 101's extra penalties)."""

    dealer: int
    plan: DealPlan | None = None
    rolled: bool = False
    indicator: Tile | None = None
    gosterme: tuple[int, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    wrong_declarations: tuple[OkeyHandScore, ...] = ()

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
class HandRow:
    """One line of the sheet: the entry of each seat (or team), why, and the engine's full result.

    ``amended`` says the hand was corrected after it was recorded (an ``amend`` event).  The row of the
    hand being played (:attr:`TableState.current`) is ``pending``: its entries already count in the totals,
    its explanation also says what counts only when the hand is recorded (a gösterme).
    """

    number: int
    dealer: int
    entries: tuple[int, ...]
    explain: tuple[str, ...]
    result: Mapping[str, Any] = field(hash=False)
    amended: bool = False
    pending: bool = False
    record: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """The hand record as scored (indicator and gösterme filled in from the deal), to correct it from."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "entries": list(self.entries),
            "explain": list(self.explain),
            "result": dict(self.result),
            "amended": self.amended,
            "pending": self.pending,
            "record": dict(self.record),
        }


@dataclass(frozen=True)
class TableState:
    """Everything a table shows: seats, the deal in progress, the sheet and the standings."""

    id: str
    name: str
    game: str
    profile: str
    players: tuple[str, ...]
    options: GameOptions
    dealer: int
    deal: Deal
    hands: tuple[HandRow, ...]
    penalties: tuple[Penalty, ...]
    totals: tuple[int, ...]
    standings: Standings
    finished: bool
    winners: tuple[int, ...]
    version: int
    created_at: str = ""
    voided: int = 0
    current: HandRow | None = None
    """The hand being played, when something in it is already booked (a penalty) or waiting (a gösterme)."""
    outcomes: tuple[str, ...] = ()
    """What each event did, in order: ``hand`` (it ended a hand), ``wrong_declaration``, ``void`` or ``""``."""

    @property
    def teams(self) -> tuple[tuple[int, int], ...] | None:
        """Opposite seats play together when the ``partners`` option is on."""
        return ((0, 2), (1, 3)) if self.options.partners else None

    @property
    def seats(self) -> tuple[dict[str, Any], ...]:
        teams = self.teams
        return tuple(
            {
                "seat": seat,
                "name": name,
                "team": next(i for i, team in enumerate(teams) if seat in team) if teams else None,
                "dealer": seat == self.dealer,
            }
            for seat, name in enumerate(self.players)
        )

    @property
    def options_dict(self) -> dict[str, Any]:
        return options_to_dict(self.options)

    def sheet(self) -> dict[str, Any]:
        """The score sheet as JSON: one row per hand, the 101 penalty ledger, totals and the result."""
        return {
            "game": self.game,
            "players": list(self.players),
            "teams": [list(team) for team in self.teams] if self.teams else None,
            "hands": [row.to_dict() for row in self.hands],
            "current": self.current.to_dict() if self.current else None,
            "penalties": [p.to_dict() for p in self.penalties],
            "totals": list(self.totals),
            "dealer": self.dealer,
            "finished": self.finished,
            "winners": list(self.winners),
            "version": self.version,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "profile": self.profile,
            "players": list(self.players),
            "seats": list(self.seats),
            "teams": [list(team) for team in self.teams] if self.teams else None,
            "options": self.options_dict,
            "dealer": self.dealer,
            "deal": self.deal.to_dict(),
            "standings": self.standings.to_dict(),
            "voided": self.voided,
            "created_at": self.created_at,
            "sheet": self.sheet(),
        }


EVENT_TYPES = (
    "deal", "reroll", "indicator", "gosterme", "okey_hand", "okey101_hand", "penalty", "void_hand", "rename", "amend",
)
HAND_EVENTS = ("okey_hand", "okey101_hand")
"""The events that may end a hand; an ``amend`` event replaces the one that ended a recorded hand."""


def _field(event: Mapping[str, Any], name: str) -> Any:
    if name not in event:
        raise MissingFieldError(f"missing field {name!r} in {event.get('type')} event")
    return event[name]


def _list_field(record: Mapping[str, Any], name: str) -> list[Any]:
    value = record.get(name, [])
    if not isinstance(value, list):
        raise InvalidEventError(f"invalid {name} {value!r} in the hand: give a list")
    return value


def _int_field(event: Mapping[str, Any], name: str, low: int, high: int, what: str) -> int:
    value = _field(event, name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidEventError(f"invalid {name} {value!r} in {event['type']} event: {what}")
    return int(value)


def prepare_event(state: TableState, event: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The event as it will be recorded: server-side dice rolled now (so replays are deterministic)."""
    prepared = dict(event)
    if prepared.get("type") == "deal" and prepared.pop("roll", False) and "dice" not in prepared:
        plan = roll_deal(players=len(state.players), dealer=state.dealer, rng=rng, game=state.game,
                         options=state.options)
        if plan.rolls:
            prepared.update(dice=list(plan.rolls), rolled=True)
    return prepared


class _Reducer:
    """The mutable fold behind :func:`replay`; each ``on_<type>`` applies one event or raises."""

    def __init__(self, meta: TableMeta, amendments: Mapping[int, Mapping[str, Any]] | None = None) -> None:
        self.meta = meta
        self.players = list(meta.players)
        self.dealer = meta.first_dealer
        self.deal = Deal(meta.first_dealer)
        self.hands: list[HandRow] = []
        self.scores: list[Any] = []
        self.voided = 0
        self.amendments = dict(amendments or {})
        self.amended: set[int] = set()
        self.pending: HandScore | None = None
        self.outcomes: list[str] = []
        self.standings = self._standings()

    def _standings(self) -> Standings:
        if isinstance(self.meta.options, OkeyOptions):
            return okey_standings(self.seats, self.scores, self.meta.options,
                                  pending=cast(Union[OkeyHandScore, None], self.pending))
        return okey101_standings(self.seats, self.scores, self.meta.options,
                                 pending=cast(Union[Okey101HandScore, None], self.pending))

    @property
    def seats(self) -> int:
        return len(self.players)

    def apply(self, event: Mapping[str, Any]) -> None:
        if not isinstance(event, Mapping):
            raise InvalidEventError(f"invalid event {event!r}: an event is an object with a 'type'")
        kind = _field(event, "type")
        if kind not in EVENT_TYPES:
            raise InvalidEventError(f"unknown event type {kind!r}; use one of: {', '.join(EVENT_TYPES)}")
        hands, wrong, voided = len(self.hands), len(self.deal.wrong_declarations), self.voided
        getattr(self, f"on_{kind}")(event)
        if len(self.hands) > hands and kind in HAND_EVENTS:
            self.outcomes.append("hand")
        elif len(self.deal.wrong_declarations) > wrong:
            self.outcomes.append("wrong_declaration")
        elif self.voided > voided:
            self.outcomes.append("void")
        else:
            self.outcomes.append("")

    def _seat(self, event: Mapping[str, Any]) -> int:
        return _int_field(event, "player", 0, self.seats - 1, f"seats are 0-{self.seats - 1}")

    def _only(self, game: str, event: Mapping[str, Any]) -> None:
        if self.meta.game != game:
            raise InvalidEventError(
                f"a {event['type']} event belongs to {GAME_TITLES[game]}, and this table plays "
                f"{GAME_TITLES[self.meta.game]}"
            )

    def _playing(self, event: Mapping[str, Any]) -> None:
        if self.finished:
            raise InvalidEventError(f"the match is already finished: no {event['type']} event (undo to change it)")

    # -- events ---------------------------------------------------------------------------------

    def on_deal(self, event: Mapping[str, Any]) -> None:
        self._playing(event)
        if self.deal.started:
            raise InvalidEventError("this hand's deal is already recorded: undo it to change the dice")
        quick = isinstance(self.meta.options, OkeyOptions) and self.meta.options.quick_deal
        dice = event.get("dice") if quick else _field(event, "dice")
        if dice is None:
            first = second = None
        elif isinstance(dice, list) and len(dice) == 2:
            first, second = dice
        else:
            raise InvalidEventError(f"invalid dice {dice!r} in deal event: give the two rolls, e.g. [5, 2]")
        plan = plan_deal(players=self.seats, dealer=self.dealer, first_roll=first, second_roll=second,
                         game=self.meta.game, options=self.meta.options)
        self.deal = replace(self.deal, plan=plan, rolled=bool(event.get("rolled")))

    def on_reroll(self, event: Mapping[str, Any]) -> None:
        self._playing(event)
        if self.deal.plan is None:
            raise InvalidEventError("no deal to reroll: record the deal's dice first")
        die = _int_field(event, "die", 1, 6, "a die shows 1-6")
        self.deal = replace(self.deal, plan=reroll_indicator(self.deal.plan, die), indicator=None)

    def on_indicator(self, event: Mapping[str, Any]) -> None:
        self._playing(event)
        tile = tile_like(_field(event, "tile"))
        okey_for(tile)  # refuses a false okey: it is put back and the die rolled again (O2.3)
        self.deal = replace(self.deal, indicator=tile)

    def on_gosterme(self, event: Mapping[str, Any]) -> None:
        self._only("okey", event)
        self._playing(event)
        seat = self._seat(event)
        if self.deal.indicator is None:
            raise InvalidEventError("no indicator yet: record the indicator before a gösterme (O6)")
        if seat in self.deal.gosterme:
            raise InvalidEventError(f"player {seat} already showed the indicator this hand: it counts once")
        self.deal = replace(self.deal, gosterme=(*self.deal.gosterme, seat))

    def on_penalty(self, event: Mapping[str, Any]) -> None:
        self._only("okey101", event)
        self._playing(event)
        seat = self._seat(event)
        reason = _field(event, "reason")
        if reason not in PENALTY_REASONS:
            raise InvalidEventError(
                f"unknown penalty reason {reason!r} in penalty event; use one of: {', '.join(PENALTY_REASONS)}"
            )
        points = cast(Okey101Options, self.meta.options).penalty_points
        penalty = Penalty(len(self.hands) + 1, seat, reason, points)
        self.deal = replace(self.deal, penalties=(*self.deal.penalties, penalty))
        # The +101 counts in the totals at once (H7), on the row of the hand being played.
        self._set_pending(pending_penalties([{"player": p.player, "reason": p.reason} for p in self.deal.penalties],
                                            self.seats, cast(Okey101Options, self.meta.options)))

    def _set_pending(self, score: HandScore | None) -> None:
        self.pending = score
        self.standings = self._standings()

    def on_void_hand(self, event: Mapping[str, Any]) -> None:
        self._only("okey101", event)
        self._playing(event)
        self.voided += 1
        self.deal = Deal(self.dealer)
        self._set_pending(None)

    def on_rename(self, event: Mapping[str, Any]) -> None:
        seat = self._seat(event)
        try:
            name = _check_name(_field(event, "name"), "player name")
            _check_distinct([*(n for i, n in enumerate(self.players) if i != seat), name])
        except InvalidTableError as error:
            raise InvalidEventError(str(error)) from None
        self.players[seat] = name

    def on_amend(self, event: Mapping[str, Any]) -> None:
        """Checked here; applied by :func:`replay`, which re-folds the log with the amended hand in place."""
        if not self.hands:
            raise InvalidEventError("no hand is recorded yet, so there is nothing to correct")
        number = _int_field(event, "hand", 1, len(self.hands), f"give the number of a recorded hand, 1-{len(self.hands)}")
        if not isinstance(_field(event, "record"), Mapping):
            raise InvalidEventError(f"invalid record {event['record']!r} in amend event: give the corrected hand "
                                    "as an object, like the hand event's 'hand'")
        if number not in self.amended:
            raise InvalidEventError(f"hand {number} cannot be corrected this way: the correction must end the hand "
                                    "(a valid win or the stock running out)")

    def _amended_record(self, event: Mapping[str, Any]) -> Mapping[str, Any]:
        """The event that ends hand ``len(hands) + 1``, with its record replaced by a later correction."""
        number = len(self.hands) + 1
        if number not in self.amendments:
            return event
        self.amended.add(number)
        record = dict(self.amendments[number])
        original = event.get("hand")
        if "indicator" not in record and isinstance(original, Mapping) and original.get("indicator") is not None:
            record["indicator"] = original["indicator"]  # the correction keeps the hand's indicator unless it fixes it
        return {**event, "hand": record}

    def _hand_record(self, event: Mapping[str, Any]) -> dict[str, Any]:
        hand = _field(event, "hand")
        if not isinstance(hand, Mapping):
            raise InvalidEventError(f"invalid hand {hand!r} in {event['type']} event: give the hand as an object")
        record = dict(hand)
        if record.get("indicator") is None and self.deal.indicator is not None:
            record["indicator"] = self.deal.indicator.code
        return record

    def _add_hand(self, score: HandScore, entries: Sequence[int], record: Mapping[str, Any]) -> None:
        """The hand is over: its row goes on the sheet and the deal passes on."""
        number = len(self.hands) + 1
        self.scores.append(score)
        self.pending = None
        self.standings = self._standings()
        explain = tuple(texts(score.explain))
        self.hands.append(HandRow(number, self.dealer, tuple(entries), explain, score.to_dict(),
                                  amended=number in self.amended, record=record))
        self.dealer = next_dealer(self.dealer, self.seats)
        self.deal = Deal(self.dealer)

    def on_okey_hand(self, event: Mapping[str, Any]) -> None:
        self._only("okey", event)
        self._playing(event)
        options = cast(OkeyOptions, self.meta.options)
        hand = self._hand_record(event)
        hand.setdefault("players", self.seats)
        given = _list_field(hand, "gosterme")
        shown = [*self.deal.gosterme, *(seat for seat in given if seat not in self.deal.gosterme)]
        score = score_okey_hand({**hand, "gosterme": shown}, options)
        if not score.valid:
            # A wrong declaration costs the declarer and play goes on (O5): the same hand and dealer, the
            # penalty in the totals at once, a gösterme still waiting for the hand's end.
            wrong = score_okey_hand({**hand, "gosterme": []}, options)
            self.deal = replace(self.deal, gosterme=tuple(shown), wrong_declarations=(*self.deal.wrong_declarations, wrong))
            self._set_pending(combine_okey_scores(self.deal.wrong_declarations))
            if self.finished:  # the declarer is down to 0: the match, and so the hand, is over
                self._add_okey_hand(cast(OkeyHandScore, self.pending), {**hand, "gosterme": shown})
            return
        amended = self._amended_record(event)
        if amended is not event:
            hand = self._hand_record(amended)
            hand.setdefault("players", self.seats)
            given = _list_field(hand, "gosterme")
            shown = [*self.deal.gosterme, *(seat for seat in given if seat not in self.deal.gosterme)]
            score = score_okey_hand({**hand, "gosterme": shown}, options)
            if not score.valid:
                raise InvalidEventError(f"the correction of hand {len(self.hands) + 1} is not a valid win: {score.reason}; "
                                        "record a valid win or the stock running out")
        self._add_okey_hand(combine_okey_scores([*self.deal.wrong_declarations, score]), {**hand, "gosterme": shown})

    def _add_okey_hand(self, score: OkeyHandScore, record: Mapping[str, Any]) -> None:
        self._add_hand(score, score.team_deltas if score.team_deltas is not None else score.deltas, record)

    def on_okey101_hand(self, event: Mapping[str, Any]) -> None:
        self._only("okey101", event)
        self._playing(event)
        score, record = self._score_101(event)
        if score.void:
            self.voided += 1
            self.deal = Deal(self.dealer)
            self._set_pending(None)
            return
        amended = self._amended_record(event)
        if amended is not event:
            score, record = self._score_101(amended)
            if score.void:
                raise InvalidEventError(f"the correction of hand {len(self.hands) + 1} makes it void: undo the hand "
                                        "instead, or correct it with the players' scores")
        entries = score.team_scores if score.team_scores is not None else score.scores
        self._add_hand(score, entries, record)

    def _score_101(self, event: Mapping[str, Any]) -> tuple[Okey101HandScore, dict[str, Any]]:
        """The score of a 101 hand event and its record (the extra penalties of the hand not included)."""
        hand = self._hand_record(event)
        pending = [{"player": p.player, "reason": p.reason} for p in self.deal.penalties]
        scored = {**hand, "penalties": [*pending, *_list_field(hand, "penalties")]}
        return score_okey101_hand(scored, cast(Okey101Options, self.meta.options)), hand

    # -- results --------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.standings.finished

    def state(self, version: int) -> TableState:
        standings = self.standings
        if isinstance(standings, OkeyStandings):
            totals = standings.team_points or standings.points
            ledger: tuple[Penalty, ...] = ()
        else:
            totals = standings.team_totals or standings.totals
            ledger = tuple(Penalty(e.hand, e.seat, e.reason, e.points) for e in standings.ledger)
            ledger = tuple(p for p in ledger if p.hand <= len(self.hands)) + self.deal.penalties
        return TableState(
            id=self.meta.id,
            name=self.meta.name,
            game=self.meta.game,
            profile=self.meta.profile,
            players=tuple(self.players),
            options=self.meta.options,
            dealer=self.dealer,
            deal=self.deal,
            hands=tuple(self.hands),
            penalties=ledger,
            totals=tuple(totals),
            standings=standings,
            finished=standings.finished,
            winners=standings.winners,
            version=version,
            created_at=self.meta.created_at,
            voided=self.voided,
            current=self._current_row(),
            outcomes=tuple(self.outcomes),
        )

    def _current_row(self) -> HandRow | None:
        """The row of the hand being played: what it cost so far (in the totals) and what is waiting."""
        waiting: tuple[Explanation, ...] = ()
        if isinstance(self.meta.options, OkeyOptions) and self.deal.gosterme and not self.finished:
            waiting = pending_gosterme(self.deal.gosterme, self.meta.options)
        if self.pending is None and not waiting:
            return None
        lines = (self.pending.explain if self.pending else ()) + waiting
        if isinstance(self.pending, OkeyHandScore):
            entries = self.pending.team_deltas or self.pending.deltas
        elif isinstance(self.pending, Okey101HandScore):
            entries = self.pending.team_scores or self.pending.scores
        else:
            entries = (0,) * (2 if self.meta.options.partners else self.seats)
        result = {**(self.pending.to_dict() if self.pending else {}), "explain": texts(lines),
                  "explain_detail": details(lines)}
        return HandRow(len(self.hands) + 1, self.dealer, tuple(entries), tuple(texts(lines)), result, pending=True)


def replay(meta: TableMeta, events: Iterable[Mapping[str, Any]], *, version: int | None = None) -> TableState:
    """Fold ``events`` (the effective ones, oldest first) into the table's state.

    ``version`` is the length of the whole log (undo and redo included); by default the number of events.
    An event that does not fit raises :class:`InvalidEventError` or a rules error naming the bad field.
    """
    events = list(events)
    amendments = _amendments(events)
    reducer = _Reducer(meta, amendments)
    count = 0
    last_amend = max((i for i, e in enumerate(events, start=1) if _is_amend(e)), default=0)
    for count, event in enumerate(events, start=1):
        try:
            reducer.apply(event)
        except ValueError as error:
            if count >= last_amend:
                raise
            number = events[last_amend - 1].get("hand")
            raise InvalidEventError(f"the correction of hand {number} cannot be recorded: {error}") from None
    return reducer.state(count if version is None else version)


def _is_amend(event: Any) -> bool:
    return isinstance(event, Mapping) and event.get("type") == "amend"


def _amendments(events: Sequence[Any]) -> dict[int, Mapping[str, Any]]:
    """Hand number → its corrected record, the latest correction of each hand winning."""
    found: dict[int, Mapping[str, Any]] = {}
    for event in events:
        if _is_amend(event):
            number, record = event.get("hand"), event.get("record")
            if isinstance(number, int) and not isinstance(number, bool) and isinstance(record, Mapping):
                found[number] = record
    return found
