"""External scoring scenarios (tests/data/external_scoring.json) replayed against RULES.md O6, H6, H7, H8.

Each case restates one upstream test's table as our hand record.  ``expected`` is our answer under the
case's options; ``upstream`` is what the upstream test asserts.  The verdict says how the two relate:
``agrees``, ``option`` (the ``reproduce`` overrides give upstream's numbers) or ``differs`` (with the
reason in ``note``).  A failure names the case id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.rules import errors, options_for
from companion.rules.options import Okey101Options, OkeyOptions
from companion.rules.scoring import rack_points, score_okey101_hand, score_okey_hand

DATA = Path(__file__).resolve().parent / "data" / "external_scoring.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
CHECKS = ("okey101_hand", "okey_hand", "rack_points")


def _params(verdicts: tuple[str, ...] = ("agrees", "option", "differs")) -> list[Any]:
    return [pytest.param(case, id=case["id"]) for case in CASES if case["verdict"] in verdicts]


def _score(case: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Our answer for the case's record, in the shape of ``expected``."""
    record = case["record"]
    if case["check"] == "okey_hand":
        okey = options_for("okey", overrides)
        assert isinstance(okey, OkeyOptions)
        return {"deltas": list(score_okey_hand(record, okey).deltas)}
    options = options_for("okey101", overrides)
    assert isinstance(options, Okey101Options)
    if case["check"] == "rack_points":
        return {"points": rack_points(record["rack"], indicator=record["indicator"], options=options)}
    score = score_okey101_hand(record, options)
    answer: dict[str, Any] = {"scores": list(score.scores)}
    if score.team_scores is not None:
        answer["team_scores"] = list(score.team_scores)
    return answer


def _mismatches(answer: dict[str, Any], upstream: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Where ``answer`` differs from what upstream asserts: ``{where: (ours, upstream's)}``."""
    if "error" in answer:
        return {"error": (answer["error"], upstream)}
    if "points" in upstream:
        return {} if answer["points"] == upstream["points"] else {"points": (answer["points"], upstream["points"])}
    seats = answer["scores"] if "scores" in answer else answer["deltas"]
    wrong: dict[str, tuple[Any, Any]] = {
        f"seat {seat}": (seats[int(seat)], value)
        for seat, value in upstream["seats"].items()
        if seats[int(seat)] != value
    }
    if "team_scores" in upstream and answer.get("team_scores") != upstream["team_scores"]:
        wrong["team_scores"] = (answer.get("team_scores"), upstream["team_scores"])
    return wrong


@pytest.mark.parametrize("case", _params())
def test_our_score(case: dict[str, Any]) -> None:
    expected = case["expected"]
    if "error" in expected:
        with pytest.raises(getattr(errors, expected["error"]), match=expected["match"]):
            _score(case, case["options"])
    else:
        assert _score(case, case["options"]) == expected, case.get("note", "")


@pytest.mark.parametrize("case", _params(("agrees",)))
def test_upstream_agrees(case: dict[str, Any]) -> None:
    assert _mismatches(case["expected"], case["upstream"]) == {}, case.get("note", "")


@pytest.mark.parametrize("case", _params(("option",)))
def test_upstream_house_rule_is_an_option(case: dict[str, Any]) -> None:
    assert _mismatches(case["expected"], case["upstream"]), "the reference rules already agree: verdict 'agrees'"
    with_option = _score(case, {**case["options"], **case["reproduce"]})
    assert _mismatches(with_option, case["upstream"]) == {}, case["reproduce"]


@pytest.mark.parametrize("case", _params(("differs",)))
def test_upstream_differs_for_a_stated_reason(case: dict[str, Any]) -> None:
    assert case["note"].startswith("differs"), "a difference needs its reason"
    assert _mismatches(case["expected"], case["upstream"]), "the numbers agree: verdict 'agrees'"


def test_every_case_is_traceable() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for case in CASES:
        assert case["source"]["repo"] and case["source"]["test"], case["id"]
        assert case["check"] in CHECKS and case["verdict"] in ("agrees", "option", "differs"), case["id"]
        assert ("reproduce" in case) == (case["verdict"] == "option"), case["id"]
