"""``/tv``: the one address a screen at the table opens (a Raspberry Pi's kiosk browser, a TV).

It shows the big-screen view (``/t/<id>?tv=1``) of the table in play — the most recently changed table
that is not finished, else the newest — so the kiosk's start-up URL never needs editing.  With no table
yet it waits on a page that looks again every 15 seconds.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, redirect, url_for

from companion.web.api import get_store
from companion.web.views_base import render

bp = Blueprint("kiosk", __name__)

WAIT_SECONDS = 15


@bp.get("/tv")
def tv() -> Response:
    tables = get_store().list_tables()
    if not tables:
        return render("kiosk.html", tv=True, wait=WAIT_SECONDS)
    playing = [t for t in tables if not t.finished] or tables
    chosen = max(playing, key=lambda t: (t.updated_at, t.created_at))
    return redirect(url_for("table.show", table_id=chosen.id, tv=1), 303)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
