"""RULES.md §0 notation and O3 indicator → okey."""

import pytest

from companion.rules.errors import ImpossibleHandError, InvalidTileError
from companion.rules.tiles import (
    ALL_NUMBERED,
    FALSE_OKEY,
    JOKER,
    Colour,
    Tile,
    check_tile_counts,
    format_tiles,
    okey_for,
    parse_tile,
    parse_tiles,
    tile_from_index,
    tiles_like,
)


def test_0_parse_accepts_lower_case_spaces_and_commas():
    assert parse_tiles("r7, K13 f") == (Tile(Colour.RED, 7), Tile(Colour.BLACK, 13), FALSE_OKEY)
    assert parse_tiles("  y1,,b2   j ") == (Tile(Colour.YELLOW, 1), Tile(Colour.BLUE, 2), JOKER)


def test_0_repr_is_the_notation():
    assert repr(parse_tiles("R7 K13 F J")) == "(R7, K13, F, J)"
    assert str(parse_tile("b10")) == "B10"


def test_0_round_trip_every_tile():
    every = (*ALL_NUMBERED, FALSE_OKEY, JOKER)
    assert parse_tiles(format_tiles(every)) == every
    assert [tile_from_index(t.index) for t in every] == list(every)
    assert len({t.index for t in every}) == 54


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("R14", "the number must be 1-13"),
        ("R0", "the number must be 1-13"),
        ("G7", "unknown colour 'G'"),
        ("7R", "expected a colour letter"),
        ("okey", "expected a colour letter"),
        ("R", "expected a colour letter"),
    ],
)
def test_0_bad_tokens_are_quoted(token, fragment):
    with pytest.raises(InvalidTileError) as error:
        parse_tiles(f"R1 {token} R3")
    assert repr(token) in str(error.value)
    assert fragment in str(error.value)
    assert isinstance(error.value, ValueError)


def test_0_tiles_like_accepts_strings_tiles_and_iterables():
    assert tiles_like(["r1", Tile(Colour.RED, 2)]) == parse_tiles("R1 R2")
    assert tiles_like("R1 R2") == parse_tiles("R1 R2")
    with pytest.raises(InvalidTileError):
        tiles_like([7])


@pytest.mark.parametrize(
    ("indicator", "okey"),
    [("R4", "R5"), ("R13", "R1"), ("K12", "K13"), ("Y1", "Y2"), ("B13", "B1")],
)
def test_O3_okey_is_one_above_the_indicator(indicator, okey):
    assert okey_for(indicator) == parse_tile(okey)


def test_O3_seed_000_red_4_gives_red_5():
    assert okey_for("R4") == Tile(Colour.RED, 5)


def test_O3_a_false_okey_is_never_the_indicator():
    with pytest.raises(InvalidTileError, match="numbered tile"):
        okey_for("F")


def test_O1_at_most_two_copies_and_two_false_okeys():
    check_tile_counts(parse_tiles("R7 R7 F F"))
    with pytest.raises(ImpossibleHandError, match="3 × R7"):
        check_tile_counts(parse_tiles("R7 R7 R7"))
    with pytest.raises(ImpossibleHandError, match="3 × F"):
        check_tile_counts(parse_tiles("F F F"))
