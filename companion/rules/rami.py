"""Rami 40 / Rami 51 (RULES.md §M, seed 001): melds, the opening, jokers, going out and the penalty sheet.

Melds (M3/M4): a set is 3 or 4 cards of one rank in distinct suits; a run is 3+ consecutive cards of one
suit, the ace low (A-2-3, worth 1) or high (Q-K-A, worth 11), never K-A-2; **one joker per meld**, worth
the card it stands for, the lower one when it could stand for two.  Seed 001's worked values:

>>> [check_rami_meld(m).value for m in ("KH KS KD", "AC AH AS", "AH 2H 3H", "5C 6C 7C", "QH KH AH",
...                                     "9C 9D 9H *", "* 7S 8S")]
[30, 33, 6, 18, 31, 36, 21]
>>> [check_rami_meld(m).valid for m in ("7S 7S 7H", "KH AH 2H", "* * 5H 6H")]
[False, False, False]
>>> best_rami_opening("KH KS KD 5C 6C 7C 2D 9S", RamiOptions()).to_dict()["opens"]
True

A hand record (the ``rami40_hand`` / ``rami51_hand`` event and the batch ``score`` op)::

    {"finisher": 0 | null, "rami_sec": false,
     "players": [{"opened": true, "cards": ""}, {"opened": false, "cards": "2C 3D"}, ...]}

``cards`` is what the player still holds (text or a list of codes) or, typed at the table, its value.
The finisher holds nothing.  ``finisher: null``: the stock ran out (M6) and the lowest hand wins the hand.

>>> score = score_rami_hand({"finisher": 0, "rami_sec": False, "players": [
...     {"opened": True, "cards": ""}, {"opened": True, "cards": "2C 3D AS *"}, {"opened": False, "cards": "KH"}]})
>>> score.scores
(0, 36, 100)
>>> score.explain[1]
Player 2 keeps 2C 3D AS *: 2 + 3 + 11 (ace) + 20 (joker) = 36.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules._card_melds import (
    LaidMelds,
    MeldCheck,
    MeldRules,
    Opening,
    best_melds,
    check_meld,
    judge_laid,
    run_readings,
)
from companion.rules._card_sheet import (
    MOST_HELD,
    CardStandings,
    DealInstructions,
    card_penalty,
    card_standings,
    check_deal_counts,
    check_fields,
    check_finisher_empty,
    check_most_held,
    deal_instructions,
    flag,
    held_cards,
    pass_deal,
    penalty_terms,
    players_list,
    seat,
    who,
)
from companion.rules.cards import JOKER, Card, CardsLike, Deck, cards_like, format_cards
from companion.rules.errors import InvalidHandRecordError, InvalidOptionError
from companion.rules.explain import Explanation, player, result_dict

__all__ = [
    "PLAYERS",
    "RAMI_MELDS",
    "RamiOptions",
    "Rami51Options",
    "PROFILES",
    "RamiOpening",
    "check_rami_laid",
    "JokerSwap",
    "GoingOut",
    "RamiHandScore",
    "admit_rami_hand",
    "rami_deck",
    "check_rami_meld",
    "best_rami_opening",
    "rami_joker_swap",
    "rami_going_out",
    "rami_card_penalty",
    "score_rami_hand",
    "rami_standings",
    "rami_deal",
    "rami_pass_deal",
]

PLAYERS: tuple[int, ...] = (2, 3, 4, 5, 6)
"""M1: 2-6 players."""

CARDS_EACH = 13
"""M1: 13 cards each."""

RAMI_MELDS = MeldRules(max_jokers=1, low_ace=1)
"""M3/M4: one joker per meld; a low ace (A-2-3) is worth 1, any other ace 11."""

DeckChoice = Literal["reference", "house"]


@dataclass(frozen=True)
class RamiOptions:
    """Rami 40 (RULES.md §M); :class:`Rami51Options` is the same game opening at 51."""

    opening: Literal[40, 51] = 40
    """M2: the value the first lay-down must reach (40 in Rami 40, 51 in Rami 51)."""
    deck: DeckChoice = "reference"
    """M1: 'reference' 2 decks + 4 jokers (108) up to 4 players, 3 decks + 4 jokers (160) for 5-6;
    'house' 106 (2 jokers) / 159 (3 jokers)."""
    joker_penalty: int = 20
    """M7: what a joker left in hand costs."""
    not_opened_penalty: int = 100
    """M7: what a player who never opened pays instead of the cards in hand."""
    rami_sec_doubles: bool = True
    """M7: going out in one turn without having opened earlier (rami sec) doubles the others' penalties."""
    hands: int = 5
    """M7: the number of hands in the match (0 = no fixed number)."""
    elimination_at: int = 0
    """M7: the match ends when a total passes this (0 = off); lowest total wins."""


