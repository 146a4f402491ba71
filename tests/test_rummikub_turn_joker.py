"""Rummikub's turn referee and joker retrieval as a user reaches them: the batch ops ``turn`` and ``joker``, the
command line's ``okey-companion turn`` / ``joker --game rummikub`` (R3-R5).

Joker retrieval is checked against a slow oracle of its own: every way of giving each joker of a meld a face,
judged by a meld check written here from the rule book (R2: a set is one number in distinct colours, three or four
tiles; a run is one colour, consecutive numbers read either way, 1 low only), on thousands of random melds.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest

from companion.cli import answer
from companion.rules.errors import ImpossibleHandError, InvalidHandRecordError
from companion.rules.rummikub import RummikubOptions, check_turn, take_joker

COLOURS = "RYBK"
FACES = [f"{colour}{number}" for colour in COLOURS for number in range(1, 14)]


# -- the oracle ---------------------------------------------------------------------------------------------


def _valid_faces(faces: list[str]) -> bool:
    """R2 from the rule book, by hand: a set or a run of numbered tiles (no jokers left)."""
    colours = [face[0] for face in faces]
    numbers = [int(face[1:]) for face in faces]
    if len(faces) < 3:
        return False
    if len(set(numbers)) == 1:
        return len(faces) <= 4 and len(set(colours)) == len(faces)
    if len(set(colours)) != 1 or len(faces) > 13:
        return False
    steps = {b - a for a, b in zip(numbers, numbers[1:])}
    return steps in ({1}, {-1})


def oracle_takers(meld: list[str]) -> set[str]:
    """Every tile that may take a joker of ``meld`` (R5): some face given to every joker makes a valid meld, and
    one joker's face is that tile."""
    places = [place for place, code in enumerate(meld) if code == "J"]
    takers: set[str] = set()
    for faces in itertools.product(FACES, repeat=len(places)):
        filled = list(meld)
        for place, face in zip(places, faces):
            filled[place] = face
        if _valid_faces(filled):
            takers.update(faces)
    return takers


def _random_meld(rng: random.Random) -> list[str]:
    """A meld as a player might lay it: mostly a valid run or set with one or two tiles turned into jokers,
    sometimes a spoiled one."""
    if rng.random() < 0.5:
        colour = rng.choice(COLOURS)
        length = rng.randint(3, 6)
        start = rng.randint(1, 14 - length)
        meld = [f"{colour}{number}" for number in range(start, start + length)]
        if rng.random() < 0.3:
            meld.reverse()
    else:
        number = rng.randint(1, 13)
        meld = [f"{colour}{number}" for colour in rng.sample(COLOURS, rng.randint(3, 4))]
    for place in rng.sample(range(len(meld)), rng.choice((1, 1, 1, 2))):
        meld[place] = "J"
    if rng.random() < 0.15:  # spoil it: a tile swapped for any other
        meld[rng.randrange(len(meld))] = rng.choice(FACES)
    return meld


@pytest.mark.parametrize("seed", range(4))
def test_R5_joker_retrieval_agrees_with_the_oracle_on_random_melds(seed):
    rng = random.Random(seed)
    checked = allowed = 0
    for _ in range(150):
        meld = _random_meld(rng)
        if "J" not in meld:
            continue
        takers = oracle_takers(meld)
        for face in FACES:
            if meld.count(face) >= 2:
                continue  # a third copy: refused as impossible, below
            verdict = take_joker(" ".join(meld), face)
            assert verdict.allowed == (face in takers), (meld, face, verdict.reason)
            checked += 1
            allowed += verdict.allowed
            if verdict.allowed:
                assert verdict.meld_after.count(next(t for t in verdict.meld_after if t.code == face)) >= 1
                assert sum(t.is_joker for t in verdict.meld_after) == meld.count("J") - 1
    assert checked > 5000 and allowed > 200


def test_R5_a_set_with_a_joker_takes_any_colour_it_lacks():
    assert oracle_takers(["R7", "B7", "J"]) == {"Y7", "K7"}
    for face in ("Y7", "K7"):
        assert take_joker("R7 B7 J", face).allowed
    refused = take_joker("R7 B7 J", "R8")
    assert not refused.allowed and "K7 or Y7" in refused.reason


