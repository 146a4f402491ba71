"""Every page names a table the same way (issue 12): a table without a given name is called by its game in the
reader's language and today's player names, so a rename or another language shows on every page alike."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.rules.registry import games
from companion.store import TableStore


def _title(html: str, part: int = -1) -> str:
    """The table's part of a page's <title>: "<table> · Okey companion" or "<page> · <table>"."""
    return unescape(re.search(r"<title>(.*?)</title>", html, re.S).group(1)).split(" · ")[part].strip()


@pytest.mark.parametrize("lang", ["ru", "th"])
@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.id)
def test_every_page_of_a_table_shows_its_title_in_the_readers_words(
    client: FlaskClient, store: TableStore, spec: object, lang: str
) -> None:
    seats = min(spec.players)  # type: ignore[attr-defined]
    table = store.create_table(game=spec.id, players=["Ali", "Can", "Eda", "Gül"][:seats], pin="1357")  # type: ignore[attr-defined]
    store.record(table, {"type": "rename", "player": 1, "name": "Cem"})
    with client.session_transaction() as session:
        session["pins"] = {table: True}
    client.set_cookie("lang", lang)
    expected = _title(client.get(f"/t/{table}").text, 0)
    assert "Cem" in expected and "Can" not in expected
    for path in ("/hand", "/laydown", "/opening", "/history", "/deal", "/win"):
        page = client.get(f"/t/{table}{path}")
        if page.status_code != 200:
            continue  # not a page of this game
        assert _title(page.text) == expected, path
