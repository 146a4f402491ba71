"""Turkish Rummy — Rummy 40 / 51 (RULES.md §T, seed 004): values, melds, the opening, jokers, the sheet.

Two decks and two jokers (106 cards, T1), 13 cards each.  Values (T2): 2-9 face, 10/J/Q/K 10, ace 11; a
joker in a meld is worth the card it replaces (the lower one when it could replace two), 15 in hand.
Sets are 3 or 4 cards of one rank, never a repeated suit; runs are 3+ consecutive cards of one suit (the
ace low in A-2-3 or high in Q-K-A, never K-A-2).  A meld may hold more than one joker (T5 speaks of a set
with two jokers) but needs one real card.

>>> [check_turkish_meld(m).value for m in ("KH KS KD", "AH 2H 3H", "QH KH AH", "7S * *")]
[30, 16, 31, 18]
>>> best_turkish_opening("KH KS KD 5C 6C 7C 2D", TurkishOptions()).to_dict()["opens"]
True

A hand record (the ``turkish_hand`` event and the batch ``score`` op)::

    {"finisher": 0, "rummy": false, "players": [{"cards": ""}, {"cards": "2C 3D"}, ...]}

>>> score_turkish_hand({"finisher": 1, "rummy": True, "players": [{"cards": "AS *"}, {"cards": ""}]}).scores
(51, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.rules._card_melds import LaidMelds, MeldCheck, MeldRules, best_melds, check_meld, judge_laid
from companion.rules._card_sheet import (
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
from companion.rules.explain import Explanation, result_dict
from companion.rules.rami import GoingOut, JokerSwap, RamiOpening, going_out, joker_cards, joker_place

__all__ = [
    "PLAYERS",
    "DECK",
    "TurkishOptions",
    "PROFILES",
    "TurkishHandScore",
    "turkish_melds",
    "check_turkish_meld",
    "check_turkish_laid",
    "best_turkish_opening",
    "turkish_joker_swap",
    "turkish_going_out",
    "turkish_card_value",
    "admit_turkish_hand",
    "score_turkish_hand",
    "turkish_standings",
    "turkish_deal",
    "turkish_pass_deal",
]

PLAYERS: tuple[int, ...] = (2, 3, 4, 5, 6)
"""2-6 players (the seed gives no limit; 106 cards deal 13 each to six with a stock left)."""

DECK = Deck(decks=2, jokers=2)
"""T1: 2 decks + 2 jokers, 106 cards."""

CARDS_EACH = 13

Direction = Literal["counterclockwise", "clockwise"]


@dataclass(frozen=True)
class TurkishOptions:
    """Turkish Rummy (RULES.md §T)."""

    opening: Literal[40, 51] = 40
    """T3: the value the first lay-down must reach (Rummy 40 or Rummy 51)."""
    joker_penalty: int = 15
    """T2/T7: what a joker left in hand costs."""
    rummy_bonus: int = 25
    """T6/T7: what every other player adds on top of the cards in hand after a Rummy."""
    low_ace_one: bool = False
    """T2 house rule: a low ace in A-2-3 is worth 1 instead of 11."""
    direction: Direction = "counterclockwise"
    """Which way play and the deal go (Turkish tables play to the right, counter-clockwise)."""
    hands: int = 5
    """The number of hands in the match (0 = no fixed number)."""
    elimination_at: int = 0
    """The match ends when a total passes this (0 = off); lowest total wins."""


PROFILES: dict[str, dict[str, Any]] = {
    "reference": {},
    # Seed 004: a Rummy is Rummy 40's; in Rummy 51 laying everything at once is plain going out (T6).
    "rummy51": {"opening": 51, "rummy_bonus": 0},
    "elimination": {"hands": 0, "elimination_at": 101},
}


def _options(options: TurkishOptions | None) -> TurkishOptions:
    if options is None:
        return TurkishOptions()
    if not isinstance(options, TurkishOptions):
        raise InvalidOptionError(f"options {options!r} are not Turkish Rummy options; use options_for('turkish')")
    return options


def turkish_melds(options: TurkishOptions | None = None) -> MeldRules:
    """T2: several jokers per meld, at most the deck's two (T1); the ace 11 everywhere (1 in A-2-3 with
    ``low_ace_one``)."""
    return MeldRules(max_jokers=2, low_ace=1 if _options(options).low_ace_one else 11)


def check_turkish_meld(cards: CardsLike, options: TurkishOptions | None = None) -> MeldCheck:
    """T2/T4: one meld's verdict and value."""
    return check_meld(cards, turkish_melds(options))


