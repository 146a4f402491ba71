"""The HTTP JSON API under ``/api``: tables, their events, undo/redo, the sheet and exports.

Errors are always JSON ``{"error": "..."}``: 400 malformed JSON or a missing field (named), 403 wrong or
missing PIN, 404 unknown table, 409 nothing to undo/redo, 413 body over 64 KB, 415 not JSON, 422 an
event or setting the rules reject (nothing is recorded).

Helpers for the HTML pages: :func:`get_store` (one store per request on ``flask.g``), :func:`pin_ok` and
:func:`remember_pin`.
"""

from __future__ import annotations

import csv
import io
import json
from contextlib import nullcontext
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request, session
from flask_babel import force_locale
from flask_babel import gettext as _
from werkzeug.exceptions import (
    BadRequest,
    Forbidden,
    HTTPException,
    RequestEntityTooLarge,
    TooManyRequests,
    UnsupportedMediaType,
)

from companion.rules.errors import RulesError
from companion.store import (
    EventIdReused,
    NothingToRedo,
    NothingToUndo,
    ReadOnlyStore,
    TableNotFound,
    TableStore,
    normalise_table_id,
)
from companion.tables import InvalidEventError, InvalidTableError, MissingFieldError, TableState
from companion.web.security import api_csrf_problem, limited_pin_check
from companion.web.i18n import LANGUAGES
from companion.web.views_text import explain, penalty_reason

__all__ = [
    "bp", "init_app", "get_store", "pin_ok", "remember_pin", "PIN_HEADER", "MAX_JSON_BYTES",
]

bp = Blueprint("api", __name__, url_prefix="/api")

PIN_HEADER = "X-Table-Pin"
MAX_JSON_BYTES = 64 * 1024
def init_app(app: Flask) -> None:
    """Register the blueprint, the JSON error handlers and the per-request store teardown."""
    app.register_blueprint(bp)
    app.register_error_handler(HTTPException, _http_error)
    app.teardown_appcontext(_close_store)


def get_store() -> TableStore:
    """The request's :class:`TableStore`, opened on first use from ``app.config["DATABASE"]``."""
    if "table_store" not in g:
        g.table_store = TableStore(current_app.config["DATABASE"])
    store: TableStore = g.table_store
    return store


def _close_store(_error: BaseException | None) -> None:
    store = g.pop("table_store", None)
    if store is not None:
        store.close()


def pin_ok(table_id: str) -> bool:
    """Whether this request may change the table: the PIN in the ``X-Table-Pin`` header, or a session
    cookie set by :func:`remember_pin` after the PIN was entered once.  A PIN sent in the header is always
    checked, so a wrong one is refused even from a browser that entered the right one before."""
    pin = request.headers.get(PIN_HEADER)
    if pin is None:
        return bool(session.get("pins", {}).get(normalise_table_id(table_id)))
    address = request.remote_addr or ""
    right = limited_pin_check(address, lambda: get_store().check_pin(table_id, pin))
    if right is None:
        raise TooManyRequests(f"too many wrong PINs from {address}: wait a minute, then try again")
    return right


def remember_pin(table_id: str) -> None:
    """Let this browser change the table from now on without sending the PIN again."""
    session["pins"] = {**session.get("pins", {}), normalise_table_id(table_id): True}


def _require_pin(table_id: str) -> None:
    """404 for an unknown table, then 403 unless this request may change it: the PIN in the header, or the
    session cookie on a call no other site can forge (CSRF, see :mod:`companion.web.security`)."""
    get_store().version(table_id)
    if not pin_ok(table_id):
        raise Forbidden(f"wrong or missing PIN for table {table_id!r}: send the table's 4-digit PIN "
                        f"in the {PIN_HEADER} header")
    if PIN_HEADER not in request.headers and (problem := api_csrf_problem()) is not None:
        raise Forbidden(problem)


def _json_body(*, optional: bool = False) -> Any:
    """The request's JSON body; ``optional`` bodies may be empty (undo/redo)."""
    request.max_content_length = MAX_JSON_BYTES
    data = request.get_data(cache=True)
    if optional and not data.strip():
        return {}
    if not request.is_json:
        raise UnsupportedMediaType(
            f"send JSON with Content-Type: application/json (got {request.mimetype or 'no content type'!r})"
        )
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRequest(f"malformed JSON: {error}") from None
    except RecursionError:
        raise BadRequest("malformed JSON: nested too deeply; no event needs more than a few levels") from None


def _object_body(*, optional: bool = False) -> dict[str, Any]:
    body = _json_body(optional=optional)
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object, not {type(body).__name__}")
    return body


def _required(body: dict[str, Any], name: str) -> Any:
    if name not in body:
        raise MissingFieldError(f"missing field {name!r}")
    return body[name]


def _actor() -> str:
    return request.headers.get("X-Actor", "") or request.remote_addr or ""


def _changed(state: TableState, status: int) -> tuple[Response, int]:
    return jsonify(sheet=state.sheet(), state=state.to_dict()), status


# -- routes ------------------------------------------------------------------------------------------


@bp.post("/tables")
def create_table() -> tuple[Response, int]:
    body = _object_body()
    store = get_store()
    table_id = store.create_table(
        game=_required(body, "game"),
        players=_required(body, "players"),
        pin=_required(body, "pin"),
        options=body.get("options"),
        profile=body.get("profile") or "reference",
        first_dealer=body.get("first_dealer", 0),
        name=body.get("name"),
    )
    remember_pin(table_id)
    state = store.get(table_id)
    return jsonify(id=table_id, sheet=state.sheet(), state=state.to_dict()), 201


