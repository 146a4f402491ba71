"""The registry of games: one frozen :class:`GameSpec` per game, looked up by name or alias.

A game is a module (``docs/adding-a-game.md``): its rules file, and one entry here made by
:func:`register` in ``companion/rules/games/<id>.py``.  The reducer, the API, the command line, the pages
and the exports read the entry and never ask which game they serve.  As python-chess keeps variants (a
class per variant with its aliases, ``find_variant``) and OpenSpiel registers games (``GameType``,
``REGISTER_SPIEL_GAME``), an entry holds the game's facts: names, players, options, how a hand is
scored, how a match ends, which sheet and which tile or card picker it uses.

>>> find_game("101").id, find_game("Okey").title
('okey101', 'Okey')
>>> find_game("okey").hand_event, find_game("okey").sheet
('okey_hand', 'countdown')
>>> find_game("tavla")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.rules.errors.InvalidOptionError: unknown game 'tavla'; use one of: okey, okey101, okey_points, ...
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol

from companion.rules.errors import InvalidOptionError, InvalidRequestError
from companion.rules.explain import Explanation
from companion.rules.schema import Schema

__all__ = [
    "SheetKind",
    "Picker",
    "HandScore",
    "Standings",
    "Templates",
    "EventRule",
    "GameSpec",
    "register",
    "find_game",
    "games",
    "event_owners",
    "request_field",
    "dealt_without_dice",
]

SheetKind = Literal["countdown", "penalty", "zero_sum", "race"]
"""How the sheet counts: ``countdown`` from the start points down to 0 (Okey O6); ``penalty`` points up,
lowest total wins after a fixed number of hands (101, okey_points, Rami, Turkish rummy); ``zero_sum``
every hand's entries add up to 0 (Rummikub R6); ``race`` points up to a target (Thai rummy)."""

Picker = Literal["tiles", "cards"]
"""Which picker the hand forms use: the okey/Rummikub tile picker, or playing cards."""


