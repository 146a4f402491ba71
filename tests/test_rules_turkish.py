"""RULES.md §T — Turkish Rummy (Rummy 40 / 51, seed 004)."""

import random

import pytest

from companion.rules._card_melds import best_melds
from companion.rules.cards import JOKER, Card, Suit, parse_cards
from companion.rules.errors import ImpossibleHandError, InvalidCardError, InvalidHandRecordError, RulesError
from companion.rules.turkish import (
    DECK,
    PROFILES,
    TurkishOptions,
    best_turkish_opening,
    check_turkish_meld,
    score_turkish_hand,
    turkish_card_value,
    turkish_deal,
    turkish_going_out,
    turkish_joker_swap,
    turkish_melds,
    turkish_standings,
)
from tests.card_oracle import oracle_best_value


def test_T1_two_decks_and_two_jokers_13_cards_each():
    assert DECK.size == 106 and DECK.jokers == 2
    deal = turkish_deal(4, 1, first_dealer=0)
    assert (deal.cards_each, deal.deck.size, deal.to_dict()["stock"]) == (13, 106, 106 - 52 - 1)
    assert "discard pile" in deal.explain[3].text


def test_T1_a_third_joker_or_copy_is_impossible():
    with pytest.raises(ImpossibleHandError, match="2 jokers"):
        score_turkish_hand({"finisher": 0, "players": [{"cards": ""}, {"cards": "* * *"}]})
    with pytest.raises(ImpossibleHandError, match="3 × 7S"):
        score_turkish_hand({"finisher": 0, "players": [{"cards": ""}, {"cards": "7S 7♠"}, {"cards": "7s"}]})


@pytest.mark.parametrize(("card", "value"), [("2C", 2), ("9H", 9), ("10D", 10), ("JS", 10), ("QH", 10),
                                             ("KC", 10), ("AS", 11), ("*", 15)])
def test_T2_values_in_hand(card, value):
    assert turkish_card_value(parse_cards(card)[0]) == value


def test_T2_values_in_melds_joker_is_the_card_it_replaces():
    assert check_turkish_meld("KH KS KD").value == 30
    assert check_turkish_meld("AH AS AD").value == 33
    assert check_turkish_meld("QH KH AH").value == 31
    assert check_turkish_meld("AH 2H 3H").value == 16  # the ace is 11 (T2)
    assert check_turkish_meld("AH 2H 3H", TurkishOptions(low_ace_one=True)).value == 6
    assert check_turkish_meld("9C 9D *").value == 27
    assert check_turkish_meld("7S * 9S").value == 24
    assert check_turkish_meld("* 7S 8S").value == 21  # 6S or 9S: the lower


def test_T2_repeated_suits_never_in_a_set():
    assert not check_turkish_meld("7S 7S 7H").valid
    assert not check_turkish_meld("7S 7S 7H 7D").valid
    assert check_turkish_meld("7S 7H 7D 7C").valid


def test_T2_runs_one_suit_never_wrapping_and_sets_with_two_jokers():
    assert not check_turkish_meld("KS AS 2S").valid
    assert check_turkish_meld("10H * *").valid
    assert check_turkish_meld("5H * * 8H").valid
    assert not check_turkish_meld("* * *").valid


def test_T3_opening_option_40_or_51():
    hand = "KH KS KD 5C 6C 7C 2D"  # 48
    assert best_turkish_opening(hand).opens
    assert not best_turkish_opening(hand, TurkishOptions(**PROFILES["rummy51"])).opens
    assert best_turkish_opening(hand).to_dict()["melds"] == [["KS", "KH", "KD"], ["5C", "6C", "7C"]]


def test_T3_best_opening_matches_the_brute_force_oracle():
    rng = random.Random(404)
    rules = turkish_melds()
    for _ in range(30):
        suits = rng.sample(list(Suit), rng.randint(1, 3))
        ranks = rng.sample([1, 2, 3, 4, 9, 10, 11, 12, 13], rng.randint(3, 6))
        pool = [Card(r, s) for s in suits for r in ranks] * 2 + [JOKER] * 2
        hand = rng.sample(pool, min(len(pool), rng.randint(5, 9)))
        found = best_melds(hand, rules)
        assert (found.value, found.cards_used) == oracle_best_value(hand, rules), hand
        covered = best_melds(hand, rules, cover=True)
        assert (covered.cards_used, covered.value) == oracle_best_value(hand, rules, cover=True), hand


def test_T5_set_with_a_joker_adding_both_missing_suits_frees_it():
    freed = turkish_joker_swap("10H 10S *", "10D 10C", opened=True)
    assert freed.allowed and freed.freed == 1 and freed.meld_after == parse_cards("10H 10S 10D 10C")
    closed = turkish_joker_swap("10H 10S *", "10D", opened=True)
    assert closed.allowed and closed.freed == 0 and JOKER in closed.meld_after
    assert not turkish_joker_swap("10H 10S 10D *", "10C", opened=True).allowed  # closed four-card set
    assert not turkish_joker_swap("10H 10S *", "10H 10D", opened=True).allowed