def test_R5_a_run_joker_is_taken_only_by_the_tile_it_stands_for():
    verdict = take_joker("R4 J R6", "R5")
    assert verdict.allowed and verdict.to_dict() == {
        "allowed": True, "freed": 1, "meld_after": "R4 R5 R6",
        "reason": "R5 takes the joker of [R4, J, R6]: lay the joker again in this turn (R5)"}
    refused = take_joker("R4 J R6", "Y5")
    assert not refused.allowed and refused.to_dict()["freed"] == 0 and "stands for R5" in refused.reason


def test_R5_a_meld_without_a_joker_or_an_invalid_meld_frees_none():
    assert "holds no joker" in take_joker("R4 R5 R6", "R7").reason
    spoiled = take_joker("R4 J K9", "R5")
    assert not spoiled.allowed and spoiled.reason.startswith("cannot take a joker from [R4, J, K9]")


def test_R3_R5_no_joker_is_taken_before_the_initial_meld():
    refused = take_joker("R4 J R6", "R5", opened=False)
    assert not refused.allowed and "(R3)" in refused.reason
    same_move = take_joker("R4 J R6", "R5", opened=False, options=RummikubOptions(table_after_initial_meld=True))
    assert same_move.allowed and "after laying the initial meld" in same_move.reason


def test_R1_R5_one_numbered_tile_takes_a_joker_and_no_third_copy():
    for tile in ("R5 R6", "J", ""):
        with pytest.raises(InvalidHandRecordError, match="one exact tile"):
            take_joker("R4 J R6", tile)
    with pytest.raises(ImpossibleHandError, match="3 × R5"):
        take_joker("R5 R5 J", "R5")


# -- the turn referee ---------------------------------------------------------------------------------------


def test_R4_the_rack_given_the_laid_tiles_must_come_from_it():
    table = ("R4 J R6", "R4 R5 R6 | K9 K10 J")
    assert check_turn(*table, opened=True, rack="R5 K9 K10 B2").valid
    foreign = check_turn(*table, opened=True, rack="R5 K9")
    assert not foreign.valid and foreign.reason.startswith("illegal turn: K10 came onto the table but not from")
    assert check_turn(*table, opened=True).valid, "without a rack the laid tiles are taken as the rack's"
    with pytest.raises(ImpossibleHandError, match="R4"):
        check_turn(*table, opened=True, rack="R4 R4 R5 K9 K10")


def test_R3_the_turn_before_the_initial_meld():
    assert check_turn("", "R10 R11 R12", opened=False).valid
    small = check_turn("", "R1 R2 R3", opened=False)
    assert not small.valid and "worth 6" in small.reason and "needs 30" in small.reason
    touched = check_turn("R4 J R6", "R4 R5 R6 | R10 R11 R12 J", opened=False)
    assert not touched.valid and "(R3)" in touched.reason


# -- the batch and the command line --------------------------------------------------------------------------


def test_batch_turn_and_joker():
    reply = answer({"op": "turn", "game": "rummikub", "before": "R4 J R6", "after": "R4 R5 R6 | K9 K10 J",
                    "rack": "R5 K9 K10"})
    assert reply == {"valid": True, "laid": ["R5", "K9", "K10"], "value": 24,
                     "reason": "legal turn: lays R5 K9 K10 (R4)"}
    reply = answer({"op": "turn", "game": "rummikub", "before": "R4 J R6", "after": "R4 R5 R6"})
    assert reply["valid"] is False and "(R5)" in reply["reason"]
    reply = answer({"op": "joker", "game": "rummikub", "meld": "R7 B7 J", "tile": "K7", "opened": True})
    assert reply["allowed"] is True and reply["meld_after"] == "R7 B7 K7"


