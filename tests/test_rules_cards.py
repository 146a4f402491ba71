"""Card notation (RULES.md §M, §T, §D share it), multi-deck multisets and deck composition."""

import random

import pytest

from companion.rules.cards import (
    ALL_CARDS,
    JOKER,
    Card,
    Deck,
    Suit,
    card_counts,
    card_from_index,
    card_like,
    cards_like,
    check_card_counts,
    format_cards,
    parse_card,
    parse_cards,
    sort_cards,
)
from companion.rules.errors import ImpossibleHandError, InvalidCardError, RulesError


def test_cards_repr_is_the_notation():
    assert repr(parse_cards("AS 10H QC *")) == "(AS, 10H, QC, *)"
    assert str(parse_card("kd")) == "KD"
    assert parse_card("AS") == Card(1, Suit.SPADES)
    assert parse_card("KH") == Card(13, Suit.HEARTS)
    assert JOKER.is_joker and not parse_card("2C").is_joker


def test_cards_round_trip_every_card():
    every = (*ALL_CARDS, JOKER)
    assert parse_cards(format_cards(every)) == every
    assert parse_cards(format_cards(every, symbols=True)) == every
    assert [card_from_index(c.index) for c in every] == list(every)
    assert len({c.index for c in every}) == 53


def test_cards_round_trip_random_hands():
    rng = random.Random(8)
    deck = Deck(decks=3, jokers=4).cards()
    for _ in range(200):
        hand = tuple(rng.sample(deck, rng.randint(0, 20)))
        assert parse_cards(format_cards(hand)) == hand
        assert parse_cards(", ".join(c.code.lower() for c in hand)) == hand


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("th", "10H"), ("10h", "10H"), ("T♥", "10H"), ("a♠", "AS"), ("♥", None), ("q♣", "QC"), ("j♦", "JD"),
        ("K♡", "KH"), ("A♠️", "AS"), ("joker", "*"), ("*", "*"), ("2c", "2C"),
    ],
)
def test_cards_accepted_spellings(text, expected):
    if expected is None:
        with pytest.raises(InvalidCardError):
            parse_card(text)
    else:
        assert parse_card(text).code == expected


def test_cards_separators_lower_case_and_commas():
    assert parse_cards("  2c,3d ;  ah|kh,,  ") == parse_cards("2C 3D AH KH")
    assert parse_cards("") == ()
    assert parse_cards("as,as") == (parse_card("AS"), parse_card("AS"))


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("11H", "unknown rank '11'"),
        ("1H", "write A for the ace"),
        ("AX", "unknown suit 'X'"),
        ("K", "the suit is missing"),
        ("H", "the rank is missing"),
        ("7Z", "unknown suit 'Z'"),
        ("JJ", "unknown suit"),
    ],
)
def test_cards_errors_quote_the_bad_token(token, fragment):
    with pytest.raises(InvalidCardError) as error:
        parse_cards(f"AS {token} 2C")
    message = str(error.value)
    assert repr(token) in message and fragment in message
    assert isinstance(error.value, RulesError) and isinstance(error.value, ValueError)


@pytest.mark.parametrize("value", [7, None, 3.5, ["AS", 7], {"AS": 1}])
def test_cards_wrong_types_are_refused_clearly(value):
    with pytest.raises(InvalidCardError):
        cards_like(value)


def test_cards_card_like_normalises():
    card = parse_card("9D")
    assert card_like(card) is card and card_like("9d") == card
    assert cards_like([card, "9d"]) == (card, card)
    with pytest.raises(InvalidCardError):
        card_like(9)


def test_cards_constructor_checks_the_rank():
    with pytest.raises(InvalidCardError):
        Card(14, Suit.SPADES)
    with pytest.raises(InvalidCardError):
        Card(3, None)


def test_cards_sort_and_multisets():
    assert format_cards(sort_cards("* KH 2S AH 10S")) == "2S 10S AH KH *"
    counts = card_counts("7S 7S 7H *")
    assert counts[parse_card("7S")] == 2 and counts[JOKER] == 1


@pytest.mark.parametrize(
    ("decks", "jokers", "size"), [(2, 4, 108), (3, 4, 160), (2, 2, 106), (3, 3, 159), (1, 0, 52)]
)
def test_cards_deck_sizes(decks, jokers, size):
    deck = Deck(decks=decks, jokers=jokers)
    assert deck.size == size == len(deck.cards())
    check_card_counts(deck.cards(), deck)
    assert card_counts(deck.cards())[parse_card("QS")] == decks


def test_cards_count_check_refuses_a_third_copy_in_two_decks():
    deck = Deck(decks=2, jokers=4)
    check_card_counts("7S 7S", deck)
    with pytest.raises(ImpossibleHandError, match=r"3 × 7S, but 2 decks hold only 2"):
        check_card_counts("7S 7♠ 7s", deck)
    with pytest.raises(ImpossibleHandError, match=r"5 × \*, but the game has only 4 jokers"):
        check_card_counts("* * * * *", deck)


def test_cards_count_check_refuses_a_joker_in_a_deck_without_jokers():
    with pytest.raises(ImpossibleHandError, match="a joker"):
        check_card_counts("2C *", Deck(decks=1, jokers=0))
    with pytest.raises(ImpossibleHandError, match="1 deck holds only 1"):
        check_card_counts("2C 2C", Deck(decks=1, jokers=0))


@pytest.mark.parametrize("bad", [{"decks": 0, "jokers": 0}, {"decks": 2, "jokers": -1}, {"decks": True, "jokers": 0}])
def test_cards_deck_refuses_nonsense(bad):
    with pytest.raises(InvalidCardError):
        Deck(**bad)


def test_M1_T1_an_opening_with_more_copies_than_the_decks_hold_is_refused() -> None:
    from companion.rules.errors import ImpossibleHandError
    from companion.rules.rami import best_rami_opening
    from companion.rules.turkish import best_turkish_opening

    with pytest.raises(ImpossibleHandError, match="7S"):
        best_turkish_opening("7S 7S 7S")  # T1: two decks
    with pytest.raises(ImpossibleHandError, match="7S"):
        best_rami_opening("7S 7S 7S 7S")  # M1: three decks at most
    assert best_rami_opening("7S 7S 7S").value == 0  # three decks for 5-6 players
