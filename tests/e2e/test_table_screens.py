"""Phones and screens at a real table (issue 12), in Debian's headless Chromium: what a viewer sees first,
no sideways scrolling at 360 px in any language, the big screen at 1920×1080, the wrong-PIN message,
the 101 end-of-hand form, the deal drawing, past tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store import TableStore
from e2e.live import CHROMIUM, live_server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

PIN = "2468"
WIN = "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"
LANGUAGES = ("en", "tr", "ru", "th")


def _okey_hand(winner: int) -> dict[str, Any]:
    return {"type": "okey_hand", "hand": {"winner": winner, "tiles": WIN, "discard": "Y8", "indicator": "R4"}}


def _hand101(finisher: int) -> dict[str, Any]:
    racks = ["R5 K7", "B1 B2 B3", "Y13 K13", "R9"]
    return {"type": "okey101_hand", "hand": {"indicator": "R4", "finisher": finisher, "players": [
        {"opened": "melds", "rack": "" if seat == finisher else racks[seat]} for seat in range(4)]}}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    data = Path(tmp_path_factory.mktemp("screens"))
    with TableStore(data / "tables.sqlite") as store:
        okey = store.create_table(game="okey", players=["Ayşe", "Bora", "Cem", "Işıl"], pin=PIN)
        for winner in (0, 2):
            store.record(okey, _okey_hand(winner))
        store.record(okey, {"type": "deal", "dice": [5, 2]})
        store.record(okey, {"type": "indicator", "tile": "B12"})
        eleven = store.create_table(game="okey101", players=["Aleksandra", "Bartholomew", "Konstantin", "Işıl"],
                                    pin=PIN, options={"hands": 11})
        for number in range(11):
            if number == 3:
                store.record(eleven, {"type": "penalty", "player": 1, "reason": "islek"})
            store.record(eleven, _hand101(number % 4))
        ten = store.create_table(game="okey101", players=["Ali", "Can", "Deniz", "Ece"], pin=PIN,
                                 options={"hands": 11})
        for number in range(10):
            store.record(ten, _hand101(number % 4))
        store.record(ten, {"type": "deal", "dice": [3, 4]})
        store.record(ten, {"type": "indicator", "tile": "Y8"})
        store.record(ten, {"type": "penalty", "player": 2, "reason": "take_back"})
    with live_server(data) as url:
        yield {"url": url, "okey": okey, "eleven": eleven, "ten": ten}


def _page(browser: Any, url: str, width: int, height: int, lang: str = "en") -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US", has_touch=True)
    context.add_cookies([{"name": "lang", "value": lang, "url": url}])
    context.set_default_timeout(10_000)
    return context.new_page()


def _unlock(page: Any, url: str, table: str) -> None:
    page.goto(f"{url}/t/{table}")
    page.fill("#pin [name=pin]", PIN)
    page.locator("#pin button").click()


def test_a_viewers_first_screen_shows_the_totals_and_the_last_hand(tables: dict[str, str], browser: Any) -> None:
    page = _page(browser, tables["url"], 390, 844)
    page.goto(f"{tables['url']}/t/{tables['okey']}")
    totals = page.locator(".scores-big").bounding_box()
    last = page.locator(".last-hand").bounding_box()
    assert totals["y"] + totals["height"] <= 844, totals
    assert last["y"] + last["height"] <= 844, last
    assert "Cem won with melds" in page.locator(".last-hand").inner_text()
    assert page.locator("svg.table-pic").bounding_box()["y"] > last["y"], "the seat picture comes after"
    page.context.close()


SIDEWAYS_JS = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_scrolls_sideways_at_360px_and_the_top_bar_is_one_line(
    tables: dict[str, str], browser: Any, lang: str
) -> None:
    url = tables["url"]
    page = _page(browser, url, 360, 740, lang)
    for table in ("okey", "ten"):
        _unlock(page, url, tables[table])
    okey, ten = tables["okey"], tables["ten"]
    for path in ("/", f"/t/{okey}", f"/t/{okey}/deal", f"/t/{okey}/win", f"/t/{okey}/history", f"/t/{ten}",
                 f"/t/{ten}/hand", f"/t/{ten}/opening", f"/t/{ten}/sheet", f"/t/{ten}?tv=1",
                 f"/t/{tables['eleven']}"):
        page.goto(url + path)
        assert page.evaluate(SIDEWAYS_JS) <= 0, (lang, path)
        if "tv=1" not in path:
            assert page.locator(".topbar").bounding_box()["height"] <= 62, (lang, path, "top bar wrapped")
    page.context.close()


@pytest.mark.parametrize("table", ["eleven", "ten"])
def test_big_screen_fits_1920x1080_with_11_hands_readable_from_3m(
    tables: dict[str, str], browser: Any, table: str
) -> None:
    page = _page(browser, tables["url"], 1920, 1080)
    page.goto(f"{tables['url']}/t/{tables[table]}?tv=1")
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 1080
    rows = page.locator("table.sheet").first.locator("tbody tr")
    assert rows.count() >= 12
    for row in rows.all():
        box = row.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 1080
    cell_px = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('table.sheet td')).fontSize)")
    assert cell_px >= 26, cell_px
    total_px = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.scores-big b')).fontSize)")
    assert total_px >= 56, total_px
    label = page.locator("svg.chart text").first.bounding_box()
    assert label["height"] >= 20, "the chart's labels are read from across the room"
    if table == "eleven":
        expect_text = page.locator(".why-end").inner_text()
        assert "lowest total wins" in expect_text and "H8" in expect_text
    page.context.close()


def test_the_wrong_pin_message_is_where_the_eye_is(tables: dict[str, str], browser: Any) -> None:
    page = _page(browser, tables["url"], 390, 844)
    page.goto(f"{tables['url']}/t/{tables['eleven']}")
    page.locator("#pin").scroll_into_view_if_needed()
    page.fill("#pin [name=pin]", "0000")
    page.locator("#pin button").click()
    message = page.get_by_role("alert")
    box = message.bounding_box()
    scroll = page.evaluate("() => window.scrollY")
    assert scroll <= box["y"] + scroll <= scroll + 844 - box["height"], (box, scroll)
    assert "Wrong PIN" in message.inner_text()
    assert page.evaluate("() => document.activeElement.name") == "pin"
    page.context.close()
