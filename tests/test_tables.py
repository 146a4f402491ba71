"""The table reducer: events in, state and sheet out.  Tests cite RULES.md and replay whole matches."""

from __future__ import annotations

import json
import random

import pytest

from companion.rules.errors import InvalidDealError, InvalidHandRecordError, InvalidTileError
from companion.tables import InvalidEventError, MissingFieldError, TableState, new_meta, prepare_event, replay

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
MELDS = "R1 R2 R3 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"
PAIRS = "R1 R1 B2 B2 Y3 Y3 K4 K4 R7 R7 B9 B9 Y11 Y11"


def okey(events, players=PLAYERS, **settings) -> TableState:
    return replay(new_meta("T", game="okey", players=players, **settings), events)


def okey101(events, players=PLAYERS, **settings) -> TableState:
    return replay(new_meta("T", game="okey101", players=players, **settings), events)


def win(winner, tiles=MELDS, discard="Y8", **extra):
    """An Okey hand record; the indicator comes from the deal (R4, so the okey is R5)."""
    return {"type": "okey_hand", "hand": {"winner": winner, "tiles": tiles, "discard": discard, **extra}}


DEAL = [{"type": "deal", "dice": [5, 2]}, {"type": "indicator", "tile": "R4"}]


def rack(opened, total):
    return {"opened": opened, "sum": total}


def test_O2_the_deal_from_the_dice_follows_the_seed_example():
    state = okey(DEAL)
    assert state.deal.dice == (5, 2)
    assert (state.deal.plan.chosen_stack, state.deal.plan.starter) == (4, 1)
    plan = state.to_dict()["deal"]["plan"]
    assert [(t["seat"], t["letter"], t["count"]) for t in plan["takes"][9:]] == [
        (2, "j", 4), (3, "j", 1), (3, "k", 3), (0, "k", 2), (0, "l", 2)]


def test_O2_the_deal_is_recorded_once_per_hand():
    with pytest.raises(InvalidEventError, match="already recorded"):
        okey([*DEAL, {"type": "deal", "dice": [1, 1]}])


def test_O2_dice_must_be_two_rolls():
    with pytest.raises(InvalidEventError, match=r"invalid dice \[5\]"):
        okey([{"type": "deal", "dice": [5]}])
    with pytest.raises(InvalidDealError, match="invalid first roll 0"):
        okey([{"type": "deal", "dice": [0, 3]}])
    with pytest.raises(MissingFieldError, match="missing field 'dice' in deal event"):
        okey([{"type": "deal"}])


def test_O2_server_roll_is_recorded_as_numbers():
    state = okey([])
    event = prepare_event(state, {"type": "deal", "roll": True}, random.Random(1))
    assert set(event) == {"type", "dice", "rolled"} and event["rolled"] is True
    assert okey([event]).deal.dice == tuple(event["dice"])


def test_O2_3_a_false_okey_turned_up_means_a_second_roll_again():
    state = okey([{"type": "deal", "dice": [5, 2]}, {"type": "reroll", "die": 6}])
    assert state.deal.dice == (5, 6) and state.deal.plan.indicator_from_bottom == 6
    with pytest.raises(InvalidEventError, match="invalid die 7"):
        okey([{"type": "deal", "dice": [5, 2]}, {"type": "reroll", "die": 7}])
    with pytest.raises(InvalidEventError, match="no deal to reroll"):
        okey([{"type": "reroll", "die": 3}])


def test_O2_6_a_quick_deal_needs_no_dice():
    state = okey([{"type": "deal"}], options={"quick_deal": True})
    assert state.deal.plan.quick and state.deal.dice is None


def test_O3_indicator_sets_okey_and_false_okey_face():
    deal = okey([{"type": "indicator", "tile": "r13"}]).deal
    assert (deal.to_dict()["indicator"], deal.to_dict()["okey"], deal.to_dict()["false_okey"]) == ("R13", "R1", "R1")


def test_O3_the_indicator_is_never_a_false_okey():
    with pytest.raises(InvalidTileError, match="invalid indicator 'F'"):
        okey([{"type": "indicator", "tile": "F"}])
    with pytest.raises(InvalidTileError, match="'G4'"):
        okey([{"type": "indicator", "tile": "G4"}])


