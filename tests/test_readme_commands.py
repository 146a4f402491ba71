"""The README's command-line examples are a promise: each runs as written, and where the README shows its answer
(``# → …``) the command's first line of output says that."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
RUNS_ALONE = {"check", "opening", "meld", "deal", "options", "pickup", "going_out", "joker", "solve"}
"""Commands that need no file of their own (``score`` reads a hand file, ``recognize`` photos, ``serve`` serves)."""


def _examples() -> list[tuple[str, str | None]]:
    section = README.read_text(encoding="utf-8").split("## Command line", 1)[1].split("### `batch`", 1)[0]
    lines = section.splitlines()
    found = []
    for number, line in enumerate(lines):
        if line.startswith("okey-companion ") and line.split()[1] in RUNS_ALONE:
            following = lines[number + 1] if number + 1 < len(lines) else ""
            found.append((line, following[len("# → "):] if following.startswith("# → ") else None))
    return found


EXAMPLES = _examples()


def test_the_readme_shows_examples_of_every_command_that_runs_alone() -> None:
    assert {shlex.split(line)[1] for line, _ in EXAMPLES} >= RUNS_ALONE - {"solve"}  # solve: its own section
    assert sum(answer is not None for _, answer in EXAMPLES) >= 10


@pytest.mark.parametrize(("line", "answer"), EXAMPLES, ids=[line[15:60] for line, _ in EXAMPLES])
def test_a_readme_example_runs_and_says_what_the_readme_shows(line: str, answer: str | None,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    status = main(shlex.split(line)[1:])
    out = capsys.readouterr().out
    assert status == 0, out
    if answer is not None:
        first = out.splitlines()[0].strip()
        shown = re.split(r"\s{3,}\(", answer)[0]  # a note after three spaces is the README's own
        assert len(first) >= 10 and shown.startswith(first), f"README shows {answer!r}, the command says {first!r}"
