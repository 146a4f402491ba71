"""What the card rummies share beyond melds: the penalty sheet (M7, T7), the deal plan (M2, T1) and the
hand record's plumbing (its fields, what each player holds, what a card left in hand costs).

Standings are a pure function of the scored hands: lowest total wins; the match is a fixed number of
hands (``hands``, 0 = no fixed number) or ends when a player passes ``elimination_at`` (0 = off).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from companion.rules.cards import Card, Deck, cards_like, check_card_counts, format_cards
from companion.rules.errors import ImpossibleHandError, InvalidDealError, InvalidHandRecordError, RulesError
from companion.rules.explain import Explanation, details, player, result_dict, seats_text, texts, they

__all__ = ["CardStandings", "DealInstructions", "card_standings", "deal_instructions", "pass_deal"]

Direction = Literal["clockwise", "counterclockwise"]


class _Scored(Protocol):
    @property
    def players(self) -> int: ...

    @property
    def scores(self) -> tuple[int, ...]: ...


class _MatchOptions(Protocol):
    @property
    def hands(self) -> int: ...

    @property
    def elimination_at(self) -> int: ...


@dataclass(frozen=True)
class CardStandings:
    """The penalty sheet after the hands so far: ``totals`` per seat, ``history`` (totals after every
    hand), ``leaders`` (lowest total now) and, once ``finished``, the ``winners``; ``passed`` lists the
    seats over ``elimination_at``."""

    players: int
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    hands_played: int
    hands: int
    elimination_at: int
    passed: tuple[int, ...]
    finished: bool
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    explain: tuple[Explanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


def card_standings(
    game: str, rule: str, players: int, hands: Sequence[_Scored], options: _MatchOptions, allowed: Sequence[int]
) -> CardStandings:
    """Replay the hands of a penalty match (M7 / T7): add each hand's scores; the match ends after
    ``options.hands`` hands or as soon as a total passes ``options.elimination_at``; lowest total wins."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
        counts = ", ".join(str(n) for n in allowed)
        raise InvalidHandRecordError(f"invalid players {players!r}: {game} is played by {counts}")
    totals = [0] * players
    history: list[tuple[int, ...]] = []
    lines: list[Explanation] = []
    finished = False
    passed: tuple[int, ...] = ()
    for number, hand in enumerate(hands, start=1):
        if finished:
            raise InvalidHandRecordError(f"the match is already over before hand {number}; start a new match")
        if hand.players != players:
            raise InvalidHandRecordError(f"hand {number} has {hand.players} players, the match has {players}")
        totals = [total + score for total, score in zip(totals, hand.scores)]
        history.append(tuple(totals))
        if options.elimination_at:
            passed = tuple(seat for seat in range(players) if totals[seat] > options.elimination_at)
            if passed:
                finished = True
                lines.append(Explanation(
                    f"{game}.match_passed",
                    {"hand": number, "seats": list(passed), "limit": options.elimination_at},
                    f"After hand {number} {seats_text(passed)} passed {options.elimination_at} ({rule}): "
                    "the match is over.",
                ))
        if not finished and options.hands and number >= options.hands:
            finished = True
            lines.append(Explanation(
                f"{game}.match_hands", {"hands": options.hands},
                f"All {options.hands} hands are played ({rule}): the match is over.",
            ))
    best = min(totals)
    leaders = tuple(seat for seat in range(players) if totals[seat] == best)
    if finished:
        lines.append(Explanation(
            f"{game}.match_winners", {"winners": list(leaders), "total": best},
            f"{they(leaders, 'win').capitalize()} with the lowest total, {best}.",
        ))
    return CardStandings(
        players=players,
        totals=tuple(totals),
        history=tuple(history),
        hands_played=len(history),
        hands=options.hands,
        elimination_at=options.elimination_at,
        passed=passed,
        finished=finished,
        leaders=leaders,
        winners=leaders if finished else (),
        explain=tuple(lines),
    )


def pass_deal(dealer: int, seats: int, direction: Direction) -> int:
    """The next dealer: the next seat in the direction of play (seats are counter-clockwise, so clockwise
    play passes to ``dealer - 1``)."""
    return (dealer + (-1 if direction == "clockwise" else 1)) % seats


