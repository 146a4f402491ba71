"""Card melds shared by the card rummies (RULES.md M3/M4, T2): checking one meld, and the best disjoint melds.

The games differ only in data (:class:`MeldRules`): how many jokers one meld may hold and what a low ace
is worth.  A meld is a multiset of cards; when a joker could stand for more than one card (``* 7S 8S``:
6S or 9S), the meld takes its lower value (seed 001).

>>> RAMI = MeldRules(max_jokers=1, low_ace=1)
>>> check_meld("QH KH AH", RAMI).value, check_meld("* 7S 8S", RAMI).value
(31, 21)
>>> check_meld("KH AH 2H", RAMI).reason
'illegal run: [KH, AH, 2H] (K-A-2 never wraps: the ace is low in A-2-3 or high in Q-K-A)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from companion.rules._card_sheet import check_deal_counts
from companion.rules.cards import JOKER, SUITS, Card, CardsLike, Deck, Suit, card_from_index, cards_like, format_cards
from companion.rules.errors import ImpossibleHandError

__all__ = ["MeldRules", "MeldCheck", "LaidMelds", "Opening", "check_meld", "judge_laid", "best_melds", "rank_value",
           "run_readings"]

Kind = Literal["set", "run"]
MAX_HAND = 24
"""The most cards :func:`best_melds` searches (a rummy hand holds 13-14)."""
_HIGH_ACE = 14
_NAMES = {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}


@dataclass(frozen=True)
class MeldRules:
    """What changes between the card games: jokers allowed in one meld, the value of a low ace (A-2-3)."""

    max_jokers: int
    low_ace: int
    ace: int = 11


def rank_value(rank: int, rules: MeldRules) -> int:
    """The value of a card of ``rank`` laid in a set or as a high ace: 2-10 face, J/Q/K 10, ace 11."""
    if rank == 1:
        return rules.ace
    return min(rank, 10)


def _position_value(position: int, rules: MeldRules) -> int:
    if position == 1:
        return rules.low_ace
    if position == _HIGH_ACE:
        return rules.ace
    return min(position, 10)


@dataclass(frozen=True)
class MeldCheck:
    """The verdict on one meld: ``valid``, ``kind`` (``set``/``run``), ``value`` for the opening, the
    ``reason`` in words, and ``stands_for``: the card each joker represents in the counted reading."""

    cards: tuple[Card, ...]
    valid: bool
    kind: Kind | None
    value: int
    reason: str
    stands_for: tuple[Card, ...] = ()
    ordered: tuple[Card, ...] = ()
    """The cards as the meld is laid: a run low to high with each joker in its place, a set by suit."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": format_cards(self.cards),
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value,
            "reason": self.reason,
            "stands_for": format_cards(self.stands_for),
        }


@dataclass(frozen=True)
class LaidMelds:
    """Melds as laid at an opening (M2/M4, T3): each one's verdict, their total and whether it reaches ``minimum``."""

    verdicts: tuple[MeldCheck, ...]
    total: int
    minimum: int
    opens: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """``valid`` and ``value`` (= ``total``) answer like a single meld's verdict does."""
        return {"valid": all(v.valid for v in self.verdicts), "value": self.total,
                "verdicts": [v.to_dict() for v in self.verdicts], "total": self.total, "minimum": self.minimum,
                "opens": self.opens, "reason": self.reason}


def _laid_melds(melds: str | Sequence[CardsLike]) -> list[tuple[Card, ...]]:
    """Melds laid out on the table, separated by ``|`` (or given one by one).

    >>> _laid_melds("KH KS KD | 7S 8S 9S")
    [(KH, KS, KD), (7S, 8S, 9S)]
    """
    parts = [part for part in melds.split("|") if part.strip()] if isinstance(melds, str) else list(melds)
    if not parts:
        raise ImpossibleHandError(f"impossible melds {melds!r}: no melds given; separate melds with '|'")
    return [cards_like(part) for part in parts]


