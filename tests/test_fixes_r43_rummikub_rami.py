"""Fixes of the round-43 audit of Rummikub (RULES.md R1-R6) and Rami 40 / Rami 51 (M1, M7): each test names the
rule, reproduces what the audit found and says what the rule book wants instead."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from html import unescape
from pathlib import Path

import pytest

from companion.cli import answer, main
from companion.rules.errors import IllegalMeldError, ImpossibleHandError, InvalidHandRecordError
from companion.rules.rami import admit_rami_hand, rami_going_out, score_rami_hand
from companion.rules.rummikub import RummikubOptions, admit_hand, check_meld, check_turn, score_hand
from companion.rules.rummikub_laydown import arrange_table, lay_down, parse_table, rummikub_tiles

ROOT = Path(__file__).resolve().parents[1]
WRAP = RummikubOptions(wrap_13_1=True)
ONE_TO_13 = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"


def companion(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``okey-companion`` as a separate process: what reaches the real stdout, native libraries' output included."""
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          check=False, cwd=ROOT, timeout=120)


# --- R4: the lay-down assistant answers on stdout with JSON only -------------------------------------------------

RACKS_HIGHS_PRINTED_FOR = ["R4 J R6", "B3 J B5", "Y1 J Y2", "J J B4", "R3 R2 R4 R4 R5"]
"""Selections (empty table, goal "all") for which HiGHS, presolve off, printed a debug line of its own to stdout."""


def test_R4_batch_solve_answers_one_json_line_per_request_and_nothing_else():
    requests = [{"op": "solve", "game": "rummikub", "table": "", "rack": rack, "goal": "all"}
                for rack in RACKS_HIGHS_PRINTED_FOR]
    done = companion("batch", stdin="".join(json.dumps(r) + "\n" for r in requests))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(requests), done.stdout
    answers = [json.loads(line) for line in lines]
    assert [a["possible"] for a in answers] == [True, True, True, True, False]


@pytest.mark.parametrize("rack", RACKS_HIGHS_PRINTED_FOR[:2])
def test_R4_solve_json_prints_exactly_one_json_line(rack):
    done = companion("solve", "--game", "rummikub", "--json", "table=", f"rack={rack}", "goal=all")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1, done.stdout
    assert json.loads(done.stdout)["possible"] is True


# --- R2 / R4: the assistant's melds pass the product's own meld check, wrap_13_1 on --------------------------------


def assert_every_meld_legal(melds, options: RummikubOptions) -> None:
    for meld in melds:
        verdict = check_meld(meld.tiles, options)
        assert verdict.valid, f"{meld}: {verdict.reason}"


@pytest.mark.parametrize(("table", "rack"), [
    (ONE_TO_13, "R1"),                      # R1-R13 on the table, a second R1 laid: never R1 … R13 R1 (O4)
    ("", ONE_TO_13 + " R1"),                # the same fourteen tiles, all from the rack
    (ONE_TO_13 + " |", "R1"),               # the table given as one meld
])
def test_R2_wrap_13_1_joined_runs_never_hold_1_both_low_and_after_13(table, rack):
    # O4 (R2 "as O4"): 1 may be low (1-2-3) or follow 13 (12-13-1), never both; 14 tiles are no run.
    result = lay_down(table, rack, goal="all", wrap_13_1=True)
    assert result.possible and len(result.placed) == len(rummikub_tiles(rack))
    assert_every_meld_legal(result.melds, WRAP)
    assert all(len(meld.tiles) <= 13 for meld in result.melds)
    on_table = Counter(t for meld in result.melds for t in meld.tiles)
    assert on_table == Counter(parse_table(table)[0]) + Counter(result.placed)
    solved = answer({"op": "solve", "game": "rummikub", "table": table, "rack": rack, "goal": "all",
                     "options": {"wrap_13_1": True}})
    assert all(check_meld(meld, WRAP).valid for meld in solved["melds"]), solved["melds"]


def test_R2_wrap_13_1_a_table_of_loose_tiles_splits_into_legal_runs():
    melds = arrange_table(ONE_TO_13 + " R1", wrap_13_1=True)
    assert melds is not None
    assert_every_meld_legal(melds, WRAP)


# --- R3: the initial meld counts the rack tiles laid, the table's melds compared as melds ----------------------------


def test_R3_a_twin_of_a_table_meld_counts_once_toward_the_initial_meld():
    # Only the rack tiles laid count (R3): R4 R5 R6 laid beside the table's R4 R5 R6 is 15 < 30.
    turn = check_turn("R4 R5 R6", "R4 R5 R6 | R4 R5 R6", opened=False)
    assert not turn.valid
    assert turn.reason == ("illegal turn: the new melds of rack tiles are worth 15, the initial meld needs 30 (R3)")
    # With the table free after the initial meld the rack's tiles still count once.
    free = check_turn("R4 R5 R6", "R4 R5 R6 | R4 R5 R6", opened=False,
                      options=RummikubOptions(table_after_initial_meld=True))
    assert not free.valid and "worth 15" in free.reason
    # Twins both laid from the rack both count: 15 + 15 = 30.
    assert check_turn("K1 K2 K3", "K1 K2 K3 | R4 R5 R6 | R4 R5 R6", opened=False).valid


