"""Benchmark the Rummikub lay-down assistant against the ``rummikub-solver`` package (PyPI, MIT).

Both solve the same seeded positions: a valid table of 12-80 tiles built from random melds (runs,
sets, now and then a joker) and a rack of 10-25 of the tiles left, plus "full" positions where
every one of the 106 tiles is on the table or the rack.  For each position: the wall time of each
solver for the most tiles and the most points, and whether its answer reaches the true optimum.
The true optimum is ours (HiGHS proves it, mip_rel_gap 0); the script counts, and reports, any
position where the package beats it (none means ours was never beaten), and checks every answer
of ours for legal melds and tile conservation.  Points are counted as R6 counts them (joker 30).

    pip install -e '.[bench]'
    nice -n 19 python scripts/bench_rummikub.py --positions 300 --full 30 > /tmp/bench_rummikub.txt
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.rules.rummikub import check_meld  # noqa: E402
from companion.rules.rummikub_laydown import lay_down  # noqa: E402
from companion.rules.tiles import COLOURS, JOKER, Tile, parse_tile  # noqa: E402


def full_set() -> list[Tile]:
    return [Tile(c, n) for c in COLOURS for n in range(1, 14) for _ in range(2)] + [JOKER, JOKER]


def random_meld(rng: random.Random, pool: list[Tile]) -> list[Tile] | None:
    """A random legal meld taken out of ``pool`` (a run of 3-7 or a set of 3-4, sometimes a joker)."""
    for _ in range(60):
        joker = 1 if JOKER in pool and rng.random() < 0.2 else 0
        if rng.random() < 0.45:
            number = rng.randint(1, 13)
            colours = [c for c in COLOURS if Tile(c, number) in pool]
            size = rng.choice((3, 3, 4))
            if len(colours) < size - joker:
                continue
            meld = [Tile(c, number) for c in rng.sample(colours, size - joker)] + [JOKER] * joker
        else:
            length = rng.choice((3, 3, 4, 4, 5, 6, 7))
            colour, start = rng.choice(COLOURS), rng.randint(1, 14 - length)
            meld = [Tile(colour, n) for n in range(start, start + length)]
            if joker:
                meld[rng.randrange(length)] = JOKER
            if any(t not in pool for t in meld if not t.is_joker):
                continue
        for tile in meld:
            pool.remove(tile)
        return meld
    return None


def position(rng: random.Random, table_size: int, rack_size: int | None) -> tuple[list[Tile], list[Tile]]:
    """A valid table of about ``table_size`` tiles and a rack (``None``: every tile left, a full position)."""
    pool = full_set()
    rng.shuffle(pool)
    table: list[Tile] = []
    misses = 0
    while len(table) < table_size and misses < 30:
        meld = random_meld(rng, pool)
        if meld is None:
            misses += 1
        else:
            table += meld
    rng.shuffle(pool)
    return table, pool if rack_size is None else pool[:rack_size]


def points(tiles: list[Any]) -> int:
    return sum(30 if t.is_joker else t.number for t in tiles)


class Theirs:
    """``rummikub-solver`` with its default ruleset (Sabra rules; SciPy/HiGHS backend)."""

    def __init__(self) -> None:
        from rummikub_solver import RuleSet, SolverMode

        self.rules = RuleSet()
        self.modes = {"tiles": SolverMode.TILE_COUNT, "points": SolverMode.TOTAL_VALUE}
        self.tiles = self.rules.tiles

    def convert(self, tile: Tile) -> Any:
        if tile.is_joker:
            return self.tiles[-1]
        return self.tiles["KBYR".index(tile.code[0]) * 13 + tile.number - 1]

    def back(self, tile: Any) -> Tile:
        if int(tile) == len(self.tiles):
            return JOKER
        index = int(tile) - 1
        return parse_tile(f"{'KBYR'[index // 13]}{index % 13 + 1}")

    def solve(self, table: list[Tile], rack: list[Tile], goal: str) -> list[Tile]:
        state = self.rules.new_game()
        state.add_table(*map(self.convert, table))
        state.add_rack(*map(self.convert, rack))
        state.initial = False
        found = self.rules.solve(state, self.modes[goal])
        return [self.back(t) for t in found.tiles] if found else []


def ours(table: list[Tile], rack: list[Tile], goal: str) -> list[Tile]:
    result = lay_down(table, rack, goal=goal)  # type: ignore[arg-type]
    for meld in result.melds:
        assert check_meld(meld.tiles).valid, meld
    assert Counter(t for m in result.melds for t in m.tiles) == Counter(table) + Counter(result.placed)
    return list(result.placed)


def timed(solver: Callable[[list[Tile], list[Tile], str], list[Tile]], *args: Any) -> tuple[list[Tile], float, float]:
    """The answer, the wall time and the process CPU time (all threads): on a shared machine the
    wall time also counts the waits for a core, the CPU time does not."""
    started, cpu = time.perf_counter(), time.process_time()
    answer = solver(*args)
    return answer, time.perf_counter() - started, time.process_time() - cpu


def stats(times: list[float]) -> dict[str, float]:
    return {"median_ms": 1000 * statistics.median(times), "mean_ms": 1000 * statistics.mean(times),
            "worst_ms": 1000 * max(times)}


def summary(wall: list[float], cpu: list[float]) -> str:
    w, c = stats(wall), stats(cpu)
    return (f"wall median {w['median_ms']:.0f} / mean {w['mean_ms']:.0f} / worst {w['worst_ms']:.0f} ms; "
            f"CPU {c['median_ms']:.0f} / {c['mean_ms']:.0f} / {c['worst_ms']:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--full", type=int, default=20, help="full 106-tile positions")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()

    theirs = Theirs()
    rng = random.Random(args.seed)
    positions = [position(rng, rng.randint(12, 80), rng.randint(10, 25)) for _ in range(args.positions)]
    full = [position(rng, rng.randint(78, 92), None) for _ in range(args.full)]
    for table, rack in positions[:3]:   # warm up both (imports, set catalogues)
        for goal in ("tiles", "points"):
            ours(table, rack, goal)
            theirs.solve(table, rack, goal)

    raw: dict[str, Any] = {"positions": len(positions), "full": len(full), "seed": args.seed}
    for name, batch in (("positions", positions), ("full", full)):
        figures: dict[str, Any] = {}
        for goal in ("tiles", "points"):
            measure = len if goal == "tiles" else points
            times: dict[str, tuple[list[float], list[float]]] = {"ours": ([], []), "theirs": ([], [])}
            theirs_optimal = beaten = 0
            for table, rack in batch:
                mine, *mine_times = timed(ours, table, rack, goal)
                other, *other_times = timed(theirs.solve, table, rack, goal)
                for who, (wall, cpu) in (("ours", mine_times), ("theirs", other_times)):
                    times[who][0].append(wall)
                    times[who][1].append(cpu)
                best = measure(mine)
                theirs_optimal += measure(other) == best
                beaten += measure(other) > best
            optimal = {"ours": len(batch) - beaten, "theirs": theirs_optimal}
            figures[goal] = {who: {"wall": stats(times[who][0]), "cpu": stats(times[who][1]), "optimal": optimal[who]}
                             for who in times}
            print(f"{name} ({len(batch)}), most {goal}:")
            print(f"  ours:            {summary(*times['ours'])}; true optimum {optimal['ours']}/{len(batch)}"
                  + (f" — BEATEN {beaten} times" if beaten else ""))
            print(f"  rummikub-solver: {summary(*times['theirs'])}; true optimum {theirs_optimal}/{len(batch)}")
            sys.stdout.flush()
        raw[name] = figures
    sizes = [(len(t), len(r)) for t, r in full]
    print(f"full positions: table {min(s[0] for s in sizes)}-{max(s[0] for s in sizes)} tiles, "
          f"rack {min(s[1] for s in sizes)}-{max(s[1] for s in sizes)}")
    if args.json:
        args.json.write_text(json.dumps(raw, indent=2), encoding="utf-8")


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