def judge_laid(melds: str | Sequence[CardsLike], rules: MeldRules, minimum: int, rule: str, *, deck: Deck,
               game: str) -> LaidMelds:
    """Melds as laid at an opening (separated by ``|``): their cards counted together against the game's ``deck``
    (``game``: its name in the message), each meld judged (:func:`check_meld`), and whether together they are worth
    ``minimum`` (``rule``: the rule quoted).

    >>> rami, deck = MeldRules(max_jokers=1, low_ace=1), Deck(decks=2, jokers=4)
    >>> judge_laid("KH KS KD | 2S 3S 4S", rami, 40, "M2", deck=deck, game="Rami").reason
    'does not open: melds worth 39, 40 needed (M2)'
    >>> judge_laid("KH KS KD | 7S 8S 9S", rami, 40, "M2", deck=deck, game="Rami").reason
    'opens: melds worth 54 (at least 40, M2)'
    """
    laid = _laid_melds(melds)
    check_deal_counts([tuple(card for meld in laid for card in meld)], deck, game)
    verdicts = tuple(check_meld(meld, rules) for meld in laid)
    total = sum(v.value for v in verdicts if v.valid)
    invalid = [v for v in verdicts if not v.valid]
    if invalid:
        return LaidMelds(verdicts, total, minimum, False, f"does not open: {invalid[0].reason}")
    if total >= minimum:
        return LaidMelds(verdicts, total, minimum, True, f"opens: melds worth {total} (at least {minimum}, {rule})")
    return LaidMelds(verdicts, total, minimum, False, f"does not open: melds worth {total}, {minimum} needed ({rule})")


def _illegal(cards: tuple[Card, ...], kind: str, why: str) -> MeldCheck:
    listed = "[" + ", ".join(card.code for card in cards) + "]"
    return MeldCheck(cards, False, None, 0, f"illegal {kind}: {listed} ({why})")


def check_meld(cards: CardsLike, rules: MeldRules) -> MeldCheck:
    """Check one meld (M3/M4, T2): a set of 3-4 cards of one rank in distinct suits, or a run of 3+
    consecutive cards of one suit (ace low or high, never K-A-2), with at most ``rules.max_jokers`` jokers."""
    meld = cards_like(cards)
    reals = [card for card in meld if not card.is_joker]
    jokers = len(meld) - len(reals)
    if len(meld) < 3:
        return _illegal(meld, "meld", f"a meld needs at least 3 cards, this has {len(meld)}")
    if not reals:
        return _illegal(meld, "meld", "a meld needs at least one real card besides jokers")
    if jokers > rules.max_jokers:
        allowed = "one joker" if rules.max_jokers == 1 else f"{rules.max_jokers} jokers"
        return _illegal(meld, "meld", f"only {allowed} per meld, this has {jokers}")
    readings = [reading for reading in (_as_set(meld, reals, jokers, rules), _as_run(meld, reals, jokers, rules))
                if reading.valid]
    if readings:
        return min(readings, key=lambda reading: reading.value)
    if len({card.rank for card in reals}) == 1:
        return _as_set(meld, reals, jokers, rules)
    if len({card.suit for card in reals}) == 1:
        return _as_run(meld, reals, jokers, rules)
    return _illegal(meld, "meld", "neither a set (one rank, distinct suits) nor a run (one suit, consecutive)")


def _as_set(meld: tuple[Card, ...], reals: list[Card], jokers: int, rules: MeldRules) -> MeldCheck:
    ranks = {card.rank for card in reals}
    if len(ranks) != 1:
        return _illegal(meld, "set", "a set is one rank")
    if len(meld) > 4:
        return _illegal(meld, "set", f"a set has 3 or 4 cards, this has {len(meld)}")
    repeated = [card for card, count in Counter(reals).items() if count > 1]
    if repeated:
        return _illegal(meld, "set", f"two {repeated[0].code}: every card of a set needs a different suit")
    rank = reals[0].rank
    value = rank_value(rank, rules)
    missing = [Card(rank, suit) for suit in SUITS if Card(rank, suit) not in reals]
    name = _NAMES.get(rank, f"{rank}s")
    joker_note = f" (the joker{'s' if jokers > 1 else ''} as {' or '.join(c.code for c in missing)})" if jokers else ""
    reason = f"set of {len(meld)} {name}{joker_note}: {' + '.join([str(value)] * len(meld))} = {value * len(meld)}"
    ordered = tuple(sorted(reals, key=Card.sort_key)) + (JOKER,) * jokers
    return MeldCheck(meld, True, "set", value * len(meld), reason, tuple(missing[:jokers]), ordered)


