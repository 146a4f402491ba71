"""Translatable words the pages show for engine data: games, house-rule options and their values.

The engine names things in code (``okey101``, ``okey_in_hand = "flat_101"``); these tables give each a
label and a one-line hint in the reader's language.  A new game plugs in by adding its label to
:data:`GAME_LABELS`, its profiles, options and explanation keys here (``docs/adding-a-game.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

from companion.rules.registry import find_game, games

GAME_LABELS: dict[str, LazyString] = {
    "okey": _l("Okey (20 points)"),
    "okey101": _l("Okey 101"),
    "okey_points": _l("Okey points (face values, lowest wins)"),
    "rami40": _l("Rami 40"),
    "rami51": _l("Rami 51"),
    "turkish": _l("Turkish Rummy (Rummy 40/51)"),

    "thai": _l("Thai Rummy (Dummy)"),

    "rummikub": _l("Rummikub"),
}
"""The reader's name of each registered game, by its id (a game missing here shows its English title)."""


GAME_TITLES: dict[str, LazyString] = {
    "okey": _l("Okey"),
    "okey101": _l("Okey 101"),
    "okey_points": _l("Okey points"),
}
"""The short name of a game in a table's default title ("Okey 101 – Ali, Can, …")."""


def table_title(table: Any) -> str:
    """A table's name as the reader sees it: the name it was given, or (none given) the game's short name in
    the reader's language and today's player names (a :class:`TableState` or a past table's summary)."""
    if not getattr(table, "default_name", False):
        return str(table.name)
    game = table.game
    title = str(GAME_TITLES[game]) if game in GAME_TITLES else game_label(game)
    return f"{title} – {', '.join(table.players)}"


def game_label(game: str) -> str:
    """The reader's name of a game id."""
    if game in GAME_LABELS:
        return str(GAME_LABELS[game])
    try:
        return find_game(game).title
    except ValueError:
        return game


PROFILE_LABELS: dict[str, LazyString] = {
    "reference": _l("Reference rules"),
    "kahvehane": _l("Kahvehane (coffee-house)"),
    "partners": _l("Partners"),
    "no_doublings": _l("No doublings"),
    "dealer_starts": _l("Dealer starts"),
    "right_of_dealer_starts": _l("The player on the dealer's right starts"),
    "house": _l("House rules (fewer jokers)"),
    "elimination": _l("Elimination"),
    "rummy51": _l("Rummy 51 (opening 51, no Rummy bonus)"),

    "thai_table": _l("Thai table options"),

    "initial_50": _l("Initial meld 50"),
    "free_first_turn": _l("Table play in the initial-meld turn"),
    "no_timer": _l("No turn timer"),
}

