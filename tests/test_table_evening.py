"""What two real evenings at the table tripped over (issue 12), through Flask's test client: wrong
declarations, pending gösterme and penalties, typed sums, correcting a past hand, exports.
Tests that check a rule are named after it (RULES.md)."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore

TOKEN = "test-token"
PLAYERS = ["Ayşe", "Bora", "Cem", "Işıl"]
WIN_TILES = "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"
NOT_A_WIN = "R1 R2 R4 R6 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"


def _session(client: FlaskClient, *tables: str) -> None:
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True for table in tables}


def post(client: FlaskClient, url: str, data: dict[str, str] | None = None, **kwargs: object):
    return client.post(url, data={"csrf_token": TOKEN, **(data or {})}, **kwargs)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def okey_table(store: TableStore) -> str:
    return store.create_table(game="okey", players=PLAYERS, pin="1234")


@pytest.fixture
def table101(store: TableStore) -> str:
    return store.create_table(game="okey101", players=PLAYERS, pin="1234")


@pytest.fixture
def editor(client: FlaskClient, okey_table: str, table101: str) -> FlaskClient:
    _session(client, okey_table, table101)
    return client


def _indicator(client: FlaskClient, table: str, tile: str = "R4") -> None:
    post(client, f"/t/{table}/deal/indicator", {"indicator": tile})


def _sheet_rows(html: str) -> list[list[str]]:
    body = html[html.index('<table class="sheet">'):]
    body = body[: body.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [[text(re.sub(r'<div class="why">.*?</div></details>', "", cell, flags=re.S)).strip()
             for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)] for row in rows]


def test_O5_a_wrong_declaration_keeps_the_hand_counter_and_dealer(editor: FlaskClient, okey_table: str) -> None:
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/win", {"winner": "3", "tiles": NOT_A_WIN, "discard": "R9"})
    page = editor.get(f"/t/{okey_table}").text
    assert "Hand 1 · Ayşe deals" in text(page)
    rows = _sheet_rows(page)
    assert rows[1] == ["1 ▸", "·", "·", "·", "-4"], "the hand being played shows the penalty in its row"
    assert rows[-1] == ["Total", "20", "20", "20", "16"], "and the totals at once"
    post(editor, f"/t/{okey_table}/win", {"winner": "1", "tiles": WIN_TILES, "discard": "Y8"})
    page = editor.get(f"/t/{okey_table}").text
    assert "Hand 2 · Bora deals" in text(page)
    rows = _sheet_rows(page)
    assert rows[1] == ["1", "-2", "0", "-2", "-6"] and rows[-1] == ["Total", "18", "20", "18", "14"]
    assert text(page).count("Dealer: Ayşe") == 1
    history = text(editor.get(f"/t/{okey_table}/history").text)
    assert "wrong declaration" in history.lower()


def test_O6_a_pending_gosterme_shows_on_the_sheet_and_the_preview_says_when_it_counts(
    editor: FlaskClient, okey_table: str
) -> None:
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/gosterme", {"player": "2"})
    page = text(editor.get(f"/t/{okey_table}").text)
    assert "Gösterme: Cem (counts when the hand is recorded)" in page
    assert "Cem showed the indicator's twin (gösterme): the opponents lose 1 when the hand is recorded." in page
    wrong = text(post(editor, f"/t/{okey_table}/win/check", {"winner": "0", "tiles": NOT_A_WIN, "discard": "R9"},
                      headers={"HX-Request": "true"}).text)
    assert "the opponents lose 1 when the hand is recorded" in wrong
    assert "It counts when the hand is recorded" in text(editor.get(f"/t/{okey_table}/win").text)


def test_H7_a_penalty_is_in_the_totals_of_page_csv_json_and_api_at_once(
    editor: FlaskClient, table101: str
) -> None:
    post(editor, f"/t/{table101}/penalty", {"player": "1", "reason": "islek"})
    rows = _sheet_rows(editor.get(f"/t/{table101}").text)
    assert rows[-1] == ["Total", "0", "101", "0", "0"]
    assert json.loads(editor.get(f"/api/tables/{table101}").text)["sheet"]["totals"] == [0, 101, 0, 0]
    exported = editor.get(f"/api/tables/{table101}/export.json").get_json()
    assert exported["sheet"]["totals"] == [0, 101, 0, 0] and exported["table"]["standings"]["totals"] == [0, 101, 0, 0]
    lines = list(csv.reader(io.StringIO(editor.get(f"/api/tables/{table101}/export.csv").text.lstrip("\ufeff"))))
    total = next(line for line in lines if line and line[0] == "Total")
    assert total[2:6] == ["0", "101", "0", "0"]


def test_H6_a_typed_sum_and_tiles_for_one_rack_are_refused(editor: FlaskClient, table101: str, store: TableStore) -> None:
    _indicator(editor, table101)
    fields = {"finisher": "0", "opened0": "melds", "opened1": "melds", "rack1": "R5 K7", "sum1": "12",
              "opened2": "none", "opened3": "none"}
    check = post(editor, f"/t/{table101}/hand/check", fields, headers={"HX-Request": "true"})
    assert check.status_code == 422
    assert "Bora has tiles and a typed sum: keep one of them" in text(check.text)
    response = post(editor, f"/t/{table101}/hand", fields)
    assert response.status_code == 422 and store.get(table101).hands == ()


def test_amend_corrects_hand_2_after_hand_5_and_the_history_keeps_both(
    editor: FlaskClient, okey_table: str, store: TableStore
) -> None:
    for winner in "01230":
        _indicator(editor, okey_table)
        post(editor, f"/t/{okey_table}/win", {"winner": winner, "tiles": WIN_TILES, "discard": "Y8"})
    assert store.get(okey_table).totals == (14, 12, 12, 12)
    sheet = editor.get(f"/t/{okey_table}").text
    assert f"/t/{okey_table}/win?amend=2" in sheet
    form = editor.get(f"/t/{okey_table}/win?amend=2").text
    assert "Correct hand 2" in text(form) and 'name="amend" value="2"' in form
    assert 'value="R4"' in form and WIN_TILES in form, "the form starts from the recorded hand"
    preview = post(editor, f"/t/{okey_table}/win/check", {"amend": "2", "indicator": "R4", "winner": "2",
                                                          "tiles": WIN_TILES, "discard": "R5"},
                   headers={"HX-Request": "true"})
    assert "okey discarded: double" in text(preview.text)
    page = post(editor, f"/t/{okey_table}/win", {"amend": "2", "indicator": "R4", "winner": "2", "tiles": WIN_TILES,
                                                  "discard": "R5"}, follow_redirects=True)
    assert "Hand 2 corrected: every total after it is recomputed." in text(page.text)
    state = store.get(okey_table)
    assert len(state.hands) == 5 and state.hands[1].amended and state.hands[1].entries == (-4, -4, 0, -4)
    assert state.totals == (12, 8, 14, 10) and state.dealer == 1
    log = store.events(okey_table)
    assert [e.type for e in log].count("okey_hand") == 5 and log[-1].type == "amend"
    history = text(editor.get(f"/t/{okey_table}/history").text)
    assert "hand 2 replaced by a corrected record" in history
    bad = post(editor, f"/t/{okey_table}/win", {"amend": "9", "indicator": "R4", "winner": "2", "tiles": WIN_TILES,
                                                 "discard": "R5"})
    assert bad.status_code == 422 and "There is no recorded hand 9 to correct." in text(bad.text)


def test_amend_a_101_hand_from_its_form(editor: FlaskClient, table101: str, store: TableStore) -> None:
    _indicator(editor, table101)
    post(editor, f"/t/{table101}/penalty", {"player": "3", "reason": "islek"})
    post(editor, f"/t/{table101}/hand", {"finisher": "0", "opened1": "melds", "sum1": "12", "opened2": "none",
                                         "opened3": "melds", "rack3": "B1 B2"})
    assert store.get(table101).totals == (-101, 12, 202, 104)
    form = editor.get(f"/t/{table101}/hand?amend=1").text
    assert 'name="sum1"' in form and 'value="12"' in form and "B1 B2" in form
    assert "Void hand" not in form
    post(editor, f"/t/{table101}/hand", {"amend": "1", "indicator": "R4", "finisher": "0", "opened1": "melds",
                                         "sum1": "20", "opened2": "none", "opened3": "melds", "rack3": "B1 B2"})
    state = store.get(table101)
    assert state.totals == (-101, 20, 202, 104), "the +101 of that hand stays"
    assert len(state.hands) == 1 and state.hands[0].amended


def test_undo_redo_gosterme_rename_and_penalty_say_what_they_did(
    editor: FlaskClient, okey_table: str, table101: str
) -> None:
    _indicator(editor, okey_table)
    page = text(post(editor, f"/t/{okey_table}/gosterme", {"player": "2"}, follow_redirects=True).text)
    assert "Gösterme recorded for Cem: the opponents lose 1 when the hand is recorded." in page
    post(editor, f"/t/{okey_table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "Y8"})
    page = text(post(editor, f"/t/{okey_table}/undo", follow_redirects=True).text)
    assert "Undid hand 1: Ayşe finished." in page
    page = text(post(editor, f"/t/{okey_table}/redo", follow_redirects=True).text)
    assert "Redid hand 1: Ayşe finished." in page
    page = text(post(editor, f"/t/{okey_table}/undo", follow_redirects=True).text)
    page = text(post(editor, f"/t/{okey_table}/undo", follow_redirects=True).text)
    assert "Undid: gösterme · Cem." in page
    page = text(post(editor, f"/t/{okey_table}/rename", {"player": "1", "name": "Berk"}, follow_redirects=True).text)
    assert "Bora is now called Berk." in page
    page = text(post(editor, f"/t/{table101}/penalty", {"player": "3", "reason": "islek"}, follow_redirects=True).text)
    assert "+101 for Işıl (discarded a tile that fits a meld (işlek)): already in the totals." in page


def test_the_audit_log_reads_as_words_not_json(editor: FlaskClient, okey_table: str, table101: str) -> None:
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/win", {"winner": "0", "tiles": WIN_TILES, "discard": "Y8"})
    history = editor.get(f"/t/{okey_table}/history").text
    words = text(history[: history.index('class="raw"')])
    assert f"Ayşe shows {WIN_TILES} and discards Y8" in words
    assert '{"' not in words, "raw JSON only inside the folded raw record"
    _indicator(editor, table101)
    post(editor, f"/t/{table101}/hand", {"finisher": "0", "opened1": "melds", "sum1": "12", "opened2": "none",
                                         "opened3": "pairs", "rack3": "B1 B1"})
    words = text(editor.get(f"/t/{table101}/history").text)
    assert "Bora: opened with melds, sum 12 typed, 0 okeys" in words and "Işıl: opened with pairs, keeps B1 B1" in words
    assert "Cem: not opened" in words


def test_a_wrong_pin_is_answered_at_the_top_of_the_page(client: FlaskClient, okey_table: str) -> None:
    _session(client)
    response = post(client, f"/t/{okey_table}/pin", {"pin": "9999"})
    assert response.status_code == 422
    page = response.text
    main = page[page.index('<main id="main">'):]
    assert main.index("Wrong PIN.") < main.index('class="okey-strip"' if 'class="okey-strip"' in main else "Score sheet")
    assert "autofocus" in page[page.index('id="pin"'):page.index('id="pin"') + 2000]


def test_H6_why_this_number_shows_the_tiles_and_the_sum_with_names_in_the_readers_language(
    editor: FlaskClient, table101: str
) -> None:
    _indicator(editor, table101)
    post(editor, f"/t/{table101}/hand", {"finisher": "0", "opened1": "melds", "rack1": "Y1 Y2", "opened2": "melds",
                                         "sum2": "12", "opened3": "pairs", "rack3": "R5 K7"})
    page = text(editor.get(f"/t/{table101}").text)
    assert "Bora keeps Y1 Y2: 1 + 2 = 3 → 3." in page
    assert "Cem keeps a typed sum: 12 → 12." in page
    assert "Işıl keeps R5 K7: 101 (okey) + 7 = 108 × 2 (opened with pairs) → 216." in page
    editor.set_cookie("lang", "tr")
    turkish = text(editor.get(f"/t/{table101}").text)
    assert "Bora elinde Y1 Y2 tutar: 1 + 2 = 3 → 3." in turkish


def test_csv_has_a_bom_names_reason_words_and_the_readers_language(editor: FlaskClient, table101: str) -> None:
    partners = editor.application.config  # noqa: F841 - the app is the one the store writes to
    _indicator(editor, table101)
    post(editor, f"/t/{table101}/penalty", {"player": "3", "reason": "discarded_okey"})
    post(editor, f"/t/{table101}/hand", {"finisher": "0", "opened1": "melds", "rack1": "Y1 Y2", "opened2": "none",
                                         "opened3": "melds", "sum3": "5"})
    raw = editor.get(f"/api/tables/{table101}/export.csv").data
    assert raw.startswith("\ufeff".encode()), "a byte-order mark: spreadsheets read Ayşe as UTF-8"
    lines = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert lines[0] == ["Hand", "Dealer", *PLAYERS, "Explanation"]
    assert "Bora keeps Y1 Y2: 1 + 2 = 3 → 3." in lines[1][-1] and "Işıl pays +101" in lines[1][-1]
    assert "player 1" not in raw.decode().lower()
    ledger = lines[lines.index(["Penalty in hand", "Player", "Reason", "Points"]) + 1]
    assert ledger == ["1", "Işıl", "discarded an okey", "101"], "reason words, not the key discarded_okey"
    turkish = editor.get(f"/api/tables/{table101}/export.csv?lang=tr").data.decode("utf-8-sig")
    assert turkish.startswith("El,") and "Bora elinde Y1 Y2 tutar" in turkish and "okey attı" in turkish.lower()
    assert f"lang=en" in editor.get(f"/t/{table101}").text.split("export.csv")[1][:40]


def test_csv_names_teams_not_player_numbers(client: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options={"partners": True})
    _session(client, table)
    _indicator(client, table)
    post(client, f"/t/{table}/win", {"winner": "1", "tiles": WIN_TILES, "discard": "R5"})
    body = client.get(f"/api/tables/{table}/export.csv").data.decode("utf-8-sig")
    assert "players 1 and 3" not in body and "players 2 and 4" not in body
    assert "Ayşe & Cem" in body


class _Seen:
    def __init__(self, tile: str, confidence: float, low: bool, x: int) -> None:
        self.tile, self.confidence, self.low_confidence, self.box = tile, confidence, low, (x, 10, x + 40, 70)


class _Photo:
    def __init__(self, tiles: list[_Seen], warnings: list[str]) -> None:
        self.tiles, self.warnings, self.width, self.height = tiles, warnings, 400, 100


class _Reader:
    """Reads a J (Rummikub's joker, shown as F to confirm) and one unsure K13; a non-image is refused by the
    real header check, whose message quotes the file's first bytes."""

    def recognize(self, data: bytes, table: bool = False) -> _Photo:
        from vision.imageio import header_info

        header_info(data)
        return _Photo([_Seen("R7", 0.98, False, 10), _Seen("J", 0.9, False, 60), _Seen("K13", 0.4, True, 110)],
                      ["1 tile(s) read with low confidence: please confirm them"])


PNG = bytes.fromhex("89504e470d0a1a0a0000000d494844520000000100000001080600000000")


def test_photo_unsure_count_and_warning_agree_and_a_non_image_gets_words_not_bytes(
    editor: FlaskClient, okey_table: str
) -> None:
    editor.application.extensions["recognizer"] = _Reader()
    url = f"/t/{okey_table}/photo"
    seen = post(editor, url, {"picker": "picker-tiles", "photo": (io.BytesIO(PNG), "r.png", "image/png")},
                content_type="multipart/form-data")
    words = text(seen.text)
    assert seen.text.count('class="box low"') == 2
    assert "Tiles to confirm: 2 (dashed)." in words and "low confidence: 1" not in words
    bad = post(editor, url, {"photo": (io.BytesIO(b"not an image\n"), "x.jpg", "image/jpeg")},
               content_type="multipart/form-data")
    assert bad.status_code == 422
    assert "b'" not in bad.text and "\\n" not in bad.text
    assert "That file is not a photo: choose a JPEG or PNG photo of the tiles." in text(bad.text)


def test_O5_not_a_winning_hand_reason_starts_with_a_capital(editor: FlaskClient, okey_table: str) -> None:
    _indicator(editor, okey_table)
    check = post(editor, f"/t/{okey_table}/win/check", {"winner": "1", "tiles": NOT_A_WIN, "discard": "R9"},
                 headers={"HX-Request": "true"})
    assert "Not a winning hand. The 14 tiles do not split into melds or seven pairs" in text(check.text)


def test_past_tables_come_first_with_their_totals(editor: FlaskClient, okey_table: str, store: TableStore) -> None:
    _indicator(editor, okey_table)
    post(editor, f"/t/{okey_table}/win", {"winner": "1", "tiles": WIN_TILES, "discard": "R5"})
    home = editor.get("/").text
    assert home.index("Past tables") < home.index('id="new-table"'), "the past tables before the whole form"
    past = text(home[home.index("Past tables"):home.index('id="new-table"')])
    assert "Ayşe 16 Bora 20 Cem 16 Işıl 16" in past
    assert store.list_tables()[-1].to_dict()["totals"] == [16, 20, 16, 16]


def test_the_default_title_follows_renames_and_the_readers_language(
    editor: FlaskClient, table101: str, store: TableStore
) -> None:
    post(editor, f"/t/{table101}/rename", {"player": "1", "name": "Berk"})
    assert store.get(table101).name == "Okey 101 – Ayşe, Berk, Cem, Işıl"
    assert "<h1>Okey 101 – Ayşe, Berk, Cem, Işıl</h1>" in editor.get(f"/t/{table101}").text
    assert "Okey 101 – Ayşe, Berk, Cem, Işıl" in text(editor.get("/").text)
    editor.set_cookie("lang", "ru")
    okey = store.create_table(game="okey", players=["Ali", "Can"], pin="1234")
    assert "<h1>Окей – Ali, Can</h1>" in editor.get(f"/t/{okey}").text
    named = store.create_table(game="okey", players=["Ali", "Can"], pin="1234", name="Cuma akşamı")
    assert "<h1>Cuma akşamı</h1>" in editor.get(f"/t/{named}").text


def test_the_print_view_has_no_dangling_separator(editor: FlaskClient, okey_table: str) -> None:
    page = editor.get(f"/t/{okey_table}/sheet").text
    line = page[page.index('<p class="muted">'):]
    line = line[: line.index("</p>")]
    assert '<span class="no-print">· <span class="pill">' in line, "the separator goes with the pill when printing"
