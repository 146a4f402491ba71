"""Helpers for the tests of the training scripts' batches and command lines (``scripts/train_*.py``)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def shares_drawn(monkeypatch: pytest.MonkeyPatch, pools: dict[str, list[Any]], draw: Callable[[], object]) -> dict[str, float]:
    """The share of the samples ``draw()`` takes from each of ``pools`` (each pool told by its identity)."""
    drawn: list[str] = []
    original = random.Random.choice

    def counting_choice(self: random.Random, seq: Any) -> Any:
        drawn.extend(name for name, pool in pools.items() if seq is pool)
        return original(self, seq)

    monkeypatch.setattr(random.Random, "choice", counting_choice)
    draw()
    return {name: drawn.count(name) / len(drawn) for name in pools}


def refusal(script: str | Path, options: list[str]) -> str:
    """What ``script`` says on stderr when run with ``options`` it must refuse (exit 2, no traceback)."""
    run = subprocess.run([sys.executable, str(script), *options], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    return run.stderr
