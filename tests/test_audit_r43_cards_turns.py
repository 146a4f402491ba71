"""Audit (round 43) of the card games' deal and turn, their jokers, the end of a hand and of a match, and their web
forms (RULES.md M1-M7, T1/T3/T5/T7, D1-D3/D6, R5/R6, notation).

Every expected answer below is worked out by hand from RULES.md; the comment on each test says how.  These are the
behaviours the audit found correct; the discrepancies it found are reported, not tested here.  Inputs go through the
entry points a player uses: the batch interface (``companion.cli.answer``), the command line (in process and as a
subprocess), the HTTP API and the web forms through Flask's test client.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.cli import answer, main
from companion.store import TableStore

TOKEN = "audit-token"
PIN = {"X-Table-Pin": "1234"}


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def web_table(client: FlaskClient, store: TableStore, game: str, players: list[str], **options: Any) -> str:
    """A table this browser may edit (its PIN entered, the form's CSRF token known)."""
    table = store.create_table(game=game, players=players, pin="1234", options=options)
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {**session.get("pins", {}), table: True}
    return table


def post(client: FlaskClient, url: str, data: dict[str, str], *, htmx: bool = False):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, data={"csrf_token": TOKEN, **data}, headers=headers)


def api_table(client: FlaskClient, game: str, players: list[str], **fields: Any) -> str:
    created = client.post("/api/tables", json={"game": game, "players": players, "pin": "1234", **fields})
    assert created.status_code == 201, created.json
    return str(created.json["id"])


def api_hand(client: FlaskClient, table: str, game: str, hand: dict[str, Any]):
    return client.post(f"/api/tables/{table}/events", headers=PIN, json={"type": f"{game}_hand", "hand": hand})


def deal(game: str, **fields: Any) -> dict[str, Any]:
    return answer({"op": "deal", "game": game, **fields})


def joker(game: str, meld: str, cards: str, **fields: Any) -> dict[str, Any]:
    return answer({"op": "joker", "game": game, "meld": meld, "cards": cards, **fields})


def thai_seat(laid: str = "", hand: str = "") -> dict[str, str]:
    return {"laid": laid, "hand": hand}


# ============================================================================================ M1 / M2 the deal


@pytest.mark.parametrize(("players", "deck", "size", "jokers"), [
    (2, "reference", 108, 4), (4, "reference", 108, 4), (5, "reference", 160, 4), (6, "reference", 160, 4),
    (3, "house", 106, 2), (4, "house", 106, 2), (5, "house", 159, 3), (6, "house", 159, 3),
])
def test_M1_deck_and_stock_by_player_count_and_option_deck(players: int, deck: str, size: int, jokers: int) -> None:
    # M1: up to 4 players 2 decks + 4 jokers (108), 5-6 players 3 decks + 4 jokers (160); option deck: 106 / 159.
    # M2: 13 each, then one card up starts the discard pile: the stock is size - 13 × players - 1.
    result = deal("rami40", players=players, options={"deck": deck})
    assert result["deck"]["size"] == size and result["deck"]["jokers"] == jokers
    assert result["cards_each"] == 13 and result["stock"] == size - 13 * players - 1
    assert f"the other {size - 13 * players - 1} cards are the stock" in result["explain"][3]


def test_M1_rami_is_played_by_two_to_six() -> None:
    for players in (1, 7):
        assert "Rami is played by 2 to 6" in deal("rami51", players=players)["error"]


def test_M2_the_deal_rotates_to_the_left_and_the_player_left_of_the_dealer_starts() -> None:
    # Seats are numbered counter-clockwise, so the player on the dealer's left is seat dealer - 1.  Four players,
    # player 1 deals hand 1: hands 1-5 are dealt by seats 0, 3, 2, 1, 0 and started by seats 3, 2, 1, 0, 3.
    dealers, starters = [], []
    for number in range(1, 6):
        result = deal("rami40", players=4, hand=number, dealer=0)
        dealers.append(result["dealer"])
        starters.append(result["starter"])
        assert result["direction"] == "clockwise"
    assert dealers == [0, 3, 2, 1, 0] and starters == [3, 2, 1, 0, 3]
    assert deal("rami40", players=4, hand=2, dealer=0)["explain"][4] == (
        "Player 3, on the dealer's left, starts; play goes clockwise.")