OPTION_TEXT: dict[str, tuple[LazyString, LazyString]] = {
    "quick_deal": (_l("Quick deal"), _l("No dice: everybody takes their tiles (the starter one more) and one tile is turned up.")),
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
    "opening": (_l("Opening minimum"), _l("The first lay-down must be worth at least this.")),
    "deck": (_l("Cards"), _l("Reference: 108 cards (160 for 5-6 players); house: 106 (159).")),
    "joker_penalty": (_l("Joker left in hand"), _l("What a joker left in hand costs.")),
    "not_opened_penalty": (_l("Never opened"), _l("What a player who never opened pays instead of the cards.")),
    "rami_sec_doubles": (_l("Rami sec doubles"), _l("Going out in one turn without having opened doubles the others' penalties.")),
    "elimination_at": (_l("Match ends above"), _l("The match ends when a total passes this (0 = off).")),
    "rummy_bonus": (_l("Rummy bonus"), _l("What everybody else adds after a Rummy.")),
    "low_ace_one": (_l("Low ace counts 1"), _l("The ace of A-2-3 counts 1 instead of 11.")),
    "direction": (_l("Direction of play"), _l("Which way the deal and the turn go.")),

    "speto_points": (_l("Speto value"), _l("What 2♣ and Q♠ are worth, laid or in hand.")),
    "knock_card_points": (_l("Knock card"), _l("What the card put face down when knocking is worth.")),
    "dark_knock_multiplier": (_l("Dark knock ×"), _l("A knock without ever being born multiplies the knocker's points.")),
    "not_born_multiplier": (_l("Falling off the building ×"),
                            _l("A player not born when someone knocks pays this many times the cards in hand.")),
    "feeding_penalty": (_l("Feeding penalty"),
                        _l("Lost by whoever discarded the single card the next player knocked with.")),
    "target": (_l("Target"), _l("The first to reach this total wins.")),
    "speto_knock_card_points": (_l("Speto as knock card"),
                                _l("What a speto is worth as the knock card (100 at many tables).")),
    "layoff_discard_penalty": (_l("Discarding a card that could be laid off"),
                               _l("Lost each time (0 = off; tables use 50).")),
    "first_card_bonus": (_l("First up-card bonus"), _l("Won by whoever melds the first up-card (0 = off; tables use 50).")),
    "first_card_speto_bonus": (_l("First up-card bonus, speto"), _l("The same when that card is a speto (tables use 100).")),

    "initial_meld": (_l("Initial meld"), _l("The first lay-down, from the rack alone, is worth at least this.")),
    "table_after_initial_meld": (_l("Table play after the initial meld"),
                                 _l("In the turn of the initial meld the player may go on to use the table.")),
    "joker_points": (_l("Joker on the rack"), _l("What a joker left on a rack costs.")),
    "turn_seconds": (_l("Turn timer (seconds)"), _l("The shared turn timer; 0 = off.")),
    "timeout_draw": (_l("Tiles drawn when time runs out"), _l("The penalty draw when the timer runs out.")),
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
    "reference": _l("reference"),
    "house": _l("house rules"),
    "clockwise": _l("clockwise (to the left)"),
    "counterclockwise": _l("counter-clockwise (to the right)"),
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


SEAT_PARAMS = frozenset({"dealer", "owner", "starter", "seat", "winner", "player", "finisher", "declarer", "knocker"})
"""Engine explanation params that hold a 0-based seat: shown as the player's name."""

COLOUR_NAMES: dict[str, LazyString] = {"R": _l("red"), "Y": _l("yellow"), "B": _l("blue"), "K": _l("black")}

DOUBLING_NAMES: dict[str, LazyString] = {
    "okey discard": _l("okey discard"),
    "elden": _l("elden"),
    "opened with pairs": _l("opened with pairs"),
    "the finisher opened with pairs": _l("the finisher opened with pairs"),
}

EXPLANATIONS: dict[str, LazyString] = {
    "deal.quick": _l("Quick deal: everybody takes %(tiles)s tiles, %(starter)s takes %(starter_tiles)s and starts; "
                     "then one tile is turned face up as the indicator (a false okey goes back and another is turned up)."),
    "deal.stacks": _l("%(dealer)s deals. Shuffle face down and build 21 stacks of 5 (%(layout)s in front); "
                      "the dealer holds the leftover tile."),
    "deal.first_roll": _l("First die %(roll)s: the leftover tile goes on stack number %(stack_no)s counted from the "
                          "dealer's left (in front of %(owner)s); that stack now has 6 tiles."),
    "deal.second_roll": _l("Second die %(roll)s: tile number %(roll)s from the bottom of that stack is turned face up "
                           "on top of it: the indicator. A false okey goes back and the die is rolled again."),
    "deal.indicator_never_drawn": _l("The indicator itself is never drawn: when only the indicator's stack is left, "
                                     "its %(stack_tiles)s other tiles are drawn in turn; after the deal %(stock)s "
                                     "tiles are left to draw."),
    "deal.indicator_drawn_last": _l("The indicator is the last tile drawn (option indicator_drawable_last): when "
                                    "only the indicator's stack is left, its %(stack_tiles)s other tiles are drawn "
                                    "in turn, then the indicator; after the deal %(stock)s tiles are left to draw."),
    "deal.quick_indicator_never_drawn": _l("The indicator itself is never drawn: after the deal %(stock)s tiles are "
                                           "left to draw."),
    "deal.quick_indicator_drawn_last": _l("The indicator is the last tile drawn (option indicator_drawable_last): "
                                          "after the deal %(stock)s tiles are left to draw."),
    "deal.take_whole": _l("%(seat)s takes stack %(letter)s."),
    "deal.start": _l("%(starter)s has %(tiles)s tiles and starts by discarding; the others have %(others)s. "
                     "The rest is the stock, drawn in the same order; the indicator's stack comes last."),
    "okey.stock_exhausted": _l("The stock ran out: nobody scores for the hand."),
    "okey.gosterme": _l("%(seat)s showed the indicator's twin (gösterme): the opponents lose %(points)s."),
    "okey.gosterme_pending": _l("%(seat)s showed the indicator's twin (gösterme): the opponents lose %(points)s "
                                "when the hand is recorded."),
    "okey.win": _l("%(seat)s won with melds: the opponents lose %(points)s."),
    "okey.win_pairs": _l("%(seat)s won with seven pairs: the opponents lose %(points)s."),
    "okey.win_okey_discard": _l("%(seat)s won by discarding an okey: the opponents lose %(points)s."),
    "okey.win_pairs_okey_discard": _l("%(seat)s won with seven pairs and an okey discard: the opponents lose %(points)s."),
    "okey.colour_hand": _l("The winning hand is all %(colour_name)s (one-colour hand): ×%(factor)s."),
    "okey.indicator_colour": _l("The indicator is %(colour_name)s: ×%(factor)s."),
    "okey.win_total": _l("The opponents lose %(base)s × %(multiplier)s = %(points)s."),
    "okey.teams": _l("Teams: %(team0_names)s %(team0)s, %(team1_names)s %(team1)s."),
    "okey101.okey_discard": _l("%(finisher)s finished by discarding an okey: every hand score is doubled."),
    "okey101.elden": _l("%(finisher)s finished in one turn while nobody else had opened (elden): every hand score is doubled."),
    "okey101.pairs_finish": _l("%(finisher)s opened with pairs and finished: everyone else pays double."),
    "okey101.okey_discard.off": _l("%(finisher)s finished by discarding an okey (doublings are off: nothing is doubled)."),
    "okey101.elden.off": _l("%(finisher)s finished in one turn while nobody else had opened (elden; doublings are off: "
                            "nothing is doubled)."),
    "okey101.pairs_finish.off": _l("%(finisher)s opened with pairs and finished (doublings are off: nobody pays double)."),
    "okey101.stock_exhausted": _l("The stock ran out: nobody finished, nobody gets -101."),
    "okey101.multipliers_off": _l("Doublings are off (katlamalı off): every ×2 is ignored."),
    "okey101.finisher": _l("%(seat)s finished: -101%(times)s → %(score)s."),
    "okey101.not_opened": _l("%(seat)s has not opened: 202%(times)s → %(score)s."),
    "okey101.rack": _l("%(seat)s keeps tiles worth %(base)s%(times)s → %(score)s."),
    "okey101.rack.detail": _l("%(seat)s keeps %(held)s: %(summed)s%(times)s%(flat_text)s → %(score)s."),
    "okey101.partner_cleared": _l("%(seat)s's hand score %(was)s is cleared: the partner finished (H8)."),
    "okey101.penalty": _l("%(seat)s pays +%(points)s for %(reason_name)s (H7)."),
    "okey101.total": _l("%(seat)s scores %(hand)s + %(penalties)s = %(score)s this hand."),
    "okey101.teams": _l("Teams: %(team0_names)s %(team0)s, %(team1_names)s %(team1)s."),
    "okey.wrong_finish": _l("%(seat)s's declaration is wrong: the 14 tiles do not split into melds or seven pairs. "
                            "Penalty: %(points)s points (O5)."),
    "okey.match_out": _l("After hand %(hand)s %(name)s has %(points)s."),
    "okey.match_out.leaves": _l("After hand %(hand)s %(name)s has %(points)s and leaves the match."),
    "okey.match_over": _l("The match is over: %(winner_names)s win, %(loser_names)s lose."),
    "okey.match_over.two_highest": _l("The match is over: somebody is at 0 or less, and the two highest win (O6): "
                                      "%(winner_names)s. %(loser_names)s lose."),
    "okey.match_over.tied": _l("The match is over: somebody is at 0 or less, and the highest win, players tied on a "
                               "place sharing it (O6): %(winner_names)s. %(loser_names)s lose."),
    "okey.match_over.highest": _l("The match is over: somebody is at 0 or less, and the highest wins (O6): "
                                  "%(winner_names)s. %(loser_names)s lose."),
    "okey.match_over.team": _l("The match is over: a team is at 0 or less, and the team still above 0 wins (O6): "
                               "%(winner_names)s."),
    "okey.match_over.last_left": _l("The match is over: the last player left above 0 wins (O6): %(winner_names)s."),
    "okey101.match_void": _l("Hand %(hand)s was void: it is replayed and not counted."),
    "okey101.match_over": _l("All %(hands)s hands are played and the lowest total wins (H8): %(winner_names)s."),
    "rummikub.winner": _l("%(seat)s went out: + the others' racks = +%(points)s."),
    "rummikub.loser": _l("%(seat)s keeps %(rack)s: −%(sum)s."),
    "rummikub.pool_winner": _l("The pool ran out: %(seat)s has the lowest rack (%(sum)s) and is paid the differences: +%(points)s."),
    "rummikub.pool_loser": _l("%(seat)s keeps tiles worth %(sum)s and pays the difference to the lowest (%(lowest)s): %(score)s."),
    "rummikub.match_over": _l("All %(hands)s hands are played: %(winner_names)s win with the highest total."),
    "okey_points.stock_exhausted": _l("The stock ran out: every player counts the tiles left on the rack."),
    "okey_points.finisher": _l("%(seat)s completed the rack: 0."),
    "okey_points.rack": _l("%(seat)s keeps tiles worth %(score)s."),
    "okey_points.rack.tiles": _l("%(seat)s keeps %(tiles)s → %(score)s."),
    "okey_points.match_over": _l("All %(hands)s hands are played: %(winner_names)s win with the lowest total."),
    "rami.finisher": _l("%(seat)s went out: 0."),
    "rami.not_opened": _l("%(seat)s never opened: %(points)s (M7)."),
    "rami.typed": _l("%(seat)s keeps cards worth %(points)s (typed at the table)."),
    "rami.empty": _l("%(seat)s keeps no cards: 0."),
    "rami.cards": _l("%(seat)s keeps %(cards)s: %(terms)s = %(points)s."),
    "rami.stock_out": _l("The stock ran out (M6): the lowest hand, %(value)s, wins the hand and scores 0."),
    "rami.lowest": _l("%(seat)s has the lowest hand: 0 (M6)."),
    "rami.rami_sec": _l("%(finisher)s went out in one turn without having opened (rami sec)."),
    "rami.doubled": _l("%(seat)s: %(was)s × 2 (rami sec) = %(score)s."),
    "rami.match_passed": _l("After hand %(hand)s a total passed %(limit)s (M7): the match is over."),
    "rami.match_hands": _l("All %(hands)s hands are played (M7): the match is over."),
    "rami.match_winners": _l("%(winner_names)s win with the lowest total, %(total)s."),
    "turkish.rummy": _l("%(finisher)s made a Rummy, laying the whole hand at once: everybody else adds %(bonus)s (T6)."),
    "turkish.finisher": _l("%(seat)s went out: 0."),
    "turkish.typed": _l("%(seat)s keeps cards worth %(points)s (typed at the table): %(score)s."),
    "turkish.cards": _l("%(seat)s keeps %(cards)s: %(terms)s = %(score)s."),
    "turkish.match_passed": _l("After hand %(hand)s a total passed %(limit)s: the match is over."),
    "turkish.match_hands": _l("All %(hands)s hands are played: the match is over."),
    "turkish.match_winners": _l("%(winner_names)s win with the lowest total, %(total)s."),
    "rami.deal_deck": _l("Shuffle %(size)s cards: %(decks)s decks and %(jokers)s jokers (M1)."),
    "turkish.deal_deck": _l("Shuffle %(size)s cards: %(decks)s decks and %(jokers)s jokers (T1)."),
    "rami.deal_dealer": _l("Hand %(hand)s: %(dealer)s deals."),
    "turkish.deal_dealer": _l("Hand %(hand)s: %(dealer)s deals."),
    "rami.deal_cards": _l("Deal %(cards)s cards to each player, one at a time."),
    "turkish.deal_cards": _l("Deal %(cards)s cards to each player, one at a time."),
    "rami.deal_upcard": _l("Turn the next card face up to start the discard pile; the other %(stock)s cards are the stock."),
    "turkish.deal_upcard": _l("Turn the next card face up to start the discard pile; the other %(stock)s cards are the stock."),
    "rami.deal_starter": _l("%(starter)s, on the dealer's left, starts; play goes clockwise."),
    "turkish.deal_starter": _l("%(starter)s, next to the dealer, starts; play goes the same way as the deal."),
    "okey101.void": _l("The hand is void (every player opened with pairs): it is replayed, nobody scores and no penalties count."),
    "thai.stock_out": _l("Nobody knocked: the stock ran out and everybody counts (D4)."),
    "thai.knock": _l("%(seat)s knocked with %(knock_card)s: laid %(laid_sum)s, knock card %(knock_points)s → %(score)s (D5)."),
    "thai.knock_dark": _l("%(seat)s knocked dark with %(knock_card)s: (%(laid_points)s + %(knock_points)s) × "
                          "%(multiplier)s → %(score)s (dark knock, D6)."),
    "thai.counts": _l("%(seat)s laid %(laid_sum)s and keeps %(hand_sum)s: %(laid_points)s - %(hand_points)s → "
                      "%(score)s (D5)."),
    "thai.not_born": _l("%(seat)s is not born when %(knocker)s knocks (falling off the building): keeps %(hand_sum)s "
                        "× %(multiplier)s → %(score)s (D6)."),
    "thai.fed": _l("%(seat)s fed %(knocker)s the card they knocked with (โง่): -%(points)s, and the next hand goes "
                   "the other way round (D6)."),
    "thai.layoff_discards": _l("%(seat)s discarded %(count)s card(s) that could have been laid off: -%(points)s (D6)."),
    "thai.first_card": _l("%(seat)s melded the first up-card %(card)s: +%(points)s (D6)."),
    "thai.total": _l("%(seat)s scores %(cards)s %(extras_signed)s = %(score)s this hand."),
    "thai.next_dealer_knocker": _l("%(seat)s knocked: they deal and start the next hand (D6)."),
    "thai.next_dealer_passes": _l("Nobody knocked: the deal passes to %(seat)s (D6)."),
    "thai.next_dealer_passes_on": _l("Nobody knocked: the deal passes on to the next player (D6)."),
    "thai.direction_reversed": _l("%(seat)s fed the knocker: play now goes the other way round (D6)."),
    "thai.match_over": _l("%(winner_names)s reached %(target)s first and won (D6)."),
}
"""The reader's words for the engine's explanation keys; a key missing here shows the engine's English."""

COUNTED_EXPLANATIONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "deal.take_top": lambda params: ngettext(
        "%(seat)s takes the top tile of stack %(letter)s.", "%(seat)s takes the top %(num)d tiles of stack %(letter)s.",
        params["count"], **params),
    "deal.take_bottom": lambda params: ngettext(
        "%(seat)s takes the last tile of stack %(letter)s.", "%(seat)s takes the last %(num)d tiles of stack %(letter)s.",
        params["count"], **params),
}
"""Explanation keys whose words depend on a number (``count``): each language's plural forms."""

