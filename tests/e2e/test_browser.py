"""End-to-end: a real waitress server and headless Chromium (Debian's, never downloaded).

One evening in a few taps: the scorekeeper creates a table, runs the deal assistant with the seed's dice,
taps in the indicator, declares a win with the tile picker; a second phone (another browser context)
sees the sheet change within three seconds, and again after an undo.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, LAPTOP, live_server, phone_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

WIN = "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12".split()
LIVE_TIMEOUT_MS = 3500


@dataclass(frozen=True)
class SeenTile:
    tile: str
    box: tuple[int, int, int, int]
    confidence: float
    low_confidence: bool
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeenPhoto:
    tiles: tuple[SeenTile, ...]
    warnings: tuple[str, ...]
    width: int
    height: int


class RackReader:
    """Stands in for ``vision.Recognizer``: reads the winning rack, unsure of its K12."""

    def recognize(self, data: bytes, table: bool = False) -> SeenPhoto:
        tiles = tuple(SeenTile(code, (10 + 60 * i, 20, 60 + 60 * i, 90), 0.42 if code == "K12" else 0.97,
                               code == "K12") for i, code in enumerate(WIN))
        return SeenPhoto(tiles, (), 860, 110)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data")), {"recognizer": RackReader()}) as url:
        yield url


SCRIPT_ERRORS: list[str] = []


@pytest.fixture(autouse=True)
def no_script_errors() -> Iterator[None]:
    """Every page's JavaScript must run without an uncaught error."""
    SCRIPT_ERRORS.clear()
    yield
    assert SCRIPT_ERRORS == []


