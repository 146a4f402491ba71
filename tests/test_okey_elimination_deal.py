"""O6 ``elimination`` and the deal (O2): a seat that left neither deals nor takes tiles, and the dice ritual
counts only the players still in play (O2.5: the same pattern with fewer seats)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.rules.registry import find_game
from companion.store import TableStore

TOKEN = "test-token"
PLAYERS = ["Ayla", "Bora", "Cemre", "Deren"]
MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"
OPTIONS = {"elimination": True, "start_points": 4}


def _hand(store: TableStore, table: str, winner: int, shown: int | None) -> None:
    store.record(table, {"type": "indicator", "tile": "R4"})
    if shown is not None:
        store.record(table, {"type": "gosterme", "player": shown})
    store.record(table, {"type": "okey_hand", "hand": {"winner": winner, "tiles": MELDS, "discard": "Y8"}})


@pytest.fixture
def two_left(store: TableStore) -> str:
    """Bora wins hand 1 (Ayla shows the indicator's twin), Ayla wins hand 2: Cemre and Deren leave at -1.
    Hand 1 was dealt by Ayla, hand 2 by Bora; the deal would pass to Cemre, who left."""
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options=OPTIONS)
    _hand(store, table, winner=1, shown=0)
    _hand(store, table, winner=0, shown=None)
    return table


@pytest.fixture
def facing_left(store: TableStore) -> str:
    """Cemre wins hand 1 (Ayla shows), Ayla wins hand 2 (Cemre shows): Bora and Deren leave at -2, so Ayla
    and Cemre, facing each other, play on; Cemre deals hand 3."""
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options=OPTIONS)
    _hand(store, table, winner=2, shown=0)
    _hand(store, table, winner=0, shown=2)
    return table


def _session(client: FlaskClient, *tables: str) -> None:
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True for table in tables}


def _text(html: str) -> str:
    html = re.sub(r"</?a\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _part(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.S)
    assert found is not None, pattern
    return found.group(0)


def test_O6_elimination_the_deal_passes_past_seats_that_left(store: TableStore, two_left: str) -> None:
    state = store.get(two_left)
    assert state.standings.eliminated == (2, 3) and not state.finished
    assert [row.dealer for row in state.hands] == [0, 1]
    assert state.dealer == 0  # to the right of Bora sit Cemre and Deren, who left: Ayla deals
    spec = find_game("okey")
    assert spec.pass_deal(1, 4, state.options, None, state.standings) == 0
    assert spec.pass_deal(0, 4, state.options, None, state.standings) == 1
    store.record(two_left, {"type": "indicator", "tile": "R4"})
    store.record(two_left, {"type": "okey_hand", "hand": {"winner": None}})  # hand 3: the stock ran out
    state = store.get(two_left)
    assert state.hands[-1].dealer == 0 and state.dealer == 1  # Ayla dealt hand 3, Bora deals hand 4


def test_O6_elimination_table_page_names_the_dealer_in_play(client: FlaskClient, two_left: str) -> None:
    page = _text(client.get(f"/t/{two_left}").text)
    assert "Hand 3 · Ayla deals" in page
    assert "Cemre deals" not in page


def test_O6_elimination_deal_plan_counts_only_the_seats_in_play(store: TableStore, two_left: str) -> None:
    state = store.record(two_left, {"type": "deal", "dice": [5, 2]})
    plan = state.deal.plan
    assert plan is not None
    assert plan.players == 2 and plan.seat_ids == (0, 1)  # the ritual for the two players left (O2.5)
    assert plan.dealer == 0 and plan.starter == 1
    assert {take.seat for take in plan.takes} == {0, 1}  # nobody who left takes tiles
    assert {stack.owner for stack in plan.stacks} == {0, 1}
    assert plan.tiles_per_seat == (14, 15, 0, 0)
    assert all(step.params.get("seat") in (None, 0, 1) for step in plan.steps())
    data = store.get(two_left).to_dict()["deal"]["plan"]
    assert data["players"] == 2 and data["seats"] == [0, 1]


def test_O6_elimination_rolled_deal_counts_only_the_seats_in_play(store: TableStore, facing_left: str) -> None:
    state = store.get(facing_left)
    assert state.standings.eliminated == (1, 3) and state.dealer == 2
    state = store.record(facing_left, {"type": "deal", "roll": True})
    plan = state.deal.plan
    assert plan is not None and plan.rolls is not None and state.deal.rolled
    assert plan.players == 2 and plan.seat_ids == (0, 2)
    assert plan.dealer == 2 and plan.starter == 0  # Ayla sits on Cemre's right once Deren left
    assert {take.seat for take in plan.takes} == {0, 2}
    assert {stack.owner for stack in plan.stacks} == {0, 2}
    assert plan.tiles_per_seat == (15, 0, 14, 0)


def test_O6_elimination_deal_page_names_only_players_in_play(client: FlaskClient, store: TableStore,
                                                            two_left: str) -> None:
    _session(client, two_left)
    before = client.get(f"/t/{two_left}/deal").text
    assert "Ayla deals." in _text(_part(before, r'<p class="status">.*?</p>'))
    store.record(two_left, {"type": "deal", "dice": [5, 2]})
    page = client.get(f"/t/{two_left}/deal").text
    steps = _text(_part(page, r'<ol class="steps">.*?</ol>'))
    picture = _part(page, r'<svg class="table-pic".*?</svg>')
    for gone in ("Cemre", "Deren"):
        assert gone not in steps
        assert gone not in _text(picture)
    assert "Ayla deals" in steps and "Bora" in steps
    takers = re.findall(r'<g class="takers"[^>]*>.*?<text[^>]*>([^<]*)</text>', picture, re.S)
    assert takers and {seat for label in takers for seat in label.split("+")} == {"1", "2"}
