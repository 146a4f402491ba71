"""Okey 101 hand scores (RULES.md H6, H7, H8 partners): pure functions of a recorded hand.

Entries are penalty points, lowest total wins.  A hand record, as the JSON API sends it::

    {"indicator": "R4", "finisher": 0, "finish": "normal" | "okey_discard", "elden": false,
     "players": [{"opened": "melds" | "pairs" | null, "rack": "R5 K7"}, ...],
     "penalties": [{"player": 1, "reason": "discarded_okey" | "failed_opening" | "islek" | "take_back"}],
     "void": false}

``finisher: null`` is a stock-exhausted hand.  A player entry may give ``"sum"`` (the face sum of the
tiles left, typed at the table) with ``"okeys"`` (how many okeys are among them) instead of ``"rack"``.
``void`` (or every player having opened with pairs, H4) voids the hand: nobody scores, no penalties.

How the doublings combine (each ×2, multiplied together; none of them with option ``multipliers`` off):
the finisher discarded an okey (everybody); elden — finishing in one turn while nobody else has opened
(everybody); the finisher opened with pairs (everybody else, and the finisher with
``pairs_finish_doubles_finisher``); a non-finisher who opened with pairs (that player, also when the
stock runs out).  With partners and ``partner_finish_clears`` the finisher's partner scores 0 for the
hand.  H7 penalties are added afterwards and never multiplied.

>>> score = score_okey101_hand({"indicator": "R4", "finisher": 0, "players": [
...     {"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "R5 K7"},
...     {"opened": None, "rack": "B1"}, {"opened": "pairs", "rack": "Y3 Y9"}]})
>>> score.scores
(-101, 108, 202, 24)
>>> score.explain[1]
Player 2 keeps R5 K7: 101 (okey) + 7 = 108 → 108.
>>> score.explain[3]
Player 4 keeps Y3 Y9: 3 + 9 = 12 × 2 (opened with pairs) → 24.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, details, player, texts
from companion.rules.melds import Wilds
from companion.rules.options import Okey101Options
from companion.rules.schema import Field, Schema, check_record
from companion.rules.tiles import Tile, TileLike, TilesLike, check_tile_counts, format_tiles, tile_like, tiles_like

__all__ = [
    "FINISHER_POINTS",
    "NOT_OPENED_POINTS",
    "OKEY_IN_HAND_POINTS",
    "PENALTY_REASONS",
    "Penalty",
    "Okey101HandScore",
    "admit_okey101_hand",
    "pending_penalties",
    "rack_points",
    "score_okey101_hand",
]

FINISHER_POINTS = -101
NOT_OPENED_POINTS = 202
OKEY_IN_HAND_POINTS = 101

PENALTY_REASONS: dict[str, str] = {
    "discarded_okey": "discarding an okey",
    "failed_opening": "a failed opening taken back",
    "islek": "discarding a tile that could be added to a meld on the table (işlek)",
    "take_back": "taking back more than one laid tile",
}
"""H7: the extra penalties, by the reason code a hand record uses."""

Opened = Literal["melds", "pairs"] | None


@dataclass(frozen=True)
class Penalty:
    """One H7 penalty: ``seat`` pays ``points`` for ``reason`` (a key of :data:`PENALTY_REASONS`)."""

    seat: int
    reason: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason, "points": self.points}


@dataclass(frozen=True)
class Okey101HandScore:
    """The scores of one Okey 101 hand, per seat, with the reasons.

    ``hand_scores`` are the H6 scores (after doublings), ``penalties`` the H7 sums, ``scores`` their sums.
    ``team_scores`` (seats 0+2, 1+3) is set when playing partners.
    """

    players: int
    finisher: int | None
    void: bool
    hand_scores: tuple[int, ...]
    penalties: tuple[int, ...]
    scores: tuple[int, ...]
    team_scores: tuple[int, int] | None
    penalty_entries: tuple[Penalty, ...]
    explain: tuple[Explanation, ...]
    per_seat: tuple[tuple[Explanation, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "finisher": self.finisher,
            "void": self.void,
            "scores": list(self.scores),
            "hand_scores": list(self.hand_scores),
            "penalties": list(self.penalties),
            "team_scores": None if self.team_scores is None else list(self.team_scores),
            "penalty_entries": [p.to_dict() for p in self.penalty_entries],
            "explain": texts(self.explain),
            "explain_detail": details(self.explain),
            "per_seat": [texts(lines) for lines in self.per_seat],
        }


def rack_points(tiles: TilesLike, *, indicator: TileLike, options: Okey101Options | None = None) -> int:
    """The face sum of the tiles left on a rack (H6): an okey counts 101, a false okey the okey's face.

    The sum is the same under both ``okey_in_hand`` choices (they differ only in what doublings touch), so
    ``options`` is accepted for symmetry with the other scoring functions and checked, nothing more.  A rack
    holding more copies of a tile than a set has, the face-up indicator counted as one copy of its tile
    (O1, O3), is refused.

    >>> rack_points("R5 K7 F", indicator="R4")   # R5 is the okey, F plays as R5
    113
    >>> rack_points("R4 R4", indicator="R4")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible hand: 2 × R4 and the face-up indicator R4, a set has only 2 (O1, O3)
    """
    _check_options(options)
    rack = _tiles("rack", tiles)
    wilds = Wilds.from_indicator(_indicator(indicator))
    wilds.check_counts(rack)
    values = _values(rack, wilds)
    return sum(OKEY_IN_HAND_POINTS if value is None else value for value in values)


@dataclass(frozen=True)
class _Entry:
    """One player's record: how they opened and what is left: the value of each tile, ``None`` for an
    okey (a typed sum is one value); ``tiles`` is ``None`` for a typed sum."""

    opened: Opened
    tiles: tuple[Tile, ...] | None
    values: tuple[int | None, ...]

    @property
    def face_sum(self) -> int:
        return sum(value for value in self.values if value is not None)

    @property
    def okeys(self) -> int:
        return self.values.count(None)


MAX_RACK_TILES = 21
"""A rack holds at most 21 tiles when a hand ends (H2: 21 dealt, 22 to the starter, who discards first)."""

MAX_RACK_SUM = 8 * 13 + 8 * 12 + 5 * 11
"""The most a typed rack sum (okeys apart) can be: 21 tiles, the set's eight 13s, eight 12s and five 11s (255)."""