@dataclass(frozen=True)
class Rami51Options(RamiOptions):
    """Rami 51 (RULES.md §M): Rami 40 with a 51-point opening."""

    opening: Literal[40, 51] = 51
    """M2: the value the first lay-down must reach (51 in Rami 51)."""


PROFILES: dict[str, dict[str, Any]] = {
    "reference": {},
    "house": {"deck": "house"},
    "elimination": {"hands": 0, "elimination_at": 500},
}
"""Named profiles (overrides of the defaults), the same for Rami 40 and Rami 51."""


def _options(options: RamiOptions | None) -> RamiOptions:
    if options is None:
        return RamiOptions()
    if not isinstance(options, RamiOptions):
        raise InvalidOptionError(f"options {options!r} are not Rami options; use options_for('rami40')")
    return options


def rami_deck(players: int | None, options: RamiOptions | None = None) -> Deck:
    """M1: the cards for ``players`` players; ``None``, a table of unknown size: the largest deck, which any table's
    cards fit.

    >>> rami_deck(4), rami_deck(5), rami_deck(4, RamiOptions(deck="house")), rami_deck(6, RamiOptions(deck="house"))
    (Deck(2 decks + 4 jokers = 108 cards), Deck(3 decks + 4 jokers = 160 cards), Deck(2 decks + 2 jokers = 106 cards), Deck(3 decks + 3 jokers = 159 cards))
    """
    options = _options(options)
    if players is None:
        players = max(PLAYERS)
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise InvalidHandRecordError(f"invalid players {players!r}: Rami is played by 2 to 6")
    decks = 2 if players <= 4 else 3
    jokers = 4 if options.deck == "reference" else decks
    return Deck(decks=decks, jokers=jokers)


def check_rami_meld(cards: CardsLike) -> MeldCheck:
    """M3/M4: one meld's verdict and its opening value (the lower value when a joker could be two cards)."""
    return check_meld(cards, RAMI_MELDS)


@dataclass(frozen=True)
class RamiOpening:
    """The best opening in a hand (M4): the disjoint melds of the highest total, and whether it reaches
    the opening minimum."""

    best: Opening
    minimum: int

    @property
    def value(self) -> int:
        return self.best.value

    @property
    def opens(self) -> bool:
        return self.best.value >= self.minimum

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "melds": [[card.code for card in meld.ordered] for meld in self.best.melds],
            "opens": self.opens,
            "minimum": self.minimum,
            "left": format_cards(self.best.left),
            "reasons": [meld.reason for meld in self.best.melds],
        }


def check_rami_laid(melds: str | Sequence[CardsLike], options: RamiOptions | None = None, *,
                    players: int | None = None) -> LaidMelds:
    """M2/M4: melds as laid at an opening (separated by ``|``), their cards counted together against the deck (M1:
    the deck of ``players`` players; unknown, the largest), each judged, and whether together they reach
    ``options.opening``.

    >>> check_rami_laid("KH KS KD | 7S 8S 9S").reason
    'opens: melds worth 54 (at least 40, M2)'
    >>> check_rami_laid("7S 8S 9S | 7S 8S 9S | 7S 8S 9S | 7S 8S 9S")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible cards: 4 × 7S, but 3 decks hold only 3 (Rami with this many players plays 3 decks + 4 jokers = 160 cards)
    """
    options = _options(options)
    return judge_laid(melds, RAMI_MELDS, options.opening, "M2", deck=rami_deck(players, options), game="Rami")