def _as_run(meld: tuple[Card, ...], reals: list[Card], jokers: int, rules: MeldRules) -> MeldCheck:
    suits = {card.suit for card in reals}
    if len(suits) != 1:
        return _illegal(meld, "run", "a run is one suit")
    suit = reals[0].suit
    assert suit is not None  # reals are never jokers
    repeated = [card for card, count in Counter(reals).items() if count > 1]
    if repeated and not (repeated == [Card(1, suit)] and Counter(reals)[Card(1, suit)] == 2):
        return _illegal(meld, "run", f"two {repeated[0].code}: a run holds each card once")
    if len(meld) > 13:
        return _illegal(meld, "run", f"a run has at most 13 cards (A-K or 2-A), this has {len(meld)}")
    best: tuple[int, int] | None = None
    for low, high in _windows(reals, len(meld)):
        value = sum(_position_value(position, rules) for position in range(low, high + 1))
        if best is None or value < best[0]:
            best = (value, low)
    if best is None:
        ranks = {card.rank for card in reals}
        if 1 in ranks and 13 in ranks and 2 in ranks:
            why = "K-A-2 never wraps: the ace is low in A-2-3 or high in Q-K-A"
        elif repeated:
            why = "two aces: the ace is low in A-2-3 or high in Q-K-A, never both"
        else:
            why = f"the cards are not consecutive; {jokers} joker{'s' if jokers != 1 else ''} cannot fill the gaps"
        return _illegal(meld, "run", why)
    value, low = best
    positions = range(low, low + len(meld))
    present = {_HIGH_ACE if (card.rank == 1 and low > 1) else card.rank for card in reals}
    stands = tuple(Card(1 if p == _HIGH_ACE else p, suit) for p in positions if p not in present)
    ordered = tuple(JOKER if p not in present else Card(1 if p == _HIGH_ACE else p, suit) for p in positions)
    shown = [Card(1 if p == _HIGH_ACE else p, suit).code for p in positions]
    terms = " + ".join(str(_position_value(p, rules)) for p in positions)
    joker_note = f" (the joker as {', '.join(c.code for c in stands)})" if stands else ""
    reason = f"run {'-'.join(shown)}{joker_note}: {terms} = {value}"
    return MeldCheck(meld, True, "run", value, reason, stands, ordered)


def _windows(reals: Sequence[Card], length: int) -> Iterable[tuple[int, int]]:
    """The spans ``[low, high]`` of ``length`` positions (1 = low ace … 14 = high ace) that hold every real
    card once: an ace is at 1 or 14, never both, and no span holds both ends (K-A-2 never wraps)."""
    ranks = sorted(card.rank for card in reals)
    aces = ranks.count(1)
    if aces > 1:
        return
    readings = [ranks]
    if aces:
        readings = [ranks, sorted(_HIGH_ACE if rank == 1 else rank for rank in ranks)]
    for positions in readings:
        for low in range(max(1, positions[-1] - length + 1), min(positions[0], 15 - length) + 1):
            high = low + length - 1
            if not (low == 1 and high == 14):
                yield low, high


