"""Record schemas: what fields a JSON record (an event, a game's hand record) may have, of which type and
within which bounds.  A game declares its hand record as a schema next to its scoring function; the
table's event entry point checks every event against its type's schema before anything is stored.

Unknown fields are refused naming the field, numbers are bounded, strings and lists are short: a record
that passes is small, flat enough to store and replay, and safe to export.

>>> SEAT = Field(low=0, high=3)
>>> check_record({"player": 1}, {"player": SEAT}, "penalty event")
>>> check_record({"player": 1, "colour": "red"}, {"player": SEAT}, "penalty event")
Traceback (most recent call last):
...
companion.rules.errors.InvalidRecordError: unknown field 'colour' in penalty event; its fields are: player
>>> check_record({"player": 10**300}, {"player": SEAT}, "penalty event")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.rules.errors.InvalidRecordError: invalid player 1000...… in penalty event: give a number from 0 to 3
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.rules.errors import InvalidRecordError
from companion.rules.tiles import Tile

__all__ = ["Field", "Schema", "check_record", "short_repr"]

Kind = Literal["scalar", "tiles", "list", "object"]

MAX_TILES_TEXT = 400
"""Longest tile text a record may hold: far more than any rack (22 tiles are about 80 characters)."""
MAX_DEPTH = 4
"""Lists and objects nest at most this deep in a record of undeclared shape (a hand record is 3 deep)."""
MAX_LOOSE_ITEMS = 60
MAX_NUMBER = 1_000_000
"""No number in a record is larger than this (a score, a sum, a seat): beyond it is a typo or an attack."""


@dataclass(frozen=True)
class Field:
    """One field of a record: its shape and size.  The game's own checks then judge the value itself
    (a seat in range, a known penalty reason), with messages in the game's words.

    ``scalar``: null, true/false, a number in ``low..high``, a text of at most ``max_length`` characters
    (one of ``choices`` when given) — never a list or an object; ``tiles``: tile text of at most
    :data:`MAX_TILES_TEXT` characters or a list of at most ``max_items`` tile codes; ``list``: at most
    ``max_items`` items, each checked by ``items``; ``object``: only the ``fields`` named (any, when ``open``).
    """

    kind: Kind = "scalar"
    required: bool = False
    low: int = -MAX_NUMBER
    high: int = MAX_NUMBER
    max_length: int = 60
    choices: tuple[str, ...] = ()
    items: Field | None = None
    max_items: int = 30
    fields: Mapping[str, Field] = field(default_factory=dict)
    open: bool = False
    """An ``object`` whose fields are not declared: any names, values nested at most :data:`MAX_DEPTH` deep."""


Schema = Mapping[str, Field]


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters (a 300-digit number or a deep list stays readable)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"


def check_record(record: Any, schema: Schema, what: str) -> None:
    """Raise :class:`InvalidRecordError` unless ``record`` is an object of the shape ``schema`` declares."""
    if not isinstance(record, Mapping):
        raise InvalidRecordError(f"invalid record {short_repr(record)} in {what}: give an object")
    _check_object(record, schema, what, "")


def _check_object(record: Mapping[Any, Any], schema: Schema, what: str, path: str) -> None:
    for name in record:
        if name not in schema:
            where = f" in {path}" if path else ""
            raise InvalidRecordError(
                f"unknown field {short_repr(name)}{where} in {what}; its fields are: {', '.join(schema) or 'none'}"
            )
    for name, spec in schema.items():
        full = f"{path}.{name}" if path else name
        if name in record:
            _check_value(record[name], spec, what, full)
        elif spec.required:
            raise InvalidRecordError(f"missing field {full!r} in {what}")


def _check_value(value: Any, spec: Field, what: str, path: str) -> None:
    def bad(hint: str) -> InvalidRecordError:
        return InvalidRecordError(f"invalid {path} {short_repr(value)} in {what}: {hint}")

    container = isinstance(value, (list, tuple, Mapping))
    if spec.kind == "list" and isinstance(value, (list, tuple)):
        if len(value) > spec.max_items:
            raise bad(f"give a list of at most {spec.max_items} items")
        for index, item in enumerate(value):
            _check_value(item, spec.items or Field(), what, f"{path}[{index}]")
    elif spec.kind == "object" and isinstance(value, Mapping):
        if spec.open:
            _check_loose(value, what, path, MAX_DEPTH)
        else:
            _check_object(value, spec.fields, what, path)
    elif spec.kind == "tiles" and isinstance(value, (list, tuple)):
        if len(value) > spec.max_items:
            raise bad(f"give at most {spec.max_items} tiles")
        for index, item in enumerate(value):
            _check_value(item, Field(max_length=8), what, f"{path}[{index}]")
    elif container:
        raise bad("give one value, not a list or an object" if spec.kind in ("scalar", "tiles") else
                  f"give {'a list' if spec.kind == 'list' else 'an object'}")
    else:
        _check_scalar(value, spec, bad)


def _check_loose(value: Any, what: str, path: str, depth: int) -> None:
    """A value of an undeclared shape: at most ``depth`` levels of lists and objects, each bounded."""
    if isinstance(value, (list, tuple, Mapping)):
        if depth == 0:
            raise InvalidRecordError(f"invalid {path} in {what}: nested too deeply, at most {MAX_DEPTH} levels")
        if len(value) > MAX_LOOSE_ITEMS:
            raise InvalidRecordError(f"invalid {path} in {what}: at most {MAX_LOOSE_ITEMS} items")
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        for key, item in items:
            if isinstance(value, Mapping) and (not isinstance(key, str) or len(key) > 60):
                raise InvalidRecordError(f"invalid field name {short_repr(key)} in {path} in {what}")
            _check_loose(item, what, f"{path}.{key}" if isinstance(value, Mapping) else f"{path}[{key}]", depth - 1)
        return
    _check_scalar(value, Field(max_length=MAX_TILES_TEXT),
                  lambda hint: InvalidRecordError(f"invalid {path} {short_repr(value)} in {what}: {hint}"))


def _check_scalar(value: Any, spec: Field, bad: Any) -> None:
    if isinstance(value, bool) or value is None or isinstance(value, Tile):
        return
    if isinstance(value, (int, float)):
        if not (isinstance(value, int) or math.isfinite(value)) or not spec.low <= value <= spec.high:
            raise bad(f"give a number from {spec.low} to {spec.high}")
        return
    if isinstance(value, str):
        limit = MAX_TILES_TEXT if spec.kind == "tiles" else spec.max_length
        if len(value) > limit:
            raise bad(f"give a text of at most {limit} characters")
        if spec.choices and value not in spec.choices:
            raise bad(f"use one of: {', '.join(spec.choices)}")
        return
    raise bad("give a number or a text")