def _check_players(players: int | None) -> None:
    """A player count given with a request: one Turkish Rummy is played by (T1; its deck is the same for all)."""
    if players is not None and (isinstance(players, bool) or players not in PLAYERS):
        raise InvalidHandRecordError(f"invalid players {players!r}: Turkish Rummy is played by 2 to 6")


def check_turkish_laid(melds: str | Sequence[CardsLike], options: TurkishOptions | None = None, *,
                       players: int | None = None) -> LaidMelds:
    """T3: melds as laid at an opening (separated by ``|``), their cards counted together against the deck (T1),
    each judged, and whether together they reach ``options.opening``.

    >>> check_turkish_laid("* 7S 8S | * 7H 8H | 5D 6D 7D").reason
    'opens: melds worth 60 (at least 40, T3)'
    >>> check_turkish_laid("* 7S 8S | * 7H 8H | * 7D 8D")
    Traceback (most recent call last):
    ...
    companion.rules.errors.ImpossibleHandError: impossible cards: 3 × *, but the game has only 2 jokers (Turkish Rummy with this many players plays 2 decks + 2 jokers = 106 cards)
    """
    options = _options(options)
    _check_players(players)
    return judge_laid(melds, turkish_melds(options), options.opening, "T3", deck=DECK, game="Turkish Rummy")


def best_turkish_opening(cards: CardsLike, options: TurkishOptions | None = None, *,
                         players: int | None = None) -> RamiOpening:
    """T3: the highest total of disjoint valid melds in ``cards``, and whether it reaches the opening."""
    options = _options(options)
    _check_players(players)
    hand = cards_like(cards)
    check_deal_counts([hand], DECK, "Turkish Rummy")
    return RamiOpening(best_melds(hand, turkish_melds(options)), options.opening)


def turkish_joker_swap(meld: CardsLike, cards: CardsLike, *, opened: bool,
                       options: TurkishOptions | None = None) -> JokerSwap:
    """T5: free a joker from a laid meld.  A three-card set with one joker: adding both missing suits
    frees it (one only makes a closed four-card set, the joker stays); with two jokers, adding the two
    missing cards frees one; a four-card set is closed.  A run: the holder of the represented card swaps it.

    >>> turkish_joker_swap("10H 10S *", "10D 10C", opened=True).freed
    1
    >>> turkish_joker_swap("10H 10S *", "10D", opened=True).reason
    '10D closes the set 10H 10S 10D * (T5): the joker stays'
    >>> turkish_joker_swap("10H * *", "10S", opened=True).reason
    '10S closes the set 10H 10S * * (T5): the jokers stay'
    """
    rules = turkish_melds(options)
    laid, given = cards_like(meld), cards_like(cards)
    check = check_meld(laid, rules)
    jokers = laid.count(JOKER)
    if not check.valid:
        return JokerSwap(False, 0, laid, f"the laid meld is not valid: {check.reason}")
    if not jokers:
        return JokerSwap(False, 0, laid, f"there is no joker in {format_cards(laid)}")
    if not opened:
        return JokerSwap(False, 0, laid, "only a player who has opened may add to the table's melds (T4)")
    if not given or JOKER in given:
        return JokerSwap(False, 0, laid, "give the real cards you add")
    reals = tuple(card for card in laid if not card.is_joker)
    # "10H * *" reads as a set or a run; the cards added say which the table laid.
    as_set = check.kind == "set" or (len(reals) == 1 and all(card.rank == reals[0].rank for card in given))
    if as_set:
        if len(laid) == 4:
            return JokerSwap(False, 0, laid, f"{format_cards(laid)} is a closed four-card set (T5)")
        after = reals + given
        if len(after) > 4:
            return JokerSwap(False, 0, laid, f"{format_cards(given)} cannot join the set {format_cards(laid)}: "
                                              f"a set has at most 4 cards, and {format_cards(after)} are "
                                              f"{len(after)} (T2)")
        # The jokers that still fit stay in the set (T5): judge the set with them, not the real cards alone.
        kept = min(jokers, 4 - len(after))
        closed = after + (JOKER,) * kept
        result = check_meld(closed, rules)
        if not result.valid or result.kind != "set":
            why = result.reason if not result.valid else f"{format_cards(closed)} is not a set of one rank"
            return JokerSwap(False, 0, laid, f"{format_cards(given)} cannot join the set: {why}")
        if kept == jokers:
            return JokerSwap(True, 0, closed, f"{format_cards(given)} closes the set {format_cards(closed)} (T5): "
                                              f"the joker{'s stay' if jokers > 1 else ' stays'}")
        freed = jokers - kept
        return JokerSwap(True, freed, closed, f"{format_cards(given)} fills the set {format_cards(closed)}: "
                                              f"{'one joker is' if freed == 1 else f'{freed} jokers are'} freed (T5)")
    stands = joker_cards(laid)
    if len(given) != 1 or given[0] not in stands:
        wanted = " or ".join(sorted(card.code for card in stands))
        return JokerSwap(False, 0, laid, f"a joker in {format_cards(laid)} stands for {wanted}; swap exactly "
                                         "that card for it (T5)")
    position = joker_place(laid, given[0])
    placed = laid[:position] + given + laid[position + 1:]
    return JokerSwap(True, 1, placed, f"{given[0].code} takes the joker's place: the joker may be used anywhere (T5)")


