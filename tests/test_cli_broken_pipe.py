"""The command line when its reader stops early (``okey-companion options --game thai | head -1``): no traceback.

The reader's end of the pipe is closed before the command writes, so every write fails as it would after ``head``
has read its line.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("argv", [["options", "--game", "thai"], ["options", "--game", "rami40", "--json"],
                                  ["check", "--indicator", "R4", *"R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5".split()]])
def test_a_reader_that_stops_early_gets_no_traceback(argv: list[str]) -> None:
    process = subprocess.Popen([sys.executable, "-m", "companion", *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 1
    assert "Traceback" not in error and "BrokenPipeError" not in error
    assert error == ""
