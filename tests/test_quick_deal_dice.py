"""O2.6 ``quick_deal``: no dice are rolled, so dice sent with a quick deal are refused, never silently dropped — in
the batch, on the command line and as a table's ``deal`` event (a log that holds some from before still replays)."""

from __future__ import annotations

import re

import pytest

from companion.cli import answer, main
from companion.store import TableStore
from companion.tables import InvalidEventError, new_meta, replay

PLAYERS = ["Ali", "Can", "Deniz", "Ece"]
SAID = "no dice are rolled with the quick deal (option quick_deal, O2.6)"


@pytest.mark.parametrize("game", ["okey", "okey101"])
def test_O2_6_batch_refuses_dice_with_a_quick_deal(game):
    request = {"op": "deal", "game": game, "players": 4, "dealer": 0, "options": {"quick_deal": True}}
    assert SAID in answer({**request, "dice": [5, 2]})["error"]
    plan = answer(request)
    each = {"okey": 14, "okey101": 21}[game]
    assert plan["rolls"] is None and plan["stacks"] == []
    assert plan["tiles_per_seat"] == [each + (seat == plan["starter"]) for seat in range(4)]
    assert answer({**request, "options": {}, "dice": [5, 2]})["rolls"] == [5, 2]


def test_O2_6_cli_refuses_dice_with_a_quick_deal(capsys):
    assert main(["deal", "--game", "okey", "--players", "4", "--dealer", "1", "--dice", "5", "2",
                 "-o", "quick_deal=true"]) == 2
    assert SAID in capsys.readouterr().err
    assert main(["deal", "--game", "okey", "--players", "4", "--dealer", "1", "-o", "quick_deal=true"]) == 0


def test_O2_6_a_table_refuses_a_quick_deal_event_with_dice(store: TableStore):
    table = store.create_table(game="okey", players=PLAYERS, pin="1234", options={"quick_deal": True})
    with pytest.raises(InvalidEventError, match=re.escape(SAID)):
        store.record(table, {"type": "deal", "dice": [5, 2]})
    assert store.events(table) == []
    state = store.record(table, {"type": "deal"})
    assert state.deal.plan is not None and state.deal.plan.rolls is None
    assert store.record(table, {"type": "indicator", "tile": "R4"}).deal.indicator.code == "R4"


def test_O2_6_a_log_holding_dice_with_a_quick_deal_still_replays():
    state = replay(new_meta("T", game="okey", players=PLAYERS, options={"quick_deal": True}),
                   [{"type": "deal", "dice": [5, 2]}, {"type": "indicator", "tile": "R4"}])
    assert state.deal.plan.rolls is None and state.deal.indicator.code == "R4"