def test_R3_a_table_meld_rewritten_in_another_order_is_the_same_meld():
    # The set K7 B7 R7 is the table's R7 B7 K7; R10 R11 R12 (33) is the initial meld.
    turn = check_turn("R7 B7 K7", "K7 B7 R7 | R10 R11 R12", opened=False)
    assert turn.valid and turn.value == 33, turn.reason
    # A run read from the other end, a joker where it stood: the same meld.
    assert check_turn("R4 J R6", "R6 J R4 | R10 R11 R12", opened=False).valid
    # A joker moved to stand for another tile changes the meld: before the initial meld the table stays (R3).
    moved = check_turn("R5 R6 J", "J R5 R6 | R10 R11 R12", opened=False)
    assert not moved.valid and "the table stays as it is (R3)" in moved.reason


# --- R1: the command line asks Rummikub for no indicator -----------------------------------------------------------


@pytest.mark.parametrize("command", ["check"])
def test_R1_rummikub_commands_say_the_operation_is_not_offered_never_ask_for_an_indicator(capsys, command):
    # ``opening`` was refused here too until the forty-fifth round (tests/test_rummikub_opening.py).
    assert main([command, "--game", "rummikub", "R4", "J", "R6"]) == 2
    err = capsys.readouterr().err
    assert f"Rummikub has no {command!r} operation; it answers: joker, meld, opening, options, score, solve, turn" in err
    assert "indicator" not in err


def test_R2_rummikub_meld_is_answered_without_an_indicator(capsys):
    # Forty-fourth round: Rummikub answers ``meld`` (R2, several melds: an initial meld, R3), with no indicator.
    assert main(["meld", "--game", "rummikub", "R4", "J", "R6"]) == 0
    assert capsys.readouterr().out.strip() == "valid meld worth 15 (legal run worth 15)"


def test_O3_okey_games_still_ask_for_the_indicator_once_the_operation_is_offered(capsys):
    # O3: Okey and Okey 101 turn an indicator up (their entries list the "indicator" event): still required.
    assert main(["meld", "--game", "okey101", "R4", "R5", "R6"]) == 2
    assert "--indicator is required for Okey 101: the face-up tile, e.g. R4" in capsys.readouterr().err
    assert main(["opening", "--game", "okey", "R4"]) == 2
    assert "Okey has no 'opening' operation; it answers: check, deal, options, score" in capsys.readouterr().err


# --- R2: meld verdicts cite Rummikub's rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(("meld", "options", "why"), [
    ("R12 R13 J", RummikubOptions(), "1 after 13 is not allowed here (wrap_13_1 is off, R2)"),
    ("J R1 R2", RummikubOptions(), "1 after 13 is not allowed here (wrap_13_1 is off, R2)"),
    ("J R1 R2", WRAP, "13-1-2 never wraps, R2"),
    ("R7 B7 B7", RummikubOptions(), "a colour repeats; a set needs distinct colours, R2"),
    ("R4 R6 R5", RummikubOptions(), "the numbers must follow each other in laid order, R2"),
])
def test_R2_meld_reasons_cite_rummikubs_own_rule(meld, options, why):
    verdict = check_meld(meld, options)
    assert not verdict.valid and verdict.reason.endswith(f"({why})"), verdict.reason
    assert "O4" not in verdict.reason and "H1" not in verdict.reason


def test_R2_a_table_given_with_an_illegal_meld_cites_R2():
    with pytest.raises(IllegalMeldError, match=r"wrap_13_1 is off, R2\)"):
        lay_down("R12 R13 R1 |", "K5")


# --- R6: only the winner's rack is empty -----------------------------------------------------------------------------


def test_R6_a_loser_with_an_empty_rack_is_refused():
    # Refused where a hand enters (the registry's admit_hand: the command line's score, a table); scoring alone keeps
    # reading what an earlier version recorded.
    with pytest.raises(InvalidHandRecordError, match="player 2's rack is empty, but player 1 is the winner"):
        admit_hand({"winner": 0, "racks": ["", "", ""]})
    with pytest.raises(InvalidHandRecordError, match=r"player 3's rack is empty, but nobody won.*\"winner\": 2"):
        admit_hand({"winner": None, "racks": ["R5", "K3", ""]})
    assert "player 2's rack is empty" in answer({"op": "score", "game": "rummikub",
                                                 "hand": {"winner": 0, "racks": ["", "", ""]}})["error"]
    assert score_hand({"winner": 0, "racks": ["", "", ""]}).scores == (0, 0, 0)
    assert score_hand({"winner": 0, "racks": ["", "R5", "K3"]}).scores == (8, -5, -3)
    assert score_hand({"winner": None, "racks": ["R5", "K3", "J"]}).scores == (-2, 29, -27)


# --- M1: going out counts the cards against the deck -----------------------------------------------------------------


