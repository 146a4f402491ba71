"""Translatable words the pages show for engine data: games, house-rule options and their values.

The engine names things in code (``okey101``, ``okey_in_hand = "flat_101"``); these tables give each a
label and a one-line hint in the reader's language.  A new game plugs in by adding its entry to
:data:`GAME_LABELS` and its options here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

GAME_LABELS: dict[str, LazyString] = {"okey": _l("Okey (20 points)"), "okey101": _l("Okey 101")}

PROFILE_LABELS: dict[str, LazyString] = {
    "reference": _l("Reference rules"),
    "kahvehane": _l("Kahvehane (coffee-house)"),
    "partners": _l("Partners"),
    "no_doublings": _l("No doublings"),
    "dealer_starts": _l("Dealer starts"),
}

OPTION_TEXT: dict[str, tuple[LazyString, LazyString]] = {
    "quick_deal": (_l("Quick deal"), _l("No dice: everybody takes 14 tiles (starter 15) and one tile is turned up.")),
    "indicator_drawable_last": (_l("Indicator drawn last"), _l("The indicator is the last tile of the stock.")),
    "wrap_13_1": (_l("Runs 12-13-1"), _l("A run may end 12-13-1 (13-1-2 never).")),
    "okey_pair_of_okeys": (_l("Two okeys are a pair"), _l("Both okeys together count as a pair.")),
    "wrong_finish_penalty": (_l("Wrong finish penalty"), _l("Points a wrong declaration costs (0 = off).")),
    "start_points": (_l("Starting points"), _l("Each player or team starts with this many points.")),
    "win_points": (_l("Points for a win"), _l("Each opponent loses this many to a plain win.")),
    "okey_discard_points": (_l("Okey discard win"), _l("Each opponent loses this many when the winner discards an okey.")),
    "pairs_points": (_l("Seven pairs win"), _l("Each opponent loses this many to a seven-pairs win.")),
    "pairs_and_okey_discard": (_l("Pairs and okey discard"), _l("Seven pairs finished by discarding an okey.")),
    "gosterme_points": (_l("Gösterme"), _l("Each opponent loses this many when the indicator's twin is shown.")),
    "colour_hand": (_l("One-colour hand doubles"), _l("A winning hand of one colour counts double.")),
    "indicator_colour_multiplier": (_l("Indicator colour multiplier"), _l("Scores multiplied by the indicator's colour.")),
    "elimination": (_l("Elimination"), _l("A player at 0 or less leaves; the rest play on.")),
    "partners": (_l("Partners"), _l("Opposite seats play as a team.")),
    "starter": (_l("Who starts"), _l("Who gets 22 tiles and discards first.")),
    "opening_minimum": (_l("Opening minimum"), _l("The first lay-down must be worth at least this.")),
    "opening_pairs": (_l("Pairs to open"), _l("The number of pairs that open instead.")),
    "opening_ratchet": (_l("Rising opening"), _l("A later opener must beat the highest opening so far.")),
    "okey_in_hand": (_l("Okey left in hand"), _l("How an okey left in hand is charged.")),
    "pairs_finish_doubles_finisher": (_l("Pairs finisher doubled"), _l("A pairs opener who finishes scores -202.")),
    "multipliers": (_l("With doublings (katlamalı)"), _l("When off, every doubling is ignored.")),
    "penalty_points": (_l("Extra penalty"), _l("Each extra penalty: okey discarded, failed opening, işlek …")),
    "hands": (_l("Hands"), _l("How many hands the match has.")),
    "partner_finish_clears": (_l("Partner's hand cleared"), _l("When a player finishes, the partner pays nothing.")),
}

VALUE_TEXT: dict[str, LazyString] = {
    "off": _l("off"),
    "any": _l("any colour"),
    "red_black": _l("only all red or all black"),
    "red_black_x2": _l("red or black ×2"),
    "y2_b3_r4_k5": _l("yellow ×2, blue ×3, red ×4, black ×5"),
    "right_of_dealer": _l("the player on the dealer's right"),
    "dealer": _l("the dealer"),
    "counts_101": _l("101 inside the sum (doubled with it)"),
    "flat_101": _l("a flat 101 (never doubled)"),
}


def option_rows(choices: Mapping[str, Any], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per option for the form: name, label, hint, kind (``bool``/``int``/``choice``), value, choices."""
    rows = []
    for name, kind in choices.items():
        label, hint = OPTION_TEXT.get(name, (name.replace("_", " "), ""))
        row: dict[str, Any] = {"name": name, "label": label, "hint": hint, "value": values[name]}
        if isinstance(kind, tuple):
            row["kind"] = "choice"
            row["choices"] = [(value, VALUE_TEXT.get(str(value), str(value))) for value in kind]
        else:
            row["kind"] = "bool" if kind is bool else "int"
        rows.append(row)
    return rows