def test_O2_1_the_deal_passes_to_the_right_after_each_hand():
    state = okey([*DEAL, win(1), *DEAL, win(2)], first_dealer=3)
    assert [row.dealer for row in state.hands] == [3, 0]
    assert state.dealer == 1
    assert state.deal.dice is None and state.deal.indicator is None


def test_O6_a_win_costs_every_opponent():
    state = okey([*DEAL, win(1)])
    assert state.hands[0].entries == (-2, 0, -2, -2)
    assert state.totals == (18, 20, 18, 18)
    assert state.hands[0].explain == ("Player 2 won with melds: every opponent loses 2.",)
    assert okey([*DEAL, win(1, discard="R5")]).totals == (16, 20, 16, 16)
    assert okey([*DEAL, win(1, tiles=PAIRS, discard="K2")]).totals == (16, 20, 16, 16)


def test_O6_gosterme_is_pending_until_the_hand_is_recorded_and_counts_once():
    state = okey([*DEAL, {"type": "gosterme", "player": 2}])
    assert state.deal.gosterme == (2,) and state.hands == ()
    state = okey([*DEAL, {"type": "gosterme", "player": 2}, win(1, gosterme=[2])])
    assert state.hands[0].entries == (-3, -1, -2, -3)
    assert state.hands[0].result["gosterme"] == [2]
    with pytest.raises(InvalidEventError, match="Player 3 already showed the indicator"):
        okey([*DEAL, {"type": "gosterme", "player": 2}, {"type": "gosterme", "player": 2}])


def test_O6_gosterme_counts_when_the_stock_runs_out():
    state = okey([*DEAL, {"type": "gosterme", "player": 0}, {"type": "okey_hand", "hand": {"winner": None}}])
    assert state.hands[0].entries == (0, -1, -1, -1)
    assert state.dealer == 1


BAD = "R1 R2 R4 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12 K13"


def test_O5_a_wrong_declaration_is_a_penalty_inside_the_current_hand():
    state = okey([*DEAL, {"type": "gosterme", "player": 3}, win(0, tiles=BAD)])
    assert state.hands == ()  # the hand goes on: no row of its own, the counter and the dealer stay
    assert (state.dealer, state.deal.indicator.code, state.deal.gosterme) == (0, "R4", (3,))
    assert state.totals == (16, 20, 20, 20)  # the penalty counts at once
    assert state.sheet()["totals"] == [16, 20, 20, 20] and state.standings.points == (16, 20, 20, 20)
    assert state.current is not None and state.current.pending
    assert (state.current.number, state.current.entries) == (1, (-4, 0, 0, 0))
    assert state.sheet()["current"]["entries"] == [-4, 0, 0, 0]
    assert state.to_dict()["deal"]["wrong_declarations"] == [0]
    state = okey([*DEAL, {"type": "gosterme", "player": 3}, win(0, tiles=BAD), win(1)])
    assert len(state.hands) == 1 and state.current is None
    assert state.hands[0].entries == (-7, -1, -3, -2)  # 4 for the wrong declaration, 2 for the win, 1 gösterme
    assert state.hands[0].result["wrong_declarations"] == [0]
    assert state.hands[0].dealer == 0 and state.dealer == 1
    assert state.totals == (13, 19, 17, 18)
    assert any("declaration is wrong" in line for line in state.hands[0].explain)


def test_O5_a_wrong_declaration_that_reaches_0_ends_the_match_and_the_hand():
    events = [*DEAL, *[win(0, tiles=BAD)] * 5]
    state = okey(events)
    assert state.finished and state.totals == (0, 20, 20, 20)
    assert len(state.hands) == 1 and state.hands[0].entries == (-20, 0, 0, 0) and state.current is None


def test_O6_a_pending_gosterme_is_on_the_sheet_and_says_when_it_counts():
    state = okey([*DEAL, {"type": "gosterme", "player": 2}])
    assert state.totals == (20, 20, 20, 20)
    assert state.current is not None and state.current.entries == (0, 0, 0, 0)
    assert state.current.explain == (
        "Player 3 showed the indicator's twin (gösterme): every opponent loses 1 when the hand is recorded.",)
    assert okey([*DEAL, {"type": "gosterme", "player": 2}, win(1)]).current is None


