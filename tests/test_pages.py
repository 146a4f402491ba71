"""The HTML pages through Flask's test client: every route, GET and POST, the PIN, CSRF, languages and
the messages bad input gets.  Tests that check a rule are named after it (RULES.md)."""

from __future__ import annotations

import io
import re
import sys
import types
from html import unescape
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import TableStore
from companion.web.i18n import compile_catalogues, lower_for, upper_for
from companion.web.serve import lan_urls, parse_ip_addr_output, print_banner

TOKEN = "test-token"
PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
WIN_TILES = "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"


def _session(client: FlaskClient, *tables: str) -> None:
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True for table in tables}


@pytest.fixture
def okey_table(store: TableStore) -> str:
    return store.create_table(game="okey", players=PLAYERS, pin="1234")


@pytest.fixture
def table101(store: TableStore) -> str:
    return store.create_table(game="okey101", players=PLAYERS, pin="1234")


@pytest.fixture
def editor(client: FlaskClient, okey_table: str, table101: str) -> FlaskClient:
    """A browser that entered both tables' PIN and holds a CSRF token."""
    _session(client, okey_table, table101)
    return client


def post(client: FlaskClient, url: str, data: dict[str, str] | None = None, **kwargs: object):
    return client.post(url, data={"csrf_token": TOKEN, **(data or {})}, **kwargs)


def text(html: str) -> str:
    """The page's words, tags removed, whitespace collapsed."""
    html = re.sub(r"</?a\b[^>]*>", "", html)  # links inside a sentence (rule ids) are part of it
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# -- home and new table ----------------------------------------------------------------------------


def test_home_shows_the_form_and_past_tables(client: FlaskClient, okey_table: str) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert 'name="player0"' in response.text and 'name="pin"' in response.text
    assert f"/t/{okey_table}" in response.text
    assert "HX-Request" in response.headers["Vary"]


def test_home_suggests_remembered_names(client: FlaskClient, okey_table: str) -> None:
    assert '<option value="Deniz">' in client.get("/").text


def test_every_option_is_editable_for_each_game(client: FlaskClient) -> None:
    okey = client.get("/new/options?game=okey", headers={"HX-Request": "true"}).text
    assert okey.lstrip().startswith('<fieldset id="options">')
    assert 'name="opt_quick_deal"' in okey and 'name="opt_hands"' not in okey
    game101 = client.get("/new/options?game=okey101&profile=no_doublings", headers={"HX-Request": "true"}).text
    assert 'name="opt_hands"' in game101 and 'name="opt_okey_in_hand"' in game101
    assert re.search(r'name="opt_multipliers" value="on"\s*>', game101), "the profile turns doublings off"


def test_new_table_records_players_options_and_pin(client: FlaskClient, store: TableStore) -> None:
    _session(client)
    response = post(client, "/new", {
        "game": "okey101", "player0": "Ayşe", "player1": "Bora", "player2": "Cem", "player3": "",
        "pin": "0427", "profile": "no_doublings", "opt_hands": "5", "opt_multipliers": "on", "first_dealer": "1",
        "options_shown": "1", "opt_wrap_13_1": "on",
    })
    assert response.status_code == 303
    table_id = response.headers["Location"].rsplit("/", 1)[1]
    state = store.get(table_id)
    assert state.players == ("Ayşe", "Bora", "Cem")
    assert state.options.hands == 5 and state.options.multipliers and state.options.wrap_13_1
    assert not state.options.partners and not state.options.opening_ratchet, "unchecked boxes are off"
    assert state.dealer == 1
    assert store.check_pin(table_id, "0427")
    assert "Scorekeeper" in client.get(f"/t/{table_id}").text, "the creator keeps the score"


def test_a_blank_seat_between_names_is_refused_naming_the_seat(client: FlaskClient, store: TableStore) -> None:
    _session(client)
    fields = {"game": "okey", "profile": "reference", "player0": "Ali", "player1": "", "player2": "Can",
              "player3": "Deniz", "first_dealer": "3", "pin": "1234"}
    response = post(client, "/new", fields)
    assert response.status_code == 422 and store.list_tables() == [], "nothing created"
    assert "Seat 2 has no name" in text(response.text)
    assert 'value="Can"' in response.text and 'value="Deniz"' in response.text, "what was typed is kept"
    client.set_cookie("lang", "tr")
    assert "2. koltukta isim yok" in text(post(client, "/new", fields).text)
    trailing_blank = post(client, "/new", {**fields, "player1": "Ece", "player3": "", "first_dealer": "0"})
    assert trailing_blank.status_code == 303, "only a gap before a name is refused"


def test_new_table_without_the_rules_fieldset_keeps_the_profile(client: FlaskClient, store: TableStore) -> None:
    _session(client)
    response = post(client, "/new", {"game": "okey", "profile": "kahvehane", "player0": "A", "player1": "B",
                                     "pin": "1111"})
    options = store.get(response.headers["Location"].rsplit("/", 1)[1]).options
    assert options.wrap_13_1 and options.pairs_and_okey_discard == 8 and options.colour_hand == "any"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player0": "Ali", "player1": "", "pin": "1234"}, "at least two player names"),
        ({"player0": "Ali", "player1": "Can", "pin": "1234", "first_dealer": "2"}, "The first dealer must be"),
        ({"player0": "Ali", "player1": "ali", "pin": "1234"}, "same name"),
        ({"player0": "Ali", "player1": "Can", "pin": "12a4"}, "exactly 4 digits"),
        ({"player0": "Ali", "player1": "Can", "pin": "1234", "opt_start_points": "lots"}, "whole number"),
        ({"player0": "Ali", "player1": "Can", "pin": "1234", "opt_partners": "on"}, "Partners need 4 players, not 2"),
    ],
)
def test_bad_new_table_input_is_explained_and_creates_nothing(
    client: FlaskClient, store: TableStore, fields: dict[str, str], message: str
) -> None:
    _session(client)
    response = post(client, "/new", {"game": "okey", "profile": "reference", **fields})
    assert response.status_code == 422
    assert message in text(response.text)
    assert 'value="Ali"' in response.text, "what was typed is kept"
    assert store.list_tables() == []


def test_csrf_token_is_required_for_every_post(client: FlaskClient, store: TableStore, okey_table: str) -> None:
    _session(client, okey_table)
    store.record(okey_table, {"type": "indicator", "tile": "R4"})
    without = client.post(f"/t/{okey_table}/gosterme", data={"player": "1"})
    wrong = client.post(f"/t/{okey_table}/gosterme", data={"player": "1", "csrf_token": "forged"})
    assert without.status_code == wrong.status_code == 400
    assert "expired" in without.text
    assert store.get(okey_table).deal.gosterme == ()
    header = client.post(f"/t/{okey_table}/gosterme", data={"player": "1"}, headers={"X-CSRF-Token": TOKEN})
    assert header.status_code == 303
    assert store.get(okey_table).deal.gosterme == (1,)


# -- the table page, viewers and the PIN -----------------------------------------------------------


