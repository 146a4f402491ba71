"""The formal deal (RULES.md O2, H2): stacks, dice, indicator and who takes which tiles.

Seats are 0-based and counter-clockwise: seat ``(i + 1) % n`` sits on seat ``i``'s right, and play and
the deal pass to the right.  The 21 stacks are numbered from the dealer's left through the dealer's right,
then on in front of the player on the dealer's right, and so on round the table; stacks are drawn in that
order.  The seed's worked example (dealer = player 1, rolls 5 then 2):

>>> plan = plan_deal(players=4, dealer=0, first_roll=5, second_roll=2)
>>> plan.chosen_stack, plan.indicator_from_bottom, plan.starter
(4, 2, 1)
>>> [(t.seat + 1, t.letter, t.count, t.part) for t in plan.takes[9:]]
[(3, 'j', 4, 'top'), (4, 'j', 1, 'bottom'), (4, 'k', 3, 'top'), (1, 'k', 2, 'bottom'), (1, 'l', 2, 'top')]

Okey (O2.4, O2.5): starting with the player on the dealer's right (the starter), every seat takes a whole
stack in turn until each has 10 tiles; the starter takes one more whole stack (15); then each other seat,
in seat order, takes 4 tiles from the stacks that follow.

Okey 101 (H2): the same walk with 21 tiles: starting with the starter (option ``starter``: the player on
the dealer's right, or the dealer), every seat takes a whole stack in turn until each has 20 tiles; then
the starter takes 2 tiles and every other seat, in seat order, 1 tile from the next stack(s) (22/21/21/21).

Partial takes say which end of the stack: ``top`` (the first tiles of what is left of it) or ``bottom``
(the last tiles, emptying it), as in the seed: "3 takes 4 tiles of j; 4 takes the last of j".

The rest is the stock (O3): the indicator itself is never drawn, so when only the indicator's stack is left
its 5 other tiles are drawn in turn; with option ``indicator_drawable_last`` the indicator is the last tile
drawn.

>>> plan.stock, plan.explain()[3]
(48, "The indicator itself is never drawn: when only the indicator's stack is left, its 5 other tiles are drawn in turn; after the deal 48 tiles are left to draw (O3).")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from string import ascii_lowercase
from typing import Any, Literal

from companion.rules.errors import InvalidDealError, InvalidOptionError
from companion.rules.explain import Explanation, details, ordinal, player, texts
from companion.rules.options import GameOptions, options_for
from companion.rules.registry import GameSpec, find_game

__all__ = [
    "STACKS",
    "STACK_SIZE",
    "Stack",
    "Take",
    "DealPlan",
    "plan_deal",
    "reroll_indicator",
    "roll_deal",
    "at_seats",
    "next_dealer",
    "default_stacks_in_front",
]

STACKS = 21
STACK_SIZE = 5
SET_TILES = STACKS * STACK_SIZE + 1
"""The whole set (O1): 106 tiles, 21 stacks of 5 and the dealer's leftover tile."""
_DEFAULT_STACKS_IN_FRONT = {2: (11, 10), 3: (7, 7, 7), 4: (6, 5, 5, 5)}

Part = Literal["whole", "top", "bottom"]


@dataclass(frozen=True)
class Stack:
    """One of the 21 stacks: ``index`` in draw order, the ``owner`` seat it lies in front of, its tile count
    (6 for the chosen stack) and the ``letter`` it gets when the deal takes from it (``None`` if it stays
    in the stock)."""

    index: int
    owner: int
    tiles: int
    letter: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "owner": self.owner, "tiles": self.tiles, "letter": self.letter}


@dataclass(frozen=True)
class Take:
    """One step of the distribution: ``seat`` takes ``count`` tiles (the ``part``) of stack ``letter``."""

    order: int
    seat: int
    stack: int
    letter: str
    count: int
    part: Part

    def __repr__(self) -> str:
        return f"{player(self.seat)}: {self.part} {self.count} of {self.letter}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "order": self.order,
            "seat": self.seat,
            "stack": self.stack,
            "letter": self.letter,
            "count": self.count,
            "part": self.part,
        }