def test_T5_set_with_two_jokers_adding_the_two_missing_cards_frees_one():
    swap = turkish_joker_swap("10H * *", "10S 10D", opened=True)
    assert swap.allowed and swap.freed == 1 and swap.meld_after.count(JOKER) == 1


def test_T5_run_the_holder_of_the_represented_card_swaps_it():
    swap = turkish_joker_swap("5H * 7H", "6H", opened=True)
    assert swap.allowed and swap.meld_after == parse_cards("5H 6H 7H")
    assert not turkish_joker_swap("5H * 7H", "8H", opened=True).allowed
    assert not turkish_joker_swap("5H * 7H", "6H", opened=False).allowed


def test_T6_going_out_by_discarding_the_last_card():
    out = turkish_going_out("KH KS KD 5C 6C 7C 9D", opened=True)
    assert out.possible and out.discard == Card(9, Suit.DIAMONDS)
    assert not turkish_going_out("KH KS KD 5C 6C 7C", opened=True).possible  # no card left to discard
    assert turkish_going_out("KH KS KD 5C 6C 7C 9D", opened=False).all_at_once  # a Rummy


def test_T6_rummy_every_other_player_adds_25():
    score = score_turkish_hand({"finisher": 0, "rummy": True,
                                "players": [{"cards": ""}, {"cards": "2C"}, {"cards": ""}]})
    assert score.scores == (0, 27, 25)
    assert score.explain[0].key == "turkish.rummy"
    score = score_turkish_hand({"finisher": 0, "rummy": True, "players": [{"cards": ""}, {"cards": "2C"}]},
                               TurkishOptions(rummy_bonus=50))
    assert score.scores == (0, 52)


def test_T7_losers_count_cards_ace_11_joker_15():
    score = score_turkish_hand({"finisher": 2, "rummy": False,
                                "players": [{"cards": "AS KD 9C *"}, {"cards": "2H"}, {"cards": ""}]})
    assert score.scores == (11 + 10 + 9 + 15, 2, 0)
    assert score.explain[0].text == "Player 1 keeps AS KD 9C *: 11 (ace) + 10 + 9 + 15 (joker) = 45."
    assert score_turkish_hand({"finisher": 0, "players": [{"cards": ""}, {"cards": 33}]}).scores == (0, 33)


def test_T7_replay_of_a_whole_match_asserting_the_sheet_after_every_hand():
    options = TurkishOptions(hands=3)
    record = [
        ({"finisher": 0, "players": [{"cards": ""}, {"cards": "AS *"}, {"cards": "5D 5C"}]}, (0, 26, 10)),
        ({"finisher": 1, "rummy": True, "players": [{"cards": "2C"}, {"cards": ""}, {"cards": ""}]}, (27, 0, 25)),
        ({"finisher": 2, "players": [{"cards": "QH QS"}, {"cards": "3H"}, {"cards": ""}]}, (20, 3, 0)),
    ]
    scores = []
    expected_totals = [(0, 26, 10), (27, 26, 35), (47, 29, 35)]
    for number, (hand, expected) in enumerate(record):
        scored = score_turkish_hand(hand, options)
        assert scored.scores == expected
        scores.append(scored)
        sheet = turkish_standings(3, scores, options)
        assert sheet.totals == expected_totals[number]
        assert sheet.finished == (number == 2)
    assert sheet.winners == (1,)


def test_T7_elimination_profile():
    options = TurkishOptions(**PROFILES["elimination"])
    hand = score_turkish_hand({"finisher": 0, "players": [{"cards": ""}, {"cards": "KH KD KS KC QH QD"}]})
    assert not turkish_standings(2, [hand] * 1, options).finished
    assert turkish_standings(2, [hand] * 2, options).finished


def test_T_deal_passes_to_the_right_by_default():
    assert [turkish_deal(4, h, 0).dealer for h in (1, 2, 3)] == [0, 1, 2]
    assert turkish_deal(4, 1, 0).starter == 1
    assert turkish_deal(4, 1, 0, TurkishOptions(direction="clockwise")).starter == 3


@pytest.mark.parametrize(
    ("hand", "error", "fragment"),
    [
        ({"finisher": 0, "players": [{"cards": ""}, {"cards": "ZZ"}]}, InvalidCardError, "'ZZ'"),
        ({"finisher": None, "players": [{"cards": ""}, {"cards": ""}]}, InvalidHandRecordError, "finisher"),
        ({"finisher": 0, "players": [{"cards": ""}, {"cards": "", "opened": True}]}, InvalidHandRecordError, "'opened'"),
        ({"finisher": 0, "rummy": "no", "players": [{"cards": ""}, {"cards": ""}]}, InvalidHandRecordError, "'no'"),
        ({"finisher": 1, "players": [{"cards": ""}, {"cards": "2C"}]}, InvalidHandRecordError, "still holds 2C"),
        ({"finisher": 0, "players": [{"cards": ""}, {}]}, InvalidHandRecordError, "'cards'"),
    ],
)
def test_T7_bad_hand_records_are_refused_clearly(hand, error, fragment):
    with pytest.raises(error) as raised:
        score_turkish_hand(hand)
    assert fragment in str(raised.value) and isinstance(raised.value, RulesError)
