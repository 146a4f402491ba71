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
companion.rules.errors.InvalidEventError: invalid player 7 in gosterme event: seats are 0-3
"""

from __future__ import annotations

import copy
import random
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules.errors import InvalidEventError, MissingFieldError
from companion.rules.explain import Explanation, details, texts
from companion.rules.options import GameOptions, options_for, options_to_dict
from companion.rules.registry import GameSpec, Standings, event_owners, find_game
from companion.rules.schema import Field, Schema, check_record
from companion.rules.round import Deal, HandResult, Penalty, TableView, event_field, event_int, event_seat

__all__ = [
    "InvalidEventError",
    "MissingFieldError",
    "InvalidTableError",
    "TableMeta",
    "Deal",
    "Penalty",
    "HandRow",
    "TableState",
    "new_meta",
    "prepare_event",
    "replay",
    "Fold",
]

MAX_NAME = 24
MAX_TABLE_NAME = 60


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


_INVISIBLE = frozenset({"Cf", "Cc", "Zl", "Zp"})
"""Unicode categories of characters nobody sees: zero-width spaces and joiners, bidi overrides and
isolates (U+202A-202E, U+2066-2069), the BOM, control characters."""


def clean_text(text: str, what: str) -> str:
    """``text`` as shown and stored: NFC, invisible and bidi-control characters removed, white space
    runs made one space.  Two names that look alike are then equal, and no name flips the sheet.

    >>> clean_text("A\u200bli \u202eCan\u202c  e\u0301", "player name")
    'Ali Can é'
    """
    if any(unicodedata.category(char) == "Cs" for char in text):
        raise InvalidTableError(f"invalid {what} {text!r}: it holds a broken character (a lone surrogate); retype it")
    normal = unicodedata.normalize("NFC", text)
    visible = "".join(char for char in normal if char.isspace() or unicodedata.category(char) not in _INVISIBLE)
    return " ".join(visible.split())


def _check_name(name: object, what: str) -> str:
    cleaned = clean_text(name, what) if isinstance(name, str) else ""
    if not cleaned:
        raise InvalidTableError(f"invalid {what} {name!r}: type a name of 1-{MAX_NAME} visible characters")
    if len(cleaned) > MAX_NAME:
        raise InvalidTableError(f"invalid {what} {name!r}: at most {MAX_NAME} characters, please shorten it")
    return cleaned


def _counts(counts: Sequence[int]) -> str:
    """``2, 3 or 4``."""
    words = [str(count) for count in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _check_distinct(names: Iterable[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise InvalidTableError(f"duplicate player name {name!r}: give every player a different name")
        seen.add(name.casefold())


def default_title(game_title: str, players: Sequence[str]) -> str:
    """The name of a table created without one: the game and the players, kept up to date on renames.

    >>> default_title("Okey", ["Ali", "Can"])
    'Okey – Ali, Can'
    """
    return f"{game_title} – {', '.join(players)}"


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
    """Validated table settings: as many distinct names of at most 24 characters as the game allows,
    options for the game."""
    spec = find_game(game)
    canonical = spec.id
    if not isinstance(players, (list, tuple)) or len(players) not in spec.players:
        raise InvalidTableError(
            f"invalid players {players!r}: {spec.title} is played by {_counts(spec.players)} players, "
            "give them as a list of names"
        )
    names = tuple(_check_name(player, "player name") for player in players)
    _check_distinct(names)
    chosen = options_for(canonical, options, profile=profile)
    if spec.admit_options is not None:  # a new table's (a stored one opens with the options it has)
        spec.admit_options(chosen)
    if getattr(chosen, "partners", False) and len(names) != 4:
        raise InvalidTableError(f"partners need 4 players, not {len(names)}: turn the partners option off")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
        raise InvalidTableError(f"invalid first dealer {first_dealer!r}: seats are 0-{len(names) - 1}")
    if name is not None and not isinstance(name, str):
        raise InvalidTableError(f"invalid table name {name!r}: give a text of at most {MAX_TABLE_NAME} characters")
    title = clean_text(name, "table name") if name else ""
    if len(title) > MAX_TABLE_NAME:
        raise InvalidTableError(f"invalid table name {name!r}: at most {MAX_TABLE_NAME} characters")
    if not title:
        title = default_title(spec.title, names)
    return TableMeta(table_id, title, canonical, names, chosen, profile, first_dealer, created_at)


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
    running: tuple[tuple[int, ...], ...] = ()
    """The sheet's columns at the start and after each recorded hand, as the game's standings count them (they
    are the running sums of the rows, except where the game ignores an entry: O6 ``elimination``)."""
    default_name: bool = False
    """The table was created without a name: ``name`` is the game and today's player names (pages show the
    game's title in the reader's language)."""
    """What each event did, in order: ``hand`` (it ended a hand), ``wrong_declaration``, ``void`` or ``""``."""
    left: tuple[int, ...] = ()
    """The seats that left the match and play no more (the game's ``left``: O6 ``elimination``)."""

    @property
    def teams(self) -> tuple[tuple[int, int], ...] | None:
        """Opposite seats play together when the ``partners`` option is on."""
        return ((0, 2), (1, 3)) if getattr(self.options, "partners", False) else None

    @property
    def spec(self) -> GameSpec:
        """The game's registry entry."""
        return find_game(self.game)

    @property
    def seats(self) -> tuple[dict[str, Any], ...]:
        teams = self.teams
        return tuple(
            {
                "seat": seat,
                "name": name,
                "team": next(i for i, team in enumerate(teams) if seat in team) if teams else None,
                "dealer": seat == self.dealer,
                "left": seat in self.left,
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


_RENAME_FIELDS: Schema = {"player": Field(), "name": Field(max_length=200)}


def _event_fields(kind: str, spec: GameSpec) -> Schema | None:
    """The fields an event of type ``kind`` may have besides ``type``; ``None`` when its game declares none."""
    hand = Field("object", fields=spec.hand_fields) if spec.hand_fields is not None else Field("object", open=True)
    if kind == spec.hand_event:
        return {"hand": hand}
    if kind == "amend":
        return {"hand": Field(), "record": hand}
    if kind == "rename":
        return _RENAME_FIELDS
    rule = spec.events.get(kind)
    return rule.fields if rule is not None else None


def check_event(event: Mapping[str, Any], spec: GameSpec) -> None:
    """Refuse an event that does not have its type's shape (:mod:`companion.rules.schema`): an unknown field,
    named; a list or an object where a value belongs; a number or a text out of all bounds.  Checked where
    events enter a table (:func:`prepare_event`), not on replay, so a log stays readable when a schema grows."""
    kind = event.get("type")
    fields = _event_fields(kind, spec) if isinstance(kind, str) else None
    if fields is not None:
        check_record(event, {"type": Field(), **fields}, f"the {kind} event")


def prepare_event(state: TableState, event: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The event as it will be recorded, checked against its schema (:func:`check_event`), completed by its
    game before storing (the server's dice), so replays are deterministic."""
    check_event(event, state.spec)
    prepared = dict(event)
    kind = prepared.get("type")
    rule = state.spec.events.get(kind) if isinstance(kind, str) else None
    if rule is not None and rule.prepare is not None:
        view = TableView(state.game, len(state.players), state.options, state.dealer, state.deal, len(state.hands),
                         state.left)
        prepared = rule.prepare(view, prepared, rng)
    return prepared


class _Reducer:
    """The mutable fold behind :func:`replay`.

    ``rename``, ``amend`` and the game's hand event are handled here, the game's own events (``gosterme``,
    ``penalty``, ``deal`` …) by the handlers its registry entry lists.  What the hand in play has already
    cost (a wrong declaration, a +101 penalty) is the game's ``pending`` of the deal: it counts in the
    standings at once.
    """

    def __init__(self, meta: TableMeta, amendments: Mapping[int, Mapping[str, Any]] | None = None) -> None:
        self.meta = meta
        self.spec = find_game(meta.game)
        self.players = list(meta.players)
        self.dealer = meta.first_dealer
        self.deal = Deal(meta.first_dealer)
        self.hands: list[HandRow] = []
        self.scores: list[Any] = []
        self.voided = 0
        self.amendments = dict(amendments or {})
        self.amended: set[int] = set()
        self.cut_short: set[int] = set()
        """The hands cut short: what they cost before they were over (a wrong declaration) ended the match."""
        self.admitting = False
        """A new event is being recorded (not replayed): the game's ``admit_hand`` checks its hand."""
        self.admit_correction: int | None = None
        """The hand a new ``amend`` corrects: its correction is checked by ``admit_hand`` where it is scored, with
        the standings before that hand."""
        self.pending: Any = None
        self.outcomes: list[str] = []
        self.standings = self._standings()
        self.running: list[tuple[int, ...]] = [tuple(self.spec.totals(self.standings))]
        """The sheet's columns at the start and after each recorded hand, as the game's standings count them."""

    def _standings(self) -> Standings:
        if self.pending is None:
            standings: Standings = self.spec.standings(self.seats, self.scores, self.meta.options)
        else:
            standings = self.spec.standings(self.seats, self.scores, self.meta.options, pending=self.pending)
        return standings

    @property
    def seats(self) -> int:
        return len(self.players)

    def _view(self) -> TableView:
        return TableView(self.meta.game, self.seats, self.meta.options, self.dealer, self.deal, len(self.hands),
                         self.left)

    @property
    def left(self) -> tuple[int, ...]:
        """The seats that left the match (the game's ``left``: O6 ``elimination``)."""
        return tuple(self.spec.left(self.standings))

    def apply(self, event: Mapping[str, Any]) -> None:
        if not isinstance(event, Mapping):
            raise InvalidEventError(f"invalid event {event!r}: an event is an object with a 'type'")
        kind = event_field(event, "type")
        if kind not in (*self.spec.event_types, "amend"):
            self._refuse(kind)
        hands, deal, wrong, voided = len(self.hands), self.deal, len(self.deal.wrong_declarations), self.voided
        if kind == "rename":
            self.on_rename(event)
        elif kind == "amend":
            self.on_amend(event)
        else:
            self._playing(event)
            if kind == self.spec.hand_event:
                self.on_hand(event)
            else:
                changed = self.spec.events[kind].apply(self._view(), event)
                if changed is None:
                    self._void()
                else:
                    self.deal = changed
        if self.deal is not deal and len(self.hands) == hands:
            self._book_pending()
        if len(self.hands) > hands and kind == self.spec.hand_event:
            self.outcomes.append("hand")
        elif len(self.deal.wrong_declarations) > wrong:
            self.outcomes.append("wrong_declaration")
        elif self.voided > voided:
            self.outcomes.append("void")
        else:
            self.outcomes.append("")

    def _refuse(self, kind: Any) -> None:
        owners = event_owners(kind) if isinstance(kind, str) else ()
        if not owners:
            known = (*self.spec.event_types, "amend")
            raise InvalidEventError(f"unknown event type {kind!r}; use one of: {', '.join(known)}")
        titles = [spec.title for spec in owners]
        games = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
        raise InvalidEventError(f"a {kind} event belongs to {games}, and this table plays {self.spec.title}")

    def _playing(self, event: Mapping[str, Any]) -> None:
        if self.finished:
            raise InvalidEventError(f"the match is already finished: no {event['type']} event (undo to change it)")

    def _book_pending(self) -> None:
        """What the hand in play has cost so far (the game's ``pending``) counts in the standings at once."""
        self.pending = self.spec.pending(self._view()) if self.spec.pending is not None else None
        self.standings = self._standings()

    def _void(self) -> None:
        """The hand is void: nothing is scored and the same dealer deals it again."""
        self.voided += 1
        self.deal = Deal(self.dealer)

    # -- events every table takes ---------------------------------------------------------------

    def on_rename(self, event: Mapping[str, Any]) -> None:
        seat = event_seat(self._view(), event)
        try:
            name = _check_name(event_field(event, "name"), "player name")
            _check_distinct([*(n for i, n in enumerate(self.players) if i != seat), name])
        except InvalidTableError as error:
            raise InvalidEventError(str(error)) from None
        self.players[seat] = name

    def on_amend(self, event: Mapping[str, Any]) -> None:
        """Checked here; applied by :func:`replay`, which re-folds the log with the amended hand in place."""
        if not self.hands:
            raise InvalidEventError("no hand is recorded yet, so there is nothing to correct")
        number = event_int(event, "hand", 1, len(self.hands), f"give the number of a recorded hand, 1-{len(self.hands)}")
        if not isinstance(event_field(event, "record"), Mapping):
            raise InvalidEventError(f"invalid record {event['record']!r} in amend event: give the corrected hand "
                                    "as an object, like the hand event's 'hand'")
        if number in self.cut_short:
            raise InvalidEventError(f"hand {number} was not over when what it cost ended the match (a wrong "
                                    "declaration): a correction cannot replace it; undo that event to change it")
        if number not in self.amended:
            raise InvalidEventError(f"hand {number} cannot be corrected this way: the correction must end the hand "
                                    "(a valid win or the stock running out)")

    # -- the game's hand event ------------------------------------------------------------------

    def _record_hand(self, hand: Mapping[str, Any], kind: str) -> HandResult:
        if not isinstance(hand, Mapping):
            raise InvalidEventError(f"invalid hand {hand!r} in {kind} event: give the hand as an object")
        if self.spec.record_hand is not None:
            result: HandResult = self.spec.record_hand(self._view(), dict(hand))
            return result
        return HandResult(self.spec.score_hand(dict(hand), self.meta.options), record=dict(hand))

    def on_hand(self, event: Mapping[str, Any]) -> None:
        """The game's ``<id>_hand`` event, scored by the game: the hand ends (its row goes on the sheet, the
        deal passes on), is void (dealt again), or goes on (a wrong declaration, booked in the hand)."""
        hand = event_field(event, "hand")
        result = self._record_hand(hand, event["type"])
        if self.admitting and self.spec.admit_hand is not None:
            self.spec.admit_hand(dict(result.record), self.meta.options, self.standings)
        if result.score is None:
            self._void()
            return
        if not result.over:
            self.deal = result.deal if result.deal is not None else self.deal
            self._book_pending()
            if self.finished:  # what the hand has cost ended the match, and so the hand
                self.cut_short.add(len(self.hands) + 1)
                self._add_hand(result.closing if result.closing is not None else self.pending, result.record)
            return
        number = len(self.hands) + 1
        if number in self.amendments:
            self.amended.add(number)
            result = self._record_hand(self._correction(number, hand), event["type"])
            if number == self.admit_correction and self.spec.admit_hand is not None:
                self.spec.admit_hand(dict(result.record), self.meta.options, self.standings)
            if result.score is None or not result.over:
                raise InvalidEventError(f"the correction of hand {number} {result.refusal}")
        self._add_hand(result.score, result.record)

    def _correction(self, number: int, original: Any) -> dict[str, Any]:
        """The corrected record of hand ``number``; it keeps the hand's indicator unless it fixes it."""
        record = dict(self.amendments[number])
        if "indicator" not in record and isinstance(original, Mapping) and original.get("indicator") is not None:
            record["indicator"] = original["indicator"]
        return record

    def _add_hand(self, score: Any, record: Mapping[str, Any]) -> None:
        """The hand is over: its row goes on the sheet and the deal passes on."""
        number = len(self.hands) + 1
        self.scores.append(score)
        self.pending = None
        self.standings = self._standings()
        self.running.append(tuple(self.spec.totals(self.standings)))
        self.hands.append(HandRow(number, self.dealer, tuple(self.spec.entries(score)), tuple(texts(score.explain)),
                                  score.to_dict(), amended=number in self.amended, record=dict(record)))
        self.dealer = self.spec.pass_deal(self.dealer, self.seats, self.meta.options, score, self.standings)
        self.deal = Deal(self.dealer)

    # -- results --------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return bool(self.standings.finished)

    def state(self, version: int) -> TableState:
        standings = self.standings
        ledger = tuple(p for p in self.spec.ledger(standings) if p.hand <= len(self.hands)) + self.deal.penalties
        default = self.meta.name == default_title(self.spec.title, self.meta.players)
        return TableState(
            id=self.meta.id,
            name=default_title(self.spec.title, self.players) if default else self.meta.name,
            default_name=default,
            game=self.meta.game,
            profile=self.meta.profile,
            players=tuple(self.players),
            options=self.meta.options,
            dealer=self.dealer,
            deal=self.deal,
            hands=tuple(self.hands),
            penalties=ledger,
            totals=tuple(self.spec.totals(standings)),
            standings=standings,
            finished=standings.finished,
            winners=standings.winners,
            version=version,
            created_at=self.meta.created_at,
            voided=self.voided,
            current=self._current_row(),
            outcomes=tuple(self.outcomes),
            running=tuple(self.running),
            left=self.left,
        )

    def _current_row(self) -> HandRow | None:
        """The row of the hand being played: what it cost so far (in the totals) and what is waiting."""
        waiting: tuple[Explanation, ...] = ()
        if self.spec.waiting is not None and not self.finished:
            waiting = tuple(self.spec.waiting(self._view()))
        if self.pending is None and not waiting:
            return None
        lines = (tuple(self.pending.explain) if self.pending is not None else ()) + waiting
        if self.pending is not None:
            entries = tuple(self.spec.entries(self.pending))
        else:
            entries = (0,) * (2 if getattr(self.meta.options, "partners", False) else self.seats)
        result = {**(self.pending.to_dict() if self.pending is not None else {}), "explain": texts(lines),
                  "explain_detail": details(lines)}
        return HandRow(len(self.hands) + 1, self.dealer, entries, tuple(texts(lines)), result, pending=True)


def replay(meta: TableMeta, events: Iterable[Mapping[str, Any]], *, version: int | None = None) -> TableState:
    """Fold ``events`` (the effective ones, oldest first) into the table's state.

    ``version`` is the length of the whole log (undo and redo included); by default the number of events.
    An event that does not fit raises :class:`InvalidEventError` or a rules error naming the bad field.
    """
    fold = Fold(meta, events)
    return fold.state(len(fold.events) if version is None else version)


UNDO_DEPTH = 8
"""How many events back a :class:`Fold` keeps the folds it came from (an undo then costs nothing)."""


class Fold:
    """A table's events folded, able to take one more event without folding them all again.

    The store keeps one per table between requests, so recording an event or showing a page costs the
    same at hand 500 as at hand 5.  ``Fold(meta, events).state(v)`` is ``replay(meta, events, version=v)``;
    ``fold.then(event)`` is the fold of ``[*events, event]`` (a new object; this one is left as it was).

    >>> meta = new_meta("K7P2Q", game="okey", players=["Ali", "Can"])
    >>> Fold(meta, []).then({"type": "rename", "player": 1, "name": "Cem"}).state(1).players
    ('Ali', 'Cem')
    """

    def __init__(self, meta: TableMeta, events: Iterable[Mapping[str, Any]], *, admit_last: bool = False) -> None:
        """``admit_last``: the last event is a new ``amend``, so the game's ``admit_hand`` checks its correction."""
        self.meta = meta
        self.events = tuple(events)
        self.previous: Fold | None = None
        """The fold this one came from by :meth:`then` (one event less), kept a few steps back for undo."""
        self._reducer = _Reducer(meta, _amendments(self.events))
        if admit_last and self.events and _is_amend(self.events[-1]):  # a new correction: checked where it is scored
            corrected = self.events[-1].get("hand")
            self._reducer.admit_correction = corrected if isinstance(corrected, int) else None
        last_amend = max((i for i, e in enumerate(self.events, start=1) if _is_amend(e)), default=0)
        for count, event in enumerate(self.events, start=1):
            try:
                self._reducer.apply(event)
            except ValueError as error:
                if count >= last_amend:
                    raise
                number = self.events[last_amend - 1].get("hand")
                raise InvalidEventError(f"the correction of hand {number} cannot be recorded: {error}") from None

    def then(self, event: Mapping[str, Any], *, new: bool = False) -> Fold:
        """The fold with ``event`` applied last; an ``amend`` rewrites an earlier hand, so it folds anew.
        ``new``: the event is being recorded, not replayed, so the game's ``admit_hand`` checks its hand too."""
        if _is_amend(event):
            return Fold(self.meta, (*self.events, event), admit_last=new)
        reducer = copy.copy(self._reducer)
        for name, value in vars(reducer).items():  # the mutable parts are the new fold's own
            if isinstance(value, (list, dict, set)):
                setattr(reducer, name, copy.copy(value))
        reducer.admitting = new
        try:
            reducer.apply(event)
        finally:
            reducer.admitting = False
        following = copy.copy(self)
        following.events = (*self.events, event)
        following._reducer = reducer
        following.previous = self
        ancestor: Fold | None = self
        for _ in range(UNDO_DEPTH):  # keep a few folds back for undo, not the whole history
            ancestor = ancestor.previous if ancestor is not None else None
        if ancestor is not None:
            ancestor.previous = None
        return following

    def state(self, version: int) -> TableState:
        """The table's state; ``version`` is the length of its whole log (undo and redo included)."""
        return self._reducer.state(version)


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
