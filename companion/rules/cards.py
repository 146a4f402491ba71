"""Playing-card notation, multi-deck multisets and deck composition (RULES.md §M, §T, §D).

A card is a rank and a suit, ``AS``, ``10H``, ``QC``; ``*`` is a joker.  Cards are tiny immutable values
whose ``repr`` is their notation (their own type, not :class:`~companion.rules.tiles.Tile`):

>>> parse_cards("a♠, th 10h qc *")
(AS, 10H, 10H, QC, *)
>>> format_cards(parse_cards("kh ks kd"))
'KH KS KD'
>>> format_cards("AS 10H *", symbols=True)
'A♠ 10♥ *'
>>> parse_card("11H")
Traceback (most recent call last):
...
companion.rules.errors.InvalidCardError: invalid card '11H': unknown rank '11'; use A, 2-10, J, Q or K (T for 10), e.g. AS, 10H, QC, *

Ranks are numbers 1-13 (1 the ace, 11-13 J Q K); whether an ace plays low or high, how much a card is
worth and whether a deck holds jokers are each game's rules, not the card's.  A table plays with several
decks, so identical cards are normal: a :class:`Deck` says how many copies exist and
:func:`check_card_counts` refuses a hand that holds more.

>>> Deck(decks=2, jokers=4).size, Deck(decks=1, jokers=0).size
(108, 52)
>>> check_card_counts("7S 7S 7S", Deck(decks=2, jokers=4))
Traceback (most recent call last):
...
companion.rules.errors.ImpossibleHandError: impossible cards: 3 × 7S, but 2 decks hold only 2
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Union

from companion.rules.errors import ImpossibleHandError, InvalidCardError

__all__ = [
    "Suit",
    "SUITS",
    "SUIT_SYMBOLS",
    "RANK_CODES",
    "Card",
    "CardLike",
    "CardsLike",
    "JOKER",
    "ALL_CARDS",
    "Deck",
    "parse_card",
    "parse_cards",
    "card_like",
    "cards_like",
    "format_cards",
    "sort_cards",
    "card_counts",
    "check_card_counts",
]


class Suit(StrEnum):
    """The four suits; the value is the notation letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SUIT_SYMBOLS: dict[Suit, str] = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
RANK_CODES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The rank notation, ``RANK_CODES[rank - 1]``."""

_JOKER_CODE = "*"


@dataclass(frozen=True, slots=True)
class Card:
    """One card.  ``rank`` 1-13 (1 = ace, 11 = jack, 12 = queen, 13 = king) and ``suit``; the joker has
    rank 0 and no suit.

    ``index`` is a dense integer (0-51 by suit S H D C then rank, 52 the joker) for fast searches.
    """

    rank: int
    suit: Suit | None

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank != 0:
                raise InvalidCardError(f"invalid card: rank {self.rank!r} needs a suit")
        elif isinstance(self.rank, bool) or not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise InvalidCardError(f"invalid card: rank {self.rank!r} must be 1-13 (1 = ace, 13 = king)")

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def index(self) -> int:
        if self.suit is None:
            return 52
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def code(self) -> str:
        """The notation: ``AS``, ``10H``, ``*``."""
        if self.suit is None:
            return _JOKER_CODE
        return RANK_CODES[self.rank - 1] + self.suit.value

    @property
    def symbol(self) -> str:
        """The notation with a suit symbol: ``A♠``, ``10♥``, ``*``."""
        if self.suit is None:
            return _JOKER_CODE
        return RANK_CODES[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    @property
    def rank_code(self) -> str:
        """``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``; ``*`` for the joker."""
        return _JOKER_CODE if self.suit is None else RANK_CODES[self.rank - 1]

    def __repr__(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.code

    def sort_key(self) -> tuple[int, int]:
        """Suit by suit (S H D C), ace first, jokers last."""
        return (self.index, 0)


JOKER = Card(0, None)
ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""The 52 distinct cards of one deck, in :attr:`Card.index` order."""

CardLike = Union[Card, str]
CardsLike = Union[str, Iterable[CardLike]]

_BY_INDEX: tuple[Card, ...] = (*ALL_CARDS, JOKER)
_RANKS: dict[str, int] = {code: rank for rank, code in enumerate(RANK_CODES, start=1)} | {"T": 10}
_SUIT_INPUTS: dict[str, Suit] = {suit.value: suit for suit in SUITS} | {
    symbol: suit for suit, symbol in SUIT_SYMBOLS.items()
} | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_JOKER_INPUTS = frozenset({"*", "JK", "JOKER", "🃏"})  # notation: `*`, `JK` accepted
_SPLIT = re.compile(r"[\s,;|]+")
_VARIATION_SELECTORS = re.compile("[\ufe0e\ufe0f]")
_HINT = "e.g. AS, 10H, QC, *"


def card_from_index(index: int) -> Card:
    """The card with dense index ``index`` (see :class:`Card`)."""
    return _BY_INDEX[index]