def run_readings(meld: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every way ``meld`` (one suit) reads as a run: the cards of each place, low to high.

    >>> run_readings(cards_like("* 7S 8S"))
    [(6S, 7S, 8S), (7S, 8S, 9S)]
    """
    reals = [card for card in meld if not card.is_joker]
    if not reals or len({card.suit for card in reals}) != 1:
        return []
    suit = reals[0].suit
    return [tuple(Card(1 if p == _HIGH_ACE else p, suit) for p in range(low, high + 1))
            for low, high in _windows(reals, len(meld))]


@dataclass(frozen=True)
class Opening:
    """The best disjoint melds found in a hand: their ``melds`` (each a :class:`MeldCheck`), total
    ``value``, the ``left`` cards and ``cards_used``."""

    melds: tuple[MeldCheck, ...]
    value: int
    left: tuple[Card, ...]

    @property
    def cards_used(self) -> int:
        return sum(len(meld.cards) for meld in self.melds)


def _candidates(hand: Counter[Card], rules: MeldRules) -> list[tuple[tuple[int, ...], int]]:
    """Every valid meld that can be made from ``hand``, as (sorted card indices, value), deduplicated."""
    jokers = min(hand[JOKER], rules.max_jokers)
    found: dict[tuple[int, ...], int] = {}

    def add(cards: list[Card]) -> None:
        key = tuple(sorted(card.index for card in cards))
        if key not in found:
            verdict = check_meld(cards, rules)
            if verdict.valid:
                found[key] = verdict.value

    for rank in range(1, 14):
        suits = [suit for suit in SUITS if hand[Card(rank, suit)]]
        for real_count in range(1, len(suits) + 1):
            for chosen in combinations(suits, real_count):
                for joker_count in range(0, jokers + 1):
                    if 3 <= real_count + joker_count <= 4:
                        add([Card(rank, s) for s in chosen] + [JOKER] * joker_count)
    for suit in SUITS:
        _run_candidates(hand, suit, jokers, add)
    return sorted(found.items())


def _run_candidates(hand: Counter[Card], suit: Suit, jokers: int, add: Any) -> None:
    for low in range(1, 13):
        for high in range(low + 2, 15):
            if low == 1 and high == 14:
                continue
            cells = [Card(1 if p == _HIGH_ACE else p, suit) for p in range(low, high + 1)]
            present = [i for i, card in enumerate(cells) if hand[card]]
            absent = len(cells) - len(present)
            if not present or absent > jokers:
                continue
            for extra in range(0, jokers - absent + 1):
                for replaced in combinations(present, extra):
                    if len(present) - extra < 1:
                        continue
                    real = [cells[i] for i in present if i not in replaced]
                    add(real + [JOKER] * (absent + extra))


def best_melds(cards: CardsLike, rules: MeldRules, *, cover: bool = False) -> Opening:
    """The disjoint valid melds of the highest total value in ``cards`` (ties: more cards laid); with
    ``cover``, the melds that lay the most cards (ties: the higher value) — the going-out question."""
    hand = Counter(cards_like(cards))
    if sum(hand.values()) > MAX_HAND:
        raise ImpossibleHandError(
            f"too many cards: {sum(hand.values())}; a hand to search holds at most {MAX_HAND} cards"
        )
    candidates = _candidates(hand, rules)
    by_card: dict[int, list[tuple[tuple[int, ...], tuple[tuple[int, int], ...], int]]] = {}
    for key, value in candidates:
        need = tuple(Counter(key).items())
        first = min(index for index in key if index != JOKER.index)
        by_card.setdefault(first, []).append((key, need, value))
    memo: dict[tuple[int, ...], tuple[tuple[int, int], tuple[tuple[int, ...], ...]]] = {}
    start = [0] * 53
    for card, count in hand.items():
        start[card.index] = count

    def search(counts: tuple[int, ...], first: int) -> tuple[tuple[int, int], tuple[tuple[int, ...], ...]]:
        cached = memo.get(counts)
        if cached is not None:
            return cached
        while first < 52 and not counts[first]:
            first += 1
        if first == 52:
            memo[counts] = ((0, 0), ())
            return memo[counts]
        skipped = list(counts)
        skipped[first] -= 1
        result = search(tuple(skipped), first)
        for key, need, value in by_card.get(first, ()):
            if any(counts[i] < n for i, n in need):
                continue
            rest = list(counts)
            for i, n in need:
                rest[i] -= n
            (best_a, best_b), melds = search(tuple(rest), first)
            total = (best_a + len(key), best_b + value) if cover else (best_a + value, best_b + len(key))
            if total > result[0]:
                result = (total, (key, *melds))
        memo[counts] = result
        return result

    _, keys = search(tuple(start), 0)
    melds = tuple(check_meld([card_from_index(i) for i in key], rules) for key in keys)
    left = Counter(hand)
    for meld in melds:
        left.subtract(meld.cards)
    remaining = tuple(sorted(left.elements(), key=Card.sort_key))
    return Opening(melds, sum(meld.value for meld in melds), remaining)
