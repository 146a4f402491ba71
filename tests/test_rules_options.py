"""House-rule options: every option of RULES.md §O/§H exists, with the rule book's defaults."""

import dataclasses

import pytest

from companion.rules.errors import InvalidOptionError
from companion.rules.registry import games
from companion.rules.options import (
    Okey101Options,
    OkeyOptions,
    normalise_game,
    option_choices,
    options_for,
)

RULES_OPTIONS_OKEY = {
    "quick_deal": False,
    "indicator_drawable_last": False,
    "wrap_13_1": True,
    "okey_pair_of_okeys": True,
    "wrong_finish_penalty": 4,
    "start_points": 20,
    "pairs_and_okey_discard": 4,
    "elimination": False,
    "partners": False,
    "colour_hand": "off",
    "indicator_colour_multiplier": "off",
}
RULES_OPTIONS_101 = {
    "wrap_13_1": False,
    "starter": "right_of_dealer",
    "opening_ratchet": False,
    "okey_in_hand": "counts_101",
    "pairs_finish_doubles_finisher": True,
    "multipliers": True,
    "hands": 11,
    "partners": False,
    "partner_finish_clears": True,
}


@pytest.mark.parametrize(("name", "default"), RULES_OPTIONS_OKEY.items())
def test_O_every_rules_option_has_its_default(name, default):
    assert getattr(options_for("okey"), name) == default


@pytest.mark.parametrize(("name", "default"), RULES_OPTIONS_101.items())
def test_H_every_rules_option_has_its_default(name, default):
    assert getattr(options_for("okey101"), name) == default


def test_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        options_for("okey").start_points = 3  # type: ignore[misc]


def test_overrides_are_coerced_and_validated():
    options = options_for("101", {"multipliers": "off", "hands": "5", "starter": "dealer"})
    assert isinstance(options, Okey101Options)
    assert (options.multipliers, options.hands, options.starter) == (False, 5, "dealer")


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"hands": 4}, "use one of 3, 5, 7, 9, 11"),
        ({"starter": "left"}, "'left'"),
        ({"multipliers": "maybe"}, "true or false"),
        ({"wrap_13_1x": True}, "did you mean 'wrap_13_1'"),
        ({"penalty_points": -5}, "0-10000"),
        ({"penalty_points": True}, "whole number"),
    ],
)
def test_bad_option_values_are_explained(overrides, fragment):
    with pytest.raises(InvalidOptionError) as error:
        options_for("okey101", overrides)
    assert fragment in str(error.value)


def test_every_profile_builds_and_unknown_profiles_are_refused():
    for spec in games():
        for profile in spec.profiles:
            options_for(spec.id, profile=profile)
    assert isinstance(options_for("okey", profile="kahvehane"), OkeyOptions)
    with pytest.raises(InvalidOptionError, match="unknown profile 'house'"):
        options_for("okey", profile="house")


def test_game_aliases():
    assert normalise_game("101") == "okey101"
    assert normalise_game("Okey") == "okey"
    with pytest.raises(InvalidOptionError, match="unknown game 'rummy'"):
        normalise_game("rummy")


def test_option_choices_cover_every_field():
    for spec in games():
        assert set(option_choices(spec.id)) == {f.name for f in dataclasses.fields(spec.options)}