_PLAYER_N = re.compile(r"\b[Pp]layer (\d)\b")


def with_names(text: str, players: Sequence[str]) -> str:
    """The engine's English with "player 2" replaced by the name in seat 2.

    >>> with_names("Player 1 won: player 2 loses 2.", ["Ali", "Can"])
    'Ali won: Can loses 2.'
    """

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return players[seat] if 0 <= seat < len(players) else match.group(0)

    return _PLAYER_N.sub(name, text)


def _field(line: Any, name: str) -> Any:
    return line.get(name) if isinstance(line, Mapping) else getattr(line, name, None)


def explain(line: Any, players: Sequence[str]) -> str:
    """One engine explanation (an ``Explanation`` or its dict) in the reader's language, seats as names."""
    english = with_names(str(_field(line, "text") or line), players)
    key = str(_field(line, "key") or "")
    raw = dict(_field(line, "params") or {})
    if key == "okey.match_over" and f"{key}.{raw.get('rule')}" in EXPLANATIONS:
        key = f"{key}.{raw.get('rule')}"
    if key == "okey_points.rack" and raw.get("tiles"):
        key = "okey_points.rack.tiles"
    if key == "okey101.rack" and isinstance(raw.get("values"), list):
        key = "okey101.rack.detail"
        raw.update(_rack_words(raw))
    if key == "okey.match_out":
        if raw.get("leaves"):
            key = "okey.match_out.leaves"
        unit = raw.get("unit")
        if isinstance(unit, int) and 0 <= unit < len(players):
            teammate = unit + 2 if "team of" in english and unit + 2 < len(players) else None
            raw["name"] = players[unit] + (f" & {players[teammate]}" if teammate is not None else "")
    template = EXPLANATIONS.get(key)
    if template is None and key not in COUNTED_EXPLANATIONS:
        return english
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if name in SEAT_PARAMS and isinstance(value, int) and 0 <= value < len(players):
            params[name] = players[value]
        else:
            params[name] = value
    if "stacks_in_front" in params:
        counts = params["stacks_in_front"]
        seats = raw.get("seats") if isinstance(raw.get("seats"), list) else range(len(counts))  # O6 elimination
        params["layout"] = ", ".join(f"{players[seat]} {counts[seat]}" for seat in seats)
    if isinstance(params.get("stack"), int):
        params["stack_no"] = params["stack"] + 1
    if key.startswith("deal.take") and params.get("letter"):
        params["letter"] = str(params["letter"]).upper()  # as the drawing labels the stacks
    totals = raw.get("totals") if isinstance(raw.get("totals"), list) else None
    for group in ("winners", "losers"):
        if isinstance(params.get(group), list):
            params[f"{group[:-1]}_names"] = ", ".join(
                players[seat] + (f" ({totals[seat]})" if totals and seat < len(totals) and group == "winners" else "")
                for seat in params[group] if 0 <= seat < len(players))
    if "team0" in params and len(players) == 4:  # partners sit opposite: seats 1 and 3, seats 2 and 4
        params.update(team0_names=f"{players[0]} & {players[2]}", team1_names=f"{players[1]} & {players[3]}")
    if "colour" in params:
        params["colour_name"] = COLOUR_NAMES.get(str(params["colour"]), params["colour"])
    if "reason" in params:
        params["reason_name"] = penalty_reason(str(params["reason"]))
    if "doublings" in params:
        params["times"] = "".join(f" × 2 ({DOUBLING_NAMES.get(d, d)})" for d in params["doublings"])
        if ("base" in params and key != "okey101.rack.detail"
                and params.get("score") != params["base"] * params.get("multiplier", 1)):
            return english
    try:
        if key in COUNTED_EXPLANATIONS:
            return COUNTED_EXPLANATIONS[key](params)
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return english


