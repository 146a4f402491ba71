"""Benchmark a long table: recording a hand and serving its pages at hand 5 and at hand 500.

    .venv/bin/python scripts/bench_tables.py            # hands 5 and 500
    .venv/bin/python scripts/bench_tables.py --hands 5 50 500

An Okey table (start 10,000 points so the match lasts) gets its hands through the store, as the app records
them (deal, indicator, win: three events a hand).  At each size it times, through Flask's test client
(one store per request, as in the app): recording one hand's three events with the PIN header, the table
page, the sheet's JSON, the live part a watching phone fetches after a change, and the version poll.
``--replay`` also times the same with the kept state switched off: every request folds every event again,
as before issue 11.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from companion import store as store_module  # noqa: E402
from companion.store import TableStore  # noqa: E402
from companion.web import create_app  # noqa: E402

WIN = {"winner": 0, "tiles": "R1 R2 R3 R5 B7 Y7 K7 K9 K10 K11 K12 B5 Y5 F", "discard": "K1"}
PIN = {"X-Table-Pin": "1234"}
HAND = ({"type": "deal", "dice": [5, 2]}, {"type": "indicator", "tile": "R4"}, {"type": "okey_hand", "hand": WIN})


def _ms(call: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(hands: int, repeat: int, keep: bool) -> dict[str, float]:
    data = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    app = create_app({"DATA_DIR": str(data), "SECRET_KEY": "bench"})
    with TableStore(data / "tables.sqlite") as store:
        table_id = store.create_table(game="okey", players=["Ali", "Can", "Deniz", "Ece"], pin="1234",
                                      options={"start_points": 10_000})
        for _ in range(hands):
            for event in HAND:
                store.record(table_id, event)
    if not keep:
        store_module._KEPT.get = lambda *args: None  # type: ignore[method-assign]
    client = app.test_client()

    def version() -> int:
        return int(client.get(f"/api/tables/{table_id}/version").json["version"])

    def record_hand() -> None:
        for event in HAND:
            response = client.post(f"/api/tables/{table_id}/events", json=event, headers=PIN)
            assert response.status_code == 201, response.json

    def undo_redo() -> None:
        assert client.post(f"/api/tables/{table_id}/undo", headers=PIN).status_code == 200
        assert client.post(f"/api/tables/{table_id}/redo", headers=PIN).status_code == 200

    figures = {
        "record one hand (3 events)": _ms(record_hand, repeat),
        "undo + redo": _ms(undo_redo, repeat),
        "table page": _ms(lambda: client.get(f"/t/{table_id}"), repeat),
        "sheet JSON": _ms(lambda: client.get(f"/api/tables/{table_id}/sheet"), repeat),
        "live part after a change": _ms(lambda: client.get(f"/t/{table_id}/version?since={version() - 1}",
                                                           headers={"HX-Request": "true"}), repeat),
        "version poll (no change)": _ms(lambda: client.get(f"/t/{table_id}/version?since={version()}",
                                                           headers={"HX-Request": "true"}), repeat),
    }
    if not keep:
        del store_module._KEPT.get  # back to the class's method
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[5, 500])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--replay", action="store_true", help="also time every request folding every event")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {args.repeat} (ms)")
    modes = [("kept state", True)] + ([("full replay", False)] if args.replay else [])
    for label, keep in modes:
        results = {hands: measure(hands, args.repeat, keep) for hands in args.hands}
        print(f"{label}: " + "  ".join(f"{'hand ' + str(h):>10}" for h in args.hands))
        for name in results[args.hands[0]]:
            print(f"  {name:<28}" + "  ".join(f"{results[h][name]:10.1f}" for h in args.hands))


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
