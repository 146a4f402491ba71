"""Round 44: error messages a player meets on the HTML pages, in the reader's language.

Each case posts a realistic mistake on the real page (a wrong card code, a J typed in an Okey rack, an illegal
meld on the lay-down assistant's table, a correction that is no win, a form sent again from an old copy of the
page …) with the ``lang`` cookie set, and checks that the error the page shows is the translation of the rules
engine's English message (``engine_text`` in ``companion/web/views_text.py``), not the English itself.  A case
is named after the rule id the message gives, where it gives one.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore

TOKEN = "r44-token"
PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
INDICATOR = [{"type": "indicator", "tile": "R4"}]  # the okey is R5
WIN = "R1 R2 R3 Y7 Y8 Y9 B10 B11 B12 K3 K4 K5 K6 K7"
NOT_A_WIN = "R1 R3 R6 Y7 Y8 Y9 B10 B11 B12 K3 K4 K5 K6 K7"
OKEY_HAND = {"type": "okey_hand", "hand": {"winner": 0, "tiles": WIN, "discard": "K9", "indicator": "R4"}}
HAND_101 = {"type": "okey101_hand", "hand": {
    "indicator": "R4", "finisher": 0, "finish": "normal", "elden": False,
    "players": [{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "R1"}, {"opened": None, "rack": "Y7"},
                {"opened": "melds", "rack": "B1"}]}}
CARDS_26 = " ".join(f"{rank}{suit}" for suit in "HS" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                                                   "Q", "K", "A"))
RACK_23 = "R1 R2 R3 R6 R7 R8 R9 R10 R11 R12 R13 Y1 Y2 Y3 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 B1"
THAI_HAND = {"knocker": "0", "knock_card": "2C", "laid0": "5H 6H 7H", "hand0": "", "laid1": "", "hand1": "KS QS",
             "laid2": "", "hand2": "3D", "laid3": "", "hand3": "4C"}
TABLE_PLAYERS = {"game": "okey", "profile": "reference", "player0": "Ali", "player1": "Can", "player2": "Deniz",
                 "player3": "Ece", "pin": "1234"}


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


_ERROR = re.compile(r'<(p|span)\b([^>]*\b(?:class="[^"]*\berror\b[^"]*"|role="alert")[^>]*)>(.*?)</\1>', re.S)


def shown_errors(html: str) -> list[str]:
    """The texts of the page's error elements (class "error" or role="alert"; hidden ones left out)."""
    return [text(found.group(3)) for found in _ERROR.finditer(html) if " hidden" not in found.group(2)]


def case(rule: str, lang: str, game: str, path: str, form: dict[str, str], expected: str, english: str, *,
         setup: tuple[dict[str, Any], ...] = (), options: dict[str, Any] | None = None, htmx: bool = False) -> Any:
    """One mistake: ``form`` posted to ``path`` ("{T}" the table) of a ``game`` table, after the events ``setup``;
    the page must show ``expected`` in an error element, and ``english`` (the engine's words) nowhere."""
    return pytest.param(game, options or {}, setup, path, form, htmx, lang, expected, english, id=f"{rule}-{lang}")