@dataclass(frozen=True)
class DealInstructions:
    """Who deals hand ``hand`` (1-based), how many cards, which way play goes, who starts, the deck.

    Seats are 0-based and counter-clockwise, as everywhere in the app: seat ``(i + 1) % n`` sits on seat
    ``i``'s right.  Play going clockwise passes to the left, to seat ``(i - 1) % n``.
    """

    players: int
    hand: int
    dealer: int
    starter: int
    cards_each: int
    direction: Direction
    deck: Deck
    explain: tuple[Explanation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "hand": self.hand,
            "dealer": self.dealer,
            "starter": self.starter,
            "cards_each": self.cards_each,
            "direction": self.direction,
            "deck": {"decks": self.deck.decks, "jokers": self.deck.jokers, "size": self.deck.size},
            "stock": self.deck.size - self.cards_each * self.players - 1,
            "explain": texts(self.explain),
            "explain_detail": details(self.explain),
        }


def deal_instructions(
    game: str, rule: str, *, players: int, hand: int, first_dealer: int, cards_each: int,
    direction: Direction, deck: Deck, dealer: int | None = None,
) -> DealInstructions:
    """The deal of hand ``hand``: the deal passes on in the direction of play each hand (``dealer``, when
    given, is this hand's dealer as the table counted it), and the next player in that direction after the
    dealer starts."""
    for name, value, low, high in (("players", players, 2, 6), ("hand", hand, 1, 10_000)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidDealError(f"invalid {name} {value!r}: use {low}-{high}")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < players:
        raise InvalidDealError(f"invalid dealer {first_dealer!r}: use a seat 0-{players - 1}")
    step = -1 if direction == "clockwise" else 1
    if dealer is None:
        dealer = (first_dealer + step * (hand - 1)) % players
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidDealError(f"invalid dealer {dealer!r}: use a seat 0-{players - 1}")
    starter = (dealer + step) % players
    side = "left" if direction == "clockwise" else "right"
    stock = deck.size - cards_each * players - 1
    lines = (
        Explanation(f"{game}.deal_deck", {"decks": deck.decks, "jokers": deck.jokers, "size": deck.size},
                    f"Shuffle {deck.describe()} ({rule})."),
        Explanation(f"{game}.deal_dealer", {"dealer": dealer, "hand": hand},
                    f"Hand {hand}: {player(dealer)} deals."),
        Explanation(f"{game}.deal_cards", {"cards": cards_each, "direction": direction},
                    f"Deal {cards_each} cards to each player, one at a time, going {direction}."),
        Explanation(f"{game}.deal_upcard", {"stock": stock},
                    f"Turn the next card face up to start the discard pile; the other {stock} cards are the stock."),
        Explanation(f"{game}.deal_starter", {"starter": starter, "side": side},
                    f"{player(starter).capitalize()}, on the dealer's {side}, starts; play goes {direction}."),
    )
    return DealInstructions(players, hand, dealer, starter, cards_each, direction, deck, lines)


MAX_TYPED_SUM = 2000
"""A typed hand value above this is a typing mistake."""


def check_fields(record: Any, allowed: Sequence[str], label: str) -> None:
    """Refuse a record that is not an object or has a field not in ``allowed``, naming it."""
    if not isinstance(record, Mapping):
        raise InvalidHandRecordError(f"{label} must be an object, not {record!r}")
    for name in record:
        if name not in allowed:
            close = difflib.get_close_matches(str(name), list(allowed), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; use only {', '.join(map(repr, allowed))}"
            raise InvalidHandRecordError(f"unknown field {name!r} in {label}{hint}")


def flag(record: Mapping[str, Any], name: str, label: str, *, default: bool | None = False) -> bool:
    """A true/false field; ``default`` ``None`` makes it required."""
    if name not in record:
        if default is None:
            raise InvalidHandRecordError(f"missing field {name!r} in {label}: use true or false")
        return default
    value = record[name]
    if not isinstance(value, bool):
        raise InvalidHandRecordError(f"invalid {name} {value!r} in {label}: use true or false")
    return value


def seat(value: Any, players: int, name: str) -> int:
    """A 0-based seat number below ``players``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidHandRecordError(
            f"invalid {name} {value!r}: use a seat number 0-{players - 1} (0 is player 1)"
        )
    return int(value)


def hand_cards(value: Any, label: str) -> tuple[Card, ...] | int:
    """What a player holds: cards (``"2C 3D"`` or a list of codes) or, typed at the table, their value."""
    if isinstance(value, bool):
        raise InvalidHandRecordError(f"invalid cards {value!r} for {label}: give the cards, e.g. '2C 3D *'")
    if isinstance(value, int):
        if not 0 <= value <= MAX_TYPED_SUM:
            raise InvalidHandRecordError(
                f"invalid value {value!r} for {label}: a typed hand value is a whole number 0-{MAX_TYPED_SUM}"
            )
        return value
    try:
        return cards_like(value)
    except RulesError as error:
        raise type(error)(f"{label}: {error}") from None


def held_cards(entry: Any, label: str, fields: Sequence[str]) -> tuple[Card, ...] | int:
    """A player's entry of a hand record (its only fields ``fields``): the ``cards`` they still hold."""
    check_fields(entry, fields, label)
    if "cards" not in entry:
        raise InvalidHandRecordError(f"missing field 'cards' for {label}: the cards left in hand, '' for none")
    return hand_cards(entry["cards"], label)


MOST_HELD = 14
"""M1/M2, T1/T3: the most cards a player holds — the 13 dealt and one drawn before the discard."""


def check_most_held(held: tuple[Card, ...] | int, label: str, rules: str, ends: str) -> None:
    """A hand record's player holds at most :data:`MOST_HELD` cards (a typed value is not counted); ``rules`` and
    ``ends`` say which rules and when, in the game's words."""
    if not isinstance(held, int) and len(held) > MOST_HELD:
        raise InvalidHandRecordError(
            f"{label} keeps {len(held)} cards ({format_cards(held)}), but a player holds at most {MOST_HELD} "
            f"(13 dealt + 1 drawn, {rules}) when the hand {ends}: give only the cards left in their hand, not those "
            "laid on the table")


def shown(held: tuple[Card, ...] | int) -> str:
    """What a player holds, as the record gave it: the cards, or the value typed at the table."""
    return str(held) if isinstance(held, int) else format_cards(held)


def check_finisher_empty(held: Sequence[tuple[Card, ...] | int], finisher: int | None) -> None:
    """The player who went out holds nothing (no cards, or a typed 0)."""
    if finisher is not None and held[finisher] not in ((), 0):
        raise InvalidHandRecordError(
            f"{player(finisher)} went out but still holds {shown(held[finisher])}; give '' for the finisher"
        )


def who(seat_number: int) -> str:
    """``Player 2``: a seat at the start of a sentence."""
    return player(seat_number).capitalize()


def card_penalty(card: Card, joker: int) -> int:
    """M7/T7: what a card left in hand costs: 2-10 face, J/Q/K 10, ace 11, a joker ``joker``.

    >>> [card_penalty(card, 20) for card in cards_like("2C 10D KH AS *")]
    [2, 10, 10, 11, 20]
    """
    if card.is_joker:
        return joker
    if card.rank == 1:
        return 11
    return min(card.rank, 10)


def penalty_terms(cards: Sequence[Card], values: Sequence[int]) -> str:
    """The sum's terms, the aces and jokers named: ``2 + 11 (ace) + 20 (joker)``; ``""`` for no cards."""
    return " + ".join(f"{value}{' (joker)' if card.is_joker else ' (ace)' if card.rank == 1 else ''}"
                      for card, value in zip(cards, values))


def players_list(record: Mapping[str, Any], allowed: Sequence[int], game: str) -> list[Any]:
    """The ``players`` list of a hand record, one entry per seat."""
    entries = record.get("players")
    if not isinstance(entries, list) or isinstance(entries, str):
        raise InvalidHandRecordError(
            f"missing or invalid 'players' {entries!r}: give a list with one entry per player"
        )
    if len(entries) not in allowed:
        counts = ", ".join(str(n) for n in allowed)
        raise InvalidHandRecordError(f"a {game} hand has {counts} players, this one has {len(entries)}")
    return entries


def check_deal_counts(holdings: Sequence[tuple[Card, ...] | int], deck: Deck, game: str) -> None:
    """Every player's cards together must fit in the deck (no third 7S with two decks)."""
    cards = [card for held in holdings if not isinstance(held, int) for card in held]
    try:
        check_card_counts(cards, deck)
    except ImpossibleHandError as error:
        raise ImpossibleHandError(f"{error} ({game} with this many players plays {deck.describe()})") from None
