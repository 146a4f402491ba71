"""The deal page (O2, O3; issue 12 "Phones and screens"): the drawing's takers labels for every deal, the
steps in the reader's words with their plural forms, and replacing a mistyped indicator."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules.deal import plan_deal
from companion.rules.options import options_for
from companion.store import TableStore
from companion.web.views_deal import stack_box, stack_layout
from companion.web.views_text import explain

TOKEN = "test-token"
PLAYERS = ["Ali", "Can", "Deniz", "Ece"]


def _deals():
    """Every deal the dice can give: each tile game, 2-4 players, every dealer and first die, both starters."""
    for game, starters in (("okey", (None,)), ("okey101", ("right_of_dealer", "dealer")), ("okey_points", (None,))):
        for starter in starters:
            options = options_for(game, {"starter": starter} if starter else None)
            for players in (2, 3, 4):
                for dealer in range(players):
                    for first in range(1, 7):
                        yield plan_deal(players=players, dealer=dealer, first_roll=first, second_roll=3,
                                        game=game, options=options)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _gap(a, b) -> float:
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def test_O2_every_takers_label_is_on_the_drawing_near_its_stack_and_covers_nothing() -> None:
    deals = leads = 0
    for plan in _deals():
        deals += 1
        layout = stack_layout(plan)
        stacks = [stack_box(stack) for stack in layout]
        labels = []
        for stack, box in zip(layout, stacks):
            label = stack["label"]
            if not stack["takers"]:
                assert label is None
                continue
            assert label["text"] == "+".join(str(seat + 1) for seat in stack["takers"])
            half_w, half_h = label["w"] / 2, label["h"] / 2
            here = (label["x"] - half_w, label["y"] - half_h, label["x"] + half_w, label["y"] + half_h)
            where = (plan.game, plan.players, plan.dealer, plan.rolls, stack["letter"])
            assert 0 <= here[0] and 0 <= here[1] and here[2] <= 440 and here[3] <= 440, where
            assert not any(_overlap(here, other) for other in stacks), where
            gap = _gap(here, box)
            assert gap <= 60, (where, "the label is far from its stack")
            if label["lead"] is None:  # else a line joins it to its stack
                assert all(gap <= _gap(here, other) for other in stacks), (where, "the label is nearer another stack")
            else:
                leads += 1
            labels.append((here, where))
        for i, (here, where) in enumerate(labels):
            for other, _ in labels[i + 1:]:
                assert not _overlap(here, other), where
    assert deals == 4 * (2 + 3 + 4) * 6 and leads < deals / 4, leads


def test_O2_a_stack_shared_by_four_seats_names_them_all_in_take_order() -> None:
    plan = plan_deal(players=4, dealer=0, first_roll=3, second_roll=4, game="okey101")
    shared = [stack for stack in stack_layout(plan) if len(stack["takers"]) == 4]
    assert [stack["label"]["text"] for stack in shared] == ["2+3+4+1"]
    assert shared[0]["letter"] == "Q"


# -- the steps in words ------------------------------------------------------------------------------


def _step_words(app: Flask, lang: str, count: int, part: str) -> str:
    line = {"key": f"deal.take_{part}", "params": {"seat": 1, "letter": "j", "count": count, "part": part},
            "text": "english"}
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        return explain(line, ["Ali", "Bora", "Cem", "Derya"])


@pytest.mark.parametrize(("lang", "count", "part", "words"), [
    ("en", 1, "top", "Bora takes the top tile of stack J."),
    ("en", 3, "top", "Bora takes the top 3 tiles of stack J."),
    ("en", 1, "bottom", "Bora takes the last tile of stack J."),
    ("en", 2, "bottom", "Bora takes the last 2 tiles of stack J."),
    ("en", 5, "whole", "Bora takes stack J."),
    ("ru", 1, "top", "Bora берёт верхнюю фишку стопки J."),
    ("ru", 3, "top", "Bora берёт верхние 3 фишки стопки J."),
    ("ru", 1, "bottom", "Bora берёт последнюю фишку стопки J."),
    ("ru", 4, "bottom", "Bora берёт последние 4 фишки стопки J."),
    ("tr", 1, "top", "Bora J destesinin en üstteki taşını alır."),
    ("tr", 3, "top", "Bora J destesinin üstten 3 taşını alır."),
    ("tr", 2, "bottom", "Bora J destesinin son 2 taşını alır."),
    ("th", 1, "top", "Bora หยิบ 1 ตัวบนของกอง J"),
])
def test_O2_take_steps_count_tiles_in_the_readers_language(app: Flask, lang: str, count: int, part: str,
                                                          words: str) -> None:
    assert _step_words(app, lang, count, part) == words


def test_O2_russian_counts_five_tiles_with_the_genitive_plural(app: Flask) -> None:
    assert _step_words(app, "ru", 5, "top") == "Bora берёт верхние 5 фишек стопки J."


# -- replacing a mistyped indicator (O3) ---------------------------------------------------------------


def _session(client: FlaskClient, *tables: str) -> None:
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True for table in tables}


def post(client: FlaskClient, url: str, data: dict[str, str] | None = None, **kwargs: object):
    return client.post(url, data={"csrf_token": TOKEN, **(data or {})}, **kwargs)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _table(client: FlaskClient, store: TableStore, game: str = "okey") -> str:
    table = store.create_table(game=game, players=PLAYERS, pin="1234")
    _session(client, table)
    store.record(table, {"type": "deal", "dice": [5, 2]})
    store.record(table, {"type": "indicator", "tile": "B12"})
    return table


@pytest.mark.parametrize("game", ["okey", "okey101", "okey_points"])
def test_O3_a_mistyped_indicator_is_replaced_on_the_deal_page_and_undo_brings_it_back(
    client: FlaskClient, store: TableStore, game: str
) -> None:
    table = _table(client, store, game)
    page = client.get(f"/t/{table}/deal").text
    assert "Wrong tile? Replace the indicator" in page and 'id="picker-replace"' in page
    replaced = post(client, f"/t/{table}/deal/indicator", {"indicator": "b11"}, follow_redirects=True)
    assert replaced.status_code == 200
    words = text(replaced.text)
    assert "Indicator changed from B12 to B11: the okey is now B12." in words
    assert 'title="B11"' in replaced.text and "Wrong tile? Replace the indicator" in replaced.text
    state = store.get(table)
    assert (state.deal.indicator.code, state.deal.okey.code) == ("B11", "B12")
    assert "B11 instead of B12" in text(client.get(f"/t/{table}/history").text)
    undone = post(client, f"/t/{table}/undo", follow_redirects=True)
    assert "Undid: indicator · B11 instead of B12." in text(undone.text)
    assert (store.get(table).deal.indicator.code, store.get(table).deal.okey.code) == ("B12", "B13")


def test_O3_a_false_okey_or_the_same_tile_does_not_replace_the_indicator(client: FlaskClient, store: TableStore) -> None:
    table = _table(client, store)
    false_okey = post(client, f"/t/{table}/deal/indicator", {"indicator": "F"})
    assert false_okey.status_code == 422 and "the die is rolled again" in text(false_okey.text)
    same = post(client, f"/t/{table}/deal/indicator", {"indicator": "B12"})
    assert same.status_code == 422 and "B12 is already the indicator" in text(same.text)
    assert store.get(table).deal.indicator.code == "B12" and len(store.events(table)) == 2


def test_O6_a_gosterme_stays_when_the_indicator_is_replaced(client: FlaskClient, store: TableStore) -> None:
    table = _table(client, store)
    store.record(table, {"type": "gosterme", "player": 2})
    post(client, f"/t/{table}/deal/indicator", {"indicator": "B11"})
    deal = store.get(table).deal
    assert deal.indicator.code == "B11" and deal.gosterme == (2,)


def test_O5_a_wrong_declaration_judged_with_the_old_okey_blocks_the_replacement(client: FlaskClient,
                                                                                store: TableStore) -> None:
    table = _table(client, store)
    wrong = "R1 R2 R4 R6 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"
    post(client, f"/t/{table}/win", {"winner": "1", "tiles": wrong, "discard": "R9"})
    assert store.get(table).deal.wrong_declarations
    refused = post(client, f"/t/{table}/deal/indicator", {"indicator": "B11"})
    assert refused.status_code == 422
    assert ("The indicator cannot become B11 now: a wrong declaration this hand was judged with B12 as the indicator "
            "(okey B13). Undo the wrong declaration" in text(refused.text))
    assert store.get(table).deal.indicator.code == "B12" and store.get(table).deal.wrong_declarations


def test_O3_the_api_replaces_the_indicator_and_the_event_says_which(store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    store.record(table, {"type": "indicator", "tile": "R4"})
    store.record(table, {"type": "indicator", "tile": "R5", "replaces": "K1"})
    assert store.events(table)[-1].payload["replaces"] == "R4", "the server says what was replaced"
    assert store.get(table).deal.okey.code == "R6"
    store.record(table, {"type": "indicator", "tile": "r5"})
    assert "replaces" not in store.events(table)[-1].payload, "the same tile again replaces nothing"


def test_O2_3_a_false_okey_really_turned_up_rolls_the_second_die_again_from_the_replacement(
    client: FlaskClient, store: TableStore
) -> None:
    table = _table(client, store)
    replace_section = client.get(f"/t/{table}/deal").text.split('class="replace-indicator"')[1]
    assert "Roll the second die again" in replace_section
    post(client, f"/t/{table}/deal/reroll", {"die": "4"})
    deal = store.get(table).deal
    assert deal.indicator is None and deal.plan.indicator_from_bottom == 4
    assert "Tap the tile turned face up" in client.get(f"/t/{table}/deal").text
    store.record(table, {"type": "indicator", "tile": "R4"})
    store.record(table, {"type": "gosterme", "player": 0})
    after_gosterme = client.get(f"/t/{table}/deal").text.split('class="replace-indicator"')[1]
    assert "Roll the second die again" not in after_gosterme, "the gösterme was of this indicator's twin"
