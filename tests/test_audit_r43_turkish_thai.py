"""Audit (round 43) of Turkish Rummy (RULES.md §T, T1-T7) and Thai Rummy (§D, D1-D6) as a user meets them:
the batch interface and the command line (``companion.cli``), one real ``okey-companion`` process, and the HTTP
API through Flask's test client.  Every expected number below is worked out by hand from RULES.md; the comment
beside it says how.  Only behaviours found correct are here; the discrepancies found are reported separately."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.rules.thai import score_thai_hand, thai_standings

PIN = {"X-Table-Pin": "1234"}


def ok(request: dict[str, Any]) -> dict[str, Any]:
    result = answer(request)
    assert "error" not in result, result
    return result


def turkish(op: str, **fields: Any) -> dict[str, Any]:
    return ok({"op": op, "game": "turkish", **fields})


def thai(op: str, **fields: Any) -> dict[str, Any]:
    return ok({"op": op, "game": "thai", **fields})


def seat(laid: str = "", hand: str = "", **more: Any) -> dict[str, Any]:
    return {"laid": laid, "hand": hand, **more}


def knock(knocker: int | None, card: str | None, *players: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"knocker": knocker, "knock_card": card, "players": list(players), **fields}


def thai_scores(hand: dict[str, Any], profile: str = "reference") -> list[int]:
    return thai("score", hand=hand, profile=profile)["scores"]


# ============================================================================================ Turkish Rummy


def test_T2_T7_every_rank_left_in_hand_through_batch_score() -> None:
    # T2/T7: 2-9 face, 10/J/Q/K 10, ace 11, joker 15: 2 + 9 + 10 + 10 + 10 + 10 + 11 + 15 = 77.
    result = turkish("score", hand={"finisher": 1, "players": [{"cards": "2C 9D 10H JS QH KC AS *"}, {"cards": ""}]})
    assert result["scores"] == [77, 0]


def test_T2_T7_joker_penalty_option_changes_only_the_joker() -> None:
    # T7 "joker 15" is the option joker_penalty: at 25 the same hand costs 77 - 15 + 25 = 87.
    result = ok({"op": "score", "game": "turkish", "options": {"joker_penalty": 25},
                 "hand": {"finisher": 1, "players": [{"cards": "2C 9D 10H JS QH KC AS *"}, {"cards": ""}]}})
    assert result["scores"] == [87, 0]


@pytest.mark.parametrize(("meld", "value", "stands_for"), [
    ("AH * 3H", 16, "2H"),        # T2: the joker is worth the card it replaces, 2H; the ace 11: 11 + 2 + 3
    ("9C * JC", 29, "10C"),       # 9 + 10 (the joker as 10C) + 10
    ("KH KS *", 30, "KD"),        # a set of kings, the joker a king: 3 × 10
    ("AH AS *", 33, "AD"),        # a set of aces, the joker an ace: 3 × 11
    ("* KH AH", 31, "QH"),        # Q-K-A (K-A-2 never wraps): 10 + 10 + 11
    ("7S 7H * *", 28, "7D 7C"),   # a set may hold the deck's two jokers (T5 speaks of a set with two jokers)
])
def test_T2_a_joker_in_a_meld_is_worth_the_card_it_replaces(meld: str, value: int, stands_for: str) -> None:
    result = turkish("meld", cards=meld)
    assert (result["valid"], result["value"], result["stands_for"]) == (True, value, stands_for)


def test_T2_a_fifth_card_in_a_set_or_a_third_joker_in_a_meld_is_refused() -> None:
    assert turkish("meld", cards="7S 7H 7D 7C *")["valid"] is False
    assert "only 2 jokers" in turkish("meld", cards="* * * 5H")["reason"]


@pytest.mark.parametrize(("melds", "at_40", "at_51"), [
    ("KH KS KD | 2C 3C 4C", False, False),   # 30 + 9 = 39: one short of 40
    ("KH KS KD | 3C 4C 5C", True, False),    # 30 + 12 = 42
    ("KH KS KD | 6C 7C 8C", True, True),     # 30 + 21 = 51: exactly Rummy 51's opening
    ("KH KS KD | 5C 6C 7C", True, False),    # 30 + 18 = 48
])
def test_T3_opening_minimum_40_or_51_at_the_boundary(melds: str, at_40: bool, at_51: bool) -> None:
    assert turkish("meld", cards=melds)["opens"] is at_40
    assert ok({"op": "meld", "game": "turkish", "profile": "rummy51", "cards": melds})["opens"] is at_51
    assert ok({"op": "meld", "game": "turkish", "options": {"opening": 51}, "cards": melds})["minimum"] == 51


def test_T3_taking_the_discard_before_opening_needs_40_with_it() -> None:
    # T3: a player not yet opened who takes the discard must open at once with 40.  Without the discard KD the
    # hand's best melds are 5C 6C 7C = 18; with it the kings make 30 more: 48, enough.
    before = turkish("opening", cards="KH KS 5C 6C 7C 2D 9H")
    assert (before["value"], before["opens"]) == (18, False)
    after = turkish("opening", cards="KH KS 5C 6C 7C 2D 9H KD")
    assert (after["value"], after["opens"]) == (48, True)
    assert ok({"op": "opening", "game": "turkish", "profile": "rummy51", "cards": "KH KS 5C 6C 7C 2D 9H KD"})[
        "opens"] is False


def test_T5_three_card_set_with_a_joker_both_missing_suits_free_it_one_closes_it() -> None:
    freed = turkish("joker", meld="AS AH *", cards="AD AC")
    assert (freed["allowed"], freed["freed"], freed["meld_after"]) == (True, 1, "AS AH AD AC")
    closed = turkish("joker", meld="AS AH *", cards="AD")
    assert (closed["allowed"], closed["freed"], closed["meld_after"]) == (True, 0, "AS AH AD *")
    assert turkish("joker", meld="AS AH AD *", cards="AC")["allowed"] is False  # a closed four-card set
    # The second deck's AS cannot be one of the "missing suits".
    assert turkish("joker", meld="AS AH *", cards="AS AD")["allowed"] is False


def test_T5_set_with_two_jokers_two_missing_cards_free_one() -> None:
    # "QH * *" with QS QD added: QH QS QD and one joker make four cards; the other joker is freed.
    one = turkish("joker", meld="QH * *", cards="QS QD")
    assert (one["allowed"], one["freed"], one["meld_after"]) == (True, 1, "QH QS QD *")
    # All three missing cards: four real queens, both jokers come free.
    both = turkish("joker", meld="QH * *", cards="QS QD QC")
    assert (both["allowed"], both["freed"], both["meld_after"]) == (True, 2, "QH QS QD QC")


@pytest.mark.parametrize(("meld", "card", "after"), [
    ("* 2H 3H", "AH", "AH 2H 3H"),      # the low ace the joker stands for
    ("QH KH *", "AH", "QH KH AH"),      # the high ace, laid after the king
    ("JH * KH", "QH", "JH QH KH"),
    ("5H * * 8H", "7H", "5H * 7H 8H"),  # a run with two jokers: the holder of 7H swaps the second one
])
def test_T5_run_the_holder_of_the_represented_card_swaps_it(meld: str, card: str, after: str) -> None:
    swap = turkish("joker", meld=meld, cards=card)
    assert (swap["allowed"], swap["freed"], swap["meld_after"]) == (True, 1, after)


def test_T4_T5_only_an_opened_player_touches_the_table() -> None:
    assert turkish("joker", meld="AS AH *", cards="AD AC", opened=False)["allowed"] is False
    assert turkish("joker", meld="5H * 7H", cards="6H", opened=False)["allowed"] is False
    # T4: melds are never rearranged: the joker laid after 6H stands for 7H, not for 4H.
    assert turkish("joker", meld="5H 6H *", cards="4H")["allowed"] is False


def test_T6_rummy_everything_at_once_for_the_opening() -> None:
    # "* 7H 8H": the joker is 6H or 9H, the lower counts (21); with the kings 51 >= 40: a Rummy, discarding 2C.
    out = turkish("going_out", cards="7H 8H * KS KD KC 2C", opened=False)
    assert (out["possible"], out["all_at_once"], out["discard"], out["value"]) == (True, True, "2C", 51)
    assert "Rummy" in out["reason"]
    # 2H 3H 4H (9) + three fives (15) = 24 < 40: not opened, so not out; once opened, out by discarding 9C.
    short = turkish("going_out", cards="2H 3H 4H 5S 5D 5C 9C", opened=False)
    assert short["possible"] is False and "only for 24" in short["reason"]
    opened = turkish("going_out", cards="2H 3H 4H 5S 5D 5C 9C", opened=True)
    assert (opened["possible"], opened["all_at_once"], opened["discard"]) == (True, False, "9C")


def test_T6_going_out_needs_a_last_discard() -> None:
    # T6: going out is by discarding the last card; six cards in two melds leave nothing to discard.
    assert turkish("going_out", cards="KH KS KD 5C 6C 7C", opened=True)["possible"] is False
    assert turkish("going_out", cards="5H", opened=True)["discard"] == "5H"


def test_T6_T7_the_rule_book_example_and_rummy_51_without_bonus() -> None:
    # docs/rules.md T7: Rummy; AS * 7H = 11 + 15 + 7 = 33 + 25 = 58; KD = 10 + 25 = 35.
    hand = {"finisher": 0, "rummy": True, "players": [{"cards": ""}, {"cards": "AS * 7H"}, {"cards": "KD"}]}
    assert turkish("score", hand=hand)["scores"] == [0, 58, 35]
    # T6: Rummy 51 has no Rummy (rummy_bonus 0): the plain card values.
    assert ok({"op": "score", "game": "turkish", "profile": "rummy51", "hand": hand})["scores"] == [0, 33, 10]
    # A value typed at the table gets the 25 too.
    typed = {"finisher": 2, "rummy": True, "players": [{"cards": 40}, {"cards": "2C 2D"}, {"cards": ""}]}
    assert turkish("score", hand=typed)["scores"] == [65, 29, 0]


def test_T1_T7_more_copies_than_two_decks_are_refused_when_scoring() -> None:
    result = answer({"op": "score", "game": "turkish",
                     "hand": {"finisher": 0, "players": [{"cards": ""}, {"cards": "* * *"}]}})
    assert "2 jokers" in result["error"]


def test_T7_cli_score_and_T5_cli_joker(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"finisher": 1, "rummy": True, "players": [{"cards": "AC 10D"}, {"cards": ""}]}))
    assert main(["score", "--game", "turkish", "--hand", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "scores: 46 0"  # 11 + 10 + 25
    assert main(["joker", "--game", "turkish", "meld=AS AH *", "cards=AD AC", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["freed"] == 1
    assert main(["going_out", "--game", "turkish", "cards=7H 8H * KS KD KC 2C", "opened=false"]) == 0
    assert "Rummy, everything at once for 51" in capsys.readouterr().out


def test_T7_api_turkish_rummy_and_the_deal_passes_to_the_right(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={"game": "turkish", "players": ["A", "B", "C"], "pin": "1234"})
    table = created.json["id"]
    response = client.post(f"/api/tables/{table}/events", headers=PIN, json={"type": "turkish_hand", "hand": {
        "finisher": 0, "rummy": True, "players": [{"cards": ""}, {"cards": "AS * 7H"}, {"cards": "KD"}]}})
    assert response.status_code == 201, response.json
    sheet = response.json["sheet"]
    assert sheet["totals"] == [0, 58, 35]
    assert sheet["dealer"] == 1  # T1 reading: the deal passes to the right (counter-clockwise), seat 0 → 1


# ============================================================================================== Thai Rummy


@pytest.mark.parametrize(("cards", "value"), [
    ("2D 3D 4D", 15),          # D5: 2-9 are 5 each
    ("10H JH QH KH", 40),      # 10, J, Q, K: 10 each
    ("QD KD AD", 35),          # the ace 15, high only (D1)
    ("2C 3C 4C", 60),          # the speto 2C is 50: 50 + 5 + 5
    ("JS QS KS", 70),          # the speto QS is 50: 10 + 50 + 10
    ("QS QH QD QC", 80),       # QS 50 and three queens at 10
    ("2C 2D 2H", 60),          # a set with the speto 2C
])
def test_D5_laid_values_with_the_speto_in_melds(cards: str, value: int) -> None:
    result = thai("meld", cards=cards)
    assert (result["valid"], result["value"]) == (True, value)


@pytest.mark.parametrize(("cards", "valid"), [
    ("QD KD AD", True), ("JD QD KD AD", True), ("AD 2D 3D", False), ("KD AD 2D", False), ("AD 2D 3D 4D", False),
])
def test_D1_the_ace_is_high_only_in_runs(cards: str, valid: bool) -> None:
    assert thai("meld", cards=cards)["valid"] is valid


def test_D1_one_deck_so_melds_share_no_card() -> None:
    assert "twice" in answer({"op": "meld", "game": "thai", "cards": "7C 7D 7H | 7C 8C 9C"})["error"]


def test_D5_knock_with_the_speto_is_50_in_the_reference_rules() -> None:
    # D5: the knock card is 50 whatever it is, so the speto QS as knock card is 50 (not 50 + 50): 15 + 50 = 65.
    assert thai_scores(knock(0, "QS", seat("7C 7D 7H"), seat("4D 5D 6D", "KH"))) == [65, 5]


def test_D6_option_speto_knock_card_100_doubled_by_a_dark_knock() -> None:
    # Table option: the speto as knock card is 100; a dark knock doubles laid cards and knock card: (15 + 100) × 2.
    hand = knock(0, "QS", seat("7C 7D 7H", born=False), seat("4D 5D 6D", "KH"), dark=True)
    assert thai_scores(hand, "thai_table") == [230, 5]
    assert thai_scores(hand) == [130, 5]  # reference: (15 + 50) × 2


def test_D5_the_knocker_lays_the_speto_and_knocks_with_a_small_card() -> None:
    # JS QS KS = 70 and 2C 2D 2H = 60 laid, knock card 50: 180.  Player 2 never born: QH QD = 20, doubled: -40.
    assert thai_scores(knock(0, "3H", seat("JS QS KS | 2C 2D 2H"), seat(hand="QH QD"))) == [180, -40]


def test_D6_dark_knock_born_same_move() -> None:
    # D6: born and knocking in one move is dark: (15 + 50) × 2 = 130; "born" may say true, the knock is dark.
    hand = knock(1, "9D", seat("4D 5D 6D", "KH"), seat("7C 7D 7H", born=True), dark=True)
    assert thai_scores(hand) == [5, 130]


def test_D6_feeding_combined_with_dark_knock_two_players() -> None:
    # Player 1 fed player 2, who picked up that single card, was born with it and knocked at once (dark):
    # player 2 (15 + 50) × 2 = 130; player 1 15 - 10 - 50 = -45.
    hand = knock(1, "9D", seat("4D 5D 6D", "KH"), seat("7C 7D 7H", born=False), dark=True, fed_by=0)
    assert thai_scores(hand) == [-45, 130]


def test_D6_a_feeder_not_born_falls_off_the_building_and_pays_the_50() -> None:
    # Player 3 fed player 1 and was never born: KH 2C = 60, doubled -120, and -50 for feeding: -170.
    # Falling off the building doubles only the cards in hand, not the 50.  Player 2: 5 + 5 + 10 - 5 = 15.
    hand = knock(0, "5S", seat("7C 7D 7H"), seat("8D 9D 10D", "3H"), seat(hand="KH 2C"), fed_by=2)
    assert thai_scores(hand) == [65, 15, -170]


def test_D6_stock_out_nobody_falls_off_the_building() -> None:
    # D4/D6: no knock, so a player not born counts the hand once: 7C 2C = 55.
    assert thai_scores(knock(None, None, seat("4D 5D 6D", "KH"), seat(hand="7C 2C"))) == [5, -55]


def test_D6_a_knocker_not_born_must_be_a_dark_knock() -> None:
    result = answer({"op": "score", "game": "thai", "hand": knock(0, "5H", seat("7C 7D 7H", born=False),
                                                                     seat(hand="KH"))})
    assert "dark knock" in result["error"]


def test_D6_option_first_up_card_speto_100_not_doubled_and_layoff_discard() -> None:
    # thai_table: player 2 melded the first up-card 2C (a speto): +100; player 1 knocked dark with 9D:
    # (15 + 50) × 2 = 130, minus 50 for one discard that could have been laid off = 80; player 2: 60 + 100.
    hand = knock(0, "9D", seat("7C 7D 7H", layoff_discards=1), seat("2C 3C 4C"), dark=True,
                 first_card="2C", first_card_by=1)
    assert thai_scores(hand, "thai_table") == [80, 160]


def test_D6_ties_at_exactly_500_share_the_win() -> None:
    # Two players both at 480, then each lays 20 more in a stock-out hand: 500 and 500, the same total: both win.
    forty = score_thai_hand(knock(None, None, seat("10D JD QD KD"), seat("10H JH QH KH")))
    twenty = score_thai_hand(knock(None, None, seat("4D 5D 6D 7D"), seat("4H 5H 6H 7H")))
    standing = thai_standings(2, [forty] * 12 + [twenty])
    assert standing.totals == (500, 500) and standing.finished and standing.winners == (0, 1)
    # 500 against 495: the one who reached 500 wins.
    fifteen = score_thai_hand(knock(None, None, seat("4D 5D 6D 7D"), seat("4H 5H 6H")))
    standing = thai_standings(2, [forty] * 12 + [fifteen])
    assert standing.totals == (500, 495) and standing.winners == (0,)
    # 499 is not 500: the match goes on.
    assert not thai_standings(2, [forty] * 12 + [score_thai_hand(knock(None, None, seat("4D 5D 6D"),
                                                                        seat("4H 5H 6H")))]).finished


def test_D4_check_knock_with_the_speto_when_it_is_the_only_card_left() -> None:
    # 8S 9S 10S and three sevens meld; QS is the card left: knock with it face down.
    result = thai("check", cards="QS 7C 7D 7H 8S 9S 10S")
    assert result["knocks"] and result["knock_cards"] == ["QS"]


def test_D4_check_lays_off_at_the_high_end_with_the_ace() -> None:
    # KS AS extend 10S JS QS upwards (the ace high); 5H is put face down.
    result = thai("check", cards="KS AS 5H", table="10S JS QS")
    assert result["knock_cards"] == ["5H"] and result["layoffs"] == [{"meld": 0, "cards": ["KS", "AS"]}]
    # 2S cannot follow the ace (never K-A-2): no knock.
    assert thai("check", cards="2S 5H", table="QS KS AS")["knocks"] is False


def test_D2_D3_pickup_speto_born_and_lay_off() -> None:
    # Not born: 2C melds with 3C 4C from the hand, taking 2C and 9H after it; the meld makes the player born.
    born = thai("pickup", row="5D 2C 9H", card="2C", cards="3C 4C", born=False)
    assert (born["legal"], born["taken"], born["born_now"]) == (True, ["2C", "9H"], True)
    # Not born, 2C fits only the table's 3C 4C 5C: a lay-off, which only a born player may make (D3).
    assert thai("pickup", row="5D 2C 9H", card="2C", cards="", born=False, table="3C 4C 5C")["legal"] is False
    laid_off = thai("pickup", row="5D 2C 9H", card="2C", cards="", born=True, table="3C 4C 5C")
    assert laid_off["legal"] and laid_off["layoffs"] == [["3C", "4C", "5C"]] and not laid_off["born_now"]
    # A-2-3 is no run (ace high only): the ace cannot be picked up to meld it so.
    assert thai("pickup", row="AS 2S 3S", card="AS", cards="", born=False)["legal"] is False


def test_D6_api_feeding_reverses_the_direction_and_the_stock_out_deal_follows_it(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={"game": "thai", "players": ["A", "B", "C"], "pin": "1234"})
    table = created.json["id"]

    def record(hand: dict[str, Any]) -> dict[str, Any]:
        response = client.post(f"/api/tables/{table}/events", headers=PIN, json={"type": "thai_hand", "hand": hand})
        assert response.status_code == 201, response.json
        return response.json["sheet"]

    # Play goes A → B → C; B (seat 1) discarded the card C (seat 2) knocked with: C deals next, play reverses.
    sheet = record(knock(2, "3S", seat("2C 3C 4C", "KH"), seat(hand="9H"), seat("7C 7D 7H"), fed_by=1))
    # A: 60 - 10 = 50; B never born: 5 × 2 = -10, -50 for feeding = -60; C: 15 + 50 = 65.
    assert sheet["totals"] == [50, -60, 65] and sheet["dealer"] == 2
    # The stock runs out: the deal passes on in the reversed direction, from C to B.
    sheet = record(knock(None, None, seat("2C 3C 4C", "KH"), seat(hand="9H"), seat("7C 7D 7H", "2D")))
    assert sheet["totals"] == [100, -65, 75] and sheet["dealer"] == 1


def test_D_cli_process_scores_the_rule_book_example() -> None:
    # docs/rules.md D6: player 2 knocks dark with 3S after player 1 fed them: 105 × 2 = 210; player 1
    # 60 - 15 - 50 = -5; player 3 never born keeps AS QS 8H = 70, doubled: -140.
    hand = knock(1, "3S", seat("2C 3C 4C", "9S KD"), seat("7C 7D 7H 10H JH QH KH", born=False),
                 seat(hand="AS QS 8H"), dark=True, fed_by=0)
    run = subprocess.run([sys.executable, "-m", "companion", "score", "--game", "thai", "--hand", "-", "--json"],
                         input=json.dumps(hand), capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["scores"] == [-5, 210, -140]
