"""House-rule options as frozen dataclasses, with named profiles, validated for any registered game.

Each game declares its options class and profiles in its registry entry (:mod:`companion.rules.registry`);
Okey's (RULES.md §O) and Okey 101's (§H) classes are here.  Variants are data: code branches on option
fields, never on a profile's name.

>>> options_for("okey").wrap_13_1, options_for("okey101").wrap_13_1
(True, False)
>>> options_for("okey", {"start_points": 30}).start_points
30
>>> options_for("okey", {"start_point": 30})
Traceback (most recent call last):
...
companion.rules.errors.InvalidOptionError: unknown option 'start_point' for okey; did you mean 'start_points'?
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, get_args, get_origin, get_type_hints

from companion.rules.errors import InvalidOptionError
from companion.rules.registry import find_game

__all__ = [
    "OkeyOptions",
    "Okey101Options",
    "GameOptions",
    "options_for",
    "options_to_dict",
    "option_choices",
    "normalise_game",
]

ColourHand = Literal["off", "any", "red_black"]
IndicatorColourMultiplier = Literal["off", "red_black_x2", "y2_b3_r4_k5"]
Starter = Literal["right_of_dealer", "dealer"]
OkeyInHand = Literal["counts_101", "flat_101"]


@dataclass(frozen=True)
class OkeyOptions:
    """Düz Okey, the 20-point game (RULES.md §O)."""

    quick_deal: bool = False
    """O2.6: players simply take 14 tiles (starter 15) and turn one up as the indicator."""
    indicator_drawable_last: bool = False
    """O3: the indicator is the last tile drawn."""
    wrap_13_1: bool = True
    """O4: a run may end 12-13-1 (13-1-2 is never allowed)."""
    okey_pair_of_okeys: bool = True
    """O5: two okeys together count as a pair."""
    wrong_finish_penalty: int = 4
    """O5: points the declarer of a wrong finish loses (0 = off)."""
    start_points: int = 20
    """O6: points each player (or team) starts with."""
    win_points: int = 2
    """O6: points each opponent loses to a plain win."""
    okey_discard_points: int = 4
    """O6: points each opponent loses when the winner discards an okey as the last tile."""
    pairs_points: int = 4
    """O6: points each opponent loses to a seven-pairs win."""
    pairs_and_okey_discard: int = 4
    """O6: points each opponent loses to seven pairs finished by discarding an okey (8 at some tables)."""
    gosterme_points: int = 1
    """O6: points each opponent loses when a player shows the indicator's twin."""
    colour_hand: ColourHand = "off"
    """O6: a one-colour winning hand doubles ('any' colour, or only all-red/all-black hands)."""
    indicator_colour_multiplier: IndicatorColourMultiplier = "off"
    """O6: multiply by the indicator's colour: red/black ×2, or yellow×2 blue×3 red×4 black×5."""
    elimination: bool = False
    """O6: a player at 0 or less leaves and the rest play on."""
    partners: bool = False
    """O6: opposite seats form teams that share a 20-point count."""


@dataclass(frozen=True)
class Okey101Options:
    """Okey 101 (RULES.md §H)."""

    wrap_13_1: bool = False
    """H1: runs may end 12-13-1 (off in 101; 13-1-2 never)."""
    okey_pair_of_okeys: bool = True
    """H4: two okeys together count as a pair when opening with pairs."""
    starter: Starter = "right_of_dealer"
    """H2: who gets 22 tiles and starts: the player on the dealer's right, or the dealer (seed 000)."""
    quick_deal: bool = False
    """H2 ("the stacks are optional"), as O2.6: players simply take 21 tiles (starter 22) and turn one up as the
    indicator."""
    opening_minimum: int = 101
    """H4: the value the first lay-down must reach."""
    opening_pairs: int = 5
    """H4: the number of pairs that open instead."""
    opening_ratchet: bool = False
    """H4: a later opener must beat the highest opening so far."""
    okey_in_hand: OkeyInHand = "counts_101"
    """H6: an okey left in hand counts 101 inside the sum (multiplied) or flat outside it."""
    pairs_finish_doubles_finisher: bool = True
    """H6: a pairs opener who finishes scores -202 instead of -101."""
    multipliers: bool = True
    """H6: katlamalı — when off, every doubling is ignored."""
    penalty_points: int = 101
    """H7: each extra penalty (okey discarded, failed opening, işlek, taking back)."""
    hands: int = 11
    """H8: the number of hands in the match (3, 5, 7, 9 or 11)."""
    partners: bool = False
    """H8: eşli — opposite seats play as teams."""
    partner_finish_clears: bool = True
    """H8: when a player finishes, the partner's hand penalty is cleared."""
    indicator_drawable_last: bool = False
    """O3: the indicator is the last tile drawn."""