def _rack_words(params: Mapping[str, Any]) -> dict[str, str]:
    """What a 101 rack line says in words: the tiles (or a typed sum) and the sum, "Y1 Y2: 1 + 2 = 3"."""
    flat = bool(params.get("flat"))
    terms = [str(_l("101 (okey)")) if value is None else str(value)
             for value in params.get("values") or [] if value is not None or not flat]
    summed = " + ".join(terms) + (f" = {params.get('base')}" if len(terms) > 1 else "") if terms else "0"
    okey_points = params.get("okey_points") or 0
    tiles = params.get("tiles")
    return {
        "held": str(_l("a typed sum")) if tiles is None else (str(tiles) or str(_l("no tiles"))),
        "summed": summed,
        "flat_text": str(_l(", + %(n)s for the okey in hand (never doubled)", n=okey_points)) if flat and okey_points else "",
    }


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


EVENT_LABELS: dict[str, LazyString] = {
    "deal": _l("deal"),
    "reroll": _l("second die rolled again"),
    "indicator": _l("indicator"),
    "gosterme": _l("gösterme"),
    "penalty": _l("penalty"),
    "void_hand": _l("void hand"),
    "rename": _l("rename"),
    "amend": _l("hand corrected"),
    "undo": _l("undo"),
    "redo": _l("redo"),
}


OUTCOME_LABELS: dict[str, LazyString] = {
    "wrong_declaration": _l("wrong declaration"),
    "void": _l("void hand"),
}
"""What a hand event turned out to be, when it did not simply end the hand."""

HAND_SCORED = _l("hand scored")


def _is_hand_event(kind: str) -> bool:
    return any(kind == spec.hand_event for spec in games())


def event_label(kind: str, outcome: str = "") -> str:
    """The reader's words for an event type in the audit log (``outcome``: what replaying it did); every
    game's ``<id>_hand`` is "hand scored"."""
    if outcome in OUTCOME_LABELS:
        return str(OUTCOME_LABELS[outcome])
    if _is_hand_event(kind):
        return str(HAND_SCORED)
    return str(EVENT_LABELS.get(kind, kind))


OPENED_WORDS: dict[str, LazyString] = {
    "melds": _l("opened with melds"),
    "pairs": _l("opened with pairs"),
}


def record_lines(kind: str, payload: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """A hand record of the audit log in words (who won, the tiles, each rack), not as raw JSON."""

    def name(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "—"

    given = payload.get("record") if kind == "amend" else payload.get("hand")
    if not isinstance(given, Mapping):
        return []
    lines = []
    if given.get("indicator"):
        lines.append(str(_l("indicator %(tile)s", tile=given["indicator"])))
    if given.get("tiles"):
        lines.append(str(_l("%(name)s shows %(tiles)s and discards %(discard)s", name=name(given.get("winner")),
                            tiles=given["tiles"], discard=given.get("discard") or "—")))
    if given.get("finish") == "okey_discard":
        lines.append(str(_l("finished by discarding an okey (×2)")))
    if given.get("elden"):
        lines.append(str(_l("elden: finished in one turn, nobody else opened (×2)")))
    listed = given.get("players")  # a list of seats in 101; a count in an Okey hand ("players": 4)
    for seat, entry in enumerate(listed if isinstance(listed, (list, tuple)) else []):
        if not isinstance(entry, Mapping):
            continue
        opened = entry.get("opened")
        words = [str(OPENED_WORDS.get(str(opened), _l("not opened")))]
        if "sum" in entry:
            words.append(str(_l("sum %(sum)s typed, %(okeys)s okeys", sum=entry["sum"], okeys=entry.get("okeys") or 0)))
        elif entry.get("rack"):
            words.append(str(_l("keeps %(tiles)s", tiles=entry["rack"])))
        lines.append(f"{name(seat)}: {', '.join(words)}")
    for seat, rack in enumerate(given.get("racks") or []):
        if isinstance(rack, int) and not isinstance(rack, bool):
            lines.append(f"{name(seat)}: " + str(_l("sum %(sum)s typed", sum=rack)))
        elif rack:
            lines.append(f"{name(seat)}: " + str(_l("keeps %(tiles)s", tiles=rack if isinstance(rack, str) else " ".join(map(str, rack)))))
    for seat in given.get("gosterme") or []:
        lines.append(str(_l("Gösterme: %(names)s", names=name(seat))))
    return lines


def event_summary(kind: str, payload: Mapping[str, Any], players: Sequence[str], outcome: str = "") -> str:
    """One line saying what an audit-log event did, in the reader's language, seats as names."""

    def name(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "—"

    given = payload.get("hand")
    hand: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    if kind == "deal":
        dice = payload.get("dice")
        return str(_l("dice %(dice)s", dice=", ".join(map(str, dice)))) if dice else str(_l("quick deal"))
    if kind == "reroll":
        return str(_l("second die %(die)s", die=payload.get("die")))
    if kind == "indicator":
        if payload.get("replaces"):
            return str(_l("%(tile)s instead of %(old)s", tile=payload.get("tile", ""), old=payload["replaces"]))
        return str(payload.get("tile", ""))
    if kind in ("gosterme", "penalty"):
        reason = payload.get("reason")
        return name(payload.get("player")) + (f": {penalty_reason(str(reason))}" if reason else "")
    if kind == "rename":
        return str(_l("seat %(n)s is now %(name)s", n=int(payload.get("player", 0)) + 1, name=payload.get("name")))
    if _is_hand_event(kind):
        finisher = hand.get("winner", hand.get("finisher"))
        if finisher is not None and outcome == "wrong_declaration":
            return str(_l("%(name)s declared a win that is not one; the hand goes on", name=name(finisher)))
        return str(_l("stock exhausted")) if finisher is None else str(_l("%(name)s finished", name=name(finisher)))
    if kind == "amend":
        return str(_l("hand %(n)s replaced by a corrected record", n=payload.get("hand")))
    if kind in ("undo", "redo"):
        return f"#{payload.get('target')}"
    return ""


# -- the engine's error messages and verdict reasons in the reader's language ------------------------------

MELD_KINDS: dict[str, LazyString] = {"meld": _l("meld"), "set": _l("set"), "run": _l("run"), "pair": _l("pair")}

WHY_ILLEGAL: dict[str, LazyString] = {
    "a colour repeats; a set needs distinct colours, O4": _l("a colour repeats; a set needs distinct colours, O4"),
    "a set has at most 4 tiles, one per colour, O4": _l("a set has at most 4 tiles, one per colour, O4"),
    "1 after 13 is not allowed here (wrap_13_1 is off, H1)":
        _l("1 after 13 is not allowed here (runs 12-13-1 are off, H1)"),
    "1 may be low or follow 13, never both, O4": _l("1 may be low or follow 13, never both, O4"),
    "13-1-2 never wraps, O4": _l("13-1-2 never wraps, O4"),
    "the numbers must follow each other in laid order, O4": _l("the numbers must follow each other in laid order, O4"),
    "a meld has at least 3 tiles (a pair 2), O4": _l("a meld has at least 3 tiles (a pair 2), O4"),
    "a set is one number in distinct colours, a run consecutive numbers in one colour, O4":
        _l("a set is one number in distinct colours, a run consecutive numbers in one colour, O4"),
    "a pair is two identical tiles (O5); a meld has at least 3 (O4)":
        _l("a pair is two identical tiles (O5); a meld has at least 3 (O4)"),
    "the 14 tiles do not split into melds or seven pairs": _l("the 14 tiles do not split into melds or seven pairs"),
    "two okeys are no pair here (okey_pair_of_okeys is off, H4)":
        _l("two okeys are no pair at this table (the rule “two okeys are a pair” is off, H4)"),
    # Rummikub (R2)
    "a meld has at least 3 tiles, R2": _l("a meld has at least 3 tiles, R2"),
    "a colour repeats; a set needs distinct colours, R2": _l("a colour repeats; a set needs distinct colours, R2"),
    "a set has at most 4 tiles, one per colour, R2": _l("a set has at most 4 tiles, one per colour, R2"),
    "1 after 13 is not allowed here (wrap_13_1 is off, R2)":
        _l("1 after 13 is not allowed here (runs 12-13-1 are off, R2)"),
    "1 may be low or follow 13, never both, R2": _l("1 may be low or follow 13, never both, R2"),
    "13-1-2 never wraps, R2": _l("13-1-2 never wraps, R2"),
    "the numbers must follow each other in laid order, R2": _l("the numbers must follow each other in laid order, R2"),
    "a set is one number in distinct colours, a run consecutive numbers in one colour, R2":
        _l("a set is one number in distinct colours, a run consecutive numbers in one colour, R2"),
    # the card rummies (M3/M4, T2)
    "a meld needs at least one real card besides jokers": _l("a meld needs at least one real card besides jokers"),
    "neither a set (one rank, distinct suits) nor a run (one suit, consecutive)":
        _l("neither a set (one rank, distinct suits) nor a run (one suit, consecutive)"),
    "a set is one rank": _l("a set is one rank"),
    "a run is one suit": _l("a run is one suit"),
    "K-A-2 never wraps: the ace is low in A-2-3 or high in Q-K-A":
        _l("K-A-2 never wraps: the ace is low in A-2-3 or high in Q-K-A"),
    "two aces: the ace is low in A-2-3 or high in Q-K-A, never both":
        _l("two aces: the ace is low in A-2-3 or high in Q-K-A, never both"),
}
"""The engine's fixed reasons (why a meld is illegal, why a hand does not win), by their English text."""

_WHY_PATTERNS: tuple[tuple[re.Pattern[str], LazyString], ...] = (
    (re.compile(r"^a meld needs at least 3 cards, this has (?P<n>\d+)$"), _l("a meld needs at least 3 cards, this has %(n)s")),
    (re.compile(r"^only one joker per meld, this has (?P<n>\d+)$"), _l("only one joker per meld, this has %(n)s")),
    (re.compile(r"^only (?P<k>\d+) jokers per meld, this has (?P<n>\d+)$"),
     _l("at most %(k)s jokers per meld, this has %(n)s")),
    (re.compile(r"^a set has 3 or 4 cards, this has (?P<n>\d+)$"), _l("a set has 3 or 4 cards, this has %(n)s")),
    (re.compile(r"^two (?P<card>\w+): every card of a set needs a different suit$"),
     _l("two %(card)s: every card of a set needs a different suit")),
    (re.compile(r"^two (?P<card>\w+): a run holds each card once$"), _l("two %(card)s: a run holds each card once")),
    (re.compile(r"^a run has at most 13 cards \(A-K or 2-A\), this has (?P<n>\d+)$"),
     _l("a run has at most 13 cards (A-K or 2-A), this has %(n)s")),
    (re.compile(r"^the cards are not consecutive; (?P<n>\d+) jokers? cannot fill the gaps$"),
     _l("the cards are not consecutive; the jokers (%(n)s) cannot fill the gaps")),
)
"""The card rummies' reasons with numbers or cards in them (why a meld is illegal), by pattern."""

_RANK_NAMES = {"aces": "A", "jacks": "J", "queens": "Q", "kings": "K"}


def _why(why: str) -> str:
    """Why a meld is illegal, in the reader's language where the reason is one the engine gives."""
    if why in WHY_ILLEGAL:
        return str(WHY_ILLEGAL[why])
    for pattern, template in _WHY_PATTERNS:
        found = pattern.match(why)
        if found:
            return str(template) % found.groupdict()
    return why


def _joker_note(standing_for: str | None) -> str:
    return "" if not standing_for else str(_l(" (joker: %(cards)s)")) % {"cards": standing_for.replace(" or ", " / ")}


def _card_set(found: re.Match[str]) -> str:
    rank = _RANK_NAMES.get(found["name"], found["name"].removesuffix("s"))
    return str(_l("set of %(n)s × %(rank)s%(joker)s: %(sum)s")) % {
        "n": found["n"], "rank": rank, "joker": _joker_note(found["as"]), "sum": found["sum"]}


def _card_run(found: re.Match[str]) -> str:
    return str(_l("run %(cards)s%(joker)s: %(sum)s")) % {
        "cards": found["cards"], "joker": _joker_note(found["as"]), "sum": found["sum"]}


_CARD_MELDS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^set of (?P<n>\d+) (?P<name>aces|jacks|queens|kings|\d+s)(?: \(the jokers? as (?P<as>[^)]*)\))?: "
                r"(?P<sum>[\d +=]+)$"), _card_set),
    (re.compile(r"^run (?P<cards>[\w-]+)(?: \(the joker as (?P<as>[^)]*)\))?: (?P<sum>[\d +=]+)$"), _card_run),
)
"""A card meld's value as the card rummies explain it (M4, T2): "set of 3 kings: 10 + 10 + 10 = 30"."""

