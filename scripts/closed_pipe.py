"""The dev scripts' printed tables piped into ``head`` and left early (``vision_figures.py list | head -3``): the
script ends there quietly, as a shell tool does, instead of a BrokenPipeError traceback."""

from __future__ import annotations

import signal


def end_quietly_on_a_closed_pipe() -> None:
    """Let the system end the process when its reader goes away (SIGPIPE's default; Python ignores it), where the
    system has the signal."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
