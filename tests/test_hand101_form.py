"""The Okey 101 end-of-hand form through Flask's test client (issue 12): a stepper that works without
JavaScript, whoever finished has no rack (H5), and a refused hand names the step to fix and changes nothing.
The stepper itself in a phone browser: tests/e2e/test_hand101_stepper.py."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore

TOKEN = "test-token"
PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
# Can finishes having opened with pairs (H6: everyone else pays double, Can -202)
HAND = {
    "finisher": "1", "finish": "normal",
    "opened0": "melds", "rack0": "R5 K7",
    "opened1": "pairs",
    "opened2": "none", "sum2": "12",
    "opened3": "pairs", "rack3": "Y3 Y9",
}


@pytest.fixture
def table(store: TableStore, client: FlaskClient) -> str:
    table_id = store.create_table(game="okey101", players=PLAYERS, pin="1234")
    store.record(table_id, {"type": "indicator", "tile": "R4"})
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table_id: True}
    return table_id


def post(client: FlaskClient, url: str, data: dict[str, str]) -> object:
    return client.post(url, data={"csrf_token": TOKEN, **data})


def words(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_H6_the_form_without_javascript_shows_every_step_and_records(client: FlaskClient, store: TableStore,
                                                                     table: str) -> None:
    page = client.get(f"/t/{table}/hand").text
    steps = re.findall(r'<section class="hand-step[^"]*" id="hand-step-(\w+)"', page)
    assert steps == ["finish", "seat0", "seat1", "seat2", "seat3", "check"]
    assert "Can · 2 of 4" in words(page)
    for seat in range(4):  # the server cannot know the finisher: every rack is there, none hidden
        assert f'name="rack{seat}"' in page and f'name="sum{seat}"' in page and f'name="okeys{seat}"' in page
    assert 'data-rack-part hidden' not in page and "<details" not in page
    assert '<a class="button primary" href="#hand-step-seat2"' in page, "Next is a link: without JS it scrolls"
    start = page.index('id="hand-form"')
    form = page[start:page.index("</form>", start)]
    own = [b for b in re.findall(r'<button type="submit"[^>]*>[^<]*', form) if 'form="' not in b]
    assert len(own) == 1 and "Record the hand" in own[0], "Enter in a field (no JS) records, never voids"
    assert 'type="submit" form="hand-void"' in form and 'id="hand-void"' in page
    response = post(client, f"/t/{table}/hand", HAND)
    assert response.status_code == 303
    assert store.get(table).hands[0].entries == (216, -202, 404, 48)


@pytest.mark.parametrize("fields", [{"rack1": "B3"}, {"sum1": "7"}, {"okeys1": "1"}, {"sum1": "5", "okeys1": "1"}])
def test_H5_a_rack_given_for_the_finisher_is_refused_not_dropped(client: FlaskClient, store: TableStore, table: str,
                                                                fields: dict[str, str]) -> None:
    response = post(client, f"/t/{table}/hand", {**HAND, **fields})
    assert response.status_code == 422
    page = response.text
    assert ("Can finished, so no tiles are left on their rack: clear the tiles, the sum and the okeys of Can, "
            "or tap who really finished.") in words(page)
    assert 'data-open-step="seat1"' in page, "the page opens Can's step"
    assert f'value="{next(iter(fields.values()))}"' in page, "the inputs are kept"
    assert store.get(table).hands == ()
    check = client.post(f"/t/{table}/hand/check", data={"csrf_token": TOKEN, **HAND, **fields},
                        headers={"HX-Request": "true"})
    assert check.status_code == 422 and "Can finished, so no tiles are left" in words(check.text)
    assert 'href="#hand-step-seat1"' in check.text, "the preview links the step to fix"


def test_H5_an_empty_or_zero_rack_for_the_finisher_is_fine(client: FlaskClient, store: TableStore, table: str) -> None:
    assert post(client, f"/t/{table}/hand", {**HAND, "rack1": "", "sum1": "0", "okeys1": "0"}).status_code == 303
    assert store.get(table).hands[0].record["players"][1] == {"opened": "pairs", "rack": ""}


def test_H6_tiles_and_a_typed_sum_for_one_rack_stay_refused(client: FlaskClient, store: TableStore, table: str) -> None:
    response = post(client, f"/t/{table}/hand", {**HAND, "sum0": "9"})
    assert response.status_code == 422 and 'data-open-step="seat0"' in response.text
    assert "Ali has tiles and a typed sum: keep one of them" in words(response.text)
    assert store.get(table).hands == ()


def test_H6_okeys_typed_without_a_sum_count_101_each(client: FlaskClient, store: TableStore, table: str) -> None:
    assert post(client, f"/t/{table}/hand", {**HAND, "sum2": "", "opened2": "melds", "okeys2": "1"}).status_code == 303
    assert store.get(table).hands[0].entries[2] == 202, "101 for the okey, doubled by the pairs finish"


@pytest.mark.parametrize("fields, message, step", [
    ({"finisher": ""}, "Tap who finished, or “nobody: stock exhausted”.", "finish"),
    ({"finisher": "none", "elden": "1", "rack1": "B3"}, "Nobody finished (stock exhausted), so there is no okey "
     "discard and no elden", "finish"),
    ({"elden": "1"}, "Elden means nobody else had opened, but Ali, Ece opened", "finish"),
    ({"rack3": "Y3 X9"}, "X9", "seat3"),
])
def test_H6_a_refused_hand_names_the_step_to_fix(client: FlaskClient, store: TableStore, table: str,
                                                 fields: dict[str, str], message: str, step: str) -> None:
    response = post(client, f"/t/{table}/hand", {**HAND, **fields})
    assert response.status_code == 422 and message in words(response.text)
    assert f'data-open-step="{step}"' in response.text
    assert store.get(table).hands == ()


def test_H6_stock_exhausted_everybody_has_a_rack(client: FlaskClient, store: TableStore, table: str) -> None:
    hand = {**HAND, "finisher": "none", "rack1": "B3", "opened1": "melds"}
    assert post(client, f"/t/{table}/hand", hand).status_code == 303
    assert store.get(table).hands[0].entries == (108, 3, 202, 24)


def test_the_form_is_translated(client: FlaskClient, table: str) -> None:
    client.set_cookie("lang", "tr")
    page = words(client.get(f"/t/{table}/hand").text)
    assert "Can · 2 / 4" in page and "Sonraki: Deniz" in page and "Açtı mı?" in page


def test_correcting_a_hand_opens_on_its_record_and_keeps_it_on_a_refusal(client: FlaskClient, store: TableStore,
                                                                         table: str) -> None:
    assert post(client, f"/t/{table}/hand", HAND).status_code == 303
    form = client.get(f"/t/{table}/hand?amend=1").text
    assert re.search(r'name="finisher" value="1"\s+checked', form) and 'value="R5 K7"' in form
    assert re.search(r'name="opened1" value="pairs"\s+checked', form) and 'name="indicator" value="R4"' in form
    refused = post(client, f"/t/{table}/hand", {**HAND, "amend": "1", "indicator": "R4", "rack1": "B3"})
    assert refused.status_code == 422 and 'data-open-step="seat1"' in refused.text
    assert 'name="amend" value="1"' in refused.text and "Correct hand 1" in words(refused.text)
    fixed = post(client, f"/t/{table}/hand", {**HAND, "amend": "1", "indicator": "R4", "opened1": "melds"})
    assert fixed.status_code == 303
    assert store.get(table).hands[0].entries == (108, -101, 202, 24)
