"""Thai Rummy (Dummy, ดัมมี่ — "knock rummy"): melds, card values, the turn checks, hand scores and the
race to 500 (RULES.md §D, seed 003; the rule book is docs/rules.md).

One 52-card deck, no jokers, the ace high only (D1):

>>> check_meld("QS KS AS")
[QS, KS, AS] = 75
>>> check_meld("AS 2S 3S").reason
'illegal run: [AS, 2S, 3S] (the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not, D1)'
>>> check_meld("7C * 7H")
Traceback (most recent call last):
...
companion.rules.errors.InvalidCardError: invalid card '*': Thai Rummy plays one deck without jokers (D1); remove it

Laid cards count plus, cards in hand minus (D5: 2-9 = 5, 10-K = 10, A = 15, the speto 2C and QS = 50,
the knock card 50); a dark knock doubles the knocker, a player not yet born pays double (D6):

>>> score = score_thai_hand({"knocker": 0, "knock_card": "5H", "dark": False, "fed_by": None,
...     "players": [{"born": True, "laid": "QS KS AS", "hand": ""},
...                 {"born": False, "laid": "", "hand": "KH"}]})
>>> score.scores
(125, -20)
>>> score.explain[1]
Player 2 is not born when player 1 knocks (falling off the building, D6): keeps KH = 10 × 2 → -20.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, Literal

from companion.rules.cards import (
    ALL_CARDS,
    Card,
    CardsLike,
    Suit,
    cards_like,
    format_cards,
    parse_card,
)
from companion.rules.errors import (
    IllegalMeldError,
    ImpossibleHandError,
    InvalidCardError,
    InvalidHandRecordError,
    InvalidOptionError,
)
from companion.rules.explain import Explanation, details, player, texts

__all__ = [
    "ThaiOptions",
    "THAI_PROFILES",
    "DEAL_SIZES",
    "SPETO",
    "TARGET",
    "Direction",
    "ThaiMeld",
    "ThaiDeal",
    "PickupCheck",
    "KnockCheck",
    "ThaiHandScore",
    "ThaiStandings",
    "deal_size",
    "deal_thai",
    "thai_cards",
    "card_points",
    "knock_card_points",
    "is_speto",
    "check_meld",
    "check_melds",
    "can_lay_off",
    "layoff_cards",
    "check_pickup",
    "check_knock",
    "admit_thai_hand",
    "score_thai_hand",
    "thai_standings",
    "meld_answer",
]

# ----------------------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class ThaiOptions:
    """Thai Rummy (RULES.md §D): the reference rules of seed 003 and the options seen at Thai tables."""

    speto_points: int = 50
    """D5: what each speto (2C, QS) is worth, laid (plus) or in hand (minus)."""
    knock_card_points: int = 50
    """D5: what the card the knocker puts face down is worth to the knocker."""
    dark_knock_multiplier: int = 2
    """D6: a dark knock (น็อคมืด) multiplies the knocker's points."""
    not_born_multiplier: int = 2
    """D6: falling off the building (ตกตึก): a player not born when someone knocks pays this many times the cards in hand."""
    feeding_penalty: int = 50
    """D6: feeding (โง่): what the player who discarded the knocker's single picked-up card loses."""
    target: int = 500
    """D6: the first to reach this total wins the match."""
    speto_knock_card_points: int = 50
    """D6 (table option): the knock card when it is a speto — 50 like any knock card, 100 at many tables."""
    layoff_discard_penalty: int = 0
    """D6 (table option): lost for each discard that could have been laid off on a meld (0 = off; tables use 50)."""
    first_card_bonus: int = 0
    """D6 (table option): won by whoever melds the first up-card of the discard row (0 = off; tables use 50)."""
    first_card_speto_bonus: int = 0
    """D6 (table option): the bonus when that first up-card is a speto (tables use 100); never less than
    ``first_card_bonus``, so with that option alone a speto pays it too."""


THAI_PROFILES: dict[str, dict[str, Any]] = {
    "reference": {},
    "thai_table": {
        "speto_knock_card_points": 100,
        "layoff_discard_penalty": 50,
        "first_card_bonus": 50,
        "first_card_speto_bonus": 100,
    },
}
"""Named profiles: overrides of the defaults ("reference" is seed 003 as it stands)."""

DEAL_SIZES: dict[int, int] = {2: 11, 3: 9, 4: 7}
"""D1: cards dealt to each player, by the number of players."""

TARGET = 500
SPETO: frozenset[Card] = frozenset({Card(2, Suit.CLUBS), Card(12, Suit.SPADES)})
"""D5: the two speto (สเปโต) cards, 2C and QS."""

Direction = Literal["forward", "reverse"]
"""Which way play and the deal go round: ``forward`` is player 1 → 2 → 3 → 4, ``reverse`` the other way."""

_ACE_HIGH = 14


def _check_options(options: ThaiOptions | None) -> ThaiOptions:
    if options is None:
        return ThaiOptions()
    if not isinstance(options, ThaiOptions):
        raise InvalidOptionError(f"options {options!r} are not thai options; use options_for('thai')")
    return options


# ------------------------------------------------------------------------------------------ cards, values


def thai_cards(value: CardsLike, *, where: str = "") -> tuple[Card, ...]:
    """Parse ``value`` as Thai Rummy cards: one deck, so no joker and no card twice (D1).

    >>> thai_cards("qs, ks as")
    (QS, KS, AS)
    >>> thai_cards("7S 7S")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible cards: 7S twice, but Thai Rummy plays one deck (D1)
    """
    cards = cards_like(value)
    suffix = f" in {where}" if where else ""
    for card in cards:
        if card.is_joker:
            raise InvalidCardError(
                f"invalid card '*'{suffix}: Thai Rummy plays one deck without jokers (D1); remove it"
            )
    _check_distinct(cards, suffix)
    return cards


def _check_distinct(cards: Sequence[Card], suffix: str = "") -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ImpossibleHandError(f"impossible cards{suffix}: {card.code} twice, but Thai Rummy plays one deck (D1)")
        seen.add(card)


def is_speto(card: Card) -> bool:
    """D5: 2C and QS are the speto cards."""
    return card in SPETO


def card_points(card: Card, options: ThaiOptions | None = None) -> int:
    """D5: 2-9 are worth 5, 10 J Q K 10, A 15, a speto 50 — laid on the table or left in hand.

    >>> [card_points(parse_card(c)) for c in ("9D", "10D", "KD", "AD", "2C", "QS", "QH")]
    [5, 10, 10, 15, 50, 50, 10]
    """
    options = _check_options(options)
    if is_speto(card):
        return options.speto_points
    if card.rank == 1:
        return 15
    return 10 if card.rank >= 10 else 5


def knock_card_points(card: Card, options: ThaiOptions | None = None) -> int:
    """D5: the knock card is worth 50 whatever it is (a speto: ``speto_knock_card_points``)."""
    options = _check_options(options)
    return options.speto_knock_card_points if is_speto(card) else options.knock_card_points


def _points(cards: Iterable[Card], options: ThaiOptions) -> int:
    return sum(card_points(card, options) for card in cards)


