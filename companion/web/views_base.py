"""What every HTML view shares: page/fragment rendering, CSRF, form fields and the error page.

Fragments are named blocks of the page templates: one URL serves the page, or with ``HX-Request``
just the block htmx swaps (``Vary: HX-Request`` tells caches the difference).
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from flask import Blueprint, current_app, make_response, request, session
from flask_babel import gettext as _
from werkzeug.exceptions import BadRequest
from werkzeug.wrappers import Response

from companion.store import ReadOnlyStore, TableNotFound
from companion.web.views_text import engine_text

CSRF_FIELD = "csrf_token"
EVENT_ID_FIELD = "event_id"
"""A hidden field naming the change a form makes: the same form sent twice (a double tap, a retry on a
flaky connection) records once, because the store ignores an event id it has seen."""
CSRF_HEADER = "X-CSRF-Token"
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
MAX_FORM_BYTES = 64 * 1024
"""A form is a few hundred bytes (a full 101 hand about 1 KB): a bigger one is refused with 413 before it
is read, so no viewer can make the app parse megabytes.  Photo uploads keep the app's 25 MB limit."""
UPLOAD_ENDPOINTS = frozenset({"hands.photo"})


class CsrfError(BadRequest):
    """A POST without the session's CSRF token (an old tab, or a forged form)."""


def csrf_token() -> str:
    """The per-session CSRF token (created on first use); forms carry it, htmx sends it as a header."""
    token = session.get(CSRF_FIELD)
    if not token:
        token = secrets.token_urlsafe(24)
        session[CSRF_FIELD] = token
    return str(token)


def event_token() -> str:
    """A fresh id for the change a form will make (see :data:`EVENT_ID_FIELD`)."""
    return secrets.token_urlsafe(12)


def event_id() -> str | None:
    """The submitted form's event id, ``None`` when it has none (an old page, a test)."""
    return form_text(EVENT_ID_FIELD) or None


def check_csrf() -> None:
    """``before_request`` hook of the HTML blueprints: every unsafe request must carry the token."""
    if request.method in _SAFE_METHODS:
        return
    if request.endpoint not in UPLOAD_ENDPOINTS:
        request.max_content_length = MAX_FORM_BYTES
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    expected = session.get(CSRF_FIELD, "")
    if not expected or not hmac.compare_digest(str(sent), str(expected)):
        raise CsrfError(_("This form has expired or did not come from this app. Reload the page and try again."))


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def render_block(template_name: str, block: str, **context: Any) -> str:
    """Render one named block of a page template with the full template context."""
    env = current_app.jinja_env
    template = env.get_template(template_name)
    current_app.update_template_context(context)
    return "".join(template.blocks[block](template.new_context(context)))


def render(template_name: str, *, block: str | None = None, status: int = 200, **context: Any) -> Response:
    """The whole page, or only ``block`` when htmx asks; always ``Vary: HX-Request``."""
    context.setdefault("tv", request.args.get("tv") == "1")
    if block is not None and is_htmx():
        body = render_block(template_name, block, **context)
    else:
        current_app.update_template_context(context)
        body = current_app.jinja_env.get_template(template_name).render(context)
    response = make_response(body, status)
    response.headers["Vary"] = "HX-Request"
    return response


def html_blueprint(name: str, import_name: str, **kwargs: Any) -> Blueprint:
    """A blueprint of HTML pages: CSRF-checked, with errors shown as a page or an htmx fragment."""
    bp = Blueprint(name, import_name, **kwargs)
    bp.before_request(check_csrf)
    bp.register_error_handler(ValueError, _value_error)
    bp.register_error_handler(BadRequest, _bad_request)
    bp.register_error_handler(TableNotFound, _not_found)
    bp.register_error_handler(ReadOnlyStore, _read_only)
    return bp


def _error_response(message: str, status: int) -> Response:
    return render("error.html", block="error", status=status, message=message)


def _value_error(error: ValueError) -> Response:
    return _error_response(engine_text(str(error)), 422)


def _bad_request(error: BadRequest) -> Response:
    return _error_response(str(error.description or error), 400)


def _read_only(_error: ReadOnlyStore) -> Response:
    return _error_response(_("Nothing can be recorded right now: the database on the host is read-only. "
                             "The tables can still be viewed."), 503)


def _not_found(error: TableNotFound) -> Response:
    return _error_response(engine_text(str(error.args[0])), 404)


def form_text(name: str, default: str = "") -> str:
    """A trimmed form field."""
    return str(request.form.get(name, default)).strip()


def form_int(name: str, label: str, *, low: int, high: int, default: int | None = None) -> int:
    """A whole-number form field in ``low..high``; a clear :class:`ValueError` otherwise."""
    raw = form_text(name)
    if not raw and default is not None:
        return default
    value = int(raw) if raw.lstrip("-").isdecimal() else None
    if value is None or not low <= value <= high:
        raise ValueError(_("%(label)s must be a whole number from %(low)d to %(high)d, not %(raw)r",
                           label=label, low=low, high=high, raw=raw))
    return value

