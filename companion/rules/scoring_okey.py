"""Okey hand scores (RULES.md O5, O6): pure functions of a recorded hand.

A hand record, as the JSON API sends it::

    {"players": 4, "indicator": "R4", "winner": 0, "tiles": "<the 14 tiles shown>", "discard": "K5",
     "gosterme": [2]}

``winner: null`` means the stock ran out: nobody scores, a gösterme still counts.  ``discard`` is the
winner's final discard.  ``left`` (optional) lists the seats that left the match before this hand (O6
``elimination``), or during it by their own wrong declaration (O5): the hand takes nothing from them and they
cannot win; a gösterme one of them showed before a wrong declaration put them out still counts.  Whether the
win is melds or seven pairs, an okey discard or a one-colour hand is detected from the tiles
(:func:`companion.rules.win.check_win`), never asked.

Numbers are points *lost* (the 20-point count goes down): every opponent of the winner loses the same
amount.  With ``partners`` the two teams (seats 0 and 2, seats 1 and 3) keep one count each:
``team_deltas[t]`` is the change of team ``t``'s count and ``deltas[s]`` is the change of seat ``s``'s
team count (both partners show the same number, it is not lost twice).

>>> score = score_okey_hand({"players": 4, "indicator": "R4", "winner": 0, "discard": "R5",
...     "tiles": "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"})
>>> score.deltas, score.kind, score.okey_discard
((0, -4, -4, -4), 'melds', True)
>>> score.explain[0]
Player 1 won by discarding an okey: every opponent loses 4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, details, player, texts
from companion.rules.melds import OKEY_HAS_NO_J, Wilds
from companion.rules.options import OkeyOptions
from companion.rules.schema import Field, Schema, check_record
from companion.rules.tiles import Colour, Tile, check_tile_counts, tile_like, tiles_like
from companion.rules.win import WinKind, check_win

__all__ = [
    "OkeyHandScore",
    "INDICATOR_COLOUR_MULTIPLIERS",
    "combine_okey_scores",
    "pending_gosterme",
    "score_okey_hand",
    "team_of",
]

INDICATOR_COLOUR_MULTIPLIERS: dict[str, dict[Colour, int]] = {
    "off": {},
    "red_black_x2": {Colour.RED: 2, Colour.BLACK: 2},
    "y2_b3_r4_k5": {Colour.YELLOW: 2, Colour.BLUE: 3, Colour.RED: 4, Colour.BLACK: 5},
}
"""O6 ``indicator_colour_multiplier``: the win's multiplier for each indicator colour (1 if absent)."""

_COLOUR_NAMES = {Colour.RED: "red", Colour.YELLOW: "yellow", Colour.BLUE: "blue", Colour.BLACK: "black"}