def test_viewer_sees_the_sheet_read_only_with_join_qr(client: FlaskClient, okey_table: str) -> None:
    page = client.get(f"/t/{okey_table.lower()}")
    assert page.status_code == 200
    assert "read-only" in page.text and "Scorekeeper" not in page.text
    assert f"http://localhost/t/{okey_table}" in page.text
    assert "<svg" in page.text and 'name="pin"' in page.text


def test_pin_entry_unlocks_editing(client: FlaskClient, okey_table: str) -> None:
    _session(client)
    client.application.config["SESSION_COOKIE_SECURE"] = False
    wrong = post(client, f"/t/{okey_table}/pin", {"pin": "9999"})
    assert wrong.status_code == 422 and "Wrong PIN" in wrong.text
    assert post(client, f"/t/{okey_table}/pin", {"pin": "1234"}).status_code == 303
    assert "Scorekeeper" in client.get(f"/t/{okey_table}").text


@pytest.mark.parametrize("route", ["deal", "win", "hand"])
def test_viewers_are_sent_to_the_pin_form(client: FlaskClient, okey_table: str, route: str) -> None:
    response = client.get(f"/t/{okey_table}/{route}")
    assert response.status_code == 303 and response.headers["Location"].endswith("#pin")


def test_viewer_cannot_record(client: FlaskClient, store: TableStore, okey_table: str) -> None:
    _session(client)
    response = post(client, f"/t/{okey_table}/deal", {"die1": "5", "die2": "2"})
    assert response.status_code == 303 and store.get(okey_table).deal.plan is None


def test_unknown_table_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/t/ZZZZZ")
    assert response.status_code == 404 and "There is no table ZZZZZ: check the code" in text(response.text)