CASES = [
    # -- the home page: a house-rule number that is no whole number ("1e3" passes a browser's number field)
    case("options_whole_number", "tr", "okey", "/new", {**TABLE_PLAYERS, "options_shown": "1", "opt_win_points": "1e3"},
         "“Kazanma puanı” için '1e3' kullanılamaz: bir tam sayı yazın.", "use a whole number"),
    case("options_whole_number", "ru", "okey", "/new",
         {**TABLE_PLAYERS, "game": "okey101", "options_shown": "1", "opt_opening_minimum": "1e2"},
         "нельзя '1e2': введите целое число.", "a whole number"),
    # -- the Okey 101 opening checker: a 14-tile meld (O4)
    case("O4_opening_meld_of_14_tiles", "tr", "okey101", "/t/{T}/opening",
         {"melds": "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"},
         "14 taş tek bir per olamaz: bir per en fazla 13 taştır (1-13 serisi, O4). Her peri ayrı bir satıra yazın "
         "ya da aralarına “|” koyun.", "separate melds with", setup=tuple(INDICATOR), htmx=True),
    case("O4_opening_meld_of_14_tiles", "th", "okey101", "/t/{T}/opening",
         {"melds": "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"},
         "ไพ่ 14 ตัวเป็นชุดเดียวไม่ได้: ชุดหนึ่งมีได้ไม่เกิน 13 ตัว (ชุดเรียง 1-13, O4)", "tiles given",
         setup=tuple(INDICATOR), htmx=True),
    # -- the Rummikub lay-down assistant (R1, R2, R4)
    case("R1_laydown_three_copies", "tr", "rummikub", "/t/{T}/laydown", {"table": "R1 R2 R3 | R1 R2 R3", "rack": "R1"},
         "Olanaksız: 3 × R1 girildi (masada 2, ıstakada 1), ama bir Rummikub takımında o taştan yalnızca 2 tane var "
         "(R1).", "impossible position"),
    case("R1_laydown_three_jokers", "ru", "rummikub", "/t/{T}/laydown", {"table": "", "rack": "J J J"},
         "Невозможно: введено 3 × J (на столе 0, на подставке 3), а в наборе Руммикуба таких фишек только 2 (R1).",
         "impossible position"),
    case("R4_laydown_table_cannot_be_split", "tr", "rummikub", "/t/{T}/laydown", {"table": "R1 R3 R5", "rack": "R4"},
         "Masadaki R1 R3 R5, ıstakadaki taşlarla bile geçerli perlere ayrılamıyor, oysa her hamlenin sonunda masadaki "
         "her per geçerlidir (R4)", "cannot be split into valid melds"),
    case("R4_laydown_table_cannot_be_split", "th", "rummikub", "/t/{T}/laydown",
         {"table": "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "rack": "K1"},
         "ไพ่บนโต๊ะ R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 จัดเป็นชุดที่ถูกกติกาไม่ได้ แม้จะใช้ไพ่บนรางช่วย",
         "cannot be split into valid melds"),
    case("R4_laydown_table_cannot_be_split_initial_meld", "tr", "rummikub", "/t/{T}/laydown",
         {"table": "R1 R3 R5", "rack": "K10 K11 K12", "initial": "1"},
         "Masadaki R1 R3 R5 geçerli perlere ayrılamıyor, oysa her hamlenin sonunda masadaki her per geçerlidir (R4)",
         "cannot be split into valid melds"),
    case("R4_laydown_illegal_meld_on_the_table", "tr", "rummikub", "/t/{T}/laydown",
         {"table": "R1 R2 R3 | K5 Y6 B7", "rack": "K1"},
         "Masanın 2. peri, [K5, Y6, B7], kurallara aykırı bir per (grup farklı renklerde tek sayıdır, seri tek renkte "
         "ardışık sayılardır, R2), oysa her hamlenin sonunda masadaki her per geçerlidir (R4): masayı kontrol edin.",
         "the table is not valid melds"),
    case("R2_laydown_short_meld_on_the_table", "tr", "rummikub", "/t/{T}/laydown",
         {"table": "R1 R2 R3 | K5", "rack": "K1"},
         "Masanın 2. peri, [K5], 3 taştan az (R2)", "a meld has at least 3 tiles"),
    case("R2_laydown_short_meld_on_the_table", "ru", "rummikub", "/t/{T}/laydown",
         {"table": "R1 R2 R3 | K5", "rack": "K1"},
         "В комбинации 2 на столе, [K5], меньше 3 фишек (R2)", "the table is not valid melds"),
    # -- the card games' card codes, on the hand forms and the opening checker
    case("cards_suit_missing", "tr", "rami40", "/t/{T}/cards/check", {"finisher": "0", "cards1": "2D K"},
         "Can: “K” kartının rengi yok: değerden sonra rengi yazın, S (♠), H (♥), D (♦) ya da C (♣), örn. KH, 10S.",
         "the suit is missing", htmx=True),
    case("cards_rank_missing", "tr", "turkish", "/t/{T}/cards", {"finisher": "0", "cards1": "H"},
         "Can: “H” kartının değeri yok: renkten önce A, 2-10, J, Q ya da K yazın, örn. AS, 10H, QC.",
         "the rank is missing"),
    case("cards_unknown_suit", "tr", "thai", "/t/{T}/thai", {**THAI_HAND, "hand1": "KS QX"},
         "Can · Elde kalan: “QX” bir kart değil: “X” bir renk değil.", "unknown suit"),
    case("cards_unknown_suit", "ru", "rami51", "/t/{T}/cards", {"finisher": "0", "cards1": "KK 5S"},
         "Can: «KK» — не карта: «K» — не масть.", "unknown suit"),
    case("cards_unknown_suit", "th", "thai", "/t/{T}/thai/check", {**THAI_HAND, "knock_card": "2X"},
         "“2X” ไม่ใช่ไพ่: “X” ไม่ใช่ดอก", "unknown suit", htmx=True),
    case("cards_ace_written_1", "tr", "rami51", "/t/{T}/cards", {"finisher": "0", "cards1": "1H"},
         "Can: “1H” bir kart değil: “1” bir değer değil, as A diye yazılır (örn. AH).", "write A for the ace"),
    case("cards_unknown_rank", "tr", "rami40", "/t/{T}/cards/opening", {"hand": "KH KS XD"},
         "“XD” bir kart değil: “X” bir değer değil. A, 2-10, J, Q ya da K (10 için T) ve ardından rengi yazın",
         "unknown rank", htmx=True),
    case("cards_opening_too_many_cards", "tr", "turkish", "/t/{T}/cards/opening", {"hand": CARDS_26},
         "Çok fazla kart: 26. Açış kontrolü en fazla 24 kartlık bir eli inceler: yalnızca eldeki kartları yazın.",
         "a hand to search holds", htmx=True),
    # -- Rami: rami sec without anybody going out (M7)
    case("M7_rami_sec_needs_a_finisher", "tr", "rami40", "/t/{T}/cards",
         {"finisher": "none", "rami_sec": "on", "cards0": "KH", "cards1": "2D", "cards2": "3C", "cards3": "AS"},
         "Rami sec, bir oyuncunun tek seferde bitirmesidir: kimin bitirdiğine dokunun ya da deste bittiyse rami sec "
         "işaretini kaldırın (M7).", "rami_sec needs a finisher"),
    case("M7_rami_sec_needs_a_finisher", "th", "rami51", "/t/{T}/cards/check",
         {"finisher": "none", "rami_sec": "on", "cards0": "KH", "cards1": "2D", "cards2": "3C", "cards3": "AS"},
         "รามี่เซกคือการลงหมดมือในตาเดียว", "rami_sec needs a finisher", htmx=True),
    # -- the Okey racks: J typed for a joker, and too many tiles
    case("okey101_rack_with_J", "tr", "okey101", "/t/{T}/hand",
         {"finisher": "0", "opened0": "melds", "rack1": "R1 J", "opened1": "melds", "rack2": "Y7", "rack3": "B1"},
         "J, Rummikub'un jokeridir ve Okey takımında J yoktur (ıstaka: R1 J).", "J is the Rummikub joker",
         setup=tuple(INDICATOR)),
    case("okey_points_rack_with_J", "ru", "okey_points", "/t/{T}/points",
         {"finisher": "0", "rack1": "J", "rack2": "Y7", "rack3": "B1"},
         "J — это джокер Руммикуба, в наборе окея его нет (подставка: J).", "okey has no J", setup=tuple(INDICATOR)),
    case("okey_points_rack_too_big", "tr", "okey_points", "/t/{T}/points/check",
         {"finisher": "0", "rack1": RACK_23, "rack2": "Y7", "rack3": "B1"},
         "Bir ıstakada 23 taş kalamaz: en fazla 22 taş olur. Yalnızca üzerinde kalan taşları yazın.",
         "a rack holds at most", setup=tuple(INDICATOR), htmx=True),
    # -- the deal assistant and gösterme from a page that is no longer up to date (O2.3, O6)
    case("O2.3_reroll_without_a_deal", "tr", "okey", "/t/{T}/deal/reroll", {"die": "3"},
         "Bu el için zarla dağıtım kaydedilmedi, yani yeniden atılacak ikinci zar yok (O2.3)", "no deal to reroll"),
    case("O2.3_reroll_without_a_deal", "ru", "okey101", "/t/{T}/deal/reroll", {"roll": "1"},
         "Раздача с кубиками в этой сдаче не записана", "no deal to reroll"),
    case("O6_gosterme_twice_by_one_player", "tr", "okey", "/t/{T}/gosterme", {"player": "0"},
         "Bu oyuncunun göstermesi bu elde zaten kaydedildi: bir kez sayılır (O6).", "it counts once",
         setup=(*INDICATOR, {"type": "gosterme", "player": 0})),
    case("O6_gosterme_twice_by_one_player", "th", "okey", "/t/{T}/gosterme", {"player": "2"},
         "การแสดงไพ่ของผู้เล่นคนนี้ในรอบนี้บันทึกไว้แล้ว: นับเพียงครั้งเดียว (O6)", "already showed the indicator",
         setup=(*INDICATOR, {"type": "gosterme", "player": 2})),
    case("form_sent_again_from_an_old_page", "tr", "okey", "/t/{T}/rename",
         {"player": "0", "name": "Zeki", "event_id": "EV-R44"},
         "Bu form daha önce başka bir değişiklik için gönderildi", "was already used at table",
         setup=({"type": "rename", "player": 0, "name": "Ayla", "id": "EV-R44"},)),
    case("form_sent_again_from_an_old_page", "ru", "okey101", "/t/{T}/penalty",
         {"player": "1", "reason": "islek", "event_id": "EV-R44"},
         "Эта форма уже была отправлена для другого изменения", "send a new id",
         setup=(*INDICATOR, {"type": "penalty", "player": 0, "reason": "islek", "id": "EV-R44"})),
    # -- a correction that does not end the hand as it must (O5; a void 101 hand)
    case("O5_correction_is_not_a_win", "tr", "okey", "/t/{T}/win?amend=1",
         {"amend": "1", "winner": "0", "tiles": NOT_A_WIN, "discard": "K9", "indicator": "R4"},
         "1. elin düzeltmesi kaydedilemez: düzeltilen el geçerli bir kazanma değil: 14 taş perlere veya yedi çifte "
         "ayrılmıyor (O5). Taşları düzeltin ya da destenin bittiğini kaydedin.", "record a valid win",
         setup=(*INDICATOR, OKEY_HAND)),
    case("O5_correction_is_not_a_win", "th", "okey", "/t/{T}/win?amend=1",
         {"amend": "1", "winner": "0", "tiles": NOT_A_WIN, "discard": "K9", "indicator": "R4"},
         "รอบที่แก้ไขไม่ใช่การชนะที่ถูกต้อง", "is not a valid win", setup=(*INDICATOR, OKEY_HAND)),
    case("okey101_correction_makes_the_hand_void", "tr", "okey101", "/t/{T}/hand?amend=1",
         {"amend": "1", "indicator": "R4", "finisher": "0", "rack1": "R1", "rack2": "Y7", "rack3": "B1",
          **{f"opened{seat}": "pairs" for seat in range(4)}},
         "1. elin düzeltmesi kaydedilemez: düzeltilen el geçersiz olur (herkes çiftle açtı)", "makes it void",
         setup=(*INDICATOR, HAND_101)),
]


@pytest.mark.parametrize(("game", "options", "setup", "path", "form", "htmx", "lang", "expected", "english"), CASES)
def test_the_error_reads_in_the_players_language(client: FlaskClient, store: TableStore, game: str,
                                                 options: dict[str, Any], setup: tuple[dict[str, Any], ...], path: str,
                                                 form: dict[str, str], htmx: bool, lang: str, expected: str,
                                                 english: str) -> None:
    table = store.create_table(game=game, players=PLAYERS, pin="1234", options=options)
    for event in setup:
        store.record(table, event)
    client.set_cookie("lang", lang)
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    answer = client.post(path.replace("{T}", table), data={"csrf_token": TOKEN, **form},
                         headers={"HX-Request": "true"} if htmx else {})
    assert answer.status_code in (200, 422), answer.status_code
    errors = shown_errors(answer.text)
    assert any(expected in error for error in errors), errors
    assert english not in text(answer.text)
