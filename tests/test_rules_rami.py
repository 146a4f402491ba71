"""RULES.md §M — Rami 40 / Rami 51 (seed 001): melds, values, the opening, jokers, going out, the sheet."""

import dataclasses
import random

import pytest

from companion.rules._card_melds import best_melds
from companion.rules.cards import JOKER, Card, Deck, Suit, card_counts, parse_cards
from companion.rules.errors import ImpossibleHandError, InvalidCardError, InvalidHandRecordError, RulesError
from companion.rules.rami import (
    PROFILES,
    RAMI_MELDS,
    Rami51Options,
    RamiOptions,
    best_rami_opening,
    check_rami_meld,
    rami_card_penalty,
    rami_deal,
    rami_deck,
    rami_going_out,
    rami_joker_swap,
    rami_standings,
    score_rami_hand,
)
from tests.card_oracle import oracle_best_value

# Seed 001's worked examples: (meld, valid, value) — every ✔ and ✘ row.
SEED_001_ROWS = [
    ("KH KS KD", True, 30),
    ("AC AH AS", True, 33),
    ("7S 7S 7H", False, None),
    ("AH 2H 3H", True, 6),
    ("5C 6C 7C", True, 18),
    ("QH KH AH", True, 31),
    ("KH AH 2H", False, None),
    ("9C 9D 9H *", True, 36),
    ("* 7S 8S", True, 21),
    ("* * 5H 6H", False, None),
]


@pytest.mark.parametrize(("meld", "valid", "value"), SEED_001_ROWS)
def test_M4_seed_001_worked_examples(meld, valid, value):
    verdict = check_rami_meld(meld)
    assert verdict.valid is valid, verdict.reason
    if valid:
        assert verdict.value == value, verdict.reason
    else:
        assert verdict.reason.startswith("illegal")


def test_M4_seed_001_examples_in_symbols_and_any_order():
    assert check_rami_meld("K♥ K♠ K♦").value == 30
    assert check_rami_meld("8♠ * 7♠").value == 21
    assert check_rami_meld("3H AH 2H").value == 6
    assert check_rami_meld("AH QH KH").value == 31


def test_M1_deck_by_players_reference_and_house():
    reference, house = RamiOptions(), RamiOptions(deck="house")
    assert [rami_deck(n, reference).size for n in range(2, 7)] == [108, 108, 108, 160, 160]
    assert [rami_deck(n, house).size for n in range(2, 7)] == [106, 106, 106, 159, 159]
    assert rami_deck(5, house) == Deck(decks=3, jokers=3)
    with pytest.raises(InvalidHandRecordError):
        rami_deck(7)
    with pytest.raises(InvalidHandRecordError):
        rami_deck(1)