def _sum_text(cards: Sequence[Card], options: ThaiOptions, *, empty: str = "nothing = 0") -> str:
    """``QS KS AS = 50 + 10 + 15 = 75``; ``KH = 10``; ``nothing = 0``.  The same without words (``empty="0"``)
    is the ``*_sum`` param of the explanations, which the web layer puts into translated sentences."""
    if not cards:
        return empty
    values = [card_points(card, options) for card in cards]
    if len(values) == 1:
        return f"{format_cards(cards)} = {values[0]}"
    return f"{format_cards(cards)} = {' + '.join(map(str, values))} = {sum(values)}"


def _high(card: Card) -> int:
    return _ACE_HIGH if card.rank == 1 else card.rank


# ------------------------------------------------------------------------------------------------- melds


@dataclass(frozen=True)
class ThaiMeld:
    """A meld verdict: ``kind`` is ``set``/``run`` when valid, ``value`` the laid points (D5), ``reason`` why."""

    cards: tuple[Card, ...]
    valid: bool
    kind: Literal["set", "run"] | None
    value: int
    reason: str

    def __repr__(self) -> str:
        shown = "[" + ", ".join(card.code for card in self.cards) + "]"
        return f"{shown} = {self.value}" if self.valid else f"{shown}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": [card.code for card in self.cards],
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value,
            "reason": self.reason,
        }


def _meld_kind(cards: Sequence[Card]) -> tuple[Literal["set", "run"] | None, str]:
    """The kind of a meld of distinct, joker-free cards, or ``None`` and why not."""
    shown = "[" + ", ".join(card.code for card in cards) + "]"
    if len(cards) < 3:
        return None, f"too few cards: {shown} (a meld needs at least 3 cards, D2)"
    ranks = {card.rank for card in cards}
    suits = {card.suit for card in cards}
    if len(ranks) == 1:
        return "set", "legal set worth {value}"
    if len(suits) > 1:
        return None, f"illegal meld: {shown} (a set is one rank, a run one suit in sequence, D2)"
    highs = sorted(_high(card) for card in cards)
    if highs == list(range(highs[0], highs[0] + len(highs))):
        return "run", "legal run worth {value}"
    lows = sorted(card.rank for card in cards)
    if 1 in ranks and (lows == list(range(1, 1 + len(lows))) or {13, 2} <= ranks):
        return None, f"illegal run: {shown} (the ace is high only: Q-K-A is a run, A-2-3 and K-A-2 are not, D1)"
    return None, f"illegal run: {shown} (the ranks must follow each other: 2 3 4 … 10 J Q K A, D2)"


def check_meld(cards: CardsLike, options: ThaiOptions | None = None) -> ThaiMeld:
    """Referee one meld (D2): a set of 3-4 cards of a rank, or a run of 3+ cards of a suit, ace high only.

    The cards may be given in any order (a run is read by rank).

    >>> check_meld("10H JH QH KH").value, check_meld("7C 7D 7H").kind
    (40, 'set')
    >>> check_meld("KS AS 2S").valid
    False
    """
    options = _check_options(options)
    shown = thai_cards(cards)
    kind, reason = _meld_kind(shown)
    value = _points(shown, options) if kind else 0
    ordered = tuple(sorted(shown, key=_high)) if kind == "run" else shown
    return ThaiMeld(ordered if kind else shown, kind is not None, kind, value, reason.format(value=value))


def check_melds(text: str, options: ThaiOptions | None = None) -> tuple[ThaiMeld, ...]:
    """Referee melds as they lie on the table, separated by ``|``; no card may appear twice (D1).

    >>> check_melds("7C 7D 7H | 4D 5D 6D")
    ([7C, 7D, 7H] = 15, [4D, 5D, 6D] = 15)
    """
    options = _check_options(options)
    if not isinstance(text, str):
        raise InvalidCardError(f"invalid melds {text!r}: expected text such as '7C 7D 7H | 4D 5D 6D'")
    groups = [group for group in text.split("|") if group.strip()]
    if not groups:
        raise IllegalMeldError(f"no cards in {text!r}: write a meld such as '7C 7D 7H'")
    thai_cards(" ".join(groups))
    return tuple(check_meld(group, options) for group in groups)


def meld_answer(cards: str, options: ThaiOptions | None = None) -> dict[str, Any]:
    """The batch answer of ``{"op":"meld","game":"thai","cards":…}``: ``{"valid","value","reason"}``.

    Several melds separated by ``|`` are all checked; ``value`` is then their total.

    >>> meld_answer("QS KS AS")
    {'valid': True, 'value': 75, 'reason': 'legal run worth 75', 'melds': [['QS', 'KS', 'AS']]}
    """
    melds = check_melds(cards, options)
    valid = all(meld.valid for meld in melds)
    if len(melds) == 1:
        reason = melds[0].reason
    elif valid:
        reason = f"{len(melds)} legal melds worth {sum(m.value for m in melds)}"
    else:
        reason = "; ".join(meld.reason for meld in melds if not meld.valid)
    return {
        "valid": valid,
        "value": sum(meld.value for meld in melds) if valid else 0,
        "reason": reason,
        "melds": [[card.code for card in meld.cards] for meld in melds],
    }


def _is_meld(cards: Sequence[Card]) -> bool:
    return _meld_kind(cards)[0] is not None


# ------------------------------------------------------------------------------------- the turn (D2-D4)


def _table(melds: Sequence[CardsLike] | str) -> tuple[tuple[Card, ...], ...]:
    if isinstance(melds, str):
        groups: Sequence[CardsLike] = [group for group in melds.split("|") if group.strip()]
    elif isinstance(melds, (list, tuple)):
        groups = melds
    else:
        raise InvalidCardError(f"invalid table {melds!r}: give the melds on the table as text such as "
                               "'JH QH KH | 7C 7D 7H', separated by |")
    table = tuple(thai_cards(group) for group in groups)
    _check_distinct([card for meld in table for card in meld], " on the table")
    for meld in table:
        kind, reason = _meld_kind(meld)
        if kind is None:
            raise IllegalMeldError(f"the table holds an illegal meld — {reason}; write each meld on the table in "
                                   "full, separated by |")
    return table


def can_lay_off(card: CardsLike, meld: CardsLike) -> bool:
    """D3: can these cards (one or more, ฝาก) be added to ``meld`` on the table?

    >>> can_lay_off("JH", "8H 9H 10H"), can_lay_off("7S", "7C 7D 7H"), can_lay_off("2H", "QH KH AH")
    (True, True, False)
    """
    added = thai_cards(card) if not isinstance(card, Card) else (card,)
    laid = thai_cards(meld)
    if not _is_meld(laid):
        raise IllegalMeldError(f"{format_cards(laid)!r} is not a meld (D2)")
    together = (*laid, *added)
    _check_distinct(together)
    return _is_meld(together)


def layoff_cards(hand: CardsLike, table: Sequence[CardsLike] | str) -> tuple[Card, ...]:
    """The cards of ``hand`` that could be laid off, one at a time, on a meld of ``table`` (D3).

    With the option ``layoff_discard_penalty`` discarding one of them costs points (D6).

    >>> layoff_cards("JH 2S 7S", "8H 9H 10H | 7C 7D 7H")
    (JH, 7S)
    """
    cards = thai_cards(hand, where="the hand")
    melds = _table(table)
    _check_distinct([*cards, *(c for meld in melds for c in meld)])
    return tuple(card for card in cards if any(_is_meld((*meld, card)) for meld in melds))