def best_rami_opening(cards: CardsLike, options: RamiOptions | None = None, *,
                      players: int | None = None) -> RamiOpening:
    """M4: the highest total of disjoint valid melds in ``cards`` and whether it reaches ``options.opening`` (the
    cards counted against the deck of ``players`` players, M1; unknown, the largest).

    >>> best_rami_opening("QH KH AH * 7S 8S 2C", Rami51Options()).to_dict()["value"]
    52
    """
    options = _options(options)
    hand = cards_like(cards)
    check_deal_counts([hand], rami_deck(players, options), "Rami")
    return RamiOpening(best_melds(hand, RAMI_MELDS), options.opening)


@dataclass(frozen=True)
class JokerSwap:
    """Whether a joker can be taken from a laid meld (M5, T5): ``allowed``, how many jokers it frees,
    the meld afterwards and why."""

    allowed: bool
    freed: int
    meld_after: tuple[Card, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"allowed": self.allowed, "freed": self.freed, "meld_after": format_cards(self.meld_after),
                "reason": self.reason}


def _joker_places(meld: tuple[Card, ...]) -> list[tuple[int, Card]]:
    """Each joker of a laid run by the place it holds in the meld as written (read left to right or right to
    left): its index in ``meld`` and the card it stands for there; none where the meld is written in no order."""
    places = []
    for cells in run_readings(meld):
        for written, turned in ((meld, False), (meld[::-1], True)):
            if all(w.is_joker or w == c for w, c in zip(written, cells)):
                places += [(len(meld) - 1 - i if turned else i, c)
                           for i, (w, c) in enumerate(zip(written, cells)) if w.is_joker]
    return places


def joker_cards(meld: tuple[Card, ...]) -> set[Card]:
    """The cards the jokers of a laid run may stand for: the place they hold in the meld as written
    (``* 7S 8S`` laid left to right: 6S), or, written in no order, any place that completes the run."""
    ordered = {card for _, card in _joker_places(meld)}
    if ordered:
        return ordered
    reals = [card for card in meld if not card.is_joker]
    return {card for cells in run_readings(meld) for card in cells if card not in reals}


def joker_place(meld: tuple[Card, ...], card: Card) -> int:
    """Where in ``meld`` as written the joker standing for ``card`` lies (``* 5H *`` and 6H: 2); the first
    joker where the meld, written in no order, does not say.

    >>> joker_place(cards_like("* 5H *"), Card(6, "H")), joker_place(cards_like("5H * *"), Card(7, "H"))
    (2, 2)
    """
    return next((index for index, stands in _joker_places(meld) if stands == card),
                next(i for i, w in enumerate(meld) if w.is_joker))


def rami_joker_swap(meld: CardsLike, cards: CardsLike, *, opened: bool) -> JokerSwap:
    """M5: take the joker from a laid ``meld`` by putting ``cards`` in its place.  Only a player who has
    opened may; from a run the exact card the joker stands for; from a set only when the set then holds
    four real cards.

    >>> rami_joker_swap("9C 9D 9H *", "9S", opened=True).allowed
    True
    >>> rami_joker_swap("9C 9D *", "9S", opened=True).reason
    'a joker leaves a set only when the set then holds four real cards (M5): 9C 9D 9S has 3'
    """
    laid, given = cards_like(meld), cards_like(cards)
    check = check_rami_meld(laid)
    if not check.valid:
        return JokerSwap(False, 0, laid, f"the laid meld is not valid: {check.reason}")
    if JOKER not in laid:
        return JokerSwap(False, 0, laid, f"there is no joker in {format_cards(laid)}")
    if not opened:
        return JokerSwap(False, 0, laid, "only a player who has opened may take a joker from the table (M5)")
    if not given or JOKER in given:
        return JokerSwap(False, 0, laid, "put the real card the joker stands for in its place")
    after = tuple(card for card in laid if not card.is_joker) + given
    if check.kind == "set":
        result = check_rami_meld(after)
        if not result.valid:
            return JokerSwap(False, 0, laid, f"{format_cards(given)} cannot replace the joker: {result.reason}")
        if len(after) != 4:
            return JokerSwap(False, 0, laid, "a joker leaves a set only when the set then holds four real cards "
                                             f"(M5): {format_cards(after)} has {len(after)}")
        return JokerSwap(True, 1, after, f"{format_cards(given)} completes the set {format_cards(after)}: take "
                                         "the joker and lay it again this turn if you can (M5)")
    stands = joker_cards(laid)
    if len(given) != 1 or given[0] not in stands:
        wanted = " or ".join(sorted(card.code for card in stands))
        return JokerSwap(False, 0, laid, f"the joker in {format_cards(laid)} stands for {wanted}; put exactly "
                                         "that card in its place (M5)")
    placed = tuple(given[0] if card.is_joker else card for card in laid)
    return JokerSwap(True, 1, placed, f"{given[0].code} takes the joker's place: take the joker and lay it again "
                                      "this turn if you can (M5)")