def test_M2_the_web_deal_of_the_hand_in_play_follows_the_recorded_hands(client: FlaskClient, store: TableStore) -> None:
    # Three players, Ali (seat 0) deals hand 1; the deal passes left: Deniz (seat 2) deals hand 2, Can hand 3.
    table = web_table(client, store, "rami51", ["Ali", "Can", "Deniz"])
    assert "Hand 1: Ali deals." in text(client.get(f"/t/{table}").text)
    for _ in range(2):
        assert post(client, f"/t/{table}/cards", {"finisher": "0", "cards1": "2C", "cards2": "3C"}).status_code == 303
    page = text(client.get(f"/t/{table}").text)
    assert "Hand 3: Can deals." in page and "Ali, on the dealer's left, starts; play goes clockwise." in page
    assert [row.dealer for row in store.get(table).hands] == [0, 2]


# ================================================================================================ T1 / T3


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_T1_two_decks_two_jokers_thirteen_each_and_one_up_card(players: int) -> None:
    # T1: 106 cards whatever the number of players; 13 each and one card up: 106 - 13n - 1 in the stock.
    result = deal("turkish", players=players)
    assert result["deck"] == {"decks": 2, "jokers": 2, "size": 106}
    assert result["stock"] == 106 - 13 * players - 1 and result["cards_each"] == 13


def test_T1_the_deal_goes_to_the_right_or_with_the_direction_option_to_the_left() -> None:
    # Turkish tables play to the right (counter-clockwise, seat + 1); option direction=clockwise turns it round.
    right = deal("turkish", players=4, hand=2, dealer=0)
    assert (right["dealer"], right["starter"]) == (1, 2) and "on the dealer's right" in right["explain"][4]
    left = deal("turkish", players=4, hand=2, dealer=0, options={"direction": "clockwise"})
    assert (left["dealer"], left["starter"]) == (3, 2) and "on the dealer's left" in left["explain"][4]


def test_T1_the_web_table_passes_the_deal_with_the_direction_option(client: FlaskClient, store: TableStore) -> None:
    table = web_table(client, store, "turkish", ["Ali", "Can", "Deniz"], direction="clockwise")
    assert post(client, f"/t/{table}/cards", {"finisher": "0", "cards1": "KH", "cards2": "2C"}).status_code == 303
    assert store.get(table).dealer == 2  # clockwise: the player on Ali's left, seat 0 - 1
    assert "Hand 2: Deniz deals." in text(client.get(f"/t/{table}").text)


def test_T3_an_empty_stock_is_reshuffled_so_a_turkish_hand_always_has_a_finisher() -> None:
    # T3: the discard pile becomes a new stock, so the hand never ends on an empty stock (T6: it stops when someone
    # goes out): a record without a finisher is refused, naming the field.
    result = answer({"op": "score", "game": "turkish",
                     "hand": {"finisher": None, "players": [{"cards": "KH"}, {"cards": "2C"}]}})
    assert "missing field 'finisher'" in result["error"]


def test_T1_cli_deal_as_a_subprocess() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "deal", "--game", "turkish", "--players", "3",
                           "--dealer", "2"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Shuffle 2 decks + 2 jokers = 106 cards (T1).",
        "Hand 1: player 2 deals.",
        "Deal 13 cards to each player, one at a time, going counterclockwise.",
        "Turn the next card face up to start the discard pile; the other 66 cards are the stock.",
        "Player 3, on the dealer's right, starts; play goes counterclockwise.",
    ]


# ============================================================================================ D1 - D3 Thai deal