@dataclass(frozen=True)
class PickupCheck:
    """D2/D3: picking up from the discard row.  ``taken`` is the chosen card and every card after it;
    ``melds`` the ways to meld the chosen card at once with the hand and the other taken cards, ``layoffs``
    the table melds it could be laid off on (once born)."""

    legal: bool
    taken: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, ...], ...]
    born_now: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "taken": [c.code for c in self.taken],
            "melds": [[c.code for c in meld] for meld in self.melds],
            "layoffs": [[c.code for c in meld] for meld in self.layoffs],
            "born_now": self.born_now,
            "reason": self.reason,
        }


def check_pickup(
    row: CardsLike,
    card: CardsLike,
    hand: CardsLike,
    *,
    born: bool,
    table: Sequence[CardsLike] | str = (),
) -> PickupCheck:
    """D2: may a player pick ``card`` up from the discard ``row``?  They take it and every card discarded
    after it, and must meld the chosen card at once — in a new meld with cards from the hand (or the other
    taken cards), or, once born, laid off on a meld of the ``table``.  A first pick-up meld makes the
    player born (D3).

    >>> check = check_pickup("3D 9S 7H KC", "9S", "9H 9D 2C", born=False)
    >>> check.legal, check.taken, check.melds, check.born_now
    (True, (9S, 7H, KC), ((9S, 9H, 9D),), True)
    >>> check_pickup("3D 9S 7H", "7H", "2C 5S", born=False).reason
    'the chosen card 7H cannot be melded at once with the hand (D2): take it only to meld it'
    """
    discards = thai_cards(row, where="the discard row")
    picked = thai_cards(card, where="the chosen card")
    if len(picked) != 1:
        raise InvalidCardError(f"invalid chosen card {card!r}: give one card of the row, e.g. '9S'")
    chosen = picked[0]
    if chosen not in discards:
        raise InvalidHandRecordError(
            f"{chosen.code} is not in the discard row {format_cards(discards)!r}: pick a card that lies there"
        )
    cards = thai_cards(hand, where="the hand")
    melds_on_table = _table(table)
    _check_distinct([*discards, *cards, *(c for meld in melds_on_table for c in meld)])
    taken = discards[discards.index(chosen):]
    new_melds = _melds_with(chosen, frozenset((*cards, *taken)) - {chosen})
    layoffs = tuple(meld for meld in melds_on_table if born and _is_meld((*meld, chosen)))
    legal = bool(new_melds or layoffs)
    if legal:
        reason = f"legal: take {format_cards(taken)} and meld {chosen.code} at once (D2)"
        if not born and new_melds:
            reason += "; laying that meld makes the player born (D3)"
    else:
        reason = f"the chosen card {chosen.code} cannot be melded at once with the hand (D2): take it only to meld it"
    return PickupCheck(legal, taken, new_melds, layoffs, legal and not born and bool(new_melds), reason)


