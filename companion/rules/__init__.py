"""The pure rules engine: notation, melds, win checks, openings, deals and scoring.

Imports no Flask, OpenCV or onnxruntime (a test enforces it).
"""

from companion.rules import games  # registers every game (companion/rules/games)
from companion.rules.deal import DealPlan, next_dealer, plan_deal, reroll_indicator, roll_deal
from companion.rules.errors import (
    IllegalMeldError,
    ImpossibleHandError,
    InvalidDealError,
    InvalidHandRecordError,
    InvalidOptionError,
    InvalidTileError,
    RulesError,
)
from companion.rules.explain import Explanation
from companion.rules.match import okey101_standings, okey_standings
from companion.rules.melds import Meld, Wilds, check_laid_meld, check_laid_opening, find_meld
from companion.rules.opening import best_opening
from companion.rules.options import Okey101Options, OkeyOptions, options_for
from companion.rules.registry import GameSpec, find_game
from companion.rules.scoring import rack_points, score_okey101_hand, score_okey_hand
from companion.rules.tiles import Colour, Tile, format_tiles, okey_for, parse_tile, parse_tiles
from companion.rules.win import check_hand, check_win, winning_discards

__all__ = [
    "Colour",
    "DealPlan",
    "Explanation",
    "GameSpec",
    "IllegalMeldError",
    "ImpossibleHandError",
    "InvalidDealError",
    "InvalidHandRecordError",
    "InvalidOptionError",
    "InvalidTileError",
    "Meld",
    "Okey101Options",
    "OkeyOptions",
    "RulesError",
    "Tile",
    "Wilds",
    "best_opening",
    "check_hand",
    "check_laid_meld",
    "check_laid_opening",
    "check_win",
    "find_meld",
    "find_game",
    "format_tiles",
    "next_dealer",
    "okey101_standings",
    "okey_for",
    "okey_standings",
    "options_for",
    "parse_tile",
    "parse_tiles",
    "plan_deal",
    "rack_points",
    "reroll_indicator",
    "roll_deal",
    "score_okey101_hand",
    "score_okey_hand",
    "winning_discards",
]