def test_version_poll_is_empty_until_something_changes(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    version = store.version(okey_table)
    htmx = {"HX-Request": "true"}
    quiet = editor.get(f"/t/{okey_table}/version?since={version}", headers=htmx)
    assert quiet.status_code == 204 and quiet.data == b""
    store.record(okey_table, {"type": "indicator", "tile": "R4"})
    store.record(okey_table, {"type": "gosterme", "player": 2})
    changed = editor.get(f"/t/{okey_table}/version?since={version}", headers=htmx)
    assert changed.status_code == 200
    assert f"since={version + 2}" in changed.text, "the new poller carries the new version"
    assert 'id="live" hx-swap-oob="true"' in changed.text and "Gösterme: Deniz" in text(changed.text)
    assert editor.get(f"/t/{okey_table}/version").text == str(version + 2)


def test_print_view_and_big_screen(client: FlaskClient, okey_table: str) -> None:
    assert "Score sheet" in client.get(f"/t/{okey_table}/sheet").text
    assert '<html lang="en" class="tv">' in client.get(f"/t/{okey_table}?tv=1").text


# -- the deal assistant (O2, O3) -------------------------------------------------------------------


def test_O2_deal_assistant_walks_the_seed_example(editor: FlaskClient, okey_table: str) -> None:
    assert "Roll for me" in editor.get(f"/t/{okey_table}/deal").text
    assert post(editor, f"/t/{okey_table}/deal", {"die1": "5", "die2": "2"}).status_code == 303
    page = editor.get(f"/t/{okey_table}/deal")
    words = text(page.text)
    assert page.text.count('<rect class="stack"') == 20 and page.text.count('<rect class="stack chosen"') == 1
    assert "tile number 2 from the bottom" in words
    assert "Can takes stack A." in words and "Deniz takes the top 4 tiles of stack J." in words
    assert "Ece takes the last tile of stack J." in words and "Ali takes the top 2 tiles of stack L." in words


def test_O2_app_rolls_the_dice(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    assert post(editor, f"/t/{okey_table}/deal", {"roll": "1"}).status_code == 303
    deal = store.get(okey_table).deal
    assert deal.rolled and deal.dice is not None and all(1 <= die <= 6 for die in deal.dice)
    assert "rolled by the app" in editor.get(f"/t/{okey_table}/deal").text


def test_O2_bad_dice_are_explained(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    response = post(editor, f"/t/{okey_table}/deal", {"die1": "7", "die2": "2"})
    assert response.status_code == 422 and "The first die must be a whole number from 1 to 6" in text(response.text)
    assert store.get(okey_table).deal.plan is None


def test_O2_3_false_okey_reroll(editor: FlaskClient, app: Flask, store: TableStore, okey_table: str) -> None:
    post(editor, f"/t/{okey_table}/deal", {"die1": "5", "die2": "2"})
    assert post(editor, f"/t/{okey_table}/deal/reroll", {"die": "6"}).status_code == 303
    assert store.get(okey_table).deal.plan.indicator_from_bottom == 6
    app.extensions["dice"] = type("Loaded", (), {"randint": staticmethod(lambda low, high: 3)})()
    post(editor, f"/t/{okey_table}/deal/reroll", {"roll": "1"})
    assert store.get(okey_table).deal.plan.indicator_from_bottom == 3


def test_O2_6_quick_deal(editor: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options={"quick_deal": True})
    _session(editor, table)
    assert "Quick deal" in editor.get(f"/t/{table}/deal").text
    post(editor, f"/t/{table}/deal", {"quick": "1"})
    assert "Quick deal: everybody takes 14 tiles" in text(editor.get(f"/t/{table}/deal").text)


def test_H2_quick_deal_in_okey_101(editor: FlaskClient, store: TableStore) -> None:
    # H2: "the stacks are optional" — the same quick deal as O2.6, with 101's 21 tiles (the starter 22).
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", options={"quick_deal": True})
    _session(editor, table)
    assert "Quick deal" in editor.get(f"/t/{table}/deal").text
    post(editor, f"/t/{table}/deal", {"quick": "1"})
    page = text(editor.get(f"/t/{table}/deal").text)
    assert "Quick deal: everybody takes 21 tiles" in page and "takes 22 and starts" in page
    assert "after the deal 20 tiles are left to draw" in page
    assert post(editor, f"/t/{table}/deal/indicator", {"indicator": "k13"}).status_code == 303
    assert store.get(table).deal.indicator is not None


def test_O3_indicator_gives_okey_and_false_okey(editor: FlaskClient, okey_table: str) -> None:
    post(editor, f"/t/{okey_table}/deal", {"die1": "5", "die2": "2"})
    assert post(editor, f"/t/{okey_table}/deal/indicator", {"indicator": "k13"}).status_code == 303
    page = editor.get(f"/t/{okey_table}").text
    assert 'class="tile K big" title="K13"' in page and 'class="tile K big" title="K1"' in page


@pytest.mark.parametrize(("typed", "message"), [("F", "always a numbered tile"), ("R4 R5", "exactly one tile"),
                                                 ("Q4", "“Q4” is not a tile")])
def test_O3_bad_indicator_is_explained(editor: FlaskClient, store: TableStore, okey_table: str,
                                       typed: str, message: str) -> None:
    response = post(editor, f"/t/{okey_table}/deal/indicator", {"indicator": typed})
    assert response.status_code == 422 and message in text(response.text)
    assert store.get(okey_table).deal.indicator is None


# -- Okey hands (O5, O6) ---------------------------------------------------------------------------


def _indicator(client: FlaskClient, table: str, tile: str = "R4") -> None:
    post(client, f"/t/{table}/deal/indicator", {"indicator": tile})


def test_O5_win_check_finds_the_arrangement_and_the_okey_discard(editor: FlaskClient, okey_table: str) -> None:
    _indicator(editor, okey_table)
    assert "tiles" in editor.get(f"/t/{okey_table}/win").text
    response = post(editor, f"/t/{okey_table}/win/check", {"winner": "0", "tiles": WIN_TILES, "discard": "r5"},
                    headers={"HX-Request": "true"})
    assert response.status_code == 200 and response.text.lstrip().startswith('<section id="verdict"')
    words = text(response.text)
    assert "Valid win" in words and "okey discarded: double" in words
    assert response.text.count('<span class="tiles">') == 4


def test_O5_wrong_declaration_costs_the_declarer(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    _indicator(editor, okey_table)
    tiles = "R1 R2 R9 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 Y1"
    check = post(editor, f"/t/{okey_table}/win/check", {"winner": "1", "tiles": tiles, "discard": "Y2"},
                 headers={"HX-Request": "true"})
    assert "Not a winning hand" in check.text
    post(editor, f"/t/{okey_table}/win", {"winner": "1", "tiles": tiles, "discard": "Y2"})
    assert store.get(okey_table).current.entries == (0, -4, 0, 0) and store.get(okey_table).totals == (20, 16, 20, 20)


def test_O6_win_updates_the_sheet_and_moves_the_deal(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    _indicator(editor, okey_table)
    assert post(editor, f"/t/{okey_table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "R5"}).status_code == 303
    state = store.get(okey_table)
    assert state.hands[0].entries == (0, -4, -4, -4) and state.dealer == 1
    page = text(editor.get(f"/t/{okey_table}").text)
    assert "Total 20 16 16 16" in page and "Can deals" in page
    assert "Hand recorded. Can deals next." in page


@pytest.mark.parametrize(("fields", "message"), [
    ({"winner": "0", "tiles": "R1 R2", "discard": "R5"}, "Enter the 14 tiles the winner shows (you entered 2)"),
    ({"winner": "9", "tiles": WIN_TILES, "discard": "R5"}, "The winner must be a whole number from 0 to 3"),
    ({"winner": "0", "tiles": WIN_TILES, "discard": ""}, "Enter the one tile the winner discarded last"),
    ({"winner": "0", "tiles": WIN_TILES.replace("K12", "X12"), "discard": "R5"}, "“X12” is not a tile: write a colour letter"),
])
def test_O5_bad_win_input_is_explained(editor: FlaskClient, store: TableStore, okey_table: str,
                                       fields: dict[str, str], message: str) -> None:
    _indicator(editor, okey_table)
    response = post(editor, f"/t/{okey_table}/win", fields)
    assert response.status_code == 422 and message in text(response.text)
    assert store.get(okey_table).hands == ()


def test_O6_gosterme_and_stock_exhausted(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/gosterme", {"player": "2"})
    post(editor, f"/t/{okey_table}/win", {"stock_exhausted": "1"})
    assert store.get(okey_table).hands[0].entries == (-1, -1, 0, -1)


def test_O6_gosterme_bad_seat(editor: FlaskClient, okey_table: str) -> None:
    _indicator(editor, okey_table)
    response = post(editor, f"/t/{okey_table}/gosterme", {"player": "x"})
    assert response.status_code == 422 and "The player must be a whole number" in response.text


# -- Okey 101 (H4, H6, H7) -------------------------------------------------------------------------

HAND_101 = {
    "finisher": "0", "finish": "normal",
    "opened0": "melds", "rack0": "",
    "opened1": "melds", "rack1": "R5 K7",
    "opened2": "none", "rack2": "B1",
    "opened3": "pairs", "rack3": "Y3 Y9",
}


def test_H6_hand_preview_shows_sums_and_reasons(editor: FlaskClient, table101: str) -> None:
    _indicator(editor, table101)
    response = post(editor, f"/t/{table101}/hand/check", HAND_101, headers={"HX-Request": "true"})
    words = text(response.text)
    assert "Ali 0 -101 -101" in words and "Can 108 108 108" in words and "Deniz 1 202 202" in words
    assert "Ece 12 24 24" in words


def test_H6_hand_recorded_with_typed_sum(editor: FlaskClient, store: TableStore, table101: str) -> None:
    _indicator(editor, table101)
    fields = {**HAND_101, "rack1": "", "sum1": "7", "okeys1": "1"}
    assert post(editor, f"/t/{table101}/hand", fields).status_code == 303
    state = store.get(table101)
    assert state.hands[0].entries == (-101, 108, 202, 24)
    page = text(editor.get(f"/t/{table101}").text)
    assert "Total -101 108 202 24" in page


def test_H7_penalty_ledger(editor: FlaskClient, store: TableStore, table101: str) -> None:
    _indicator(editor, table101)
    assert post(editor, f"/t/{table101}/penalty", {"player": "2", "reason": "islek"}).status_code == 303
    post(editor, f"/t/{table101}/hand", HAND_101)
    page = text(editor.get(f"/t/{table101}").text)
    assert "Penalty ledger" in page and "discarded a tile that fits a meld" in page
    assert store.get(table101).hands[0].entries[2] == 303


def test_H8_subtotal_before_the_last_hand(editor: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", options={"hands": 3})
    _session(editor, table)
    for hand in range(2):
        _indicator(editor, table)
        assert "Subtotal" not in editor.get(f"/t/{table}").text
        post(editor, f"/t/{table}/hand", HAND_101)
    page = editor.get(f"/t/{table}").text
    subtotal = '<tr class="subtotal"><td>Subtotal</td><td>-202</td><td>216</td><td>404</td><td>48</td></tr>'
    assert subtotal in page and page.index(subtotal) > page.index("<summary>2</summary>")


def test_H4_void_hand(editor: FlaskClient, store: TableStore, table101: str) -> None:
    post(editor, f"/t/{table101}/hand", {"void": "1"})
    assert store.get(table101).voided == 1
    assert "The hand is void: Ali deals it again." in text(editor.get(f"/t/{table101}").text)


def test_H6_bad_hand_input(editor: FlaskClient, store: TableStore, table101: str) -> None:
    response = post(editor, f"/t/{table101}/hand", HAND_101)
    assert response.status_code == 422 and "Enter the indicator first" in text(response.text)
    _indicator(editor, table101)
    response = post(editor, f"/t/{table101}/hand", {**HAND_101, "opened1": "maybe"})
    assert response.status_code == 422 and "Choose how Can opened" in response.text
    assert store.get(table101).hands == ()


@pytest.mark.parametrize(("melds", "verdict"), [
    ("R10 R11 R12 R13\nK13 Y13 B13\nB9 B10 B11", "Opens. Total 115 ≥ 101"),
    ("R10 R11 R12 | K5 Y5 B5", "Does not open: total 48, at least 101 needed (H4)"),
    ("R10 R11 R12\nK5 K5 B5", "a meld is illegal"),
    ("R1 R1\nB2 B2\nK3 K3\nY4 Y4\nR9 R9", "Opens. 5 pairs"),
])
def test_H4_opening_checker(editor: FlaskClient, table101: str, melds: str, verdict: str) -> None:
    _indicator(editor, table101, "Y7")
    response = post(editor, f"/t/{table101}/opening", {"melds": melds}, headers={"HX-Request": "true"})
    assert verdict in text(response.text)


def test_H4_opening_ratchet_on_the_opening_checker(client: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", options={"opening_ratchet": True})
    _session(client, table)
    _indicator(client, table, "Y7")
    assert 'name="highest_so_far"' in client.get(f"/t/{table}/opening").text
    melds = "R10 R11 R12 R13\nK13 Y13 B13\nB9 B10 B11"  # 115
    first = post(client, f"/t/{table}/opening", {"melds": melds}, headers={"HX-Request": "true"})
    assert "Opens. Total 115 ≥ 101" in text(first.text)
    beaten = post(client, f"/t/{table}/opening", {"melds": melds, "highest_so_far": "115"},
                  headers={"HX-Request": "true"})
    assert "Does not open: total 115, at least 116 needed (H4)" in text(beaten.text)
    assert "more than 115" in text(beaten.text)
    pairs = "R1 R1\nB2 B2\nK3 K3\nY4 Y4\nR9 R9"
    assert "at least 6 needed" in text(post(client, f"/t/{table}/opening", {"melds": pairs, "most_pairs_so_far": "5"},
                                            headers={"HX-Request": "true"}).text)
    bad = post(client, f"/t/{table}/opening", {"melds": melds, "highest_so_far": "lots"}, headers={"HX-Request": "true"})
    assert bad.status_code == 422 and "The highest opening so far must be a whole number" in text(bad.text)


def test_H4_opening_checker_without_the_ratchet_has_no_fields(editor: FlaskClient, table101: str) -> None:
    _indicator(editor, table101, "Y7")
    assert 'name="highest_so_far"' not in editor.get(f"/t/{table101}/opening").text
    response = post(editor, f"/t/{table101}/opening", {"melds": "R10 R11 R12 R13\nK13 Y13 B13\nB9 B10 B11",
                                                        "highest_so_far": "200"}, headers={"HX-Request": "true"})
    assert "Opens. Total 115" in text(response.text)


def test_H4_opening_checker_takes_the_rules_verdict(client: FlaskClient, store: TableStore) -> None:
    """The page judges with the rules' check_laid_opening: the table's options and the set's copies count."""
    table = store.create_table(game="okey101", players=PLAYERS, pin="1234", options={"okey_pair_of_okeys": False})
    _session(client, table)
    _indicator(client, table, "Y7")  # the okey is Y8
    pairs = "Y8 Y8\nR1 R1\nB2 B2\nK3 K3\nY4 Y4"
    okeys = text(post(client, f"/t/{table}/opening", {"melds": pairs}, headers={"HX-Request": "true"}).text)
    assert "two okeys are no pair at this table" in okeys and "a meld is illegal" in okeys and "Opens." not in okeys
    copies = post(client, f"/t/{table}/opening", {"melds": "R11 R12 R13\nR11 R12 R13\nR11 R12 R13\nK1 K2 K3"},
                  headers={"HX-Request": "true"})
    assert copies.status_code == 422 and "Impossible: 3 × R11 entered" in text(copies.text)
    twin = post(client, f"/t/{table}/opening", {"melds": "Y7 Y7\nR1 R1\nB2 B2\nK3 K3\nY4 Y4"},
                headers={"HX-Request": "true"})
    assert twin.status_code == 422 and "Y7 is the face-up indicator" in text(twin.text)
    empty = post(client, f"/t/{table}/opening", {"melds": " | \n"}, headers={"HX-Request": "true"})
    assert empty.status_code == 422 and "Lay out at least one meld" in text(empty.text)
    client.set_cookie("lang", "tr")
    turkish = text(post(client, f"/t/{table}/opening", {"melds": pairs}, headers={"HX-Request": "true"}).text)
    assert "bu masada iki okey çift sayılmaz" in turkish


def test_H4_opening_checker_two_okeys_pair_by_default(editor: FlaskClient, table101: str) -> None:
    _indicator(editor, table101, "Y7")
    response = post(editor, f"/t/{table101}/opening", {"melds": "Y8 Y8\nR1 R1\nB2 B2\nK3 K3\nY4 Y4"},
                    headers={"HX-Request": "true"})
    assert "Opens. 5 pairs" in text(response.text)


def test_H4_opening_checker_needs_an_indicator(client: FlaskClient, table101: str) -> None:
    _session(client)
    assert "indicator" in client.get(f"/t/{table101}/opening").text
    response = post(client, f"/t/{table101}/opening", {"melds": "R1 R2 R3", "indicator": "B2"})
    assert "Does not open: total 6" in text(response.text)


# -- history, undo, redo ---------------------------------------------------------------------------


def test_undo_redo_and_history(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    nothing = post(editor, f"/t/{okey_table}/undo", follow_redirects=True)
    assert "Nothing to undo." in nothing.text and nothing.request.path == f"/t/{okey_table}"
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/gosterme", {"player": "3"})
    assert post(editor, f"/t/{okey_table}/undo").status_code == 303
    assert store.get(okey_table).deal.gosterme == ()
    assert post(editor, f"/t/{okey_table}/redo").status_code == 303
    assert store.get(okey_table).deal.gosterme == (3,)
    post(editor, f"/t/{okey_table}/undo")
    history = text(editor.get(f"/t/{okey_table}/history").text)
    assert "gösterme Ece undone" in history and "redo #2 (gösterme: Ece)" in history
    assert "undo #2 (gösterme: Ece)" in history, "an undo says what it undid"


# -- photos ----------------------------------------------------------------------------------------


@dataclass
class FakeTile:
    tile: str
    box: tuple[int, int, int, int]
    confidence: float
    low_confidence: bool
    warnings: tuple[str, ...] = ()


@dataclass
class FakeRecognition:
    tiles: list[FakeTile]
    warnings: list[str] = field(default_factory=list)
    width: int = 400
    height: int = 300
    set_aside: list[FakeTile] = field(default_factory=list)


class FakeRecognizer:
    def recognize(self, data: bytes, table: bool = False) -> FakeRecognition:
        if data != b"photo":
            raise ValueError("not an image: upload a JPEG or PNG photo")
        return FakeRecognition([FakeTile("R7", (10, 10, 50, 70), 0.98, False),
                                FakeTile("K13", (60, 10, 100, 70), 0.41, True)], ["tiles overlap"])


def test_photo_boxes_and_unsure_tiles(editor: FlaskClient, app: Flask, okey_table: str) -> None:
    app.extensions["recognizer"] = FakeRecognizer()
    response = post(editor, f"/t/{okey_table}/photo",
                    {"picker": "picker-tiles", "photo": (io.BytesIO(b"photo"), "rack.jpg", "image/jpeg")},
                    content_type="multipart/form-data")
    assert response.status_code == 200
    assert response.text.count('class="box') == 2 and 'class="box low"' in response.text
    assert 'data-for-picker="picker-tiles"' in response.text and "data:image/jpeg;base64," in response.text
    assert "tiles overlap" in response.text and "data-rec-fix" in response.text


class OpeningRecognizer:
    """A photo of an opening on the table: Y7 Y8, the okey R5 (standing in as Y9), Y10, then, a fifth of a tile
    further than touching, B2 K2 Y2."""

    def recognize(self, data: bytes, table: bool = False) -> FakeRecognition:
        lefts = (0, 30, 60, 90, 126, 156, 186)
        return FakeRecognition([FakeTile(code, (x, 10, x + 30, 52), 0.98, False)
                                for code, x in zip(("Y7", "Y8", "R5", "Y10", "B2", "K2", "Y2"), lefts)])


def test_H4_a_photo_of_an_opening_gives_each_tile_its_meld_the_okey_a_wild(editor: FlaskClient, app: Flask,
                                                                         table101: str) -> None:
    """The photo page says which meld each tile is in (``vision.melds``), for the opening checker's picker to take
    them meld by meld; the deal's indicator makes R5 the okey, which may stand in the run before the gap."""
    app.extensions["recognizer"] = OpeningRecognizer()

    def melds() -> list[str]:
        response = post(editor, f"/t/{table101}/photo", {"picker": "meld-picker",
                        "photo": (io.BytesIO(b"photo"), "table.jpg", "image/jpeg")}, content_type="multipart/form-data")
        assert response.status_code == 200
        return re.findall(r'data-meld="(\d+)"', response.text)

    assert melds() == ["0"] * 7  # no indicator yet: the run looks like no meld, and nothing parts it
    assert post(editor, f"/t/{table101}/deal/indicator", {"indicator": "R4"}).status_code == 303
    assert melds() == ["0"] * 4 + ["1"] * 3


class AsideRecognizer:
    def recognize(self, data: bytes, table: bool = False) -> FakeRecognition:
        return FakeRecognition([FakeTile("R7", (10, 10, 50, 70), 0.98, False)],
                               ["1 tile(s) set aside unread: face down, or mostly outside the photo",
                                "1 tile(s) cut by the frame: step back or move the camera"],
                               set_aside=[FakeTile("K1", (0, 100, 12, 160), 0.2, True, ("cut by the frame", "unreadable"))])


def test_photo_shows_boxes_set_aside_and_says_so(editor: FlaskClient, app: Flask, okey_table: str) -> None:
    """A box set aside unread (issue 10: a sliver at the edge, a face-down tile) is drawn grey, is no tile
    of the hand, and the page says so and what to do, in the reader's language."""
    app.extensions["recognizer"] = AsideRecognizer()
    form = {"picker": "picker-tiles", "photo": (io.BytesIO(b"photo"), "rack.jpg", "image/jpeg")}
    page = post(editor, f"/t/{okey_table}/photo", form, content_type="multipart/form-data").text
    assert page.count("data-set-aside") == 1 and page.count('data-rec="') == 1
    assert "Not read: 1 (grey boxes: face down, or mostly outside the photo)" in page
    assert "step back so no tile is cut" in page
    editor.set_cookie("lang", "tr")
    form = {"picker": "picker-tiles", "photo": (io.BytesIO(b"photo"), "rack.jpg", "image/jpeg")}
    assert "Okunmadı: 1" in post(editor, f"/t/{okey_table}/photo", form, content_type="multipart/form-data").text


def test_photo_errors_are_explained(editor: FlaskClient, app: Flask, okey_table: str) -> None:
    app.extensions["recognizer"] = FakeRecognizer()
    url = f"/t/{okey_table}/photo"
    bad = post(editor, url, {"photo": (io.BytesIO(b"junk"), "x.jpg", "image/jpeg")}, content_type="multipart/form-data")
    assert bad.status_code == 422 and "That file is not a photo: choose a JPEG or PNG photo of the tiles." in bad.text
    assert "Choose or take a photo first" in post(editor, url).text


# -- languages, casing, serve ----------------------------------------------------------------------


def test_language_from_accept_language_and_cookie(client: FlaskClient, okey_table: str) -> None:
    assert '<html lang="tr">' in client.get("/", headers={"Accept-Language": "tr-TR,tr;q=0.9"}).text
    switched = client.get("/lang?lang=ru&next=/t/" + okey_table)
    assert switched.status_code == 303 and switched.headers["Location"] == f"/t/{okey_table}"
    assert '<html lang="ru">' in client.get("/", headers={"Accept-Language": "tr"}).text
    assert client.get("/lang?lang=ru&next=https://evil.example/").headers["Location"] == "/"


def test_every_language_translates_the_home_page(client: FlaskClient) -> None:
    english = text(client.get("/", headers={"Accept-Language": "en"}).text)
    for lang in ("tr", "ru", "th"):
        client.set_cookie("lang", lang)
        translated = text(client.get("/").text)
        assert "New table" not in translated and "Past tables" not in translated, lang
        assert translated != english


def test_turkish_casing() -> None:
    assert upper_for("tr", "istaka ılık") == "İSTAKA ILIK"
    assert upper_for("en", "istaka") == "ISTAKA"
    assert lower_for("tr", "İSTANBUL IŞIK") == "istanbul ışık"


def test_catalogues_compile_once(tmp_path) -> None:
    from companion.web.i18n import CATALOGUES

    target = compile_catalogues(CATALOGUES, tmp_path)
    compiled = sorted(path.relative_to(target).as_posix() for path in target.rglob("*.mo"))
    assert compiled == [f"{lang}/LC_MESSAGES/messages.mo" for lang in ("ru", "th", "tr")]
    stamp = (target / "tr/LC_MESSAGES/messages.mo").stat().st_mtime_ns
    compile_catalogues(CATALOGUES, tmp_path)
    assert (target / "tr/LC_MESSAGES/messages.mo").stat().st_mtime_ns == stamp


def test_serve_banner_and_lan_addresses() -> None:
    output = "1: lo    inet 127.0.0.1/8 scope host lo\n3: wlan0    inet 10.0.0.7/24 brd 10.0.0.255 scope global wlan0\n"
    assert parse_ip_addr_output(output) == ["10.0.0.7"]
    out = io.StringIO()
    print_banner(lan_urls(["10.0.0.7"], 8000), out)
    assert "http://10.0.0.7:8000/" in out.getvalue() and "█" in out.getvalue() or "▀" in out.getvalue()


def test_photo_without_recognition_models_falls_back_to_tapping(
    editor: FlaskClient, app: Flask, okey_table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Unloadable:
        @staticmethod
        def default() -> None:
            raise RuntimeError("Load model models/detector.onnx failed. File doesn't exist")

    monkeypatch.setitem(sys.modules, "vision", types.SimpleNamespace(Recognizer=Unloadable))
    response = post(editor, f"/t/{okey_table}/photo", {"photo": (io.BytesIO(b"photo"), "r.jpg", "image/jpeg")},
                    content_type="multipart/form-data")
    assert response.status_code == 422 and "tap the tiles instead" in response.text
    assert "recognizer" not in app.extensions


def test_O6_match_end_announces_winners_and_losers(editor: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options={"start_points": 4})
    _session(editor, table)
    for _ in range(2):
        post(editor, f"/t/{table}/deal/indicator", {"indicator": "R4"})
        post(editor, f"/t/{table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "R5"})
    state = store.get(table)
    assert state.finished
    page = text(editor.get(f"/t/{table}").text)
    assert f"Match over. Winners: {', '.join(state.players[s] for s in state.winners)}" in page
    assert "Losers:" in page and "Declare a win" not in page
    # Ali at 4, the three others tied at 0: the second place is no winning place for those who ended the match.
    assert "The match is over: somebody is at 0 or less, and the highest win, players tied on a place sharing it (O6): " \
           "Ali (4). " in page
    assert "won by Ali" in text(editor.get("/").text)
    editor.set_cookie("lang", "tr")
    assert "Oyun bitti: biri 0 ya da altına indi; en yüksekler kazanır, aynı puandakiler sırayı paylaşır (O6): Ali (4)." \
        in text(editor.get(f"/t/{table}").text)


def test_new_table_can_reuse_an_earlier_tables_rules(client: FlaskClient, store: TableStore) -> None:
    earlier = store.create_table(game="okey101", players=PLAYERS, pin="1234", name="Kadıköy",
                                 options={"hands": 7, "multipliers": False})
    fieldset = client.get(f"/new/options?game=okey101&profile=table:{earlier}", headers={"HX-Request": "true"}).text
    assert f'value="table:{earlier}" selected' in fieldset and "Rules of “Kadıköy”" in fieldset
    assert '<option value="7" selected>7</option>' in fieldset, "the earlier table's 7 hands"
    _session(client)
    response = post(client, "/new", {"game": "okey101", "profile": f"table:{earlier}", "player0": "A",
                                     "player1": "B", "pin": "2222"})
    options = store.get(response.headers["Location"].rsplit("/", 1)[1]).options
    assert options.hands == 7 and not options.multipliers


def test_H6_typed_sum_with_okeys_is_shown_in_the_preview(editor: FlaskClient, table101: str) -> None:
    _indicator(editor, table101)
    fields = {**HAND_101, "rack1": "", "sum1": "7", "okeys1": "1"}
    response = post(editor, f"/t/{table101}/hand/check", fields, headers={"HX-Request": "true"})
    assert "Can 108 108 108" in text(response.text)


def test_print_view_lists_why_each_hand_scored(editor: FlaskClient, okey_table: str) -> None:
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "R5"})
    page = text(editor.get(f"/t/{okey_table}/sheet").text)
    assert "Why each hand scored Hand 1 (Dealer: Ali): Ali won by discarding an okey: the opponents lose 4." in page
    assert "Why each hand scored" not in text(editor.get(f"/t/{okey_table}").text)


def test_rename_a_player(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    assert post(editor, f"/t/{okey_table}/rename", {"player": "1", "name": "Cem"}).status_code == 303
    assert store.get(okey_table).players[1] == "Cem"
    duplicate = post(editor, f"/t/{okey_table}/rename", {"player": "2", "name": "ali"})
    assert duplicate.status_code == 422 and "Two players would be called “ali”" in text(duplicate.text)


def test_every_warning_the_recogniser_puts_on_a_tile_has_words_on_the_page() -> None:
    import vision.recognizer as recognizer
    from companion.web.views_text import PHOTO_WORDS

    tile_warnings = {value for name, value in vars(recognizer).items() if name.endswith("_WARNING")}
    assert tile_warnings and tile_warnings <= set(PHOTO_WORDS)


def test_catalogues_translate_every_message_with_the_same_placeholders() -> None:
    from pathlib import Path

    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.pofile import read_po

    from companion.web.i18n import CATALOGUES

    root = CATALOGUES.parent.parent
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
    wanted: set[str] = set()
    for folder, method in (("companion/web", "python"), ("templates", "jinja2.ext:babel_extract")):
        for _file, _line, message, _comments, _context in extract_from_dir(
            root / folder, [("**.py", method) if method == "python" else ("**.html", method)], keywords=keywords
        ):
            wanted.add(message if isinstance(message, str) else message[0])
    placeholder = re.compile(r"%\(\w+\)[sdr]")
    for lang in ("tr", "ru", "th"):
        with (Path(CATALOGUES) / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalogue = read_po(po)
        translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue if m.id}
        assert wanted - set(translated) == set(), lang
        for msgid, message in translated.items():
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings) and not message.fuzzy, (lang, msgid)
            for string in strings:
                assert set(placeholder.findall(string)) <= set(placeholder.findall(str(message.id))), (lang, msgid)


# -- found by playing the journeys in a browser ----------------------------------------------------


def test_three_players_sit_on_three_sides_inside_the_picture() -> None:
    from companion.web.views_table import seat_positions

    for players in (2, 3, 4):
        for point in seat_positions(players):
            half_width = 20 if point["vertical"] else 95
            assert 0 <= float(point["x"]) - half_width and float(point["x"]) + half_width <= 440, (players, point)
    assert [(round(float(p["x"])), round(float(p["y"]))) for p in seat_positions(3)] == [(220, 415), (415, 220), (220, 25)]


def test_O2_three_player_stacks_lie_on_the_felt(editor: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS[:3], pin="1234")
    _session(editor, table)
    post(editor, f"/t/{table}/deal", {"die1": "5", "die2": "2"})
    page = editor.get(f"/t/{table}/deal").text
    for x, y in re.findall(r'transform="translate\(([\d.-]+) ([\d.-]+)\) rotate', page):
        assert 62 <= float(x) <= 378 and 62 <= float(y) <= 378


def test_a_form_sent_twice_records_once(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    fields = {"winner": "0", "tiles": WIN_TILES, "discard": "R5", "indicator": "R4", "event_id": "tap-1"}
    assert post(editor, f"/t/{okey_table}/win", fields).status_code == 303
    assert post(editor, f"/t/{okey_table}/win", fields).status_code == 303
    assert len(store.get(okey_table).hands) == 1
    _indicator(editor, okey_table, "B2")
    post(editor, f"/t/{okey_table}/undo", {"event_id": "undo-1"})
    post(editor, f"/t/{okey_table}/undo", {"event_id": "undo-1"})
    state = store.get(okey_table)
    assert state.deal.indicator is None and len(state.hands) == 1, "one undo, not two"
    assert 'name="event_id"' in editor.get(f"/t/{okey_table}/win").text


def test_O6_gosterme_needs_the_indicator(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    assert "Gösterme (showed" not in editor.get(f"/t/{okey_table}").text
    response = post(editor, f"/t/{okey_table}/gosterme", {"player": "1"})
    assert response.status_code == 422 and "Turn up the indicator first" in response.text
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/gosterme", {"player": "1"})
    page = editor.get(f"/t/{okey_table}").text
    assert 'name="player" value="0"' in page and 'name="player" value="1">Can' not in page, "Can showed already"


def test_O2_a_penalty_before_the_deal_still_lets_the_dice_in(editor: FlaskClient, store: TableStore,
                                                              table101: str) -> None:
    store.record(table101, {"type": "penalty", "player": 1, "reason": "islek"})
    page = editor.get(f"/t/{table101}/deal").text
    assert 'name="die1"' in page
    assert post(editor, f"/t/{table101}/deal/indicator", {"indicator": "R4"}).status_code == 303


def test_H5_a_finisher_left_on_not_opened_has_opened_with_melds(editor: FlaskClient, store: TableStore,
                                                                table101: str) -> None:
    _indicator(editor, table101)
    assert post(editor, f"/t/{table101}/hand", {**HAND_101, "opened0": "none"}).status_code == 303
    assert store.get(table101).hands[0].entries[0] == -101


def test_unknown_address_wrong_method_and_reloaded_pin_page(client: FlaskClient, okey_table: str) -> None:
    missing = client.get("/no/such/page")
    assert missing.status_code == 404 and "There is no such page here" in missing.text and "topbar" in missing.text
    assert client.get("/api/no-such").get_json()["error"], "the API still answers JSON"
    wrong = client.put("/")
    assert wrong.status_code == 405 and "cannot be opened like that" in wrong.text
    reloaded = client.get(f"/t/{okey_table.lower()}/pin")
    assert reloaded.status_code == 303 and reloaded.headers["Location"].endswith(f"/t/{okey_table}#pin")
    assert client.get("/favicon.ico").headers["Location"].endswith("/static/icon.svg")
    assert client.get("/static/icon.svg").status_code == 200


def test_engine_messages_read_in_the_readers_language(editor: FlaskClient, table101: str) -> None:
    editor.set_cookie("lang", "tr")
    opening = text(post(editor, f"/t/{table101}/opening", {"indicator": "R4", "melds": "K5 Y5 B5 B5"}).text)
    assert "Kurala aykırı grup: [K5, Y5, B5, B5] (bir renk tekrar ediyor; grup farklı renkler ister, O4)" in opening
    bad_tile = text(post(editor, f"/t/{table101}/deal/indicator", {"indicator": "X2"}).text)
    assert "“X2” bir taş değil" in bad_tile
    twice = text(post(editor, f"/t/{table101}/hand/check", {**HAND_101, "indicator": "R4", "rack1": "R5 R5 R5"},
                      headers={"HX-Request": "true"}).text)
    assert "Olanaksız: 3 × R5 girildi" in twice


def test_O5_wrong_declaration_and_O6_elimination_are_explained(editor: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234",
                               options={"start_points": 4, "elimination": True})
    _session(editor, table)
    editor.set_cookie("lang", "tr")
    wrong = "R1 R2 R4 R6 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"
    post(editor, f"/t/{table}/win", {"winner": "1", "tiles": wrong, "discard": "R9", "indicator": "K1"})
    page = text(editor.get(f"/t/{table}").text)
    assert "Can yanlış bitirdi: 14 taş perlere veya yedi çifte ayrılmıyor. Ceza: 4 puan (O5)." in page
    assert "1. elden sonra Can 0 puanda ve oyundan çıkıyor." in page


def test_finished_match_marks_no_dealer(editor: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options={"start_points": 2})
    _session(editor, table)
    post(editor, f"/t/{table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "B8", "indicator": "R4"})
    page = editor.get(f"/t/{table}").text
    assert store.get(table).finished and "Match over" in page
    assert "seat dealer" not in page and "⚄ deals" not in page


@pytest.mark.parametrize("players", [2, 3, 4])
def test_O2_stacks_never_overlap_and_stay_on_the_felt(store: TableStore, players: int) -> None:
    from companion.web.views_deal import stack_layout

    table = store.create_table(game="okey", players=PLAYERS[:players], pin="1234")
    plan = store.record(table, {"type": "deal", "dice": [6, 3]}).deal.plan
    boxes = []
    for stack in stack_layout(plan):
        upright = round(stack["rot"]) % 180 == 90
        half_w, half_h = (stack["h"] / 2, stack["w"] / 2) if upright else (stack["w"] / 2, stack["h"] / 2)
        boxes.append((stack["x"] - half_w, stack["y"] - half_h, stack["x"] + half_w, stack["y"] + half_h))
    assert len(boxes) == 21
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        assert 62 <= x1 and x2 <= 378 and 62 <= y1 and y2 <= 378, "on the felt"
        for a1, b1, a2, b2 in boxes[i + 1:]:
            assert x2 <= a1 or a2 <= x1 or y2 <= b1 or b2 <= y1, "two stacks overlap"


def test_O5_a_wrong_declaration_says_the_hand_goes_on(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    _indicator(editor, okey_table, "K1")
    wrong = "R1 R2 R4 R6 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"
    page = post(editor, f"/t/{okey_table}/win", {"winner": "1", "tiles": wrong, "discard": "R9"}, follow_redirects=True)
    assert ("Wrong declaration: Can loses 4 (already in the totals). The hand goes on: still hand 1, Ali deals."
            in text(page.text))
    assert store.get(okey_table).deal.indicator is not None


def test_an_oversized_photo_is_refused_with_a_message(editor: FlaskClient, okey_table: str) -> None:
    huge = io.BytesIO(b"\xff" * (25 * 1024 * 1024 + 64 * 1024 + 1))
    response = post(editor, f"/t/{okey_table}/photo", {"photo": (huge, "big.jpg", "image/jpeg")},
                    content_type="multipart/form-data", headers={"HX-Request": "true"})
    assert response.status_code == 413 and "at most 25 MB" in response.text
    assert "<html" not in response.text, "htmx gets the message alone, to show under the picker"
    assert '{"code":"413","swap":true' in editor.get(f"/t/{okey_table}/win").text


def test_O2_first_dealer_drawn_at_random(client: FlaskClient, app: Flask, store: TableStore) -> None:
    import random

    _session(client)
    app.extensions["dice"] = random.Random(3)
    expected = random.Random(3).randrange(3)
    form = {"game": "okey", "player0": "Ali", "player1": "Can", "player2": "Deniz", "pin": "1234",
            "first_dealer": "random"}
    response = post(client, "/new", form)
    assert response.status_code == 303
    table = response.headers["Location"].rsplit("/", 1)[-1]
    assert store.get(table).dealer == expected
    home = client.get("/").text
    assert '<option value="random"' in home and 'data-seat-label="1"' in home


@pytest.mark.parametrize(("url", "fields", "message"), [
    ("/new", {"game": "okey", "player0": "Ali", "player1": "Can", "pin": "1234", "options_shown": "1",
              "opt_start_points": "-5"}, "“Başlangıç puanı” için '-5' kullanılamaz: 0-10000 kullanın."),
    ("/new", {"game": "okey", "player0": "Ali", "player1": "Can", "player2": "Deniz", "pin": "1234",
              "options_shown": "1", "opt_partners": "on"}, "Eşli oyun 4 oyuncu ister, 3 değil"),
    ("/t/{table}/rename", {"player": "1", "name": "ali"}, "İki oyuncunun adı “ali” olur"),
    ("/t/{table}/rename", {"player": "1", "name": ""}, "1 ile 24 harf arasında bir ad yazın."),
])
def test_store_and_option_errors_read_in_turkish(editor: FlaskClient, okey_table: str, url: str,
                                                 fields: dict[str, str], message: str) -> None:
    editor.set_cookie("lang", "tr")
    response = post(editor, url.format(table=okey_table), fields)
    assert response.status_code == 422 and message in text(response.text)


def test_unknown_table_reads_in_turkish(client: FlaskClient) -> None:
    client.set_cookie("lang", "tr")
    response = client.get("/t/NOPE1")
    assert response.status_code == 404 and "NOPE1 kodlu masa yok" in text(response.text)


def test_a_failed_record_shows_its_message_once(editor: FlaskClient, okey_table: str) -> None:
    fields = {"winner": "0", "tiles": "R1 R2", "discard": "R5", "indicator": "R4"}
    page = text(post(editor, f"/t/{okey_table}/win", fields).text)
    assert page.count("Enter the 14 tiles the winner shows") == 1


def test_photo_warnings_read_in_the_readers_language(editor: FlaskClient, app: Flask, okey_table: str) -> None:
    @dataclass(frozen=True)
    class Seen:
        tile: str = "R7"
        box: tuple[int, int, int, int] = (0, 0, 10, 10)
        confidence: float = 0.5
        low_confidence: bool = True
        warnings: tuple[str, ...] = ("upside down",)

    class Reader:
        def recognize(self, data: bytes, table: bool = False) -> object:
            return types.SimpleNamespace(tiles=(Seen(),), width=20, height=20,
                                         warnings=("1 tile(s) upside down", "1 tile(s) read with low confidence: x"))

    app.extensions["recognizer"] = Reader()
    editor.set_cookie("lang", "ru")
    response = post(editor, f"/t/{okey_table}/photo", {"photo": (io.BytesIO(b"jpeg"), "r.jpg", "image/jpeg")},
                    content_type="multipart/form-data")
    words = text(response.text)
    assert "Перевёрнутых фишек: 1." in words and "Фишек для подтверждения: 1 (пунктир)." in words
    assert "· перевёрнута" in response.text


def test_a_tile_read_as_a_joker_is_offered_as_a_false_okey_to_confirm(editor: FlaskClient, app: Flask,
                                                                       okey_table: str) -> None:
    @dataclass(frozen=True)
    class Seen:
        tile: str
        box: tuple[int, int, int, int] = (0, 0, 10, 10)
        confidence: float = 0.97
        low_confidence: bool = False

    class Reader:
        def recognize(self, data: bytes, table: bool = False) -> object:
            return types.SimpleNamespace(tiles=(Seen("R7"), Seen("J")), width=20, height=20, warnings=())

    app.extensions["recognizer"] = Reader()
    response = post(editor, f"/t/{okey_table}/photo", {"photo": (io.BytesIO(b"jpeg"), "r.jpg", "image/jpeg")},
                    content_type="multipart/form-data")
    assert 'data-code="F"' in response.text and 'data-code="J"' not in response.text
    assert re.search(r'class="tile F low"', response.text), "unsure until tapped"
    assert re.search(r"data-use-photo\s+disabled", response.text)


def test_only_the_latest_tables_offer_their_rules(client: FlaskClient, store: TableStore) -> None:
    for n in range(10):
        store.create_table(game="okey", players=["Ali", "Can"], pin="1234", name=f"Night {n}")
    home = client.get("/").text
    assert home.count("Rules of “Night") == 8 and "Rules of “Night 9”" in home and "Rules of “Night 1”" not in home


def test_pin_guessing_is_slowed_down(client: FlaskClient, store: TableStore, okey_table: str) -> None:
    _session(client)
    for guess in ("0000", "0001", "0002", "0003", "0004"):
        assert "Wrong PIN" in post(client, f"/t/{okey_table}/pin", {"pin": guess}).text
    blocked = post(client, f"/t/{okey_table}/pin", {"pin": "1234"})
    assert blocked.status_code == 422 and "Too many wrong PINs" in blocked.text, "even the right PIN waits"
    phone = post(client, f"/t/{okey_table}/pin", {"pin": "1234"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert phone.status_code == 303, "another phone is not blocked"


def test_O2_enter_in_the_real_die_field_uses_the_typed_die(editor: FlaskClient, okey_table: str) -> None:
    post(editor, f"/t/{okey_table}/deal", {"die1": "5", "die2": "2"})
    page = editor.get(f"/t/{okey_table}/deal").text
    forms = re.findall(r"<form[^>]*/deal/reroll.*?</form>", page, re.S)
    typed = [form for form in forms if 'name="die"' in form]
    assert len(typed) == 1 and 'name="roll"' not in typed[0], "implicit submission would press 'roll'"


def test_O6_gosterme_from_the_win_form_stays_on_it(editor: FlaskClient, store: TableStore, okey_table: str) -> None:
    _indicator(editor, okey_table)
    response = post(editor, f"/t/{okey_table}/gosterme", {"player": "2", "back": "win"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{okey_table}/win#gosterme")
    page = text(editor.get(f"/t/{okey_table}/win").text)
    assert "✓ Deniz" in page and store.get(okey_table).deal.gosterme == (2,)
    post(editor, f"/t/{okey_table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "B8"})
    assert store.get(okey_table).hands[0].entries == (-1, -3, -2, -3), "the win and the gösterme, O6"


def test_times_are_shown_in_the_rooms_time(client: FlaskClient, store: TableStore, okey_table: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import time
    from datetime import datetime, timezone

    monkeypatch.setenv("TZ", "UTC-3")  # Istanbul, without needing tzdata
    time.tzset()
    try:
        updated = store.list_tables()[0].updated_at
        local = datetime.fromisoformat(updated).astimezone(timezone.utc).replace(tzinfo=None)
        expected = (local.replace(hour=(local.hour + 3) % 24)).strftime("%H:%M")
        assert expected in client.get("/").text
        assert " UTC" not in client.get(f"/t/{okey_table}/history").text
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_partners_and_hands_are_in_sight_on_the_new_table_form(client: FlaskClient) -> None:
    page = client.get("/new/options?game=okey101", headers={"HX-Request": "true"}).text
    folded = page[page.index("<details>"):]
    assert 'name="opt_partners"' in page and 'name="opt_hands"' in page
    assert 'name="opt_partners"' not in folded and 'name="opt_hands"' not in folded
    assert 'name="opt_multipliers"' in folded
