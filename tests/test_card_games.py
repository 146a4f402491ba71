"""Rami 40/51 and Turkish Rummy as products: registry entries, batch and command line, the HTTP API, the
web pages (hand forms with the card picker, sheet, exports, opening checker), translations."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.rules.registry import find_game
from companion.store import TableStore

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
TOKEN = "test-token"


def test_M_T_registry_entries():
    for game, title in (("rami40", "Rami 40"), ("rami51", "Rami 51"), ("turkish", "Turkish Rummy")):
        spec = find_game(game)
        assert spec.title == title and spec.sheet == "penalty" and spec.picker == "cards"
        assert spec.hand_event == f"{game}_hand" and spec.deal_tiles is None
        assert {"meld", "opening", "deal"} <= set(spec.ops)
    assert find_game("rami40").players == (2, 3, 4, 5, 6)
    assert find_game("Rami 51").id == "rami51" and find_game("turkish rummy").id == "turkish"


# -- batch and command line ------------------------------------------------------------------------


def test_M4_batch_meld_as_the_issue_gives_it():
    result = answer({"op": "meld", "game": "rami51", "cards": "QH KH AH"})
    assert (result["valid"], result["value"]) == (True, 31) and isinstance(result["reason"], str)
    bad = answer({"op": "meld", "game": "rami40", "cards": "KH AH 2H"})
    assert bad["valid"] is False and "K-A-2" in bad["reason"]
    assert answer({"op": "meld", "game": "rami40", "cards": "* * 5H 6H"})["valid"] is False
    assert answer({"op": "meld", "game": "turkish", "cards": "AH 2H 3H"})["value"] == 16
    assert "invalid card 'ZZ'" in answer({"op": "meld", "game": "rami40", "cards": "ZZ 2H 3H"})["error"]
    assert "missing field 'cards'" in answer({"op": "meld", "game": "rami40"})["error"]


def test_M4_batch_opening_as_the_issue_gives_it():
    result = answer({"op": "opening", "game": "rami51", "cards": "QH KH AH 9C 9D 9H 2S 5D"})
    assert result["value"] == 58 and result["opens"] is True
    assert sorted(result["melds"]) == [["9H", "9D", "9C"], ["QH", "KH", "AH"]]
    assert answer({"op": "opening", "game": "rami51", "cards": "KH KS KD 5C 6C 7C"})["opens"] is False
    assert answer({"op": "opening", "game": "rami40", "cards": "KH KS KD 5C 6C 7C"})["opens"] is True
    assert answer({"op": "opening", "game": "turkish", "profile": "rummy51", "cards": "KH KS KD 5C 6C 7C"})["opens"] is False


def test_M7_batch_score_as_the_issue_gives_it():
    hand = {"finisher": 0, "rami_sec": False, "players": [
        {"opened": True, "cards": ""}, {"opened": False, "cards": "2C 3D"}, {"opened": True, "cards": "AS *"}]}
    result = answer({"op": "score", "game": "rami51", "hand": hand})
    assert result["scores"] == [0, 100, 31]
    assert result["explain"][2] == "Player 3 keeps AS *: 11 (ace) + 20 (joker) = 31."
    doubled = answer({"op": "score", "game": "rami51", "hand": {**hand, "rami_sec": True}})
    assert doubled["scores"] == [0, 200, 62]
    custom = answer({"op": "score", "game": "rami40", "options": {"joker_penalty": 30}, "hand": hand})
    assert custom["scores"] == [0, 100, 41]
    third = answer({"op": "score", "game": "rami40", "hand": {"finisher": 0, "players": [
        {"cards": ""}, {"opened": True, "cards": "7S 7S"}, {"opened": True, "cards": "7♠"}]}})
    assert "3 × 7S, but 2 decks hold only 2" in third["error"]


def test_T7_batch_score_as_the_issue_gives_it():
    hand = {"finisher": 0, "rummy": False, "players": [{"cards": ""}, {"cards": "AS * 7H"}, {"cards": "KD"}]}
    assert answer({"op": "score", "game": "turkish", "hand": hand})["scores"] == [0, 33, 10]
    assert answer({"op": "score", "game": "turkish", "hand": {**hand, "rummy": True}})["scores"] == [0, 58, 35]
    assert "unknown field 'rami_sec'" in answer({"op": "score", "game": "turkish",
                                                 "hand": {**hand, "rami_sec": True}})["error"]


def test_M5_T5_batch_joker_and_going_out_and_deal():
    assert answer({"op": "joker", "game": "rami40", "meld": "5H * 7H", "cards": "6H"})["allowed"] is True
    assert answer({"op": "joker", "game": "turkish", "meld": "10H 10S *", "cards": "10D 10C"})["freed"] == 1
    out = answer({"op": "going_out", "game": "rami40", "cards": "QS KS AS KH KD KC 7D", "opened": False})
    assert out["possible"] and out["all_at_once"] and out["discard"] == "7D"
    deal = answer({"op": "deal", "game": "rami40", "players": 5, "hand": 1, "dealer": 0})
    assert deal["deck"]["size"] == 160 and deal["cards_each"] == 13 and deal["starter"] == 4
    assert answer({"op": "deal", "game": "turkish", "players": 4})["deck"]["size"] == 106


def test_M4_cli_meld_and_opening(capsys):
    assert main(["meld", "--game", "rami51", "QH", "KH", "AH"]) == 0
    assert "valid meld worth 31" in capsys.readouterr().out
    assert main(["opening", "--game", "rami40", "--json", "KH", "KS", "KD", "5C", "6C", "7C"]) == 0
    assert json.loads(capsys.readouterr().out)["opens"] is True
    assert main(["opening", "--game", "rami51", "KH", "KS", "KD"]) == 0
    assert "best opening: 30 points" in capsys.readouterr().out
    assert main(["meld", "--game", "rami40", "7S", "7X", "7H"]) == 2
    assert "'7X'" in capsys.readouterr().err


def test_M7_cli_score(tmp_path, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"finisher": 1, "players": [{"opened": True, "cards": "KH QH"}, {"cards": ""}]}))
    assert main(["score", "--game", "rami40", "--hand", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "scores: 20 0"
    assert main(["options", "--game", "turkish", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["rummy_bonus"] == 25


# -- the HTTP API ----------------------------------------------------------------------------------


def test_M7_api_rami_table_hand_events_and_exports(client):
    created = client.post("/api/tables", json={"game": "rami51", "players": PLAYERS, "pin": "1234"})
    assert created.status_code == 201
    table = created.json["id"]
    headers = {"X-Table-Pin": "1234"}
    hand = {"finisher": 0, "rami_sec": False, "players": [
        {"opened": True, "cards": ""}, {"opened": False, "cards": "2C 3D"}, {"opened": True, "cards": "KH"},
        {"opened": True, "cards": "*"}]}
    response = client.post(f"/api/tables/{table}/events", headers=headers, json={"type": "rami51_hand", "hand": hand})
    assert response.status_code == 201, response.json
    sheet = response.json["sheet"]
    assert sheet["hands"][0]["entries"] == [0, 100, 10, 20] and sheet["totals"] == [0, 100, 10, 20]
    for bad_hand, fragment in (
        ({**hand, "players": [*hand["players"][:3], {"opened": True, "cards": "7S 7S 7S"}]}, "3 × 7S"),
        ({**hand, "players": [*hand["players"][:3], {"opened": True, "cards": "7Q"}]}, "'7Q'"),
        ({**hand, "finisher": "0"}, "finisher"),
    ):
        bad = client.post(f"/api/tables/{table}/events", headers=headers, json={"type": "rami51_hand", "hand": bad_hand})
        assert bad.status_code == 422 and fragment in bad.json["error"], bad.json
    wrong = client.post(f"/api/tables/{table}/events", headers=headers, json={"type": "turkish_hand", "hand": hand})
    assert wrong.status_code == 422
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{table}/export.csv").text)))
    assert rows[1][2:6] == ["0", "100", "10", "20"] and rows[-1][0] == "Total"
    exported = client.get(f"/api/tables/{table}/export.json").json
    assert [e["type"] for e in exported["events"]].count("rami51_hand") == 1


def test_T7_api_turkish_hand_event(client):
    created = client.post("/api/tables", json={"game": "turkish", "players": PLAYERS[:3], "pin": "1234"})
    table = created.json["id"]
    headers = {"X-Table-Pin": "1234"}
    response = client.post(f"/api/tables/{table}/events", headers=headers, json={"type": "turkish_hand", "hand": {
        "finisher": 2, "rummy": True, "players": [{"cards": "AS"}, {"cards": 12}, {"cards": ""}]}})
    assert response.status_code == 201
    assert response.json["sheet"]["totals"] == [36, 37, 0]
    assert client.post("/api/tables", json={"game": "rami40", "players": ["A"], "pin": "1234"}).status_code == 422


# -- the web table ---------------------------------------------------------------------------------


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _table(client: FlaskClient, store: TableStore, game: str, players=PLAYERS, **options) -> str:
    table = store.create_table(game=game, players=players, pin="1234", options=options)
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    return table


def post(client: FlaskClient, url: str, data: dict[str, str]):
    return client.post(url, data={"csrf_token": TOKEN, **data})


def test_M_web_new_table_offers_the_card_games(client: FlaskClient):
    home = client.get("/").text
    assert "Rami 40" in home and "Rami 51" in home and "Turkish Rummy" in home
    options = client.get("/new/options?game=rami40").text
    assert "not_opened_penalty" in options and "rami_sec_doubles" in options


def test_M7_web_rami_hand_form_previews_records_and_explains(client: FlaskClient, store: TableStore):
    table = _table(client, store, "rami40", hands=2)
    page = client.get(f"/t/{table}").text
    assert f"/t/{table}/cards" in page and f"/t/{table}/cards/opening" in page
    form = client.get(f"/t/{table}/cards").text
    assert "data-card-picker" in form and 'data-copies="2"' in form and 'data-jokers="4"' in form
    assert 'name="notopened1"' in form and 'name="rami_sec"' in form
    data = {"finisher": "0", "cards1": "as, 10h *", "notopened2": "on", "cards2": "2c", "points3": "7"}
    preview = post(client, f"/t/{table}/cards/check", data)
    assert preview.status_code == 200
    assert "Can keeps AS 10H *" in text(preview.text) and "Deniz never opened: 100" in text(preview.text)
    bad = post(client, f"/t/{table}/cards", {**data, "cards1": "7S 7S 7S"})
    assert bad.status_code == 422 and "3 × 7S" in text(bad.text)
    bad = post(client, f"/t/{table}/cards", {**data, "cards1": "7S 11H"})
    assert bad.status_code == 422 and "'11H'" in text(bad.text)
    assert store.get(table).hands == ()
    done = post(client, f"/t/{table}/cards", data)
    assert done.status_code == 303
    assert store.get(table).hands[0].entries == (0, 41, 100, 7)
    sheet = text(client.get(f"/t/{table}").text)
    assert "141" in sheet or "41" in sheet
    assert "<polyline" in client.get(f"/t/{table}").text or "<svg" in client.get(f"/t/{table}").text
    post(client, f"/t/{table}/cards", {"finisher": "1", "rami_sec": "on", "cards0": "KD", "cards2": "2C", "cards3": "3D"})
    state = store.get(table)
    assert state.hands[1].entries == (20, 0, 4, 6) and state.finished  # rami sec: the others pay double (M7)


def test_M6_web_rami_stock_out_and_amend(client: FlaskClient, store: TableStore):
    table = _table(client, store, "rami51", players=PLAYERS[:2])
    assert post(client, f"/t/{table}/cards", {"finisher": "none", "cards0": "5C", "cards1": "KD"}).status_code == 303
    assert store.get(table).hands[0].entries == (0, 10)
    form = client.get(f"/t/{table}/cards?amend=1").text
    assert 'value="none" checked' in form and "KD" in form


def test_T7_web_turkish_hand_form(client: FlaskClient, store: TableStore):
    table = _table(client, store, "turkish", players=PLAYERS[:3])
    form = client.get(f"/t/{table}/cards").text
    assert 'name="rummy"' in form and 'data-jokers="2"' in form and "notopened" not in form
    assert post(client, f"/t/{table}/cards", {"finisher": "2", "rummy": "on", "cards0": "AS", "cards1": "*"}).status_code == 303
    assert store.get(table).hands[0].entries == (36, 40, 0)
    missing = post(client, f"/t/{table}/cards", {"cards0": "AS"})
    assert missing.status_code == 422 and "Tap who went out" in text(missing.text)


def test_M4_web_opening_checker(client: FlaskClient, store: TableStore):
    table = _table(client, store, "rami51")
    page = client.get(f"/t/{table}/cards/opening")
    assert page.status_code == 200 and "data-card-picker" in page.text
    verdict = text(post(client, f"/t/{table}/cards/opening", {"hand": "QH KH AH 9C 9D 9H 2S"}).text)
    assert "Best opening: 58" in verdict and "Opens: 58 ≥ 51" in verdict
    laid = text(post(client, f"/t/{table}/cards/opening", {"melds": "KH KS KD\n* 7S 8S"}).text)
    assert "= 30" in laid and "= 21" in laid and "Does not open: 51" not in laid and "51" in laid
    illegal = text(post(client, f"/t/{table}/cards/opening", {"melds": "KH AH 2H"}).text)
    assert "K-A-2" in illegal and "a meld is illegal" in illegal
    bad = text(post(client, f"/t/{table}/cards/opening", {"hand": "QX"}).text)
    assert "'QX'" in bad


def test_M6_T6_hand_form_refuses_cards_for_the_player_who_went_out(client: FlaskClient, store: TableStore):
    """Whoever went out holds no cards (M6, T6): cards given for them are the engine's to refuse, as the batch
    score refuses them — the form dropped them and recorded the hand."""
    hand = {"finisher": 0, "rami_sec": False, "players": [{"opened": True, "cards": "KD QS"},
                                                          {"opened": True, "cards": "5C"}]}
    assert "went out but still holds KD QS" in answer({"op": "score", "game": "rami40", "hand": hand})["error"]
    rami = _table(client, store, "rami40", players=PLAYERS[:2])
    refused = post(client, f"/t/{rami}/cards", {"finisher": "0", "cards0": "KD QS", "cards1": "5C"})
    assert refused.status_code == 422 and "Player 1 went out, so no cards are left in their hand" in text(refused.text)
    assert store.get(rami).hands == ()
    turkish = _table(client, store, "turkish", players=PLAYERS[:2])
    preview = post(client, f"/t/{turkish}/cards/check", {"finisher": "1", "cards0": "5C", "points1": "12"})
    assert preview.status_code == 422 and "clear the cards (12)" in text(preview.text)
    assert post(client, f"/t/{turkish}/cards", {"finisher": "1", "cards0": "5C", "points1": "0"}).status_code == 303
    client.set_cookie("lang", "ru")
    russian = post(client, f"/t/{rami}/cards/check", {"finisher": "0", "cards0": "KD", "cards1": "5C"})
    assert "Игрок 1 вышел" in text(russian.text)


def test_T3_M4_opening_checker_counts_the_laid_cards_against_the_deck(client: FlaskClient, store: TableStore):
    """The melds as laid are judged with the cards together, as the game's opening judges a hand: no more jokers
    or copies of a card than the game's deck holds (T1, M1) — the page said "Opens" for three jokers in Turkish
    Rummy, whose deck has two."""
    turkish = _table(client, store, "turkish")
    jokers = "* 7S 8S\n* 7H 8H\n* 7D 8D"
    assert "only 2 jokers" in answer({"op": "opening", "game": "turkish", "cards": jokers.replace("\n", " ")})["error"]
    page = text(post(client, f"/t/{turkish}/cards/opening", {"melds": jokers}).text)
    assert "Opens" not in page and "Impossible: 3 jokers entered, but the game has only 2" in page
    copies = text(post(client, f"/t/{turkish}/cards/opening", {"melds": "7S 8S 9S\n7S 8S 9S\n7S 8S 9S"}).text)
    assert "Opens" not in copies and "Impossible: 3 × 7S entered, but the cards of this game hold only 2" in copies
    rami = _table(client, store, "rami40")
    four = text(post(client, f"/t/{rami}/cards/opening", {"melds": "\n".join(["7S 8S 9S"] * 4)}).text)
    assert "Opens" not in four and "4 × 7S" in four
    assert "Opens: 63 ≥ 40" in text(post(client, f"/t/{rami}/cards/opening", {"melds": jokers}).text), "4 jokers"
    client.set_cookie("lang", "tr")
    assert "Olanaksız: 3 joker girildi" in text(post(client, f"/t/{turkish}/cards/opening", {"melds": jokers}).text)


def test_M_web_forms_of_other_games_are_refused(client: FlaskClient, store: TableStore):
    okey = _table(client, store, "okey")
    assert client.get(f"/t/{okey}/cards").status_code == 422


@pytest.mark.parametrize("lang", ["tr", "ru", "th"])
def test_M_T_explanations_and_pages_are_translated(client: FlaskClient, store: TableStore, lang: str):
    table = _table(client, store, "rami40", players=PLAYERS[:2])
    post(client, f"/t/{table}/cards", {"finisher": "0", "cards1": "KH"})
    client.set_cookie("lang", lang)
    english = "Can keeps KH"
    page = text(client.get(f"/t/{table}").text)
    assert english not in page
    form = text(client.get(f"/t/{table}/cards").text)
    assert "Who went out?" not in form and "Cards left in hand" not in form


def test_M2_web_deal_instructions_and_the_deal_passes_to_the_left(client: FlaskClient, store: TableStore):
    table = _table(client, store, "rami40")
    page = text(client.get(f"/t/{table}").text)
    assert "Hand 1: Ali deals." in page and "Deal 13 cards to each player" in page
    assert "Ece, on the dealer's left, starts; play goes clockwise." in page
    assert "Shuffle 108 cards: 2 decks and 4 jokers" in page
    post(client, f"/t/{table}/cards", {"finisher": "0", "cards1": "KH", "cards2": "2C", "cards3": "3D"})
    assert store.get(table).dealer == 3  # M2: the deal rotates clockwise, to the dealer's left
    assert "Hand 2: Ece deals." in text(client.get(f"/t/{table}").text)
    turkish = _table(client, store, "turkish")
    post(client, f"/t/{turkish}/cards", {"finisher": "0"})
    assert store.get(turkish).dealer == 1 and "Hand 2: Can deals." in text(client.get(f"/t/{turkish}").text)


def test_M2_batch_deal_with_the_current_dealer():
    deal = answer({"op": "deal", "game": "rami40", "players": 4, "hand": 3, "current_dealer": 2})
    assert (deal["dealer"], deal["starter"], deal["hand"]) == (2, 1, 3)
    assert "invalid dealer 9" in answer({"op": "deal", "game": "rami40", "players": 4, "current_dealer": 9})["error"]


@pytest.mark.parametrize("lang", ["tr", "ru", "th"])
def test_M3_M4_T2_card_meld_reasons_are_translated(app, lang: str) -> None:
    """Every reason the card rummies give for a meld (its value worked out, or why it is illegal) reaches the
    opening checker in the reader's language: no English left for any meld of 2-6 cards, jokers included."""
    import random

    from flask_babel import force_locale

    from companion.rules.rami import check_rami_meld
    from companion.rules.turkish import check_turkish_meld
    from companion.web.views_text import engine_text

    rng = random.Random(20261207)
    deck = [f"{rank}{suit}" for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K") for suit in "SHDC"] + ["*"] * 3
    reasons = set()
    for _ in range(3000):
        cards = rng.sample(deck, rng.randint(2, 6)) if rng.random() < 0.5 else _near_meld(rng)
        for check in (check_rami_meld, check_turkish_meld):
            reasons.add(check(" ".join(cards)).reason)
    assert len(reasons) > 200
    with app.test_request_context(), force_locale(lang):
        # why a meld is illegal, left in English
        english_why = re.compile(r"\((?:two|a|the|only|neither) [^()]*\)$|never wraps")
        untranslated = sorted(r for r in reasons if engine_text(r) == r or english_why.search(engine_text(r)))
    assert not untranslated, untranslated[:5]


def _near_meld(rng) -> list[str]:
    """Cards close to a meld: a run or a set with a card changed, a joker in, or one too many."""
    ranks = ("A", *map(str, range(2, 11)), "J", "Q", "K")
    if rng.random() < 0.5:
        start, suit = rng.randrange(13), rng.choice("SHDC")
        cards = [ranks[(start + i) % 13] + suit for i in range(rng.randint(3, 5))]
    else:
        rank = rng.choice(ranks)
        cards = [rank + s for s in rng.sample("SHDC", rng.randint(3, 4))]
    for _ in range(rng.randint(0, 2)):
        cards[rng.randrange(len(cards))] = rng.choice(["*", rng.choice(ranks) + rng.choice("SHDC"), cards[0]])
    return cards