MAX_TYPED_SUM = 2000
"""What scoring takes (a log an earlier version wrote may hold such a sum); a new hand is held to MAX_RACK_SUM."""

SET_OKEYS = 2
"""A set has two okeys (O1, O3): the racks' okeys and an okey discarded to finish are among them."""

OKEY101_HAND_SCHEMA: Schema = {
    "indicator": Field(max_length=8),
    "finisher": Field(),
    "finish": Field(),
    "elden": Field(),
    "void": Field(),
    "players": Field("list", max_items=8, items=Field("object", fields={
        "opened": Field(), "rack": Field("tiles"), "sum": Field(), "okeys": Field(),
    })),
    "penalties": Field("list", max_items=50, items=Field("object", fields={"player": Field(), "reason": Field()})),
}
"""The Okey 101 hand record (see the module docstring): its fields, types and bounds."""


def score_okey101_hand(hand: Mapping[str, Any], options: Okey101Options | None = None) -> Okey101HandScore:
    """Score one recorded Okey 101 hand (H6, H7, H8 partners); see the module docstring for the record."""
    options = _check_options(options)
    if not isinstance(hand, Mapping):
        raise InvalidHandRecordError(f"a hand record must be an object, not {hand!r}")
    check_record(hand, OKEY101_HAND_SCHEMA, "the okey101 hand record")
    indicator = _indicator(_required(hand, "indicator"))
    entries = _entries(hand.get("players"), Wilds.from_indicator(indicator))
    players = len(entries)
    if options.partners and players != 4:
        raise InvalidHandRecordError(f"partners need 4 players, the hand has {players}")
    finisher = _finisher(hand, players)
    finish = hand.get("finish", "normal")
    if finish not in ("normal", "okey_discard"):
        raise InvalidHandRecordError(f"invalid finish {finish!r}: use 'normal' or 'okey_discard'")
    elden = _flag(hand, "elden")
    penalties = _penalties(hand.get("penalties", []), players, options)
    _check_tiles(indicator, entries)
    _check_finish(entries, finisher, finish == "okey_discard", elden)
    if _flag(hand, "void") or all(entry.opened == "pairs" for entry in entries):
        return _void_hand(players, options)

    pairs_finish = finisher is not None and entries[finisher].opened == "pairs"
    lines, doublings = _hand_lines(entries, finisher, finish == "okey_discard", elden, pairs_finish, options)

    per_seat: list[list[Explanation]] = [[] for _ in range(players)]
    hand_scores: list[int] = []
    for seat, entry in enumerate(entries):
        factors = _doublings(seat, entry, finisher, pairs_finish, doublings, options)
        score, line = _seat_score(seat, entry, seat == finisher, factors, options)
        hand_scores.append(score)
        per_seat[seat].append(line)

    if options.partners and options.partner_finish_clears and finisher is not None:
        partner = (finisher + 2) % 4
        per_seat[partner].append(_line(
            "okey101.partner_cleared",
            f"{_who(partner)}'s hand score {hand_scores[partner]} is cleared: the partner finished (H8).",
            seat=partner, was=hand_scores[partner],
        ))
        hand_scores[partner] = 0

    penalty_sums = _book_penalties(penalties, per_seat)
    scores = tuple(hand + extra for hand, extra in zip(hand_scores, penalty_sums))
    for seat in range(players):
        if penalty_sums[seat]:
            per_seat[seat].append(_line(
                "okey101.total",
                f"{_who(seat)} scores {hand_scores[seat]} + {penalty_sums[seat]} = {scores[seat]} this hand.",
                seat=seat, hand=hand_scores[seat], penalties=penalty_sums[seat], score=scores[seat],
            ))
    team_scores = (scores[0] + scores[2], scores[1] + scores[3]) if options.partners else None
    seat_lines = tuple(tuple(seat_list) for seat_list in per_seat)
    explain = tuple(lines) + tuple(line for seat_list in seat_lines for line in seat_list)
    if team_scores is not None:
        explain += (_line(
            "okey101.teams",
            f"Teams: players 1 and 3 score {team_scores[0]}, players 2 and 4 score {team_scores[1]}.",
            team0=team_scores[0], team1=team_scores[1],
        ),)
    return Okey101HandScore(
        players=players,
        finisher=finisher,
        void=False,
        hand_scores=tuple(hand_scores),
        penalties=tuple(penalty_sums),
        scores=scores,
        team_scores=team_scores,
        penalty_entries=penalties,
        explain=explain,
        per_seat=seat_lines,
    )


