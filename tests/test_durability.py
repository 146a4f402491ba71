"""Never lose a score: kill -9 the real server while phones post events, restart, and every event that was
acknowledged (201) is still there, in a database that passes ``PRAGMA integrity_check``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
WRITERS = 4
ACKED_BEFORE_KILL = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(base: str, path: str, body: dict | None = None, timeout: float = 5) -> tuple[int, object]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class Server:
    """``python -m waitress --call companion.web:create_app`` on a free port, data in ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "OKEY_COMPANION_DATA": str(data_dir)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "waitress", "--host=127.0.0.1", f"--port={port}", "--threads=8",
             "--call", "companion.web:create_app"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.process.stderr.read().decode()[-2000:]}")
            try:
                call(self.base, "/api/tables", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not answer within 20 s")

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process.stderr.close()


@pytest.mark.slow
def test_acknowledged_events_survive_kill_9(tmp_path):
    server = Server(tmp_path)
    try:
        status, created = call(server.base, "/api/tables", {
            "game": "okey101", "players": ["Ali", "Can", "Deniz", "Ece"], "pin": PIN})
        assert status == 201
        table_id = created["id"]
        acked: list[str] = []
        problems: list[tuple[str, int]] = []
        lock = threading.Lock()
        enough = threading.Event()

        def writer(seat: int) -> None:
            for n in range(10_000):
                event_id = f"w{seat}-{n}"
                event = ({"type": "rename", "player": seat, "name": f"P{seat}-{n}"} if n % 2 else
                         {"type": "penalty", "player": seat, "reason": "islek"})
                try:
                    status, _ = call(server.base, f"/api/tables/{table_id}/events", {"id": event_id, **event})
                except (OSError, http.client.HTTPException):
                    return
                with lock:
                    if status != 201:
                        problems.append((event_id, status))
                        return
                    acked.append(event_id)
                    if len(acked) >= ACKED_BEFORE_KILL:
                        enough.set()

        threads = [threading.Thread(target=writer, args=(seat,)) for seat in range(WRITERS)]
        for thread in threads:
            thread.start()
        assert enough.wait(timeout=20), f"only {len(acked)} events acknowledged in 20 s"
    finally:
        server.kill()
    for thread in threads:
        thread.join(timeout=10)
    with lock:
        acknowledged = set(acked)
    assert not problems

    database = tmp_path / "tables.sqlite"
    con = sqlite3.connect(database)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()

    server = Server(tmp_path)
    try:
        status, log = call(server.base, f"/api/tables/{table_id}/events")
        assert status == 200
        recorded = [event["id"] for event in log]
        assert acknowledged <= set(recorded), sorted(acknowledged - set(recorded))
        assert [event["seq"] for event in log] == list(range(1, len(log) + 1))
        status, version = call(server.base, f"/api/tables/{table_id}/version")
        assert version == {"version": len(log)}
        status, state = call(server.base, f"/api/tables/{table_id}")
        penalties = [r for r in recorded if r.startswith("w") and int(r.split("-")[1]) % 2 == 0]
        assert status == 200 and len(state["deal"]["penalties"]) == len(penalties)
        status, _ = call(server.base, f"/api/tables/{table_id}/events", {"type": "void_hand", "id": "after"})
        assert status == 201
    finally:
        server.kill()
