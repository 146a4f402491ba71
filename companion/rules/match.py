"""Match standings: the Okey 20-point count (O6) and the Okey 101 sheet (H8), replayed from hand scores.

Standings are a pure function of the scored hands, so undoing a hand is replaying one hand fewer.

>>> from companion.rules.scoring import score_okey_hand
>>> win = score_okey_hand({"players": 4, "indicator": "Y7", "winner": 0, "discard": "K1",
...                        "tiles": "R1 R2 R3 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"})
>>> okey_standings(4, [win] * 3, OkeyOptions()).points
(20, 14, 14, 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules.errors import InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, player, result_dict, seats_text, they
from companion.rules.options import Okey101Options, OkeyOptions
from companion.rules.scoring_101 import Okey101HandScore
from companion.rules.scoring_okey import OkeyHandScore, team_of

__all__ = ["OkeyStandings", "Okey101Standings", "LedgerEntry", "okey_standings", "okey101_standings"]


@dataclass(frozen=True)
class OkeyStandings:
    """The 20-point count after the hands so far (O6).

    ``points[s]`` is seat ``s``'s count (with partners: its team's count, also in ``team_points``);
    ``history`` holds ``points`` after every hand.  Once ``finished``, ``winners`` and ``losers`` are the
    two highest and two lowest seats (one each with 2 or 3 players; with partners, the team still above 0
    and the other).  Ties keep seat order.  With ``elimination`` the one player left above 0 is the only
    winner and every seat that left is a loser (the last to leave first).  ``eliminated`` lists the seats
    that left (option ``elimination``), in the order they left.
    """

    players: int
    start_points: int
    points: tuple[int, ...]
    team_points: tuple[int, int] | None
    history: tuple[tuple[int, ...], ...]
    eliminated: tuple[int, ...]
    hands_played: int
    finished: bool
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    explain: tuple[Explanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


def okey_standings(
    players: int, hands: Sequence[OkeyHandScore], options: OkeyOptions, *, pending: OkeyHandScore | None = None
) -> OkeyStandings:
    """Replay the Okey hands: everybody (every team) starts at ``start_points``; the match ends as soon as
    someone is at 0 or less — with ``elimination``, when only one player is left (eliminated seats leave:
    what later hands would take from them is ignored, and they may neither win nor show).

    ``pending`` is what the hand being played has cost so far (wrong declarations, O5): it counts at once,
    as the hand after ``hands``, and may end the match, but it is not a hand played yet.
    """
    if pending is not None:
        standings = okey_standings(players, [*hands, pending], options)
        return replace(standings, hands_played=standings.hands_played - 1)
    if not isinstance(options, OkeyOptions):
        raise InvalidOptionError(f"options {options!r} are not okey options; use options_for('okey')")
    _check_players(players, options.partners)
    teams = options.partners
    points = [options.start_points] * (2 if teams else players)
    eliminated: list[int] = []
    history: list[tuple[int, ...]] = []
    lines: list[Explanation] = []
    finished = False
    for number, hand in enumerate(hands, start=1):
        _check_hand(number, hand, players, finished)
        if not teams:
            _check_present(number, hand, eliminated)
        changes = hand.team_deltas if teams else hand.deltas
        if changes is None:
            raise InvalidHandRecordError(
                f"hand {number} was scored without partners; score it with the match's options"
            )
        for unit, change in enumerate(changes):
            if unit not in eliminated:
                points[unit] += change
        below = sorted(
            (unit for unit in range(len(points)) if points[unit] <= 0 and unit not in eliminated),
            key=points.__getitem__,
        )
        leaving = options.elimination and not teams
        for unit in below:
            name = f"the team of {seats_text((unit, unit + 2))}" if teams else player(unit)
            lines.append(Explanation(
                "okey.match_out", {"hand": number, "unit": unit, "points": points[unit], "leaves": leaving},
                f"After hand {number} {name} has {points[unit]}{' and leaves the match' if leaving else ''}.",
            ))
        history.append(_per_seat(points, players, teams))
        if leaving:
            eliminated += below
            finished = len(points) - len(eliminated) <= 1
        else:
            finished = bool(below)
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    if finished:
        leaving = options.elimination and not teams
        winners, losers = _okey_result(points, players, teams, eliminated, leaving)
        lines.append(_okey_match_over(winners, losers, _per_seat(points, players, teams), players, teams,
                                      leaving))
    return OkeyStandings(
        players=players,
        start_points=options.start_points,
        points=_per_seat(points, players, teams),
        team_points=(points[0], points[1]) if teams else None,
        history=tuple(history),
        eliminated=tuple(eliminated),
        hands_played=len(history),
        finished=finished,
        winners=winners,
        losers=losers,
        explain=tuple(lines),
    )


def _okey_match_over(
    winners: tuple[int, ...], losers: tuple[int, ...], totals: tuple[int, ...], players: int, teams: bool,
    elimination: bool,
) -> Explanation:
    """Who won and why, citing O6: the two highest (one with 2 or 3 players; more where players tie on the last
    winning place), the team still above 0, the last one left."""
    if teams:
        rule, why = "team", "somebody is at 0 or less, and the team still above 0 wins"
    elif elimination:
        rule = "last_left"
        why = ("only one player is left above 0 and wins" if totals[winners[0]] > 0
               else "nobody is left above 0, and the last to leave with the most points wins")
    elif (len(winners), len(losers)) != (max(1, players // 2),) * 2:  # a tie moved a winning or losing place
        rule, why = "tied", "somebody is at 0 or less, and the highest win, players tied on a place sharing it"
    elif len(winners) > 1:
        rule, why = "two_highest", "somebody is at 0 or less, and the two highest win"
    else:
        rule, why = "highest", "somebody is at 0 or less, and the highest wins"
    scored = ", ".join(f"{player(seat)} ({totals[seat]})" for seat in winners)
    return Explanation(
        "okey.match_over", {"winners": list(winners), "losers": list(losers), "totals": list(totals), "rule": rule},
        f"The match is over: {why} (O6): {scored}; {they(losers, 'lose')}.",
    )


def _okey_result(
    points: list[int], players: int, teams: bool, eliminated: list[int], elimination: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if teams:
        best = 0 if points[0] >= points[1] else 1
        return (best, best + 2), (1 - best, 3 - best)
    staying = sorted((s for s in range(players) if s not in eliminated), key=lambda s: -points[s])
    # Eliminated seats rank below everybody still playing, the last to leave highest.
    ranking = staying + eliminated[::-1]
    if elimination:
        # O6 settled reading: the one player left above 0 wins; everybody who left lost.  Should the last
        # ones all leave in the same hand, the highest of them wins (ties keep seat order).
        return (ranking[0],), tuple(ranking[1:])
    # O6: the two highest win (the highest with 2 or 3 players), the two lowest lose.  Players tied on the last
    # winning place share it, unless they are at 0 or less (the ones that ended the match); players tied on the last
    # losing place share that.  Nobody is placed by seat order.
    size = max(1, players // 2)

    def above(seat: int) -> int:
        return sum(points[other] > points[seat] for other in ranking)

    def below(seat: int) -> int:
        return sum(points[other] < points[seat] for other in ranking)

    def tied(seat: int) -> int:
        return sum(points[other] == points[seat] for other in ranking)

    winners = tuple(seat for seat in ranking
                    if above(seat) < size and (above(seat) + tied(seat) <= size or points[seat] > 0)) or (ranking[0],)
    return winners, tuple(seat for seat in ranking if below(seat) < size and seat not in winners)


def _per_seat(points: list[int], players: int, teams: bool) -> tuple[int, ...]:
    return tuple(points[team_of(seat)] for seat in range(players)) if teams else tuple(points)


def _check_players(players: int, partners: bool) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidHandRecordError(f"invalid players {players!r}: a match has 2, 3 or 4 players")
    if partners and players != 4:
        raise InvalidHandRecordError(f"partners need 4 players, the match has {players}")


def _check_hand(number: int, hand: OkeyHandScore | Okey101HandScore, players: int, finished: bool) -> None:
    if finished:
        raise InvalidHandRecordError(f"the match is already over before hand {number}; start a new match")
    if hand.players != players:
        raise InvalidHandRecordError(f"hand {number} has {hand.players} players, the match has {players}")


def _check_present(number: int, hand: OkeyHandScore, eliminated: list[int]) -> None:
    acting = ([] if hand.winner is None else [hand.winner]) + list(hand.gosterme)
    gone = [seat for seat in acting if seat in eliminated]
    if gone:
        raise InvalidHandRecordError(
            f"hand {number}: seat {gone[0]} was eliminated earlier and cannot win or show any more"
        )


@dataclass(frozen=True)
class LedgerEntry:
    """One H7 penalty on the sheet: ``hand`` is the 1-based number of the recorded hand."""

    hand: int
    seat: int
    reason: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat, "reason": self.reason, "points": self.points}


@dataclass(frozen=True)
class Okey101Standings:
    """The Okey 101 sheet (H8): running totals, the penalty ledger, the subtotal before the last hand.

    ``history`` holds the totals after every recorded hand; a void hand (H4) is replayed, so it is
    listed but not counted in ``hands_played``.  ``subtotal`` is the totals before the last hand, once
    ``options.hands - 1`` hands are played.  ``leaders`` have the lowest total (with partners: both seats
    of the lowest team); once ``finished`` they are the ``winners``.
    """

    players: int
    hands: int
    totals: tuple[int, ...]
    team_totals: tuple[int, int] | None
    history: tuple[tuple[int, ...], ...]
    ledger: tuple[LedgerEntry, ...]
    subtotal: tuple[int, ...] | None
    hands_played: int
    finished: bool
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    explain: tuple[Explanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


def okey101_standings(
    players: int, hands: Sequence[Okey101HandScore], options: Okey101Options, *,
    pending: Okey101HandScore | None = None,
) -> Okey101Standings:
    """Replay the Okey 101 hands: all ``options.hands`` hands are played and the lowest total wins.

    ``pending`` holds the +101 penalties (H7) of the hand being played: they are in the totals and the
    ledger at once, and the hand is not played yet.
    """
    if not isinstance(options, Okey101Options):
        raise InvalidOptionError(f"options {options!r} are not okey101 options; use options_for('okey101')")
    _check_players(players, options.partners)
    totals = [0] * players
    history: list[tuple[int, ...]] = []
    ledger: list[LedgerEntry] = []
    lines: list[Explanation] = []
    counted: list[tuple[int, ...]] = [(0,) * players]
    for number, hand in enumerate(hands, start=1):
        _check_hand(number, hand, players, len(counted) > options.hands)
        if hand.void:
            lines.append(Explanation("okey101.match_void", {"hand": number},
                                     f"Hand {number} was void: it is replayed and not counted."))
        else:
            totals = [total + score for total, score in zip(totals, hand.scores)]
            counted.append(tuple(totals))
            ledger += [LedgerEntry(number, p.seat, p.reason, p.points) for p in hand.penalty_entries]
        history.append(tuple(totals))
    played = len(counted) - 1
    if pending is not None:
        totals = [total + score for total, score in zip(totals, pending.scores)]
        ledger += [LedgerEntry(played + 1, p.seat, p.reason, p.points) for p in pending.penalty_entries]
    subtotal = counted[options.hands - 1] if played >= options.hands - 1 else None
    team_totals = (totals[0] + totals[2], totals[1] + totals[3]) if options.partners else None
    if team_totals is not None:
        best = min(team_totals)
        leaders = tuple(s for s in range(players) if team_totals[team_of(s)] == best)
    else:
        leaders = tuple(s for s in range(players) if totals[s] == min(totals))
    finished = played == options.hands
    if finished:
        shown = team_totals if team_totals is not None else totals
        scored = ", ".join(f"{player(seat)} ({shown[team_of(seat)] if team_totals else totals[seat]})"
                           for seat in leaders)
        lines.append(Explanation(
            "okey101.match_over", {"winners": list(leaders), "totals": [shown[team_of(seat)] for seat in range(players)]
                                   if team_totals else totals, "hands": options.hands},
            f"All {options.hands} hands are played and the lowest total wins (H8): {scored}.",
        ))
    return Okey101Standings(
        players=players,
        hands=options.hands,
        totals=tuple(totals),
        team_totals=team_totals,
        history=tuple(history),
        ledger=tuple(ledger),
        subtotal=subtotal,
        hands_played=played,
        finished=finished,
        leaders=leaders,
        winners=leaders if finished else (),
        explain=tuple(lines),
    )
