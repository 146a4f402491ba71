"""The command line and the batch interface: right answers, clear errors, never a traceback."""

import io
import json
import subprocess
import sys

import pytest

from companion.cli import answer, main, run_batch

WIN_14 = "R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B1 Y1 K1 R1"


def run_cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def batch(*requests):
    stdin = io.StringIO("\n".join(r if isinstance(r, str) else json.dumps(r) for r in requests) + "\n")
    stdout = io.StringIO()
    assert run_batch(stdin, stdout) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_O5_check_a_winning_hand(capsys):
    status, out, _ = run_cli(capsys, "check", "--indicator", "R4", *"R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 R5 F".split())
    assert status == 0
    assert out.startswith("winning")


def test_O5_check_json_shape(capsys):
    status, out, _ = run_cli(capsys, "check", "--json", "--indicator", "R4", *"R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 R5 F".split())
    result = json.loads(out)
    assert status == 0 and result["winning"] is True and result["kind"] == "melds"
    assert sorted(len(m) for m in result["melds"]) == [3, 3, 4, 4]


def test_O5_fifteen_tiles_list_the_winning_discards(capsys):
    status, out, _ = run_cli(capsys, "check", "--json", "--indicator", "R4", *"R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 R5 F Y13".split())
    assert status == 0
    assert json.loads(out)["winning_discards"] == ["Y13"]


def test_H4_opening_command(capsys):
    rack = "R10 R11 R12 R13 K13 Y13 B13 K10 Y10 B10 B1 B2 B3 K4 Y6 Y8 R2 R2 K1 B9 Y11"
    status, out, _ = run_cli(capsys, "opening", "--json", "--indicator", "B6", *rack.split())
    result = json.loads(out)
    assert status == 0 and result["opens"] is True and result["value"] >= 101


def test_H4_opening_ratchet_on_the_command_line(capsys):
    laid = "R11 R12 R13 | K11 K12 K13 | B13 Y13 R13".split()   # 111
    ratchet = ("-o", "opening_ratchet=true", "--indicator", "B6")
    status, out, _ = run_cli(capsys, "meld", "--json", *ratchet, "--highest-so-far", "111", *laid)
    assert status == 0 and json.loads(out)["opens"] is False and "112 needed" in json.loads(out)["reason"]
    status, out, _ = run_cli(capsys, "meld", "--json", *ratchet, "--highest-so-far", "110", *laid)
    assert status == 0 and json.loads(out)["opens"] is True
    rack = "R11 R12 R13 K10 K11 K12 K13 B13 Y13".split()     # 108 at best
    status, out, _ = run_cli(capsys, "opening", "--json", *ratchet, "--highest-so-far", "108", *rack)
    assert status == 0 and json.loads(out)["opens"] is False
    status, out, err = run_cli(capsys, "meld", *ratchet, "--highest-so-far", "-5", *laid)
    assert status != 0 and "invalid highest_so_far -5" in err


def test_H4_meld_command_follows_okey_pair_of_okeys(capsys):
    """One pair of okeys on the command line is judged with the table's options, as an opening of pairs is."""
    status, out, _ = run_cli(capsys, "meld", "--game", "101", "--indicator", "R4", "R5", "R5")
    assert status == 0 and out.startswith("valid meld worth 26")
    status, out, _ = run_cli(capsys, "meld", "--game", "101", "--indicator", "R4", "-o", "okey_pair_of_okeys=false",
                             "R5", "R5")
    assert status == 0 and out.startswith("invalid meld: illegal pair: [R5, R5] (two okeys are no pair here")
    status, out, _ = run_cli(capsys, "meld", "--game", "101", "--indicator", "R4", "-o", "okey_pair_of_okeys=false",
                             *"R5 R5 | K1 K1".split())
    assert "  INVALID: illegal pair: [R5, R5]" in out and "  K1 K1: valid, 2" in out


