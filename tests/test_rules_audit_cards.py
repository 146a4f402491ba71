"""Card games: the stumbles an audit of the engine against the rule book found (fortieth round).

Each test fails on the engine as it was and names the rule it holds to.
"""

from __future__ import annotations

import pytest

from companion.rules.cards import JOKER, parse_card, parse_cards
from companion.rules.rami import check_rami_meld, joker_place
from companion.rules.thai import THAI_PROFILES, ThaiOptions, score_thai_hand
from companion.rules.turkish import (
    PROFILES,
    TurkishOptions,
    best_turkish_opening,
    check_turkish_meld,
    score_turkish_hand,
    turkish_going_out,
    turkish_joker_swap,
)


@pytest.mark.parametrize("code", ["JK", "jk", "Jk", " JK "])
def test_notation_JK_is_a_joker(code: str) -> None:
    assert parse_card(code) == JOKER
    assert parse_cards(f"9C 9D 9H {code.strip()}") == parse_cards("9C 9D 9H *")
    assert check_rami_meld(f"9C 9D 9H {code.strip()}").value == 36  # M4's worked value


def test_notation_JK_never_shadows_a_card() -> None:
    assert parse_card("JS") != JOKER and parse_card("KS") != JOKER
    assert str(parse_card("JH")) == "JH"


@pytest.mark.parametrize(("meld", "card", "after"), [
    ("* 5H *", "6H", "* 5H 6H"),
    ("* 5H *", "4H", "4H 5H *"),
    ("5H * *", "7H", "5H * 7H"),
    ("5H * *", "6H", "5H 6H *"),
    ("* * 7H", "6H", "* 6H 7H"),
    ("* * 7H", "5H", "5H * 7H"),
    ("* 7S 8S", "6S", "6S 7S 8S"),
    ("9H * JH QH", "10H", "9H 10H JH QH"),
])
def test_T5_the_swapped_card_takes_the_place_of_the_joker_that_stood_for_it(meld: str, card: str, after: str) -> None:
    swap = turkish_joker_swap(meld, card, opened=True)
    assert swap.allowed and swap.freed == 1
    assert swap.meld_after == parse_cards(after)
    assert check_turkish_meld(swap.meld_after).valid


def test_T5_joker_place_reads_a_run_laid_high_to_low() -> None:
    assert joker_place(parse_cards("7H * 5H"), parse_card("6H")) == 1
    assert joker_place(parse_cards("* 6H 5H"), parse_card("7H")) == 0


def test_T1_a_meld_cannot_hold_more_jokers_than_the_deck() -> None:
    three = check_turkish_meld("JS QS * * *")
    assert not three.valid and "only 2 jokers per meld, this has 3" in three.reason
    assert check_turkish_meld("JS QS * *").valid  # T5 speaks of a set with two jokers
    assert check_turkish_meld("KS * *").value == 30


def test_T1_the_best_opening_never_uses_a_third_joker() -> None:
    # Only two jokers in the deck: the hand cannot show three, and the opening search keeps to two a meld.
    opening = best_turkish_opening("* * 2H 3H 8C 8D 8S KS")
    assert all(meld.cards.count(JOKER) <= 2 for meld in opening.best.melds)


def _first_card_bonus(hand: dict[str, object], options: ThaiOptions, seat: int) -> int:
    without = dict(hand, first_card=None, first_card_by=None)
    return score_thai_hand(hand, options).scores[seat] - score_thai_hand(without, options).scores[seat]


def test_D6_option_a_speto_first_up_card_pays_at_least_the_first_card_bonus() -> None:
    # "The first up-card worth 50 (100 if speto)": with only first_card_bonus on, a speto still pays 50.
    hand = {"knocker": 0, "knock_card": "5H", "dark": False, "fed_by": None, "first_card": "QS", "first_card_by": 0,
            "players": [{"laid": "QS KS AS", "hand": "", "born": True}, {"laid": "7C 7D 7H", "hand": "3H", "born": True}]}
    assert _first_card_bonus(hand, ThaiOptions(first_card_bonus=50), 0) == 50
    assert _first_card_bonus(hand, ThaiOptions(**THAI_PROFILES["thai_table"]), 0) == 100
    assert _first_card_bonus(hand, ThaiOptions(first_card_speto_bonus=100), 0) == 100
    seven = dict(hand, first_card="7C", first_card_by=1)
    assert _first_card_bonus(seven, ThaiOptions(first_card_bonus=50), 1) == 50
    assert _first_card_bonus(seven, ThaiOptions(first_card_speto_bonus=100), 1) == 0


def test_T6_a_Rummy_is_Rummy_40s_the_rummy51_profile_has_no_bonus() -> None:
    hand = {"finisher": 0, "rummy": True, "players": [{"cards": ""}, {"cards": "AS * 7H"}, {"cards": "KD"}]}
    assert score_turkish_hand(hand).scores == (0, 58, 35)  # T7's example, Rummy 40
    fifty_one = TurkishOptions(**PROFILES["rummy51"])
    score = score_turkish_hand(hand, fifty_one)
    assert score.scores == (0, 33, 10)
    assert not any("Rummy" in line.text for line in score.explain)
    going = turkish_going_out("KH KS KD 5C 6C 7C 9C 10C JC QC AD AH AS 2D", opened=False, options=fifty_one)
    assert "Rummy," not in going.reason and "at least 51" in going.reason
