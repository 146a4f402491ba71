"""scripts/eval_vision.py refuses a stress test it cannot run with a clear message, before it loads anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "eval_vision.py"


@pytest.mark.parametrize("option, value", [("--smaller", "0"), ("--faint-colours", "-1"), ("--darker", "0")])
def test_a_stress_share_of_zero_or_less_is_refused(option: str, value: str) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), option, value], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"{option} {float(value)}: give a share above 0" in run.stderr
    assert "Traceback" not in run.stderr