_CORRECTION = re.compile(r"^the correction of hand (?P<n>\d+) cannot be recorded: (?P<why>.+)$", re.S)

_ENGINE_MESSAGES: tuple[tuple[re.Pattern[str], LazyString], ...] = (
    (re.compile(r"^illegal (?P<kind>meld|set|run|pair): (?P<tiles>\[[^\]]*\]) \((?P<why>.*)\)$"),
     _l("Illegal %(kind)s: %(tiles)s (%(why)s)")),
    (re.compile(r"^invalid indicator '(?P<code>[^']*)'"),
     _l("%(code)s cannot be the indicator: the indicator is always a numbered tile (a false okey turned up goes "
        "back and the die is rolled again, O2.3).")),
    (re.compile(r"^invalid Rummikub tile '(?P<code>[^']*)'"),
     _l("“%(code)s” is not a tile: write a colour letter R, Y (or O), B or K and a number 1-13, or J for a joker "
        "(e.g. R7, K13, J).")),
    (re.compile(r"^invalid tile 'F' in .*: F is Okey's false okey"),
     _l("“F” is Okey's false okey: a Rummikub set has jokers instead, written J (R1).")),
    (re.compile(r"^invalid tile '(?P<code>[^']*)'"),
     _l("“%(code)s” is not a tile: write a colour letter R, Y, B or K and a number 1-13, or F for a false okey "
        "(e.g. R7, K13, F).")),
    (re.compile(r"^impossible hand: (?P<count>\d+) × (?P<tile>\w+), a set has only (?P<limit>\d+)"),
     _l("Impossible: %(count)s × %(tile)s entered, but the set has only %(limit)s of that tile (counting every "
        "tile entered and the indicator).")),
    (re.compile(r"^player (?P<n>\d+)'s rack is empty, but player (?P<w>\d+) is the winner"),
     _l("Player %(n)s's rack cannot be empty: only the winner, player %(w)s, emptied the rack (R6). Type the tiles "
        "player %(n)s kept.")),
    (re.compile(r"^player (?P<n>\d+) opened but keeps nothing on the rack, and only the finisher empties it"),
     _l("Player %(n)s opened, so their rack cannot be empty: only the finisher empties the rack (H6). Type the tiles "
        "player %(n)s kept or their sum, or tap them as the finisher.")),
    (re.compile(r"^player (?P<n>\d+)'s rack is empty, but only the player who completed the rack has none"),
     _l("Player %(n)s's rack cannot be empty: only the player who completed the rack has none (O7). Type the tiles "
        "player %(n)s kept or their sum, or tap them as the one who completed it.")),
    (re.compile(r"^player (?P<n>\d+)'s rack is empty, but nobody won"),
     _l("Player %(n)s's rack cannot be empty when the pool ran out: whoever empties the rack wins (R6). Tap them as "
        "the winner, or type the tiles they kept.")),
    (re.compile(r"^player (?P<n>\d+) went out but is marked as never opened"),
     _l("Player %(n)s went out but is marked as never opened: going out without having opened before is a rami sec "
        "(M7). Tick rami sec, or untick “never opened”.")),
    (re.compile(r"^player (?P<n>\d+) keeps (?P<count>\d+) cards \(.*\), but a player holds at most (?P<limit>\d+)"),
     _l("Player %(n)s cannot keep %(count)s cards: a player holds at most %(limit)s (13 dealt and one drawn). Type "
        "only the cards left in their hand.")),
    (re.compile(r"^player (?P<n>\d+) keeps no cards, but the hand ends the moment a player has none"),
     _l("Player %(n)s cannot be left with no cards: the hand ends when a player has none, and that player went out "
        "(M6). Type the cards they kept, or tap them as the one who went out.")),
    (re.compile(r"^hand \d+: fed_by \d+ \(player \d+\), but play goes .*? this hand \((?P<order>[^)]*)\), so only "
                r"seat \d+ \(player (?P<m>\d+)\) discarded just before player (?P<k>\d+)"),
     _l("Only player %(m)s discarded just before player %(k)s this hand (play goes %(order)s), so only they can have "
        "fed the knocker (D6): choose player %(m)s, or nobody.")),
    (re.compile(r"^impossible hand: (?P<count>\d+) tiles given, a whole set has only (?P<limit>\d+)"),
     _l("Impossible: %(count)s tiles entered, but a whole set has only %(limit)s.")),
    (re.compile(r"^impossible hand: (?P<count>\d+) okeys on the racks and the finishing discard"),
     _l("%(count)s okeys on the racks and the final discard is impossible: a set has only 2 (O1, O3). Correct the "
        "racks, the typed okeys or the finish.")),
    (re.compile(r"^impossible rack: (?P<count>\d+) tiles for player (?P<n>\d+), but a rack holds at most "
                r"(?P<limit>\d+)"),
     _l("Player %(n)s cannot keep %(count)s tiles: a rack holds at most %(limit)s when a hand ends (H2).")),
    (re.compile(r"^impossible hand: 2 × (?P<tile>\w+) and the face-up indicator"),
     _l("Impossible: 2 × %(tile)s entered, but %(tile)s is the face-up indicator: the set has only two of it.")),
    (re.compile(r"^impossible (?:opening|melds) .*: no melds given"),
     _l("Lay out at least one meld, one per line.")),
    (re.compile(r"^impossible cards: (?P<count>\d+) × \*, but the game has only (?P<limit>\d+) jokers?\b"),
     _l("Impossible: %(count)s jokers entered, but the game has only %(limit)s (counting every card entered).")),
    (re.compile(r"^impossible cards: (?P<count>\d+) × (?P<card>\w+), but (?:1 deck holds|\d+ decks hold) only "
                r"(?P<limit>\d+)"),
     _l("Impossible: %(count)s × %(card)s entered, but the cards of this game hold only %(limit)s of that card "
        "(counting every card entered).")),
    (re.compile(r"^player (?P<n>\d+) is the winner but the rack holds (?P<tiles>[^:]+): the winner emptied the rack"),
     _l("Player %(n)s won, so their rack is empty: clear the tiles (%(tiles)s) of player %(n)s, or tap who really "
        "won.")),
    (re.compile(r"^the finisher's rack must be empty \(they completed it\), got '(?P<tiles>[^']*)' for seat (?P<seat>\d+)"),
     _l("Whoever finished has no tiles left: clear the tiles (%(tiles)s) of the player who finished, or tap who "
        "really finished.")),
    (re.compile(r"^player (?P<n>\d+) went out but still holds (?P<cards>.+); give '' for the finisher"),
     _l("Player %(n)s went out, so no cards are left in their hand: clear the cards (%(cards)s) or the value of "
        "player %(n)s, or tap who really went out.")),
    (re.compile(r"^cannot replace the indicator (?P<old>\w+) by (?P<new>\w+): a wrong declaration this hand was judged "
                r"with the okey (?P<okey>\w+)"),
     _l("The indicator cannot become %(new)s now: a wrong declaration this hand was judged with %(old)s as the "
        "indicator (okey %(okey)s). Undo the wrong declaration, replace the indicator, then record it again.")),
    (re.compile(r"^[Pp]layer (?P<n>\d+) left the match \(O6\) and cannot win any more"),
     _l("Player %(n)s has left the match (O6) and cannot win: pick the winner among the players still in it.")),
    (re.compile(r"^[Pp]layer (?P<n>\d+) left the match \(O6\) and cannot show the indicator's twin any more"),
     _l("Player %(n)s has left the match (O6) and cannot show the indicator's twin.")),
    (re.compile(r"^[Pp]layer (?P<n>\d+) already showed the indicator's twin this hand, and there is only one"),
     _l("Player %(n)s already showed the indicator's twin this hand, and there is only one (the other copy is the "
        "indicator). If the gösterme went to the wrong player, undo it and record it again.")),
    (re.compile(r"^player (?P<n>\d+) left the match and cannot deal"),
     _l("Player %(n)s has left the match (O6) and cannot deal: undo the change that put them out, or play on without "
        "the dice ritual.")),
    (re.compile(r"^this hand's deal is already recorded"),
     _l("This hand's deal is already recorded: undo it to change the dice.")),
    (re.compile(r"^the match is already finished"), _l("The match is already over: undo to change it.")),
    # before the general option pattern below: its "use %(allowed)s" would leave "a whole number" in English
    (re.compile(r"^invalid value (?P<value>.+?) for option '(?P<option>\w+)' of \w+; use (?P<allowed>a whole number)$"),
     _l("%(value)s cannot be used for “%(option)s”: type a whole number.")),
    (re.compile(r"^invalid value (?P<value>.+?) for option '(?P<option>\w+)' of \w+; use (?:one of )?(?P<allowed>.+)$"),
     _l("%(value)s cannot be used for “%(option)s”: use %(allowed)s.")),
    (re.compile(r"^partners need 4 players, not (?P<n>\d+)"),
     _l("Partners need 4 players, not %(n)s: turn the partners rule off or add players.")),
    (re.compile(r"^duplicate player name '(?P<name>[^']*)'"),
     _l("Two players would be called “%(name)s”: add an initial to tell them apart.")),
    (re.compile(r"^invalid player name .*: type a name"), _l("Type a name of 1 to 24 letters.")),
    (re.compile(r"^invalid player name .*: at most"), _l("Type a name of 1 to 24 letters.")),
    (re.compile(r"^no table '(?P<code>[^']*)'"), _l("There is no table %(code)s: check the code on the table's screen.")),
    (re.compile(r"^no colour in the photo"),
     _l("The photo has no colour (black and white): every colour is a guess. Confirm each tile, or retake the photo "
        "in colour.")),
    (re.compile(r"^faint colours \(dim light\?\)"),
     _l("The colours in this photo are faint (dim light, or the phone's low-light mode): they were strengthened "
        "before reading. Check the colours, or retake the photo in brighter light.")),
    (re.compile(r"^(?P<n>\d+) tile\(s\) set aside unread"),
     _l("Not read: %(n)s (grey boxes: face down, or mostly outside the photo). Add them by hand if they are in the hand.")),
    (re.compile(r"^(?P<n>\d+) tile\(s\) cut by the frame"),
     _l("Tiles cut by the frame: %(n)s. Step back or move the camera.")),
    (re.compile(r"^(?P<n>\d+) tile\(s\) small in the photo"),
     _l("Tiles small in the photo: %(n)s. Hold the camera closer to read them surely.")),
    (re.compile(r"^glare washes out part of the tiles"),
     _l("Glare (a lamp or the flash) washes out part of the tiles: tiles there may be misread, or not found at all. "
        "Tilt the phone a little or turn off the flash, then retake.")),
    (re.compile(r"^blurred photo"),
     _l("The photo is blurred (the phone moved, or did not focus): tiles may be misread, so more of them ask for a tap. "
        "Hold the phone still and retake it.")),
    (re.compile(r"^(?P<n>\d+) tile\(s\) read with low confidence"),
     _l("Tiles read with low confidence: %(n)s. Please confirm them.")),
    (re.compile(r"^(?P<n>\d+) tile\(s\) upside down"), _l("Tiles upside down: %(n)s.")),
    (re.compile(r"^invalid card '\*'.*: Thai Rummy plays one deck without jokers"),
     _l("There are no jokers in Thai Rummy: remove the * (D1).")),
    (re.compile(r"^impossible cards.*: (?P<card>\w+) twice, but Thai Rummy plays one deck"),
     _l("%(card)s is entered twice, but Thai Rummy plays one deck (D1): remove one of them.")),
    (re.compile(r"^Player \d+ knocked but still holds '(?P<cards>[^']*)'"),
     _l("The knocker lays down every card but the knock card (D4): move %(cards)s to the knocker's laid cards.")),
    (re.compile(r"^Player \d+ knocked but laid nothing"),
     _l("The knocker lays everything down (D4): enter the cards the knocker laid.")),
    (re.compile(r"^invalid knock_card None"), _l("Enter the knock card: the card the knocker put face down (D4).")),
    (re.compile(r"^invalid knock_card .*exactly one card"), _l("The knocker puts exactly one card face down (D4).")),
    (re.compile(r"^fed_by \d+: the (?:feeder discarded just before|knocker cannot feed)"),
     _l("The feeder is the player who discarded just before the knocker, beside them at the table (D6).")),
    (re.compile(r"^first_card_by \d+: .* must be among their laid cards"),
     _l("The first up-card must be among the laid cards of the player who melded it (D6).")),
    (re.compile(r"^invalid first_card "), _l("Enter one card as the first up-card, e.g. 7H.")),
    (re.compile(r"^not an image"), _l("That file is not a photo: choose a JPEG or PNG photo of the tiles.")),
    (re.compile(r"^image (?:file )?too large"),
     _l("That photo is too large to read: take it at the camera's usual size (12 MP, not its largest mode) and "
        "try again.")),
    # the Rummikub turn referee (R3-R5)
    (re.compile(r"^legal turn: lays (?P<tiles>.+) \(R4\)$"),
     _l("Every meld on the table is valid, no tile left it, and the player laid %(tiles)s (R4).")),
    (re.compile(r"^nothing laid: a player who cannot lay down draws a tile \(R4\)"),
     _l("Nothing was laid: a player who cannot lay down draws a tile instead (R4).")),
    (re.compile(r"^illegal turn: meld (?P<n>\d+) illegal (?P<kind>meld|set|run): (?P<tiles>\[[^\]]*\]) \((?P<why>.*)\) "
                r"\(R4\)$"),
     _l("Meld %(n)s of the table after the turn is an illegal %(kind)s: %(tiles)s (%(why)s). Every meld must be "
        "valid when the turn ends (R4).")),
    (re.compile(r"^illegal turn: (?P<tiles>.+?) left the table; a joker taken back is laid again in the same turn"),
     _l("%(tiles)s left the table: a joker taken from the table must be laid again in the same turn (R5).")),
    (re.compile(r"^illegal turn: (?P<tiles>.+?) left the table; table tiles stay on it"),
     _l("%(tiles)s left the table: tiles on the table may move between melds but never go back to a rack (R4).")),
    (re.compile(r"^illegal turn: the new melds of rack tiles are worth (?P<worth>\d+), the initial meld needs "
                r"(?P<needed>\d+)"),
     _l("The initial meld is too small: the new melds from the rack are worth %(worth)s, and it needs at least "
        "%(needed)s (R3).")),
    (re.compile(r"^illegal turn: the initial meld is laid from the rack alone; the table stays as it is"),
     _l("The table was changed before the initial meld: the initial meld is laid from the rack alone, and the melds "
        "already on the table stay as they are (R3).")),
    (re.compile(r"^illegal turn: (?P<tiles>.+?) came onto the table but not from the rack"),
     _l("%(tiles)s came onto the table but not from the player's rack: a player lays only their own tiles (R4).")),
    (re.compile(r"^(?P<tile>\w+) takes the joker of (?P<meld>\[[^\]]*\]): lay the joker again in this turn"),
     _l("%(tile)s takes the joker of %(meld)s: the joker must be laid again in this same turn (R5).")),
    (re.compile(r"^(?P<tile>\w+) takes the joker of (?P<meld>\[[^\]]*\]) after laying the initial meld from the rack"),
     _l("%(tile)s takes the joker of %(meld)s once the initial meld is laid from the rack: the joker must be laid "
        "again in this same turn (R5).")),
    (re.compile(r"^(?P<tile>\w+) cannot take the joker of (?P<meld>\[[^\]]*\]): it stands for (?P<face>\w+) \(R5\)$"),
     _l("%(tile)s cannot take the joker of %(meld)s: the joker stands for %(face)s, and only that tile takes it "
        "(R5).")),
    (re.compile(r"^(?P<tile>\w+) cannot take the joker of (?P<meld>\[[^\]]*\]): it stands for (?P<face>\w+) or "
                r"(?P<other>\w+) \(R5\)$"),
     _l("%(tile)s cannot take the joker of %(meld)s: the joker stands for %(face)s or %(other)s, and only such a tile "
        "takes it (R5).")),
    (re.compile(r"^(?P<tile>\w+) cannot take the joker of (?P<meld>\[[^\]]*\]): it stands for (?P<face>\w+) or "
                r"(?P<other>\w+) or (?P<third>\w+) \(R5\)$"),
     _l("%(tile)s cannot take the joker of %(meld)s: the joker stands for %(face)s, %(other)s or %(third)s, and only "
        "such a tile takes it (R5).")),
    (re.compile(r"^(?P<meld>\[[^\]]*\]) holds no joker \(R5\)"),
     _l("%(meld)s holds no joker: there is nothing to take (R5).")),
    (re.compile(r"^cannot take a joker from \[[^\]]*\]: illegal (?P<kind>meld|set|run): (?P<tiles>\[[^\]]*\]) "
                r"\((?P<why>.*)\)$"),
     _l("No joker can be taken from %(tiles)s: it is an illegal %(kind)s (%(why)s). Type the meld as it lies on the "
        "table.")),
    (re.compile(r"^a joker on the table is taken only after the initial meld"),
     _l("A joker on the table can be taken only after the initial meld: until then the table stays as it is (R3).")),
    (re.compile(r"^missing field 'tile': the rack tile laid in its place|^a joker is taken .*, not nothing \(R5\)"),
     _l("Enter the tile from the rack that takes the joker's place.")),
    (re.compile(r"^a joker is taken by laying the one exact tile it stands for: give one numbered tile, not "
                r"(?P<tiles>.+) \(R5\)"),
     _l("Enter one numbered tile, not %(tiles)s: a joker is taken only by the one exact tile it stands for (R5).")),
    (re.compile(r"^missing field 'meld': the laid meld holding the joker"),
     _l("Enter the meld on the table that holds the joker.")),
    (re.compile(r"^missing field 'after': the table as it lies after the turn"),
     _l("Enter the table after the turn: its melds with “|” between them.")),
    (re.compile(r"^impossible [^:]*: (?P<count>\d+) × (?P<tile>\w+), a Rummikub set has only (?P<limit>\d+)"),
     _l("Impossible: %(count)s × %(tile)s entered, but a Rummikub set has only %(limit)s of that tile (R1).")),
    (re.compile(r"^impossible meld: (?P<n>\d+) tiles given, a meld has at most (?P<limit>\d+) \(a run 1-13, R2\)"),
     _l("%(n)s tiles cannot be one meld: a meld has at most %(limit)s (a run 1-13, R2). Put “|” between the melds.")),
    # the Okey 101 opening checker (O4): after the Rummikub (R2) pattern just above
    (re.compile(r"^impossible meld: (?P<n>\d+) tiles given, a meld has at most (?P<limit>\d+) \(a run 1-13, "
                r"(?P<rule>[A-Z]\d+)\)"),
     _l("%(n)s tiles given, a meld has at most %(limit)s (a run 1-13, %(rule)s): put each meld on its own line, or "
        "“|” between them.")),
    # the lay-down assistant (R1, R4)
    (re.compile(r"^impossible position: (?P<count>\d+) × (?P<tile>\w+) \(table (?P<table>\d+), rack (?P<rack>\d+)\); "
                r"a Rummikub set has only (?P<limit>\d+)"),
     _l("Impossible: %(count)s × %(tile)s entered (%(table)s on the table, %(rack)s on the rack), but a Rummikub set "
        "has only %(limit)s of that tile (R1).")),
    (re.compile(r"^the table (?P<tiles>.+?) cannot be split into valid melds, even with the rack's tiles"),
     _l("The table %(tiles)s cannot be split into valid melds, even with the rack's tiles, yet every meld on the "
        "table is valid at the end of each turn (R4): check for a missing or misread tile.")),
    (re.compile(r"^the table (?P<tiles>.+?) cannot be split into valid melds; every meld"),
     _l("The table %(tiles)s cannot be split into valid melds, yet every meld on the table is valid at the end of "
        "each turn (R4): check for a missing or misread tile.")),
    (re.compile(r"^the table is not valid melds: meld (?P<n>\d+) (?P<tiles>\[[^\]]*\]) is illegal \(illegal "
                r"(?P<kind>meld|set|run): \[[^\]]*\] \((?P<why>.*)\)\); every meld on the table"),
     _l("Meld %(n)s of the table, %(tiles)s, is an illegal %(kind)s (%(why)s), yet every meld on the table is valid "
        "at the end of each turn (R4): check the table.")),
    (re.compile(r"^the table is not valid melds: meld (?P<n>\d+) (?P<tiles>\[[^\]]*\]) is illegal \(a meld has at "
                r"least 3 tiles"),
     _l("Meld %(n)s of the table, %(tiles)s, has fewer than 3 tiles (R2), yet every meld on the table is valid at the "
        "end of each turn (R4): check the table.")),
    # the card games' card codes (notation), typed on the hand forms and the opening checker
    (re.compile(r"^invalid card '(?P<code>[^']*)': the suit is missing"),
     _l("invalid card '%(code)s': the suit is missing; write the suit after the rank, S (♠), H (♥), D (♦) or C (♣), "
        "e.g. KH, 10S.")),
    (re.compile(r"^invalid card '(?P<code>[^']*)': the rank is missing"),
     _l("invalid card '%(code)s': the rank is missing; write A, 2-10, J, Q or K before the suit, e.g. AS, 10H, QC.")),
    (re.compile(r"^invalid card '(?P<code>[^']*)': unknown suit '(?P<suit>[^']*)'"),
     _l("invalid card '%(code)s': unknown suit '%(suit)s'; write the suit as S (♠), H (♥), D (♦) or C (♣), e.g. AS, "
        "10H, QC.")),
    (re.compile(r"^invalid card '(?P<code>[^']*)': unknown rank '(?P<rank>1|01|14)'"),
     _l("invalid card '%(code)s': unknown rank '%(rank)s'; the ace is written A (e.g. AH).")),
    (re.compile(r"^invalid card '(?P<code>[^']*)': unknown rank '(?P<rank>[^']*)'"),
     _l("invalid card '%(code)s': unknown rank '%(rank)s'; write A, 2-10, J, Q or K (T for 10), then the suit, e.g. "
        "AS, 10H, QC.")),
    (re.compile(r"^too many cards: (?P<n>\d+); a hand to search holds at most (?P<limit>\d+) cards"),
     _l("Too many cards: %(n)s. The opening checker looks at a hand of at most %(limit)s cards: type only the cards "
        "in the hand.")),
    # Rami (M7)
    (re.compile(r"^rami_sec needs a finisher"),
     _l("Rami sec means a player went out in one turn: tap who went out, or untick rami sec when the stock ran out "
        "(M7).")),
    # the Okey racks (Okey 101, Okey points)
    (re.compile(r"^invalid rack (?:of seat \d+ )?'(?P<rack>[^']*)'(?: for seat \d+)?: J is the Rummikub joker"),
     _l("J is Rummikub's joker, and an Okey set has none (rack: %(rack)s). Type an okey as the tile it is (e.g. R5), "
        "and a false okey as F.")),
    (re.compile(r"^invalid rack for seat \d+: (?P<count>\d+) tiles, a rack holds at most (?P<limit>\d+)"),
     _l("A rack cannot keep %(count)s tiles: it holds at most %(limit)s. Type only the tiles left on it.")),
    # the deal assistant and gösterme, sent from a page that is no longer up to date
    (re.compile(r"^no deal to reroll"),
     _l("No dice deal is recorded for this hand, so there is no second die to roll again (O2.3): roll the dice "
        "first. Reload the page if the deal was undone on another phone.")),
    (re.compile(r"^[Pp]layer \d+ already showed the indicator this hand: it counts once"),
     _l("This player's gösterme is already recorded this hand: it counts once (O6).")),
    (re.compile(r"^event id '[^']*' was already used at table '[^']*' for another change"),
     _l("This form was already sent once, for another change: the page is an old copy (after the browser's Back "
        "button?). Reload the page, then try again.")),
    # a correction (amend) that does not end the hand as a correction must
    (re.compile(r"^the correction of hand \d+ is not a valid win: the 14 tiles do not split into melds or seven pairs"),
     _l("the corrected hand is not a valid win: the 14 tiles do not split into melds or seven pairs (O5). Correct "
        "the tiles, or record that the stock ran out.")),
    (re.compile(r"^the correction of hand \d+ makes it void"),
     _l("the corrected hand would be void (every player opened with pairs): undo the hand instead, or correct it "
        "with the players' scores.")),
)