@pytest.mark.parametrize(("players", "each"), [(2, 11), (3, 9), (4, 7)])
def test_D1_cards_dealt_by_the_number_of_players(client: FlaskClient, store: TableStore, players: int,
                                                 each: int) -> None:
    # D1: 2 players 11 cards each, 3 players 9, 4 players 7; the next card starts the discard row.
    table = web_table(client, store, "thai", ["A", "B", "C", "D"][:players])
    page = text(client.get(f"/t/{table}").text)
    assert f"{each} cards each; the next card turned up starts the discard row" in page
    assert store.get(table).standings.cards_each == each


def test_D1_thai_tables_take_two_to_four_players(client: FlaskClient) -> None:
    for players in (["A"], ["A", "B", "C", "D", "E"]):
        refused = client.post("/api/tables", json={"game": "thai", "players": players, "pin": "1234"})
        assert refused.status_code == 422 and "2, 3 or 4" in refused.json["error"]


def test_D2_a_pickup_takes_the_card_and_every_card_after_it() -> None:
    # Row 5H 6H 9S 7H (5H first discarded): choosing 5H takes all four, and 5H melds with the taken 6H 7H.
    # Choosing 6H takes 6H 9S 7H: 6H 7H need 5H or 8H, and 5H stays in the row: not legal.
    first = answer({"op": "pickup", "game": "thai", "row": "5H 6H 9S 7H", "card": "5H", "cards": "2C"})
    assert first["legal"] and first["taken"] == ["5H", "6H", "9S", "7H"] and first["melds"] == [["5H", "6H", "7H"]]
    second = answer({"op": "pickup", "game": "thai", "row": "5H 6H 9S 7H", "card": "6H", "cards": "2C"})
    assert not second["legal"] and second["taken"] == ["6H", "9S", "7H"]
    assert "cannot be melded at once" in second["reason"]


def test_D2_the_picked_card_must_lie_in_the_row_and_be_one_card() -> None:
    assert "8S is not in the discard row" in answer(
        {"op": "pickup", "game": "thai", "row": "3D 7S", "card": "8S", "cards": "7D 7H"})["error"]
    assert "give one card of the row" in answer(
        {"op": "pickup", "game": "thai", "row": "3D 7S", "card": "7S 3D", "cards": "7D 7H"})["error"]
    # One deck (D1): a card cannot lie in the row and in the hand.
    assert "7S twice" in answer({"op": "pickup", "game": "thai", "row": "3D 7S", "card": "7S", "cards": "7S 7H"})["error"]


@pytest.mark.parametrize(("row", "card", "cards", "legal"), [
    ("QS KS", "QS", "AS", True),     # Q-K-A: the ace is high (D1)
    ("KS", "KS", "AS 2S", False),    # K-A-2 never
    ("2S", "2S", "AS 3S", False),    # A-2-3 never: the ace is high only
    ("3d, 9s 7h kc", "9s", "9h,9d 2c", True),  # lower case and commas
])
def test_D2_pickups_with_the_ace_high_only(row: str, card: str, cards: str, legal: bool) -> None:
    assert answer({"op": "pickup", "game": "thai", "row": row, "card": card, "cards": cards})["legal"] is legal


def test_D3_only_a_born_player_lays_off_and_a_first_pickup_meld_makes_one_born() -> None:
    # 7S on the table's 7C 7D 7H is a lay-off (ฝาก): a born player only (D3).
    unborn = answer({"op": "pickup", "game": "thai", "row": "3D 7S", "card": "7S", "cards": "2C", "born": False,
                     "table": "7C 7D 7H"})
    assert not unborn["legal"] and unborn["layoffs"] == []
    born = answer({"op": "pickup", "game": "thai", "row": "3D 7S", "card": "7S", "cards": "2C", "born": True,
                   "table": "7C 7D 7H"})
    assert born["legal"] and born["layoffs"] == [["7C", "7D", "7H"]] and born["born_now"] is False
    # A new meld picked up by a player not yet born makes them born; a born player is not born again.
    first = answer({"op": "pickup", "game": "thai", "row": "3D 9S 7H KC", "card": "3D", "cards": "4D 5D"})
    assert first["legal"] and first["born_now"] is True and "makes the player born (D3)" in first["reason"]
    again = answer({"op": "pickup", "game": "thai", "row": "3D 9S 7H KC", "card": "3D", "cards": "4D 5D",
                    "born": True})
    assert again["legal"] and again["born_now"] is False