def team_of(seat: int) -> int:
    """The team of a seat with partners: opposite seats play together (0 and 2 are team 0).

    >>> [team_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return seat % 2


@dataclass(frozen=True)
class OkeyHandScore:
    """The points one Okey hand moves, with the reasons.

    ``valid`` is false for a wrong declaration (``reason`` says why).  ``colour_hand`` is the colour of a
    one-colour win when it doubled the score (option ``colour_hand``); ``multiplier`` is everything the
    win's base points were multiplied by.
    """

    players: int
    winner: int | None
    valid: bool
    kind: WinKind | None
    okey_discard: bool
    colour_hand: Colour | None
    multiplier: int
    deltas: tuple[int, ...]
    team_deltas: tuple[int, int] | None
    gosterme: tuple[int, ...]
    reason: str | None
    explain: tuple[Explanation, ...]
    wrong_declarations: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "winner": self.winner,
            "wrong_declarations": list(self.wrong_declarations),
            "deltas": list(self.deltas),
            "team_deltas": None if self.team_deltas is None else list(self.team_deltas),
            "valid": self.valid,
            "kind": self.kind,
            "okey_discard": self.okey_discard,
            "colour_hand": None if self.colour_hand is None else self.colour_hand.value,
            "multiplier": self.multiplier,
            "gosterme": list(self.gosterme),
            "reason": self.reason,
            "explain": texts(self.explain),
            "explain_detail": details(self.explain),
        }


class _Ledger:
    """Accumulates what seats (or, with partners, teams) lose."""

    def __init__(self, players: int, partners: bool, left: tuple[int, ...] = ()) -> None:
        self.players = players
        self.partners = partners
        self.left = left
        self.lost = [0] * (2 if partners else players)

    def opponents_lose(self, seat: int, points: int) -> None:
        if self.partners:
            self.lost[1 - team_of(seat)] += points
        else:
            for other in range(self.players):
                if other != seat and other not in self.left:
                    self.lost[other] += points

    def seat_loses(self, seat: int, points: int) -> None:
        self.lost[team_of(seat) if self.partners else seat] += points

    def deltas(self) -> tuple[tuple[int, ...], tuple[int, int] | None]:
        if self.partners:
            teams = (-self.lost[0], -self.lost[1])
            return tuple(teams[team_of(seat)] for seat in range(self.players)), teams
        return tuple(-points for points in self.lost), None


OKEY_HAND_SCHEMA: Schema = {
    "players": Field(),
    "indicator": Field(max_length=8),
    "winner": Field(),
    "tiles": Field("tiles"),
    "discard": Field(max_length=8),
    "gosterme": Field("list", max_items=8),
    "left": Field("list", max_items=4),
}
"""The Okey hand record (see the module docstring): its fields, types and bounds."""


def score_okey_hand(hand: Mapping[str, Any], options: OkeyOptions | None = None) -> OkeyHandScore:
    """Score one recorded Okey hand (O5, O6); see the module docstring for the record."""
    options = _check_options(options)
    if not isinstance(hand, Mapping):
        raise InvalidHandRecordError(f"a hand record must be an object, not {hand!r}")
    check_record(hand, OKEY_HAND_SCHEMA, "the okey hand record")
    players = hand.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidHandRecordError(f"invalid players {players!r}: okey is played by 2, 3 or 4")
    if options.partners and players != 4:
        raise InvalidHandRecordError(f"partners need 4 players, the hand has {players}")
    if hand.get("indicator") is None:
        raise InvalidHandRecordError(f"the hand record needs 'indicator'; got the fields {sorted(hand)!r}")
    indicator = tile_like(hand["indicator"])
    if not indicator.is_numbered:
        raise InvalidHandRecordError(
            f"invalid indicator {indicator.code!r}: the indicator is a numbered tile (e.g. R4)"
        )
    gosterme = _gosterme(hand.get("gosterme", []), players)
    left = _left(hand.get("left", []), players, options)
    ledger = _Ledger(players, options.partners, left)
    lines: list[Explanation] = []
    winner = hand.get("winner")
    win = None
    if winner is None:
        lines.append(Explanation("okey.stock_exhausted", {}, "The stock ran out: nobody scores for the hand."))
    else:
        winner = _seat(winner, players, "winner")
        _present(winner, left, "win")
        win = _win(hand, winner, indicator, options, ledger, lines)
    for seat in gosterme:  # a seat in ``left`` showed before it left, by its own wrong declaration (O5)
        ledger.opponents_lose(seat, options.gosterme_points)
        lines.append(Explanation(
            "okey.gosterme", {"seat": seat, "points": options.gosterme_points},
            f"{_who(seat)} showed the indicator's twin (gösterme): {_losers(seat, options)} "
            f"loses {options.gosterme_points}.",
        ))
    deltas, team_deltas = ledger.deltas()
    if team_deltas is not None:
        lines.append(Explanation(
            "okey.teams", {"team0": team_deltas[0], "team1": team_deltas[1]},
            f"Teams: players 1 and 3 {team_deltas[0]:+d}, players 2 and 4 {team_deltas[1]:+d}.",
        ))
    return OkeyHandScore(
        players=players,
        winner=winner,
        valid=win is None or win.valid,
        kind=None if win is None else win.kind,
        okey_discard=win is not None and win.okey_discard,
        colour_hand=None if win is None else win.colour,
        multiplier=1 if win is None else win.multiplier,
        deltas=deltas,
        team_deltas=team_deltas,
        gosterme=gosterme,
        reason=None if win is None else win.reason,
        explain=tuple(lines),
    )


@dataclass(frozen=True)
class _Win:
    valid: bool
    kind: WinKind | None
    okey_discard: bool
    colour: Colour | None
    multiplier: int
    reason: str | None


def _win(
    hand: Mapping[str, Any],
    winner: int,
    indicator: Tile,
    options: OkeyOptions,
    ledger: _Ledger,
    lines: list[Explanation],
) -> _Win:
    """Check the declared hand and book what the win (or the wrong declaration) costs."""
    tiles = _shown_tiles(hand.get("tiles"))
    if hand.get("discard") is None:
        raise InvalidHandRecordError("the hand record needs 'discard': the winner's final discarded tile")
    discard = tile_like(hand["discard"])
    _check_tile_set(indicator, tiles, discard)
    check = check_win(tiles, indicator=indicator, options=options)
    if not check.winning:
        reason = "the 14 tiles do not split into melds or seven pairs"
        penalty = options.wrong_finish_penalty
        if penalty:
            ledger.seat_loses(winner, penalty)
            loser = f"{player(winner)}'s team" if options.partners else player(winner)
            text = f"{_who(winner)}'s declaration is wrong ({reason}): {loser} loses {penalty}; nobody else changes."
        else:
            text = f"{_who(winner)}'s declaration is wrong ({reason}); the wrong-finish penalty is off."
        lines.append(Explanation("okey.wrong_finish", {"seat": winner, "points": penalty}, text))
        return _Win(False, None, False, None, 1, reason)

    okey_discard = Wilds.from_indicator(indicator).is_wild(discard)
    pairs = check.kind == "pairs"
    if pairs and okey_discard:
        key, base = "okey.win_pairs_okey_discard", options.pairs_and_okey_discard
        how = "with seven pairs, finishing by discarding an okey"
    elif pairs:
        key, base, how = "okey.win_pairs", options.pairs_points, "with seven pairs"
    elif okey_discard:
        key, base, how = "okey.win_okey_discard", options.okey_discard_points, "by discarding an okey"
    else:
        key, base, how = "okey.win", options.win_points, "with melds"
    lines.append(Explanation(
        key, {"seat": winner, "points": base},
        f"{_who(winner)} won {how}: {_losers(winner, options)} loses {base}.",
    ))
    multiplier = 1
    colour = _counted_colour(check.colour, options)
    if colour is not None:
        multiplier *= 2
        lines.append(Explanation(
            "okey.colour_hand", {"colour": colour.value, "factor": 2},
            f"The winning hand is all {_COLOUR_NAMES[colour]} (one-colour hand): ×2.",
        ))
    assert indicator.colour is not None  # numbered tiles have a colour
    factor = INDICATOR_COLOUR_MULTIPLIERS[options.indicator_colour_multiplier].get(indicator.colour, 1)
    if factor > 1:
        multiplier *= factor
        lines.append(Explanation(
            "okey.indicator_colour", {"colour": indicator.colour.value, "factor": factor},
            f"The indicator is {_COLOUR_NAMES[indicator.colour]}: ×{factor}.",
        ))
    points = base * multiplier
    if multiplier > 1:
        lines.append(Explanation(
            "okey.win_total", {"base": base, "multiplier": multiplier, "points": points},
            f"{_losers(winner, options).capitalize()} loses {base} × {multiplier} = {points}.",
        ))
    ledger.opponents_lose(winner, points)
    return _Win(True, check.kind, okey_discard, colour, multiplier, None)


def combine_okey_scores(scores: Sequence[OkeyHandScore]) -> OkeyHandScore:
    """One hand's score from what happened in it, in order: wrong declarations (O5: each costs the declarer
    and play goes on) and, last, how the hand ended.  Points add up; the last score says how it ended.

    >>> wrong = score_okey_hand({"players": 4, "indicator": "R4", "winner": 2, "discard": "K1",
    ...                          "tiles": "R1 R2 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"})
    >>> win = score_okey_hand({"players": 4, "indicator": "R4", "winner": 0, "discard": "K1",
    ...                        "tiles": "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"})
    >>> hand = combine_okey_scores([wrong, win])
    >>> hand.deltas, hand.winner, hand.valid, hand.wrong_declarations
    ((0, -2, -6, -2), 0, True, (2,))
    """
    if not scores:
        raise InvalidHandRecordError("no score to combine: a hand has at least one recorded event")
    last = scores[-1]
    deltas = tuple(sum(column) for column in zip(*(score.deltas for score in scores)))
    team_deltas = None
    if last.team_deltas is not None:
        totals = [sum(score.team_deltas[t] for score in scores if score.team_deltas is not None) for t in (0, 1)]
        team_deltas = (totals[0], totals[1])
    wrong = tuple(
        seat
        for score in scores
        for seat in (*score.wrong_declarations, *([score.winner] if not score.valid and score.winner is not None else []))
    )
    return OkeyHandScore(
        players=last.players,
        winner=last.winner,
        valid=last.valid,
        kind=last.kind,
        okey_discard=last.okey_discard,
        colour_hand=last.colour_hand,
        multiplier=last.multiplier,
        deltas=deltas,
        team_deltas=team_deltas,
        gosterme=tuple(seat for score in scores for seat in score.gosterme),
        reason=last.reason,
        explain=tuple(line for score in scores for line in score.explain),
        wrong_declarations=wrong,
    )


def pending_gosterme(seats: Sequence[int], options: OkeyOptions | None = None) -> tuple[Explanation, ...]:
    """What a gösterme shown this hand will cost, said before the hand is recorded (it counts then, O6).

    >>> pending_gosterme([2])
    (Player 3 showed the indicator's twin (gösterme): every opponent loses 1 when the hand is recorded.,)
    """
    options = _check_options(options)
    return tuple(
        Explanation(
            "okey.gosterme_pending", {"seat": seat, "points": options.gosterme_points},
            f"{_who(seat)} showed the indicator's twin (gösterme): {_losers(seat, options)} "
            f"loses {options.gosterme_points} when the hand is recorded.",
        )
        for seat in seats
    )


def _counted_colour(colour: Colour | None, options: OkeyOptions) -> Colour | None:
    """The colour of a one-colour win if option ``colour_hand`` doubles it."""
    if colour is None or options.colour_hand == "off":
        return None
    if options.colour_hand == "red_black" and colour not in (Colour.RED, Colour.BLACK):
        return None
    return colour


def _shown_tiles(value: Any) -> tuple[Tile, ...]:
    if not isinstance(value, (str, Sequence)):
        raise InvalidHandRecordError(
            f"invalid tiles {value!r}: give the winner's 14 tiles (without the final discard), e.g. 'R1 R2 R3 …'"
        )
    tiles = tiles_like(value)
    if len(tiles) != 14:
        raise InvalidHandRecordError(
            f"invalid tiles {value!r}: the winner shows exactly 14 tiles (without the final discard), "
            f"got {len(tiles)}"
        )
    return tiles


def _check_tile_set(indicator: Tile, tiles: Sequence[Tile], discard: Tile) -> None:
    jokers = [t for t in (*tiles, discard) if t.is_joker]
    if jokers:
        raise InvalidHandRecordError(OKEY_HAS_NO_J)
    try:
        check_tile_counts([indicator, *tiles, discard])
    except ImpossibleHandError as error:
        raise ImpossibleHandError(f"{error} (counting the 14 tiles, the discard and the indicator)") from None


def _gosterme(value: Any, players: int) -> tuple[int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InvalidHandRecordError(f"invalid gosterme {value!r}: give a list of seats, e.g. [2]")
    seats = tuple(_seat(seat, players, "gosterme seat") for seat in value)
    if len(seats) > 1:
        raise InvalidHandRecordError(
            f"invalid gosterme {list(value)!r}: only one tile is the indicator's twin, so at most one seat shows it"
        )
    return seats


def _left(value: Any, players: int, options: OkeyOptions) -> tuple[int, ...]:
    """The seats that left the match (O6 ``elimination``), checked: seats of the table, each once, at least two
    still playing, and none with partners (a team never leaves)."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InvalidHandRecordError(f"invalid left {value!r}: a list of the seats that left the match, such as [2]")
    seats = tuple(_seat(seat, players, "seat that left") for seat in value)
    if len(set(seats)) != len(seats):
        raise InvalidHandRecordError(f"invalid left {value!r}: each seat leaves once")
    if seats and options.partners:
        raise InvalidHandRecordError("with partners nobody leaves the match (O6): drop 'left'")
    if players - len(seats) < 2:
        raise InvalidHandRecordError(f"invalid left {value!r}: a hand needs two players still in the match")
    return seats


def _present(seat: int, left: tuple[int, ...], what: str) -> None:
    if seat in left:
        raise InvalidHandRecordError(f"{_who(seat)} left the match (O6) and cannot {what} any more")


def _seat(value: Any, players: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidHandRecordError(
            f"invalid {name} {value!r}: with {players} players the seats are 0-{players - 1}"
        )
    return int(value)


def _check_options(options: OkeyOptions | None) -> OkeyOptions:
    if options is None:
        return OkeyOptions()
    if not isinstance(options, OkeyOptions):
        raise InvalidOptionError(f"options {options!r} are not okey options; use options_for('okey')")
    return options


def _who(seat: int) -> str:
    return player(seat).capitalize()


def _losers(seat: int, options: OkeyOptions) -> str:
    """Who pays for ``seat``'s win or gösterme, in words."""
    if options.partners:
        other = 1 - team_of(seat)
        return f"the other team (players {other + 1} and {other + 3})"
    return "every opponent"