def test_journey_deal_win_live_viewer_undo(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    keeper = phone_page(browser, SCRIPT_ERRORS)
    keeper.goto(server + "/")
    keeper.get_by_role("button", name="Switch light or dark mode").click()
    expect(keeper.locator("html")).to_have_attribute("data-theme", "dark")
    keeper.get_by_label("Language").select_option("tr")
    expect(keeper.locator("h1")).to_have_text("Yeni masa")
    keeper.get_by_label("Dil").select_option("en")
    expect(keeper.locator("html")).to_have_attribute("data-theme", "dark")
    for seat, name in enumerate(["Ayşe", "Bora", "Cem", "Derya"]):
        keeper.fill(f"[name=player{seat}]", name)
    keeper.fill("[name=pin]", "2468")
    keeper.get_by_role("button", name="Start the table").click()
    expect(keeper.locator("h1")).to_contain_text("Ayşe, Bora, Cem, Derya")
    table_url = keeper.url

    viewer = phone_page(browser, SCRIPT_ERRORS)
    viewer.goto(table_url)
    expect(viewer.locator(".pill")).to_have_text("read-only")
    expect(viewer.get_by_text("Scorekeeper")).to_have_count(0)

    keeper.get_by_role("link", name="Deal assistant").click()
    keeper.locator("label:has(input[name=die1][value='5'])").click()
    keeper.locator("label:has(input[name=die2][value='2'])").click()
    keeper.get_by_role("button", name="Use these dice").click()
    expect(keeper.locator("rect.stack.chosen")).to_have_count(1)
    expect(keeper.locator("ol.steps")).to_contain_text("Bora takes stack A.")

    picker = keeper.locator("#picker-indicator")
    picker.locator("[data-tile=R3]").click()
    picker.locator("[data-tile=R4]").click()  # a mistap is corrected by tapping the right tile: one tile only
    expect(picker.locator("[data-picker-text]")).to_have_value("R4")
    keeper.get_by_role("button", name="This is the indicator").click()
    expect(keeper.locator(".okey-strip")).to_contain_text("5")
    expect(viewer.locator(".okey-strip .tile.big").first).to_have_attribute("title", "R4", timeout=LIVE_TIMEOUT_MS)

    keeper.get_by_role("link", name="Declare a win").click()
    keeper.locator("label:has(input[name=winner][value='0'])").click()
    tiles = keeper.locator("#picker-tiles")
    for code in WIN:
        tiles.locator(f"[data-tile={code}]").click()
    expect(tiles.locator("[data-picker-count]")).to_have_text("14")
    for _ in range(3):  # a tap cycles a tile's count 1 → 2 → 0 → 1: a set holds two of each
        tiles.locator("[data-tile=K12]").click()
    expect(tiles.locator("[data-picker-count]")).to_have_text("14")
    keeper.locator("#picker-discard [data-tile=R5]").click()
    keeper.get_by_role("button", name="Check").click()
    expect(keeper.locator("#verdict")).to_contain_text("okey discarded: double")
    keeper.get_by_role("button", name="Record the hand").click()

    expect(keeper.locator("tr.total td")).to_have_text(["Total", "20", "16", "16", "16"])
    expect(viewer.locator("tr.total td")).to_have_text(["Total", "20", "16", "16", "16"], timeout=LIVE_TIMEOUT_MS)
    expect(viewer.locator(".status")).to_contain_text("Bora deals")

    keeper.get_by_role("button", name="Undo").click()
    expect(viewer.locator("tr.total td")).to_have_text(["Total", "20", "20", "20", "20"], timeout=LIVE_TIMEOUT_MS)
    expect(keeper.locator(".status")).to_contain_text("Ayşe deals")


def test_photo_unsure_tile_must_be_confirmed_then_groups_are_drawn(server: str, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    keeper = phone_page(browser, SCRIPT_ERRORS)
    keeper.goto(server + "/")
    keeper.fill("[name=player0]", "Ece")
    keeper.fill("[name=player1]", "Fikret")
    keeper.fill("[name=pin]", "1357")
    keeper.get_by_role("button", name="Start the table").click()
    table_url = keeper.url
    keeper.goto(table_url + "/deal")
    keeper.locator("#picker-indicator [data-picker-text]").fill("R4")
    keeper.get_by_role("button", name="This is the indicator").click()
    keeper.goto(table_url + "/win")
    keeper.locator("label:has(input[name=winner][value='1'])").click()

    photo = tmp_path / "rack.png"
    photo.write_bytes(bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"))
    keeper.locator("#picker-tiles input[type=file]").set_input_files(str(photo))
    result = keeper.locator("#picker-tiles-photo .photo-result")
    expect(result.locator("rect.box")).to_have_count(14)
    expect(result.locator("rect.box.low")).to_have_count(1)
    use = result.get_by_role("button", name="Use these tiles")
    expect(use).to_be_disabled()
    result.locator("[data-rec].low").click()
    expect(use).to_be_enabled()
    use.click()
    expect(keeper.locator("#picker-tiles [data-picker-count]")).to_have_text("14")

    keeper.locator("#picker-discard [data-tile=R5]").click()
    expect(keeper.locator("#verdict")).to_contain_text("Valid win")
    coloured = result.locator("rect.box[style*=stroke]")
    expect(coloured).to_have_count(14)


def test_101_hand_preview_record_and_opening_checker(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    keeper = phone_page(browser, SCRIPT_ERRORS)
    keeper.goto(server + "/")
    keeper.locator("label:has(input[name=game][value=okey101])").click()
    expect(keeper.locator("[name=opt_hands]")).to_have_count(1)
    for seat, name in enumerate(["Ali", "Can", "Deniz", "Ece"]):
        keeper.fill(f"[name=player{seat}]", name)
    keeper.fill("[name=pin]", "1010")
    keeper.get_by_role("button", name="Start the table").click()
    table_url = keeper.url
    keeper.goto(table_url + "/deal")
    keeper.locator("#picker-indicator [data-picker-text]").fill("R4")
    keeper.get_by_role("button", name="This is the indicator").click()

    keeper.goto(table_url + "/hand")  # a stepper on the phone: how the hand ended, each player, the scores
    keeper.locator("label:has(input[name=finisher][value='0'])").click()
    keeper.get_by_role("link", name="Next: Ali").click()
    expect(keeper.locator("input[name=opened0][value=melds]")).to_be_checked()  # whoever finished has opened
    keeper.get_by_role("link", name="Next: Can").click()
    keeper.locator("label:has(input[name=opened1][value=melds])").click()
    keeper.locator("#picker-rack1 [data-picker-text]").fill("R5 K7")
    keeper.get_by_role("link", name="Next: Deniz").click()
    keeper.fill("[name=sum2]", "1")
    keeper.locator("[name=sum2]").press("Enter")  # a phone's "Go" previews; it must not record half a hand
    expect(keeper).to_have_url(table_url + "/hand#hand-step-seat2")
    keeper.get_by_role("link", name="Next: Ece").click()
    keeper.locator("label:has(input[name=opened3][value=pairs])").click()
    keeper.locator("#picker-rack3 [data-tile=Y3]").click()
    keeper.locator("#picker-rack3 [data-tile=Y9]").click()
    keeper.get_by_role("link", name="Next: the scores").click()
    expect(keeper.locator("#verdict tbody tr")).to_have_count(4)
    expect(keeper.locator("#verdict tbody tr").nth(1)).to_contain_text("108")
    expect(keeper.locator("#verdict tbody tr").nth(3)).to_contain_text("24")
    keeper.get_by_role("button", name="Record the hand").click()
    expect(keeper.locator("tr.total td")).to_have_text(["Total", "-101", "108", "202", "24"])

    keeper.goto(table_url + "/opening")
    keeper.fill("[name=indicator]", "R4")  # the next hand has no indicator yet
    meld = keeper.locator("#meld-picker")
    for code in ("R10", "R11", "R12", "R13"):
        meld.locator(f"[data-tile={code}]").click()
    keeper.get_by_role("button", name="Add to the melds").click()
    expect(meld.locator("[data-picker-count]")).to_have_text("0")
    keeper.locator("#melds").press_sequentially("\nK13 Y13 B13\nB9 B10 B11")
    keeper.get_by_role("button", name="Check the opening").click()
    expect(keeper.locator("#verdict")).to_contain_text("Opens. Total 115 ≥ 101")


SMALL_TARGETS_JS = """() => {
  const small = [];
  for (const el of document.querySelectorAll('a, button, input, select, summary, label.button')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.type === 'hidden' || el.closest('.skip, .why')) continue;
    const label = (el.type === 'radio' || el.type === 'checkbox') && el.closest('label');
    const box = label ? label.getBoundingClientRect() : r;
    if (box.height < 43.5 || box.width < 43.5) small.push(`${el.tagName} "${(el.textContent || el.name).trim().slice(0, 24)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return small;
}"""


def test_phone_pages_fit_the_screen_with_44px_targets(server: str, browser: Any) -> None:
    """Found by playing the journeys on a 360-390 px phone: the tile picker and long selects ran off the
    screen, back links and sheet cells were 23-26 px tall, three seats were drawn outside the picture."""
    import json
    import urllib.request

    def table_with_a_hand(players: list[str], racks: list[str]) -> str:
        body = json.dumps({"game": "okey101", "players": players, "pin": "1212",
                           "name": "A table name long enough to stretch the rules profile list"}).encode()
        request = urllib.request.Request(server + "/api/tables", body, {"Content-Type": "application/json"})
        table = str(json.load(urllib.request.urlopen(request))["id"])
        hand = {"indicator": "R4", "finisher": 0,
                "players": [{"opened": "melds" if rack or seat == 0 else None, "rack": rack}
                            for seat, rack in enumerate(racks)]}
        event = json.dumps({"type": "okey101_hand", "hand": hand}).encode()
        urllib.request.urlopen(urllib.request.Request(f"{server}/api/tables/{table}/events", event, {
            "Content-Type": "application/json", "X-Table-Pin": "1212"}))
        return table

    table = table_with_a_hand(["İsmail", "Işık", "Deniz"], ["", "", "K13 K12 R5"])
    urllib.request.urlopen(urllib.request.Request(f"{server}/api/tables/{table}/events", json.dumps(
        {"type": "indicator", "tile": "K13"}).encode(), {"Content-Type": "application/json", "X-Table-Pin": "1212"}))
    for width, lang in ((360, "ru"), (390, "en")):  # Russian words are long: a narrow sheet, long labels
        context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US", has_touch=True)
        context.add_cookies([{"name": "lang", "value": lang, "url": server}])
        page = context.new_page()
        page.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
        page.goto(f"{server}/t/{table}")
        page.fill("#pin [name=pin]", "1212")
        page.locator("#pin button").click()
        page.locator("form[action$=penalty] button").click()
        for path in ("/", f"/t/{table}", f"/t/{table}/deal", f"/t/{table}/hand", f"/t/{table}/history",
                     f"/t/{table}?tv=1"):
            page.goto(server + path)
            if path == "/":
                page.locator("label:has(input[name=game][value=okey101])").click()
                page.locator("#options summary").click()
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (width, path, overflow)
            assert page.evaluate(SMALL_TARGETS_JS) == [], (width, path)
            bottoms = page.evaluate(
                "() => [...document.querySelectorAll('.okey-strip figure')].map(f => f.offsetTop + f.offsetHeight)")
            assert max(bottoms, default=0) - min(bottoms, default=0) <= 2, (width, path, "indicator, okey, false okey in a row")
            grids = page.evaluate("() => [...document.querySelectorAll('.picker-grid')].map(g => g.scrollWidth - g.clientWidth)")
            assert max(grids, default=0) <= 1, (width, path, "tile picker wider than its box")
        page.goto(f"{server}/t/{table}")
        picture = page.locator("svg.table-pic").bounding_box()
        for seat in page.locator("svg.table-pic rect.seat").all():
            box = seat.bounding_box()
            assert box["x"] >= picture["x"] - 1 and box["x"] + box["width"] <= picture["x"] + picture["width"] + 1
        context.close()
    big = browser.new_context(viewport=LAPTOP, locale="en-US")
    page = big.new_page()
    four = table_with_a_hand(["Ali", "Can", "Deniz", "Ece"], ["", "", "K13 K12 R5", "B1"])
    page.goto(f"{server}/t/{four}?tv=1")
    broken = page.evaluate("""() => [...document.querySelectorAll('.scores-big b')].filter(
        b => b.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(b).fontSize)).length""")
    assert broken == 0, "a total broke over two lines on the big screen"
    big.close()


def test_partners_ticked_shows_the_teams_on_the_seat_map(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = phone_page(browser, SCRIPT_ERRORS)
    page.goto(server + "/")
    marks = page.locator("svg.seat-map .team")
    hint = page.locator("[data-team-hint]")
    expect(marks).to_have_count(4)
    for mark in marks.all():
        expect(mark).to_be_hidden()
    expect(hint).to_be_hidden()
    page.fill("[name=player0]", "Ali")
    partners = page.locator("[name=opt_partners]")
    partners.check()
    expect(marks).to_have_text(["A", "B", "A", "B"])
    for mark in marks.all():
        expect(mark).to_be_visible()
    expect(hint).to_be_visible()
    colour = "() => getComputedStyle(document.querySelector('[data-seat-label=\"{}\"]')).fill"
    assert page.evaluate(colour.format(0)) == page.evaluate(colour.format(2)) != page.evaluate(colour.format(1))
    expect(page.locator("svg.seat-map [data-seat-label='0']")).to_have_text("Ali")
    partners.uncheck()
    expect(hint).to_be_hidden()
    expect(marks.first).to_be_hidden()
    page.locator("[name=profile]").select_option("partners")  # the rules fieldset is swapped, partners on
    expect(page.locator("[name=opt_partners]")).to_be_checked()
    expect(hint).to_be_visible()
    page.locator("label:has(input[name=game][value=okey101])").click()  # a new game: reference rules, no partners
    expect(page.locator("[name=opt_hands]")).to_have_count(1)
    expect(hint).to_be_hidden()


def test_an_open_why_cell_stays_open_across_the_live_update(server: str, browser: Any) -> None:
    import json
    import urllib.request

    from playwright.sync_api import expect

    def send(path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(server + path, json.dumps(body).encode(), {
            "Content-Type": "application/json", "X-Table-Pin": "4321"})
        return json.load(urllib.request.urlopen(request))

    table = send("/api/tables", {"game": "okey", "players": ["Ali", "Can", "Deniz", "Ece"], "pin": "4321"})["id"]
    events = f"/api/tables/{table}/events"
    send(events, {"type": "deal", "dice": [3, 4]})
    send(events, {"type": "indicator", "tile": "R4"})
    send(events, {"type": "okey_hand", "hand": {"winner": 1, "tiles": " ".join(WIN), "discard": "R5"}})

    viewer = phone_page(browser, SCRIPT_ERRORS)
    viewer.goto(f"{server}/t/{table}")
    cell = viewer.locator("#why-1-1")
    cell.locator("summary").click()
    expect(cell).to_have_attribute("open", "")
    viewer.evaluate("() => { document.getElementById('why-1-1').dataset.before = 'swap'; }")
    send(events, {"type": "deal", "dice": [2, 5]})
    send(events, {"type": "indicator", "tile": "K13"})
    expect(viewer.locator(".okey-strip .tile.big").first).to_have_attribute("title", "K13", timeout=LIVE_TIMEOUT_MS)
    expect(cell).not_to_have_attribute("data-before", "swap")  # the sheet was swapped for a new one
    expect(cell).to_have_attribute("open", "")
    expect(cell.locator(".why")).to_be_visible()
    expect(viewer.locator("#why-1-0")).not_to_have_attribute("open", "")  # the others stay closed