PENALTY_REASONS: dict[str, LazyString] = {
    "discarded_okey": _l("discarded an okey"),
    "failed_opening": _l("failed opening taken back"),
    "islek": _l("discarded a tile that fits a meld (işlek)"),
    "take_back": _l("took back more than one laid tile"),
}
"""The extra +101 penalties of H7, by the reason code the ledger records."""


def penalty_reason(code: str) -> str:
    """The reader's words for a ledger reason (free text is shown as typed)."""
    return str(PENALTY_REASONS.get(code, code))


SEAT_PARAMS = frozenset({"dealer", "owner", "starter", "seat", "winner", "player", "finisher", "declarer"})
"""Engine explanation params that hold a 0-based seat: shown as the player's name."""

EXPLANATIONS: dict[str, LazyString] = {
    "deal.quick": _l("Quick deal: everybody takes %(tiles)s tiles, %(starter)s takes %(starter_tiles)s and starts; "
                     "then one tile is turned face up as the indicator (a false okey goes back and another is turned up)."),
    "deal.stacks": _l("%(dealer)s deals. Shuffle face down and build 21 stacks of 5 (%(layout)s in front); "
                      "the dealer holds the leftover tile."),
    "deal.first_roll": _l("First die %(roll)s: the leftover tile goes on stack number %(stack_no)s counted from the "
                          "dealer's left (in front of %(owner)s); that stack now has 6 tiles."),
    "deal.second_roll": _l("Second die %(roll)s: tile number %(roll)s from the bottom of that stack is turned face up "
                           "on top of it: the indicator. A false okey goes back and the die is rolled again."),
    "deal.take_whole": _l("%(seat)s takes stack %(letter)s."),
    "deal.take_top": _l("%(seat)s takes the top %(count)s of stack %(letter)s."),
    "deal.take_bottom": _l("%(seat)s takes the last %(count)s of stack %(letter)s."),
    "deal.start": _l("%(starter)s has %(tiles)s tiles and starts by discarding; the others have %(others)s. "
                     "The rest is the stock, drawn in the same order; the indicator's stack comes last."),
}
"""The reader's words for the engine's explanation keys; a key missing here shows the engine's English."""


def explain(line: Any, players: Sequence[str]) -> str:
    """One engine ``Explanation(key, params, text)`` in the reader's language, seats shown as names."""
    template = EXPLANATIONS.get(getattr(line, "key", ""))
    if template is None:
        return str(getattr(line, "text", line))
    params: dict[str, Any] = {}
    for name, value in dict(line.params).items():
        if name in SEAT_PARAMS and isinstance(value, int) and 0 <= value < len(players):
            params[name] = players[value]
        else:
            params[name] = value
    if "stacks_in_front" in params:
        params["layout"] = ", ".join(f"{players[seat]} {count}" for seat, count in enumerate(params["stacks_in_front"]))
    if "stack" in params and isinstance(params["stack"], int):
        params["stack_no"] = params["stack"] + 1
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return str(getattr(line, "text", line))


EVENT_LABELS: dict[str, LazyString] = {
    "deal": _l("deal"),
    "reroll": _l("second die rolled again"),
    "indicator": _l("indicator"),
    "gosterme": _l("gösterme"),
    "okey_hand": _l("hand scored"),
    "okey101_hand": _l("hand scored"),
    "penalty": _l("penalty"),
    "void_hand": _l("void hand"),
    "rename": _l("rename"),
    "undo": _l("undo"),
    "redo": _l("redo"),
}


def event_label(kind: str) -> str:
    """The reader's words for an event type in the audit log."""
    return str(EVENT_LABELS.get(kind, kind))