@dataclass(frozen=True)
class DealPlan:
    """A whole deal.  A quick deal (O2.6) has no stacks, no takes and ``None`` for the rolls, the chosen
    stack and the indicator position.  ``indicator_drawn_last`` is option ``indicator_drawable_last`` (O3):
    the indicator is then the stock's last tile, otherwise it is never drawn.

    ``seats`` (set by :func:`at_seats`) are the table's seats that take part, in ritual order, when some
    seats of the table are out of play (O6 ``elimination``): ``players`` is then how many take part, and
    ``dealer``, ``starter``, every take's seat and stack owner are table seats; ``tiles_per_seat`` is indexed
    by table seat (0 for a seat out of play).  ``None``: every seat ``0..players-1`` takes part."""

    game: str
    players: int
    dealer: int
    starter: int
    rolls: tuple[int, int] | None
    stacks: tuple[Stack, ...]
    chosen_stack: int | None
    indicator_from_bottom: int | None
    takes: tuple[Take, ...]
    tiles_per_seat: tuple[int, ...]
    indicator_drawn_last: bool = False
    seats: tuple[int, ...] | None = None

    @property
    def seat_ids(self) -> tuple[int, ...]:
        """The table seats that take part in the deal, in ritual order (counter-clockwise)."""
        return self.seats if self.seats is not None else tuple(range(self.players))

    @property
    def fewest_tiles(self) -> int:
        """The tiles each player but the starter is dealt (the seats in play's fewest)."""
        return min(self.tiles_per_seat[seat] for seat in self.seat_ids)

    @property
    def table_seats(self) -> int:
        """How many seats the table has (those out of play included)."""
        return len(self.tiles_per_seat)

    @property
    def quick(self) -> bool:
        return self.rolls is None

    @property
    def stock(self) -> int:
        """The tiles left to draw after the deal (O3): the face-up indicator counts only when it is drawn last."""
        return SET_TILES - sum(self.tiles_per_seat) - (0 if self.indicator_drawn_last else 1)

    def steps(self) -> tuple[Explanation, ...]:
        """The deal as translatable steps (see :class:`Explanation`)."""
        if self.quick:
            return _quick_steps(self)
        return _formal_steps(self)

    def explain(self) -> list[str]:
        """The deal as English steps a table can follow."""
        return texts(self.steps())

    def to_dict(self) -> dict[str, Any]:
        steps = self.steps()
        return {
            "game": self.game,
            "players": self.players,
            "seats": list(self.seat_ids),
            "dealer": self.dealer,
            "starter": self.starter,
            "rolls": list(self.rolls) if self.rolls else None,
            "stacks": [s.to_dict() for s in self.stacks],
            "chosen_stack": self.chosen_stack,
            "indicator_from_bottom": self.indicator_from_bottom,
            "takes": [t.to_dict() for t in self.takes],
            "tiles_per_seat": list(self.tiles_per_seat),
            "stock": self.stock,
            "indicator_drawn_last": self.indicator_drawn_last,
            "explain": texts(steps),
            "explain_detail": details(steps),
        }


def next_dealer(dealer: int, players: int) -> int:
    """The next hand's dealer: the deal passes to the right (O2.1).

    >>> next_dealer(3, 4)
    0
    """
    _check_seats(players, dealer)
    return (dealer + 1) % players


def default_stacks_in_front(players: int, dealer: int) -> tuple[int, ...]:
    """Stacks in front of each seat (indexed by seat) when nobody says otherwise: the dealer has the most.

    >>> default_stacks_in_front(4, 1)
    (5, 6, 5, 5)
    """
    _check_seats(players, dealer)
    counts = _DEFAULT_STACKS_IN_FRONT[players]
    return tuple(counts[(seat - dealer) % players] for seat in range(players))