@dataclass(frozen=True)
class GoingOut:
    """Whether a hand can go out now (M6/M7, T6): the ``melds`` laid, the ``discard`` (``None`` when every
    card is laid), and whether it is a rami sec / a Rummy (everything at once by a player not yet opened)."""

    possible: bool
    melds: tuple[MeldCheck, ...]
    discard: Card | None
    value: int
    all_at_once: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "possible": self.possible,
            "melds": [[card.code for card in meld.ordered] for meld in self.melds],
            "discard": None if self.discard is None else self.discard.code,
            "value": self.value,
            "all_at_once": self.all_at_once,
            "reason": self.reason,
        }


def going_out(
    cards: CardsLike, rules: MeldRules, *, opened: bool, minimum: int, may_lay_last: bool, special: str, deck: Deck,
    game: str,
) -> GoingOut:
    """Can ``cards`` all be laid in valid melds now — every card (when ``may_lay_last``) or all but one
    discard?  A player not yet opened must reach ``minimum`` with them (then it is ``special``).  The cards are
    first counted against ``deck``, as an opening or a score counts them, and the hand after the draw holds at
    most :data:`MOST_HELD`."""
    hand = cards_like(cards)
    check_deal_counts([hand], deck, game)
    if len(hand) > MOST_HELD:  # M2, T3: the hand after the draw; no turn holds more (and the search stays quick)
        raise InvalidHandRecordError(f"impossible hand: {len(hand)} cards; going out is checked on the hand after the "
                                     f"draw, at most {MOST_HELD} cards (13 dealt + 1 drawn)")
    tries: list[tuple[Opening, Card | None]] = []
    if may_lay_last:
        tries.append((best_melds(hand, rules, cover=True), None))
    for discard in sorted(set(hand), key=Card.sort_key):
        rest = list(hand)
        rest.remove(discard)
        tries.append((best_melds(rest, rules, cover=True), discard))
    done = [(melds, discard) for melds, discard in tries if not melds.left and (opened or melds.value >= minimum)]
    if not done:
        short = [(melds, discard) for melds, discard in tries if not melds.left]
        if short:
            most = max(melds.value for melds, _ in short)
            reason = f"every card can be laid, but only for {most}: a player who has not opened needs {minimum}"
        else:
            reason = "the cards cannot all be laid in valid melds (counting this hand alone, not the table)"
        return GoingOut(False, (), None, 0, False, reason)
    laid, last = max(done, key=lambda item: (item[1] is None, item[0].value))
    ending = "laying every card" if last is None else f"discarding {last.code}"
    reason = f"goes out by {ending}"
    if not opened:
        reason += f": {special}, everything at once for {laid.value} (at least {minimum})"
    return GoingOut(True, laid.melds, last, laid.value, not opened, reason)


def rami_going_out(cards: CardsLike, *, opened: bool, options: RamiOptions | None = None) -> GoingOut:
    """M6/M7: can the player go out with ``cards`` — by laying everything, or all but a final discard?
    Not opened yet: only for at least the opening minimum, and then it is a rami sec.

    >>> rami_going_out("QS KS AS KH KD KC 7D", opened=False, options=RamiOptions()).reason
    'goes out by discarding 7D: rami sec, everything at once for 61 (at least 40)'
    >>> rami_going_out("AS 2S 3S KH KD KC 7D", opened=False, options=RamiOptions()).reason
    'every card can be laid, but only for 36: a player who has not opened needs 40'
    >>> rami_going_out("* * * * * 2H 3H 4H 5H 6H 7H 8H 9H", opened=True)
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible cards: 5 × *, but the game has only 4 jokers (Rami with this many players plays 3 decks + 4 jokers = 160 cards)
    """
    options = _options(options)
    return going_out(cards, RAMI_MELDS, opened=opened, minimum=options.opening, may_lay_last=True,
                     special="rami sec", deck=rami_deck(None, options), game="Rami")


