"""The table page: seats, okey, the score sheet, live updates for viewers, the PIN, undo/redo and history.

Viewers poll ``/t/<id>/version?since=N`` every two seconds: the answer is an empty ``204`` while nothing
changed (one indexed SELECT), else the new poller plus the live part of the page swapped out-of-band.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import segno
from flask import current_app, flash, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.store import NothingToRedo, NothingToUndo
from companion.tables import HandRow, TableState
from companion.web.api import get_store, pin_ok, remember_pin
from companion.web.security import limited_pin_check
from companion.web.views_base import event_id, form_int, form_text, html_blueprint, render, render_block
from companion.web.views_text import PENALTY_REASONS, event_label, event_summary, explain, penalty_reason

bp = html_blueprint("table", __name__, url_prefix="/t")

SEAT_COLOURS = ("#1d7fd8", "#d8431d", "#2e9d55", "#a43fc4")

def actor() -> str:
    """Who made a change, for the audit log: the browser's address (the PIN holder)."""
    return f"web {request.remote_addr or ''}".strip()


TABLE_CENTRE = 220.0
SEAT_REACH = 195.0


def seat_angle(seat: int, players: int) -> float:
    """Where ``seat`` sits round the table, in radians from the right-hand side: seat 1 at the bottom, then
    counter-clockwise one side of the square table per seat (three players leave the left side empty,
    two face each other).

    >>> [round(math.degrees(seat_angle(s, 3))) for s in range(3)]
    [-90, 0, 90]
    >>> [round(math.degrees(seat_angle(s, 2))) for s in range(2)]
    [-90, 90]
    """
    step = 180 if players == 2 else 90
    return math.radians(-90 + seat * step)


def seat_positions(players: int) -> list[dict[str, float | bool]]:
    """Where each seat is drawn round the table, counter-clockwise from seat 1 at the bottom; seats at
    the left and right edges get an upright (vertical) name box.

    >>> [(round(p["x"]), round(p["y"]), p["vertical"]) for p in seat_positions(4)]
    [(220, 415, False), (415, 220, True), (220, 25, False), (25, 220, True)]
    """
    points = []
    for seat in range(players):
        angle = seat_angle(seat, players)
        x = TABLE_CENTRE + SEAT_REACH * math.cos(angle)
        y = TABLE_CENTRE - SEAT_REACH * math.sin(angle)
        points.append({"x": x, "y": y, "vertical": abs(math.cos(angle)) > 0.9})
    return points


def columns(state: TableState) -> list[str]:
    """Column titles of the sheet: a player each, or a team each with partners."""
    if state.teams:
        return [" & ".join(state.players[seat] for seat in team) for team in state.teams]
    return list(state.players)


def running_totals(state: TableState) -> list[list[int]]:
    """Each column's total after every hand, as the game's standings count them (``state.running``); the first
    list is the start (the game's: Okey's 20, 101's 0); the last one includes what the hand being played has
    cost so far (``state.current``, in ``state.totals``).  Not the sums of the rows: with Okey's
    ``elimination`` a seat that left loses nothing more (O6).

    A 101 hand's entries already hold its extra penalties (the ledger lists them separately).
    """
    history = [list(totals) for totals in state.running]
    if state.current:
        history.append(list(state.totals))
    return history


def _subtotal_after(state: TableState) -> int | None:
    """The line before the last hand of a penalty sheet with a fixed number of hands (101's cetvel, H8):
    the hand after which the subtotal is drawn."""
    hands = getattr(state.options, "hands", None)
    if state.spec.sheet != "penalty" or not isinstance(hands, int) or hands < 2:
        return None
    return hands - 1


def chart(state: TableState, *, width: int = 640, height: int = 200, pad: int = 24) -> dict[str, Any]:
    """An SVG line chart of the totals over the hands: one polyline per column."""
    history = running_totals(state)
    values = [value for point in history for value in point]
    low, high = min(values + [0]), max(values + [1])
    span = high - low or 1
    steps = max(len(history) - 1, 1)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / steps

    def y(v: int) -> float:
        return height - pad - (height - 2 * pad) * (v - low) / span

    lines = []
    for column, title in enumerate(columns(state)):
        points = " ".join(f"{x(i):.1f},{y(point[column]):.1f}" for i, point in enumerate(history))
        lines.append({"title": title, "points": points, "colour": SEAT_COLOURS[column % len(SEAT_COLOURS)],
                      "last": (x(len(history) - 1), y(history[-1][column]), history[-1][column])})
    return {"width": width, "height": height, "pad": pad, "lines": lines, "zero": y(0), "low": low, "high": high,
            "hands": len(history) - 1}


def join_url(table_id: str) -> str:
    """The address phones open: the LAN address when served by ``serve``, else this request's host."""
    lan: list[str] = current_app.config.get("LAN_URLS") or [request.host_url]
    return lan[0].rstrip("/") + url_for("table.show", table_id=table_id)