@pytest.mark.parametrize("request_, said", [
    ({"op": "turn", "game": "rummikub", "before": "R4 R5 R6"}, "missing field 'after'"),
    ({"op": "turn", "game": "rummikub", "after": "R4 R5 R6", "opened": "yes"}, "invalid opened 'yes'"),
    ({"op": "turn", "game": "rummikub", "after": "R4 R5 R6", "table": "R1"}, "unknown field 'table'"),
    ({"op": "turn", "game": "rummikub", "after": "R4 R5 R66"}, "'R66'"),
    ({"op": "joker", "game": "rummikub", "meld": "R4 J R6"}, "missing field 'tile'"),
    ({"op": "joker", "game": "rummikub", "tile": "R5"}, "missing field 'meld'"),
    ({"op": "joker", "game": "rummikub", "meld": "R4 J R6", "cards": "R5"}, "unknown field 'cards'"),
    ({"op": "turn", "game": "okey", "after": "R4 R5 R6"}, "Okey has no 'turn' operation"),
], ids=["no-after", "opened-text", "unknown-field", "bad-tile", "no-tile", "no-meld", "cards", "okey"])
def test_batch_turn_and_joker_refuse_bad_requests_clearly(request_, said):
    error = answer(request_).get("error", "")
    assert said in error, error


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60)


def test_cli_turn_and_joker():
    legal = _cli("turn", "before=R4 J R6", "after=R4 R5 R6 | K9 K10 J")
    assert legal.returncode == 0 and legal.stdout.startswith("legal turn: lays R5 K9 K10 (R4)"), legal
    taken = _cli("joker", "--game", "rummikub", "meld=R4 J R6", "tile=R5", "--json")
    assert taken.returncode == 0 and json.loads(taken.stdout)["meld_after"] == "R4 R5 R6"
    bad = _cli("turn", "after=R4 R5 X6")
    assert bad.returncode == 2 and "X6" in bad.stderr and "Traceback" not in bad.stderr


# -- melds as laid (R2, R3) -------------------------------------------------------------------------------------


def test_R2_batch_meld_one_meld():
    assert answer({"op": "meld", "game": "rummikub", "tiles": "R4 J R6"}) == {
        "valid": True, "value": 15, "reason": "legal run worth 15", "tiles": ["R4", "J", "R6"],
        "faces": ["R4", "R5", "R6"]}
    wrapped = {"op": "meld", "game": "rummikub", "tiles": "R12 R13 R1"}
    assert answer(wrapped)["valid"] is False and "wrap_13_1" in answer(wrapped)["reason"]
    assert answer({**wrapped, "options": {"wrap_13_1": True}})["value"] == 26


def test_R3_batch_meld_several_is_an_initial_meld():
    reply = answer({"op": "meld", "game": "rummikub", "tiles": "R10 R11 R12 | K1 K2 J"})
    assert reply["valid"] and reply["opens"] and reply["total"] == 39 and reply["minimum"] == 30
    assert [verdict["value"] for verdict in reply["verdicts"]] == [33, 6]
    fifty = answer({"op": "meld", "game": "rummikub", "tiles": "R10 R11 R12 | K1 K2 J",
                    "options": {"initial_meld": 50}})
    assert fifty["valid"] and not fifty["opens"] and "39 < 50" in fifty["reason"]
    spoiled = answer({"op": "meld", "game": "rummikub", "tiles": "R10 R11 R12 | K1 K2 K4"})
    assert not spoiled["valid"] and not spoiled["opens"] and "K4" in spoiled["reason"]


@pytest.mark.parametrize("request_, said", [
    ({"op": "meld", "game": "rummikub"}, "missing field 'tiles'"),
    ({"op": "meld", "game": "rummikub", "tiles": "R4 J R6", "cards": "R1 R2 R3"}, "give the meld once"),
    ({"op": "meld", "game": "rummikub", "tiles": "R7 R7 R7 | R7 J J"}, "4 × R7, a Rummikub set has only 2"),
    ({"op": "meld", "game": "rummikub", "tiles": "R4 F R6"}, "'F'"),
], ids=["no-tiles", "two-melds", "third-copy", "false-okey"])
def test_R1_R2_batch_meld_refuses_bad_requests_clearly(request_, said):
    assert said in answer(request_).get("error", ""), answer(request_)
