"""The pure rules engine: notation, melds, win checks, openings, deals and scoring.

Imports no Flask, OpenCV or onnxruntime (a test enforces it).
"""

from companion.rules.errors import (
    IllegalMeldError,
    ImpossibleHandError,
    InvalidDealError,
    InvalidHandRecordError,
    InvalidOptionError,
    InvalidTileError,
    RulesError,
)
from companion.rules.options import Okey101Options, OkeyOptions, options_for
from companion.rules.tiles import Colour, Tile, format_tiles, okey_for, parse_tile, parse_tiles

__all__ = [
    "Colour",
    "IllegalMeldError",
    "ImpossibleHandError",
    "InvalidDealError",
    "InvalidHandRecordError",
    "InvalidOptionError",
    "InvalidTileError",
    "Okey101Options",
    "OkeyOptions",
    "RulesError",
    "Tile",
    "format_tiles",
    "okey_for",
    "options_for",
    "parse_tile",
    "parse_tiles",
]