def turkish_going_out(cards: CardsLike, *, opened: bool, options: TurkishOptions | None = None) -> GoingOut:
    """T6: going out is laying all the cards but one and discarding it.  A player not yet opened who
    does it all at once (for at least the opening) makes a Rummy.

    >>> turkish_going_out("KH KS KD 5C 6C 7C 9D", opened=False).reason
    'goes out by discarding 9D: Rummy, everything at once for 48 (at least 40)'
    """
    options = _options(options)
    return going_out(cards, turkish_melds(options), opened=opened, minimum=options.opening, may_lay_last=False,
                     special="Rummy" if options.rummy_bonus else "no Rummy bonus at this table", deck=DECK,
                     game="Turkish Rummy")


def turkish_card_value(card: Card, options: TurkishOptions | None = None) -> int:
    """T7: what a card left in hand costs: 2-9 face, 10/J/Q/K 10, ace 11, joker 15."""
    return card_penalty(card, _options(options).joker_penalty)


@dataclass(frozen=True)
class TurkishHandScore:
    """One hand on the Turkish sheet (T7): ``scores[s]`` is what seat ``s`` adds (the finisher 0)."""

    players: int
    finisher: int
    rummy: bool
    scores: tuple[int, ...]
    explain: tuple[Explanation, ...]
    per_seat: tuple[tuple[Explanation, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self)


_FIELDS = ("finisher", "rummy", "players")


def admit_turkish_hand(hand: Mapping[str, Any], options: TurkishOptions | None = None, standings: Any = None) -> None:
    """Refuse a new hand record no turn can produce (the registry's ``admit_hand``: checked where a hand enters,
    never on replay): a loser holding more than the 14 cards a player ever holds (13 dealt + 1 drawn, T1).

    >>> admit_turkish_hand({"finisher": 0, "players": [{"cards": ""}, {"cards": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC "
    ...                                                                        "KC AC 2D 3D"}]})
    Traceback (most recent call last):
    ...
    companion.rules.errors.InvalidHandRecordError: player 2 keeps 15 cards (2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D), but a player holds at most 14 (13 dealt + 1 drawn, T1) when the hand stops (T6, T7): give only the cards left in their hand, not those laid on the table
    """
    score_turkish_hand(hand, options)  # the record's shape, named where it is wrong
    for number, entry in enumerate(players_list(hand, PLAYERS, "Turkish Rummy")):
        label = f"player {number + 1}"
        check_most_held(held_cards(entry, label, ("cards",)), label, "T1", "stops (T6, T7)")


def score_turkish_hand(hand: Mapping[str, Any], options: TurkishOptions | None = None) -> TurkishHandScore:
    """Score one recorded Turkish Rummy hand (T6, T7); see the module docstring for the record."""
    options = _options(options)
    check_fields(hand, _FIELDS, "a Turkish Rummy hand record")
    entries = players_list(hand, PLAYERS, "Turkish Rummy")
    players = len(entries)
    if hand.get("finisher") is None:
        raise InvalidHandRecordError("missing field 'finisher': the seat that went out (0 is player 1)")
    finisher = seat(hand["finisher"], players, "finisher")
    rummy = flag(hand, "rummy", "the hand record")
    held: list[tuple[Card, ...] | int] = []
    for number, entry in enumerate(entries):
        label = f"player {number + 1}"
        held.append(held_cards(entry, label, ("cards",)))
    check_finisher_empty(held, finisher)
    check_deal_counts(held, DECK, "Turkish Rummy")

    lines: list[Explanation] = []
    if rummy and options.rummy_bonus:
        lines.append(Explanation("turkish.rummy", {"finisher": finisher, "bonus": options.rummy_bonus},
                                 f"{who(finisher)} made a Rummy, laying the whole hand at once: every other "
                                 f"player adds {options.rummy_bonus} (T6)."))
    per_seat: list[tuple[Explanation, ...]] = []
    scores: list[int] = []
    for number in range(players):
        score, line = _seat_score(number, held[number], number == finisher, rummy, options)
        scores.append(score)
        per_seat.append((line,))
    explain = tuple(lines) + tuple(line for seat_lines in per_seat for line in seat_lines)
    return TurkishHandScore(players, finisher, rummy, tuple(scores), explain, tuple(per_seat))


def _seat_score(number: int, held: tuple[Card, ...] | int, finished: bool, rummy: bool,
                options: TurkishOptions) -> tuple[int, Explanation]:
    if finished:
        return 0, Explanation("turkish.finisher", {"seat": number}, f"{who(number)} went out: 0.")
    bonus = options.rummy_bonus if rummy else 0
    extra = f" + {bonus} (Rummy)" if bonus else ""
    if isinstance(held, int):
        total = held + bonus
        return total, Explanation("turkish.typed", {"seat": number, "points": held, "bonus": bonus, "score": total},
                                  f"{who(number)} keeps cards worth {held} (typed at the table){extra} = {total}.")
    values = [turkish_card_value(card, options) for card in held]
    total = sum(values) + bonus
    terms = penalty_terms(held, values) or "0"
    shown = format_cards(held) if held else "no cards"
    return total, Explanation(
        "turkish.cards", {"seat": number, "cards": format_cards(held), "bonus": bonus, "score": total,
                          "terms": " + ".join([str(value) for value in values] + ([str(bonus)] if bonus else [])) or "0"},
        f"{who(number)} keeps {shown}: {terms}{extra} = {total}.")


def turkish_standings(players: int, hands: Sequence[TurkishHandScore],
                      options: TurkishOptions | None = None) -> CardStandings:
    """Replay a Turkish Rummy match: lowest total wins after ``hands`` hands (or when a total passes
    ``elimination_at``)."""
    return card_standings("turkish", "T7", players, hands, _options(options), PLAYERS)


def turkish_pass_deal(dealer: int, seats: int, options: TurkishOptions, score: Any, standings: Any = None) -> int:
    """The deal passes on in the direction of play (option ``direction``, to the right by default)."""
    return pass_deal(dealer, seats, _options(options).direction)


def turkish_deal(players: int, hand: int, first_dealer: int = 0,
                 options: TurkishOptions | None = None, *, dealer: int | None = None) -> DealInstructions:
    """T1: 106 cards, 13 each, one card up to start the discard pile; the deal passes on each hand.

    >>> turkish_deal(4, 1, 0).starter
    1
    """
    options = _options(options)
    return deal_instructions("turkish", "T1", players=players, hand=hand, first_dealer=first_dealer,
                             cards_each=CARDS_EACH, direction=options.direction, deck=DECK, dealer=dealer)