@pytest.mark.parametrize(("game", "laid", "verdict"), [
    ("rami40", "KH KS KD | 7S 8S 9S", "opens: melds worth 54 (at least 40, M2)"),
    ("rami51", "KH KS KD | 7S 8S 9S", "opens: melds worth 54 (at least 51, M2)"),
    ("rami51", "KH KS KD | 2S 3S 4S", "does not open: melds worth 39, 51 needed (M2)"),
    ("turkish", "* 7S 8S | 5D 6D 7D", "does not open: melds worth 39, 40 needed (T3)"),
    ("turkish", "KH KS KD | 7H 7H 7C", "does not open: illegal set: [7H, 7H, 7C]"),
])
def test_M2_T3_meld_command_judges_melds_as_laid(capsys, game, laid, verdict):
    """``|`` separates melds for the card games too (M2/M4, T3): each judged, and the total against the opening."""
    status, out, _ = run_cli(capsys, "meld", "--game", game, *laid.split())
    assert status == 0 and verdict in out
    result = batch({"op": "meld", "game": game, "cards": laid})[0]
    assert verdict in result["reason"] and len(result["verdicts"]) == 2


def test_M1_T1_meld_command_counts_the_laid_cards_against_the_deck(capsys):
    status, _, err = run_cli(capsys, "meld", "--game", "turkish", *"* 7S 8S | * 7H 8H | * 7D 8D".split())
    assert status != 0 and "3 × *, but the game has only 2 jokers" in err
    status, _, err = run_cli(capsys, "meld", "--game", "rami40", *("7S 8S 9S | " * 4).rstrip(" |").split())
    assert status != 0 and "4 × 7S, but 3 decks hold only 3" in err
    status, _, err = run_cli(capsys, "meld", "--game", "rami40", "|")
    assert status != 0 and "no melds given" in err


def test_O2_deal_command_reproduces_the_seed(capsys):
    status, out, _ = run_cli(capsys, "deal", "--json", "--players", "4", "--dealer", "1", "--dice", "5", "2")
    assert status == 0
    plan = json.loads(out)
    assert plan["rolls"] == [5, 2]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["check", "--indicator", "R4", "R1", "R2", "X9"], "'X9'"),
        (["check", "--indicator", "R4", "R1", "R2", "R3"], "14"),
        (["check", "--indicator", "F", *WIN_14.split()], "numbered tile"),
        (["opening", "--indicator", "R4", "-o", "hands=4", "R1"], "hands"),
        (["deal", "--dealer", "5"], "--dealer 5"),
        (["deal", "--dice", "7", "2"], "7"),
        (["score", "--game", "okey", "--hand", "/nonexistent/hand.json"], "cannot read hand file"),
        (["options", "--game", "chess"], "unknown game 'chess'"),
    ],
)
def test_bad_input_is_a_clear_error_with_status_2(capsys, argv, fragment):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2
    assert fragment in err
    assert "Traceback" not in err and out == ""


def test_score_reads_a_hand_file(capsys, tmp_path):
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({"players": 4, "indicator": "R4", "winner": 0,
                                "tiles": "R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 R5 F", "discard": "Y13"}))
    status, out, _ = run_cli(capsys, "score", "--game", "okey", "--hand", str(hand), "--json")
    assert status == 0
    assert json.loads(out)["deltas"] == [0, -2, -2, -2]


def test_batch_answers_in_order_and_survives_bad_requests():
    answers = batch(
        {"op": "check", "game": "okey", "indicator": "R4", "tiles": "R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 R5 F"},
        "this is not json",
        {"op": "fly"},
        [1, 2],
        {"op": "check", "game": "okey", "indicator": "R4", "tiles": "R1 R2 Z3"},
        {"op": "meld", "game": "okey101", "indicator": "R4", "tiles": "R12 R13 F"},
        {"op": "score", "game": "okey", "hand": {"players": 4, "indicator": "R4", "winner": None, "gosterme": [2]}},
        {"op": "check", "game": "okey"},
        {"op": "recognize", "image": "/nonexistent.jpg"},
    )
    assert answers[0]["winning"] is True
    assert "invalid JSON" in answers[1]["error"]
    assert "unknown op 'fly'" in answers[2]["error"]
    assert "JSON object" in answers[3]["error"]
    assert "'Z3'" in answers[4]["error"]
    assert answers[5]["valid"] is False
    assert answers[6]["deltas"] == [-1, -1, 0, -1]
    assert "missing field 'tiles'" in answers[7]["error"]
    assert "no such image file" in answers[8]["error"]