PHOTO_WORDS: dict[str, LazyString] = {
    "cut by the frame": _l("cut by the frame"),
    "small in the photo": _l("small in the photo: check it"),
    "upside down": _l("upside down"),
    "unreadable": _l("unreadable"),
    "no ink: face down or blank": _l("face down or blank"),
    "no number seen: a false okey?": _l("no number seen: a false okey?"),
    "no colour in the photo": _l("no colour in the photo"),
    "found from its row": _l("found from its row: check it"),
    "washed out by glare": _l("washed out by glare"),
    "blurred": _l("blurred: check it"),
}
"""The recogniser's per-tile warnings."""


def engine_text(message: str) -> str:
    """An error message or reason from the rules engine or the store in the reader's language, when it is
    one the pages can meet; anything else as it came.

    >>> engine_text("something else")
    'something else'
    """
    if correcting := _CORRECTION.match(message):  # a correction refused: what was wrong with it, translated too
        return str(_l("The correction of hand %(n)s cannot be recorded: %(why)s")) % {
            "n": correcting["n"], "why": engine_text(correcting["why"])}
    if message in WHY_ILLEGAL:
        return str(WHY_ILLEGAL[message])
    if message in PHOTO_WORDS:
        return str(PHOTO_WORDS[message])
    for card_meld, explained in _CARD_MELDS:
        if found_meld := card_meld.match(message):
            return explained(found_meld)
    for pattern, template in _ENGINE_MESSAGES:
        found = pattern.match(message)
        if found:
            params = found.groupdict()
            if "kind" in params:
                params["kind"] = str(MELD_KINDS[params["kind"]])
                params["why"] = _why(params["why"])
            if "option" in params:
                params["option"] = str(OPTION_TEXT.get(params["option"], (params["option"],))[0])
                params["allowed"] = {"true or false": "✓ / ✗"}.get(params["allowed"], params["allowed"])
            return str(template) % params
    return message