def pending_penalties(
    penalties: Sequence[Mapping[str, Any]], players: int, options: Okey101Options | None = None
) -> Okey101HandScore:
    """The hand being played as far as it is known: the +101 penalties (H7) fined so far, which count in
    the totals at once; the hand's own scores come when it is recorded.

    >>> pending = pending_penalties([{"player": 1, "reason": "islek"}], 4)
    >>> pending.scores, pending.explain
    ((0, 101, 0, 0), (Player 2 pays +101 for discarding a tile that could be added to a meld on the table (işlek) (H7).,))
    """
    options = _check_options(options)
    entries = _penalties(penalties, players, options)
    per_seat: list[list[Explanation]] = [[] for _ in range(players)]
    scores = tuple(_book_penalties(entries, per_seat))
    seat_lines = tuple(tuple(seat_list) for seat_list in per_seat)
    return Okey101HandScore(
        players=players,
        finisher=None,
        void=False,
        hand_scores=(0,) * players,
        penalties=scores,
        scores=scores,
        team_scores=(scores[0] + scores[2], scores[1] + scores[3]) if options.partners else None,
        penalty_entries=entries,
        explain=tuple(line for seat_list in seat_lines for line in seat_list),
        per_seat=seat_lines,
    )


def _book_penalties(penalties: Sequence[Penalty], per_seat: list[list[Explanation]]) -> list[int]:
    """Each seat's H7 sum, with a line per penalty in that seat's explanation."""
    sums = [0] * len(per_seat)
    for penalty in penalties:
        sums[penalty.seat] += penalty.points
        per_seat[penalty.seat].append(_line(
            "okey101.penalty",
            f"{_who(penalty.seat)} pays +{penalty.points} for {PENALTY_REASONS[penalty.reason]} (H7).",
            seat=penalty.seat, reason=penalty.reason, points=penalty.points,
        ))
    return sums