def test_batch_score_okey101():
    result = answer({"op": "score", "game": "okey101", "hand": {
        "indicator": "R4", "finisher": 0, "finish": "normal", "elden": False,
        "players": [{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "R3 K7"},
                    {"opened": None, "rack": "B1 B2"}, {"opened": "melds", "rack": "R6"}],
        "penalties": [{"player": 3, "reason": "islek"}]}})
    assert result["scores"] == [-101, 10, 202, 107]


def test_console_script_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "companion", "options", "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert json.loads(done.stdout)["game"] == "okey"


def test_every_game_operation_has_a_plain_help_line() -> None:
    """``okey-companion --help`` names the games that answer an operation and what it does, in words (no batch
    wording or reStructuredText marks)."""
    from companion.cli import build_parser, op_help

    shown = " ".join(build_parser().format_help().split())
    for op, games in (("going_out", "Rami 40, Rami 51, Turkish Rummy:"),
                      ("joker", "Rami 40, Rami 51, Rummikub, Turkish Rummy:"), ("turn", "Rummikub:"),
                      ("solve", "Rummikub:"), ("pickup", "Thai Rummy:")):
        line = op_help(op)
        assert line.startswith(games), (op, line)
        assert "``" not in line and "Batch" not in line and "batch/CLI" not in line, (op, line)
        assert f"{op} {' '.join(line.split())}" in shown, op


def test_M6_T6_going_out_reads_as_text(capsys):
    status, out, _ = run_cli(capsys, "going_out", "--game", "turkish", "cards=7H 8H 9H KS KD KC 2C")
    assert status == 0
    assert out.splitlines() == ["goes out by discarding 2C", "  meld: KS KD KC", "  meld: 7H 8H 9H",
                                "  then discard: 2C", "  melds worth 54"]
    status, out, _ = run_cli(capsys, "going_out", "--game", "rami40", "--json", "cards=7H 8H 9H KS KD KC")
    assert json.loads(out)["possible"] is True


def test_M5_joker_reads_as_text(capsys):
    status, out, _ = run_cli(capsys, "joker", "--game", "rami40", "meld=7H * 9H", "cards=8C")
    assert status == 0
    assert out.splitlines() == ["the joker in 7H * 9H stands for 8H; put exactly that card in its place (M5)"], \
        "refused: the meld stays as it was, so no 'meld after' line"
    status, out, _ = run_cli(capsys, "joker", "--game", "rami40", "meld=7H * 9H", "cards=8H")
    assert status == 0 and out.splitlines()[-1] == "  the meld after: 7H 8H 9H"


def test_tiles_and_fields_may_stand_after_an_option(capsys):
    """``check R1 … --indicator R4 … F`` and ``going_out cards=… --json opened=false`` read as a user means them
    (argparse alone refused what followed the option); an unknown option is still refused."""
    status, out, _ = run_cli(capsys, "check", *"R1 R2 R3 B7 Y7 K7 K9 K10 K11 K12 B5".split(), "--indicator", "R4",
                             "Y5", "R5", "F")
    assert status == 0 and out.startswith("winning (melds): R1 R2 R3 R5 | F Y5 B5")
    status, out, _ = run_cli(capsys, "going_out", "--game", "rami40", "cards=7H 8H 9H KS KD KC", "--json",
                             "opened=false")
    assert status == 0 and json.loads(out)["all_at_once"] is True
    with pytest.raises(SystemExit):
        run_cli(capsys, "check", "R1", "--bogus", "R2")