@pytest.mark.parametrize("game", ["rami40", "rami51", "turkish"])
@pytest.mark.parametrize(("cards", "too_many"), [
    ("* * * * * 2H 3H 4H 5H 6H 7H 8H 9H", "5 × *"),
    ("7S 7S 7S 7S 7S 8S 8S 8S 8S 8S 9S 9S 9S 9S 9S", "5 × 7S"),
])
def test_M1_going_out_refuses_cards_the_deck_cannot_hold(game, cards, too_many):
    # M1: at most 3 decks + 4 jokers (T1: 2 decks + 2 jokers): opening, meld and score refuse these; so does going_out.
    result = answer({"op": "going_out", "game": game, "cards": cards, "opened": True})
    assert "error" in result and f"impossible cards: {too_many}" in result["error"], result
    assert "error" in answer({"op": "opening", "game": game, "cards": cards})


def test_M1_going_out_on_the_command_line_and_in_the_engine():
    done = companion("going_out", "--game", "rami40", "cards=* * * * * 2H 3H 4H 5H 6H 7H 8H 9H", "opened=true")
    assert done.returncode == 2 and "impossible cards: 5 × *" in done.stderr and not done.stdout
    with pytest.raises(ImpossibleHandError, match="5 × 7S"):
        rami_going_out("7S 7S 7S 7S 7S 8S 8S 8S 8S 8S 9S 9S 9S 9S 9S", opened=True)
    assert rami_going_out("QS KS AS KH KD KC 7D", opened=False).possible


# --- M7: a finisher who never opened went out in one turn: rami sec ------------------------------------------------


def test_M7_a_finisher_marked_never_opened_is_a_rami_sec_or_an_error():
    hand = {"finisher": 0, "rami_sec": False,
            "players": [{"opened": False, "cards": ""}, {"opened": True, "cards": "7S"}]}
    with pytest.raises(InvalidHandRecordError, match="player 1 went out but is marked as never opened.*mark rami_sec"):
        admit_rami_hand(hand)
    assert "rami sec" in answer({"op": "score", "game": "rami40", "hand": hand})["error"]
    assert score_rami_hand({**hand, "rami_sec": True}).scores == (0, 14)
    opened = {**hand, "players": [{"opened": True, "cards": ""}, {"opened": True, "cards": "7S"}]}
    assert score_rami_hand(opened).scores == (0, 7)


# --- the checks a new hand passes, on the pages: previews, corrections, the reader's language ------------------------


def _editor(client, table):
    with client.session_transaction() as session:
        session["csrf_token"] = "token"
        session["pins"] = {table: True}


def test_M7_the_rami_form_refuses_a_never_opened_finisher_in_the_readers_language(client, store):
    # The live preview scores what is typed so far (the others' hands are still being filled in); recording refuses.
    table = store.create_table(game="rami40", players=["Ali", "Can", "Deniz", "Ece"], pin="1234")
    _editor(client, table)
    client.set_cookie("lang", "tr")
    form = {"csrf_token": "token", "finisher": "0", "notopened0": "on", "cards1": "KH", "cards2": "2C",
            "cards3": "3D"}
    page = unescape(client.post(f"/t/{table}/cards", data=form).text)
    assert "1. oyuncu bitirdi ama hiç açmamış olarak işaretli" in page
    assert store.get(table).hands == ()


def test_M6_M1_a_rami_loser_with_no_cards_or_fifteen_is_refused_where_the_hand_enters():
    fifteen = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D"
    with pytest.raises(InvalidHandRecordError, match="player 2 keeps 15 cards .*at most 14"):
        admit_rami_hand({"finisher": 0, "players": [{"opened": True, "cards": ""}, {"opened": True, "cards": fifteen}]})
    with pytest.raises(InvalidHandRecordError, match="player 2 keeps no cards, but the hand ends the moment"):
        admit_rami_hand({"finisher": 0, "players": [{"opened": True, "cards": ""}, {"opened": True, "cards": ""}]})
    with pytest.raises(InvalidHandRecordError, match="player 1 keeps no cards"):
        admit_rami_hand({"finisher": None, "players": [{"opened": True, "cards": ""}, {"opened": True, "cards": "KH"}]})
    # One who never opened pays the flat penalty whatever they hold: no cards typed is fine.
    admit_rami_hand({"finisher": 0, "players": [{"opened": True, "cards": ""}, {"opened": False, "cards": ""}]})


def test_R1_a_bad_tile_is_said_in_rummikubs_words():
    """No false okey F in Rummikub: the message offers its joker J."""
    result = answer({"op": "solve", "game": "rummikub", "table": "", "rack": "R7 X7"})
    assert "invalid Rummikub tile 'X7' in rack" in result["error"] and "or J for a joker" in result["error"]


def test_M2_the_card_games_deal_refuses_dice_rather_than_ignoring_them():
    done = companion("deal", "--game", "rami40", "--players", "4", "--dice", "5", "2")
    assert done.returncode == 2 and not done.stdout
    assert "--dice and --seed are the dice ritual's (Okey, Okey 101, Okey points); Rami 40 is dealt without dice" \
        in done.stderr
    assert companion("deal", "--game", "rami40", "--players", "4").returncode == 0