def _hand_lines(
    entries: Sequence[_Entry],
    finisher: int | None,
    okey_discard: bool,
    elden: bool,
    pairs_finish: bool,
    options: Okey101Options,
) -> tuple[list[Explanation], list[str]]:
    """The lines about the whole hand, and the doublings that touch everybody (H6)."""
    lines: list[Explanation] = []
    doublings: list[str] = []
    name = "" if finisher is None else _who(finisher)

    def doubling(key: str, doubled: str, undoubled: str) -> None:
        """What happened and the doubling it brings; with doublings off (H6), that it brings none (``key.off``)."""
        text, key = (doubled, key) if options.multipliers else (undoubled, key + ".off")
        lines.append(_line(key, f"{name} {text}", finisher=finisher))

    if okey_discard:
        doublings.append("okey discard")
        doubling("okey101.okey_discard", "finished by discarding an okey: every hand score is doubled.",
                 "finished by discarding an okey (doublings are off: nothing is doubled).")
    if elden:
        doublings.append("elden")
        doubling("okey101.elden", "finished in one turn while nobody else had opened (elden): every hand score is "
                 "doubled.", "finished in one turn while nobody else had opened (elden; doublings are off: nothing "
                 "is doubled).")
    if pairs_finish:
        doubling("okey101.pairs_finish", "opened with pairs and finished: everyone else pays double.",
                 "opened with pairs and finished (doublings are off: nobody pays double).")
    if finisher is None:
        lines.append(_line("okey101.stock_exhausted", "The stock ran out: nobody finished, nobody gets -101."))
    if not options.multipliers and (doublings or any(entry.opened == "pairs" for entry in entries)):
        lines.append(_line("okey101.multipliers_off", "Doublings are off (katlamalı off): every ×2 is ignored."))
    return lines, doublings


def _doublings(
    seat: int, entry: _Entry, finisher: int | None, pairs_finish: bool, common: list[str], options: Okey101Options
) -> list[str]:
    """Why ``seat``'s hand score doubles, one reason per ×2 (H6)."""
    if not options.multipliers:
        return []
    factors = list(common)
    if seat == finisher:
        if pairs_finish and options.pairs_finish_doubles_finisher:
            factors.append("opened with pairs")
        return factors
    if pairs_finish:
        factors.append("the finisher opened with pairs")
    if entry.opened == "pairs":
        factors.append("opened with pairs")
    return factors


