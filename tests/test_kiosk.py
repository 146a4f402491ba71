"""``/tv`` (issue 13): the fixed address of a kiosk screen at the table shows the table in play, big."""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from companion.store import TableStore


def test_tv_waits_for_a_table(client: FlaskClient) -> None:
    response = client.get("/tv")
    assert response.status_code == 200 and '<meta http-equiv="refresh" content="15">' in response.text
    assert 'class="tv"' in response.text and "No table yet" in response.text
    client.set_cookie("lang", "th")
    assert "ยังไม่มีโต๊ะ" in client.get("/tv").text


def test_tv_shows_the_table_in_play_on_the_big_screen(client: FlaskClient, store: TableStore) -> None:
    first = store.create_table(game="okey", players=["Ali", "Can"], pin="1234")
    time.sleep(0.01)
    second = store.create_table(game="okey101", players=["Ali", "Can", "Eda"], pin="1234")
    response = client.get("/tv")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{second}?tv=1&kiosk=1")
    time.sleep(1.1)  # stamps have a second's resolution
    store.record(first, {"type": "rename", "player": 1, "name": "Cem"})
    assert client.get("/tv").headers["Location"].endswith(f"/t/{first}?tv=1&kiosk=1"), "the one changed last"
    page = client.get(f"/t/{first}?tv=1")
    assert page.status_code == 200 and 'class="tv"' in page.text


def test_the_kiosk_screen_follows_a_new_table(client: FlaskClient, store: TableStore) -> None:
    first = store.create_table(game="okey", players=["Ali", "Can"], pin="1234")
    page = client.get(f"/t/{first}?tv=1&kiosk=1")
    assert page.status_code == 200 and f'/tv/follow?table={first}' in page.text
    assert "/tv/follow" not in client.get(f"/t/{first}?tv=1").text, "only the kiosk's screen moves by itself"
    assert client.get(f"/tv/follow?table={first}").status_code == 204
    assert client.get(f"/tv/follow?table={first.lower()}").status_code == 204
    time.sleep(1.1)  # stamps have a second's resolution
    store.create_table(game="okey101", players=["Ali", "Can", "Eda"], pin="1234")
    moved = client.get(f"/tv/follow?table={first}")
    assert moved.status_code == 200 and moved.headers["HX-Redirect"] == "/tv"
    assert client.get("/tv/follow?table=" + "X" * 5000).headers["HX-Redirect"] == "/tv", "a long code is no error"
