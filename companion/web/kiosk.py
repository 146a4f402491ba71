"""``/tv``: the one address a screen at the table opens (a Raspberry Pi's kiosk browser, a TV).

It shows the big-screen view (``/t/<id>?tv=1&kiosk=1``) of the table in play — the most recently changed
table that is not finished, else the newest — so the kiosk's start-up URL never needs editing.  With no
table yet it waits on a page that looks again every 15 seconds.  The big screen opened from here asks
``/tv/follow`` every 10 seconds whether another table is now in play (the friends started a
new match) and then goes back to ``/tv``.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, redirect, request, url_for

from companion.web.api import get_store
from companion.web.views_base import render

bp = Blueprint("kiosk", __name__)

WAIT_SECONDS = 15


def in_play() -> str | None:
    """The code of the table a kiosk shows, or ``None`` when there is no table yet."""
    tables = get_store().list_tables()
    if not tables:
        return None
    playing = [t for t in tables if not t.finished] or tables
    return max(playing, key=lambda t: (t.updated_at, t.created_at)).id


@bp.get("/tv")
def tv() -> Response:
    chosen = in_play()
    if chosen is None:
        return render("kiosk.html", tv=True, wait=WAIT_SECONDS)
    return redirect(url_for("table.show", table_id=chosen, tv=1, kiosk=1), 303)


@bp.get("/tv/follow")
def follow() -> Response:
    """204 while ``table`` is still the one in play; else an htmx redirect back to ``/tv``."""
    current = request.args.get("table", "")[:16].upper()
    if in_play() in (None, current):
        return Response(status=204)
    response = Response(status=200)
    response.headers["HX-Redirect"] = url_for("kiosk.tv")
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