def test_O6_match_ends_at_zero_the_two_highest_win():
    hands = [win(1, discard="R5"), win(2, tiles=PAIRS, discard="K2"), win(1), win(1, discard="R5"),
             win(2, tiles=PAIRS, discard="K2"), win(1, discard="R5", gosterme=[3])]
    events = []
    expected_totals = [(16, 20, 16, 16), (12, 16, 16, 12), (10, 16, 14, 10), (6, 16, 10, 6), (2, 12, 10, 2),
                       (-3, 11, 5, -2)]
    for number, (hand, totals) in enumerate(zip(hands, expected_totals), start=1):
        events += [*DEAL, hand]
        state = okey(events)
        assert state.totals == totals, f"after hand {number}"
        assert state.finished == (number == 6)
    assert state.winners == (1, 2)
    assert state.dealer == 2
    sheet = state.sheet()
    assert sheet["finished"] and sheet["winners"] == [1, 2] and len(sheet["hands"]) == 6
    assert json.loads(json.dumps(state.to_dict())) == state.to_dict()
    with pytest.raises(InvalidEventError, match="the match is already finished"):
        okey([*events, *DEAL])


def test_O6_partners_keep_one_count_per_team():
    state = okey([*DEAL, win(1, discard="R5")], options={"partners": True})
    assert state.teams == ((0, 2), (1, 3))
    assert state.hands[0].entries == (-4, 0)
    assert state.totals == (16, 20)
    assert state.sheet()["teams"] == [[0, 2], [1, 3]]
    assert [seat["team"] for seat in state.to_dict()["seats"]] == [0, 1, 0, 1]


def test_O6_two_and_three_players():
    state = okey([*DEAL, win(1)], players=PLAYERS[:3])
    assert state.hands[0].entries == (-2, 0, -2)
    assert state.dealer == 1
    assert okey([*DEAL, win(1), *DEAL, win(0)], players=PLAYERS[:2]).dealer == 0


def test_bad_hand_records_are_refused():
    with pytest.raises(InvalidHandRecordError):
        okey([*DEAL, win(7)])
    with pytest.raises(InvalidTileError, match="'Q1'"):
        okey([*DEAL, win(1, tiles="Q1 R2")])
    with pytest.raises(InvalidEventError, match="invalid hand 'R1'"):
        okey([*DEAL, {"type": "okey_hand", "hand": "R1"}])
    with pytest.raises(InvalidEventError, match="invalid gosterme 2 in the hand"):
        okey([*DEAL, win(1, gosterme=2)])
    with pytest.raises(InvalidHandRecordError, match="indicator"):
        okey([win(1)])


def test_events_of_the_other_game_are_refused():
    for event in ({"type": "penalty", "player": 0, "reason": "islek"}, {"type": "void_hand"},
                  {"type": "okey101_hand", "hand": {}}):
        with pytest.raises(InvalidEventError, match="belongs to Okey 101"):
            okey([event])
    for event in ({"type": "gosterme", "player": 0}, win(0)):
        with pytest.raises(InvalidEventError, match="belongs to Okey, and this table plays Okey 101"):
            okey101([event])


def test_unknown_and_shapeless_events():
    with pytest.raises(InvalidEventError, match="unknown event type 'shuffle'"):
        okey([{"type": "shuffle"}])
    with pytest.raises(MissingFieldError, match="missing field 'type'"):
        okey([{"dice": [1, 2]}])
    with pytest.raises(InvalidEventError, match="an event is an object"):
        okey(["deal"])


def test_rename():
    state = okey([{"type": "rename", "player": 3, "name": "  Ece   Nur "}])
    assert state.players == ("Ali", "Can", "Deniz", "Ece Nur")
    assert okey([{"type": "rename", "player": 0, "name": "ALI"}]).players[0] == "ALI"
    with pytest.raises(InvalidEventError, match="duplicate player name 'can'"):
        okey([{"type": "rename", "player": 0, "name": "can"}])
    with pytest.raises(InvalidEventError, match="invalid player name ''"):
        okey([{"type": "rename", "player": 0, "name": ""}])
    with pytest.raises(InvalidEventError, match="invalid player -1"):
        okey([{"type": "rename", "player": -1, "name": "X"}])
    with pytest.raises(InvalidEventError, match="invalid player True"):
        okey([{"type": "rename", "player": True, "name": "X"}])