def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` (no external image)."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True))


@bp.app_template_filter("names")
def names(seats: Iterable[int], players: Sequence[str]) -> str:
    """``{{ state.winners | names(state.players) }}``: the names at some engine seats, comma separated.

    >>> names([2, 0], ["Ali", "Can", "Deniz"])
    'Deniz, Ali'
    """
    return ", ".join(players[seat] for seat in seats)


@bp.app_template_global()
def row_lines(state: TableState, row: HandRow) -> list[str]:
    """Every line of a hand's explanation, in the reader's language."""
    return [explain(line, state.players) for line in row.result.get("explain_detail") or row.explain]


@bp.app_template_global()
def row_reasons(state: TableState, row: HandRow, column: int) -> list[str]:
    """Why a sheet cell holds its number: the hand's general lines and those about the column's seats
    (Okey: every line, they all concern everybody)."""
    lines = row_lines(state, row)
    per_seat = row.result.get("per_seat")
    if not per_seat:
        return lines
    seats = state.teams[column] if state.teams else (column,)
    owner = {text: seat for seat, texts in enumerate(per_seat) for text in texts}
    english = [line.get("text", "") if isinstance(line, dict) else str(line)
               for line in row.result.get("explain_detail") or row.explain]
    return [line for line, text in zip(lines, english) if owner.get(text, seats[0]) in seats]


@bp.app_template_global()
def headline(state: TableState, row: HandRow) -> str:
    """The first line of a hand's explanation that is about the whole hand (who won, a doubling), if any:
    the last hand at a glance."""
    lines = row_lines(state, row)
    per_seat = row.result.get("per_seat")
    if not per_seat:
        return lines[0] if lines else ""
    owned = {text for texts in per_seat for text in texts}
    english = [line.get("text", "") if isinstance(line, dict) else str(line)
               for line in row.result.get("explain_detail") or row.explain]
    return next((line for line, text in zip(lines, english) if text not in owned), "")


def table_context(table_id: str, **extra: Any) -> dict[str, Any]:
    store = get_store()
    state = store.get(table_id)
    history = running_totals(state)
    context: dict[str, Any] = {
        "state": state,
        "table_id": state.id,
        "editor": pin_ok(state.id),
        "columns": columns(state),
        "running": history,
        "subtotal_after": _subtotal_after(state),
        "chart": chart(state),
        "seat_points": seat_positions(len(state.players)),
        "seat_colours": SEAT_COLOURS,
        "next_dealer": state.spec.pass_deal(state.dealer, len(state.players), state.options, None, state.standings),
        "penalty_reasons": list(PENALTY_REASONS.items()),
        "hand_form": state.spec.templates.form,
    }
    context.update(extra)
    return context


@bp.get("/<table_id>")
def show(table_id: str) -> Response:
    url = join_url(table_id.upper())
    return render("table.html", block="live", join=url, qr=qr_svg(url), **table_context(table_id))


@bp.get("/<table_id>/version")
def version(table_id: str) -> Response:
    """204 while ``since`` is the current version; else the new poller and the live part out-of-band."""
    current = get_store().version(table_id)
    if request.args.get("since") == str(current):
        return current_app.response_class(status=204, headers={"Vary": "HX-Request"})
    if request.headers.get("HX-Request") != "true":
        return current_app.response_class(str(current), mimetype="text/plain", headers={"Vary": "HX-Request"})
    context = table_context(table_id)
    poller = render_block("table.html", "poller", **context)
    live = render_block("table.html", "live", oob=True, **context)
    return current_app.response_class(poller + live, headers={"Vary": "HX-Request"})


@bp.get("/<table_id>/sheet")
def sheet(table_id: str) -> Response:
    """The sheet alone (printable), or its block for htmx."""
    return render("table.html", block="live", printing=True, **table_context(table_id))


@bp.get("/<table_id>/pin")
def pin_form(table_id: str) -> Response:
    """The PIN form's address opened directly (a reload after a wrong PIN): the table page at its PIN form."""
    return redirect(url_for("table.show", table_id=table_id.upper()) + "#pin", 303)


@bp.post("/<table_id>/pin")
def enter_pin(table_id: str) -> Response:
    state = get_store().get(table_id)
    address = request.remote_addr or ""
    message = None
    right = limited_pin_check(address, lambda: get_store().check_pin(state.id, form_text("pin")))
    if right is None:
        message = _("Too many wrong PINs from this phone: wait a minute, then try again.")
    elif not right:
        message = _("Wrong PIN. Ask the scorekeeper for the table's 4 digits.")
    if message is not None:
        return render("table.html", status=422, pin_error=message, join=join_url(state.id),
                      qr=qr_svg(join_url(state.id)), **table_context(state.id))
    remember_pin(state.id)
    return redirect(url_for("table.show", table_id=state.id), 303)


def require_editor(table_id: str) -> Response | None:
    """A redirect to the table page (with the PIN form) when this browser may not change the table."""
    if pin_ok(table_id):
        return None
    return redirect(url_for("table.show", table_id=table_id.upper(), pin="1") + "#pin", 303)


def record(table_id: str, event: dict[str, Any]) -> TableState:
    """Record ``event`` as the API would, tagged with this browser as the actor; a form sent twice (its
    event id seen before) records once."""
    sent = event_id()
    return get_store().record(table_id, {**event, "id": sent} if sent else event, actor=actor())


def recorded_before(table_id: str) -> bool:
    """Whether this form's event id is in the table's log already: the form was sent before and recorded (a
    retry on a bad network, a double tap).  Asked only when the form is refused, so it costs nothing otherwise."""
    sent = event_id()
    return sent is not None and get_store().recorded(table_id, sent)


@bp.post("/<table_id>/undo")
def undo(table_id: str) -> Response:
    return _undo_or_redo(table_id, "undo")


@bp.post("/<table_id>/redo")
def redo(table_id: str) -> Response:
    return _undo_or_redo(table_id, "redo")


def _undo_or_redo(table_id: str, kind: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    store = get_store()
    before = store.get(table_id)
    try:
        if kind == "undo":
            after = store.undo(table_id, actor=actor(), client_id=event_id())
        else:
            after = store.redo(table_id, actor=actor(), client_id=event_id())
    except (NothingToUndo, NothingToRedo):
        flash(_("Nothing to undo.") if kind == "undo" else _("Nothing to redo."), "error")
    else:
        if after.version != before.version:
            flash(_undo_message(kind, before, after, store.events(table_id)))
    return redirect(url_for("table.show", table_id=table_id.upper()), 303)


def _undo_message(kind: str, before: TableState, after: TableState, events: Sequence[Any]) -> str:
    """"Undid hand 5: Ayşe finished" — what an undo or redo just took back or put back."""
    target = next((e for e in reversed(events) if e.type == kind), None)
    changed = next((e for e in events if target is not None and e.seq == target.payload.get("target")), None)
    if changed is None:
        return _("Undone.") if kind == "undo" else _("Redone.")
    what = event_summary(changed.type, changed.payload, after.players) or event_label(changed.type)
    if len(before.hands) != len(after.hands):
        number = max(len(before.hands), len(after.hands))
        return (_("Undid hand %(n)d: %(what)s.", n=number, what=what) if kind == "undo"
                else _("Redid hand %(n)d: %(what)s.", n=number, what=what))
    what = f"{event_label(changed.type)} · {what}" if what != event_label(changed.type) else what
    return _("Undid: %(what)s.", what=what) if kind == "undo" else _("Redid: %(what)s.", what=what)


@bp.post("/<table_id>/gosterme")
def gosterme(table_id: str) -> Response:
    """A player showed the indicator's twin (O6): every opponent loses the gösterme points."""
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = get_store().get(table_id)
    if state.deal.indicator is None:
        if recorded_before(table_id):  # sent again after its hand was recorded (a retry): nothing to do twice
            return redirect(url_for("table.show", table_id=table_id.upper()), 303)
        raise ValueError(_("Turn up the indicator first: gösterme is showing its twin."))
    seat = form_int("player", _("The player"), low=0, high=len(state.players) - 1)
    record(table_id, {"type": "gosterme", "player": seat})  # refused for a seat that left, or a second seat
    flash(_("Gösterme recorded for %(name)s: the opponents lose %(n)d when the hand is recorded.",
            name=state.players[seat], n=state.options.gosterme_points))  # recorded, so this game has gösterme
    if form_text("back") == "win":  # tapped on the win form: stay there
        return redirect(url_for("hands.okey_win", table_id=table_id.upper()) + "#gosterme", 303)
    return redirect(url_for("table.show", table_id=table_id.upper()), 303)


@bp.post("/<table_id>/penalty")
def penalty(table_id: str) -> Response:
    """A 101 extra penalty (H7) for a player in the hand being played."""
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = get_store().get(table_id)
    seat = form_int("player", _("The player"), low=0, high=len(state.players) - 1)
    fined = record(table_id, {"type": "penalty", "player": seat, "reason": form_text("reason")})
    flash(_("+%(points)d for %(name)s (%(reason)s): already in the totals.", points=fined.penalties[-1].points,
            name=state.players[seat], reason=penalty_reason(fined.penalties[-1].reason)))
    return redirect(url_for("table.show", table_id=table_id.upper()), 303)


@bp.post("/<table_id>/rename")
def rename(table_id: str) -> Response:
    """Correct a player's name (a typo, or a player swapped in at the same seat)."""
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = get_store().get(table_id)
    seat = form_int("player", _("The player"), low=0, high=len(state.players) - 1)
    renamed = record(table_id, {"type": "rename", "player": seat, "name": form_text("name")})
    flash(_("%(old)s is now called %(new)s.", old=state.players[seat], new=renamed.players[seat]))
    return redirect(url_for("table.show", table_id=table_id.upper()), 303)


@bp.get("/<table_id>/history")
def history(table_id: str) -> Response:
    store = get_store()
    state = store.get(table_id)
    events = store.events(table_id)
    effective = [event for event in events if not event.undone and event.type not in ("undo", "redo")]
    outcomes = {event.seq: outcome for event, outcome in zip(effective, state.outcomes)}
    return render("history.html", state=state, table_id=state.id, events=list(reversed(events)),
                  by_seq={event.seq: event for event in events}, outcomes=outcomes, editor=pin_ok(state.id))
