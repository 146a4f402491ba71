"""The Rummikub turn referee page (RULES.md §R, R3-R5): was a whole turn legal, and may a tile take a joker lying
on the table.  The engine's answers are tested in tests/test_rules_rummikub.py; here the page asks them, shows the
verdict and the reason in the reader's language, and records nothing."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore

PLAYERS = ["Ali", "Can", "Deniz"]
TOKEN = "test-token"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def table(client: FlaskClient, store: TableStore) -> str:
    """A Rummikub table seen by a viewer: a CSRF token in the session, but no editor PIN."""
    created = store.create_table(game="rummikub", players=PLAYERS, pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return created


def ask_turn(client: FlaskClient, table: str, **fields: str):
    """The turn form as a browser sends it, with the pickers' own empty ``after`` field (their last photo)."""
    return client.post(f"/t/{table}/turn", data={"csrf_token": TOKEN, "check": "turn", "opened": "1", "after": "",
                                                  **fields})


def ask_joker(client: FlaskClient, table: str, **fields: str):
    return client.post(f"/t/{table}/turn", data={"csrf_token": TOKEN, "check": "joker", "joker_opened": "1", **fields})


def test_R4_the_page_offers_both_questions(client: FlaskClient, table: str):
    page = client.get(f"/t/{table}/turn")
    assert page.status_code == 200
    html = page.text
    for name in ("table_before", "table_after", "rack", "meld", "tile"):
        assert f'name="{name}"' in html and f'id="picker-{name}"' in html
    assert re.search(r'name="opened" value="1"\s+checked', html), "made the initial meld: ticked to begin with"
    assert re.search(r'name="joker_opened" value="1"\s+checked', html)
    assert html.count('data-tile="J"') == 5 and 'data-tile="F"' not in html
    assert "turn-result" not in html and "joker-result" not in html


def test_R4_a_legal_turn(client: FlaskClient, store: TableStore, table: str):
    events = len(store.events(table))
    shown = ask_turn(client, table, table_before="R4 J R6", table_after="R4 R5 R6 | K9 K10 J", rack="R5 K9 K10 K1")
    assert shown.status_code == 200
    result = text(shown.text.split('id="turn-result"')[1].split("</section>")[0])
    assert "✓ Legal turn." in result
    assert "no tile left it, and the player laid R5 K9 K10 (R4)" in result
    assert "Tiles laid: 3, worth 24 points." in result
    laid = shown.text.split("data-laid")[1].split("</p>")[0]
    assert re.findall(r'title="(\w+)"', laid) == ["R5", "K9", "K10"]
    assert 'value="R4 R5 R6 | K9 K10 J"' in shown.text, "the form keeps what was typed"
    assert len(store.events(table)) == events, "the referee records nothing"


def test_R5_a_joker_taken_back_and_not_laid_again_is_illegal(client: FlaskClient, table: str):
    shown = ask_turn(client, table, table_before="R4 J R6", table_after="R4 R5 R6")
    assert shown.status_code == 200
    result = text(shown.text.split('id="turn-result"')[1].split("</section>")[0])
    assert "✗ Not a legal turn." in result
    assert "J left the table: a joker taken from the table must be laid again in the same turn (R5)." in result


def test_R3_before_the_initial_meld(client: FlaskClient, table: str):
    small = ask_turn(client, table, table_before="", table_after="R4 R5 R6", opened="")
    assert "the new melds from the rack are worth 15, and it needs at least 30 (R3)" in text(small.text)
    touched = ask_turn(client, table, table_before="R4 R5 R6", table_after="R4 R5 R6 R7 | K10 K11 K12", opened="")
    assert "The table was changed before the initial meld" in text(touched.text)
    assert not re.search(r'name="opened" value="1"\s+checked', touched.text), "the box stays as it was sent"