def test_D6_the_knocker_deals_next_and_a_hand_without_a_knock_passes_on_in_the_direction_of_play(
        client: FlaskClient) -> None:
    # Three players, seat 2 deals first.  Hand 1: the stock runs out → the deal passes forward to seat 0.
    # Hand 2: seat 1 knocks → seat 1 deals.  Hand 3: seat 2 knocks with the card seat 1 discarded just before (play
    # goes 0 → 1 → 2): seat 2 deals, and play reverses.  Hand 4: stock out → the deal passes backwards, 2 → 1.
    table = api_table(client, "thai", ["A", "B", "C"], first_dealer=2)
    stock_out = {"knocker": None, "players": [thai_seat("2C 3C 4C", "KH"), thai_seat(hand="9H"),
                                              thai_seat("7C 7D 7H", "2D")]}
    hands = [
        stock_out,
        {"knocker": 1, "knock_card": "5H", "players": [thai_seat("2C 3C 4C", "KH"), thai_seat("7C 7D 7H"),
                                                       thai_seat(hand="9H")]},
        {"knocker": 2, "knock_card": "5H", "fed_by": 1, "players": [thai_seat("2C 3C 4C", "KH"), thai_seat(hand="9H"),
                                                                    thai_seat("7C 7D 7H")]},
        stock_out,
    ]
    dealers = []
    for hand in hands:
        response = api_hand(client, table, "thai", hand)
        assert response.status_code == 201, response.json
        dealers.append(response.json["sheet"]["dealer"])
    assert dealers == [0, 1, 2, 1]
    sheet = response.json["sheet"]
    assert [row["dealer"] for row in sheet["hands"]] == [2, 0, 1, 2]
    # D5: hand 1 50 / -5 / 10 (nobody falls when the stock runs out); hand 2 B 15 + 50, C not born -10;
    # hand 3 C 65, B not born -10 and fed -50; hand 4 as hand 1.
    assert sheet["totals"] == [200, -5, 75]
    assert response.json["state"]["standings"]["direction"] == "reverse"


# ================================================================================================ jokers


@pytest.mark.parametrize(("meld", "card", "after"), [
    ("* 2H 3H", "AH", "AH 2H 3H"),      # the joker at the low end of A-2-3 is the ace
    ("2H 3H *", "4H", "2H 3H 4H"),
    ("QH KH *", "AH", "QH KH AH"),      # a high ace after the king
    ("* JH QH KH AH", "10H", "10H JH QH KH AH"),
    ("9H * 7H", "8H", "9H 8H 7H"),      # a run laid high to low
    ("th * qh", "jh", "10H JH QH"),     # T for 10, lower case
])
def test_M5_the_run_joker_is_taken_by_the_exact_card_of_its_place(meld: str, card: str, after: str) -> None:
    result = joker("rami40", meld, card)
    assert result["allowed"] and result["freed"] == 1 and result["meld_after"] == after
    assert "lay it again this turn if you can (M5)" in result["reason"]


@pytest.mark.parametrize(("meld", "card", "wanted"), [
    ("* 2H 3H", "4H", "AH"),            # written at the low end, the joker is the ace, not the 4
    ("JH QH KH *", "10H", "AH"),
    ("* 7S 8S", "9S", "6S"),
])
def test_M5_any_other_card_is_refused_naming_the_card_the_joker_stands_for(meld: str, card: str, wanted: str) -> None:
    result = joker("rami51", meld, card)
    assert not result["allowed"] and f"stands for {wanted}; put exactly that card in its place (M5)" in result["reason"]