@bp.get("/tables")
def list_tables() -> Response:
    return jsonify([summary.to_dict() for summary in get_store().list_tables()])


@bp.get("/tables/<table_id>")
def table(table_id: str) -> Response:
    return jsonify(get_store().get(table_id).to_dict())


@bp.get("/tables/<table_id>/sheet")
def sheet(table_id: str) -> Response:
    return jsonify(get_store().get(table_id).sheet())


@bp.get("/tables/<table_id>/version")
def version(table_id: str) -> Response:
    return jsonify(version=get_store().version(table_id))


@bp.get("/tables/<table_id>/events")
def events(table_id: str) -> Response:
    return jsonify([record.to_dict() for record in get_store().events(table_id)])


@bp.post("/tables/<table_id>/events")
def record_event(table_id: str) -> tuple[Response, int]:
    _require_pin(table_id)
    event = _object_body()
    _required(event, "type")
    state, new = get_store().record_once(table_id, event, actor=_actor())
    return _changed(state, 201 if new else 200)


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str) -> tuple[Response, int]:
    _require_pin(table_id)
    body = _object_body(optional=True)
    return _changed(get_store().undo(table_id, actor=_actor(), client_id=body.get("id")), 200)


@bp.post("/tables/<table_id>/redo")
def redo(table_id: str) -> tuple[Response, int]:
    _require_pin(table_id)
    body = _object_body(optional=True)
    return _changed(get_store().redo(table_id, actor=_actor(), client_id=body.get("id")), 200)


@bp.get("/tables/<table_id>/export.json")
def export_json(table_id: str) -> Response:
    store = get_store()
    state = store.get(table_id)
    response = jsonify(table=state.to_dict(), sheet=state.sheet(),
                       events=[record.to_dict() for record in store.events(table_id)])
    response.headers["Content-Disposition"] = f'attachment; filename="table-{state.id}.json"'
    return response


@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str) -> Response:
    """The sheet as CSV: one line per hand (why it scored, with the players' names), the hand being played
    when it already counts, the totals, then the 101 penalty ledger — in the language of ``?lang=`` (else the
    reader's), with a byte-order mark so that spreadsheets read "Ayşe" as UTF-8."""
    state = get_store().get(table_id)
    lang = request.args.get("lang", "")
    with force_locale(lang) if lang in LANGUAGES else nullcontext():
        body = _sheet_csv(state)
    return Response("\ufeff" + body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="table-{state.id}.csv"'
    })


def _sheet_csv(state: TableState) -> str:
    columns = (
        [" & ".join(state.players[seat] for seat in team) for team in state.teams] if state.teams
        else list(state.players)
    )
    out = io.StringIO()
    writer = _SafeCsvWriter(out)
    writer.writerow([_("Hand"), _("Dealer"), *columns, _("Explanation")])
    rows = [*state.hands, *([state.current] if state.current else [])]
    for row in rows:
        lines = row.result.get("explain_detail") or row.explain
        explanation = " / ".join(explain(line, state.players) for line in lines)
        number = _("%(n)d (being played)", n=row.number) if row.pending else row.number
        writer.writerow([number, state.players[row.dealer], *row.entries, explanation])
    writer.writerow([_("Total"), "", *state.totals, ""])
    if state.penalties:
        writer.writerow([])
        writer.writerow([_("Penalty in hand"), _("Player"), _("Reason"), _("Points")])
        for penalty in state.penalties:
            writer.writerow([penalty.hand, state.players[penalty.player], penalty_reason(penalty.reason), penalty.points])
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A spreadsheet runs a cell that starts with one of these as a formula (CSV injection)."""


class _SafeCsvWriter:
    """A ``csv.writer`` whose text cells never start a formula: such a cell gets a leading ``'``
    (numbers are written as they are)."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
                               for cell in row])


# -- errors ------------------------------------------------------------------------------------------


def _error(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


@bp.errorhandler(TableNotFound)
def _not_found(error: TableNotFound) -> tuple[Response, int]:
    return _error(str(error.args[0]), 404)


@bp.errorhandler(NothingToUndo)
@bp.errorhandler(NothingToRedo)
def _nothing(error: LookupError) -> tuple[Response, int]:
    return _error(str(error.args[0]), 409)


@bp.errorhandler(ReadOnlyStore)
def _read_only(error: ReadOnlyStore) -> tuple[Response, int]:
    return _error(str(error), 503)


@bp.errorhandler(EventIdReused)
def _reused(error: EventIdReused) -> tuple[Response, int]:
    return _error(str(error), 409)


@bp.errorhandler(MissingFieldError)
def _missing(error: MissingFieldError) -> tuple[Response, int]:
    return _error(str(error), 400)


@bp.errorhandler(InvalidEventError)
@bp.errorhandler(InvalidTableError)
@bp.errorhandler(RulesError)
def _invalid(error: ValueError) -> tuple[Response, int]:
    return _error(str(error), 422)


def _http_error(error: HTTPException) -> Response | tuple[Response, int] | HTTPException:
    """HTTP errors under ``/api`` as JSON; elsewhere the default page."""
    if not request.path.startswith(bp.url_prefix or "/api"):
        return error
    if isinstance(error, RequestEntityTooLarge):
        return _error(f"request body too large: the API takes at most {MAX_JSON_BYTES // 1024} KB of JSON", 413)
    return _error(error.description or error.name, error.code or 500)
