"""A real server and a real browser for the end-to-end tests and ``scripts/screenshots.py``.

The server is waitress on ``127.0.0.1`` and a free port, in a daemon thread, with its own data dir.
The browser is Debian's Chromium driven by Playwright (no browser is ever downloaded).
"""

from __future__ import annotations

import http.client
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
NARROW_PHONE = {"width": 360, "height": 780}
"""The narrowest phone the pages are made for: no sideways scrolling at 360 px."""
LAPTOP = {"width": 1366, "height": 900}
HIDE_HOST_CAMERA = """document.addEventListener("DOMContentLoaded", () => {
  const style = document.createElement("style");
  style.textContent = "[data-host-camera] { display: none !important; }";
  document.head.append(style);
});"""
"""An init script: a phone never sees the host camera's button, but the test browser runs on the host."""


def phone_page(browser: Any, errors: list[str], viewport: dict[str, int] = PHONE, timeout_ms: int = 10_000,
          touch: bool = True, init_script: str | None = None) -> Any:
    """A page in a browser context of its own (its own cookies: one player's phone), ``viewport`` wide, in English,
    with a touch screen unless ``touch=False``; each JavaScript error on it is added to ``errors`` as it comes.
    ``page.context.close()`` closes it."""
    context = browser.new_context(viewport=viewport, locale="en-US", has_touch=touch)
    if init_script:
        context.add_init_script(init_script)
    context.set_default_timeout(timeout_ms)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


@contextmanager
def live_server(data_dir: Path, extensions: dict[str, Any] | None = None,
                config: dict[str, Any] | None = None) -> Iterator[str]:
    """Serve the app from ``data_dir`` with waitress; yields the base URL.

    ``extensions`` go into ``app.extensions`` (a stand-in tile recogniser, loaded dice); ``config`` into its
    settings (``KEEP_PHOTOS``).
    """
    from waitress.server import create_server

    from companion.web import create_app

    app = create_app({"DATA_DIR": str(data_dir), **(config or {})})
    app.extensions.update(extensions or {})
    # Port 0: the system picks a free port as the server binds it (a port picked first and bound later can be
    # taken in between: a full run once met another listener's bytes, "xHTTP/1.1 200 OK").
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.effective_port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=2).read()
            break
        except (OSError, http.client.HTTPException):  # not listening yet; a garbled first answer is tried again
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    try:
        yield url
    finally:
        _stop(server, thread)


def _stop(server: Any, thread: threading.Thread) -> None:
    """Close the server from its own loop's thread, then wait for the loop to end.

    Closing the listening socket from this thread while the loop sits in ``select`` on it made the loop's thread
    fail now and then ("bad file descriptor"), a warning at a test's teardown.  The trigger runs the closing in the
    loop instead: every socket of the map closed, the map is empty and the loop returns.
    """
    from waitress import wasyncore

    server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    thread.join(timeout=10)
    if thread.is_alive():  # pragma: no cover — a loop that never woke: close it from here, as before
        server.close()
    server.task_dispatcher.shutdown(timeout=5)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium; yields the Playwright browser.

    Playwright starts it on a fresh temporary profile directory and deletes it afterwards; each
    ``browser.new_context()`` is a separate cookie jar (the scorekeeper's phone, a viewer's phone).
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
