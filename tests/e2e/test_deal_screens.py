"""The deal drawing in Debian's headless Chromium (issue 12): big on a laptop, read at arm's length — letters
and seat numbers of at least 16 px as rendered —, every takers label ("2+3+4+1") whole, inside the
drawing and clear of the other stacks and labels; on a 360 px phone it fits without sideways scrolling."""

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
NAMES = ["Ayşe", "Bora", "Cem", "Derya"]
DEALS = {  # game, players, first dealer, dice: every kind of shared stack and a label in a corner
    "okey-4": ("okey", 4, 0, [5, 2]),
    "okey-3": ("okey", 3, 1, [1, 3]),
    "okey-2": ("okey", 2, 0, [2, 2]),
    "okey101-4": ("okey101", 4, 0, [3, 4]),
    "okey101-3": ("okey101", 3, 0, [6, 3]),
    "okey_points-4": ("okey_points", 4, 3, [3, 3]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = Path(tmp_path_factory.mktemp("deal-screens"))
    tables = {}
    with TableStore(data / "tables.sqlite") as store:
        for name, (game, players, dealer, dice) in DEALS.items():
            tables[name] = store.create_table(game=game, players=NAMES[:players], pin=PIN, first_dealer=dealer)
            store.record(tables[name], {"type": "deal", "dice": dice})
    with live_server(data) as url:
        yield {"url": url, "tables": tables}


MEASURE = """() => {
  const svg = document.querySelector('svg.table-pic');
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const font = e => parseFloat(getComputedStyle(e).fontSize) * scale;
  return {
    svg: box(svg),
    sideways: document.documentElement.scrollWidth - window.innerWidth,
    letters: [...svg.querySelectorAll('text.stack-letter')].map(e => ({text: e.textContent, box: box(e), font: font(e)})),
    seats: [...svg.querySelectorAll('g:not(.takers) > text:first-of-type')].map(e => ({text: e.textContent, font: font(e)})),
    stacks: [...svg.querySelectorAll('rect.stack')].map(box),
    labels: [...svg.querySelectorAll('g.takers')].map(g => ({
      stack: g.dataset.stack, text: g.querySelector('text').textContent, font: font(g.querySelector('text')),
      box: box(g.querySelector('text')), pill: box(g.querySelector('rect'))})),
  };
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _inside(inner: list[float], outer: list[float]) -> bool:
    return all((outer[0] <= inner[0], outer[1] <= inner[1], inner[2] <= outer[2], inner[3] <= outer[3]))


@pytest.fixture(scope="module")
def page(server: dict[str, Any], browser: Any) -> Iterator[Any]:
    """The scorekeeper's browser, every table unlocked."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
    context.set_default_timeout(10_000)
    opened = context.new_page()
    for table in server["tables"].values():
        opened.goto(f"{server['url']}/t/{table}")
        opened.fill("#pin [name=pin]", PIN)
        opened.locator("#pin button").click()
    yield opened
    context.close()


@pytest.mark.parametrize(("width", "height"), [(1366, 900), (1920, 1080)])
def test_O2_the_deal_drawing_is_big_and_every_takers_label_is_whole_and_clear(
    server: dict[str, Any], page: Any, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    shared = set()
    for name, table in server["tables"].items():
        page.goto(f"{server['url']}/t/{table}/deal")
        drawn = page.evaluate(MEASURE)
        assert drawn["svg"][2] - drawn["svg"][0] >= 560, (name, drawn["svg"])
        assert drawn["svg"][3] <= height, (name, "the whole drawing on the first screen, the steps beside it")
        assert drawn["sideways"] <= 0, name
        assert drawn["letters"] and min(letter["font"] for letter in drawn["letters"]) >= 16, name
        assert min(seat["font"] for seat in drawn["seats"]) >= 16, name
        assert all(letter["box"][3] - letter["box"][1] >= 16 for letter in drawn["letters"]), name
        labels = drawn["labels"]
        assert labels and min(label["font"] for label in labels) >= 16, name
        for i, label in enumerate(labels):
            where = (name, label["stack"], label["text"])
            text, pill = label["box"], label["pill"]
            assert _inside(text, drawn["svg"]), where
            assert pill[0] <= text[0] and text[2] <= pill[2] and pill[1] <= (text[1] + text[3]) / 2 <= pill[3], where
            assert not any(_overlap(label["pill"], stack) for stack in drawn["stacks"]), where
            assert not any(_overlap(label["pill"], other["pill"]) for other in labels[i + 1:]), where
            shared.add(label["text"].count("+") + 1)
    assert shared == {1, 2, 3, 4}, "deals with one to four seats taking from a stack"


def test_O2_the_deal_page_fits_a_360px_phone_and_stays_readable(server: dict[str, Any], page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    for name in ("okey101-4", "okey-3"):
        page.goto(f"{server['url']}/t/{server['tables'][name]}/deal")
        drawn = page.evaluate(MEASURE)
        assert drawn["sideways"] <= 0, name
        assert drawn["svg"][0] >= 0 and drawn["svg"][2] <= 360, name
        assert min(letter["font"] for letter in drawn["letters"]) >= 14, name
        assert min(label["font"] for label in drawn["labels"]) >= 12, name
