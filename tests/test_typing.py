"""``mypy --strict`` on the rules engine and the vision package (configured in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("mypy") is None and not (Path(sys.executable).parent / "mypy").exists(),
                    reason="mypy is not installed (pip install -e '.[test]')")
def test_rules_and_vision_pass_mypy_strict():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
