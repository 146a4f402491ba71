"""Okey 101 hand scores: RULES.md H6 (hand scores), H7 (extra penalties), H4 (void hand), H8 (partners)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules import ImpossibleHandError, InvalidHandRecordError, InvalidOptionError, InvalidTileError
from companion.rules import options_for
from companion.rules.options import Okey101Options
from companion.rules.scoring import PENALTY_REASONS, rack_points, score_okey101_hand

# Indicator R4 throughout: the okey is R5, a false okey F plays as R5 (face 5).


def o101(overrides: dict[str, Any] | None = None) -> Okey101Options:
    options = options_for("okey101", overrides)
    assert isinstance(options, Okey101Options)
    return options


def hand(*players: tuple[str | None, str], **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "indicator": "R4",
        "finisher": 0,
        "players": [{"opened": opened, "rack": rack} for opened, rack in players],
    }
    record.update(fields)
    return record


NORMAL = (("melds", ""), ("melds", "B3 K9"), (None, "Y1 Y2 Y3"), ("melds", "K13"))


def test_H6_finisher_minus_101_opened_face_sum_not_opened_202() -> None:
    score = score_okey101_hand(hand(*NORMAL))
    assert score.hand_scores == (-101, 12, 202, 13)
    assert score.scores == score.hand_scores and score.penalties == (0, 0, 0, 0)
    assert score.per_seat[0][0].text == "Player 1 finished: -101 → -101."
    assert score.per_seat[1][0].text == "Player 2 keeps B3 K9: 3 + 9 = 12 → 12."
    assert score.per_seat[2][0].text == "Player 3 has not opened: 202 → 202."
    assert score.per_seat[3][0].text == "Player 4 keeps K13: 13 → 13."


def test_H6_opened_with_an_empty_rack_pays_0() -> None:
    score = score_okey101_hand(hand(("melds", ""), ("melds", ""), ("melds", "K1"), ("melds", "")))
    assert score.scores == (-101, 0, 1, 0)
    assert score.per_seat[1][0].text == "Player 2 keeps no tiles: 0 → 0."


def test_H6_false_okey_counts_as_the_okeys_face() -> None:
    assert score_okey101_hand(hand(("melds", ""), ("melds", "F K2"))).scores == (-101, 7)


def test_H6_okey_in_hand_counts_101() -> None:
    score = score_okey101_hand(hand(("melds", ""), ("melds", "R5 K2")))
    assert score.scores == (-101, 103)
    assert score.per_seat[1][0].text == "Player 2 keeps R5 K2: 101 (okey) + 2 = 103 → 103."
    # counts_101: inside the sum, so a doubling doubles it.
    assert score_okey101_hand(hand(("melds", ""), ("melds", "R5 K2"), finish="okey_discard")).scores == (-202, 206)


def test_H6_okey_in_hand_flat_101_is_never_doubled() -> None:
    options = o101({"okey_in_hand": "flat_101"})
    assert score_okey101_hand(hand(("melds", ""), ("melds", "R5 K2")), options).scores == (-101, 103)
    score = score_okey101_hand(hand(("melds", ""), ("melds", "R5 K2"), finish="okey_discard"), options)
    assert score.scores == (-202, 105)
    assert score.per_seat[1][0].text == (
        "Player 2 keeps R5 K2: 2 × 2 (okey discard), + 101 for the okey in hand (never doubled) → 105."
    )


def test_H6_two_okeys_in_hand() -> None:
    assert rack_points("R5 R5", indicator="R4") == 202
    assert score_okey101_hand(hand(("melds", ""), ("melds", "R5 R5"))).scores == (-101, 202)


def test_H6_okey_discard_doubles_everybody() -> None:
    score = score_okey101_hand(hand(*NORMAL, finish="okey_discard"))
    assert score.scores == (-202, 24, 404, 26)
    assert score.explain[0].key == "okey101.okey_discard"


def test_H6_pairs_opener_finishing_doubles_everyone() -> None:
    players = (("pairs", ""), ("melds", "B3 K9"), (None, "Y1"), ("melds", "K13"))
    score = score_okey101_hand(hand(*players))
    assert score.scores == (-202, 24, 404, 26)
    assert score.per_seat[1][0].params["doublings"] == ["the finisher opened with pairs"]


def test_H6_pairs_finish_doubles_finisher_option_off() -> None:
    players = (("pairs", ""), ("melds", "B3 K9"), (None, "Y1"), ("melds", "K13"))
    score = score_okey101_hand(hand(*players), o101({"pairs_finish_doubles_finisher": False}))
    assert score.scores == (-101, 24, 404, 26)


def test_H6_pairs_opener_not_finishing_pays_double() -> None:
    players = (("melds", ""), ("pairs", "B3 K9"), (None, "Y1"), ("melds", "K13"))
    score = score_okey101_hand(hand(*players))
    assert score.scores == (-101, 24, 202, 13)
    assert score.per_seat[1][0].text == "Player 2 keeps B3 K9: 3 + 9 = 12 × 2 (opened with pairs) → 24."


def test_H6_doublings_multiply() -> None:
    # Okey discard ×2, and the pairs opener's own ×2 on top.
    players = (("melds", ""), ("pairs", "B3 K9"), (None, "Y1"), ("melds", "K13"))
    assert score_okey101_hand(hand(*players, finish="okey_discard")).scores == (-202, 48, 404, 26)
    # A pairs finisher with an okey discard: ×4 for everybody.
    players = (("pairs", ""), ("melds", "B3 K9"), (None, "Y1"), ("melds", "K13"))
    assert score_okey101_hand(hand(*players, finish="okey_discard")).scores == (-404, 48, 808, 52)


def test_H6_elden_doubles_everything() -> None:
    players = (("melds", ""), (None, "B3"), (None, ""), (None, "K1"))
    score = score_okey101_hand(hand(*players, elden=True))
    assert score.scores == (-202, 404, 404, 404)
    assert score.explain[0].key == "okey101.elden"


def test_H6_elden_okey_discard_doubles_twice() -> None:
    players = (("melds", ""), (None, "B3"), (None, ""), (None, "K1"))
    score = score_okey101_hand(hand(*players, elden=True, finish="okey_discard"))
    assert score.scores == (-404, 808, 808, 808)
    assert score.per_seat[1][0].text == "Player 2 has not opened: 202 × 2 (okey discard) × 2 (elden) → 808."


def test_H6_stock_exhausted_nobody_gets_minus_101() -> None:
    players = (("melds", "K2"), ("pairs", "B3 K9"), (None, "Y1"), ("melds", "K13 R5"))
    score = score_okey101_hand(hand(*players, finisher=None))
    assert score.scores == (2, 24, 202, 114)
    assert score.finisher is None and score.explain[0].key == "okey101.stock_exhausted"


def test_H6_multipliers_off_ignores_all_doublings() -> None:
    options = o101({"multipliers": False})
    players = (("pairs", ""), ("pairs", "B3 K9"), (None, "Y1"), ("melds", "K13 R5"))
    score = score_okey101_hand(hand(*players, finish="okey_discard"), options)
    assert score.scores == (-101, 12, 202, 114)
    assert any(line.key == "okey101.multipliers_off" for line in score.explain)
    elden = (("melds", ""), (None, "B3"), (None, ""), (None, "K1"))
    assert score_okey101_hand(hand(*elden, elden=True, finish="okey_discard"), options).scores == (-101, 202, 202, 202)


@pytest.mark.parametrize("reason", list(PENALTY_REASONS))
def test_H7_each_extra_penalty_is_101_never_multiplied(reason: str) -> None:
    record = hand(*NORMAL, finish="okey_discard", penalties=[{"player": 3, "reason": reason}])
    score = score_okey101_hand(record)
    assert score.hand_scores == (-202, 24, 404, 26)
    assert score.penalties == (0, 0, 0, 101) and score.scores == (-202, 24, 404, 127)
    assert score.penalty_entries[0].reason == reason
    assert score.per_seat[3][-1].text == "Player 4 scores 26 + 101 = 127 this hand."


def test_H7_penalties_add_up_and_hit_the_finisher_too() -> None:
    penalties = [
        {"player": 1, "reason": "islek"},
        {"player": 1, "reason": "take_back"},
        {"player": 0, "reason": "failed_opening"},
    ]
    score = score_okey101_hand(hand(*NORMAL, penalties=penalties))
    assert score.penalties == (101, 202, 0, 0) and score.scores == (0, 214, 202, 13)


def test_H7_penalty_points_option() -> None:
    record = hand(*NORMAL, penalties=[{"player": 2, "reason": "discarded_okey"}])
    assert score_okey101_hand(record, o101({"penalty_points": 50})).scores == (-101, 12, 252, 13)


def test_H4_every_player_opened_with_pairs_voids_the_hand() -> None:
    players = (("pairs", "B1"), ("pairs", "B3 K9"), ("pairs", "Y1"), ("pairs", "K13"))
    score = score_okey101_hand(hand(*players, finisher=None, penalties=[{"player": 1, "reason": "islek"}]))
    assert score.void and score.scores == (0, 0, 0, 0) and score.penalties == (0, 0, 0, 0)
    assert score.explain[0].key == "okey101.void"


def test_H4_void_flag() -> None:
    score = score_okey101_hand(hand(*NORMAL, void=True), o101({"partners": True}))
    assert score.void and score.scores == (0, 0, 0, 0) and score.team_scores == (0, 0)


def test_H8_partners_team_scores_and_partner_finish_clears() -> None:
    score = score_okey101_hand(hand(*NORMAL), o101({"partners": True}))
    assert score.hand_scores == (-101, 12, 0, 13)  # player 3's 202 is cleared: the partner finished
    assert score.team_scores == (-101, 25)
    assert score.per_seat[2][-1].key == "okey101.partner_cleared"
    assert score.explain[-1].text == "Teams: players 1 and 3 score -101, players 2 and 4 score 25."


def test_H8_partner_finish_clears_off_and_penalties_stay() -> None:
    options = o101({"partners": True, "partner_finish_clears": False})
    score = score_okey101_hand(hand(*NORMAL), options)
    assert score.team_scores == (101, 25)
    cleared = score_okey101_hand(hand(*NORMAL, penalties=[{"player": 2, "reason": "islek"}]), o101({"partners": True}))
    assert cleared.scores[2] == 101 and cleared.team_scores == (0, 25)


def test_H6_typed_sums() -> None:
    players = [
        {"opened": "melds", "rack": ""},
        {"opened": "melds", "sum": 12},
        {"opened": "pairs", "sum": 3, "okeys": 1},
    ]
    score = score_okey101_hand({"indicator": "R4", "finisher": 0, "players": players})
    assert score.scores == (-101, 12, 208)
    assert score.per_seat[2][0].text == (
        "Player 3 keeps a typed sum: 3 + 101 (okey) = 104 × 2 (opened with pairs) → 208."
    )


def test_H6_rack_points() -> None:
    assert rack_points("R5 K7 F", indicator="R4") == 113
    assert rack_points("", indicator="K13") == 0
    assert rack_points(["B12", "B13"], indicator="B11") == 101 + 13
    with pytest.raises(InvalidHandRecordError, match="invalid indicator 'F'"):
        rack_points("B1", indicator="F")


def test_to_dict_is_plain_json() -> None:
    data = score_okey101_hand(hand(*NORMAL, penalties=[{"player": 1, "reason": "islek"}])).to_dict()
    assert data["scores"] == [-101, 113, 202, 13] and data["hand_scores"] == [-101, 12, 202, 13]
    assert data["penalties"] == [0, 101, 0, 0]
    assert data["penalty_entries"] == [{"seat": 1, "reason": "islek", "points": 101}]
    assert data["per_seat"][1] == [
        "Player 2 keeps B3 K9: 3 + 9 = 12 → 12.",
        "Player 2 pays +101 for discarding a tile that could be added to a meld on the table (işlek) (H7).",
        "Player 2 scores 12 + 101 = 113 this hand.",
    ]
    assert data["explain_detail"][0]["key"] == "okey101.finisher"
    assert len(data["explain"]) == len(data["explain_detail"])


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"indicator": None}, InvalidHandRecordError, "needs 'indicator'"),
        ({"indicator": "R14"}, InvalidTileError, "invalid tile 'R14'"),
        ({"finisher": 4}, InvalidHandRecordError, "invalid finisher 4: with 4 players the seats are 0-3"),
        ({"finisher": 1}, InvalidHandRecordError, r"the finisher's rack must be empty .* got 'B3 K9' for seat 1"),
        ({"finisher": 2}, InvalidHandRecordError, r"the finisher \(seat 2\) must have opened"),
        ({"finish": "okey"}, InvalidHandRecordError, "invalid finish 'okey'"),
        ({"finisher": None, "finish": "okey_discard"}, InvalidHandRecordError, "needs a finisher"),
        ({"elden": True}, InvalidHandRecordError, r"elden means nobody else had opened, but seat\(s\) \[1, 3\]"),
        ({"elden": "yes"}, InvalidHandRecordError, "invalid elden 'yes'"),
        ({"penalties": [{"player": 1, "reason": "cheat"}]}, InvalidHandRecordError, "unknown penalty reason 'cheat'"),
        ({"penalties": [{"player": 9, "reason": "islek"}]}, InvalidHandRecordError, "invalid penalty player 9"),
        ({"penalties": "islek"}, InvalidHandRecordError, "invalid penalties 'islek'"),
        ({"penalties": [3]}, InvalidHandRecordError, "invalid penalty 3"),
        ({"players": []}, InvalidHandRecordError, "invalid players"),
        ({"players": [{"opened": "melds"}] * 5}, InvalidHandRecordError, "list of 2-4"),
        ({"players": [{"opened": "yes"}, {}]}, InvalidHandRecordError, "invalid opened 'yes' for seat 0"),
        ({"players": ["R1", {}]}, InvalidHandRecordError, "invalid player entry 'R1' for seat 0"),
        ({"players": [{"opened": "melds"}, {"rack": "R1 Q2"}]}, InvalidTileError, "invalid tile 'Q2'"),
        ({"players": [{"opened": "melds"}, {"rack": "J"}]}, InvalidHandRecordError, "okey has no J"),
        ({"players": [{"opened": "melds"}, {"rack": 7}]}, InvalidHandRecordError, "invalid rack of seat 1 7"),
        ({"players": [{"opened": "melds"}, {"rack": "B1", "sum": 3}]}, InvalidHandRecordError, "both 'rack' and 'sum'"),
        ({"players": [{"opened": "melds"}, {"sum": -3}]}, InvalidHandRecordError, "invalid sum -3 for seat 1"),
        ({"players": [{"opened": "melds"}, {"sum": 3, "okeys": 3}]}, InvalidHandRecordError, "invalid okeys 3"),
        ({"players": [{"opened": "melds"}, {"rack": "R4 R4"}]}, ImpossibleHandError, "3 × R4"),
    ],
)
def test_bad_101_hand_records(fields: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        score_okey101_hand(hand(*NORMAL, **fields))


def test_bad_record_and_options() -> None:
    with pytest.raises(InvalidHandRecordError, match="must be an object"):
        score_okey101_hand("R1")  # type: ignore[arg-type]
    with pytest.raises(InvalidHandRecordError, match="partners need 4 players"):
        score_okey101_hand(hand(*NORMAL[:3]), o101({"partners": True}))
    with pytest.raises(InvalidOptionError, match="are not okey101 options"):
        score_okey101_hand(hand(*NORMAL), options_for("okey"))  # type: ignore[arg-type]