def parse_card(code: str) -> Card:
    """Parse one card code such as ``AS``, ``10h``, ``TH``, ``Q♣`` or ``*`` (``JK`` too); raise :class:`InvalidCardError`.

    >>> parse_card("t♦"), parse_card("q♣"), parse_card("*"), parse_card("jk")
    (10D, QC, *, *)
    """
    if not isinstance(code, str):
        raise InvalidCardError(f"invalid card {code!r}: expected a card code such as 'AS' ({_HINT})")
    text = _VARIATION_SELECTORS.sub("", code.strip()).upper()
    if not text:
        raise InvalidCardError(f"invalid card {code!r}: empty card code ({_HINT})")
    if text in _JOKER_INPUTS:
        return JOKER
    rank_text, suit_text = text[:-1], text[-1]
    suit = _SUIT_INPUTS.get(suit_text)
    if suit is None:
        if text in _RANKS:
            raise InvalidCardError(f"invalid card {code!r}: the suit is missing; add S, H, D or C ({_HINT})")
        raise InvalidCardError(
            f"invalid card {code!r}: unknown suit {code.strip()[-1:]!r}; use S (♠), H (♥), D (♦) or C (♣) ({_HINT})"
        )
    rank = _RANKS.get(rank_text)
    if rank is None:
        if not rank_text:
            raise InvalidCardError(f"invalid card {code!r}: the rank is missing; use A, 2-10, J, Q or K ({_HINT})")
        hint = "; write A for the ace" if rank_text in {"1", "01", "14"} else ""
        raise InvalidCardError(
            f"invalid card {code!r}: unknown rank {rank_text!r}; use A, 2-10, J, Q or K (T for 10){hint}, {_HINT}"
        )
    return Card(rank, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces, commas, ``;`` or ``|``; case-insensitive.  ``""`` is no cards.

    >>> parse_cards(" 2c,3d ;  JOKER ")
    (2C, 3D, *)
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"invalid cards {text!r}: expected text such as 'AS 10H *'")
    return tuple(parse_card(token) for token in _SPLIT.split(text.strip()) if token)


def card_like(value: CardLike) -> Card:
    """Normalise a card or a card code to a :class:`Card`."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise InvalidCardError(f"invalid card {value!r}: expected a card code such as 'AS' ({_HINT})")


def cards_like(value: CardsLike) -> tuple[Card, ...]:
    """Normalise a notation string or an iterable of cards/codes to a tuple of cards.

    >>> cards_like(["ah", parse_card("2H")])
    (AH, 2H)
    """
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, (Card, Mapping)) or not isinstance(value, Iterable):
        raise InvalidCardError(f"invalid cards {value!r}: expected text such as 'AS 10H *' or a list of cards")
    return tuple(card_like(v) for v in value)


def format_cards(cards: CardsLike, *, symbols: bool = False) -> str:
    """The notation of ``cards``, space separated: the inverse of :func:`parse_cards`."""
    return " ".join(card.symbol if symbols else card.code for card in cards_like(cards))


def sort_cards(cards: CardsLike) -> tuple[Card, ...]:
    """``cards`` sorted suit by suit (S H D C), ace first, jokers last.

    >>> sort_cards("KH * 2S AH 10S")
    (2S, 10S, AH, KH, *)
    """
    return tuple(sorted(cards_like(cards), key=Card.sort_key))


def card_counts(cards: CardsLike) -> Counter[Card]:
    """The multiset of ``cards``: how many copies of each card.

    >>> card_counts("7S 7S 7H")[parse_card("7S")]
    2
    """
    return Counter(cards_like(cards))


@dataclass(frozen=True)
class Deck:
    """What a table plays with: ``decks`` standard 52-card decks and ``jokers`` jokers.

    Each game decides its deck (RULES.md M1, T1, D1); this type only counts.

    >>> Deck(decks=3, jokers=3).size
    159
    >>> Deck(decks=2, jokers=4).copies("7S"), Deck(decks=2, jokers=4).copies("*")
    (2, 4)
    >>> Deck(decks=2, jokers=2)
    Deck(2 decks + 2 jokers = 106 cards)
    """

    decks: int
    jokers: int

    def __post_init__(self) -> None:
        for name in ("decks", "jokers"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidCardError(f"invalid deck: {name} must be a whole number ≥ 0, not {value!r}")
        if self.decks < 1:
            raise InvalidCardError(f"invalid deck: at least one 52-card deck is needed, not {self.decks!r}")

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers

    def copies(self, card: CardLike) -> int:
        """How many copies of ``card`` the deck holds."""
        return self.jokers if card_like(card).is_joker else self.decks

    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck, each deck in :attr:`Card.index` order, then the jokers.

        >>> len(Deck(decks=2, jokers=4).cards())
        108
        """
        return ALL_CARDS * self.decks + (JOKER,) * self.jokers

    def describe(self) -> str:
        """``'2 decks + 4 jokers = 108 cards'``, ``'1 deck, no jokers = 52 cards'``."""
        decks = "1 deck" if self.decks == 1 else f"{self.decks} decks"
        jokers = ", no jokers" if not self.jokers else f" + {self.jokers} joker{'s' if self.jokers != 1 else ''}"
        return f"{decks}{jokers} = {self.size} cards"

    def __repr__(self) -> str:
        return f"Deck({self.describe()})"


def check_card_counts(cards: CardsLike, deck: Deck) -> None:
    """Raise :class:`ImpossibleHandError` if ``cards`` (one hand, or every hand of a deal together) hold
    more copies of a card than ``deck`` has, or a joker the deck does not have.

    >>> check_card_counts("AS AS * *", Deck(decks=2, jokers=2))
    >>> check_card_counts("2C *", Deck(decks=1, jokers=0))
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible cards: a joker (*), but this game plays 1 deck, no jokers = 52 cards
    """
    counts = card_counts(cards)
    for card, count in sorted(counts.items(), key=lambda item: item[0].index):
        limit = deck.copies(card)
        if count <= limit:
            continue
        if card.is_joker and limit == 0:
            raise ImpossibleHandError(f"impossible cards: a joker (*), but this game plays {deck.describe()}")
        if card.is_joker:
            jokers = f"{deck.jokers} joker{'s' if deck.jokers != 1 else ''}"
            raise ImpossibleHandError(f"impossible cards: {count} × *, but the game has only {jokers}")
        held = "1 deck holds" if deck.decks == 1 else f"{deck.decks} decks hold"
        raise ImpossibleHandError(f"impossible cards: {count} × {card.code}, but {held} only {limit}")
