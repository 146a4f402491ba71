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


@pytest.mark.parametrize("value", ["0.3", "1"])
def test_halves_that_leave_a_gap_or_are_the_whole_photo_are_refused(value: str) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--halves", value], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"--halves {float(value)}: give a share of the width from 0.5" in run.stderr
    assert "Traceback" not in run.stderr


def test_halves_split_the_labels_with_the_photo(tmp_path: Path) -> None:
    """A 1,000 px wide photo in halves of 0.6: a tile wholly in the left 600 px is labelled there only, one across
    the middle in both (its box clipped and moved), one only 40 % inside a half is left out of that half."""
    import cv2
    import numpy as np

    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import Sample, _halves

    cv2.imwrite(str(tmp_path / "wide.png"), np.zeros((100, 1000, 3), np.uint8))
    sample = Sample(tmp_path / "wide.png", (("R1", (10.0, 0.0, 60.0, 50.0)), ("B2", (450.0, 0.0, 550.0, 50.0)),
                                            ("K3", (560.0, 0.0, 660.0, 50.0))), (False, True, False))
    left, right = _halves([sample], 0.6)
    assert left.columns == (0, 600) and right.columns == (400, 1000)
    assert left.tiles == (("R1", (10.0, 0.0, 60.0, 50.0)), ("B2", (450.0, 0.0, 550.0, 50.0)))
    assert left.upside_down == (False, True)
    assert right.tiles == (("B2", (50.0, 0.0, 150.0, 50.0)), ("K3", (160.0, 0.0, 260.0, 50.0)))
