"""Okey's points-counting variant (RULES.md O7, seed 000): face values left on the rack, lowest total wins.

Four players, 21 tiles each (the dealer 22, who starts by discarding).  A hand ends when the stock is
empty or a player completes the rack; every player then scores the face values of the tiles left on the
rack (red 3 = 3, black 11 = 11).  After the fixed number of hands (option ``hands``: 3, 5, 7, 9 or 11) the
lowest total wins.  Scored like the 101 sheet without the 101 rules: no 101 for the finisher, no 202, no
doublings, no extra penalties.  A false okey counts the okey's face (it plays as that tile, O3); an okey
left on the rack counts its own face.

A hand record, as the JSON API and the batch ``score`` op send it::

    {"indicator": "R4", "finisher": 0 | null, "racks": ["", "R5 K7 F", 23, ["B1", "B2"]]}

``finisher: null`` means the stock ran out.  A rack is its tiles (a string such as ``"R5 K7"`` or a list
of codes) or, typed at the table, its sum (a whole number).  The finisher's rack is empty.

>>> score = score_okey_points_hand({"indicator": "R4", "finisher": 0,
...                                 "racks": ["", "R5 K7 F", "B13 Y1", 23]})
>>> score.scores
(0, 17, 14, 23)
>>> score.explain[1]
Player 2 keeps R5 K7 F: 5 + 7 + 5 (F plays as R5) = 17.
>>> okey_points_standings(4, [score] * 11, OkeyPointsOptions()).winners
(0,)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, player, result_dict, they
from companion.rules.melds import Wilds
from companion.rules.tiles import Tile, check_tile_counts, format_tiles, tile_like, tiles_like

__all__ = [
    "PLAYERS",
    "HANDS",
    "OkeyPointsOptions",
    "OkeyPointsHandScore",
    "OkeyPointsStandings",
    "admit_okey_points_hand",
    "score_okey_points_hand",
    "okey_points_standings",
]

PLAYERS = 4
"""O7: the variant is played by four."""

HANDS = (3, 5, 7, 9, 11)
"""O7: the numbers of hands a match may have."""

MAX_TYPED_SUM = 22 * 13
"""The most a rack of 22 tiles can be worth: a typed sum above it is a typing mistake."""

_FIELDS = ("indicator", "finisher", "racks")

Starter = Literal["dealer", "right_of_dealer"]


@dataclass(frozen=True)
class OkeyPointsOptions:
    """Okey's points-counting variant (RULES.md O7)."""

    hands: int = 11
    """O7: the number of hands in the match (3, 5, 7, 9 or 11)."""
    starter: Starter = "dealer"
    """O7: who gets 22 tiles and starts by discarding: the dealer (seed 000), or the player on the dealer's right."""


