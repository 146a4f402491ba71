"""The repository stands on its own (issue 13): no tracked file points outside it — no link to a shared
folder beside the clone, no absolute path of a development machine.  Data the tests need lives in
tests/data/ with its source."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Spelled in pieces so that this file does not find itself.
OUTSIDE = ("../" + "shared", "/" + "work/", "shared" + "/data", "/" + "root/", "/home/" + "runner")


def _tracked() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [ROOT / name for name in listed.stdout.decode().split("\0") if name and (ROOT / name).is_file()]


def test_no_tracked_file_points_outside_the_repository() -> None:
    offences = []
    for path in _tracked():
        data = path.read_bytes()
        if b"\0" in data[:4096]:
            continue  # binary: models, photos
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            offences += [f"{path.relative_to(ROOT)}:{number}: {needle!r}" for needle in OUTSIDE if needle in line]
    assert not offences, "paths outside the repository:\n" + "\n".join(offences)


def test_data_the_tests_use_is_in_the_repository_with_its_source() -> None:
    for folder in ("rules_cases", "vision"):
        readme = ROOT / "tests" / "data" / folder / "README.md"
        assert readme.is_file(), f"tests/data/{folder} needs a README naming its source and licence"
    cases = (ROOT / "tests" / "data" / "rules_cases" / "README.md").read_text(encoding="utf-8")
    assert "github.com/susaglam/Okey101" in cases and "licence" in cases
