"""The hand forms' live preview says what recording would refuse (the game's ``admit_hand``) beside the scores, not
in their place: a blank rack while a hand is being typed is often only not typed yet (forty-fourth round)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore

TOKEN = "preview-token"
PLAYERS = ["Ali", "Can", "Deniz"]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def web_table(client: FlaskClient, store: TableStore, game: str, **options: Any) -> str:
    table = store.create_table(game=game, players=PLAYERS, pin="1234", options=options)
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    return table


def preview(client: FlaskClient, url: str, data: dict[str, str]):
    return client.post(url, data={"csrf_token": TOKEN, **data}, headers={"HX-Request": "true"})


@pytest.mark.parametrize("game, path, data, said", [
    ("rami40", "cards", {"finisher": "0", "cards1": "5H 7C"}, "Player 3 cannot be left with no cards"),
    ("rami51", "cards", {"finisher": "0", "notopened0": "on", "cards1": "5H", "cards2": "KD"},
     "Player 1 went out but is marked as never opened"),
    ("turkish", "cards", {"finisher": "0", "cards1": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D",
                          "cards2": "KD"}, "Player 2 cannot keep 15 cards"),
    ("rummikub", "rummikub", {"winner": "0", "rack1": "R5 J"}, "Player 3's rack cannot be empty"),
], ids=["rami-blank-loser", "rami-never-opened-finisher", "turkish-15-cards", "rummikub-blank-rack"])
def test_the_preview_shows_the_scores_and_what_recording_would_refuse(client: FlaskClient, store: TableStore,
                                                                       game, path, data, said):
    table = web_table(client, store, game)
    shown = preview(client, f"/t/{table}/{path}/check", data)
    assert shown.status_code == 200
    words = text(shown.text)
    assert "Recording it as it stands would be refused:" in words and said in words, words
    assert 'class="sheet"' in shown.text, "the scores stay in view"
    recorded = client.post(f"/t/{table}/{path}", data={"csrf_token": TOKEN, **data})
    assert recorded.status_code == 422 and said in text(recorded.text)
    assert store.events(table) == []


def test_a_complete_hand_previews_without_a_refusal(client: FlaskClient, store: TableStore):
    table = web_table(client, store, "rami40")
    shown = preview(client, f"/t/{table}/cards/check", {"finisher": "0", "cards1": "5H 7C", "cards2": "KD"})
    assert shown.status_code == 200 and "data-refused" not in shown.text and 'class="sheet"' in shown.text


def test_the_refusal_reads_in_the_players_language(client: FlaskClient, store: TableStore):
    table = web_table(client, store, "rummikub")
    client.set_cookie("lang", "tr")
    words = text(preview(client, f"/t/{table}/rummikub/check", {"winner": "0", "rack1": "R5 J"}).text)
    assert "Şu hâliyle kaydedilirse reddedilir:" in words and "Recording it" not in words