def plan_deal(
    *,
    players: int,
    dealer: int,
    first_roll: int | None = None,
    second_roll: int | None = None,
    game: str = "okey",
    options: GameOptions | None = None,
    stacks_in_front: Sequence[int] | None = None,
) -> DealPlan:
    """Plan the deal for the given dice: the chosen stack, the indicator and every take.

    ``stacks_in_front[s]`` is the number of stacks lying in front of seat ``s`` (21 in all); by default the
    dealer has the extra ones (:func:`default_stacks_in_front`).  With Okey's ``quick_deal`` option the
    dice are not used and the plan has no stacks.
    """
    spec = find_game(game)
    canonical = spec.id
    chosen_options = _options(spec, options)
    per_seat = _deal_tiles(spec)
    _check_seats(players, dealer)
    starter = _starter(chosen_options, players, dealer)
    tiles_per_seat = tuple(per_seat + 1 if seat == starter else per_seat for seat in range(players))
    drawn_last = bool(getattr(chosen_options, "indicator_drawable_last", False))
    if getattr(chosen_options, "quick_deal", False):
        return DealPlan(canonical, players, dealer, starter, None, (), None, None, (), tiles_per_seat, drawn_last)
    if first_roll is None or second_roll is None:
        raise InvalidDealError("the formal deal needs both dice rolls (first_roll and second_roll, 1-6)")
    _check_roll("first roll", first_roll)
    _check_roll("second roll", second_roll)
    in_front = _stacks_in_front(players, dealer, stacks_in_front)
    seats_from_dealer = [(dealer + offset) % players for offset in range(players)]
    owners = [seat for seat in seats_from_dealer for _ in range(in_front[seat])]
    chosen = (first_roll - 1) % STACKS
    demands = _demands(per_seat, players, starter)
    takes, letters = _distribute(demands, chosen)
    stacks = tuple(
        Stack(index, owners[index], STACK_SIZE + (index == chosen), letters.get(index)) for index in range(STACKS)
    )
    return DealPlan(
        canonical, players, dealer, starter, (first_roll, second_roll), stacks, chosen, second_roll, takes,
        tiles_per_seat, drawn_last,
    )


def reroll_indicator(plan: DealPlan, second_roll: int) -> DealPlan:
    """The plan after the second roll is repeated because a false okey came up (O2.3)."""
    if plan.rolls is None:
        raise InvalidDealError("a quick deal has no chosen stack: simply turn up another tile as the indicator")
    _check_roll("second roll", second_roll)
    return replace(plan, rolls=(plan.rolls[0], second_roll), indicator_from_bottom=second_roll)


def roll_deal(
    *, players: int, dealer: int, rng: random.Random, game: str = "okey", options: GameOptions | None = None
) -> DealPlan:
    """Roll both dice with ``rng`` and plan the deal."""
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    return plan_deal(
        players=players, dealer=dealer, first_roll=first, second_roll=second, game=game, options=options
    )


def at_seats(plan: DealPlan, seats: Sequence[int], table_seats: int) -> DealPlan:
    """``plan``, made for ``len(seats)`` players, with its players put at the table's ``seats`` (in ritual
    order: ritual seat ``i`` is table seat ``seats[i]``), the others out of play (O6 ``elimination``).

    >>> plan = at_seats(plan_deal(players=2, dealer=1, first_roll=5, second_roll=2), (0, 1), 4)
    >>> plan.players, plan.dealer, plan.starter, sorted({t.seat for t in plan.takes}), plan.tiles_per_seat
    (2, 1, 0, [0, 1], (15, 14, 0, 0))
    """
    seats = tuple(seats)
    if len(seats) != plan.players or len(set(seats)) != len(seats) or not all(0 <= s < table_seats for s in seats):
        raise InvalidDealError(f"invalid seats {list(seats)!r} for a deal of {plan.players} players at "
                               f"{table_seats} seats")
    if seats == tuple(range(table_seats)):
        return plan
    tiles = [0] * table_seats
    for ritual, count in enumerate(plan.tiles_per_seat):
        tiles[seats[ritual]] = count
    return replace(
        plan,
        dealer=seats[plan.dealer],
        starter=seats[plan.starter],
        stacks=tuple(replace(stack, owner=seats[stack.owner]) for stack in plan.stacks),
        takes=tuple(replace(take, seat=seats[take.seat]) for take in plan.takes),
        tiles_per_seat=tuple(tiles),
        seats=seats,
    )