# -- Okey 101 ---------------------------------------------------------------------------------------


def hand101(finisher, *racks, **extra):
    return {"type": "okey101_hand", "hand": {"finisher": finisher, "players": list(racks), **extra}}


def test_H7_penalties_go_to_the_ledger_of_the_current_hand():
    events = [*DEAL, {"type": "penalty", "player": 1, "reason": "islek"}]
    state = okey101(events)
    assert [p.to_dict() for p in state.penalties] == [{"hand": 1, "player": 1, "reason": "islek", "points": 101}]
    events.append(hand101(0, rack("melds", 0), rack("melds", 12), rack(None, 30), rack("melds", 20)))
    state = okey101(events)
    assert state.hands[0].entries == (-101, 113, 202, 20)
    assert state.totals == (-101, 113, 202, 20)
    assert [p.to_dict() for p in state.penalties] == [{"hand": 1, "player": 1, "reason": "islek", "points": 101}]
    assert state.deal.penalties == ()
    with pytest.raises(InvalidEventError, match="unknown penalty reason 'cheating'"):
        okey101([{"type": "penalty", "player": 1, "reason": "cheating"}])


def test_H7_a_penalty_counts_in_the_totals_page_json_and_api_at_once():
    state = okey101([*DEAL, {"type": "penalty", "player": 1, "reason": "islek"}])
    assert state.totals == (0, 101, 0, 0)
    assert state.sheet()["totals"] == [0, 101, 0, 0]
    assert state.to_dict()["standings"]["totals"] == [0, 101, 0, 0]
    assert state.standings.hands_played == 0 and not state.finished
    assert state.current is not None and state.current.entries == (0, 101, 0, 0)
    assert [p.to_dict() for p in state.penalties] == [{"hand": 1, "player": 1, "reason": "islek", "points": 101}]
    partners = okey101([*DEAL, {"type": "penalty", "player": 3, "reason": "islek"}], options={"partners": True})
    assert partners.totals == (0, 101) and partners.current.entries == (0, 101)


def test_H4_a_void_hand_is_replayed_by_the_same_dealer_without_penalties():
    events = [*DEAL, {"type": "penalty", "player": 1, "reason": "islek"}, {"type": "void_hand"}]
    state = okey101(events, first_dealer=2)
    assert (state.dealer, state.hands, state.penalties, state.voided) == (2, (), (), 1)
    assert state.deal.indicator is None
    all_pairs = hand101(None, *[rack("pairs", 10)] * 4)
    state = okey101([*DEAL, all_pairs], first_dealer=2)
    assert (state.dealer, state.hands, state.voided) == (2, (), 1)


def test_H8_a_match_of_three_hands_lowest_total_wins():
    events = [
        *DEAL, {"type": "penalty", "player": 1, "reason": "islek"},
        hand101(0, rack("melds", 0), rack("melds", 12), rack(None, 30), rack("melds", 20)),
        *DEAL, hand101(2, rack("melds", 30), rack("melds", 12), rack("melds", 0), rack(None, 40)),
        {"type": "indicator", "tile": "B9"},
        hand101(3, rack("melds", 5), rack("pairs", 10), rack("melds", 7), rack("melds", 0), finish="okey_discard"),
    ]
    expected = [(-101, 113, 202, 20), (-71, 125, 101, 222), (-61, 165, 115, 20)]
    for count, totals in enumerate(expected, start=1):
        state = okey101(events[: [4, 7, 9][count - 1]], options={"hands": 3})
        assert state.totals == totals, f"after hand {count}"
        assert state.finished == (count == 3)
    assert state.hands[2].entries == (10, 40, 14, -202)
    assert state.winners == (0,)
    assert [row.dealer for row in state.hands] == [0, 1, 2]
    with pytest.raises(InvalidEventError, match="the match is already finished"):
        okey101([*events, {"type": "penalty", "player": 0, "reason": "islek"}], options={"hands": 3})


def test_H8_partners_sheet_is_per_team():
    state = okey101([*DEAL, hand101(0, rack("melds", 0), rack("melds", 12), rack(None, 30), rack("melds", 20))],
                    options={"partners": True})
    assert state.hands[0].entries == (-101, 32)
    assert state.totals == (-101, 32)


