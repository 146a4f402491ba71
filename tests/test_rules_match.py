"""Match standings: the Okey 20-point count (O6) and the Okey 101 sheet (H8), replayed hand by hand."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules import InvalidHandRecordError, InvalidOptionError, options_for
from companion.rules.match import okey101_standings, okey_standings
from companion.rules.options import Okey101Options, OkeyOptions
from companion.rules.scoring import OkeyHandScore, score_okey101_hand, score_okey_hand

MELDS = "R1 R2 R3 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12"  # indicator Y7: okey Y8
PAIRS = "R1 R1 K3 K3 B5 B5 Y9 Y9 R9 R9 K11 K11 B13 B13"  # indicator Y7
NOT_A_WIN = "R1 R2 R4 B5 Y6 K5 B9 B10 B12 B12 K10 K11 Y12 Y13"


def okey(overrides: dict[str, Any] | None = None) -> OkeyOptions:
    options = options_for("okey", overrides)
    assert isinstance(options, OkeyOptions)
    return options


def o101(overrides: dict[str, Any] | None = None) -> Okey101Options:
    options = options_for("okey101", overrides)
    assert isinstance(options, Okey101Options)
    return options


def win(seat: int | None, options: OkeyOptions, *, tiles: str = MELDS, discard: str = "K1",
        gosterme: tuple[int, ...] = ()) -> OkeyHandScore:
    record = {"players": 4, "indicator": "Y7", "winner": seat, "tiles": tiles, "discard": discard,
              "gosterme": list(gosterme)}
    return score_okey_hand(record, options)


def test_O6_replay_a_20_point_match() -> None:
    options = okey()
    hands = [
        win(0, options),  # plain win
        win(1, options, discard="Y8"),  # okey discard
        win(2, options, tiles=PAIRS),  # seven pairs
        win(None, options, gosterme=(3,)),  # stock exhausted, gösterme
        win(0, options, tiles=NOT_A_WIN),  # wrong declaration
        win(1, options),
        win(2, options, discard="Y8"),
        win(3, options),
    ]
    sheet = [
        (20, 18, 18, 18),
        (16, 18, 14, 14),
        (12, 14, 14, 10),
        (11, 13, 13, 10),
        (7, 13, 13, 10),
        (5, 13, 11, 8),
        (1, 9, 11, 4),
        (-1, 7, 9, 4),
    ]
    for played in range(1, len(hands) + 1):
        standings = okey_standings(4, hands[:played], options)
        assert standings.points == sheet[played - 1], f"after hand {played}"
        assert standings.history == tuple(sheet[:played])
        assert standings.hands_played == played
        assert standings.finished is (played == len(hands))
        if not standings.finished:
            assert standings.winners == () and standings.losers == ()
    assert standings.winners == (2, 1) and standings.losers == (3, 0)
    assert standings.eliminated == ()
    assert standings.explain[-1].text == ("The match is over: somebody is at 0 or less, and the two highest win (O6): "
                                          "player 3 (9), player 2 (7); players 4 and 1 lose.")
    with pytest.raises(InvalidHandRecordError, match="already over before hand 9"):
        okey_standings(4, [*hands, win(0, options)], options)


def test_O6_start_points_option() -> None:
    options = okey({"start_points": 4})
    standings = okey_standings(4, [win(0, options), win(0, options)], options)
    assert standings.points == (4, 0, 0, 0) and standings.finished
    # Three tied at 0 on the second place: it is no winning place for those who ended the match (no seat order).
    assert standings.winners == (0,) and standings.losers == (1, 2, 3)


def test_O6_elimination_players_leave_until_one_remains() -> None:
    options = okey({"start_points": 6, "elimination": True})
    hands = [win(0, options, discard="Y8"), win(1, options), win(0, options, discard="Y8")]
    sheet = [(6, 2, 2, 2), (4, 2, 0, 0), (4, -2, 0, 0)]
    eliminated: list[tuple[int, ...]] = [(), (2, 3), (2, 3, 1)]
    for played in range(1, 4):
        standings = okey_standings(4, hands[:played], options)
        assert standings.points == sheet[played - 1]
        assert standings.eliminated == eliminated[played - 1]
        assert standings.finished is (played == 3)
    assert standings.winners == (0,) and standings.losers == (1, 3, 2)  # O6 reading: the one left wins
    assert "player 3 has 0 and leaves the match" in standings.explain[0].text
    with pytest.raises(InvalidHandRecordError, match="hand 3: seat 2 was eliminated"):
        okey_standings(4, [*hands[:2], win(2, options)], options)


def test_O6_without_elimination_the_first_at_zero_ends_it() -> None:
    options = okey({"start_points": 6})
    standings = okey_standings(4, [win(0, options, discard="Y8"), win(1, options)], options)
    assert standings.finished and standings.points == (4, 2, 0, 0) and standings.eliminated == ()


def test_O6_partners_replay() -> None:
    options = okey({"partners": True, "start_points": 6})
    hands = [
        win(1, options),
        win(None, options, gosterme=(2,)),
        win(0, options, discard="Y8"),
        win(3, options, tiles=PAIRS),
    ]
    sheet = [(4, 6), (4, 5), (4, 1), (0, 1)]
    for played in range(1, 5):
        standings = okey_standings(4, hands[:played], options)
        assert standings.team_points == sheet[played - 1]
        team0, team1 = sheet[played - 1]
        assert standings.points == (team0, team1, team0, team1)
        assert standings.finished is (played == 4)
    assert standings.winners == (1, 3) and standings.losers == (0, 2)
    data = standings.to_dict()
    assert data["team_points"] == [0, 1] and data["winners"] == [1, 3] and data["finished"] is True


def test_O6_two_and_three_players() -> None:
    options = okey({"start_points": 2})
    three = [score_okey_hand({"players": 3, "indicator": "Y7", "winner": 1, "tiles": MELDS, "discard": "K1"}, options)]
    standings = okey_standings(3, three, options)
    assert standings.points == (0, 2, 0) and standings.winners == (1,) and standings.losers == (0, 2)  # tied last


def test_okey_standings_bad_input() -> None:
    options = okey()
    with pytest.raises(InvalidHandRecordError, match="hand 1 has 4 players, the match has 3"):
        okey_standings(3, [win(0, options)], options)
    with pytest.raises(InvalidHandRecordError, match="partners need 4 players"):
        okey_standings(3, [], okey({"partners": True}))
    with pytest.raises(InvalidHandRecordError, match="scored without partners"):
        okey_standings(4, [win(0, options)], okey({"partners": True}))
    with pytest.raises(InvalidOptionError, match="not okey options"):
        okey_standings(4, [], o101())  # type: ignore[arg-type]
    with pytest.raises(InvalidHandRecordError, match="invalid players 5"):
        okey_standings(5, [], options)
    empty = okey_standings(4, [], options)
    assert empty.points == (20, 20, 20, 20) and not empty.finished and empty.history == ()


def p(opened: str | None, rack: str = "") -> dict[str, Any]:
    return {"opened": opened, "rack": rack}


def hand101(finisher: int | None, *players: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"indicator": "R4", "finisher": finisher, "players": list(players), **fields}


# Indicator R4: the okey is R5, F plays as R5.
MATCH_101 = [
    (hand101(0, p("melds"), p("melds", "B3 K9"), p(None), p("melds", "K13")), (-101, 12, 202, 13)),
    (hand101(1, p("melds", "Y10"), p("melds"), p("melds", "B1 B2"), p(None), finish="okey_discard"),
     (20, -202, 6, 404)),
    (hand101(2, p("melds", "K1"), p("pairs", "Y5 Y6"), p("pairs"), p("melds", "R5")), (2, 44, -202, 202)),
    (hand101(None, p("melds", "K7 K8"), p(None), p("pairs", "B9"), p("melds", "F"),
             penalties=[{"player": 1, "reason": "islek"}]), (15, 303, 18, 5)),
    (hand101(None, p("pairs", "B1"), p("pairs"), p("pairs", "K2"), p("pairs")), (0, 0, 0, 0)),  # void, replayed
    (hand101(3, p(None), p(None), p(None), p("melds"), elden=True), (404, 404, 404, -202)),
    (hand101(0, p("melds"), p("melds"), p("melds", "Y13 Y12"), p(None),
             penalties=[{"player": 0, "reason": "discarded_okey"}]), (0, 0, 25, 202)),
    (hand101(1, p("melds", "B13 B13"), p("melds"), p(None), p("melds", "R5 R5")), (26, -101, 202, 202)),
    (hand101(2, p(None), p(None), p("melds"), p(None), elden=True, finish="okey_discard"), (808, 808, -404, 808)),
    (hand101(3, p("melds", "K2"), p("melds", "K3"), p("melds", "K4"), p("melds"),
             penalties=[{"player": 2, "reason": "failed_opening"}, {"player": 2, "reason": "take_back"}]),
     (2, 3, 206, -101)),
    (hand101(0, p("melds"), p("pairs", "B7 B8"), p(None), p("melds", "Y1")), (-101, 30, 202, 1)),
    (hand101(1, p("melds", "R13"), p("melds"), p("melds", "R1 R2"), p(None)), (13, -101, 3, 202)),
]
SHEET_101 = [
    (-101, 12, 202, 13),
    (-81, -190, 208, 417),
    (-79, -146, 6, 619),
    (-64, 157, 24, 624),
    (-64, 157, 24, 624),
    (340, 561, 428, 422),
    (340, 561, 453, 624),
    (366, 460, 655, 826),
    (1174, 1268, 251, 1634),
    (1176, 1271, 457, 1533),
    (1075, 1301, 659, 1534),
    (1088, 1200, 662, 1736),
]


def test_H8_replay_an_11_hand_101_match() -> None:
    options = o101()
    scores = [score_okey101_hand(record, options) for record, _ in MATCH_101]
    assert [s.scores for s in scores] == [expected for _, expected in MATCH_101]
    for recorded in range(1, len(scores) + 1):
        standings = okey101_standings(4, scores[:recorded], options)
        assert standings.totals == SHEET_101[recorded - 1], f"after hand {recorded}"
        assert standings.history == tuple(SHEET_101[:recorded])
        assert standings.hands_played == recorded - (recorded >= 5)  # hand 5 was void
        assert standings.finished is (recorded == 12)
        assert standings.subtotal == (SHEET_101[10] if recorded >= 11 else None)
    assert standings.winners == (2,) and standings.leaders == (2,)
    assert [(e.hand, e.seat, e.reason) for e in standings.ledger] == [
        (4, 1, "islek"), (7, 0, "discarded_okey"), (10, 2, "failed_opening"), (10, 2, "take_back"),
    ]
    assert "Hand 5 was void" in standings.explain[0].text
    assert standings.explain[-1].text == "All 11 hands are played and the lowest total wins (H8): player 3 (662)."
    data = standings.to_dict()
    assert data["subtotal"] == list(SHEET_101[10])
    assert data["ledger"][0] == {"hand": 4, "seat": 1, "reason": "islek", "points": 101}
    with pytest.raises(InvalidHandRecordError, match="already over before hand 13"):
        okey101_standings(4, [*scores, scores[0]], options)


def test_H8_hands_option_and_leaders() -> None:
    options = o101({"hands": 3})
    scores = [score_okey101_hand(record, options) for record, _ in MATCH_101[:3]]
    two = okey101_standings(4, scores[:2], options)
    assert two.leaders == (1,) and two.winners == () and two.subtotal == SHEET_101[1] and not two.finished
    three = okey101_standings(4, scores, options)
    assert three.finished and three.winners == (1,) and three.subtotal == SHEET_101[1]


def test_H8_partners_team_totals() -> None:
    options = o101({"partners": True})
    scores = [score_okey101_hand(record, options) for record, _ in MATCH_101[:2]]
    # Hand 1: player 3's 202 is cleared (partner 1 finished); hand 2: player 4's 404 is cleared.
    standings = okey101_standings(4, scores, options)
    assert standings.totals == (-81, -190, 6, 13)
    assert standings.team_totals == (-75, -177) and standings.leaders == (1, 3)


def test_okey101_standings_bad_input() -> None:
    options = o101()
    score = score_okey101_hand(MATCH_101[0][0], options)
    with pytest.raises(InvalidHandRecordError, match="hand 1 has 4 players, the match has 2"):
        okey101_standings(2, [score], options)
    with pytest.raises(InvalidOptionError, match="not okey101 options"):
        okey101_standings(4, [score], okey())  # type: ignore[arg-type]
    empty = okey101_standings(4, [], options)
    assert empty.totals == (0, 0, 0, 0) and empty.leaders == (0, 1, 2, 3) and not empty.finished


def test_standings_json_lists_the_fields_in_order_with_the_explanations():
    """Every game's standings and card hand scores answer the same JSON shape (``explain.result_dict``): the
    fields in order, tuples as lists, ``explain`` texts then ``explain_detail`` dicts."""
    import json

    from companion.rules.okey_points import okey_points_standings, score_okey_points_hand
    from companion.rules.rami import score_rami_hand
    from companion.rules.rummikub import score_hand, standings

    points = score_okey_points_hand({"indicator": "R4", "finisher": 0, "racks": ["", "R5 K7", 23, "B1"]})
    over = okey_points_standings(4, [points] * 11, options_for("okey_points")).to_dict()
    assert list(over) == ["players", "hands", "totals", "history", "subtotal", "hands_played", "finished",
                          "leaders", "winners", "explain", "explain_detail"]
    assert over["totals"] == [0, 132, 253, 11] and over["subtotal"] == [0, 120, 230, 10]
    assert over["explain"] == ["All 11 hands are played: player 1 wins with the lowest total (O7)."]
    assert over["explain_detail"][0]["key"] == "okey_points.match_over"
    win = score_hand({"winner": 1, "racks": ["R5", "", "K10 J"]})
    assert list(standings(3, [win], options_for("rummikub")).to_dict()) == [
        "players", "hands", "totals", "history", "hands_played", "finished", "leaders", "winners", "explain",
        "explain_detail"]
    rami = score_rami_hand({"finisher": 0, "rami_sec": False,
                            "players": [{"cards": ""}, {"opened": True, "cards": "2C 3D"}]}).to_dict()
    assert list(rami) == ["players", "finisher", "rami_sec", "scores", "explain", "explain_detail", "per_seat"]
    assert rami["per_seat"][1] == ["Player 2 keeps 2C 3D: 2 + 3 = 5."]
    json.dumps([over, rami])


@pytest.mark.parametrize(("points", "players", "winners", "losers"), [
    ((4, 0, 4, 4), 4, (0, 2, 3), (1,)),  # three tied on top: the second place is shared, never given by seat order
    ((4, 2, 2, 0), 4, (0, 1, 2), (3,)),
    ((5, 3, 1, 0), 4, (0, 1), (2, 3)),
    ((6, 0, -1, -2), 4, (0, 1), (2, 3)),  # the second highest wins even at 0 when nobody ties it
    ((4, 0, 0, 0), 4, (0,), (1, 2, 3)),
    ((5, 3, 0), 3, (0,), (2,)),  # three players: the highest wins, the lowest loses
    ((3, 3, 0), 3, (0, 1), (2,)),
    ((0, 2, 0), 3, (1,), (0, 2)),
])
def test_O6_ties_share_a_place_never_broken_by_seat_order(points: tuple[int, ...], players: int,
                                                            winners: tuple[int, ...], losers: tuple[int, ...]) -> None:
    from companion.rules.match import _okey_result

    assert _okey_result(list(points), players, False, [], False) == (winners, losers)