def _options(spec: GameSpec, options: GameOptions | None) -> GameOptions:
    if options is None:
        return options_for(spec.id)
    if not isinstance(options, spec.options):
        raise InvalidOptionError(f"options {options!r} are not {spec.id} options; use options_for({spec.id!r})")
    return options


def _deal_tiles(spec: GameSpec) -> int:
    if spec.deal_tiles is None:
        raise InvalidDealError(f"{spec.title} has no dice deal (O2): its tables record hands only")
    return spec.deal_tiles


def _check_seats(players: int, dealer: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidDealError(f"invalid number of players {players!r}: okey is played by 2, 3 or 4")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidDealError(
            f"invalid dealer seat {dealer!r}: with {players} players the seats are 0-{players - 1}"
        )


def _check_roll(name: str, roll: int) -> None:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise InvalidDealError(f"invalid {name} {roll!r}: a die shows 1-6")


def _starter(options: GameOptions, players: int, dealer: int) -> int:
    """The player on the dealer's right starts, unless the game's ``starter`` option says the dealer (H2, O7)."""
    if getattr(options, "starter", "right_of_dealer") == "dealer":
        return dealer
    return (dealer + 1) % players


def _stacks_in_front(players: int, dealer: int, stacks_in_front: Sequence[int] | None) -> tuple[int, ...]:
    if stacks_in_front is None:
        return default_stacks_in_front(players, dealer)
    counts = tuple(stacks_in_front)
    if (
        len(counts) != players
        or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts)
        or sum(counts) != STACKS
    ):
        raise InvalidDealError(
            f"invalid stacks in front {list(counts)!r}: give one count per seat ({players}), "
            f"none negative, {STACKS} in all"
        )
    return counts


def _demands(per_seat: int, players: int, starter: int) -> list[tuple[int, int]]:
    """(seat, tiles) in the order the seats take them: whole stacks round the table, then the remainder
    (O2.4: 14 tiles = 2 stacks + 4, the starter 3 stacks; H2: 21 tiles = 4 stacks + 1, the starter + 2)."""
    whole_rounds, other_extra = divmod(per_seat, STACK_SIZE)
    starter_extra = other_extra + 1
    order = [(starter + offset) % players for offset in range(players)]
    demands = [(seat, STACK_SIZE) for _ in range(whole_rounds) for seat in order]
    demands.append((starter, starter_extra))
    demands += [(seat, other_extra) for seat in order[1:]]
    return demands


def _distribute(demands: list[tuple[int, int]], chosen: int) -> tuple[tuple[Take, ...], dict[int, str]]:
    """Walk the stacks after the chosen one, taking from the top of each, and record every take."""
    takes: list[Take] = []
    letters: dict[int, str] = {}
    position, used = 1, 0
    for seat, wanted in demands:
        while wanted:
            stack = (chosen + position) % STACKS
            letter = letters.setdefault(stack, ascii_lowercase[len(letters)])
            count = min(wanted, STACK_SIZE - used)
            part: Part = "top"
            if count == STACK_SIZE:
                part = "whole"
            elif used and used + count == STACK_SIZE:
                part = "bottom"
            takes.append(Take(len(takes), seat, stack, letter, count, part))
            wanted -= count
            used += count
            if used == STACK_SIZE:
                position, used = position + 1, 0
    return tuple(takes), letters


def _quick_steps(plan: DealPlan) -> tuple[Explanation, ...]:
    per_seat = plan.fewest_tiles
    starter_tiles = plan.tiles_per_seat[plan.starter]
    return (
        Explanation(
            "deal.quick",
            {"starter": plan.starter, "tiles": per_seat, "starter_tiles": starter_tiles},
            f"Quick deal: everybody takes {per_seat} tiles from the shuffled tiles, {player(plan.starter)} "
            f"takes {starter_tiles} and starts; then one tile is turned face up as the indicator "
            "(a false okey is put back and another turned up).",
        ),
        _indicator_step(plan),
    )


