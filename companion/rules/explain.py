"""Explanations: the "why this number" lines that deals and scores carry.

Each line has a stable ``key`` (the web UI translates by key), the numbers in ``params`` and an English
``text``.  Seats in ``params`` are 0-based engine seats; the English text says "player 1" for seat 0.

>>> line = Explanation("okey.win", {"winner": 0, "points": 2}, "Player 1 won: every opponent loses 2.")
>>> line
Player 1 won: every opponent loses 2.
>>> line.to_dict()["key"]
'okey.win'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["Explanation", "player", "seats_text", "they", "ordinal", "texts", "details", "result_dict"]


@dataclass(frozen=True)
class Explanation:
    """One line of an explanation: a translation ``key``, its JSON-able ``params`` and the English ``text``."""

    key: str
    params: Mapping[str, Any] = field(hash=False)
    text: str

    def __repr__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params), "text": self.text}


def player(seat: int) -> str:
    """How English text names an engine seat: ``player(0) == 'player 1'``."""
    return f"player {seat + 1}"


def seats_text(seats: Sequence[int]) -> str:
    """``player 2``, ``players 1 and 3``, ``players 1, 2 and 4``."""
    names = [str(seat + 1) for seat in seats]
    if len(names) == 1:
        return f"player {names[0]}"
    return "players " + ", ".join(names[:-1]) + " and " + names[-1]


def they(seats: Sequence[int], verb: str) -> str:
    """``player 2 wins``, ``players 1 and 3 win``."""
    return f"{seats_text(seats)} {verb}s" if len(seats) == 1 else f"{seats_text(seats)} {verb}"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th``, ``12th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st']
    """
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def texts(lines: tuple[Explanation, ...]) -> list[str]:
    """The English texts of ``lines``."""
    return [line.text for line in lines]


def details(lines: tuple[Explanation, ...]) -> list[dict[str, Any]]:
    """``lines`` as JSON-able dicts."""
    return [line.to_dict() for line in lines]


def result_dict(result: Any) -> dict[str, Any]:
    """The JSON of a frozen result dataclass (a hand's score, a match's standings): its fields in order,
    tuples as lists, an explanation line as its text, a nested result by its ``to_dict()``; the field
    ``explain`` is followed by ``explain_detail``, its lines as dicts.

    >>> @dataclass(frozen=True)
    ... class Done:
    ...     totals: tuple[int, ...]
    ...     explain: tuple[Explanation, ...]
    >>> result_dict(Done((3, 0), (Explanation("x.over", {"n": 1}, "Over."),)))
    {'totals': [3, 0], 'explain': ['Over.'], 'explain_detail': [{'key': 'x.over', 'params': {'n': 1}, 'text': 'Over.'}]}
    """
    answer: dict[str, Any] = {}
    for item in fields(result):
        value = getattr(result, item.name)
        answer[item.name] = _json(value)
        if item.name == "explain":
            answer["explain_detail"] = details(value)
    return answer


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    if isinstance(value, Explanation):
        return value.text
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value
