"""Forty-fifth round: what two audits of the engine against the rule book found (no verdict or score was wrong).

- The command line said a deeply nested hand file, ``-o`` value or ``FIELD=VALUE`` with a RecursionError traceback.
- An Okey 101 hand whose finisher was typed as text ("0") was refused as an emptied rack, not as a bad finisher.
- With doublings off (H6) an Okey 101 hand's explanation still said "every hand score is doubled".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.errors import RulesError
from companion.rules.options import Okey101Options
from companion.rules.scoring_101 import admit_okey101_hand, score_okey101_hand

DEEP = "[" * 3000 + "]" * 3000


def test_a_hand_file_nested_too_deeply_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    assert main(["score", "--game", "okey101", "--hand", str(deep)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not valid JSON: nested too deeply" in err
    nested = tmp_path / "nested.json"
    nested.write_text('{"a":' * 20 + "1" + "}" * 20)  # parses, but deeper than any hand: the batch's bound
    assert main(["score", "--game", "okey101", "--hand", str(nested)]) == 2
    assert "nested too deeply: at most 16 levels" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["options", "--game", "okey101", "-o", f"wrap_13_1={DEEP}"],
                                  ["going_out", "--game", "rami40", f"cards={DEEP}"]])
def test_an_option_or_field_nested_too_deeply_is_a_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "Traceback" not in err


def test_H6_a_finisher_typed_as_text_is_said_as_such() -> None:
    hand = {"indicator": "R4", "finisher": "0", "players": [{"opened": "melds", "rack": ""},
                                                            {"opened": "melds", "rack": "R5"}]}
    with pytest.raises(RulesError, match=r"invalid finisher '0': with 2 players the seats are 0-1"):
        admit_okey101_hand(hand)


def _hand() -> dict:
    return {"indicator": "R4", "finisher": 0, "finish": "okey_discard", "elden": False, "players": [
        {"opened": "pairs", "rack": ""}, {"opened": "melds", "rack": "R5 K7"}, {"opened": None, "rack": "B1"},
        {"opened": "pairs", "rack": "Y3 Y9"}]}


def test_H6_with_doublings_off_no_line_says_a_score_is_doubled() -> None:
    off = score_okey101_hand(_hand(), Okey101Options(multipliers=False))
    assert off.scores == (-101, 108, 202, 12)
    text = " ".join(off.to_dict()["explain"])
    assert "every hand score is doubled" not in text and "everyone else pays double" not in text
    assert "finished by discarding an okey (doublings are off: nothing is doubled)" in text
    assert "opened with pairs and finished (doublings are off: nobody pays double)" in text
    on = score_okey101_hand(_hand(), Okey101Options())
    assert "finished by discarding an okey: every hand score is doubled" in " ".join(on.to_dict()["explain"])
    assert json.dumps(off.to_dict())  # the record's explanation stays plain data


@pytest.mark.parametrize(("lang", "words"), [("tr", "katlama kapalı: hiçbir puan katlanmaz"),
                                             ("ru", "удвоения выключены: ничего не удваивается"),
                                             ("th", "ปิดการคูณสอง: ไม่มีคะแนนใดคูณสอง")])
def test_H6_the_doublings_off_lines_read_in_the_players_language(tmp_path: Path, lang: str, words: str) -> None:
    from companion.web import create_app
    from companion.web.views_text import explain

    score = score_okey101_hand(_hand(), Okey101Options(multipliers=False))
    app = create_app({"DATA_DIR": str(tmp_path)})
    with app.test_request_context(headers={"Accept-Language": lang}):
        lines = [explain(line, ["Ali", "Veli", "Ayşe", "Can"]) for line in score.explain]
    assert lines[0].startswith("Ali") and words in lines[0]
