"""What the forty-fourth round's look at the pages found wanting, mended: a gösterme refused twice named the seat
from 0, the Rami opening checker counted cards against three decks whatever the table's size, and a blank rack of a
player who did not finish scored 0 in Okey 101 and Okey points."""

from __future__ import annotations

import re

import pytest

from companion.store import TableStore
from companion.tables import InvalidEventError

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]


def test_O6_the_same_seats_gosterme_twice_names_the_seat_as_players_count_them(store: TableStore) -> None:
    table = store.create_table(game="okey", players=PLAYERS, pin="1234")
    store.record(table, {"type": "indicator", "tile": "R4"})
    store.record(table, {"type": "gosterme", "player": 0})
    with pytest.raises(InvalidEventError, match=re.escape("Player 1 already showed the indicator this hand")):
        store.record(table, {"type": "gosterme", "player": 0})


# -- M1: the opening checker counts the cards against the table's deck ------------------------------------------

THREE_KH = "KH KS KD | KH KS KD | KH KC KD"


def _web_table(client, store: TableStore, game: str, players: list[str]) -> str:
    table = store.create_table(game=game, players=players, pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = "fix-token"
    return table


def _said(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("players, refused", [(PLAYERS, True), ([*PLAYERS, "Filiz"], False)], ids=["4-two-decks",
                                                                                                  "5-three-decks"])
@pytest.mark.parametrize("field", ["melds", "hand"])
def test_M1_the_rami_opening_checker_counts_cards_against_the_tables_deck(client, store: TableStore, players,
                                                                           refused, field) -> None:
    """Four players play two decks (three KH cannot be), five or six three (M1); the checker used three always."""
    table = _web_table(client, store, "rami40", players)
    cards = THREE_KH if field == "melds" else THREE_KH.replace(" |", "")
    said = _said(client.post(f"/t/{table}/cards/opening", data={"csrf_token": "fix-token", field: cards}).text)
    assert ("3 × KH entered" in said) is refused, said


def test_M1_the_batch_counts_against_the_deck_of_the_players_given() -> None:
    from companion.cli import answer

    request = {"op": "meld", "game": "rami40", "cards": THREE_KH}
    assert "2 decks hold only 2" in answer({**request, "players": 4})["error"]
    assert answer({**request, "players": 5})["opens"] is True
    assert answer(request)["opens"] is True, "no players given: the largest deck (three decks)"
    assert "Turkish Rummy is played by 2 to 6" in answer({"op": "opening", "game": "turkish", "players": 7,
                                                          "cards": "KH KS KD"})["error"]