@pytest.mark.parametrize(("fields", "message"), [
    ({"table_after": "R4 X5 R6"}, "“X5” is not a tile"),
    ({"table_after": "R4 R4 R4 R5"}, "Impossible: 3 × R4 entered, but a Rummikub set has only 2 of that tile (R1)."),
    ({"table_after": ""}, "Enter the table after the turn"),
    ({"table_after": "F R5 R6"}, "“F” is Okey's false okey"),
])
def test_R1_bad_input_is_a_clear_422(client: FlaskClient, table: str, fields: dict[str, str], message: str):
    refused = ask_turn(client, table, table_before="", **fields)
    assert refused.status_code == 422
    assert message in text(refused.text) and "Traceback" not in refused.text
    assert 'id="turn-error"' in refused.text and 'id="joker-error"' not in refused.text


def test_R4_an_illegal_meld_says_which_and_why(client: FlaskClient, table: str):
    shown = ask_turn(client, table, table_before="", table_after="R4 R5 R6 | R12 R13 R1")
    assert ("Meld 2 of the table after the turn is an illegal run: [R12, R13, R1] (1 after 13 is not allowed here "
            "(runs 12-13-1 are off, R2))") in text(shown.text)


def test_R5_a_tile_takes_the_joker_it_stands_for(client: FlaskClient, table: str):
    allowed = ask_joker(client, table, meld="R7 B7 J", tile="k7")
    assert allowed.status_code == 200
    result = allowed.text.split('id="joker-result"')[1].split("</section>")[0]
    assert "✓ Yes, the tile takes the joker." in text(result)
    assert "K7 takes the joker of [R7, B7, J]: the joker must be laid again in this same turn (R5)." in text(result)
    assert re.findall(r'data-tile="(\w+)"', result) == ["R7", "B7", "K7"]
    assert result.count(" placed") == 1 and 'class="tile K placed"' in result


def test_R5_a_tile_refused_and_not_before_the_initial_meld(client: FlaskClient, table: str):
    wrong = text(ask_joker(client, table, meld="R4 J R6", tile="R7").text)
    assert "✗ No, the tile cannot take the joker." in wrong
    assert ("R7 cannot take the joker of [R4, J, R6]: the joker stands for R5, and only that tile takes it "
            "(R5).") in wrong
    either = text(ask_joker(client, table, meld="R7 B7 J", tile="R8").text)
    assert "the joker stands for K7 or Y7" in either
    closed = text(ask_joker(client, table, meld="R4 J R6", tile="R5", joker_opened="").text)
    assert "A joker on the table can be taken only after the initial meld" in closed
    none = text(ask_joker(client, table, meld="R4 R5 R6", tile="R7").text)
    assert "[R4, R5, R6] holds no joker" in none
    two = ask_joker(client, table, meld="R4 J R6", tile="R5 R6")
    assert two.status_code == 422 and "Enter one numbered tile, not R5 R6" in text(two.text)
    assert 'id="joker-error"' in two.text


def test_R5_one_question_keeps_what_was_typed_for_the_other(client: FlaskClient, table: str):
    shown = ask_joker(client, table, meld="R4 J R6", tile="R5", table_before="K1 K2 K3", table_after="K1 K2 K3 K4",
                      opened="")
    joker_form = shown.text.split('id="joker-form"')[1].split("</form>")[0]
    assert '<input type="hidden" name="table_after" value="K1 K2 K3 K4">' in joker_form
    assert '<input type="hidden" name="opened" value="">' in joker_form
    turn_form = shown.text.split('id="turn-form"')[1].split("</form>")[0]
    assert 'name="table_after" value="K1 K2 K3 K4"' in turn_form
    assert not re.search(r'name="opened" value="1"\s+checked', turn_form)
    assert '<input type="hidden" name="tile" value="R5">' in turn_form


def test_R4_the_table_page_links_the_referee(client: FlaskClient, table: str):
    page = client.get(f"/t/{table}").text
    assert f'href="/t/{table}/turn"' in page and "Turn referee" in page


def test_R4_the_referee_refuses_another_game(client: FlaskClient, store: TableStore):
    okey = store.create_table(game="okey", players=PLAYERS, pin="1234")
    assert client.get(f"/t/{okey}/turn").status_code in (404, 422)