def _indicator_step(plan: DealPlan) -> Explanation:
    """O3: whether the indicator is ever drawn, and how many tiles the stock holds after the deal."""
    params = {"stock": plan.stock, "stack_tiles": STACK_SIZE}
    left = f"after the deal {plan.stock} tiles are left to draw (O3)."
    if plan.indicator_drawn_last:
        then = "" if plan.quick else (
            f"when only the indicator's stack is left, its {STACK_SIZE} other tiles are drawn in turn, "
            "then the indicator; ")
        return Explanation("deal.quick_indicator_drawn_last" if plan.quick else "deal.indicator_drawn_last", params,
                           f"The indicator is the last tile drawn (option indicator_drawable_last): {then}{left}")
    then = "" if plan.quick else (
        f"when only the indicator's stack is left, its {STACK_SIZE} other tiles are drawn in turn; ")
    return Explanation("deal.quick_indicator_never_drawn" if plan.quick else "deal.indicator_never_drawn", params,
                       f"The indicator itself is never drawn: {then}{left}")


def _formal_steps(plan: DealPlan) -> tuple[Explanation, ...]:
    assert plan.rolls is not None and plan.chosen_stack is not None  # formal plans always have them
    first, second = plan.rolls
    chosen = plan.stacks[plan.chosen_stack]
    in_front = [sum(1 for s in plan.stacks if s.owner == seat) for seat in range(plan.table_seats)]
    layout = ", ".join(f"{player(seat)}: {in_front[seat]}" for seat in plan.seat_ids)
    counted_on = (
        ""
        if chosen.owner == plan.dealer
        else f" (counting continues into the stacks in front of {player(chosen.owner)})"
    )
    stacks_params: dict[str, Any] = {"dealer": plan.dealer, "stacks_in_front": in_front}
    if plan.seats is not None:
        stacks_params["seats"] = list(plan.seats)
    steps = [
        Explanation(
            "deal.stacks",
            stacks_params,
            f"{player(plan.dealer).capitalize()} deals. Shuffle face down and build {STACKS} stacks of "
            f"{STACK_SIZE}, in front of {layout}; the dealer holds the leftover tile.",
        ),
        Explanation(
            "deal.first_roll",
            {"roll": first, "stack": plan.chosen_stack, "owner": chosen.owner},
            f"The dealer rolled {first}: the leftover tile goes on the {ordinal(plan.chosen_stack + 1)} stack "
            f"counted from the dealer's left{counted_on}; it now has 6 tiles.",
        ),
        Explanation(
            "deal.second_roll",
            {"roll": second},
            f"The dealer rolled {second}: the {ordinal(second)} tile from the bottom of that stack is turned "
            "face up on top of it: the indicator. If it is a false okey, put it back and roll again.",
        ),
        _indicator_step(plan),
    ]
    steps += [_take_step(take) for take in plan.takes]
    starter_tiles = plan.tiles_per_seat[plan.starter]
    others = plan.fewest_tiles
    steps.append(
        Explanation(
            "deal.start",
            {"starter": plan.starter, "tiles": starter_tiles, "others": others},
            f"{player(plan.starter).capitalize()} has {starter_tiles} tiles and starts by discarding; "
            f"the others have {others}. The rest is the stock, drawn in the same order; "
            "the indicator's stack comes last.",
        )
    )
    return tuple(steps)


def _take_step(take: Take) -> Explanation:
    params = {"seat": take.seat, "letter": take.letter, "count": take.count, "part": take.part}
    who = player(take.seat).capitalize()
    if take.part == "whole":
        text = f"{who} takes stack {take.letter}."
    elif take.part == "top":
        text = f"{who} takes the top {_tiles(take.count)} of stack {take.letter}."
    else:
        text = f"{who} takes the last {_tiles(take.count)} of stack {take.letter}."
    return Explanation(f"deal.take_{take.part}", params, text)


def _tiles(count: int) -> str:
    return "tile" if count == 1 else f"{count} tiles"
