"""What the app does against a hostile guest on the Wi-Fi or a hostile web page in a player's browser.

- **Headers** on every response: no MIME sniffing, never framed (clickjacking), no address leaked in
  ``Referer`` to another site.
- **CSRF on the API**: a call authenticated by the session cookie (the PIN entered once in this browser)
  must carry the ``X-CSRF-Token`` header, or be JSON with no foreign ``Origin`` — a cross-site
  ``<form method=post>`` can do neither.  A call that sends the PIN in ``X-Table-Pin`` needs no token.
- **Host-only routes** (the host's camera) check the ``Host`` header as well as the peer address, so a page
  rebound by DNS to 127.0.0.1 is not "the host's own browser".
- **PIN guesses** are limited per address, the check and the count one atomic step: concurrent guessers
  get no more evaluations than one patient guesser.

>>> host_name("[::1]:8000"), host_name("Localhost:8000"), host_name("192.168.1.23")
('::1', 'localhost', '192.168.1.23')
>>> is_loopback_name("127.0.0.1"), is_loopback_name("localhost"), is_loopback_name("127.0.0.1.evil.example")
(True, True, False)
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from flask import Flask, current_app, request, session
from werkzeug.wrappers import Response

__all__ = [
    "SECURITY_HEADERS", "CSRF_HEADER", "PIN_TRIES", "PIN_WINDOW_S", "init_security", "api_csrf_problem",
    "host_name", "is_loopback_name", "host_is_local", "peer_is_loopback", "limited_pin_check",
]

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "same-origin",
}
CSRF_HEADER = "X-CSRF-Token"
CSRF_SESSION_KEY = "csrf_token"
PIN_TRIES = 5
PIN_WINDOW_S = 60.0
"""An address may get a PIN wrong :data:`PIN_TRIES` times a minute (pages and API together): 4 digits are
10 000 guesses."""


def init_security(app: Flask) -> None:
    """Session cookie ``SameSite=Lax`` (and HttpOnly), security headers, the PIN limiter's state."""
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.extensions["pin_failures"] = {}
    app.extensions["pin_lock"] = threading.Lock()
    app.after_request(_add_headers)


def _add_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


# -- CSRF on the API ---------------------------------------------------------------------------------------


def _same_origin(origin: str) -> bool:
    parts = urlsplit(origin)
    return bool(parts.scheme in ("http", "https") and parts.netloc) and parts.netloc.lower() == request.host.lower()


def api_csrf_problem() -> str | None:
    """Why this cookie-authenticated API call may be forged (``None``: it cannot be).

    A cross-site form can send neither a custom header nor ``Content-Type: application/json``; a browser
    sends its page's ``Origin`` with every cross-site POST.
    """
    sent = request.headers.get(CSRF_HEADER)
    if sent is not None:
        expected = str(session.get(CSRF_SESSION_KEY, ""))
        if expected and hmac.compare_digest(sent, expected):
            return None
        return f"the {CSRF_HEADER} header does not match this browser's session (CSRF): reload the page"
    origin = request.headers.get("Origin")
    if origin is not None and not _same_origin(origin):
        return f"cross-site request from {origin!r} refused (CSRF)"
    if not request.is_json:
        return (f"a browser signed in with the PIN must send JSON (Content-Type: application/json) or the "
                f"{CSRF_HEADER} header (CSRF protection); scripts send the PIN in the X-Table-Pin header")
    return None


# -- host-only routes --------------------------------------------------------------------------------------


def host_name(host: str) -> str:
    """The name part of a ``Host`` header, lower case, without port or IPv6 brackets."""
    return (urlsplit(f"//{host}").hostname or "").rstrip(".")


def is_loopback_name(name: str) -> bool:
    """``localhost`` or a loopback address literal (127.0.0.0/8, ::1, ::ffff:127.x)."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def _own_names(app: Flask) -> set[str]:
    """This machine's own names and LAN addresses, found once per app (no packets sent)."""
    names: set[str] | None = app.extensions.get("own_host_names")
    if names is None:
        from companion.web.serve import lan_addresses

        hostname = socket.gethostname().lower()
        names = {hostname, f"{hostname}.local", *lan_addresses()}
        app.extensions["own_host_names"] = names
    return names | {host_name(urlsplit(url).netloc) for url in app.config.get("LAN_URLS") or ()}


def peer_is_loopback() -> bool:
    """Whether the request comes from this machine (by the peer address)."""
    return is_loopback_name(request.remote_addr or "")


def host_is_local() -> bool:
    """Whether the ``Host`` header names this machine: a loopback name, its host name or a LAN address.

    A page the host's browser loaded from another site and rebound to 127.0.0.1 (DNS rebinding) still sends
    that site's name.
    """
    name = host_name(request.host)
    return bool(name) and (is_loopback_name(name) or name in _own_names(current_app))


# -- the PIN limiter ---------------------------------------------------------------------------------------


def limited_pin_check(address: str, check: Callable[[], bool]) -> bool | None:
    """Run ``check`` (the slow PIN comparison) unless ``address`` is out of tries: ``None`` when it is.

    The try is counted *before* ``check`` runs, under a lock, and given back when the PIN was right; so
    16 guessers at once get :data:`PIN_TRIES` evaluations, not 16.
    """
    failures: dict[str, list[float]] = current_app.extensions["pin_failures"]
    lock: threading.Lock = current_app.extensions["pin_lock"]
    now = time.monotonic()
    with lock:
        recent = [t for t in failures.get(address, []) if now - t < PIN_WINDOW_S]
        if len(recent) >= PIN_TRIES:
            failures[address] = recent
            return None
        recent.append(now)
        failures[address] = recent
    right = check()
    if right:
        with lock:
            if now in failures.get(address, []):
                failures[address].remove(now)
    return right
