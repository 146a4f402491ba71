"""Speed on the request path (issue 11): options validated once per value, a table's reduced state kept
between requests so recording and reading cost the same at hand 500 as at hand 5.  The figures are measured
by ``scripts/bench_rules.py`` (batch) and ``scripts/bench_tables.py``; these tests check the mechanisms."""

from __future__ import annotations

import pytest

from companion.cli import answer
from companion.rules import options as options_module

CHECK = {"op": "check", "game": "okey", "indicator": "R4", "tiles": "R1 R2 R3 R5 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 F"}


def test_options_are_validated_once_per_value(monkeypatch):
    calls: list[object] = []
    real = options_module.get_type_hints

    def counting(cls: object) -> object:
        calls.append(cls)
        return real(cls)

    monkeypatch.setattr(options_module, "get_type_hints", counting)
    for _ in range(50):
        assert answer(CHECK)["winning"] is True
        assert answer({**CHECK, "options": {"wrap_13_1": False}, "profile": "kahvehane"})["winning"] is True
    assert len(calls) <= 2, "type hints read once per game, not once per request"


def test_cached_options_are_still_validated_every_time():
    for _ in range(3):
        assert "start_point" in answer({**CHECK, "options": {"start_point": 3}})["error"]
        assert answer({**CHECK, "options": {"wrap_13_1": "off"}})["winning"] is True
    first = options_module.options_for("okey", {"start_points": 30})
    assert options_module.options_for("okey", {"start_points": 30}) is first
    assert options_module.options_for("okey", {"start_points": "30"}).start_points == 30


def test_options_with_unhashable_values_are_refused_not_cached():
    reply = answer({**CHECK, "options": {"colour_hand": ["any"]}})
    assert "colour_hand" in reply["error"]