def test_replay_is_deterministic_and_json_ready():
    events = [*DEAL, {"type": "penalty", "player": 1, "reason": "take_back"},
              hand101(0, rack("melds", 0), rack("melds", 12), rack(None, 30), rack("melds", 20))]
    first, second = okey101(events), okey101(events)
    assert first == second
    assert json.loads(json.dumps(first.to_dict())) == first.to_dict()
    assert first.version == len(events)


def test_O6_gosterme_needs_the_indicator_turned_up():
    with pytest.raises(InvalidEventError, match="no indicator yet"):
        okey([{"type": "gosterme", "player": 2}])


def test_O2_a_101_penalty_before_the_deal_does_not_block_the_dice():
    state = okey101([{"type": "penalty", "player": 1, "reason": "islek"}, {"type": "deal", "dice": [5, 2]}])
    assert state.deal.plan is not None and len(state.deal.penalties) == 1


# -- correcting a recorded hand (amend) --------------------------------------------------------------


def test_amend_corrects_a_past_hand_and_recomputes_everything_after_it():
    events = [*DEAL, win(1), *DEAL, win(2), *DEAL, win(3)]
    assert okey(events).totals == (14, 16, 16, 16)
    fixed = okey([*events, {"type": "amend", "hand": 1, "record": {"winner": 0, "tiles": MELDS, "discard": "R5"}}])
    assert fixed.totals == (16, 12, 14, 14)
    assert [row.amended for row in fixed.hands] == [True, False, False]
    assert fixed.hands[0].entries == (0, -4, -4, -4) and fixed.hands[0].to_dict()["amended"]
    assert (len(fixed.hands), fixed.dealer) == (3, 3)
    again = okey([*events, {"type": "amend", "hand": 1, "record": {"winner": 0, "tiles": MELDS, "discard": "R5"}},
                  {"type": "amend", "hand": 1, "record": {"winner": None}}])
    assert again.totals == (16, 16, 18, 18)


def test_amend_of_a_101_hand_skips_void_hands_and_keeps_its_penalties():
    void = hand101(None, *[rack("pairs", 10)] * 4)
    first = hand101(0, rack("melds", 0), rack("melds", 12), rack(None, 30), rack("melds", 20))
    events = [*DEAL, void, *DEAL, {"type": "penalty", "player": 1, "reason": "islek"}, first]
    assert okey101(events).totals == (-101, 113, 202, 20)
    amend = {"type": "amend", "hand": 1, "record": {"finisher": 2, "players": [
        rack("melds", 5), rack("melds", 12), rack("melds", 0), rack(None, 30)]}}
    assert okey101([*events, amend]).totals == (5, 113, -101, 202)


def test_amend_is_refused_with_a_reason_and_changes_nothing():
    events = [*DEAL, win(1)]
    with pytest.raises(InvalidEventError, match="no hand is recorded yet"):
        okey([*DEAL, {"type": "amend", "hand": 1, "record": {"winner": None}}])
    with pytest.raises(InvalidEventError, match="invalid hand 2 in amend event: give the number of a recorded hand, 1-1"):
        okey([*events, {"type": "amend", "hand": 2, "record": {"winner": None}}])
    with pytest.raises(InvalidEventError, match="the correction of hand 1 cannot be recorded: .*not a valid win"):
        okey([*events, {"type": "amend", "hand": 1, "record": {"winner": 0, "tiles": BAD, "discard": "Y8"}}])
    with pytest.raises(InvalidEventError, match="invalid record 'x'"):
        okey([*events, {"type": "amend", "hand": 1, "record": "x"}])
    # a correction that would end the match before hands recorded later is refused, naming why
    three = [*DEAL, win(1, discard="R5"), *DEAL, win(1, discard="R5"), *DEAL, win(1, discard="R5"), *DEAL, win(2)]
    assert not okey(three, options={"pairs_and_okey_discard": 8, "start_points": 16}).finished
    big = {"type": "amend", "hand": 1, "record": {"winner": 1, "tiles": PAIRS, "discard": "R5"}}
    with pytest.raises(InvalidEventError, match="the correction of hand 1 cannot be recorded: the match is already finished"):
        okey([*three, big], options={"pairs_and_okey_discard": 8, "start_points": 16})
