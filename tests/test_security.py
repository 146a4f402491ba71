"""Security (issue 11): CSRF on cookie-authenticated API calls, the host-only camera against DNS rebinding,
security headers, private files, the secret key, and the PIN limiter under concurrent guessers."""

from __future__ import annotations

import os
import stat
import threading
import time

import pytest

from companion import store as store_module
from companion.web import create_app

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
TOKEN = "security-token"


@pytest.fixture
def keeper(client):
    """The scorekeeper's browser: it created the table, so its session cookie holds the PIN."""
    response = client.post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234"})
    assert response.status_code == 201
    table_id = response.json["id"]
    assert client.post(f"/api/tables/{table_id}/events", json={"type": "rename", "player": 0, "name": "Ayşe"}).status_code == 201
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return client, table_id


def _players(client, table_id):
    return client.get(f"/api/tables/{table_id}").json["players"]


@pytest.mark.parametrize("route", ["undo", "redo", "events"])
def test_csrf_a_cross_site_form_cannot_use_the_session_pin(keeper, route):
    client, table_id = keeper
    if route == "redo":
        assert client.post(f"/api/tables/{table_id}/undo", headers={"X-CSRF-Token": TOKEN}).status_code == 200
    before = client.get(f"/api/tables/{table_id}/events").json
    # what <form method=post action=…> from another site sends: a form body (or none), the site's Origin
    for kwargs in ({}, {"data": {"type": "rename"}}, {"data": "{}", "content_type": "text/plain"},
                   {"headers": {"Origin": "http://evil.example"}}):
        response = client.post(f"/api/tables/{table_id}/{route}", **kwargs)
        assert response.status_code == 403, (kwargs, response.json)
        assert "CSRF" in response.json["error"] or "X-CSRF-Token" in response.json["error"]
    # JSON from another origin (a preflight-free fetch is impossible, but a lax proxy might let it through)
    response = client.post(f"/api/tables/{table_id}/{route}", json={"type": "rename", "player": 0, "name": "X"},
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert client.get(f"/api/tables/{table_id}/events").json == before, "nothing recorded"


def test_csrf_same_origin_json_or_the_token_header_still_work(keeper):
    client, table_id = keeper
    assert client.post(f"/api/tables/{table_id}/undo", headers={"X-CSRF-Token": TOKEN}).status_code == 200
    assert client.post(f"/api/tables/{table_id}/redo", json={}, headers={"Origin": "http://localhost"}).status_code == 200
    assert _players(client, table_id)[0] == "Ayşe"
    assert client.post(f"/api/tables/{table_id}/undo", json={}).status_code == 200, "a script without Origin"


def test_csrf_the_pin_header_needs_no_token(app, keeper):
    _, table_id = keeper
    stranger = app.test_client()
    assert stranger.post(f"/api/tables/{table_id}/undo", headers={"X-Table-Pin": "1234"}).status_code == 200


def test_session_cookie_is_samesite_lax_and_httponly(client):
    response = client.post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234"})
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie


@pytest.mark.parametrize("path", ["/", "/api/tables", "/static/app.css", "/no-such-page"])
def test_security_headers_on_every_response(client, path):
    headers = client.get(path).headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "same-origin"


# -- DNS rebinding: the host camera checks the Host header as well as the peer address ----------------------


@pytest.fixture
def host_page(app, client, monkeypatch):
    from vision import camera as camera_module

    captured: list[int] = []

    def fake_capture(device: int = 0, **_: object) -> bytes:
        captured.append(device)
        raise camera_module.CameraError("no camera in the test")

    monkeypatch.setattr(camera_module, "capture_jpeg", fake_capture)
    table_id = client.post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234"}).json["id"]
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    cookie = client.get_cookie("session")
    assert cookie is not None

    browser = app.test_client(use_cookies=False)  # sends the cookie whatever the host name

    def post(host: str):
        return browser.post(f"/t/{table_id}/camera", data={"csrf_token": TOKEN},
                           headers={"Host": host, "Cookie": f"session={cookie.value}"},
                           environ_base={"REMOTE_ADDR": "127.0.0.1"})

    return post, captured


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "localhost"])
def test_host_camera_accepts_loopback_names(host_page, host):
    post, captured = host_page
    response = post(host)
    assert response.status_code == 422 and captured == [0], "the camera was asked (and had no picture)"


@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "127.0.0.1.evil.example", "10.9.8.7:8000"])
def test_host_camera_refuses_a_rebound_host_name(host_page, host):
    post, captured = host_page
    response = post(host)
    assert response.status_code == 403 and captured == []