def rami_card_penalty(card: Card, options: RamiOptions | None = None) -> int:
    """M7: what a card left in hand costs: 2-10 face, J/Q/K 10, ace 11, joker ``joker_penalty``."""
    return card_penalty(card, _options(options).joker_penalty)


@dataclass(frozen=True)
class RamiHandScore:
    """One hand on the Rami sheet (M7): ``scores[s]`` is what seat ``s`` adds (the finisher 0);
    ``per_seat[s]`` the lines about seat ``s``."""

    players: int
    finisher: int | None
    rami_sec: bool
    scores: tuple[int, ...]
    explain: tuple[Explanation, ...]
    per_seat: tuple[tuple[Explanation, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


_FIELDS = ("finisher", "rami_sec", "players")
_PLAYER_FIELDS = ("opened", "cards")


def admit_rami_hand(hand: Mapping[str, Any], options: RamiOptions | None = None, standings: Any = None) -> None:
    """Refuse a new hand record no turn can produce (the registry's ``admit_hand``: checked where a hand enters,
    never on replay): a finisher marked as never opened who did not go out in one turn — going out without
    having opened earlier is a rami sec (M7).

    >>> admit_rami_hand({"finisher": 0, "rami_sec": False, "players": [{"opened": False, "cards": ""},
    ...                                                                {"opened": True, "cards": "7S"}]})
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidHandRecordError: player 1 went out but is marked as never opened: going out without having opened earlier is going out in one turn, a rami sec (M7); mark rami_sec true, or opened true for player 1 if they opened in an earlier turn
    """
    score_rami_hand(hand, options)  # the record's shape, named where it is wrong
    finisher = hand["finisher"]
    entries = players_list(hand, PLAYERS, "Rami")
    for number, entry in enumerate(entries):
        label = f"player {number + 1}"
        cards = held_cards(entry, label, _PLAYER_FIELDS)
        if isinstance(cards, int) or number == finisher:
            continue
        check_most_held(cards, label, "M1, M2", "ends")
        if not cards and flag(entry, "opened", label, default=None):
            raise InvalidHandRecordError(
                f"{label} keeps no cards, but the hand ends the moment a player has none, and that player went out "
                f"(M6): give the cards {label} kept, or mark {label} as the one who went out")
    if finisher is None or flag(hand, "rami_sec", "the hand record"):
        return
    if not flag(entries[finisher], "opened", f"player {finisher + 1}", default=True):
        raise InvalidHandRecordError(
            f"{player(finisher)} went out but is marked as never opened: going out without having opened earlier "
            "is going out in one turn, a rami sec (M7); mark rami_sec true, or opened true for "
            f"{player(finisher)} if they opened in an earlier turn"
        )


def score_rami_hand(hand: Mapping[str, Any], options: RamiOptions | None = None) -> RamiHandScore:
    """Score one recorded Rami hand (M6, M7); see the module docstring for the record."""
    options = _options(options)
    check_fields(hand, _FIELDS, "a Rami hand record")
    entries = players_list(hand, PLAYERS, "Rami")
    players = len(entries)
    if "finisher" not in hand:
        raise InvalidHandRecordError("missing field 'finisher': the seat that went out (0 is player 1), "
                                     "or null when the stock ran out")
    finisher = None if hand["finisher"] is None else seat(hand["finisher"], players, "finisher")
    rami_sec = flag(hand, "rami_sec", "the hand record")
    if rami_sec and finisher is None:
        raise InvalidHandRecordError("rami_sec needs a finisher: nobody went out when the stock ran out")
    held: list[tuple[Card, ...] | int] = []
    opened: list[bool] = []
    for number, entry in enumerate(entries):
        label = f"player {number + 1}"
        held.append(held_cards(entry, label, _PLAYER_FIELDS))
        opened.append(flag(entry, "opened", label, default=True if number == finisher else None))
    check_finisher_empty(held, finisher)
    check_deal_counts(held, rami_deck(players, options), "Rami")

    lines: list[Explanation] = []
    per_seat: list[list[Explanation]] = [[] for _ in range(players)]
    base: list[int] = []
    for number in range(players):
        value, line = _seat_penalty(number, held[number], opened[number], number == finisher, options)
        base.append(value)
        per_seat[number].append(line)
    scores = list(base)
    if finisher is None:
        best = min(base)
        lowest = [number for number in range(players) if base[number] == best]
        lines.append(Explanation("rami.stock_out", {"seats": lowest, "value": best},
                                 f"The stock ran out (M6): the lowest hand, {best}, wins the hand and scores 0."))
        for number in lowest:
            scores[number] = 0
            per_seat[number].append(Explanation("rami.lowest", {"seat": number, "was": base[number]},
                                                f"{who(number)} has the lowest hand: 0 (M6)."))
    doubled = rami_sec and options.rami_sec_doubles
    if rami_sec:
        assert finisher is not None  # checked above
        text = (f"{who(finisher)} went out in one turn without having opened (rami sec): "
                + ("every other penalty is doubled (M7)." if doubled else "no doubling (option off)."))
        lines.append(Explanation("rami.rami_sec", {"finisher": finisher, "doubles": doubled}, text))
    if doubled:
        for number in range(players):
            if number != finisher and scores[number]:
                per_seat[number].append(Explanation(
                    "rami.doubled", {"seat": number, "was": scores[number], "score": scores[number] * 2},
                    f"{who(number)}: {scores[number]} × 2 (rami sec) = {scores[number] * 2}."))
                scores[number] *= 2
    explain = tuple(lines) + tuple(line for seat_lines in per_seat for line in seat_lines)
    return RamiHandScore(players, finisher, rami_sec, tuple(scores), explain,
                         tuple(tuple(seat_lines) for seat_lines in per_seat))


def _seat_penalty(
    number: int, held: tuple[Card, ...] | int, opened: bool, finished: bool, options: RamiOptions
) -> tuple[int, Explanation]:
    if finished:
        return 0, Explanation("rami.finisher", {"seat": number}, f"{who(number)} went out: 0.")
    if not opened:
        points = options.not_opened_penalty
        return points, Explanation("rami.not_opened", {"seat": number, "points": points},
                                   f"{who(number)} never opened: {points} (M7).")
    if isinstance(held, int):
        return held, Explanation("rami.typed", {"seat": number, "points": held},
                                 f"{who(number)} keeps cards worth {held} (typed at the table).")
    if not held:
        return 0, Explanation("rami.empty", {"seat": number}, f"{who(number)} keeps no cards: 0.")
    values = [rami_card_penalty(card, options) for card in held]
    total = sum(values)
    terms = penalty_terms(held, values)
    return total, Explanation(
        "rami.cards", {"seat": number, "cards": format_cards(held), "points": total,
                       "terms": " + ".join(str(value) for value in values)},
        f"{who(number)} keeps {format_cards(held)}: {terms} = {total}.")


def rami_standings(players: int, hands: Sequence[RamiHandScore], options: RamiOptions | None = None) -> CardStandings:
    """Replay a Rami match (M7): a fixed number of hands, or until a total passes ``elimination_at``;
    lowest total wins.

    >>> hand = score_rami_hand({"finisher": 0, "players": [{"cards": ""}, {"opened": False, "cards": "2C"}]})
    >>> rami_standings(2, [hand] * 5, RamiOptions()).winners
    (0,)
    """
    options = _options(options)
    return card_standings("rami", "M7", players, hands, options, PLAYERS)


def rami_deal(players: int, hand: int, first_dealer: int = 0, options: RamiOptions | None = None, *,
              dealer: int | None = None) -> DealInstructions:
    """M1/M2: who deals hand ``hand`` (the deal rotates to the left; ``dealer``: this hand's dealer, when the
    table knows it), 13 cards each, play clockwise, the player on the dealer's left starts.

    >>> rami_deal(4, 2, 0).explain[1]
    Hand 2: player 4 deals.
    """
    options = _options(options)
    return deal_instructions("rami", "M1", players=players, hand=hand, first_dealer=first_dealer,
                             cards_each=CARDS_EACH, direction="clockwise", deck=rami_deck(players, options),
                             dealer=dealer)


def rami_pass_deal(dealer: int, seats: int, options: Any, score: Any, standings: Any = None) -> int:
    """M2: the deal rotates clockwise: the player on the dealer's left deals next.

    >>> rami_pass_deal(0, 4, None, None)
    3
    """
    return pass_deal(dealer, seats, "clockwise")