def test_M1_option_deck_and_profiles():
    assert PROFILES["reference"] == {}
    assert RamiOptions(**PROFILES["house"]).deck == "house"
    assert Rami51Options().opening == 51 and RamiOptions().opening == 40
    for field in dataclasses.fields(RamiOptions):
        assert field.name in {"opening", "deck", "joker_penalty", "not_opened_penalty", "rami_sec_doubles",
                              "hands", "elimination_at"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        RamiOptions().deck = "house"  # type: ignore[misc]


def test_M2_deal_left_of_dealer_starts_and_the_deal_rotates():
    first = rami_deal(4, 1, first_dealer=0)
    assert (first.dealer, first.starter, first.cards_each, first.direction) == (0, 3, 13, "clockwise")
    assert first.to_dict()["stock"] == 108 - 52 - 1
    second = rami_deal(4, 2, first_dealer=0)
    assert second.dealer == first.starter
    assert [rami_deal(3, h, 1).dealer for h in (1, 2, 3, 4)] == [1, 0, 2, 1]
    assert "left" in first.explain[-1].text
    assert rami_deal(6, 1, 0, RamiOptions(deck="house")).deck.size == 159


def test_M2_opening_minimum_40_or_51():
    hand = "KH KS KD 5C 6C 7C 2D"
    assert best_rami_opening(hand, RamiOptions()).opens is True  # 48
    assert best_rami_opening(hand, Rami51Options()).opens is False
    assert best_rami_opening(hand + " 8C", Rami51Options()).to_dict()["value"] == 56


def test_M3_set_needs_distinct_suits_and_3_or_4_cards():
    assert check_rami_meld("7S 7H 7D 7C").value == 28
    assert not check_rami_meld("7S 7H").valid
    assert not check_rami_meld("7S 7H 7D 7C 7S").valid
    assert "different suit" in check_rami_meld("7S 7S 7H").reason
    assert not check_rami_meld("7S 7S *").valid


def test_M3_run_one_suit_consecutive_ace_low_or_high_never_wrapping():
    assert check_rami_meld("AS 2S 3S 4S").value == 10
    assert check_rami_meld("JD QD KD AD").value == 41
    assert not check_rami_meld("KS AS 2S").valid
    assert "K-A-2" in check_rami_meld("KS AS 2S").reason
    assert not check_rami_meld("5S 6S 8S").valid
    assert not check_rami_meld("5S 6H 7S").valid
    assert not check_rami_meld("5S 6S 6S 7S").valid
    assert check_rami_meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS").valid
    assert not check_rami_meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS").valid


def test_M4_one_joker_per_meld():
    assert not check_rami_meld("* * 5H").valid
    assert "one joker" in check_rami_meld("* * 5H 6H").reason
    assert not check_rami_meld("9C 9D * *").valid


def test_M4_ambiguous_joker_takes_the_lower_value():
    assert check_rami_meld("* QH KH").value == 30  # JH (10) rather than AH (11)
    assert check_rami_meld("* 2H 3H").value == 6  # low AH (1) rather than 4H
    assert check_rami_meld("7S * 9S").value == 24  # only 8S
    assert check_rami_meld("* AH 2H").value == 6  # only 3H: K-A-2 never
    assert check_rami_meld("AC AH *").value == 33


def test_M4_best_opening_is_the_maximum_of_disjoint_melds():
    opening = best_rami_opening("QH KH AH JH 10H KS KD", RamiOptions())
    # 10H-JH-QH-KH-AH is 51, but the kings set KS KH KD with 10H-JH-QH is 60 (AH left)
    assert opening.value == 60 and opening.opens
    assert sorted(opening.to_dict()["melds"]) == [["10H", "JH", "QH"], ["KS", "KH", "KD"]]
    assert opening.to_dict()["left"] == "AH"
    assert best_rami_opening("", RamiOptions()).to_dict() == {
        "value": 0, "melds": [], "opens": False, "minimum": 40, "left": "", "reasons": []}


def _random_hand(rng: random.Random, size: int) -> list[Card]:
    """Hands dense in melds: a few suits and ranks, two decks, jokers."""
    suits = rng.sample(list(Suit), rng.randint(1, 3))
    ranks = rng.sample([1, 2, 3, 4, 5, 6, 10, 11, 12, 13], rng.randint(3, 6))
    pool = [Card(r, s) for s in suits for r in ranks] * 2 + [JOKER] * 2
    return rng.sample(pool, min(size, len(pool)))


def test_M4_best_opening_matches_the_brute_force_oracle_on_random_hands():
    rng = random.Random(40)
    for _ in range(40):
        hand = _random_hand(rng, rng.randint(5, 9))
        expected = oracle_best_value(hand, RAMI_MELDS)
        found = best_melds(hand, RAMI_MELDS)
        assert (found.value, found.cards_used) == expected, hand
        assert sum(meld.value for meld in found.melds) == found.value
        assert all(meld.valid for meld in found.melds)
        laid = card_counts([c for meld in found.melds for c in meld.cards]) + card_counts(found.left)
        assert laid == card_counts(hand)


def test_M4_best_opening_on_full_hands_is_consistent():
    rng = random.Random(51)
    deck = Deck(decks=2, jokers=4).cards()
    for _ in range(15):
        hand = rng.sample(deck, 14)
        found = best_rami_opening(hand, RamiOptions())
        assert all(meld.valid and meld.cards.count(JOKER) <= 1 for meld in found.best.melds)
        assert found.opens == (found.value >= 40)


def test_M5_joker_swap_from_a_run_needs_the_exact_card_and_an_opened_player():
    assert rami_joker_swap("5H * 7H", "6H", opened=True).allowed
    assert not rami_joker_swap("5H * 7H", "6S", opened=True).allowed
    assert not rami_joker_swap("5H * 7H", "6H", opened=False).allowed
    written = rami_joker_swap("* 7S 8S", "6S", opened=True)
    assert written.allowed and written.meld_after == parse_cards("6S 7S 8S")
    assert not rami_joker_swap("* 7S 8S", "9S", opened=True).allowed
    assert rami_joker_swap("7S 8S *", "9S", opened=True).allowed
    assert "lay it again" in written.reason
    assert not rami_joker_swap("5H 6H 7H", "8H", opened=True).allowed


def test_M5_joker_from_a_set_only_when_it_then_holds_four_real_cards():
    assert rami_joker_swap("9C 9D 9H *", "9S", opened=True).allowed
    assert not rami_joker_swap("9C 9D *", "9S", opened=True).allowed
    assert rami_joker_swap("9C 9D *", "9S 9H", opened=True).allowed
    assert not rami_joker_swap("9C 9D 9H *", "9C", opened=True).allowed


def test_M6_going_out_by_laying_everything_without_a_discard():
    out = rami_going_out("5H 6H 7H KS KD KC", opened=True)
    assert out.possible and out.discard is None
    out = rami_going_out("5H 6H 7H KS KD KC 2D", opened=True)
    assert out.possible and out.discard == Card(2, Suit.DIAMONDS)
    assert not rami_going_out("5H 6H 7H KS KD 2C 2D", opened=True).possible


def test_M7_rami_sec_needs_the_opening_when_not_opened():
    assert rami_going_out("QS KS AS KH KD KC 7D", opened=False).all_at_once
    assert not rami_going_out("AS 2S 3S 4H 4D 4C", opened=False).possible
    assert rami_going_out("AS 2S 3S 4H 4D 4C", opened=True).possible


def _hand(finisher, *players, rami_sec=False):
    return {"finisher": finisher, "rami_sec": rami_sec,
            "players": [{"opened": opened, "cards": cards} for opened, cards in players]}


def test_M7_losers_add_their_cards_ace_11_joker_20():
    score = score_rami_hand(_hand(0, (True, ""), (True, "AS KD 10C 2H *"), (True, "")))
    assert score.scores == (0, 11 + 10 + 10 + 2 + 20, 0)
    assert "20 (joker)" in score.explain[1].text and "11 (ace)" in score.explain[1].text
    assert rami_card_penalty(Card(12, Suit.HEARTS)) == 10


def test_M7_option_joker_penalty():
    score = score_rami_hand(_hand(1, (True, "* *"), (True, "")), RamiOptions(joker_penalty=25))
    assert score.scores == (50, 0)


def test_M7_not_opened_pays_not_opened_penalty_instead():
    assert score_rami_hand(_hand(0, (True, ""), (False, "2C"))).scores == (0, 100)
    assert score_rami_hand(_hand(0, (True, ""), (False, "2C")), RamiOptions(not_opened_penalty=150)).scores == (0, 150)


def test_M7_rami_sec_doubles_the_others():
    hand = _hand(2, (True, "5D 5C"), (False, "KH"), (False, ""), rami_sec=True)
    score = score_rami_hand(hand)
    assert score.scores == (20, 200, 0)
    assert any(line.key == "rami.rami_sec" for line in score.explain)
    assert score_rami_hand(hand, RamiOptions(rami_sec_doubles=False)).scores == (10, 100, 0)


def test_M6_stock_ran_out_the_lowest_hand_wins():
    score = score_rami_hand(_hand(None, (True, "5D 5C"), (True, "2C"), (False, "")))
    assert score.scores == (10, 0, 100)
    assert "stock ran out" in score.explain[0].text


def test_M7_typed_hand_values_are_accepted():
    assert score_rami_hand(_hand(0, (True, ""), (True, 37))).scores == (0, 37)


def test_M7_fixed_number_of_hands_lowest_total_wins():
    hands = [score_rami_hand(_hand(h % 2, (True, "" if h % 2 == 0 else "5C"), (True, "" if h % 2 else "9C")))
             for h in range(5)]
    sheet = rami_standings(2, hands[:4], RamiOptions())
    assert not sheet.finished and sheet.totals == (10, 18)
    sheet = rami_standings(2, hands, RamiOptions())
    assert sheet.finished and sheet.winners == (0,) and sheet.totals == (10, 27)
    with pytest.raises(InvalidHandRecordError, match="already over"):
        rami_standings(2, hands + hands[:1], RamiOptions())


def test_M7_elimination_at_ends_the_match_when_a_total_passes_it():
    options = RamiOptions(**PROFILES["elimination"])
    hand = score_rami_hand(_hand(0, (True, ""), (False, "")))
    sheet = rami_standings(2, [hand] * 5, options)
    assert sheet.totals == (0, 500) and not sheet.finished
    sheet = rami_standings(2, [hand] * 6, options)
    assert sheet.finished and sheet.passed == (1,) and sheet.winners == (0,)
    assert "passed 500" in sheet.explain[0].text


def test_M7_replay_of_a_whole_match_asserting_the_sheet_after_every_hand():
    options = Rami51Options(hands=4)
    record = [
        (_hand(0, (True, ""), (True, "KH 2C"), (False, "AS AD"), (True, "*")), (0, 12, 100, 20)),
        (_hand(3, (True, "QS"), (True, "3C 4C 5C"), (True, "9D"), (True, ""), rami_sec=True), (20, 24, 18, 0)),
        (_hand(None, (True, "2S"), (True, "2D 2H"), (True, "AC"), (False, "")), (0, 4, 11, 100)),
        (_hand(1, (False, "7C"), (True, ""), (True, "JC QC"), (True, "* *")), (100, 0, 20, 40)),
    ]
    totals = [0, 0, 0, 0]
    scores = []
    for number, (hand, expected) in enumerate(record, start=1):
        scored = score_rami_hand(hand, options)
        assert scored.scores == expected, (number, scored.explain)
        scores.append(scored)
        totals = [t + s for t, s in zip(totals, expected)]
        sheet = rami_standings(4, scores, options)
        assert sheet.totals == tuple(totals) and sheet.hands_played == number
        assert sheet.finished == (number == 4)
    assert sheet.totals == (120, 40, 149, 160) and sheet.winners == (1,)
    assert sheet.to_dict()["history"][0] == [0, 12, 100, 20]


@pytest.mark.parametrize(
    ("hand", "error", "fragment"),
    [
        ({"finisher": 0, "players": [{"opened": True, "cards": ""}, {"opened": True, "cards": "7S 7S 7S"}]},
         ImpossibleHandError, "3 × 7S"),
        ({"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": "7S 7S"}, {"opened": True, "cards": "7S"}]},
         ImpossibleHandError, "2 decks hold only 2"),
        ({"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": "7X"}]}, InvalidCardError, "'7X'"),
        ({"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": "* * * * *"}]},
         ImpossibleHandError, "4 jokers"),
        ({"finisher": 0, "players": [{"cards": ""}, {"opened": "yes", "cards": ""}]}, InvalidHandRecordError, "'yes'"),
        ({"finisher": 0, "players": [{"cards": ""}, {"cards": "2C"}]}, InvalidHandRecordError, "'opened'"),
        ({"finisher": 2, "players": [{"cards": ""}, {"opened": True, "cards": ""}]}, InvalidHandRecordError, "finisher 2"),
        ({"finisher": 0, "players": [{"cards": "2C"}, {"opened": True, "cards": ""}]}, InvalidHandRecordError, "still holds"),
        ({"finisher": 0, "players": [{"cards": ""}]}, InvalidHandRecordError, "this one has 1"),
        ({"finisher": 0, "players": "2C"}, InvalidHandRecordError, "players"),
        ({"finisher": 0, "ramisec": True, "players": []}, InvalidHandRecordError, "did you mean 'rami_sec'"),
        ({"players": [{"cards": ""}, {"opened": True, "cards": ""}]}, InvalidHandRecordError, "'finisher'"),
        ({"finisher": None, "rami_sec": True, "players": [{"opened": True, "cards": ""}] * 2},
         InvalidHandRecordError, "rami_sec needs a finisher"),
        ({"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": 12.5}]}, InvalidCardError, "12.5"),
        ({"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": -3}]}, InvalidHandRecordError, "-3"),
        ({"finisher": True, "players": [{"cards": ""}, {"opened": True, "cards": ""}]}, InvalidHandRecordError, "True"),
        ("hand", InvalidHandRecordError, "object"),
    ],
)
def test_M7_bad_hand_records_are_refused_clearly(hand, error, fragment):
    with pytest.raises(error) as raised:
        score_rami_hand(hand)
    assert fragment in str(raised.value)
    assert isinstance(raised.value, RulesError)


def test_M1_five_players_play_three_decks():
    hand = {"finisher": 0, "players": [{"cards": ""}, {"opened": True, "cards": "7S 7S 7S"}] + [
        {"opened": True, "cards": ""}] * 3}
    assert score_rami_hand(hand).scores[1] == 21
    with pytest.raises(ImpossibleHandError):
        score_rami_hand(hand | {"players": hand["players"][:4]})
