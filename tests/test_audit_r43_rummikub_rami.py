"""Audit (round 43) of Rummikub (RULES.md R1-R6) and Rami 40 / Rami 51 (M1-M7) as a user meets them.

Every expected answer below is worked out by hand from RULES.md; the comment on each test says how.  These are the
behaviours the audit found correct; the discrepancies it found are reported, not tested here.  The inputs go
through the entry points a player uses: the engine functions the CLI and web call, ``okey-companion`` (in process
through ``companion.cli.main`` and as a subprocess), the batch interface and the HTTP API.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.rules.cards import JOKER
from companion.rules.errors import IllegalMeldError, ImpossibleHandError
from companion.rules.rami import (
    Rami51Options,
    RamiOptions,
    best_rami_opening,
    check_rami_laid,
    check_rami_meld,
    rami_deal,
    rami_going_out,
    rami_joker_swap,
    rami_standings,
    score_rami_hand,
)
from companion.rules.rummikub import (
    RummikubOptions,
    check_initial_meld,
    check_meld,
    check_turn,
    retrieve_joker,
    score_hand,
)
from companion.rules.rummikub_laydown import lay_down, parse_table, rummikub_tiles

WRAP = RummikubOptions(wrap_13_1=True)


def codes(meld) -> list[str]:
    return [t.code for t in meld]


def assert_legal_table(result, table: str, rack: str, wrap: bool = False) -> None:
    """What a player checks on the assistant's answer (R4): each meld legal, every table tile still on the
    table, only rack tiles added."""
    for meld in result.melds:
        assert check_meld(meld.tiles, RummikubOptions(wrap_13_1=wrap)).valid, meld
    on_table = Counter(t for m in result.melds for t in m.tiles)
    assert on_table == Counter(parse_table(table)[0]) + Counter(result.placed)
    assert not Counter(result.placed) - Counter(rummikub_tiles(rack))


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, check=False)


def rami_hand(finisher, *players, rami_sec=False):
    return {"finisher": finisher, "rami_sec": rami_sec,
            "players": [{"opened": opened, "cards": cards} for opened, cards in players]}


# --- R1 / R2 Rummikub tiles and melds ---------------------------------------------------------------


def test_R1_orange_tiles_and_jokers_on_a_scored_rack():
    # R1: orange is Y (written O too); R6: a joker left on a rack is 30.  orange 13 + J = 43.
    score = score_hand({"winner": 1, "racks": ["o13 j", ""]})
    assert score.sums == (43, 0) and score.scores == (-43, 43)


def test_R2_joker_at_the_high_end_of_12_13_has_no_tile_to_stand_for_without_wrap():
    # R2: 1 is always low.  "J R12 R13" — the joker left of R12 is R11 (11+12+13 = 36).  "R12 R13 J" as laid
    # puts the joker after 13: only a 1 (wrap) could stand there, so it is legal only with wrap_13_1, worth
    # 12 + 13 + 1 = 26 (a 1 after 13 is worth 1).
    left = check_meld("J R12 R13")
    assert left.valid and left.value == 36 and codes(left.meld.faces) == ["R11", "R12", "R13"]
    assert not check_meld("R12 R13 J").valid
    wrapped = check_meld("R12 R13 J", WRAP)
    assert wrapped.valid and wrapped.value == 26 and codes(wrapped.meld.faces) == ["R12", "R13", "R1"]


def test_R2_13_1_2_never_even_with_wrap_and_a_joker():
    # O4 (R2 "as O4"): 1 may follow 13 or be low, never both: 13-1-2 is illegal, a joker cannot make it one.
    assert not check_meld("R13 R1 R2", WRAP).valid
    assert not check_meld("J R1 R2").valid  # the joker left of R1 would have to be 13 (or 0)
    assert check_meld("R1 R2 J").valid and check_meld("R1 R2 J").value == 6


def test_R2_the_longest_run_is_1_to_13():
    # A run is consecutive numbers 1-13: 13 tiles at most, worth 1 + … + 13 = 91.
    full = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    assert check_meld(full).valid and check_meld(full).value == 91
    with pytest.raises(ImpossibleHandError, match="at most 13"):
        check_meld(full + " J")


def test_R2_a_set_holds_3_or_4_distinct_colours_jokers_included():
    # O4: a set is 3 or 4 tiles of one number in distinct colours; a joker fills a missing colour.
    four = check_meld("R7 B7 Y7 J")
    assert four.valid and four.value == 28 and codes(four.meld.faces)[3] == "K7"
    assert not check_meld("R7 B7 Y7 K7 J").valid  # a fifth tile: no colour left
    assert not check_meld("R7 B7 B7").valid
    two_jokers = check_meld("R5 K5 J J")
    assert two_jokers.valid and two_jokers.value == 20  # R1: the two jokers are wild everywhere


def test_R2_a_run_may_be_read_high_to_low():
    # Settled reading (H4, applied to O4 melds): R13 R12 R11 is a run worth 36; R3 R2 J is 3-2-1 worth 6.
    assert check_meld("R13 R12 R11").value == 36
    down = check_meld("R3 R2 J")
    assert down.valid and down.value == 6 and codes(down.meld.faces) == ["R3", "R2", "R1"]


# --- R3 the initial meld ------------------------------------------------------------------------------


def test_R3_exactly_30_opens_and_the_docs_example_15_does_not():
    # 9 + 10 + 11 = 30 ≥ 30 opens; K4 J K6 is 4 + 5 + 6 = 15 (docs/rules.md R3's example) and does not.
    assert check_initial_meld("R9 R10 R11").opens and check_initial_meld("R9 R10 R11").value == 30
    assert not check_initial_meld("R8 R9 R10").opens
    k = check_initial_meld("K4 J K6")
    assert not k.opens and k.value == 15


def test_R3_a_joker_counts_as_the_tile_it_stands_for_where_it_lies():
    # R9 R10 J: the joker is R11 → 30, opens.  J R9 R10: the joker is R8 → 27, does not.
    assert check_initial_meld("R9 R10 J").opens and check_initial_meld("R9 R10 J").value == 30
    assert not check_initial_meld("J R9 R10").opens and check_initial_meld("J R9 R10").value == 27
    # Several melds add up: set of 7s with a joker (21) + K8 K9 with a joker (J as K10: 27 — the best
    # reading) ≥ 30.
    assert check_initial_meld("R7 B7 J | K8 K9 J").opens


def test_R3_initial_meld_50_counts_a_joker_in_a_set():
    # initial_meld 50: R13 B13 K13 J = 4 × 13 = 52 opens; R10 R11 R12 | K5 B5 Y5 = 33 + 15 = 48 does not.
    fifty = RummikubOptions(initial_meld=50)
    assert check_initial_meld("R13 B13 K13 J", fifty).opens
    assert check_initial_meld("R13 B13 K13 J", fifty).value == 52
    assert not check_initial_meld("R10 R11 R12 | K5 B5 Y5", fifty).opens
    batch = answer({"op": "solve", "game": "rummikub", "table": "", "rack": "R13 B13 K13 J", "initial": True,
                    "options": {"initial_meld": 50}})
    assert batch["possible"] is True and batch["opening"] == 52


def test_R3_the_assistant_counts_the_rack_alone_never_the_table():
    # Table R7 R8 R9, rack R10 R11: extending the table run is not an initial meld (rack alone: nothing).
    assert not lay_down("R7 R8 R9", "R10 R11", initial=True).possible
    # Rack R10 R11 R12 is a meld of its own worth 33: it opens and the table meld stays as it was.
    result = lay_down("R7 R8 R9", "R10 R11 R12", initial=True)
    assert result.possible and result.opening == 33
    assert [codes(m.tiles) for m in result.melds] == [["R7", "R8", "R9"], ["R10", "R11", "R12"]]
    # A twin of a table meld laid from the rack counts only its own value: R4 R5 R6 is 15 < 30.
    assert not lay_down("R4 R5 R6", "R4 R5 R6", initial=True).possible


def test_R3_the_assistant_lets_the_joker_reach_30_exactly():
    # Rack R9 R10 J: only the joker as R11 reaches 30 (as R8 it would be 27).
    result = lay_down("", "R9 R10 J", initial=True)
    assert result.possible and result.opening == 30
    assert codes(result.melds[0].faces) == ["R9", "R10", "R11"]
    # Two jokers with R13: a set of 13s (39) or R11 R12 R13 (36): either opens; every tile is laid.
    both = lay_down("", "J J R13", initial=True)
    assert both.possible and both.opening >= 30 and len(both.placed) == 3
    # J J R1: the best is R1 R2 R3 = 6: no initial meld.
    assert not lay_down("", "J J R1", initial=True).possible


def test_R3_check_turn_before_opening_leaves_the_table_untouched():
    # Before the initial meld a joker cannot be taken from the table (the table stays as it is, R3).
    assert not check_turn("R4 J R6", "R4 R5 R6 | J K9 K10", opened=False).valid
    # New melds of rack tiles worth 30 (J as R12 → 33) with the table untouched: legal.
    assert check_turn("R4 R5 R6", "R4 R5 R6 | J R10 R11", opened=False).valid
    assert not check_turn("", "R10 R11 R12 | K1 K2 K3", opened=False,
                          options=RummikubOptions(initial_meld=50)).valid  # 33 + 6 = 39 < 50


# --- R4 the lay-down assistant ------------------------------------------------------------------------


def test_R4_twin_runs_take_both_copies_of_a_tile():
    # Two decks' worth of tiles: R1 R2 R3 twice on the table, R4 twice on the rack: R1-R4 twice.
    result = lay_down("R1 R2 R3 | R1 R2 R3", "R4 R4", goal="all")
    assert result.possible and codes(result.placed) == ["R4", "R4"]
    assert [codes(m.tiles) for m in result.melds] == [["R1", "R2", "R3", "R4"]] * 2
    assert_legal_table(result, "R1 R2 R3 | R1 R2 R3", "R4 R4")


def test_R4_a_long_run_is_split_to_take_duplicates():
    # R5-R10 with R7 R8 from the rack: R5 R6 R7 R8 | R7 R8 R9 R10.
    result = lay_down("R5 R6 R7 R8 R9 R10", "R7 R8", goal="all")
    assert result.possible and len(result.placed) == 2
    assert_legal_table(result, "R5 R6 R7 R8 R9 R10", "R7 R8")
    # R4 into R1-R6 | B4 Y4 K4: the set of 4s takes it (R4 Y4 B4 K4).
    grouped = lay_down("R1 R2 R3 R4 R5 R6 | B4 Y4 K4", "R4", goal="all")
    assert grouped.possible
    assert_legal_table(grouped, "R1 R2 R3 R4 R5 R6 | B4 Y4 K4", "R4")


def test_R4_a_freed_joker_moves_along_the_run():
    # R5 R6 J(R7) with R7 and R9 from the rack: R7 takes the joker's place, the joker becomes R8 between R7
    # and R9: R5 R6 R7 J R9 (R5: a joker taken back is laid again in the same turn).
    result = lay_down("R5 R6 J | B9 Y9 K9", "R7 R9", goal="all")
    assert result.possible and codes(result.placed) == ["R7", "R9"]
    run = next(m for m in result.melds if m.kind == "run")
    assert codes(run.tiles) == ["R5", "R6", "R7", "J", "R9"] and codes(run.faces)[3] == "R8"
    assert [m.kept for m in result.melds].count(True) == 1  # the set of 9s is left as it was
    # R4 J R6 with R5: the joker moves to an end (R7), still on the table.
    moved = lay_down("R4 J R6", "R5")
    assert codes(moved.placed) == ["R5"] and Counter(codes(moved.melds[0].tiles)) == Counter(["R4", "R5", "R6", "J"])


def test_R4_none_exists_names_the_tiles_and_leaves_the_table():
    # Goal "all": R5 cannot join R1 R2 R3 (R4 is missing): none exists, the table is shown as it is.
    result = lay_down("R1 R2 R3", "R5", goal="all")
    assert not result.possible and codes(result.cannot) == ["R5"] and result.placed == ()
    assert [codes(m.tiles) for m in result.melds] == [["R1", "R2", "R3"]]
    # R1 after R11 R12 R13 only with wrap_13_1; R13 before R1 R2 R3 never (13-1-2).
    assert not lay_down("R11 R12 R13", "R1", goal="all").possible
    assert lay_down("R11 R12 R13", "R1", goal="all", wrap_13_1=True).possible
    assert not lay_down("R1 R2 R3", "R13", goal="all", wrap_13_1=True).possible
    # J J R5 with R9: no meld takes the 9 and leaves R5 a meld: draw a tile (R4).
    nothing = lay_down("J J R5", "R9")
    assert not nothing.possible and "draw" in nothing.reason


def test_R4_most_tiles_ties_go_to_points_and_points_count_a_joker_30():
    # R11 R12 R13 B13 K13 holds one R13: the run (36) or the set of 13s (39), 3 tiles either way; the tie goes to
    # the points: the set.
    tiles = lay_down("", "R11 R12 R13 B13 K13", goal="tiles")
    assert sorted(codes(tiles.placed)) == ["B13", "K13", "R13"] and tiles.value == 39
    # R1 and J around R2 R3 R4: both go, 1 + 30 = 31 points (R6 counts a joker 30).
    points = lay_down("R2 R3 R4", "J R1", goal="points")
    assert sorted(codes(points.placed)) == ["J", "R1"] and points.value == 31


def test_R4_a_thirteen_tile_run_takes_its_twin_1_only_with_wrap():
    # R1-R13 on the table and the second R1: without wrap the 1 has no place; with wrap R11 R12 R13 R1 is a
    # run, R1-R10 stays one, so the tile goes.
    table = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 |"
    assert not lay_down(table, "R1", goal="all").possible
    wrapped = lay_down(table, "R1", goal="all", wrap_13_1=True)
    assert wrapped.possible and codes(wrapped.placed) == ["R1"]


def test_R4_cli_solve_says_none_exists(capsys):
    assert main(["solve", "--game", "rummikub", "table=R1 R2 R3", "rack=R5", "goal=all"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "impossible: R5 cannot go: no arrangement of the table lays every selected tile"
    assert "  cannot go: R5" in out


def test_R4_batch_answers_one_json_line_per_request_as_a_subprocess():
    # The batch protocol: one JSON line in, one JSON line out (requests that do not fix the tile count).
    requests = [
        {"op": "solve", "game": "rummikub", "table": "R4 J R6 | K9 K10 K11", "rack": "R5 Y9 B9", "goal": "tiles"},
        {"op": "solve", "game": "rummikub", "table": "", "rack": "R11 R12 R13 B13 K13", "goal": "points"},
        {"op": "score", "game": "rummikub", "hand": {"winner": None, "racks": ["J", "J", "R13"]}},
    ]
    done = subprocess.run([sys.executable, "-m", "companion", "batch"], capture_output=True, text=True, check=False,
                          input="\n".join(json.dumps(r) for r in requests) + "\n")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 3
    first, second, third = (json.loads(line) for line in lines)
    assert first["possible"] and sorted(first["placed"]) == ["B9", "R5", "Y9"] and first["changed"] == 1
    assert second["value"] == 39
    assert third["scores"] == [-17, -17, 34]


# --- R5 joker retrieval -------------------------------------------------------------------------------


def test_R5_a_joker_at_a_run_end_stands_for_the_tile_where_it_lies():
    # J R5 R6: the joker is R4; R7 cannot take it.  R5 R6 J: it is R7; R4 cannot.
    assert codes(retrieve_joker("J R5 R6", "R4").tiles) == ["R4", "R5", "R6"]
    with pytest.raises(IllegalMeldError, match="stands for R4"):
        retrieve_joker("J R5 R6", "R7")
    assert codes(retrieve_joker("R5 R6 J", "R7").tiles) == ["R5", "R6", "R7"]
    with pytest.raises(IllegalMeldError, match="stands for R7"):
        retrieve_joker("R5 R6 J", "R4")
    # Laid high to low: R3 R2 J — the joker is R1.
    assert codes(retrieve_joker("R3 R2 J", "R1").tiles) == ["R3", "R2", "R1"]
    with pytest.raises(IllegalMeldError, match="stands for R1"):
        retrieve_joker("R3 R2 J", "R4")


def test_R5_a_joker_in_a_set_of_four_is_taken_only_by_the_missing_colour():
    # R7 B7 Y7 J: the joker is K7.  R7 repeats a colour.
    assert codes(retrieve_joker("R7 B7 Y7 J", "K7").tiles) == ["R7", "B7", "Y7", "K7"]
    with pytest.raises(IllegalMeldError, match="stands for K7"):
        retrieve_joker("R7 B7 Y7 J", "R7")


def test_R5_a_wrap_joker_is_the_1_after_13():
    assert codes(retrieve_joker("R12 R13 J", "R1", WRAP).tiles) == ["R12", "R13", "R1"]


def test_R5_the_freed_joker_must_be_laid_again_in_the_same_turn():
    # K7 takes the joker of R7 B7 Y7 J; the joker goes on as R7 before R8 R9: legal.  Keeping it: illegal.
    assert check_turn("R7 B7 Y7 J", "R7 B7 Y7 K7 | J R8 R9", opened=True).valid
    kept = check_turn("R7 B7 Y7 J", "R7 B7 Y7 K7", opened=True)
    assert not kept.valid and "laid again in the same turn (R5)" in kept.reason


# --- R6 scores and the match --------------------------------------------------------------------------


def test_R6_pool_exhausted_two_tied_lowest_with_a_joker_on_a_rack():
    # Sums 10, 10, 30 (the joker), 12.  Players 1 and 2 tie lowest; player 3 pays 30 − 10 = 20 to each (−40),
    # player 4 pays 2 to each (−4); each of the two is paid 20 + 2 = 22.  Zero-sum.
    score = score_hand({"winner": None, "racks": ["R10", "K10", "J", "B3 B4 B5"]})
    assert score.sums == (10, 10, 30, 12) and score.leaders == (0, 1)
    assert score.scores == (22, 22, -40, -4) and sum(score.scores) == 0


def test_R6_pool_exhausted_lowest_rack_against_two_jokers():
    # J, J, R13: R13 (13) is lowest; each joker rack pays 30 − 13 = 17; the winner gets 34.
    assert score_hand({"winner": None, "racks": ["J", "J", "R13"]}).scores == (-17, -17, 34)
    # Everybody level: nobody pays.
    assert score_hand({"winner": None, "racks": ["R1 R2 R7", "K10", "Y5 B5"]}).scores == (0, 0, 0)


def test_R6_the_winner_takes_both_jokers_and_duplicates():
    # J J = 60, R13 R13 K13 K13 = 52: the winner +112.
    score = score_hand({"winner": 0, "racks": ["", "J J", "R13 R13 K13 K13"]})
    assert score.scores == (112, -60, -52)


def test_R6_cli_score_pool_exhausted_as_a_subprocess(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"winner": None, "racks": ["R10", "K10", "J", "B3 B4 B5"]}))
    done = cli("score", "--game", "rummikub", "--hand", str(path))
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "scores: 22 22 -40 -4"


def test_R6_match_of_two_hands_ends_and_refuses_a_third(client: FlaskClient):
    # Hand 1: player 1 out, 35 + 12 = +47.  Hand 2: pool out, R1 R1 R13: players 1 and 2 tie at 1, player 3
    # pays 12 to each: +12 +12 −24.  Totals 59, −23, −36: player 1 has the highest total and wins.
    created = client.post("/api/tables", json={"game": "rummikub", "players": ["A", "B", "C"], "pin": "1234",
                                                "options": {"hands": 2}})
    table, headers = created.json["id"], {"X-Table-Pin": "1234"}
    for hand in ({"winner": 0, "racks": ["", "R5 J", "K12"]}, {"winner": None, "racks": ["R1", "R1", "R13"]}):
        response = client.post(f"/api/tables/{table}/events", headers=headers,
                               json={"type": "rummikub_hand", "hand": hand})
        assert response.status_code == 201
    sheet = response.json["sheet"]
    assert sheet["totals"] == [59, -23, -36] and sheet["finished"] is True and sheet["winners"] == [0]
    third = client.post(f"/api/tables/{table}/events", headers=headers,
                        json={"type": "rummikub_hand", "hand": {"winner": 1, "racks": ["R2", "", "R3"]}})
    assert third.status_code == 422 and "finished" in third.json["error"]


# --- M1 cards and the deck by player count ---------------------------------------------------------------


def test_M1_a_six_player_table_plays_three_decks_and_four_jokers():
    # 5-6 players: 3 decks + 4 jokers (160): three 7S and four jokers fit; a fifth joker does not.
    ok = rami_hand(0, (True, ""), (True, "7S 7S 7S"), (True, "* *"), (True, "* *"), (True, "2C"), (True, "KD"))
    assert score_rami_hand(ok).scores == (0, 21, 40, 40, 2, 10)
    too_many = rami_hand(0, (True, ""), (True, "7S"), (True, "* *"), (True, "* * *"), (True, "2C"), (True, "KD"))
    with pytest.raises(ImpossibleHandError, match="only 4 jokers"):
        score_rami_hand(too_many)
    # House deck for 6 players: 159 cards, 3 jokers — four jokers are one too many.
    with pytest.raises(ImpossibleHandError, match="only 3 jokers"):
        score_rami_hand(ok, RamiOptions(deck="house"))
    # Up to 4 players: 2 decks — a third 7S is impossible; house: 2 jokers — a third joker is.
    with pytest.raises(ImpossibleHandError, match="2 decks hold only 2"):
        score_rami_hand(rami_hand(0, (True, ""), (True, "7S 7S"), (True, "7S")))
    with pytest.raises(ImpossibleHandError, match="only 2 jokers"):
        score_rami_hand(rami_hand(0, (True, ""), (True, "* *"), (True, "*")), RamiOptions(deck="house"))


def test_M1_M2_six_player_deal_and_who_starts():
    # 160 cards − 6 × 13 − 1 up-card = 81 in the stock; the player on the dealer's left (seat 6 of dealer 1,
    # play clockwise) starts; house: 159 → 80.
    deal = rami_deal(6, 1, 0).to_dict()
    assert deal["deck"] == {"decks": 3, "jokers": 4, "size": 160} and deal["stock"] == 81
    assert (deal["dealer"], deal["starter"], deal["cards_each"]) == (0, 5, 13)
    assert rami_deal(6, 1, 0, RamiOptions(deck="house")).to_dict()["stock"] == 80
    # The deal rotates to the left: 5 players, first dealer seat 2, hand 3 → seat 0 deals, seat 4 starts.
    third = rami_deal(5, 3, 2)
    assert (third.dealer, third.starter) == (0, 4)


def test_M1_M7_six_player_api_hand_with_rami_sec(client: FlaskClient):
    # Rami sec by player 3: every other penalty doubles: 7S 7S 7S 21 → 42, never opened 100 → 200, four jokers
    # 80 → 160, AS KD 21 → 42, a typed 12 → 24.
    created = client.post("/api/tables", json={"game": "rami40", "players": list("ABCDEF"), "pin": "1234"})
    assert created.status_code == 201
    hand = rami_hand(2, (True, "7S 7S 7S"), (False, "2C"), (True, ""), (True, "* * * *"), (True, "AS KD"),
                     (True, 12), rami_sec=True)
    response = client.post(f"/api/tables/{created.json['id']}/events", headers={"X-Table-Pin": "1234"},
                           json={"type": "rami40_hand", "hand": hand})
    assert response.status_code == 201
    assert response.json["sheet"]["totals"] == [42, 200, 0, 160, 42, 24]


# --- M3 / M4 melds and their values ------------------------------------------------------------------------


@pytest.mark.parametrize(("meld", "value", "stands"), [
    ("* KH AH", 31, "QH"),        # the joker can only be Q (never K-A-2): 10 + 10 + 11
    ("QH KH *", 30, "JH"),        # J (10) or A (11): the lower counts
    ("* QH KH AH", 41, "JH"),     # nothing follows the high ace: J
    ("10S JS QS KS *", 49, "9S"), # 9 (9) or A (11): 9 + 10 + 10 + 10 + 10
    ("* 10H JH QH", 39, "9H"),    # 9 (9) or K (10): 9 + 10 + 10 + 10
    ("10H JH QH *", 39, "9H"),    # the same cards written the other way round: the same value
    ("AS * KS", 31, "QS"),        # A K and a joker: only Q-K-A
    ("2S * AS", 6, "3S"),         # A 2 and a joker: only A-2-3, the ace low (1)
    ("7S 7H *", 21, "7D"),        # a set: the joker is a missing suit
])
def test_M4_joker_values_next_to_the_ace(meld, value, stands):
    verdict = check_rami_meld(meld)
    assert verdict.valid and verdict.value == value, verdict.reason
    assert [c.code for c in verdict.stands_for] == [stands]


def test_M4_a_thirteen_card_run_with_a_joker_counts_the_low_ace():
    # * 2S … KS: the joker is the ace, low (1) or high (11): the lower: 1 + 2 + … + 9 + 4 × 10 = 85.
    verdict = check_rami_meld("* 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    assert verdict.valid and verdict.value == 85


@pytest.mark.parametrize("meld", ["7S 7H 7D 7C *", "KS AS 2S", "AS AS 2S 3S", "* * 7S", "5S 5S 5H", "5S 6H 7S"])
def test_M3_illegal_melds(meld):
    # A set has at most 4 cards; never K-A-2; an ace is low or high, never both; one joker per meld (M4);
    # a suit repeats in a set; a run is one suit.
    assert not check_rami_meld(meld).valid


def test_M2_M4_opening_minimum_reached_exactly():
    # Rami 40: K K K (30) + A 2 3 4 (1 + 2 + 3 + 4 = 10) = 40 opens; with A 2 3 only (6): 36 does not.
    assert check_rami_laid("KH KS KD | AS 2S 3S 4S").opens
    assert check_rami_laid("KH KS KD | AS 2S 3S 4S").total == 40
    assert not best_rami_opening("KH KS KD AS 2S 3S", RamiOptions()).opens
    # Rami 51: 10 J Q K A = 10 + 10 + 10 + 10 + 11 = 51 opens; with a joker for the ace it is 9-K = 49.
    assert check_rami_laid("10S JS QS KS AS", Rami51Options()).opens
    assert not check_rami_laid("10S JS QS KS *", Rami51Options()).opens
    assert best_rami_opening("10S JS QS KS * 2D", Rami51Options()).value == 49
    # Two jokers in a hand: one each in two melds: K K * (30) + * 5 6 7 (joker as 4: 22) = 52.
    two = best_rami_opening("* * 5H 6H 7H KS KD", RamiOptions())
    assert two.value == 52 and all(meld.cards.count(JOKER) <= 1 for meld in two.best.melds)


def test_M4_cli_meld_and_opening_as_a_subprocess():
    meld = cli("meld", "--game", "rami51", "10S JS QS KS *")
    assert meld.returncode == 0 and meld.stdout.startswith("valid meld worth 49")
    opening = cli("opening", "--game", "rami51", "10S", "JS", "QS", "KS", "AS", "2D")
    assert opening.returncode == 0 and opening.stdout.splitlines()[0] == "best opening: 51 points (opens with melds)"


# --- M5 jokers ------------------------------------------------------------------------------------------


def test_M5_a_set_gives_up_its_joker_only_with_four_real_cards():
    # 9C 9D * with 9S: 3 real cards — no; with 9S 9H: four real cards — yes; 9S 9S repeats a suit.
    assert not rami_joker_swap("9C 9D *", "9S", opened=True).allowed
    both = rami_joker_swap("9C 9D *", "9S 9H", opened=True)
    assert both.allowed and both.freed == 1 and sorted(c.code for c in both.meld_after) == ["9C", "9D", "9H", "9S"]
    assert not rami_joker_swap("9C 9D *", "9S 9S", opened=True).allowed
    four = rami_joker_swap("9C 9D 9H *", "9S", opened=True)
    assert four.allowed and [c.code for c in four.meld_after] == ["9C", "9D", "9H", "9S"]
    assert not rami_joker_swap("9C 9D 9H *", "9S", opened=False).allowed  # only a player who has opened


def test_M5_a_run_gives_up_its_joker_for_the_card_in_its_place():
    # * QH KH: the joker is the J; 5H 6H 7H *: the 8; 7H 6H * (high to low): the 5.
    assert rami_joker_swap("* QH KH", "JH", opened=True).allowed
    assert rami_joker_swap("5H 6H 7H *", "8H", opened=True).allowed
    assert not rami_joker_swap("5H 6H 7H *", "4H", opened=True).allowed
    assert rami_joker_swap("7H 6H *", "5H", opened=True).allowed
    assert not rami_joker_swap("5H * 7H", "6H 6H", opened=True).allowed  # exactly one card


def test_M5_cli_joker_as_a_subprocess():
    done = cli("joker", "--game", "rami40", "meld=9C 9D *", "cards=9S")
    assert done.returncode == 0
    assert done.stdout.startswith("a joker leaves a set only when the set then holds four real cards (M5)")


# --- M6 / M7 going out, scores, the match ---------------------------------------------------------------


def test_M6_M7_rami_sec_needs_the_opening_minimum():
    # Not opened: A 2 3 4 (10) + K K K (30) = 40 → a rami sec in Rami 40, not in Rami 51.
    forty = rami_going_out("AS 2S 3S 4S KH KD KC", opened=False, options=RamiOptions())
    assert forty.possible and forty.all_at_once and forty.discard is None and forty.value == 40
    assert not rami_going_out("AS 2S 3S 4S KH KD KC", opened=False, options=Rami51Options()).possible
    # 10 J Q K * in Rami 51: 49 (the joker as the 9) < 51.
    assert not rami_going_out("10S JS QS KS *", opened=False, options=Rami51Options()).possible
    assert rami_going_out("10S JS QS KS AS", opened=False, options=Rami51Options()).possible


def test_M7_rami_sec_doubles_every_other_penalty_and_the_options_apply():
    # AS KS QS * = 11 + 10 + 10 + 20 = 51 → 102; never opened 100 → 200; the finisher and an empty hand 0.
    hand = rami_hand(0, (True, ""), (True, "AS KS QS *"), (False, "2C"), (True, "7D 7H"), rami_sec=True)
    assert score_rami_hand(hand).scores == (0, 102, 200, 28)
    # Options: no doubling, joker 25, never opened 150: 11 + 10 + 10 + 25 = 56.
    options = RamiOptions(rami_sec_doubles=False, joker_penalty=25, not_opened_penalty=150)
    assert score_rami_hand(hand, options).scores == (0, 56, 150, 14)


def test_M6_stock_out_the_lowest_hands_tie_and_score_0():
    # 5C 5D = 10 and KH = 10 tie lowest: both 0; never opened 100; 2C 3C 4C 5H = 14.
    hand = rami_hand(None, (True, "5C 5D"), (True, "KH"), (False, ""), (True, "2C 3C 4C 5H"))
    assert score_rami_hand(hand).scores == (0, 0, 100, 14)


def test_M7_elimination_at_means_passing_the_limit_and_lowest_wins():
    # elimination_at 20: after hand 1 player 2 has exactly 20 (not past it); after hand 2, 40 > 20: over.
    first = score_rami_hand(rami_hand(0, (True, ""), (True, "KH KD"), (True, "5C")))
    options = RamiOptions(hands=5, elimination_at=20)
    one = rami_standings(3, [first], options)
    assert one.totals == (0, 20, 5) and not one.finished
    two = rami_standings(3, [first, first], options)
    assert two.finished and two.passed == (1,) and two.winners == (0,)


def test_M7_a_fixed_match_ends_with_the_lowest_total_tied_winners_share():
    # Two hands: 0 + 0 = 0 for player 1 against 10 each for the others — and a tie at the lowest is shared.
    hand = score_rami_hand(rami_hand(0, (True, ""), (True, "5C"), (True, "5D")))
    sheet = rami_standings(3, [hand, hand], RamiOptions(hands=2))
    assert sheet.finished and sheet.totals == (0, 10, 10) and sheet.winners == (0,)
    level = score_rami_hand(rami_hand(None, (True, "5C"), (True, "5D"), (True, "9S")))
    tied = rami_standings(3, [level], RamiOptions(hands=1))
    assert tied.totals == (0, 0, 9) and tied.winners == (0, 1)


def test_M7_cli_score_six_players_as_a_subprocess(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rami_hand(1, (True, "QS KS"), (True, ""), (False, "AS"), (True, "*"),
                                         (True, "7S 7S 7S"), (True, "10H"))))
    done = cli("score", "--game", "rami51", "--hand", str(path))
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "scores: 20 0 100 20 21 10"