def test_M5_a_set_of_four_gives_its_joker_to_the_missing_suit_only() -> None:
    # KH KS KD *: the joker is the KC; with KC the set holds four real cards.  KH repeats a suit; KC 5C is no set.
    taken = joker("rami40", "kh,ks,kd,jk", "kc")
    assert taken["allowed"] and taken["meld_after"] == "KH KS KD KC"
    assert not joker("rami40", "KH KS KD *", "KH")["allowed"]
    assert not joker("rami40", "KH KS KD *", "KC 5C")["allowed"]


def test_M5_only_an_opened_player_takes_a_joker_and_only_with_a_real_card() -> None:
    assert "only a player who has opened" in joker("rami40", "5H * 7H", "6H", opened=False)["reason"]
    assert "put the real card" in joker("rami40", "5H * 7H", "*")["reason"]
    assert "there is no joker in KH KS KD" in joker("rami40", "KH KS KD", "KC")["reason"]
    # M4: one joker per meld, so a meld of two jokers is not a laid meld at all.
    assert "the laid meld is not valid" in joker("rami40", "* * 5H 6H", "7H")["reason"]
    assert "'opened' must be true or false" in joker("rami40", "5H * 7H", "6H", opened="yes")["error"]


@pytest.mark.parametrize(("meld", "cards", "freed", "after"), [
    ("10H 10S *", "10D 10C", 1, "10H 10S 10D 10C"),   # both missing suits free the joker
    ("10H 10S *", "10D", 0, "10H 10S 10D *"),          # one only closes the four-card set
    ("10H * *", "10S 10D", 1, "10H 10S 10D *"),        # two jokers: the two missing cards free one
    ("10H * *", "10S 10D 10C", 2, "10H 10S 10D 10C"),  # four real cards leave no room for a joker
])
def test_T5_sets_with_jokers(meld: str, cards: str, freed: int, after: str) -> None:
    result = joker("turkish", meld, cards)
    assert result["allowed"] and result["freed"] == freed and result["meld_after"] == after


def test_T5_a_closed_four_card_set_and_a_repeated_suit_are_refused() -> None:
    assert "closed four-card set (T5)" in joker("turkish", "10H 10S 10D *", "10C")["reason"]
    assert "two 10D" in joker("turkish", "10H 10S *", "10D 10D")["reason"]


@pytest.mark.parametrize(("meld", "card", "after"), [
    ("5H * * 8H", "6H", "5H 6H * 8H"),   # the swapped card goes where its joker lay; the other joker stays
    ("5H * * 8H", "7H", "5H * 7H 8H"),
    ("5H 6H 7H *", "8H", "5H 6H 7H 8H"),
])
def test_T5_in_a_run_the_holder_of_the_card_swaps_it_for_the_joker(meld: str, card: str, after: str) -> None:
    result = joker("turkish", meld, card)
    assert result["allowed"] and result["freed"] == 1 and result["meld_after"] == after
    assert "the joker may be used anywhere (T5)" in result["reason"]
    assert "stands for 8H" in joker("turkish", "5H 6H 7H *", "4H")["reason"]


