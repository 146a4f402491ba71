"""Rules as checks on a photo's tiles (issue 10): flags for a tap, never a silent correction."""

from __future__ import annotations

import itertools
import random

from companion.rules.photo import ALL_CODES, check_photo
from companion.rules.win import check_win

WIN = "R1 R2 R3 R5 B5 Y5 K5 B9 B10 B11 B12 K10 K11 K12".split()


def test_O1_more_than_two_copies_flags_every_copy() -> None:
    codes = ["R7", "K1", "R7", "F", "R7", "F", "F"]
    check = check_photo(codes, [False] * len(codes))
    assert [(n.kind, n.tile, n.count) for n in check.notes] == [("copies", "F", 3), ("copies", "R7", 3)]
    assert check.flagged == (0, 2, 3, 4, 5, 6)
    assert codes == ["R7", "K1", "R7", "F", "R7", "F", "F"], "the reading itself is never changed"


def test_O3_both_copies_of_the_indicator_flags_them() -> None:
    codes = ["R4", "K1", "R4"]
    check = check_photo(codes, [False] * 3, indicator="R4")
    assert [n.kind for n in check.notes] == ["indicator"] and check.flagged == (0, 2)
    assert check_photo(["R4", "K1"], [False] * 2, indicator="R4").notes == ()


def test_O1_a_tile_count_the_form_does_not_expect_is_said() -> None:
    check = check_photo(WIN[:13], [False] * 13, expect=(14,))
    assert [(n.kind, n.count, n.expected) for n in check.notes] == [("count", 13, (14,))]
    assert check.flagged == ()
    assert check_photo(WIN, [False] * 14, expect=(14,)).notes == ()


def test_O5_one_tile_away_offers_only_changes_that_win_and_only_for_unsure_tiles() -> None:
    hand = "R7 R6 R9 K1 K2 K3 B5 Y5 K5 B9 B10 B11 B12 B13".split()  # the R8 of R7 R8 R9 misread as R6
    sure = check_photo(hand, [False] * 14, indicator="Y3", win_hint=True)
    assert sure.one_away == (), "only an unsure tile may be offered for a change"
    unsure = [i == 1 for i in range(14)]
    check = check_photo(hand, unsure, indicator="Y3", win_hint=True)
    assert [(h.index, h.read, h.win_with) for h in check.one_away] == [(1, "R6", ("R8",))]
    assert hand[1] == "R6", "the hint is an offer; the tiles stay as read"
    assert check_photo(hand, unsure, indicator="Y3").one_away == (), "only where the form asks for it"
    # Many tiles would do (the hand lacks one tile anywhere): no hint, that would be guessing.
    loose = list(WIN)
    loose[3] = "Y13"
    assert check_photo(loose, [i == 3 for i in range(14)], indicator="Y3", win_hint=True).one_away == ()
    assert check_photo(WIN, [True] * 14, indicator="Y7", win_hint=True).one_away == (), "already a win"


def test_O5_one_tile_away_matches_a_brute_force_search() -> None:
    rng = random.Random(10)
    deck = [c for c in ALL_CODES[:-1] for _ in range(2)] + ["F", "F"]
    for _ in range(25):
        indicator = rng.choice(ALL_CODES[:-1])
        pool = list(deck)
        pool.remove(indicator)
        hand = rng.sample(pool, 14) if rng.random() < 0.5 else _near_win(rng)
        unsure = [rng.random() < 0.3 for _ in hand]
        check = check_photo(hand, unsure, indicator=indicator, win_hint=True)
        if check.notes:
            continue
        offered = {h.index: h.win_with for h in check.one_away}
        if check_win(" ".join(hand), indicator=indicator).winning:
            assert not offered
            continue
        for index in (i for i, u in enumerate(unsure) if u):
            counts = {c: hand.count(c) for c in ALL_CODES}
            copies = {c: 1 if c == indicator else 2 for c in ALL_CODES}  # the indicator is one copy (O3)
            wins = [c for c in ALL_CODES if c != hand[index] and counts[c] < copies[c]
                    and check_win(" ".join(hand[:index] + [c] + hand[index + 1:]), indicator=indicator).winning]
            for code in offered.get(index, ()):
                assert code in wins


def _near_win(rng: random.Random) -> list[str]:
    hand = list(WIN)
    hand[rng.randrange(14)] = rng.choice(ALL_CODES)
    return hand


def test_checks_never_touch_a_clean_rack() -> None:
    for codes in itertools.islice(itertools.combinations(ALL_CODES, 14), 0, 200, 20):
        check = check_photo(list(codes), [False] * 14, expect=(14, 15), indicator="K13")
        assert check.notes == () and check.flagged == ()
