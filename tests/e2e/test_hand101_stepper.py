"""End-to-end: the Okey 101 end-of-hand form on a 390×844 phone is a stepper (issue 12).

It was four phone screens long and each opened tile picker added 600 px; the finisher was asked for a rack.
Now: how the hand ended, then one step a player that fits the screen with the picker open, then the
scores with Record.  The finisher's step only asks what they opened with (H6: a pairs finish doubles).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, HIDE_HOST_CAMERA, PHONE, live_server, phone_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

PIN = "1010"
PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
STEP_BOX = """() => { const step = document.querySelector('#hand-form [data-step].current');
  const r = step.getBoundingClientRect(); return {id: step.id, height: r.height}; }"""
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data"))) as url:
        yield url


def _table(server: str) -> str:
    def post(path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
        request = urllib.request.Request(server + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json", **headers})
        return json.load(urllib.request.urlopen(request))

    table = str(post("/api/tables", {"game": "okey101", "players": PLAYERS, "pin": PIN}, {})["id"])
    post(f"/api/tables/{table}/events", {"type": "indicator", "tile": "R4"}, {"X-Table-Pin": PIN})
    return table


def test_H6_a_101_hand_recorded_through_the_phone_stepper(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    table = _table(server)
    errors: list[str] = []
    page = phone_page(browser, errors, init_script=HIDE_HOST_CAMERA)
    page.goto(f"{server}/t/{table}")
    page.fill("[name=pin]", PIN)
    page.get_by_role("button", name="Enter").click()
    page.goto(f"{server}/t/{table}/hand")

    # step 1: how the hand ended; Next wants a finisher first
    expect(page.locator("#hand-step-finish")).to_be_visible()
    expect(page.locator("#hand-step-seat0")).to_be_hidden()
    expect(page.get_by_role("button", name="Record the hand")).to_be_hidden()
    page.get_by_role("link", name="Next: Ali").click()
    expect(page.locator("[data-need-finisher]")).to_be_visible()
    expect(page.locator("#hand-step-seat0")).to_be_hidden()
    page.locator("label:has(input[name=finisher][value='1'])").click()
    expect(page.locator("[data-need-finisher]")).to_be_hidden()

    heights: dict[str, float] = {}

    def next_step(name: str, progress: str) -> Any:
        page.get_by_role("link", name=f"Next: {name}").click()
        step = page.locator("#hand-form [data-step].current")
        expect(step.locator(".step-title")).to_contain_text(progress)
        return step

    def fits(step: Any) -> None:
        box = page.evaluate(STEP_BOX)
        heights[box["id"]] = box["height"]
        assert box["height"] <= PHONE["height"], box
        nav = step.locator(".step-nav .button").all()
        assert nav and all(b.bounding_box()["height"] >= 44 for b in nav)
        assert page.evaluate(OVERFLOW) <= 0

    ali = next_step("Ali", "Ali · 1 of 4")
    ali.locator("label:has(input[value=melds])").click()
    for code in ("R5", "K7"):
        ali.locator(f"[data-tile={code}]").click()
    expect(ali.locator("[data-picker-count]")).to_have_text("2")
    expect(ali.locator(".picker-grids")).to_be_visible()  # the picker is open inside the step
    fits(ali)

    can = next_step("Can", "Can · 2 of 4")  # the finisher: no rack, no sum, no okeys, only the opening
    expect(can.locator("[data-finished-note]").first).to_contain_text("Can finished")
    for name in ("rack1", "sum1", "okeys1", "opened1"):
        for field in can.locator(f"input[name={name}]").all():
            if name == "opened1" and field.get_attribute("value") != "none":
                continue
            expect(field).to_be_hidden()
            expect(field).to_be_disabled()
    expect(can.locator("input[name=opened1][value=melds]")).to_be_checked()  # whoever finished has opened
    can.locator("label:has(input[value=pairs])").click()
    fits(can)

    deniz = next_step("Deniz", "Deniz · 3 of 4")
    deniz.locator("input[name=sum2]").fill("12")
    fits(deniz)

    ece = next_step("Ece", "Ece · 4 of 4")
    ece.locator("label:has(input[value=pairs])").click()
    for code in ("Y3", "Y9"):
        ece.locator(f"[data-tile={code}]").click()
    fits(ece)

    page.set_viewport_size({"width": 360, "height": 740})  # no step scrolls sideways on a small phone
    for _ in range(4):
        assert page.evaluate(OVERFLOW) <= 0, page.evaluate(STEP_BOX)
        page.locator("#hand-form [data-step].current .step-nav a:has-text('Back')").click()
    assert page.evaluate(OVERFLOW) <= 0
    page.set_viewport_size(PHONE)
    page.go_back()  # the phone's own back button goes back a step, not off the page
    expect(page.locator("#hand-step-seat0")).to_be_visible()
    page.locator("#hand-step-seat0 .step-to-check").click()  # the scores are one tap away from any step

    scores = page.locator("#hand-step-check")
    expect(scores).to_be_visible()
    rows = scores.locator("#verdict tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.locator("td:last-child")).to_have_text(["216", "-202", "404", "48"])
    expect(scores.locator("#verdict")).to_contain_text("× 2 (the finisher opened with pairs)")
    heights["hand-step-check"] = page.evaluate(STEP_BOX)["height"]
    page.get_by_role("button", name="Record the hand").click()
    expect(page.locator("tr.total td")).to_have_text(["Total", "216", "-202", "404", "48"])
    print("step heights at 390×844:", {k: round(v) for k, v in heights.items()})
    assert errors == []
    page.context.close()


def test_a_refused_hand_reopens_the_step_with_the_problem_and_keeps_the_inputs(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    table = _table(server)
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    context.add_init_script(HIDE_HOST_CAMERA)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{server}/t/{table}")
    page.fill("[name=pin]", PIN)
    page.get_by_role("button", name="Enter").click()
    page.goto(f"{server}/t/{table}/hand")
    page.locator("label:has(input[name=finisher][value='0'])").click()
    page.get_by_role("link", name="Next: Ali").click()
    page.get_by_role("link", name="Next: Can").click()
    can = page.locator("#hand-step-seat1")
    can.locator("label:has(input[value=melds])").click()
    can.locator("[data-tile=B3]").click()
    can.locator("input[name=sum1]").fill("9")  # tiles and a typed sum for one rack: refused, not guessed
    page.locator("#hand-step-seat1 .step-to-check").click()
    page.get_by_role("button", name="Record the hand").click()
    expect(page.locator("p.error[role=alert]").first).to_contain_text("Can has tiles and a typed sum")
    expect(page.locator("#hand-step-seat1")).to_be_visible()
    expect(page.locator("#hand-step-check")).to_be_hidden()
    expect(page.locator("input[name=rack1]")).to_have_value("B3")
    expect(page.locator("input[name=sum1]")).to_have_value("9")
    expect(page.locator("input[name=finisher][value='0']")).to_be_checked()
    page.locator("#hand-step-seat1 .step-to-check").click()
    expect(page.locator("#verdict")).to_contain_text("Can has tiles and a typed sum")  # previewed at once
    page.locator("p.error[role=alert] a.step-link").first.click()  # the message links the step to fix
    expect(page.locator("#hand-step-seat1")).to_be_visible()
    context.close()