GameOptions = Any
"""An instance of a game's options class (see its registry entry)."""


def normalise_game(game: str) -> str:
    """The canonical game name for ``game`` (``"101"`` → ``"okey101"``)."""
    return find_game(game).id


def option_choices(game: str) -> dict[str, tuple[Any, ...] | type]:
    """For each option of ``game``: its allowed values (a tuple) or its type (``bool``/``int``)."""
    return dict(_choices(find_game(game).id))


@lru_cache(maxsize=None)
def _choices(game_id: str) -> dict[str, tuple[Any, ...] | type]:
    """:func:`option_choices`, read once per game (``get_type_hints`` costs more than a win check)."""
    spec = find_game(game_id)
    cls = spec.options
    hints = get_type_hints(cls)
    choices: dict[str, tuple[Any, ...] | type] = {}
    for field in dataclasses.fields(cls):
        hint = hints[field.name]
        if get_origin(hint) is Literal:
            choices[field.name] = get_args(hint)
        elif field.name in spec.option_numbers:
            choices[field.name] = spec.option_numbers[field.name]
        else:
            choices[field.name] = hint
    return choices


def _coerce(game: str, name: str, value: Any, kind: tuple[Any, ...] | type) -> Any:
    if isinstance(kind, tuple):
        if all(isinstance(k, int) for k in kind) and isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if value in kind and not isinstance(value, bool):
            return value
        allowed = ", ".join(repr(k) for k in kind)
        raise InvalidOptionError(f"invalid value {value!r} for option {name!r} of {game}; use one of {allowed}")
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"true", "on", "yes", "1", "false", "off", "no", "0"}:
            return value.lower() in {"true", "on", "yes", "1"}
        raise InvalidOptionError(f"invalid value {value!r} for option {name!r} of {game}; use true or false")
    if kind is int:
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise InvalidOptionError(f"invalid value {value!r} for option {name!r} of {game}; use a whole number")
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):  # OverflowError: 1e400 and Infinity are floats
            raise InvalidOptionError(
                f"invalid value {value!r} for option {name!r} of {game}; use a whole number"
            ) from None
        if number < 0 or number > 10_000:
            raise InvalidOptionError(f"invalid value {value!r} for option {name!r} of {game}; use 0-10000")
        return number
    raise InvalidOptionError(f"option {name!r} of {game} cannot be set")  # pragma: no cover


def options_for(
    game: str, overrides: Mapping[str, Any] | None = None, *, profile: str = "reference"
) -> GameOptions:
    """The options of ``game``: the named ``profile`` with ``overrides`` applied, validated.

    The options are frozen, so the same request gets the same object, validated once (batch and the web
    ask for the same few values thousands of times).
    """
    if overrides is not None and not isinstance(overrides, Mapping):
        return _options_for(game, overrides, profile)  # refused with the reason
    try:
        # the type is part of the key: 1 and True are equal in Python, not as option values
        key = tuple(sorted((name, type(value).__name__, value) for name, value in (overrides or {}).items()))
        return _cached_options(game, key, profile)
    except TypeError:  # an unhashable value (a list, an object) or name: validated, and refused, uncached
        return _options_for(game, overrides, profile)


@lru_cache(maxsize=1024)
def _cached_options(game: str, overrides: tuple[tuple[Any, str, Any], ...], profile: str) -> GameOptions:
    return _options_for(game, {name: value for name, _kind, value in overrides}, profile)


def _options_for(game: str, overrides: Any, profile: Any) -> GameOptions:
    spec = find_game(game)
    canonical = spec.id
    profiles = spec.profiles
    if not isinstance(profile, str) or profile not in profiles:
        raise InvalidOptionError(
            f"unknown profile {profile!r} for {canonical}; use one of: {', '.join(profiles)}"
        )
    if overrides is not None and not isinstance(overrides, Mapping):
        raise InvalidOptionError(f"options must be an object of name: value, not {overrides!r}")
    choices = option_choices(canonical)
    values: dict[str, Any] = dict(profiles[profile])
    for name, value in (overrides or {}).items():
        if name not in choices:
            close = difflib.get_close_matches(str(name), list(choices), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known options: {', '.join(choices)}"
            raise InvalidOptionError(f"unknown option {name!r} for {canonical}{hint}")
        values[name] = _coerce(canonical, name, value, choices[name])
    return spec.options(**values)


def options_to_dict(options: GameOptions) -> dict[str, Any]:
    """The options as a plain JSON-able dict."""
    return dataclasses.asdict(options)