def test_T5_M5_the_joker_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["joker", "--game", "turkish", "meld=10h,10s,jk", "cards=td tc", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["meld_after"] == "10H 10S 10D 10C"
    assert main(["joker", "--game", "rami51", "meld=9C 9D 9H *", "cards=9S", "opened=false"]) == 0
    assert capsys.readouterr().out.startswith("only a player who has opened may take a joker from the table (M5)")


def test_R5_the_assistant_retrieves_a_joker_with_its_exact_tile_and_lays_it_again() -> None:
    # R4 J R6: the joker is R5.  Laying R5 frees it, and it must be laid again this turn (R5): with K9 K10.
    result = answer({"op": "solve", "game": "rummikub", "table": "R4 J R6 |", "rack": "R5 K9 K10", "goal": "all"})
    assert result["possible"] and sorted(result["placed"]) == ["K10", "K9", "R5"]
    assert sorted(sorted(meld) for meld in result["faces"]) == [["K10", "K8", "K9"], ["R4", "R5", "R6"]]
    # With R5 alone the joker has nowhere else to go and stays on the table, at an end of the run.
    alone = answer({"op": "solve", "game": "rummikub", "table": "R4 J R6 |", "rack": "R5", "goal": "all"})
    assert alone["possible"] and sorted(alone["melds"][0]) == ["J", "R4", "R5", "R6"]


# =================================================================================== M6 / M7 / R6 / D6 ends


def test_M6_stock_out_the_lowest_penalty_wins_and_a_rami_sec_needs_a_finisher() -> None:
    # Docs (M6 reading): the lowest hand is the penalty each would pay.  A opened, keeps KH KD (20); B never opened
    # (100 whatever the 2C is worth): A scores 0, B 100.
    hand = {"finisher": None, "players": [{"opened": True, "cards": "KH KD"}, {"opened": False, "cards": "2C"}]}
    assert answer({"op": "score", "game": "rami40", "hand": hand})["scores"] == [0, 100]
    assert "rami_sec needs a finisher" in answer({"op": "score", "game": "rami40",
                                                  "hand": {**hand, "rami_sec": True}})["error"]


def test_M7_elimination_profile_ends_the_match_once_a_total_passes_500(client: FlaskClient) -> None:
    # Profile elimination: no fixed number of hands, elimination_at 500.  Player 2 never opened in a rami sec:
    # 100 × 2 = 200 a hand; player 3 keeps 5C: 5 × 2 = 10.  400 is not past 500; 600 is: lowest total wins.
    table = api_table(client, "rami40", ["A", "B", "C"], profile="elimination")
    hand = {"finisher": 0, "rami_sec": True, "players": [{"opened": False, "cards": ""},
                                                         {"opened": False, "cards": "2C"},
                                                         {"opened": True, "cards": "5C"}]}
    sheets = [api_hand(client, table, "rami40", hand).json["sheet"] for _ in range(3)]
    assert [s["totals"] for s in sheets] == [[0, 200, 10], [0, 400, 20], [0, 600, 30]]
    assert [s["finished"] for s in sheets] == [False, False, True] and sheets[-1]["winners"] == [0]
    refused = api_hand(client, table, "rami40", hand)
    assert refused.status_code == 422 and "already finished" in refused.json["error"]


def test_M7_a_fixed_number_of_hands_ties_on_the_lowest_total_share_the_win(client: FlaskClient) -> None:
    # hands 2: hand 1 A 0, B 5 (5C), C 10 (KH); hand 2 A 5 (5D), B 0, C 2 (2C): totals 5, 5, 12 — A and B win.
    table = api_table(client, "rami51", ["A", "B", "C"], options={"hands": 2})
    api_hand(client, table, "rami51", {"finisher": 0, "players": [
        {"cards": ""}, {"opened": True, "cards": "5C"}, {"opened": True, "cards": "KH"}]})
    sheet = api_hand(client, table, "rami51", {"finisher": 1, "players": [
        {"opened": True, "cards": "5D"}, {"cards": ""}, {"opened": True, "cards": "2C"}]}).json["sheet"]
    assert sheet["totals"] == [5, 5, 12] and sheet["finished"] and sheet["winners"] == [0, 1]


def test_T7_the_elimination_profile_ends_past_101(client: FlaskClient) -> None:
    # Profile elimination (elimination_at 101): a Rummy with KH KD KS QH QD QS JH JD JS 10H 10D left: 110 + 25 = 135.
    table = api_table(client, "turkish", ["A", "B"], profile="elimination")
    sheet = api_hand(client, table, "turkish", {"finisher": 0, "rummy": True, "players": [
        {"cards": ""}, {"cards": "KH KD KS QH QD QS JH JD JS 10H 10D"}]}).json["sheet"]
    assert sheet["totals"] == [0, 135] and sheet["finished"] and sheet["winners"] == [0]


def test_R6_a_match_of_hands_ends_with_the_highest_total_and_ties_share(client: FlaskClient) -> None:
    # hands 1; the pool runs out with R3, K3 (3 each) and K10: both lowest are paid 10 - 3 = 7 each: +7 +7 -14.
    table = api_table(client, "rummikub", ["A", "B", "C"], options={"hands": 1})
    sheet = api_hand(client, table, "rummikub", {"winner": None, "racks": ["R3", "K3", "K10"]}).json["sheet"]
    assert sheet["totals"] == [7, 7, -14] and sheet["finished"] and sheet["winners"] == [0, 1]


def test_D6_when_two_pass_the_target_in_one_hand_the_higher_total_wins(client: FlaskClient) -> None:
    # target 200.  A knocks with 5H after QS KS AS: 75 + 50 = 125 a hand; B laid 2C 3C 4C 10H JH QH KH: 60 + 40 = 100.
    # After hand 2 both pass 200 (250 and 200): the higher wins, then no more hands.
    table = api_table(client, "thai", ["A", "B"], options={"target": 200})
    hand = {"knocker": 0, "knock_card": "5H", "players": [thai_seat("QS KS AS"), thai_seat("2C 3C 4C 10H JH QH KH")]}
    first = api_hand(client, table, "thai", hand).json["sheet"]
    assert first["totals"] == [125, 100] and not first["finished"]
    second = api_hand(client, table, "thai", hand).json["sheet"]
    assert second["totals"] == [250, 200] and second["finished"] and second["winners"] == [0]
    assert api_hand(client, table, "thai", hand).status_code == 422


@pytest.mark.parametrize(("target", "finished"), [(125, True), (126, False)])
def test_D6_reaching_the_target_exactly_wins(client: FlaskClient, target: int, finished: bool) -> None:
    # A knock worth 125 (as above): reaching the target is enough ("first to 500"), one short is not.
    table = api_table(client, "thai", ["A", "B"], options={"target": target})
    hand = {"knocker": 0, "knock_card": "5H", "players": [thai_seat("QS KS AS"), thai_seat(hand="2D")]}
    sheet = api_hand(client, table, "thai", hand).json["sheet"]
    assert sheet["totals"][0] == 125 and sheet["finished"] is finished


# ================================================================================================ web forms


@pytest.mark.parametrize(("typed", "entry", "shown"), [
    ("as, th 10h *", 51, "AS 10H 10H *"),   # lower case, commas, T and 10 for the ten: 11 + 10 + 10 + 20
    ("AS JK", 31, "AS *"),                  # JK for the joker
    ("K♥ Q♠ *", 40, "KH QS *"),             # suit symbols
    ("jh JOKER", 30, "JH *"),
    ("2c;3d", 5, "2C 3D"),
])
def test_notation_the_rami_form_reads_what_a_phone_types(client: FlaskClient, store: TableStore, typed: str,
                                                         entry: int, shown: str) -> None:
    table = web_table(client, store, "rami40", ["Ali", "Can"])
    preview = post(client, f"/t/{table}/cards/check", {"finisher": "0", "cards1": typed}, htmx=True)
    assert preview.status_code == 200 and f"Can keeps {shown}" in text(preview.text)
    assert post(client, f"/t/{table}/cards", {"finisher": "0", "cards1": typed}).status_code == 303
    assert store.get(table).hands[0].entries == (0, entry)


@pytest.mark.parametrize(("typed", "quoted"), [
    ("7P 8P", "invalid card '7P': unknown suit 'P'"),        # a suit letter of another language
    ("1H", "invalid card '1H': unknown rank '1'"),
    ("11H", "invalid card '11H': unknown rank '11'"),
    ("10", "invalid card '10': the suit is missing"),
])
def test_notation_a_bad_card_on_the_rami_form_names_the_player_and_keeps_the_text(
        client: FlaskClient, store: TableStore, typed: str, quoted: str) -> None:
    table = web_table(client, store, "rami40", ["Ali", "Can"])
    refused = post(client, f"/t/{table}/cards", {"finisher": "0", "cards1": f"{typed} KH"})
    assert refused.status_code == 422
    assert f"Can: {quoted}" in text(refused.text) and f"{typed} KH" in unescape(refused.text)
    assert store.get(table).hands == ()


def test_notation_the_turkish_form_counts_jokers_and_copies_across_the_players(client: FlaskClient,
                                                                               store: TableStore) -> None:
    # T1: 2 jokers and 2 copies of each card in the game, whoever holds them.
    table = web_table(client, store, "turkish", ["Ali", "Can", "Deniz"])
    jokers = post(client, f"/t/{table}/cards/check", {"finisher": "0", "cards1": "AS * JK", "cards2": "*"}, htmx=True)
    assert jokers.status_code == 422 and "3 jokers entered, but the game has only 2" in text(jokers.text)
    copies = post(client, f"/t/{table}/cards/check", {"finisher": "0", "cards1": "10D", "cards2": "td, td"}, htmx=True)
    assert copies.status_code == 422 and "3 × 10D entered" in text(copies.text)
    fine = post(client, f"/t/{table}/cards/check", {"finisher": "0", "cards1": "as jk", "cards2": "td th"}, htmx=True)
    assert fine.status_code == 200 and "Can keeps AS *: 11 + 15 = 26" in text(fine.text)


def test_D1_the_thai_form_reads_symbols_commas_and_T(client: FlaskClient, store: TableStore) -> None:
    # docs D5 example: player 1 knocks with 5H after QS KS AS (75 + 50 = 125); player 2 laid 7C 7D 7H (15) and
    # keeps KH 2C (60): -45; player 3 never born keeps 10D: 10 × 2 = -20.
    table = web_table(client, store, "thai", ["Ali", "Can", "Deniz"])
    form = {"knocker": "0", "knock_card": "5h", "laid0": "q♠, k♠ a♠", "laid1": "7c,7d 7h", "hand1": "kh 2c",
            "hand2": "td"}
    assert post(client, f"/t/{table}/thai", form).status_code == 303
    assert store.get(table).hands[0].entries == (125, -45, -20)


@pytest.mark.parametrize(("typed", "message"), [
    ("7S *", "There are no jokers in Thai Rummy"),
    ("jk", "There are no jokers in Thai Rummy"),
    ("7S 7s", "7S is entered twice, but Thai Rummy plays one deck (D1)"),
])
def test_D1_the_thai_form_refuses_jokers_and_a_card_twice_and_keeps_the_text(
        client: FlaskClient, store: TableStore, typed: str, message: str) -> None:
    table = web_table(client, store, "thai", ["Ali", "Can"])
    refused = post(client, f"/t/{table}/thai", {"knocker": "0", "knock_card": "5H", "laid0": "QS KS AS",
                                                 "hand1": typed})
    assert refused.status_code == 422 and message in text(refused.text) and typed in unescape(refused.text)
    assert store.get(table).hands == ()


def test_M4_the_opening_checker_reads_lower_case_T_and_commas(client: FlaskClient, store: TableStore) -> None:
    # Rami 51: Q-K-A of hearts 31 + three nines 27 = 58 ≥ 51; 10-J-Q written th jh qh is 30 (M4).
    table = web_table(client, store, "rami51", ["Ali", "Can"])
    best = text(post(client, f"/t/{table}/cards/opening", {"hand": "qh kh ah, 9c 9d 9h 2s"}).text)
    assert "Best opening: 58" in best and "Opens: 58 ≥ 51" in best
    laid = text(post(client, f"/t/{table}/cards/opening", {"melds": "th jh qh"}).text)
    assert "= 30" in laid