def _seat_score(
    seat: int, entry: _Entry, finished: bool, factors: list[str], options: Okey101Options
) -> tuple[int, Explanation]:
    multiplier = 2 ** len(factors)
    times = "".join(f" × 2 ({factor})" for factor in factors)
    params: dict[str, Any] = {"seat": seat, "multiplier": multiplier, "doublings": factors}
    if finished:
        score = FINISHER_POINTS * multiplier
        text = f"{_who(seat)} finished: {FINISHER_POINTS}{times} → {score}."
        return score, _line("okey101.finisher", text, base=FINISHER_POINTS, score=score, **params)
    if entry.opened is None:
        score = NOT_OPENED_POINTS * multiplier
        text = f"{_who(seat)} has not opened: {NOT_OPENED_POINTS}{times} → {score}."
        return score, _line("okey101.not_opened", text, base=NOT_OPENED_POINTS, score=score, **params)
    flat = options.okey_in_hand == "flat_101"
    okey_points = OKEY_IN_HAND_POINTS * entry.okeys
    inside = entry.face_sum + (0 if flat else okey_points)
    score = inside * multiplier + (okey_points if flat else 0)
    terms = [f"{OKEY_IN_HAND_POINTS} (okey)" if value is None else str(value)
             for value in entry.values if value is not None or not flat]
    summed = " + ".join(terms) + (f" = {inside}" if len(terms) > 1 else "") if terms else "0"
    flat_text = f", + {okey_points} for the okey in hand (never doubled)" if flat and okey_points else ""
    held = "a typed sum" if entry.tiles is None else (format_tiles(entry.tiles) or "no tiles")
    text = f"{_who(seat)} keeps {held}: {summed}{times}{flat_text} → {score}."
    return score, _line("okey101.rack", text, face_sum=entry.face_sum, okeys=entry.okeys, base=inside,
                        score=score, tiles=None if entry.tiles is None else format_tiles(entry.tiles),
                        values=list(entry.values), flat=flat, okey_points=okey_points, **params)


def _void_hand(players: int, options: Okey101Options) -> Okey101HandScore:
    zeros = (0,) * players
    line = _line("okey101.void", "The hand is void (every player opened with pairs): it is replayed, "
                 "nobody scores and no penalties count.")
    return Okey101HandScore(
        players, None, True, zeros, zeros, zeros, (0, 0) if options.partners else None, (), (line,),
        tuple(() for _ in range(players)),
    )


def _who(seat: int) -> str:
    return player(seat).capitalize()


def _line(key: str, text: str, **params: Any) -> Explanation:
    return Explanation(key, params, text)


def _check_options(options: Okey101Options | None) -> Okey101Options:
    if options is None:
        return Okey101Options()
    if not isinstance(options, Okey101Options):
        raise InvalidOptionError(f"options {options!r} are not okey101 options; use options_for('okey101')")
    return options


def _required(hand: Mapping[str, Any], name: str) -> Any:
    if hand.get(name) is None:
        raise InvalidHandRecordError(f"the hand record needs {name!r}; got the fields {sorted(hand)!r}")
    return hand[name]


def _indicator(value: Any) -> Tile:
    tile = tile_like(value)
    if not tile.is_numbered:
        raise InvalidHandRecordError(f"invalid indicator {tile.code!r}: the indicator is a numbered tile (e.g. R4)")
    return tile


def _tiles(name: str, value: Any) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if not isinstance(value, (str, Sequence)):
        raise InvalidHandRecordError(f"invalid {name} {value!r}: give tiles such as 'R5 K7'")
    tiles = tiles_like(value)
    jokers = [t for t in tiles if t.is_joker]
    if jokers:
        raise InvalidHandRecordError(f"invalid {name} {value!r}: J is the Rummikub joker, okey has no J")
    return tiles


def _values(tiles: Sequence[Tile], wilds: Wilds) -> tuple[int | None, ...]:
    """The face value of each tile; ``None`` for an okey (a false okey plays the okey's face)."""
    return tuple(None if wilds.is_wild(tile) else wilds.face(tile).number for tile in tiles)