def test_host_camera_accepts_this_machines_own_lan_address(app, host_page):
    post, captured = host_page
    app.config["LAN_URLS"] = ["http://192.168.1.23:8000/"]
    response = post("192.168.1.23:8000")
    assert response.status_code == 422 and captured == [0]


# -- files ---------------------------------------------------------------------------------------------


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_files_data_dir_database_and_secret_key_are_private(tmp_path):
    data = tmp_path / "fresh"
    old = os.umask(0o022)
    try:
        create_app({"TESTING": True, "DATA_DIR": str(data)})
        from companion.store import TableStore

        TableStore(data / "tables.sqlite").close()
    finally:
        os.umask(old)
    assert _mode(data) == 0o700
    assert _mode(data / "secret_key") == 0o600
    assert _mode(data / "tables.sqlite") == 0o600


def test_files_are_created_with_the_mode_not_chmodded_after(tmp_path, monkeypatch):
    """No window in which the key or the database is world-readable: nothing is chmod-ed after writing."""
    chmods: list[str] = []
    monkeypatch.setattr(os, "chmod", lambda path, *a, **k: chmods.append(str(path)))
    from pathlib import Path

    monkeypatch.setattr(Path, "chmod", lambda self, *a, **k: chmods.append(str(self)))
    old = os.umask(0o022)
    try:
        create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "d")})
        from companion.store import TableStore

        TableStore(tmp_path / "d" / "tables.sqlite").close()
    finally:
        os.umask(old)
    assert _mode(tmp_path / "d" / "secret_key") == 0o600 and _mode(tmp_path / "d" / "tables.sqlite") == 0o600
    assert chmods == []


@pytest.mark.parametrize("content", ["", "  \n"])
def test_files_an_empty_secret_key_is_a_clear_error(tmp_path, content):
    (tmp_path / "secret_key").write_text(content)
    with pytest.raises(ValueError, match="secret_key.*empty"):
        create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_files_an_unreadable_secret_key_is_a_clear_error(tmp_path):
    key = tmp_path / "secret_key"
    key.write_text("x" * 64)
    key.chmod(0)
    with pytest.raises(ValueError, match="cannot read.*secret_key"):
        create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})


# -- PIN limiter: concurrent guessers get no more than PIN_TRIES evaluations a minute --------------------


def test_pin_limiter_is_atomic_under_concurrent_guessers(app, monkeypatch):
    table_id = app.test_client().post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234"}).json["id"]
    evaluated: list[str] = []
    real = store_module._pin_matches

    def slow_matches(pin: str, stored: str) -> bool:
        evaluated.append(pin)
        time.sleep(0.05)  # PBKDF2 takes a while: guessers overlap
        return real(pin, stored)

    monkeypatch.setattr(store_module, "_pin_matches", slow_matches)
    start = threading.Barrier(16)
    codes: list[int] = []

    def guess(n: int) -> None:
        guesser = app.test_client()
        start.wait()
        codes.append(guesser.post(f"/api/tables/{table_id}/undo", headers={"X-Table-Pin": f"{n:04d}"}).status_code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(evaluated) == 5, evaluated
    assert sorted(codes) == [403] * 5 + [429] * 11


def test_pin_limiter_a_right_pin_is_not_counted(app):
    table_id = app.test_client().post("/api/tables", json={"game": "okey", "players": PLAYERS, "pin": "1234"}).json["id"]
    guesser = app.test_client()
    for _ in range(10):
        response = guesser.post(f"/api/tables/{table_id}/events", json={"type": "rename", "player": 0, "name": "A"},
                                headers={"X-Table-Pin": "1234"})
        assert response.status_code in (200, 201, 422)
    assert guesser.post(f"/api/tables/{table_id}/undo", headers={"X-Table-Pin": "9999"}).status_code == 403


# -- CSV exports ----------------------------------------------------------------------------------------


def test_csv_formula_injection_is_quoted(client):
    players = ["=HYPERLINK(\"http://x\")", "+1", "@SUM(A1)", "-2+3"]
    table_id = client.post("/api/tables", json={"game": "okey101", "players": players, "pin": "1234",
                                                "name": "=cmd|' /C calc'!A0"}).json["id"]
    client.post(f"/api/tables/{table_id}/events", json={"type": "penalty", "player": 0, "reason": "islek"})
    text = client.get(f"/api/tables/{table_id}/export.csv").get_data(as_text=True)
    import csv as csv_module
    import io

    cells = [cell for row in csv_module.reader(io.StringIO(text)) for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@") or (cell[:1] == "-" and not cell[1:].isdigit())]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'+1" in cells and "'@SUM(A1)" in cells
    assert "101" in cells, "numbers stay numbers"