@dataclass(frozen=True)
class OkeyPointsHandScore:
    """The points of one hand: ``scores[s]`` is what seat ``s`` keeps on the rack (the finisher 0).

    ``per_seat[s]`` holds the explanation lines about seat ``s`` (the sheet's "why this number").
    """

    players: int
    finisher: int | None
    scores: tuple[int, ...]
    explain: tuple[Explanation, ...]
    per_seat: tuple[tuple[Explanation, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


def score_okey_points_hand(hand: Mapping[str, Any], options: OkeyPointsOptions | None = None) -> OkeyPointsHandScore:
    """Score one O7 hand: each seat keeps the face values left on its rack, the finisher 0."""
    _check_options(options)
    if not isinstance(hand, Mapping):
        raise InvalidHandRecordError(f"invalid hand {hand!r}: give an object with 'indicator', 'finisher', 'racks'")
    unknown = [name for name in hand if name not in _FIELDS]
    if unknown:
        raise InvalidHandRecordError(
            f"unknown field {unknown[0]!r} in the hand record; an okey_points hand has: {', '.join(_FIELDS)}"
        )
    indicator = _indicator(hand.get("indicator"))
    racks = _racks(hand.get("racks"))
    finisher = _finisher(hand.get("finisher", "missing"), racks)
    wilds = Wilds.from_indicator(indicator)
    try:
        check_tile_counts([indicator, *(tile for rack in racks if isinstance(rack, tuple) for tile in rack)])
    except ImpossibleHandError as error:
        raise ImpossibleHandError(f"{error} (counting every rack and the indicator)") from None
    lines: list[Explanation] = []
    if finisher is None:
        lines.append(Explanation("okey_points.stock_exhausted", {},
                                 "The stock ran out: every player counts the tiles left on the rack."))
    per_seat: list[tuple[Explanation, ...]] = []
    scores: list[int] = []
    for seat, rack in enumerate(racks):
        score, line = _seat_line(seat, rack, finisher, wilds)
        scores.append(score)
        per_seat.append((line,))
        lines.append(line)
    return OkeyPointsHandScore(PLAYERS, finisher, tuple(scores), tuple(lines), tuple(per_seat))


def admit_okey_points_hand(hand: Mapping[str, Any], options: OkeyPointsOptions | None = None,
                           standings: Any = None) -> None:
    """Refuse a new hand record no hand can end with (the registry's ``admit_hand``: checked where a hand enters,
    never on replay): an empty rack of a player who did not complete theirs — whoever empties the rack completes it.

    >>> admit_okey_points_hand({"indicator": "R4", "finisher": 0, "racks": ["", "R5", "", 9]})
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidHandRecordError: player 3's rack is empty, but only the player who completed the rack has none (O7): type the tiles player 3 kept or their sum, or tap them as the one who completed it
    """
    score = score_okey_points_hand(hand, options)  # the record's own errors first
    for seat, rack in enumerate(_racks(hand.get("racks"))):
        if seat != score.finisher and not isinstance(rack, int) and not rack:
            raise InvalidHandRecordError(
                f"{player(seat)}'s rack is empty, but only the player who completed the rack has none (O7): type the "
                f"tiles {player(seat)} kept or their sum, or tap them as the one who completed it"
            )


def _seat_line(seat: int, rack: tuple[Tile, ...] | int, finisher: int | None, wilds: Wilds) -> tuple[int, Explanation]:
    who = player(seat).capitalize()
    if seat == finisher:
        return 0, Explanation("okey_points.finisher", {"seat": seat, "score": 0},
                              f"{who} completed the rack: 0.")
    if isinstance(rack, int):
        return rack, Explanation("okey_points.rack", {"seat": seat, "score": rack, "tiles": None},
                                 f"{who} keeps tiles worth {rack} (a typed sum).")
    values = [wilds.face(tile).number for tile in rack]
    terms = [str(value) + (f" (F plays as {wilds.face(tile).code})" if tile.is_false_okey else "")
             for tile, value in zip(rack, values)]
    score = sum(values)
    if not rack:
        summed = "0"
    elif len(rack) == 1:
        summed = terms[0]
    else:
        summed = f"{' + '.join(terms)} = {score}"
    shown = format_tiles(rack) or "no tiles"
    return score, Explanation("okey_points.rack", {"seat": seat, "score": score, "tiles": format_tiles(rack)},
                              f"{who} keeps {shown}: {summed}.")


def _check_options(options: OkeyPointsOptions | None) -> OkeyPointsOptions:
    if options is None:
        return OkeyPointsOptions()
    if not isinstance(options, OkeyPointsOptions):
        raise InvalidOptionError(f"options {options!r} are not okey_points options; use options_for('okey_points')")
    return options


def _indicator(value: Any) -> Tile:
    if value is None:
        raise InvalidHandRecordError("the hand record needs 'indicator', the tile turned up this hand (e.g. 'R4')")
    tile = tile_like(value)
    if not tile.is_numbered:
        raise InvalidHandRecordError(f"invalid indicator {tile.code!r}: the indicator is a numbered tile (e.g. R4)")
    return tile


def _racks(value: Any) -> tuple[tuple[Tile, ...] | int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != PLAYERS:
        raise InvalidHandRecordError(
            f"invalid racks {value!r}: give a list of the {PLAYERS} racks in seat order, "
            "each its tiles ('R5 K7') or its typed sum (12); the finisher's is ''"
        )
    return tuple(_rack(seat, item) for seat, item in enumerate(value))


def _rack(seat: int, item: Any) -> tuple[Tile, ...] | int:
    if isinstance(item, bool):
        raise InvalidHandRecordError(f"invalid rack {item!r} for seat {seat}: give tiles such as 'R5 K7' or a sum")
    if isinstance(item, int):
        if not 0 <= item <= MAX_TYPED_SUM:
            raise InvalidHandRecordError(
                f"invalid sum {item!r} for seat {seat}: a rack is worth 0-{MAX_TYPED_SUM}"
            )
        return item
    if item is None:
        return ()
    if not isinstance(item, (str, Sequence)):
        raise InvalidHandRecordError(f"invalid rack {item!r} for seat {seat}: give tiles such as 'R5 K7' or a sum")
    tiles = tiles_like(item)
    if any(tile.is_joker for tile in tiles):
        raise InvalidHandRecordError(f"invalid rack {item!r} for seat {seat}: J is the Rummikub joker, okey has no J")
    if len(tiles) > 22:
        raise InvalidHandRecordError(f"invalid rack for seat {seat}: {len(tiles)} tiles, a rack holds at most 22")
    return tiles


def _finisher(value: Any, racks: Sequence[tuple[Tile, ...] | int]) -> int | None:
    if value == "missing":
        raise InvalidHandRecordError(
            "the hand record needs 'finisher': the seat that completed the rack, or null when the stock ran out"
        )
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(racks):
        raise InvalidHandRecordError(
            f"invalid finisher {value!r}: with {len(racks)} players the seats are 0-{len(racks) - 1}, or null"
        )
    if racks[value]:
        rack = racks[value]
        shown = format_tiles(rack) if isinstance(rack, tuple) else f"sum {rack}"
        raise InvalidHandRecordError(
            f"the finisher's rack must be empty (they completed it), got {shown!r} for seat {value}"
        )
    return int(value)


@dataclass(frozen=True)
class OkeyPointsStandings:
    """The O7 sheet: running totals after every hand; once ``hands`` hands are played the lowest wins.

    ``leaders`` have the lowest total so far; once ``finished`` they are the ``winners`` (ties share).
    ``subtotal`` is the totals before the last hand, once ``hands - 1`` hands are played.
    """

    players: int
    hands: int
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    subtotal: tuple[int, ...] | None
    hands_played: int
    finished: bool
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    explain: tuple[Explanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


def okey_points_standings(
    players: int, hands: Sequence[OkeyPointsHandScore], options: OkeyPointsOptions
) -> OkeyPointsStandings:
    """Replay the O7 hands: all ``options.hands`` hands are played, then the lowest total wins."""
    options = _check_options(options)
    if players != PLAYERS:
        raise InvalidHandRecordError(f"invalid players {players!r}: the points variant is played by {PLAYERS}")
    totals = [0] * players
    history: list[tuple[int, ...]] = []
    for number, hand in enumerate(hands, start=1):
        if number > options.hands:
            raise InvalidHandRecordError(
                f"the match is already over before hand {number}: it has {options.hands} hands"
            )
        if hand.players != players:
            raise InvalidHandRecordError(f"hand {number} has {hand.players} players, the match has {players}")
        totals = [total + score for total, score in zip(totals, hand.scores)]
        history.append(tuple(totals))
    played = len(history)
    subtotal = history[options.hands - 2] if options.hands >= 2 and played >= options.hands - 1 else None
    leaders = tuple(seat for seat in range(players) if totals[seat] == min(totals))
    finished = played == options.hands
    lines: list[Explanation] = []
    if finished:
        lines.append(Explanation(
            "okey_points.match_over", {"winners": list(leaders), "totals": totals, "hands": options.hands},
            f"All {options.hands} hands are played: {they(leaders, 'win')} with the lowest total (O7).",
        ))
    return OkeyPointsStandings(
        players=players,
        hands=options.hands,
        totals=tuple(totals),
        history=tuple(history),
        subtotal=subtotal,
        hands_played=played,
        finished=finished,
        leaders=leaders,
        winners=leaders if finished else (),
        explain=tuple(lines),
    )