@pytest.mark.parametrize(("lang", "title", "reason"), [
    ("tr", "Hamle hakemi", "J masadan ayrıldı: masadan alınan joker aynı hamlede yeniden dizilmeli (R5)."),
    ("ru", "Судья хода", "Со стола ушло: J. Джокера, взятого со стола, нужно снова выложить в том же ходу (R5)."),
    ("th", "ผู้ตัดสินตาเล่น", "J ออกจากโต๊ะ: โจ๊กเกอร์ที่เอามาจากโต๊ะต้องลงใหม่ในตาเดียวกัน (R5)"),
])
def test_R5_the_page_in_the_readers_language(client: FlaskClient, table: str, lang: str, title: str, reason: str):
    client.set_cookie("lang", lang)
    page = text(client.get(f"/t/{table}/turn").text)
    assert title in page and "Was the turn legal?" not in page and "Check the joker" not in page
    assert title in text(client.get(f"/t/{table}").text)
    shown = text(ask_turn(client, table, table_before="R4 J R6", table_after="R4 R5 R6").text)
    assert reason in shown and "left the table" not in shown
    meld = text(ask_turn(client, table, table_before="", table_after="R4 R5 R7").text)
    assert "the numbers must follow" not in meld and "illegal" not in meld


TURNS = [
    {"before": "R4 J R6", "after": "R4 R5 R6 | K9 K10 J"},
    {"before": "R4 R5 R6", "after": "R4 R5 R6"},
    {"before": "", "after": "R4 R5 R7"},
    {"before": "", "after": "R7 B7"},
    {"before": "R4 R5 R6 R7", "after": "R4 R5 R6"},
    {"before": "R4 J R6", "after": "R4 R5 R6"},
    {"before": "", "after": "R4 R5 R6", "opened": False},
    {"before": "R4 R5 R6", "after": "R4 R5 R6 R7 | K10 K11 K12", "opened": False},
    {"before": "", "after": "R4 R5 R6", "rack": "K1"},
]
JOKERS = [
    {"meld": "R4 J R6", "tile": "R5"},
    {"meld": "R4 J R6", "tile": "R5", "opened": False},
    {"meld": "R4 J R6", "tile": "R7"},
    {"meld": "R7 B7 J", "tile": "R8"},
    {"meld": "R4 R5 R6", "tile": "R7"},
    {"meld": "R4 R6 J", "tile": "R5"},
]
BAD = [("turn", {"after": "R4 R4 R4 R5"}), ("turn", {"after": ""}), ("turn", {"after": "F R5 R6"}),
       ("turn", {"after": " ".join(f"R{n}" for n in range(1, 14)) + " K1"}),
       ("joker", {"meld": "R4 J R6", "tile": "R5 R6"}), ("joker", {"meld": "", "tile": "R5"}),
       ("joker", {"meld": "R4 J R6", "tile": ""})]


@pytest.mark.parametrize("lang", ["tr", "ru", "th"])
def test_R3_R5_every_reason_of_the_referee_reads_in_the_readers_language(app, lang: str):
    """The engine's words are matched by pattern: a reason worded anew there would show in English here."""
    from companion.rules.registry import find_game
    from companion.rules.rummikub import RummikubOptions
    from companion.web.views_text import engine_text

    game = find_game("rummikub")
    messages = [game.ops["turn"](turn, RummikubOptions())["reason"] for turn in TURNS]
    messages += [game.ops["joker"](joker, RummikubOptions())["reason"] for joker in JOKERS]
    for op, request in BAD:
        with pytest.raises(ValueError) as refused:
            game.ops[op](request, RummikubOptions())
        messages.append(str(refused.value))
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        for message in messages:
            shown = engine_text(message)
            assert shown != message and "turn" not in shown and "the table" not in shown, (lang, message, shown)


def test_R1_more_tiles_than_a_set_holds_reads_in_the_readers_language(client: FlaskClient, table: str):
    client.set_cookie("lang", "tr")
    shown = ask_joker(client, table, meld="R1 R2 J", tile="R3 " * 200)
    assert shown.status_code == 422
    assert "İmkânsız: 200 taş girildi, ama bütün bir takımda yalnızca 106 taş var." in text(shown.text)
