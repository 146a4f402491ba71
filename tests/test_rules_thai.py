"""Thai Rummy (Dummy): RULES.md §D — D1 cards and deal, D2 melds and picking up, D3 born and lay-offs,
D4 knocking, D5 values, D6 specials (dark knock, falling off the building, feeding), the table options and
the race to 500, with replays of whole matches asserting the sheet after every hand."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from functools import lru_cache
from itertools import product
from typing import Any

import pytest

from companion.rules.cards import ALL_CARDS, Card, parse_card, parse_cards
from companion.rules.errors import (
    IllegalMeldError,
    ImpossibleHandError,
    InvalidCardError,
    InvalidHandRecordError,
    InvalidOptionError,
    RulesError,
)
from companion.rules.thai import (
    DEAL_SIZES,
    SPETO,
    THAI_PROFILES,
    ThaiOptions,
    can_lay_off,
    card_points,
    check_knock,
    check_meld,
    check_melds,
    check_pickup,
    deal_size,
    deal_thai,
    knock_card_points,
    layoff_cards,
    meld_answer,
    score_thai_hand,
    thai_cards,
    thai_standings,
)

TABLE = ThaiOptions(**THAI_PROFILES["thai_table"])


def seat(laid: str = "", hand: str = "", born: bool | None = None, **more: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"laid": laid, "hand": hand, **more}
    entry["born"] = bool(laid) if born is None else born
    return entry


def record(knocker: int | None, knock_card: str | None, *players: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"knocker": knocker, "knock_card": knock_card, "dark": False, "fed_by": None,
            "players": list(players), **fields}


# --------------------------------------------------------------------------------------------------- D1


@pytest.mark.parametrize(("players", "cards"), [(2, 11), (3, 9), (4, 7)])
def test_D1_deal_size_by_players(players: int, cards: int) -> None:
    assert deal_size(players) == cards == DEAL_SIZES[players]
    deal = deal_thai(players, random.Random(players))
    assert [len(hand) for hand in deal.hands] == [cards] * players
    everything = [c for hand in deal.hands for c in hand] + [deal.up_card, *deal.stock]
    assert sorted(everything, key=lambda c: c.index) == list(ALL_CARDS)


@pytest.mark.parametrize("players", [1, 5, 0, True, "3"])
def test_D1_two_to_four_players_only(players: Any) -> None:
    with pytest.raises(InvalidHandRecordError, match="2, 3 or 4"):
        deal_size(players)


def test_D1_the_deal_is_reproducible_with_an_injected_random() -> None:
    assert deal_thai(4, random.Random(7)) == deal_thai(4, random.Random(7))
    assert deal_thai(4, random.Random(7)) != deal_thai(4, random.Random(8))


def test_D1_no_jokers_in_this_game() -> None:
    with pytest.raises(InvalidCardError, match=r"invalid card '\*'.*without jokers \(D1\)"):
        check_meld("7C * 7H")
    with pytest.raises(InvalidCardError, match="without jokers"):
        thai_cards("JOKER")
    with pytest.raises(InvalidCardError, match="without jokers"):
        score_thai_hand(record(0, "5H", seat("7C 7D 7H"), seat(hand="*")))


def test_D1_one_deck_so_no_card_twice() -> None:
    with pytest.raises(ImpossibleHandError, match="7S twice"):
        check_meld("7S 7S 7H")
    with pytest.raises(ImpossibleHandError, match="QS twice"):
        score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="QS")))
    with pytest.raises(ImpossibleHandError, match="5H twice"):
        score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="5H")))


@pytest.mark.parametrize(
    ("cards", "valid"),
    [("QS KS AS", True), ("JH QH KH AH", True), ("AS 2S 3S", False), ("KS AS 2S", False),
     ("AD 2D 3D 4D", False), ("AS AH AD", True), ("2C 3C 4C", True)],
)
def test_D1_the_ace_is_high_only(cards: str, valid: bool) -> None:
    verdict = check_meld(cards)
    assert verdict.valid is valid
    if not valid:
        assert "the ace is high only" in verdict.reason and "D1" in verdict.reason


def test_D1_cards_in_our_notation() -> None:
    assert thai_cards("qs, T♥ 2c") == parse_cards("QS 10H 2C")
    with pytest.raises(InvalidCardError, match="'11H'"):
        thai_cards("11H")


# --------------------------------------------------------------------------------------------------- D2


@pytest.mark.parametrize(
    ("cards", "kind", "value"),
    [("7C 7D 7H", "set", 15), ("JH JD JS JC", "set", 40), ("4D 5D 6D", "run", 15),
     ("10H JH QH KH", "run", 40), ("KH 10H QH JH", "run", 40), ("2C 2D 2S", "set", 60),
     ("10S JS QS", "run", 70)],
)
def test_D2_sets_and_runs_of_seed_003(cards: str, kind: str, value: int) -> None:
    verdict = check_meld(cards)
    assert (verdict.valid, verdict.kind, verdict.value) == (True, kind, value)
    assert verdict.reason == f"legal {kind} worth {value}"


@pytest.mark.parametrize(
    ("cards", "reason"),
    [("7C 7D", "too few cards: [7C, 7D] (a meld needs at least 3 cards, D2)"),
     ("4D 5D 7D", "illegal run: [4D, 5D, 7D] (the ranks must follow each other: 2 3 4 … 10 J Q K A, D2)"),
     ("4D 5H 6D", "illegal meld: [4D, 5H, 6D] (a set is one rank, a run one suit in sequence, D2)"),
     ("7C 7D 8D", "illegal meld: [7C, 7D, 8D] (a set is one rank, a run one suit in sequence, D2)")],
)
def test_D2_illegal_melds_say_why(cards: str, reason: str) -> None:
    verdict = check_meld(cards)
    assert not verdict.valid and verdict.value == 0 and verdict.reason == reason


def test_D2_meld_answer_is_the_batch_shape() -> None:
    assert meld_answer("QS KS AS") == {"valid": True, "value": 75, "reason": "legal run worth 75",
                                       "melds": [["QS", "KS", "AS"]]}
    answer = meld_answer("7C 7D 7H | 4D 5D 6D")
    assert answer["valid"] and answer["value"] == 30 and answer["reason"] == "2 legal melds worth 30"
    bad = meld_answer("7C 7D 7H | AS 2S 3S")
    assert not bad["valid"] and bad["value"] == 0 and "ace is high only" in bad["reason"]
    with pytest.raises(ImpossibleHandError, match="7C twice"):
        check_melds("7C 7D 7H | 7C 8C 9C")
    with pytest.raises(IllegalMeldError, match="no cards"):
        check_melds(" | ")


def test_D2_picking_up_takes_the_card_and_every_card_after_it() -> None:
    check = check_pickup("3D 9S 7H KC", "9S", "9H 9D 2C", born=False)
    assert check.legal and check.taken == parse_cards("9S 7H KC")
    assert check.melds == (parse_cards("9S 9H 9D"),) and check.born_now


def test_D2_the_picked_card_must_be_melded_at_once() -> None:
    check = check_pickup("3D 9S 7H", "7H", "2C 5S", born=False)
    assert not check.legal and "cannot be melded at once" in check.reason
    # The cards taken with it may help: picking 6H also takes 7H and 8H.
    assert check_pickup("3D 6H 7H 8H", "6H", "KC", born=False).melds == (parse_cards("6H 7H 8H"),)


def test_D2_the_chosen_card_must_lie_in_the_row() -> None:
    with pytest.raises(InvalidHandRecordError, match="not in the discard row"):
        check_pickup("3D 9S", "7H", "7C 7D", born=False)


# --------------------------------------------------------------------------------------------------- D3


def test_D3_only_a_born_player_lays_off_a_picked_card() -> None:
    table = "8H 9H 10H"
    assert not check_pickup("3D JH", "JH", "2C", born=False, table=table).legal
    born = check_pickup("3D JH", "JH", "2C", born=True, table=table)
    assert born.legal and born.layoffs == (parse_cards("8H 9H 10H"),) and not born.born_now


@pytest.mark.parametrize(
    ("cards", "meld", "fits"),
    [("JH", "8H 9H 10H", True), ("7H", "8H 9H 10H", True), ("QH", "8H 9H 10H", False),
     ("JH QH", "8H 9H 10H", True), ("7S", "7C 7D 7H", True), ("2H", "QH KH AH", False),
     ("AH", "JH QH KH", True)],
)
def test_D3_lay_off_fits_any_meld_on_the_table(cards: str, meld: str, fits: bool) -> None:
    assert can_lay_off(cards, meld) is fits


def test_D3_layoff_cards_of_a_hand() -> None:
    assert layoff_cards("JH 2S 7S", "8H 9H 10H | 7C 7D 7H") == parse_cards("JH 7S")
    with pytest.raises(IllegalMeldError, match="the table holds an illegal"):
        layoff_cards("JH", "8H 9H JH")


def test_D3_a_player_not_born_has_laid_nothing() -> None:
    with pytest.raises(InvalidHandRecordError, match=r"Player 2 is not born but has laid '7C 7D 7H'.*D3"):
        score_thai_hand(record(0, "5H", seat("QS KS AS"), seat("7C 7D 7H", born=False)))
    with pytest.raises(InvalidHandRecordError, match="Player 2 is born but has laid nothing"):
        score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="KH", born=True)))


def test_D3_born_may_be_left_out_and_follows_the_laid_cards() -> None:
    score = score_thai_hand({"knocker": 0, "knock_card": "5H",
                             "players": [{"laid": "QS KS AS"}, {"hand": "KH"}, {"laid": "7C 7D 7H", "hand": "2H"}]})
    assert score.scores == (125, -20, 10)


# --------------------------------------------------------------------------------------------------- D4


def test_D4_knock_with_one_card_left_face_down() -> None:
    check = check_knock("8H 9H 10H 7C 7D 7H 5S", "JH QH KH")
    assert check.knocks and check.knock_cards == (parse_card("5S"),)
    assert not check_knock("8H 9H 10H 7C 7D 7H 5S 6D").knocks


def test_D4_knocking_may_lay_off_on_any_meld() -> None:
    check = check_knock("JH 7S 2D", "8H 9H 10H | 7C 7D 7H")
    assert check.knocks and check.knock_cards == (parse_card("2D"),)
    assert dict(check.layoffs) == {0: parse_cards("JH"), 1: parse_cards("7S")}
    # Lay-offs may extend a run at both ends and by several cards.
    assert check_knock("6H 7H JH QH 3C", "8H 9H 10H").knocks


def test_D4_the_cheapest_card_is_offered_as_the_knock_card() -> None:
    check = check_knock("2C 3C 4C 5C 9D")
    assert check.knock_cards[0] == parse_card("9D")
    # Either end of a four-card run could be knocked with: laying the speto keeps its 50 (D5).
    assert check_knock("2C 3C 4C 5C").knock_cards == parse_cards("5C 2C")


def test_D4_the_knocker_lays_every_card_but_the_knock_card() -> None:
    with pytest.raises(InvalidHandRecordError, match=r"Player 1 knocked but still holds 'KH'.*D4"):
        score_thai_hand(record(0, "5H", seat("QS KS AS", "KH"), seat(hand="2H")))
    with pytest.raises(InvalidHandRecordError, match="knocked but laid nothing"):
        score_thai_hand(record(0, "5H", seat(born=False), seat(hand="2H"), dark=True))
    with pytest.raises(InvalidHandRecordError, match="invalid knock_card None"):
        score_thai_hand(record(0, None, seat("QS KS AS"), seat(hand="2H")))
    with pytest.raises(InvalidHandRecordError, match="exactly one card"):
        score_thai_hand(record(0, "5H 6H", seat("QS KS AS"), seat(hand="2H")))


def test_D4_stock_ran_out_everybody_counts() -> None:
    score = score_thai_hand(record(None, None, seat("QS KS AS", "2H"), seat(hand="KH 2C"), seat("7C 7D 7H")))
    assert score.scores == (70, -60, 15)  # nobody falls off the building without a knock
    assert score.explain[0].text == "Nobody knocked: the stock ran out and everybody counts (D4)."
    assert score.knocker is None and score.knock_card is None


def test_D4_no_knock_card_dark_or_feeding_without_a_knocker() -> None:
    with pytest.raises(InvalidHandRecordError, match="nobody knocked"):
        score_thai_hand(record(None, "5H", seat("QS KS AS"), seat(hand="KH")))
    with pytest.raises(InvalidHandRecordError, match="a dark knock needs a knocker"):
        score_thai_hand(record(None, None, seat("QS KS AS"), seat(hand="KH"), dark=True))
    with pytest.raises(InvalidHandRecordError, match="feeding needs a knock"):
        score_thai_hand(record(None, None, seat("QS KS AS"), seat(hand="KH"), fed_by=1))


# --------------------------------------------------------------------------------------------------- D5


@pytest.mark.parametrize(
    ("card", "points"),
    [("2H", 5), ("5D", 5), ("9S", 5), ("10C", 10), ("JD", 10), ("QH", 10), ("KS", 10), ("AC", 15),
     ("2C", 50), ("QS", 50)],
)
def test_D5_card_values(card: str, points: int) -> None:
    assert card_points(parse_card(card)) == points


def test_D5_the_speto_cards_are_2C_and_QS() -> None:
    assert SPETO == {parse_card("2C"), parse_card("QS")}


@pytest.mark.parametrize("card", ["5H", "AS", "KD", "2C"])
def test_D5_the_knock_card_is_worth_50_whatever_it_is(card: str) -> None:
    assert knock_card_points(parse_card(card)) == 50
    score = score_thai_hand(record(0, card, seat("7C 7D 7H"), seat(hand="3H")))
    assert score.scores == (65, -10)  # player 2 is not born: -5 × 2


def test_D5_laid_plus_in_hand_minus_speto_both_ways() -> None:
    score = score_thai_hand(record(0, "5H", seat("QS KS AS"), seat("7C 7D 7H", "KH 2C")))
    assert score.scores == (125, -45)
    assert score.per_seat[0][0].text == "Player 1 knocked with 5H: laid QS KS AS = 50 + 10 + 15 = 75, knock card 50: 75 + 50 → 125 (D5)."
    assert score.per_seat[1][0].text == "Player 2 laid 7C 7D 7H = 5 + 5 + 5 = 15 and keeps KH 2C = 10 + 50 = 60: 15 - 60 → -45 (D5)."
    assert score.laid_points == (75, 15) and score.hand_points == (0, 60)


def test_D5_a_card_melded_in_hand_still_counts_minus() -> None:
    assert score_thai_hand(record(0, "5H", seat("QS KS AS"), seat("2D 3D 4D", "8C 9C 10C"))).scores[1] == 15 - 20


# --------------------------------------------------------------------------------------------------- D6


def test_D6_the_brief_example() -> None:
    hand = {"knocker": 0, "knock_card": "5H", "dark": False, "fed_by": None,
            "players": [{"born": True, "laid": "QS KS AS", "hand": ""}, {"born": False, "laid": "", "hand": "KH"}]}
    score = score_thai_hand(hand)
    assert score.scores == (125, -20)
    assert score.to_dict()["scores"] == [125, -20]
    assert score.to_dict()["explain"] == [line.text for line in score.explain]


def test_D6_dark_knock_doubles_the_knocker() -> None:
    score = score_thai_hand(record(0, "5H", seat("QS KS AS", born=False), seat("7C 7D 7H", "KH"), dark=True))
    assert score.scores == (250, 5)
    assert score.per_seat[0][0].key == "thai.knock_dark"
    assert "(75 + 50) × 2 (dark knock, D6) → 250" in score.per_seat[0][0].text
    # Born and knocking in the same move is dark too: "born" may then say true.
    assert score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="KH"), dark=True)).scores[0] == 250


def test_D6_a_knocker_not_born_before_knocked_dark() -> None:
    with pytest.raises(InvalidHandRecordError, match=r'without being born: that is a dark knock \(D6\); set "dark": true'):
        score_thai_hand(record(0, "5H", seat("QS KS AS", born=False), seat(hand="KH")))


def test_D6_falling_off_the_building_doubles_the_cards_in_hand() -> None:
    score = score_thai_hand(record(1, "3S", seat(hand="AS QS 8H"), seat("7C 7D 7H")))
    assert score.scores == (-140, 65)
    assert score.per_seat[0][0].key == "thai.not_born"
    assert score.per_seat[0][0].text == (
        "Player 1 is not born when player 2 knocks (falling off the building, D6): "
        "keeps AS QS 8H = 15 + 50 + 5 = 70 × 2 → -140."
    )


def test_D6_feeding_costs_the_feeder_50_more() -> None:
    score = score_thai_hand(record(1, "3S", seat("2C 3C 4C", "9S KD"), seat("7C 7D 7H 10H JH QH KH", born=False),
                                   seat(hand="AS QS 8H"), dark=True, fed_by=0))
    assert score.scores == (-5, 210, -140)  # the example of docs/rules.md D6
    assert score.per_seat[0][1].key == "thai.fed"
    assert score.per_seat[0][2].text == "Player 1 scores 45 - 50 = -5 this hand."


def test_D6_the_feeder_discarded_just_before_the_knocker() -> None:
    players = [seat("2C 3C 4C"), seat("7C 7D 7H"), seat(hand="KH"), seat(hand="2H")]
    with pytest.raises(InvalidHandRecordError, match=r"so it is seat 0 \(player 1\) or 2 \(player 3\)"):
        score_thai_hand(record(1, "3S", *players, fed_by=3))
    with pytest.raises(InvalidHandRecordError, match="cannot feed themself"):
        score_thai_hand(record(1, "3S", *players, fed_by=1))
    assert score_thai_hand(record(1, "3S", *players, fed_by=2)).scores[2] == -20 - 50


def test_D6_feeding_reverses_the_next_deal_and_the_knocker_deals() -> None:
    fed = score_thai_hand(record(2, "3S", seat("2C 3C 4C"), seat(hand="KH"), seat("7C 7D 7H"), fed_by=1))
    standing = thai_standings(3, [fed], first_dealer=0)
    assert (standing.dealer, standing.direction, standing.order) == (2, "reverse", (2, 1, 0))
    assert [line.key for line in standing.explain] == ["thai.next_dealer_knocker", "thai.direction_reversed"]
    assert standing.explain[1].text == "Player 2 fed the knocker: play now goes the other way round, 3 → 2 → 1 (D6)."
    # A second feeding turns it back.  Play now goes 3 → 2 → 1: player 1 discards just before player 3 (D6).
    back = score_thai_hand(record(2, "3S", seat("2C 3C 4C"), seat(hand="KH"), seat("7C 7D 7H"), fed_by=0))
    again = thai_standings(3, [fed, back], first_dealer=0)
    assert again.direction == "forward"


def test_D6_without_a_knock_the_deal_passes_on_in_the_current_direction() -> None:
    out = score_thai_hand(record(None, None, seat("2C 3C 4C"), seat(hand="KH"), seat("7C 7D 7H")))
    assert thai_standings(3, [out], first_dealer=0).dealer == 1
    fed = score_thai_hand(record(0, "3S", seat("2C 3C 4C"), seat(hand="KH"), seat("7C 7D 7H"), fed_by=2))
    standing = thai_standings(3, [fed, out], first_dealer=1)
    assert standing.dealers == (1, 0) and standing.dealer == 2 and standing.direction == "reverse"
    assert thai_standings(3, [fed, out]).dealer == 2  # without the first dealer a knock says who deals
    unknown = thai_standings(3, [out, out])
    assert unknown.dealer is None and unknown.dealers == (None, None) and unknown.order == ()
    assert unknown.explain[0].text == "Nobody knocked: the deal passes on to the next player (D6)."
    assert thai_standings(3, [out, fed]).dealer == 0 and thai_standings(3, [out, fed]).order_from(0) == (0, 2, 1)


def test_D6_first_to_500_wins_and_ties_share() -> None:
    big = score_thai_hand(record(0, "5H", seat("10S JS QS KS AS | 2C 2D 2H | AD AH AC"), seat(hand="3D")))
    assert big.scores == (250, -10)
    assert not thai_standings(2, [big]).finished
    standing = thai_standings(2, [big, big])
    assert standing.finished and standing.winners == (0,) and standing.totals == (500, -20)
    assert standing.explain[-1].text == "Player 1 reached 500 first and wins with 500 (D6)."
    both = score_thai_hand(record(None, None, seat("10S JS QS KS AS | 2C 2D 2H"), seat("10H JH QH KH AH | 2S 3S 4S")))
    assert both.scores == (155, 70)
    assert not thai_standings(2, [both] * 3).finished
    over = thai_standings(2, [both] * 4)  # 620 and 280: the highest of those past 500
    assert over.finished and over.winners == (0,)
    mirror = score_thai_hand(record(None, None, seat("10D JD QD KD"), seat("10H JH QH KH")))
    assert thai_standings(2, [mirror] * 13).winners == (0, 1)
    both_past = score_thai_hand(record(None, None, seat("KS KC KH"), seat("AS AC AH")))
    standing = thai_standings(2, [mirror] * 12 + [both_past])  # 480 each, then 510 and 525
    assert standing.totals == (510, 525) and standing.winners == (1,)


def test_D6_no_hand_after_the_match_is_over() -> None:
    big = score_thai_hand(record(0, "5H", seat("10S JS QS KS AS | 2C 2D 2H | AD AH AC"), seat(hand="3D")))
    with pytest.raises(InvalidHandRecordError, match="after the match ended"):
        thai_standings(2, [big, big, big])


def test_D6_the_target_is_an_option() -> None:
    small = score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="KH")))
    assert thai_standings(2, [small], ThaiOptions(target=100)).winners == (0,)
    assert not thai_standings(2, [small]).finished


# ----------------------------------------------------------------------------------------- table options


def test_D6_option_speto_as_knock_card_worth_100() -> None:
    assert knock_card_points(parse_card("QS"), TABLE) == 100
    assert knock_card_points(parse_card("5H"), TABLE) == 50
    score = score_thai_hand(record(0, "2C", seat("7C 7D 7H"), seat(hand="3H")), TABLE)
    assert score.scores == (115, -10)
    assert "knocked with 2C (a speto)" in score.per_seat[0][0].text
    assert score_thai_hand(record(0, "2C", seat("7C 7D 7H"), seat(hand="3H"))).scores == (65, -10)


def test_D6_option_discarding_a_card_that_could_be_laid_off() -> None:
    hand = record(0, "5H", seat("QS KS AS"), seat("7C 7D 7H", "3H", layoff_discards=2))
    assert score_thai_hand(hand, TABLE).scores == (125, 10 - 100)
    with pytest.raises(InvalidHandRecordError, match="turn on the option layoff_discard_penalty"):
        score_thai_hand(hand)
    with pytest.raises(InvalidHandRecordError, match="invalid layoff_discards -1"):
        score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="3H", layoff_discards=-1)), TABLE)


def test_D6_option_first_up_card_bonus() -> None:
    hand = record(0, "5H", seat("QS KS AS"), seat("7C 7D 7H", "3H"), first_card="7D", first_card_by=1)
    score = score_thai_hand(hand, TABLE)
    assert score.scores == (125, 10 + 50)
    assert score.per_seat[1][1].text == "Player 2 melded the first up-card 7D: +50 (D6)."
    speto = record(0, "5H", seat("QS KS AS"), seat("2C 3C 4C"), first_card="QS", first_card_by=0, dark=True)
    assert score_thai_hand(speto, TABLE).scores == ((75 + 50) * 2 + 100, 60)  # the bonus is not doubled
    with pytest.raises(InvalidHandRecordError, match="turn on the option first_card_bonus"):
        score_thai_hand(hand)
    with pytest.raises(InvalidHandRecordError, match="must be among their laid cards"):
        score_thai_hand(dict(hand, first_card="3H"), TABLE)
    nobody = dict(hand, first_card_by=None)
    assert score_thai_hand(nobody, TABLE).scores == (125, 10)


def test_D6_options_reference_profile_is_seed_003() -> None:
    reference = ThaiOptions(**THAI_PROFILES["reference"])
    assert reference == ThaiOptions()
    assert (reference.speto_points, reference.knock_card_points, reference.dark_knock_multiplier,
            reference.not_born_multiplier, reference.feeding_penalty, reference.target) == (50, 50, 2, 2, 50, 500)
    assert (reference.speto_knock_card_points, reference.layoff_discard_penalty, reference.first_card_bonus,
            reference.first_card_speto_bonus) == (50, 0, 0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        reference.target = 1000  # type: ignore[misc]
    for field in dataclasses.fields(ThaiOptions):
        assert field.type in ("int", int)


def test_D6_scoring_refuses_options_of_another_game() -> None:
    with pytest.raises(InvalidOptionError, match="not thai options"):
        score_thai_hand(record(0, "5H", seat("QS KS AS"), seat(hand="KH")), object())  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------- bad records


@pytest.mark.parametrize(
    ("change", "message"),
    [({"knocker": 2}, "invalid knocker 2: give a seat 0-1"),
     ({"knocker": True}, "invalid knocker True"),
     ({"knocer": 0}, "unknown field 'knocer' in the hand record; did you mean 'knocker'"),
     ({"dark": "no"}, "invalid dark 'no': use true or false"),
     ({"fed_by": "1"}, "invalid fed_by '1'"),
     ({"players": []}, "give a list of 2-4 players"),
     ({"players": [{"laid": "QS KS AS"}, "KH"]}, "invalid player 2 'KH'"),
     ({"players": [{"laid": "QS KS AS", "cards": ""}, {"hand": "KH"}]}, "unknown field 'cards' in player 1"),
     ({"players": [{"laid": "QS KS AS"}, {"hand": 12}]}, "invalid player 2's hand 12"),
     ({"players": [{"laid": "QS KS AS"}, {"hand": "KH", "born": "yes"}]}, "invalid born of player 2 'yes'"),
     ({"knock_card": "ZZ"}, "invalid card 'ZZ'")],
)
def test_bad_records_are_refused_quoting_the_value(change: dict[str, Any], message: str) -> None:
    hand = record(0, "5H", seat("QS KS AS"), seat(hand="KH"))
    hand.update(change)
    with pytest.raises(RulesError) as caught:
        score_thai_hand(hand)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_bad_records_need_players_and_knocker() -> None:
    with pytest.raises(InvalidHandRecordError, match="needs 'players'"):
        score_thai_hand({"knocker": 0})
    with pytest.raises(InvalidHandRecordError, match="needs 'knocker'"):
        score_thai_hand({"players": [seat("QS KS AS"), seat(hand="KH")]})
    with pytest.raises(InvalidHandRecordError, match="must be an object"):
        score_thai_hand([])  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- whole matches


def test_D6_replay_a_three_player_match_to_500() -> None:
    """Reference rules, player 1 deals first; the sheet, the dealer and the direction after every hand."""
    hands = [
        (record(1, "5H", seat("7C 7D 7H", "KD 3S"), seat("10H JH QH KH AH | 2C 2D 2S"), seat(hand="9S QS")),
         (0, 165, -110), (0, 165, -110), 1, "forward"),
        (record(None, None, seat("4D 5D 6D 7D"), seat("KS KC KH", "AC"), seat(hand="QS 2C")),
         (20, 15, -100), (20, 180, -210), 2, "forward"),
        (record(0, "2C", seat("8S 9S 10S JS | AD AH AC", born=False), seat("3H 4H 5H", "6C"), seat("QD QC QH", "7S"),
                dark=True, fed_by=2),
         (250, 10, -25), (270, 190, -235), 0, "reverse"),
        (record(0, "3C", seat("5S 6S 7S 8S | 10C 10D 10S 10H | KD KH KS"), seat("4C 5C 6C", "AS"), seat(hand="2H")),
         (140, 0, -10), (410, 190, -245), 0, "reverse"),
        (record(0, "4S", seat("JC QC KC AC | 9D 10D JD"), seat("6H 7H 8H"), seat("5D 6D 7D", "QS"), fed_by=1),
         (120, -35, -35), (530, 155, -280), 0, "forward"),
    ]
    scored = []
    for number, (hand, scores, totals, dealer, direction) in enumerate(hands, start=1):
        score = score_thai_hand(hand)
        assert score.scores == scores, number
        scored.append(score)
        standing = thai_standings(3, scored, first_dealer=0)
        assert (standing.totals, standing.dealer, standing.direction) == (totals, dealer, direction), number
        assert standing.history[-1] == totals and standing.hands_played == number
        assert standing.finished is (number == len(hands))
    assert standing.winners == (0,) and standing.dealers == (0, 1, 2, 0, 0)
    assert standing.to_dict()["winners"] == [0]


def test_D6_replay_a_four_player_match_with_the_table_options() -> None:
    """The thai_table profile: speto knock 100, −50 lay-off discards, the first up-card bonus; player 3 deals first."""
    hands = [
        (record(3, "QS", seat(hand="2C"), seat("3D 4D 5D", "KH", layoff_discards=1), seat(hand="6S 7S"),
                seat("AS AH AD AC | 9C 10C JC QC KC", born=False), dark=True, first_card="AH", first_card_by=3),
         (-100, -45, -20, 460), (-100, -45, -20, 460), 3, "forward"),
        (record(None, None, seat("2C 3C 4C"), seat("8H 9H 10H", "JH QH"), seat("5S 5H 5D"), seat("KD KC KS", "AS"),
                first_card="2C", first_card_by=0),
         (160, 0, 15, 15), (60, -45, -5, 475), 0, "forward"),
        (record(1, "7C", seat("4H 5H 6H", "9D"), seat("10S JS QS KS AS"), seat("3S 3H 3D"), seat("8C 9C 10C", "KH"),
                fed_by=0),
         (-40, 145, 15, 10), (20, 100, 10, 485), 1, "reverse"),
        (record(None, None, seat("6D 7D 8D"), seat("2H 3H 4H", "2C"), seat(hand="AH"), seat("JD QD KD")),
         (15, -35, -15, 30), (35, 65, -5, 515), 0, "reverse"),
    ]
    scored = []
    for number, (hand, scores, totals, dealer, direction) in enumerate(hands, start=1):
        score = score_thai_hand(hand, TABLE)
        assert score.scores == scores, number
        scored.append(score)
        standing = thai_standings(4, scored, TABLE, first_dealer=2)
        assert (standing.totals, standing.dealer, standing.direction) == (totals, dealer, direction), number
        assert standing.finished is (number == len(hands)), number
    assert standing.winners == (3,) and standing.dealers == (2, 3, 0, 1)


# ------------------------------------------------------------------------------------ brute-force oracle


def _oracle_is_meld(cards: tuple[Card, ...]) -> bool:
    if len(cards) < 3:
        return False
    if len({c.rank for c in cards}) == 1:
        return True
    if len({c.suit for c in cards}) != 1:
        return False
    values = sorted(14 if c.rank == 1 else c.rank for c in cards)
    return all(b - a == 1 for a, b in zip(values, values[1:]))


@lru_cache(maxsize=None)
def _oracle_partitions(cards: frozenset[Card]) -> bool:
    """Can ``cards`` be divided into melds?  Every block containing the first card is tried."""
    if not cards:
        return True
    first, *rest = sorted(cards, key=lambda c: c.index)
    for mask in range(1 << len(rest)):
        block = (first, *(c for i, c in enumerate(rest) if mask >> i & 1))
        if _oracle_is_meld(block) and _oracle_partitions(cards - set(block)):
            return True
    return False


def _oracle_knock_cards(hand: tuple[Card, ...], table: list[tuple[Card, ...]]) -> set[Card]:
    found = set()
    for knock in hand:
        rest = [c for c in hand if c != knock]
        for targets in product(range(len(table) + 1), repeat=len(rest)):
            new = frozenset(c for c, t in zip(rest, targets) if t == len(table))
            fits = all(
                _oracle_is_meld((*meld, *(c for c, t in zip(rest, targets) if t == index)))
                or not any(t == index for t in targets)
                for index, meld in enumerate(table)
            )
            if fits and _oracle_partitions(new):
                found.add(knock)
                break
    return found


def _random_cards(rng: random.Random, count: int, pool: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(rng.sample(list(pool), count))


# A narrow deck (three suits, nine ranks around the ace) makes melds, lay-offs and near misses common.
NARROW = [c for c in ALL_CARDS if c.suit is not None and c.suit.value in "SHD" and (c.rank in (1, 2, 3) or c.rank >= 8)]


def _knock_position(rng: random.Random) -> tuple[tuple[Card, ...], list[tuple[Card, ...]]]:
    """A table of 0-2 melds and a hand built from melds, lay-offs and one spare card; half of the hands
    get one card swapped for a random one, so near misses are as common as knocks."""
    deck = list(NARROW)
    rng.shuffle(deck)
    table: list[tuple[Card, ...]] = []
    hand: list[Card] = []
    meld: tuple[Card, ...] | None
    for _ in range(rng.randint(0, 2)):
        meld = next((m for m in _all_melds(tuple(deck[:9])) if len(m) == 3), None)
        if meld is not None:
            table.append(meld)
            deck = [c for c in deck if c not in meld]
    for _ in range(rng.randint(1, 2)):
        meld = next((m for m in _all_melds(tuple(deck[:10])) if 3 <= len(m) <= 4), None)
        if meld is not None:
            hand += meld
            deck = [c for c in deck if c not in meld]
    for laid in table:
        extra = next((c for c in deck if _oracle_is_meld((*laid, c))), None)
        if extra is not None and rng.random() < 0.7:
            hand.append(extra)
            deck.remove(extra)
    hand.append(deck.pop())
    if rng.random() < 0.5:
        hand[rng.randrange(len(hand))] = deck.pop()
    return tuple(hand), table


def test_D4_knock_search_agrees_with_brute_force_on_random_hands() -> None:
    rng = random.Random(2026)
    knocks = misses = 0
    for _ in range(160):
        hand, table = _knock_position(rng)
        check = check_knock(hand, table)
        expected = _oracle_knock_cards(hand, table)
        assert set(check.knock_cards) == expected, (hand, table)
        knocks += bool(expected)
        misses += not expected
        if check.knocks:
            laid = [c for meld in check.melds for c in meld] + [c for _, ext in check.layoffs for c in ext]
            assert sorted(laid + [check.knock_cards[0]], key=lambda c: c.index) == sorted(hand, key=lambda c: c.index)
            assert all(_oracle_is_meld(m) for m in check.melds)
            assert all(_oracle_is_meld((*table[i], *ext)) for i, ext in check.layoffs)
    assert knocks > 50 and misses > 25  # the sample holds both verdicts


def _all_melds(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    melds = []
    for mask in range(1, 1 << len(cards)):
        block = tuple(c for i, c in enumerate(cards) if mask >> i & 1)
        if _oracle_is_meld(block):
            melds.append(block)
    return melds


def test_D2_pickup_melds_agree_with_brute_force() -> None:
    rng = random.Random(3)
    for _ in range(150):
        cards = _random_cards(rng, 8, NARROW)
        row, hand = cards[:3], cards[3:]
        chosen = row[rng.randrange(3)]
        check = check_pickup(row, chosen.code, hand, born=False)
        pool = (*hand, *row[row.index(chosen):])
        expected = {frozenset(m) for m in _all_melds(pool) if chosen in m}
        assert {frozenset(m) for m in check.melds} == expected
        assert check.legal is bool(expected)


def test_D2_meld_verdicts_agree_with_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        cards = _random_cards(rng, rng.randint(1, 6), NARROW if rng.random() < 0.7 else ALL_CARDS)
        assert check_meld(cards).valid is _oracle_is_meld(cards), cards