class HandScore(Protocol):
    """What a game's ``score_hand`` returns (a frozen dataclass): the explanation and its JSON."""

    @property
    def explain(self) -> tuple[Explanation, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...


class Standings(Protocol):
    """What a game's ``standings`` returns (a frozen dataclass): whether the match is over, who won, why."""

    @property
    def finished(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def explain(self) -> tuple[Explanation, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Templates:
    """The game's own pages (template paths under ``templates/``).

    ``hand`` is the end-of-hand page (its ``verdict`` block is the htmx preview) and ``form`` the web
    endpoint that shows it (``"okey_points.hand"``; ``?amend=N`` opens it to correct recorded hand N);
    ``actions`` is imported into the scorekeeper card of the table page (macros ``buttons()`` and
    ``forms()``: the link to the hand form, the game's extra events); ``tools`` (optional) is included
    beside History and Print on the table page, for everybody; ``status`` (optional) under the table page's
    "Hand n · X deals" line, for everybody (Thai Rummy: which way play goes).
    """

    hand: str
    form: str
    actions: str
    tools: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class EventRule:
    """One game-specific event type (``gosterme``, ``penalty``, ``deal`` …) and how the reducer applies it.

    ``apply(table, event)`` gets a :class:`companion.rules.round.TableView` and the event; it returns the new
    :class:`companion.rules.round.Deal` (the hand in play), or ``None`` when the event voids the hand (it is
    dealt again by the same dealer).  It raises :class:`companion.rules.errors.InvalidEventError` (or another
    rules error) naming what is wrong.  ``prepare(table, event, rng)`` (optional) completes the event before
    it is stored, e.g. the server's dice, so replays are deterministic.  Every game event is refused once
    the match is over.  ``fields`` declares the event's schema.
    """

    apply: Callable[[Any, Mapping[str, Any]], Any]
    prepare: Callable[[Any, dict[str, Any], random.Random], dict[str, Any]] | None = None
    fields: Schema | None = None
    """The event's fields besides ``type`` (:mod:`companion.rules.schema`): an event with another field, or a
    value of the wrong shape, is refused before it is stored.  ``None``: not checked."""


def _scores(score: Any) -> tuple[int, ...]:
    return tuple(score.scores)


def _totals(standings: Any) -> tuple[int, ...]:
    return tuple(standings.totals)


def _start_at_zero(options: Any) -> int:
    return 0


def _to_the_right(dealer: int, seats: int, options: Any, score: Any, standings: Any = None) -> int:
    return (dealer + 1) % seats


def _nobody_left(standings: Any) -> tuple[int, ...]:
    return ()


def _no_ledger(standings: Any) -> tuple[Any, ...]:
    return ()


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class GameSpec:
    """Everything the app knows about one game.  Made once per game by :func:`register`.

    - ``id`` is the canonical name (``okey_points``); ``aliases`` are other names accepted everywhere
      (compared case-insensitively).  ``title`` is the English title (table names, messages); the web
      layer shows a translated label for the id.
    - ``players``: the allowed player counts.  ``options``: the game's frozen options dataclass (fields
      ``bool``, ``int`` or ``Literal``); ``profiles``: named overrides, ``"reference"`` first and empty;
      ``option_numbers``: int options limited to a few values (``{"hands": (3, 5, 7, 9, 11)}``).
    - ``score_hand(hand, options) -> HandScore`` scores the JSON hand record of the ``<id>_hand`` event and
      of the batch ``score`` op; ``standings(players, scores, options) -> Standings`` replays a match.
    - ``entries(score)``: the hand's row on the sheet, a number per column (per seat, or per team with
      partners) — by default ``score.scores``; ``totals(standings)``: the sheet's total row — by default
      ``standings.totals``; ``start(options)``: the number every column starts from (0 by default);
      ``ledger(standings)``: the penalty ledger lines (:class:`companion.rules.round.Penalty`) the sheet
      lists under the hands (101's H7; none by default).
    - ``record_hand(table, hand) -> HandResult`` (optional) records the hand event when the game needs more
      than "score it and pass the deal" (the gösterme or penalties of the hand in play, a void hand, a
      wrong declaration that does not end the hand): see :class:`companion.rules.round.HandResult`.
    - ``pending(table) -> HandScore | None`` (optional): what the hand in play has cost so far (101's +101
      penalties, Okey's wrong declarations); it counts in the totals at once, as
      ``standings(players, scores, options, pending=score)``, shown as the sheet's current row.
      ``waiting(table) -> tuple[Explanation, ...]`` (optional): what counts only when the hand ends
      (a gösterme), said on that row.
    - ``sheet``, ``picker``, ``templates``: see :data:`SheetKind`, :data:`Picker`, :class:`Templates`.
    - ``hand_fields``: the hand record's schema (:mod:`companion.rules.schema`), checked where a hand event
      or an amend enters a table: an unknown field is refused naming it.  ``None``: any fields, bounded.
    - ``events``: the game's own event types (beyond ``<id>_hand`` and ``rename``); ``deal_tiles``: tiles
      per seat of the O2 dice deal (14 Okey, 21 Okey 101; the starter gets one more), ``None`` for a game
      without the dice ritual.
    - ``pass_deal(dealer, seats, options, score, standings)``: who deals the next hand after ``score``
      (``None`` when the page only asks who deals next), ``standings`` the match with that hand — by default
      the seat on the dealer's right, ``dealer + 1`` (O2); the clockwise card games pass it to the left;
      Thai Rummy gives it to the knocker (D6), and a game that cannot tell before the hand ends answers the
      dealer, so the table page marks nobody as dealing next.
    - ``left(standings)``: the seats that left the match and play no more (O6 ``elimination``) — none by
      default.  The reducer gives them to the game's events (:attr:`companion.rules.round.TableView.left`):
      the dice deal counts only the seats in play; the game's ``pass_deal`` skips them.
    - ``ops``: the batch/CLI operations the game answers besides ``score`` and ``options``:
      ``op(request, options) -> dict`` (``check``, ``opening``, ``solve`` …).
    - ``admit_hand(record, options, standings)`` (optional): refuses a new hand record that no set or turn can
      produce, beyond what scoring needs (more okeys than a set has, a rack too big, an empty rack beside the
      winner's, a feeder who played after the knocker): checked where a hand, a correction or the command line's
      ``score`` enters, never on replay, so a log an earlier version wrote still opens.  ``standings``: the
      table's before the hand (``None`` for the command line and for a correction).
      ``admit_options(options)`` (optional): the same for a new table's options (an Okey match starting at 0).
    """

    id: str
    title: str
    players: tuple[int, ...]
    options: type[Any]
    score_hand: Callable[[Mapping[str, Any], Any], Any]
    standings: Callable[[int, Sequence[Any], Any], Any]
    sheet: SheetKind
    picker: Picker
    templates: Templates
    aliases: tuple[str, ...] = ()
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({"reference": {}}))
    option_numbers: Mapping[str, tuple[int, ...]] = field(default_factory=_empty)
    entries: Callable[[Any], tuple[int, ...]] = _scores
    totals: Callable[[Any], tuple[int, ...]] = _totals
    start: Callable[[Any], int] = _start_at_zero
    ledger: Callable[[Any], tuple[Any, ...]] = _no_ledger
    record_hand: Callable[[Any, dict[str, Any]], Any] | None = None
    pending: Callable[[Any], Any] | None = None
    waiting: Callable[[Any], tuple[Explanation, ...]] | None = None
    events: Mapping[str, EventRule] = field(default_factory=_empty)
    hand_fields: Schema | None = None
    deal_tiles: int | None = None
    pass_deal: Callable[[int, int, Any, Any, Any], int] = _to_the_right
    left: Callable[[Any], tuple[int, ...]] = _nobody_left
    ops: Mapping[str, Callable[[Mapping[str, Any], Any], dict[str, Any]]] = field(default_factory=_empty)
    admit_hand: Callable[[Mapping[str, Any], Any, Any], None] | None = None
    admit_options: Callable[[Any], None] | None = None

    @property
    def hand_event(self) -> str:
        """The event type that records one hand: ``<id>_hand``."""
        return f"{self.id}_hand"

    @property
    def event_types(self) -> tuple[str, ...]:
        """Every event type a table of this game takes."""
        return (*self.events, self.hand_event, "rename")

    def __repr__(self) -> str:
        return f"GameSpec({self.id!r})"


_GAMES: dict[str, GameSpec] = {}
_NAMES: dict[str, str] = {}


def _key(name: str) -> str:
    return " ".join(str(name).strip().lower().split())


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the registry (once per game, when its ``companion/rules/games`` module is imported)."""
    if "reference" not in spec.profiles or spec.profiles["reference"]:
        raise ValueError(f"game {spec.id!r}: the 'reference' profile must exist and override nothing")
    for name in (spec.id, *spec.aliases):
        owner = _NAMES.get(_key(name))
        if owner is not None and owner != spec.id:
            raise ValueError(f"game name {name!r} of {spec.id!r} is already taken by {owner!r}")
    _GAMES[spec.id] = spec
    for name in (spec.id, *spec.aliases):
        _NAMES[_key(name)] = spec.id
    return spec


def find_game(name: str) -> GameSpec:
    """The game called ``name`` (its id or an alias, any case); an error listing the games otherwise."""
    game_id = _NAMES.get(_key(name)) if isinstance(name, str) else None
    if game_id is None:
        raise InvalidOptionError(f"unknown game {name!r}; use one of: {', '.join(_GAMES)}")
    return _GAMES[game_id]


def games() -> tuple[GameSpec, ...]:
    """Every registered game, in registration order."""
    return tuple(_GAMES.values())


def event_owners(event_type: str) -> tuple[GameSpec, ...]:
    """The games that take events of ``event_type``."""
    return tuple(spec for spec in _GAMES.values() if event_type in spec.event_types)


def dealt_without_dice(spec: GameSpec, given: str, them: str = "them") -> str:
    """Why dice (``given``: "field 'dice' is", "--dice and --seed are") are refused for a game dealt without the
    dice ritual, naming the games that roll them: never silently ignored."""
    ritual = ", ".join(game.title for game in games() if game.deal_tiles is not None)
    return f"{given} the dice ritual's ({ritual}); {spec.title} is dealt without dice: leave {them} out"


def request_field(request: Mapping[str, Any], name: str) -> Any:
    """A field a batch/CLI operation needs: ``request[name]``, or an error naming it."""
    if request.get(name) in (None, ""):
        raise InvalidRequestError(f"missing field {name!r} in request")
    return request[name]
