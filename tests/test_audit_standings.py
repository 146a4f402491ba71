"""What the product shows about a match (the table page, its print and big-screen views, the API, the exports)
against what the rules engine computes.  Tests are named after the rule (RULES.md) the page got wrong."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore

MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"


def text(html: str) -> str:
    """The page's words, tags removed, whitespace collapsed."""
    html = re.sub(r"</?a\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def total_row(html: str) -> list[int]:
    """The numbers of the sheet's Total row."""
    row = re.search(r'<tr class="total">(.*?)</tr>', html, re.S)
    assert row is not None
    return [int(word) for word in text(row.group(1)).split()[1:]]


def big_scores(html: str) -> list[int]:
    """The big numbers above the sheet, one per column."""
    return [int(n) for n in re.findall(r'<div class="score[^"]*"><span>[^<]*</span><b>(-?\d+)</b>', html)]


@pytest.fixture
def eliminated(store: TableStore) -> str:
    """O6 ``elimination``, start 4: B wins hand 1 (A showed the indicator's twin), A wins hands 2 and 3.  C and D
    leave after hand 2 (at -1), so hand 3 takes nothing from them; B leaves after hand 3 and A wins."""
    table = store.create_table(game="okey", players=["A", "B", "C", "D"], pin="1234",
                               options={"elimination": True, "start_points": 4})
    for winner, shown in ((1, 0), (0, None), (0, None)):
        store.record(table, {"type": "indicator", "tile": "R4"})
        if shown is not None:
            store.record(table, {"type": "gosterme", "player": shown})
        store.record(table, {"type": "okey_hand", "hand": {"winner": winner, "tiles": MELDS, "discard": "Y8"}})
    return table


def test_O6_elimination_totals_shown_are_the_standings(client: FlaskClient, store: TableStore, eliminated: str) -> None:
    state = store.get(eliminated)
    assert state.standings.eliminated == (2, 3, 1) and state.finished and state.winners == (0,)
    assert state.totals == (2, -1, -1, -1)  # the engine: C and D left at -1, hand 3 took nothing from them
    for url in (f"/t/{eliminated}", f"/t/{eliminated}?tv=1", f"/t/{eliminated}/sheet"):
        page = client.get(url).text
        assert total_row(page) == [2, -1, -1, -1], url  # the page summed the rows: C -3, D -3
        assert big_scores(page) == [2, -1, -1, -1], url
    assert client.get(f"/api/tables/{eliminated}/sheet").json["totals"] == [2, -1, -1, -1]


def test_O6_elimination_a_seat_that_left_shows_nothing_taken_on_later_rows(client: FlaskClient, store: TableStore,
                                                                          eliminated: str) -> None:
    """Hand 3 is played by A and B alone: its row takes 2 from B and nothing from C and D, who had left, so every
    column's rows add up to its total (the sheet showed -2 for C and D, which their totals did not count)."""
    state = store.get(eliminated)
    assert [hand.entries for hand in state.hands] == [(-2, -1, -3, -3), (0, -2, -2, -2), (0, -2, 0, 0)]
    assert [sum(column) + 4 for column in zip(*(hand.entries for hand in state.hands))] == list(state.totals)
    rows = client.get(f"/api/tables/{eliminated}/sheet").json["hands"]
    assert rows[2]["entries"] == [0, -2, 0, 0]


def test_O6_elimination_running_totals_before_the_end(client: FlaskClient, store: TableStore, eliminated: str) -> None:
    store.undo(eliminated)  # hand 3 undone: C and D have left, A and B play on
    store.record(eliminated, {"type": "indicator", "tile": "R4"})
    store.record(eliminated, {"type": "gosterme", "player": 1})
    store.record(eliminated, {"type": "okey_hand", "hand": {"winner": None}})  # the stock ran out
    state = store.get(eliminated)
    assert not state.finished and state.totals == (1, 1, -1, -1) and state.standings.eliminated == (2, 3)
    page = client.get(f"/t/{eliminated}").text
    assert total_row(page) == list(state.totals) and big_scores(page) == list(state.totals)


def test_O6_elimination_sheet_hint(client: FlaskClient, eliminated: str) -> None:
    page = text(client.get(f"/t/{eliminated}").text)
    assert "the match ends when someone reaches 0" not in page
    assert "Everybody starts with 4; whoever reaches 0 leaves, and the last one left wins." in page
    client.set_cookie("lang", "tr")
    assert "0'a inen oyundan çıkar" in text(client.get(f"/t/{eliminated}").text)


def test_H8_partners_match_over_names_the_team_totals(client: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey101", players=["A", "B", "C", "D"], pin="1234",
                               options={"partners": True, "hands": 3})

    def hand(finisher: int, *sums: tuple[str | None, int], **extra: str) -> dict[str, object]:
        players = [{"opened": opened, "sum": total} for opened, total in sums]
        return {"type": "okey101_hand", "hand": {"finisher": finisher, "players": players, **extra}}

    store.record(table, {"type": "indicator", "tile": "R4"})
    store.record(table, {"type": "penalty", "player": 1, "reason": "islek"})
    store.record(table, {"type": "penalty", "player": 2, "reason": "islek"})
    store.record(table, hand(0, ("melds", 0), ("melds", 12), ("melds", 30), (None, 0)))
    store.record(table, {"type": "indicator", "tile": "R4"})
    store.record(table, {"type": "penalty", "player": 3, "reason": "islek"})
    store.record(table, hand(1, ("pairs", 20), ("melds", 0), ("melds", 30), (None, 0)))
    store.record(table, {"type": "indicator", "tile": "R4"})
    state = store.record(table, hand(2, ("melds", 20), ("melds", 5), ("melds", 0), ("melds", 7), finish="okey_discard"))
    assert state.finished and state.winners == (0, 2) and state.totals == (-132, 339)
    seat_a, _b, seat_c, _d = state.standings.totals  # the seats' own totals: not what the teams are ranked by
    assert (seat_a, seat_c) == (-61, -71)
    page = text(client.get(f"/t/{table}").text)
    assert "the lowest total wins (H8): A (-132), C (-132)." in page
    assert "(-61)" not in page and "(-71)" not in page


@pytest.mark.parametrize(("options", "wanted"), [
    ({"hands": 0, "elimination_at": 150}, "The match ends as soon as a total passes 150; lowest total wins."),
    ({"hands": 3, "elimination_at": 100},
     "The match ends after 3 hands, or as soon as a total passes 100; lowest total wins."),
    ({"hands": 0}, "Lowest total wins."),
    ({"hands": 3}, "Lowest total wins after 3 hands."),
])
def test_M7_sheet_hint_says_how_the_match_ends(client: FlaskClient, store: TableStore, options: dict[str, int],
                                               wanted: str) -> None:
    table = store.create_table(game="rami40", players=["A", "B", "C"], pin="1234", options=options)
    store.record(table, {"type": "rami40_hand", "hand": {"finisher": 0, "players": [
        {"opened": True, "cards": ""}, {"opened": True, "cards": 60}, {"opened": True, "cards": 30}]}})
    page = text(client.get(f"/t/{table}").text)
    assert wanted in page and "after 0 hands" not in page


def test_M7_sheet_hint_translated(client: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="rami40", players=["A", "B"], pin="1234", options={"hands": 0, "elimination_at": 150})
    for lang, words in (("tr", "150 puanı geçer geçmez"), ("ru", "превысит 150"), ("th", "เกิน 150")):
        client.set_cookie("lang", lang)
        assert words in text(client.get(f"/t/{table}").text), lang


def _on_hand_four(store: TableStore, table: str) -> None:
    """Hand 3 undone: C and D have left, A and B play on with the indicator turned up."""
    store.undo(table)
    store.record(table, {"type": "indicator", "tile": "R4"})


def test_O6_elimination_the_win_form_offers_only_the_players_still_in(client: FlaskClient, store: TableStore,
                                                                     eliminated: str) -> None:
    _on_hand_four(store, eliminated)
    with client.session_transaction() as session:
        session["pins"] = {eliminated: True}
    page = client.get(f"/t/{eliminated}/win").text
    assert re.findall(r'name="winner" value="(\d)"', page) == ["0", "1"]
    assert "C · left" in text(page) and "D · left" in text(page)
    gosterme = re.search(r'<form[^>]*id="gosterme".*?</form>', page, re.S)
    assert gosterme is not None and re.findall(r'name="player" value="(\d)"', gosterme.group(0)) == ["0", "1"]
    table_page = client.get(f"/t/{eliminated}").text
    shown = re.search(r'action="/t/\w+/gosterme".*?</form>', table_page, re.S)
    assert shown is not None and re.findall(r'name="player" value="(\d)"', shown.group(0)) == ["0", "1"]


def test_O6_elimination_a_seat_that_left_neither_wins_nor_shows(client: FlaskClient, store: TableStore,
                                                                eliminated: str) -> None:
    """Sent anyway (an old page, the API): refused with the reason in the reader's language, nothing recorded."""
    _on_hand_four(store, eliminated)
    with client.session_transaction() as session:
        session["csrf_token"] = "tok"
        session["pins"] = {eliminated: True}
    before = store.get(eliminated)
    client.get("/lang?lang=tr&next=/")
    won = client.post(f"/t/{eliminated}/win", data={"csrf_token": "tok", "event_id": "w1", "winner": "2",
                                                     "tiles": MELDS, "discard": "Y8"})
    assert won.status_code == 422
    assert "3. oyuncu maçtan çıktı (O6), kazanamaz" in text(won.text)
    shown = client.post(f"/t/{eliminated}/gosterme", data={"csrf_token": "tok", "event_id": "g1", "player": "3"})
    assert "4. oyuncu maçtan çıktı (O6), göstergenin eşini gösteremez" in text(shown.text)
    after = store.get(eliminated)
    assert (after.hands, after.deal, after.totals) == (before.hands, before.deal, before.totals)


def test_O6_elimination_a_dealer_put_out_mid_hand_is_named_as_the_players_see_them(client: FlaskClient,
                                                                                     store: TableStore) -> None:
    """A wrong declaration (O5) takes the dealer, seat 0, to 0 before the dice: the deal is refused naming the first
    player as the pages number them ("player 1", not the seat number 0)."""
    from companion.rules.errors import InvalidEventError

    table = store.create_table(game="okey", players=["A", "B", "C"], pin="1234",
                               options={"elimination": True, "start_points": 2})
    wrong = "R1 R2 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"
    store.record(table, {"type": "okey_hand", "hand": {"winner": 0, "tiles": wrong, "discard": "B4", "indicator": "Y3"}})
    assert store.get(table).left == (0,) and store.get(table).dealer == 0
    with pytest.raises(InvalidEventError, match=re.escape("player 1 left the match and cannot deal")):
        store.record(table, {"type": "deal", "roll": True})
    with client.session_transaction() as session:
        session["csrf_token"] = "tok"
        session["pins"] = {table: True}
    client.get("/lang?lang=ru&next=/")
    page = client.post(f"/t/{table}/deal", data={"csrf_token": "tok", "event_id": "d1", "roll": "1"})
    assert "Игрок 1 выбыл из матча (O6) и не может сдавать" in text(page.text)


def test_O6_elimination_a_gosterme_sent_for_a_seat_that_left_keeps_the_table_readable(store: TableStore,
                                                                                      eliminated: str) -> None:
    """Sent now, the event is refused before it is stored; in a log an earlier version wrote, it still replays
    (a table's log must always replay), the hand that would count it is refused naming why, and an undo mends it."""
    from companion.rules.errors import InvalidEventError, InvalidHandRecordError
    from companion.tables import new_meta, replay

    _on_hand_four(store, eliminated)
    with pytest.raises(InvalidEventError, match=re.escape("Player 3 left the match (O6) and cannot show")):
        store.record(eliminated, {"type": "gosterme", "player": 2})
    assert store.events(eliminated)[-1].type == "indicator"  # nothing written
    meta = new_meta(eliminated, game="okey", players=["A", "B", "C", "D"],
                    options={"elimination": True, "start_points": 4})
    events = [event.payload for event in store.events(eliminated) if not event.undone and event.type != "undo"]
    written = [*events, {"type": "gosterme", "player": 2}]
    assert replay(meta, written).totals == (2, 1, -1, -1)
    with pytest.raises(InvalidHandRecordError, match=re.escape("Player 3 left the match (O6) and cannot show")):
        replay(meta, [*written, {"type": "okey_hand", "hand": {"winner": 0, "tiles": MELDS, "discard": "Y8"}}])
    assert store.record(eliminated, {"type": "okey_hand", "hand": {"winner": 0, "tiles": MELDS,
                                                                   "discard": "Y8"}}).hands[-1].entries == (0, -2, 0, 0)