def _seat(value: Any, players: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidHandRecordError(f"invalid {name} {value!r}: with {players} players the seats are 0-{players - 1}")
    return int(value)


def _finisher(hand: Mapping[str, Any], players: int) -> int | None:
    """The record's finisher seat, ``None`` where the stock ran out."""
    return None if hand.get("finisher") is None else _seat(hand["finisher"], players, "finisher")


def _flag(hand: Mapping[str, Any], name: str) -> bool:
    value = hand.get(name, False)
    if not isinstance(value, bool):
        raise InvalidHandRecordError(f"invalid {name} {value!r}: use true or false")
    return value


def _entries(value: Any, wilds: Wilds) -> tuple[_Entry, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not 2 <= len(value) <= 4:
        raise InvalidHandRecordError(
            f"invalid players {value!r}: give a list of 2-4 objects such as {{'opened': 'melds', 'rack': 'R5 K7'}}"
        )
    return tuple(_entry(seat, item, wilds) for seat, item in enumerate(value))


def _entry(seat: int, item: Any, wilds: Wilds) -> _Entry:
    if not isinstance(item, Mapping):
        raise InvalidHandRecordError(
            f"invalid player entry {item!r} for seat {seat}: give an object with 'opened' and 'rack'"
        )
    opened = item.get("opened")
    if opened not in ("melds", "pairs", None):
        raise InvalidHandRecordError(f"invalid opened {opened!r} for seat {seat}: use 'melds', 'pairs' or null")
    if "sum" not in item:
        tiles = _tiles(f"rack of seat {seat}", item.get("rack"))
        return _Entry(opened, tiles, _values(tiles, wilds))
    if item.get("rack"):
        raise InvalidHandRecordError(f"seat {seat} has both 'rack' and 'sum': give one of them")
    typed, okeys = item["sum"], item.get("okeys", 0)
    if isinstance(typed, bool) or not isinstance(typed, int) or not 0 <= typed <= MAX_TYPED_SUM:
        raise InvalidHandRecordError(_bad_sum(typed, seat))
    if isinstance(okeys, bool) or not isinstance(okeys, int) or not 0 <= okeys <= 2:
        raise InvalidHandRecordError(f"invalid okeys {okeys!r} for seat {seat}: 0, 1 or 2")
    return _Entry(opened, None, ((typed,) if typed else ()) + (None,) * okeys)


def _bad_sum(typed: Any, seat: int) -> str:
    return (f"invalid sum {typed!r} for seat {seat}: a whole number from 0 to {MAX_RACK_SUM} "
            f"(okeys apart, {MAX_RACK_TILES} tiles are worth at most {MAX_RACK_SUM})")


def _penalties(value: Any, players: int, options: Okey101Options) -> tuple[Penalty, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InvalidHandRecordError(f"invalid penalties {value!r}: give a list of {{'player': 1, 'reason': ...}}")
    penalties = []
    for item in value:
        if not isinstance(item, Mapping):
            raise InvalidHandRecordError(f"invalid penalty {item!r}: give {{'player': 1, 'reason': 'islek'}}")
        seat = _seat(item.get("player"), players, "penalty player")
        reason = item.get("reason")
        if reason not in PENALTY_REASONS:
            raise InvalidHandRecordError(
                f"unknown penalty reason {reason!r}; use one of: {', '.join(PENALTY_REASONS)}"
            )
        penalties.append(Penalty(seat, reason, options.penalty_points))
    return tuple(penalties)


def _check_tiles(indicator: Tile, entries: Sequence[_Entry]) -> None:
    every = [indicator] + [tile for entry in entries for tile in entry.tiles or ()]
    try:
        check_tile_counts(every)
    except ImpossibleHandError as error:
        raise ImpossibleHandError(f"{error} (counting every rack and the indicator)") from None


def admit_okey101_hand(hand: Mapping[str, Any], options: Okey101Options | None = None, standings: Any = None) -> None:
    """Refuse a new hand record no set or turn can produce, beyond what :func:`score_okey101_hand` needs (the
    registry's ``admit_hand``: checked where a hand enters, never on replay): a rack of more than 21 tiles, a typed
    sum above 255, more okeys on the racks and the finishing discard than the set's two, elden after a pairs opening,
    an empty rack (or a typed 0) of a player who opened and did not finish (one who never opened pays 202 whatever
    the rack, so theirs may be left blank).

    >>> admit_okey101_hand({"indicator": "R4", "finisher": 0, "finish": "okey_discard", "players": [
    ...     {"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "R5"}, {"opened": None, "sum": 9, "okeys": 1}]})
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible hand: 3 okeys on the racks and the finishing discard, but a set has only 2 (O1, O3): correct the racks, the typed okeys or the finish
    """
    _check_options(options)
    if not isinstance(hand, Mapping):
        raise InvalidHandRecordError(f"a hand record must be an object, not {hand!r}")
    indicator = _indicator(_required(hand, "indicator"))
    entries = _entries(hand.get("players"), Wilds.from_indicator(indicator))
    _check_tiles(indicator, entries)  # a third copy of a tile is said as such first
    for seat, entry in enumerate(entries):
        if entry.tiles is not None and len(entry.tiles) > MAX_RACK_TILES:
            raise ImpossibleHandError(f"impossible rack: {len(entry.tiles)} tiles for {player(seat)}, but a rack "
                                      f"holds at most {MAX_RACK_TILES} when a hand ends (H2)")
        if entry.tiles is None and entry.face_sum > MAX_RACK_SUM:
            raise InvalidHandRecordError(_bad_sum(entry.face_sum, seat))
    finisher = _finisher(hand, len(entries))  # its own errors first: a seat typed as text is not an emptied rack
    for seat, entry in enumerate(entries):
        if entry.opened is not None and seat != finisher and entry.face_sum == 0 and entry.okeys == 0:
            raise InvalidHandRecordError(
                f"{player(seat)} opened but keeps nothing on the rack, and only the finisher empties it (H6): type the "
                f"tiles {player(seat)} kept or their sum, or tap them as the finisher"
            )
    okeys = sum(entry.okeys for entry in entries) + (hand.get("finish") == "okey_discard")
    if okeys > SET_OKEYS:
        raise ImpossibleHandError(f"impossible hand: {okeys} okeys on the racks and the finishing discard, but a set "
                                  f"has only {SET_OKEYS} (O1, O3): correct the racks, the typed okeys or the finish")
    if hand.get("elden") is True and finisher is not None and entries[finisher].opened == "pairs":
        raise InvalidHandRecordError(
            "elden with a pairs opening is impossible: the finisher lays 21 tiles in one turn and pairs take an even "
            "number, with no one else's melds to add to (H4): set elden to false or 'opened' to 'melds'"
        )


def _check_finish(entries: Sequence[_Entry], finisher: int | None, okey_discard: bool, elden: bool) -> None:
    if finisher is None:
        if okey_discard or elden:
            raise InvalidHandRecordError(
                "an okey-discard or elden finish needs a finisher; finisher null means the stock ran out"
            )
        return
    finished = entries[finisher]
    if finished.opened is None:
        raise InvalidHandRecordError(
            f"the finisher (seat {finisher}) must have opened: set 'opened' to 'melds' or 'pairs'"
        )
    if finished.values:
        shown = format_tiles(finished.tiles) if finished.tiles is not None else f"sum {finished.face_sum}"
        raise InvalidHandRecordError(
            f"the finisher's rack must be empty (they laid every tile), got {shown!r} for seat {finisher}"
        )
    if elden:
        opened = [seat for seat, entry in enumerate(entries) if seat != finisher and entry.opened is not None]
        if opened:
            raise InvalidHandRecordError(
                f"elden means nobody else had opened, but seat(s) {opened!r} opened: "
                "set elden to false or their 'opened' to null"
            )