def _melds_with(card: Card, pool: frozenset[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every meld made of ``card`` and cards of ``pool``: sets of its rank, runs of its suit through it."""
    same_rank = sorted((c for c in pool if c.rank == card.rank), key=lambda c: c.index)
    found: list[tuple[Card, ...]] = [
        (card, *others) for size in (2, 3) for others in combinations(same_rank, size)
    ]
    by_high = {_high(c): c for c in pool if c.suit == card.suit}
    by_high[_high(card)] = card
    low = _high(card)
    while low - 1 in by_high:
        low -= 1
    high = _high(card)
    while high + 1 in by_high:
        high += 1
    for start in range(low, _high(card) + 1):
        for end in range(max(_high(card), start + 2), high + 1):
            found.append(tuple(by_high[h] for h in range(start, end + 1)))
    return tuple(sorted(found, key=len))


@dataclass(frozen=True)
class KnockCheck:
    """D4: can the player knock?  ``knock_cards`` are the cards that may be put face down, the best for the
    knocker first (every other card then counts laid, the knock card its knock value, D5/D6); for the first of
    them, ``melds`` are the new melds and ``layoffs`` the cards laid off per table meld (index, cards)."""

    knocks: bool
    knock_cards: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "knocks": self.knocks,
            "knock_cards": [c.code for c in self.knock_cards],
            "melds": [[c.code for c in meld] for meld in self.melds],
            "layoffs": [{"meld": index, "cards": [c.code for c in cards]} for index, cards in self.layoffs],
            "reason": self.reason,
        }


def _extensions(meld: tuple[Card, ...], pool: frozenset[Card]) -> list[frozenset[Card]]:
    """Every set of ``pool`` cards that can be laid off on ``meld`` together (the empty set included)."""
    found = [frozenset[Card]()]
    if _meld_kind(meld)[0] == "set":
        for card in sorted(pool, key=lambda c: c.index):
            if _is_meld((*meld, card)):
                found.append(frozenset({card}))
        return found
    suit = meld[0].suit
    highs = sorted(_high(c) for c in meld)
    by_high = {_high(c): c for c in pool if c.suit == suit}
    below: list[list[Card]] = [[]]
    high = highs[0] - 1
    while high in by_high:
        below.append([*below[-1], by_high[high]])
        high -= 1
    above: list[list[Card]] = [[]]
    high = highs[-1] + 1
    while high in by_high:
        above.append([*above[-1], by_high[high]])
        high += 1
    return [frozenset(lo + hi) for lo, hi in product(below, above)]


def _opening_melds(first: Card, rest: frozenset[Card]) -> list[tuple[Card, ...]]:
    """The melds ``first`` can open when the hand is divided into melds, in the order they are tried: sets
    with cards of its rank, then runs upwards from it (it is the lowest card of its suit that is left)."""
    same_rank = sorted((c for c in rest if c.rank == first.rank), key=lambda c: c.index)
    candidates: list[tuple[Card, ...]] = [
        (first, *others) for size in (2, 3) for others in combinations(same_rank, size)
    ]
    run = [first]
    high = _high(first) + 1
    while True:
        nxt = next((c for c in rest if c.suit == first.suit and _high(c) == high), None)
        if nxt is None:
            break
        run.append(nxt)
        if len(run) >= 3:
            candidates.append(tuple(run))
        high += 1
    return candidates


def _laid_order(meld: Sequence[Card]) -> tuple[Card, ...]:
    """A meld as it is laid out: a run by rank (ace high), a set by suit (S H D C)."""
    if len({c.rank for c in meld}) == 1:
        return tuple(sorted(meld, key=lambda c: c.index))
    return tuple(sorted(meld, key=_high))


def check_knock(
    hand: CardsLike, table: Sequence[CardsLike] | str = (), options: ThaiOptions | None = None
) -> KnockCheck:
    """D4: after drawing or picking up, can every card of ``hand`` but one be melded or laid off on the
    ``table``?  Then the player knocks with the last card face down.

    ``knock_cards`` come best first for the knocker under ``options`` (D5: every other card counts laid, the
    knock card its knock value): the lowest card, but a speto when ``speto_knock_card_points`` makes it pay more.

    >>> check = check_knock("8H 9H 10H 7C 7D 7H 5S", "JH QH KH")
    >>> check.knocks, check.knock_cards
    (True, (5S,))
    >>> check_knock("8H 9H 10H 7C 7D 7H 5S 6D").knocks
    False
    >>> check_knock("9S 10S JS QS 5H 5D 5C 5S", options=ThaiOptions(speto_knock_card_points=100)).knock_cards[0]
    QS
    """
    options = _check_options(options)
    cards = thai_cards(hand, where="the hand")
    melds_on_table = _table(table)
    _check_distinct([*cards, *(c for meld in melds_on_table for c in meld)])
    if not cards:
        raise ImpossibleHandError("an empty hand cannot knock: give the cards held after drawing")
    search = _KnockSearch(melds_on_table)
    knock_cards: list[Card] = []
    first_plan: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[int, tuple[Card, ...]], ...]] | None = None
    # The knocker scores every other card laid plus the knock card's own value: the best knock card costs the
    # least laid (card_points) for the most as the knock card (knock_card_points).
    for knock in sorted(cards, key=lambda c: (card_points(c, options) - knock_card_points(c, options), c.index)):
        rest = frozenset(cards) - {knock}
        if first_plan is not None:
            if search.covers(rest):
                knock_cards.append(knock)
            continue
        plan = search.plan(rest)
        if plan is not None:
            knock_cards.append(knock)
            first_plan = plan
    if first_plan is None:
        return KnockCheck(False, (), (), (), "no knock: the cards cannot all be melded or laid off but one (D4)")
    melds, layoffs = first_plan
    reason = f"knock: meld or lay off everything and put {knock_cards[0].code} face down (D4)"
    return KnockCheck(True, tuple(knock_cards), melds, layoffs, reason)


def _bit(card: Card) -> int:
    """A card as a bit of a 52-bit mask: 13 bits per suit (S H D C), by rank 2 3 … K A (the ace high, D1), so
    a run is a row of neighbouring bits and the lowest bit of a mask is the lowest card of the first suit."""
    return _SUIT_BLOCK[card.suit] * 13 + _high(card) - 2


_SUIT_BLOCK: dict[Suit | None, int] = {suit: number for number, suit in enumerate(Suit)}
_ALL = (1 << 52) - 1
_NOT_TOP = sum(1 << bit for bit in range(52) if bit % 13 != 12)
"""The bits with a higher card of the same suit (every rank but the ace)."""
_NOT_BOTTOM = sum(1 << bit for bit in range(52) if bit % 13)
"""The bits with a lower card of the same suit (every rank but the 2)."""


def _mask(cards: Iterable[Card]) -> int:
    found = 0
    for card in cards:
        found |= 1 << _bit(card)
    return found


def _chain(start: int, step: int, pool: int) -> list[int]:
    """The bits ``start``, ``start + step`` … while they are in ``pool`` and in the suit of ``start - step``:
    the cards that extend a run at one end, nearest first."""
    found: list[int] = []
    block = (start - step) // 13
    bit = start
    while 0 <= bit < 52 and bit // 13 == block and pool >> bit & 1:
        found.append(bit)
        bit += step
    return found


class _KnockSearch:
    """D4: can a hand be laid out as new melds plus lay-offs — at most one group of cards per meld of the table
    (the same choice :func:`_extensions` lists)?  Every card must go somewhere, so the lowest card left (by
    suit, then rank) is always placed first: in a set of its rank, in a run upwards from it (nothing lower of
    its suit is left), or laid off on a table meld it extends.  What is left and which table melds are still
    free decide the rest, so each such position is worked out once (masks of bits, :func:`_bit`)."""

    def __init__(self, table: tuple[tuple[Card, ...], ...]) -> None:
        self.table = table
        self.missing: list[int | None] = []
        """Per table meld: the bit a three-card set still takes (None: a run, or a closed four-card set)."""
        self.ends: list[tuple[int, int] | None] = []
        """Per table meld: a run's lowest and highest bit (None: a set)."""
        for meld in table:
            if _meld_kind(meld)[0] == "set":
                self.ends.append(None)
                suits = {card.suit for card in meld}
                spare = [Card(meld[0].rank, suit) for suit in Suit if suit not in suits]
                self.missing.append(_bit(spare[0]) if len(meld) == 3 else None)
            else:
                bits = sorted(_bit(card) for card in meld)
                self.ends.append((bits[0], bits[-1]))
                self.missing.append(None)
        self.touching: list[int] = []
        """Per table meld: the bits a lay-off on it must hold one of (a run's neighbours, a set's missing card)."""
        for missing, ends in zip(self.missing, self.ends):
            touching = 0 if missing is None else 1 << missing
            if ends is not None:
                lowest, highest = ends
                if lowest % 13:  # not from the 2 up: the card below can be laid off
                    touching |= 1 << (lowest - 1)
                if highest % 13 != 12:  # not up to the ace: the card above can be laid off
                    touching |= 1 << (highest + 1)
            self.touching.append(touching)
        self.memo: dict[tuple[int, int], bool] = {}

    def covers(self, cards: frozenset[Card]) -> bool:
        """Can every card be melded or laid off (each table meld taking at most one group)?"""
        return self._covers(_mask(cards), (1 << len(self.table)) - 1)

    def plan(
        self, cards: frozenset[Card]
    ) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[int, tuple[Card, ...]], ...]] | None:
        """The lay-offs and new melds for ``cards``: of all the ways, the first in the order of trying each table
        meld's lay-offs (:func:`_extensions`, the first meld's choices varying slowest), the rest divided into
        melds by :meth:`_split`; ``None`` when there is no way."""
        full = (1 << len(self.table)) - 1
        remaining = _mask(cards)
        if not self._covers(remaining, full):
            return None
        left = cards
        choice: list[frozenset[Card]] = []
        for index, meld in enumerate(self.table):
            later = full & ~((2 << index) - 1)
            for extension in _extensions(meld, cards):
                bits = _mask(extension)
                if remaining & bits == bits and self._covers(remaining & ~bits, later):
                    break
            else:  # pragma: no cover - the empty lay-off is always tried, and the position was coverable
                raise AssertionError(f"no lay-off on table meld {index} although the hand can be laid out")
            choice.append(extension)
            remaining &= ~bits
            left = left - extension
        melds = tuple(_laid_order(meld) for meld in self._split(left))
        layoffs = tuple((index, tuple(sorted(ext, key=_high))) for index, ext in enumerate(choice) if ext)
        return melds, layoffs

    def _split(self, cards: frozenset[Card]) -> list[tuple[Card, ...]]:
        """Divide ``cards`` (which can be) into melds: the lowest card (by suit, then rank) opens the first of
        :func:`_opening_melds` after which the rest can still be divided, and so on."""
        melds: list[tuple[Card, ...]] = []
        left = cards
        while left:
            first = min(left, key=lambda c: (c.index // 13, _high(c)))
            for meld in _opening_melds(first, left - {first}):
                if self._covers(_mask(left) & ~_mask(meld), 0):
                    break
            else:  # pragma: no cover - only cards that can be divided are given
                raise AssertionError(f"{format_cards(tuple(left))} cannot be divided into melds")
            melds.append(meld)
            left = left - set(meld)
        return melds

    def _covers(self, remaining: int, free: int) -> bool:
        """Can the cards of ``remaining`` all be melded or laid off, on the table melds whose bits are in ``free``?"""
        if not remaining:
            return True
        # A table meld none of whose neighbours is left can take nothing more: forget it, so that positions
        # differing only in such melds are worked out once.
        for index, touching in enumerate(self.touching):
            if not remaining & touching:
                free &= ~(1 << index)
        key = (remaining, free)
        known = self.memo.get(key)
        if known is None:
            known = not self._stranded(remaining, free) and any(
                self._covers(remaining & ~piece, free & ~used) for piece, used in self._pieces(remaining, free))
            self.memo[key] = known
        return known

    def _stranded(self, remaining: int, free: int) -> bool:
        """Is a card left that nothing can take: no two more of its rank, no neighbours for a run, no free table
        meld it would extend?  (A quick no, before trying the ways to place the lowest card.)"""
        after = (remaining >> 1) & _NOT_TOP
        before = (remaining << 1) & _NOT_BOTTOM
        runs = (before & (before << 1) & _NOT_BOTTOM) | (before & after) | (after & (after >> 1) & _NOT_TOP)
        one = ((remaining << 13) | (remaining >> 39)) & _ALL  # the same rank in the other three suits
        two = ((remaining << 26) | (remaining >> 26)) & _ALL
        three = ((remaining << 39) | (remaining >> 13)) & _ALL
        sets = (one & two) | (one & three) | (two & three)
        alone = remaining & ~runs & ~sets
        if not alone:
            return False
        for index in range(len(self.table)):
            if free >> index & 1:
                missing, ends = self.missing[index], self.ends[index]
                if missing is not None:
                    alone &= ~(1 << missing)
                elif ends is not None:
                    for bit in (*_chain(ends[0] - 1, -1, remaining), *_chain(ends[1] + 1, 1, remaining)):
                        alone &= ~(1 << bit)
        return bool(alone)

    def _pieces(self, remaining: int, free: int) -> Iterable[tuple[int, int]]:
        """The ways to place the lowest card left: (its group's bits, the table meld it takes as a bit or 0)."""
        low = remaining & -remaining
        bit = low.bit_length() - 1
        suit, place = divmod(bit, 13)
        same = [1 << (other * 13 + place) for other in range(4)
                if other != suit and remaining >> (other * 13 + place) & 1]
        for size in (2, 3):
            for others in combinations(same, size):
                yield low | sum(others), 0
        run = low
        for number, nxt in enumerate(_chain(bit + 1, 1, remaining), start=2):
            run |= 1 << nxt
            if number >= 3:
                yield run, 0
        for index in range(len(self.table)):
            taken = 1 << index
            if not free & taken:
                continue
            missing, ends = self.missing[index], self.ends[index]
            if missing is not None:
                if missing == bit:
                    yield low, taken
                continue
            if ends is None or ends[0] // 13 != suit:
                continue
            lowest, highest = ends
            below = _chain(lowest - 1, -1, remaining)
            above = _chain(highest + 1, 1, remaining)
            if below and below[-1] == bit:  # the card and everything up to the run's low end
                group = sum(1 << b for b in below)
                yield group, taken
                for b in above:
                    group |= 1 << b
                    yield group, taken
            elif above and above[0] == bit:  # the card right above the run's high end, and what follows
                group = 0
                for b in above:
                    group |= 1 << b
                    yield group, taken


# -------------------------------------------------------------------------------------------------- deal


def deal_size(players: int) -> int:
    """D1: 2 players get 11 cards, 3 players 9, 4 players 7."""
    if isinstance(players, bool) or players not in DEAL_SIZES:
        raise InvalidHandRecordError(f"invalid players {players!r}: Thai Rummy is played by 2, 3 or 4")
    return DEAL_SIZES[players]


@dataclass(frozen=True)
class ThaiDeal:
    """D1: the hands dealt, the first up-card of the discard row and the stock (top card first)."""

    hands: tuple[tuple[Card, ...], ...]
    up_card: Card
    stock: tuple[Card, ...]


def deal_thai(players: int, rng: random.Random) -> ThaiDeal:
    """Shuffle one 52-card deck with ``rng`` and deal (D1).

    >>> deal = deal_thai(3, random.Random(1))
    >>> [len(h) for h in deal.hands], len(deal.stock)
    ([9, 9, 9], 24)
    """
    size = deal_size(players)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    hands = tuple(tuple(deck[seat * size:(seat + 1) * size]) for seat in range(players))
    up = deck[players * size]
    return ThaiDeal(hands, up, tuple(deck[players * size + 1:]))


# ------------------------------------------------------------------------------------------ hand scoring

_HAND_FIELDS = ("knocker", "knock_card", "dark", "fed_by", "players", "first_card", "first_card_by")
_PLAYER_FIELDS = ("born", "laid", "hand", "layoff_discards")


@dataclass(frozen=True)
class ThaiHandScore:
    """One Thai Rummy hand: ``scores`` per seat (points won, negative when lost), with the reasons.

    ``laid_points``/``hand_points`` are the D5 sums of each seat's laid cards and cards in hand;
    ``knocker`` is ``None`` when the stock ran out; ``fed_by`` the seat that fed the knocker (D6).
    """

    players: int
    knocker: int | None
    knock_card: Card | None
    dark: bool
    fed_by: int | None
    laid_points: tuple[int, ...]
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    explain: tuple[Explanation, ...]
    per_seat: tuple[tuple[Explanation, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "knocker": self.knocker,
            "knock_card": None if self.knock_card is None else self.knock_card.code,
            "dark": self.dark,
            "fed_by": self.fed_by,
            "scores": list(self.scores),
            "laid_points": list(self.laid_points),
            "hand_points": list(self.hand_points),
            "explain": texts(self.explain),
            "explain_detail": details(self.explain),
            "per_seat": [texts(lines) for lines in self.per_seat],
        }


def _fields(record: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    for name in record:
        if name not in allowed:
            close = difflib.get_close_matches(str(name), allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; the fields are {', '.join(allowed)}"
            raise InvalidHandRecordError(f"unknown field {name!r} in {what}{hint}")


def _seat_value(value: Any, players: int, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidHandRecordError(
            f"invalid {name} {value!r}: give a seat 0-{players - 1} (0 is player 1), or null"
        )
    return int(value)


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidHandRecordError(f"invalid {name} {value!r}: use true or false")
    return value


def _cards_field(value: Any, name: str) -> tuple[Card, ...]:
    if value is None:
        return ()
    if not isinstance(value, (str, list, tuple)):
        raise InvalidHandRecordError(f"invalid {name} {value!r}: give the cards as text, e.g. 'QS KS AS'")
    return thai_cards(value, where=name)


@dataclass(frozen=True)
class _Seat:
    born: bool
    laid: tuple[Card, ...]
    hand: tuple[Card, ...]
    layoff_discards: int


def _read_players(value: Any, options: ThaiOptions) -> list[_Seat]:
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise InvalidHandRecordError(
            f"invalid players {value!r}: give a list of 2-4 players, e.g. "
            '[{"born": true, "laid": "QS KS AS", "hand": ""}, {"born": false, "laid": "", "hand": "KH"}]'
        )
    seats: list[_Seat] = []
    for seat, entry in enumerate(value):
        who = player(seat)
        if not isinstance(entry, Mapping):
            raise InvalidHandRecordError(
                f"invalid {who} {entry!r}: give an object such as "
                '{"born": true, "laid": "7C 7D 7H", "hand": "KH"}'
            )
        _fields(entry, _PLAYER_FIELDS, who)
        laid = _cards_field(entry.get("laid"), f"{who}'s laid cards")
        hand = _cards_field(entry.get("hand"), f"{who}'s hand")
        born = _flag(entry["born"], f"born of {who}") if "born" in entry else None
        discards = entry.get("layoff_discards", 0)
        if isinstance(discards, bool) or not isinstance(discards, int) or not 0 <= discards <= 50:
            raise InvalidHandRecordError(
                f"invalid layoff_discards {discards!r} of {who}: give how many times they discarded a card "
                "that could have been laid off (0-50)"
            )
        if discards and not options.layoff_discard_penalty:
            raise InvalidHandRecordError(
                f"{who} has layoff_discards {discards}, but the table does not count them: turn on the option "
                "layoff_discard_penalty (D6) or leave the field out"
            )
        seats.append(_Seat(bool(laid) if born is None else born, laid, hand, discards))
    return seats


def _check_born(seat: int, entry: _Seat, knocker: int | None) -> None:
    who = player(seat).capitalize()
    if seat == knocker:
        return
    if not entry.born and entry.laid:
        raise InvalidHandRecordError(
            f"{who} is not born but has laid {format_cards(entry.laid)!r}: only a born player lays cards (D3); "
            'set "born": true or move the cards to "hand"'
        )
    if entry.born and not entry.laid:
        raise InvalidHandRecordError(
            f'{who} is born but has laid nothing: a player is born by laying a meld (D3); give "laid" '
            'or set "born": false'
        )


def score_thai_hand(hand: Mapping[str, Any], options: ThaiOptions | None = None) -> ThaiHandScore:
    """Score one recorded hand (D4-D6).  The record, as the batch interface and the API send it::

        {"knocker": 0 | null, "knock_card": "5H", "dark": false, "fed_by": null,
         "players": [{"born": true, "laid": "QS KS AS", "hand": ""}, {"born": false, "laid": "", "hand": "KH"}],
         "first_card": "7H", "first_card_by": 1}

    ``knocker: null`` means the stock ran out (no knock card, nobody dark or fed).  ``laid`` holds every
    card the player laid face up (melds and lay-offs, ``|`` may separate melds), ``hand`` the cards left in
    hand; the knocker's hand is empty and the knock card is separate.  ``born`` may be left out: a player
    who laid cards is born (for the knocker: not born means a dark knock).  ``layoff_discards`` (per
    player) and ``first_card``/``first_card_by`` count only with their table options.
    """
    options = _check_options(options)
    if not isinstance(hand, Mapping):
        raise InvalidHandRecordError(f"a hand record must be an object, not {hand!r}")
    _fields(hand, _HAND_FIELDS, "the hand record")
    if "players" not in hand:
        raise InvalidHandRecordError(
            "the hand record needs 'players': one object per seat, e.g. {\"born\": true, \"laid\": \"7C 7D 7H\", \"hand\": \"KH\"}"
        )
    seats = _read_players(hand["players"], options)
    players = len(seats)
    if "knocker" not in hand:
        raise InvalidHandRecordError("the hand record needs 'knocker': the seat that knocked, or null if the stock ran out")
    knocker = _seat_value(hand["knocker"], players, "knocker")
    dark = _flag(hand.get("dark", False), "dark")
    fed_by = _seat_value(hand.get("fed_by"), players, "fed_by")
    knock_card = _knock_card(hand.get("knock_card"), knocker)
    _check_knock_record(seats, knocker, dark, fed_by, hand)
    first_card, first_by = _first_card(hand, seats, options)
    everything = [c for s in seats for c in (*s.laid, *s.hand)] + ([knock_card] if knock_card else [])
    _check_distinct(everything, " of the hand (counting every player's laid cards, hand and the knock card)")

    per_seat: list[list[Explanation]] = [[] for _ in range(players)]
    scores = [0] * players
    laid_points = [_points(s.laid, options) for s in seats]
    hand_points = [_points(s.hand, options) for s in seats]
    head: list[Explanation] = []
    if knocker is None:
        head.append(Explanation("thai.stock_out", {}, "Nobody knocked: the stock ran out and everybody counts (D4)."))
    for seat, entry in enumerate(seats):
        lines = per_seat[seat]
        if seat == knocker and knock_card is not None:
            scores[seat] = _score_knocker(seat, entry, knock_card, dark, options, lines)
            continue
        falls = knocker is not None and not entry.born
        multiplier = options.not_born_multiplier if falls else 1
        base = laid_points[seat] - hand_points[seat] * multiplier
        params: dict[str, Any] = {
            "seat": seat, "laid": [c.code for c in entry.laid], "hand": [c.code for c in entry.hand],
            "laid_sum": _sum_text(entry.laid, options, empty="0"), "hand_sum": _sum_text(entry.hand, options, empty="0"),
            "laid_points": laid_points[seat], "hand_points": hand_points[seat], "multiplier": multiplier,
            "score": base,
        }
        if falls and knocker is not None:
            params["knocker"] = knocker
            lines.append(Explanation(
                "thai.not_born", params,
                f"{player(seat).capitalize()} is not born when {player(knocker)} knocks (falling off the building, "
                f"D6): keeps {_sum_text(entry.hand, options)} × {multiplier} → {base}.",
            ))
        else:
            lines.append(Explanation(
                "thai.counts", params,
                f"{player(seat).capitalize()} laid {_sum_text(entry.laid, options)} and keeps "
                f"{_sum_text(entry.hand, options)}: {laid_points[seat]} - {hand_points[seat]} → {base} (D5).",
            ))
        scores[seat] = base
    extras = _extras(seats, knocker, fed_by, first_card, first_by, options, per_seat)
    for seat, extra in enumerate(extras):
        if extra:
            before = scores[seat]
            scores[seat] += extra
            per_seat[seat].append(Explanation(
                "thai.total",
                {"seat": seat, "cards": before, "extras": extra, "extras_signed": f"{'+' if extra > 0 else '-'} {abs(extra)}", "score": scores[seat]},
                f"{player(seat).capitalize()} scores {before} {'+' if extra > 0 else '-'} {abs(extra)} = "
                f"{scores[seat]} this hand.",
            ))
    return ThaiHandScore(
        players=players,
        knocker=knocker,
        knock_card=knock_card,
        dark=dark,
        fed_by=fed_by,
        laid_points=tuple(laid_points),
        hand_points=tuple(hand_points),
        scores=tuple(scores),
        explain=(*head, *(line for lines in per_seat for line in lines)),
        per_seat=tuple(tuple(lines) for lines in per_seat),
    )


def _knock_card(value: Any, knocker: int | None) -> Card | None:
    if knocker is None:
        if value is not None:
            raise InvalidHandRecordError(
                f"knock_card {value!r} but nobody knocked (knocker is null): give the knocker's seat or drop the card"
            )
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidHandRecordError(
            f"invalid knock_card {value!r}: give the card {player(knocker)} put face down, e.g. '5H' (D4)"
        )
    cards = thai_cards(value, where="knock_card")
    if len(cards) != 1:
        raise InvalidHandRecordError(f"invalid knock_card {value!r}: the knocker puts exactly one card face down (D4)")
    return cards[0]


def _check_knock_record(
    seats: Sequence[_Seat], knocker: int | None, dark: bool, fed_by: int | None, hand: Mapping[str, Any]
) -> None:
    players = len(seats)
    if knocker is None:
        if dark:
            raise InvalidHandRecordError("dark is true but nobody knocked (knocker is null): a dark knock needs a knocker (D6)")
        if fed_by is not None:
            raise InvalidHandRecordError(
                f"fed_by {fed_by} but nobody knocked (knocker is null): feeding needs a knock (D6)"
            )
    else:
        entry = seats[knocker]
        who = player(knocker).capitalize()
        if entry.hand:
            raise InvalidHandRecordError(
                f"{who} knocked but still holds {format_cards(entry.hand)!r}: the knocker lays every card but the "
                "knock card (D4); move them to \"laid\" and give the last one as knock_card"
            )
        if not entry.laid:
            raise InvalidHandRecordError(
                f"{who} knocked but laid nothing: give the cards they laid face up in \"laid\" (D4)"
            )
        players_entry = hand["players"][knocker]
        if "born" in players_entry and not entry.born and not dark:
            raise InvalidHandRecordError(
                f'{who} knocked without being born: that is a dark knock (D6); set "dark": true, '
                'or "born": true if they were born before'
            )
        if fed_by is not None:
            if fed_by == knocker:
                raise InvalidHandRecordError(
                    f"fed_by {fed_by}: the knocker cannot feed themself; give the seat that discarded the card "
                    "they knocked with (D6)"
                )
            neighbours = sorted({(knocker - 1) % players, (knocker + 1) % players})
            if fed_by not in neighbours:
                names = " or ".join(f"{s} ({player(s)})" for s in neighbours)
                raise InvalidHandRecordError(
                    f"fed_by {fed_by}: the feeder discarded just before {player(knocker)}, so it is seat {names} (D6)"
                )
    for seat, entry in enumerate(seats):
        _check_born(seat, entry, knocker)


def _first_card(
    hand: Mapping[str, Any], seats: Sequence[_Seat], options: ThaiOptions
) -> tuple[Card | None, int | None]:
    raw_card, raw_by = hand.get("first_card"), hand.get("first_card_by")
    if raw_card is None and raw_by is None:
        return None, None
    if not (options.first_card_bonus or options.first_card_speto_bonus):
        raise InvalidHandRecordError(
            "first_card/first_card_by are given, but the table has no first up-card bonus: turn on the option "
            "first_card_bonus (D6) or leave the fields out"
        )
    if not isinstance(raw_card, str):
        raise InvalidHandRecordError(
            f"invalid first_card {raw_card!r}: give the first up-card of the discard row, e.g. '7H' (D6)"
        )
    cards = thai_cards(raw_card, where="first_card")
    if len(cards) != 1:
        raise InvalidHandRecordError(f"invalid first_card {raw_card!r}: give one card, e.g. '7H'")
    by = _seat_value(raw_by, len(seats), "first_card_by")
    if by is not None and cards[0] not in seats[by].laid:
        raise InvalidHandRecordError(
            f"first_card_by {by}: {player(by)} melded the first up-card {cards[0].code}, so it must be among their "
            "laid cards; add it there or fix the seat"
        )
    return cards[0], by


def _score_knocker(
    seat: int, entry: _Seat, knock_card: Card, dark: bool, options: ThaiOptions, lines: list[Explanation]
) -> int:
    laid = _points(entry.laid, options)
    knock = knock_card_points(knock_card, options)
    multiplier = options.dark_knock_multiplier if dark else 1
    score = (laid + knock) * multiplier
    speto = " (a speto)" if is_speto(knock_card) else ""
    params = {"seat": seat, "laid": [c.code for c in entry.laid], "laid_points": laid,
              "laid_sum": _sum_text(entry.laid, options, empty="0"),
              "knock_card": knock_card.code, "knock_points": knock, "multiplier": multiplier, "score": score}
    text = (f"{player(seat).capitalize()} knocked with {knock_card.code}{speto}: laid "
            f"{_sum_text(entry.laid, options)}, knock card {knock}")
    if dark:
        lines.append(Explanation("thai.knock_dark", params,
                                 f"{text}: ({laid} + {knock}) × {multiplier} (dark knock, D6) → {score}."))
    else:
        lines.append(Explanation("thai.knock", params, f"{text}: {laid} + {knock} → {score} (D5)."))
    return score


def _extras(
    seats: Sequence[_Seat],
    knocker: int | None,
    fed_by: int | None,
    first_card: Card | None,
    first_by: int | None,
    options: ThaiOptions,
    per_seat: list[list[Explanation]],
) -> list[int]:
    extras = [0] * len(seats)
    if fed_by is not None and knocker is not None:
        extras[fed_by] -= options.feeding_penalty
        per_seat[fed_by].append(Explanation(
            "thai.fed", {"seat": fed_by, "knocker": knocker, "points": options.feeding_penalty},
            f"{player(fed_by).capitalize()} fed {player(knocker)} the card they knocked with (โง่, D6): "
            f"-{options.feeding_penalty}, and the next hand goes the other way round.",
        ))
    for seat, entry in enumerate(seats):
        if entry.layoff_discards:
            points = entry.layoff_discards * options.layoff_discard_penalty
            extras[seat] -= points
            per_seat[seat].append(Explanation(
                "thai.layoff_discards",
                {"seat": seat, "count": entry.layoff_discards, "each": options.layoff_discard_penalty, "points": points},
                f"{player(seat).capitalize()} discarded {entry.layoff_discards} card(s) that could have been laid "
                f"off: -{points} (layoff_discard_penalty, D6).",
            ))
    if first_card is not None and first_by is not None:
        # A speto is worth at least what any first up-card is: first_card_bonus alone pays it too (D6).
        bonus = (max(options.first_card_speto_bonus, options.first_card_bonus) if is_speto(first_card)
                 else options.first_card_bonus)
        if bonus:
            extras[first_by] += bonus
            per_seat[first_by].append(Explanation(
                "thai.first_card", {"seat": first_by, "card": first_card.code, "points": bonus},
                f"{player(first_by).capitalize()} melded the first up-card {first_card.code}: +{bonus} (D6).",
            ))
    return extras


# ------------------------------------------------------------------------------------------------ match


@dataclass(frozen=True)
class ThaiStandings:
    """The race to ``target`` (D6), replayed from the scored hands.

    ``totals`` after every hand are in ``history``; ``direction`` flips after every hand with feeding.
    ``dealer`` deals the next hand: the knocker of the last one; after a hand without a knock, the next
    player in ``direction`` — known once the first dealer is given or someone has knocked, else ``None``.
    ``dealers`` lists who dealt each hand (``None`` where not known).  Once someone reaches the target the match is ``finished`` and the highest total
    (ties share) is in ``winners``.
    """

    players: int
    target: int
    cards_each: int
    """D1: the cards dealt to each player in this match (11, 9 or 7)."""
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    dealers: tuple[int | None, ...]
    hands_played: int
    dealer: int | None
    direction: Direction
    finished: bool
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    explain: tuple[Explanation, ...]

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in playing order for the next hand, starting with its dealer (empty if unknown)."""
        return () if self.dealer is None else self.order_from(self.dealer)

    def order_from(self, dealer: int) -> tuple[int, ...]:
        """The seats in playing order for the next hand when ``dealer`` deals it."""
        step = 1 if self.direction == "forward" else -1
        return tuple((dealer + step * i) % self.players for i in range(self.players))

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "target": self.target,
            "cards_each": self.cards_each,
            "totals": list(self.totals),
            "history": [list(row) for row in self.history],
            "dealers": list(self.dealers),
            "hands_played": self.hands_played,
            "dealer": self.dealer,
            "direction": self.direction,
            "order": list(self.order),
            "finished": self.finished,
            "leaders": list(self.leaders),
            "winners": list(self.winners),
            "explain": texts(self.explain),
            "explain_detail": details(self.explain),
        }


def _names(seats: Sequence[int]) -> str:
    names = [str(seat + 1) for seat in seats]
    if len(names) == 1:
        return f"player {names[0]}"
    return "players " + ", ".join(names[:-1]) + " and " + names[-1]


def thai_standings(
    players: int,
    hands: Sequence[ThaiHandScore],
    options: ThaiOptions | None = None,
    *,
    first_dealer: int | None = None,
) -> ThaiStandings:
    """Replay the hands: totals, who deals next and which way, and the winner once someone reaches 500.

    Play starts forward (player 1 → 2 → 3 → 4) and every feeding turns it round, so a match knows who
    discarded just before each knocker: a hand fed by anyone else is refused (D6).

    >>> knock = score_thai_hand({"knocker": 1, "knock_card": "5H", "fed_by": 0, "players": [
    ...     {"laid": "2C 3C 4C", "hand": "9D"}, {"laid": "7C 7D 7H 8S 9S 10S"}]})
    >>> standing = thai_standings(2, [knock], first_dealer=0)
    >>> standing.totals, standing.dealer, standing.direction
    ((5, 85), 1, 'reverse')
    """
    options = _check_options(options)
    deal_size(players)
    if first_dealer is not None and (
        isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < players
    ):
        raise InvalidHandRecordError(f"invalid first dealer {first_dealer!r}: give a seat 0-{players - 1}")
    totals = [0] * players
    history: list[tuple[int, ...]] = []
    dealers: list[int | None] = []
    dealer = first_dealer
    direction: Direction = "forward"
    finished = False
    for number, hand in enumerate(hands, start=1):
        if finished:
            raise InvalidHandRecordError(
                f"hand {number} was recorded after the match ended ({_names(_leaders(totals))} reached "
                f"{options.target}); start a new match"
            )
        if not isinstance(hand, ThaiHandScore):
            raise InvalidHandRecordError(f"hand {number} is not a Thai Rummy hand score: {hand!r}")
        if hand.players != players:
            raise InvalidHandRecordError(f"hand {number} has {hand.players} players, the match {players}")
        dealers.append(dealer)
        totals = [total + score for total, score in zip(totals, hand.scores)]
        history.append(tuple(totals))
        if hand.fed_by is not None:
            direction = "reverse" if direction == "forward" else "forward"
        if hand.knocker is not None:
            dealer = hand.knocker
        elif dealer is not None:
            dealer = (dealer + (1 if direction == "forward" else -1)) % players
        finished = max(totals) >= options.target
    lines: list[Explanation] = []
    leaders = _leaders(totals)
    last = hands[-1] if hands else None
    if last is not None and last.knocker is not None:
        lines.append(Explanation("thai.next_dealer_knocker", {"seat": last.knocker},
                                 f"{player(last.knocker).capitalize()} knocked: they deal and start the next hand (D6)."))
    elif last is not None and dealer is not None:
        lines.append(Explanation("thai.next_dealer_passes", {"seat": dealer},
                                 f"Nobody knocked: the deal passes to {player(dealer)} (D6)."))
    elif last is not None:
        lines.append(Explanation("thai.next_dealer_passes_on", {},
                                 "Nobody knocked: the deal passes on to the next player (D6)."))
    if last is not None and last.fed_by is not None and last.knocker is not None:
        step = 1 if direction == "forward" else -1
        order = [(last.knocker + step * i) % players for i in range(players)]
        lines.append(Explanation(
            "thai.direction_reversed", {"direction": direction, "seat": last.fed_by, "order": order},
            f"{player(last.fed_by).capitalize()} fed the knocker: play now goes the other way round, "
            f"{' → '.join(str(s + 1) for s in order)} (D6).",
        ))
    if finished:
        lines.append(Explanation(
            "thai.match_over", {"winners": list(leaders), "totals": list(totals), "target": options.target},
            f"{_names(leaders).capitalize()} reached {options.target} first and "
            f"{'wins' if len(leaders) == 1 else 'win'} with {totals[leaders[0]]} (D6).",
        ))
    return ThaiStandings(
        players=players,
        target=options.target,
        cards_each=deal_size(players),
        totals=tuple(totals),
        history=tuple(history),
        dealers=tuple(dealers),
        hands_played=len(history),
        dealer=dealer,
        direction=direction,
        finished=finished,
        leaders=leaders,
        winners=leaders if finished else (),
        explain=tuple(lines),
    )


def admit_thai_hand(hand: Mapping[str, Any], options: ThaiOptions | None = None, standings: Any = None) -> None:
    """Refuse a new hand record no turn can produce (the registry's ``admit_hand``: checked where a hand enters,
    never on replay): at a table, which knows which way play goes (``standings``), a feeder who did not discard just
    before the knocker (D6).  A hand record alone cannot tell the direction: the command line's ``score`` takes
    either neighbour, as :func:`score_thai_hand` does."""
    score = score_thai_hand(hand, options)
    if isinstance(standings, ThaiStandings):
        _check_feeder(len(standings.history) + 1, score, standings.direction)


def _check_feeder(number: int, hand: ThaiHandScore, direction: Direction) -> None:
    """D6: the feeder discarded the card the next player knocked with, so in a match — which knows which way play
    goes, every feeding turning it round — it is the player just before the knocker in the current direction.
    (A hand record alone cannot tell the direction: :func:`score_thai_hand` takes either neighbour.)"""
    if hand.fed_by is None or hand.knocker is None:
        return
    step = 1 if direction == "forward" else -1
    before = (hand.knocker - step) % hand.players
    if hand.fed_by != before:
        order = " → ".join(str((before + step * i) % hand.players + 1) for i in range(hand.players))
        turned = "the other way round (after feeding)" if direction == "reverse" else "forward"
        raise InvalidHandRecordError(
            f"hand {number}: fed_by {hand.fed_by} ({player(hand.fed_by)}), but play goes {turned} this hand "
            f"({order}), so only seat {before} ({player(before)}) discarded just before {player(hand.knocker)} and "
            f"can have fed them (D6); give fed_by {before}, or null if nobody fed the knocker"
        )


def _leaders(totals: Sequence[int]) -> tuple[int, ...]:
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)
