"""Screenshots of the main pages at a phone (390×844) and a laptop (1366×900) viewport, and the big screen
(``?tv=1``) on a 1920×1080 TV.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

Starts the app with waitress on a temporary data dir, fills two tables (Okey and Okey 101) through the
table store, then drives Debian's headless Chromium through the pages.  Writes ``<page>-<viewport>.png``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from e2e.live import HIDE_HOST_CAMERA, LAPTOP, PHONE, chromium, live_server  # noqa: E402

from companion.store import TableStore  # noqa: E402

PIN = "1234"
PHOTO = ROOT / "tests" / "data" / "vision" / "real_table_16.jpg"  # CC BY 4.0, see tests/data/vision/README.md
"""A real photo of tiles ("rummikub-nvypk" by jonasbuehler, Roboflow Universe, CC BY 4.0); skipped if absent."""
VIEWPORTS = {"phone": PHONE, "laptop": LAPTOP}
TV = {"width": 1920, "height": 1080}


def fill_tables(database: Path) -> tuple[str, str, str]:
    """An Okey table two hands in (deal planned, indicator up, a gösterme), a 101 table of five hands
    four hands in (the subtotal line drawn, a penalty in the ledger) and a three-player deal."""
    with TableStore(database) as store:
        okey = store.create_table(game="okey", players=["Ayşe", "Bora", "Cem", "Derya"], pin=PIN,
                                  name="Cuma akşamı")
        for hand in (
            {"winner": 0, "tiles": "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12", "discard": "R5", "indicator": "R4"},
            {"winner": 2, "tiles": "Y3 Y4 Y5 B7 R7 K7 K1 K2 K3 K4 R10 R11 R12 R13", "discard": "B8", "indicator": "K10"},
        ):
            store.record(okey, {"type": "okey_hand", "hand": hand})
        store.record(okey, {"type": "deal", "dice": [5, 2]})
        store.record(okey, {"type": "indicator", "tile": "B12"})
        store.record(okey, {"type": "gosterme", "player": 1})

        game101 = store.create_table(game="okey101", players=["Ali", "Can", "Deniz", "Ece"], pin=PIN,
                                     options={"hands": 5}, name="101 – Kadıköy")
        hands = [
            (0, ["", "R5 K7", "B1", "Y3 Y9"], ["melds", "melds", None, "pairs"]),
            (2, ["K9 K10 B2", "Y1", "", "R13 R13"], ["melds", "melds", "melds", None]),
            (1, ["B4 B5", "", "K11 R2 R3", "Y7"], ["melds", "melds", "melds", "melds"]),
            (3, ["R12 B12", "K2", "Y5 Y6 R5", ""], ["melds", None, "melds", "melds"]),
        ]
        for finisher, racks, opened in hands:
            if finisher == 2:
                store.record(game101, {"type": "penalty", "player": 3, "reason": "islek"})
            store.record(game101, {"type": "okey101_hand", "hand": {
                "indicator": "R4", "finisher": finisher,
                "players": [{"opened": o, "rack": r} for o, r in zip(opened, racks)],
            }})
        store.record(game101, {"type": "deal", "dice": [3, 4]})
        store.record(game101, {"type": "indicator", "tile": "Y8"})
        three = store.create_table(game="okey", players=["Ece", "Fikret", "Gül"], pin=PIN, name="Üç kişi")
        store.record(three, {"type": "deal", "dice": [6, 3]})
    return okey, game101, three


def shoot(page: Any, out: Path, name: str, tag: str) -> None:
    page.wait_for_timeout(150)
    page.screenshot(path=str(out / f"{name}-{tag}.png"), full_page=True)


def unlock(page: Any, base: str, table: str) -> None:
    page.goto(f"{base}/t/{table}")
    page.fill("[name=pin]", PIN)
    page.get_by_role("button", name="Enter").click()


def run(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        okey, game101, three = fill_tables(data / "tables.sqlite")
        with live_server(data) as base, chromium() as browser:
            for tag, viewport in VIEWPORTS.items():
                context = browser.new_context(viewport=viewport, locale="en-US")
                if tag == "phone":  # served from this machine, but a phone never sees the host's camera button
                    context.add_init_script(HIDE_HOST_CAMERA)
                page = context.new_page()
                page.goto(base + "/")
                shoot(page, out, "home", tag)
                page.goto(f"{base}/t/{okey}")
                shoot(page, out, "table-viewer", tag)
                unlock(page, base, okey)
                shoot(page, out, "table-okey", tag)
                page.goto(f"{base}/t/{okey}/deal")
                shoot(page, out, "deal", tag)
                unlock(page, base, three)
                page.goto(f"{base}/t/{three}/deal")
                shoot(page, out, "deal-3-players", tag)
                page.goto(f"{base}/t/{okey}/win")
                page.locator("label:has(input[name=winner][value='3'])").click()
                page.fill("[name=tiles]", "R1 R2 R3 K5 Y5 B5 B9 B10 B11 B12 K10 K11 K12 K13")
                page.fill("[name=discard]", "K1")
                page.get_by_role("button", name="Check").click()
                page.wait_for_selector("#verdict .flash, #verdict .error")
                shoot(page, out, "win", tag)
                if PHOTO.exists():
                    page.goto(f"{base}/t/{okey}/win")
                    page.locator("#picker-tiles input[type=file]").set_input_files(str(PHOTO))
                    page.wait_for_selector("#picker-tiles-photo .photo-result, #picker-tiles-photo .error",
                                           timeout=60_000)
                    page.locator("#picker-tiles-photo").scroll_into_view_if_needed()
                    shoot(page, out, "photo", tag)
                unlock(page, base, game101)
                shoot(page, out, "table-101", tag)
                page.goto(f"{base}/t/{game101}/hand")
                shoot(page, out, "hand-101", tag)
                page.locator("label:has(input[name=finisher][value='0'])").click()
                page.get_by_role("link", name="Next: Ali").click()
                page.get_by_role("link", name="Next: Can").click()
                page.locator("label:has(input[name=opened1][value=melds])").click()
                for code in ("R5", "K7", "B2", "B2"):
                    page.locator(f"#picker-rack1 [data-tile={code}]").click()
                page.wait_for_selector("#verdict table", state="attached")
                shoot(page, out, "hand-101-player", tag)
                page.goto(f"{base}/t/{game101}/opening")
                page.fill("[name=melds]", "R10 R11 R12 R13\nK13 Y13 B13\nB9 B10 B11\nK5 K5 B5")
                page.get_by_role("button", name="Check the opening").click()
                page.wait_for_selector("#verdict ol")
                shoot(page, out, "opening", tag)
                page.goto(f"{base}/t/{game101}/history")
                shoot(page, out, "history", tag)
                if tag == "laptop":
                    page.goto(f"{base}/t/{game101}?tv=1")
                    shoot(page, out, "big-screen", tag)
                    page.goto(f"{base}/t/{game101}/sheet")
                    page.emulate_media(media="print")
                    shoot(page, out, "print", tag)
                    page.emulate_media(media="screen")
                context.close()
            context = browser.new_context(viewport=TV, locale="en-US")
            page = context.new_page()
            for name, table in (("big-screen-101", game101), ("big-screen-okey", okey)):
                page.goto(f"{base}/t/{table}?tv=1")
                page.wait_for_timeout(150)
                page.screenshot(path=str(out / f"{name}-tv.png"))  # the TV's one screen, not the full page
            context.close()
            for lang, url in (("tr", f"/t/{okey}"), ("th", "/"), ("ru", f"/t/{game101}")):
                context = browser.new_context(viewport=PHONE, locale=lang)
                context.add_init_script(HIDE_HOST_CAMERA)
                page = context.new_page()
                page.goto(base + url)
                shoot(page, out, f"lang-{lang}", "phone")
                context.close()
            context = browser.new_context(viewport=PHONE, locale="en-US", color_scheme="dark")
            context.add_init_script(HIDE_HOST_CAMERA)
            page = context.new_page()
            unlock(page, base, okey)
            page.goto(f"{base}/t/{okey}/deal")
            shoot(page, out, "dark-deal", "phone")
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    run(parser.parse_args().out)


if __name__ == "__main__":
    main()
