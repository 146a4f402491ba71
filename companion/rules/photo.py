"""Rules as checks on the tiles read from a photo: never a silent correction, only tiles to tap.

A photo's reading can break what a set allows; each such finding names the tiles it concerns, and the
page marks them for the user to confirm or fix:

- more than two copies of a tile (or more than two false okeys): a set has only two;
- both copies of the indicator in the hand: one of them is face up on the table;
- a tile count the form does not expect (14 for an Okey win, 15 with the discard, 21/22 for a 101 rack);
- "one tile away": the 14 tiles do not win, but changing one unsure tile to another would make them
  win; the page offers that change as a tap, it never applies it by itself.

>>> check = check_photo("R7 R7 R7 K1".split(), [False] * 4, expect=(14,))
>>> [(n.kind, n.tile, n.count) for n in check.notes]
[('copies', 'R7', 3), ('count', None, 4)]
>>> check.flagged
(0, 1, 2)
>>> hand = "R7 R6 R9 K1 K2 K3 B5 Y5 K5 B9 B10 B11 B12 B13".split()     # the R6 is unsure: R8 would win
>>> check_photo(hand, [False, True] + [False] * 12, indicator="Y3", win_hint=True).one_away
(OneAway(index=1, read='R6', win_with=('R8',)),)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules.errors import RulesError
from companion.rules.tiles import okey_for
from companion.rules.win import check_win

__all__ = ["PhotoNote", "OneAway", "PhotoCheck", "check_photo", "ALL_CODES"]

ALL_CODES = tuple(f"{c}{n}" for c in "RYBK" for n in range(1, 14)) + ("F",)
MAX_HINTS = 3
"""At most this many unsure tiles get a "one tile away" hint."""
MAX_CHOICES = 4
"""At most this many tiles are offered for one unsure tile (more would be guessing)."""


@dataclass(frozen=True)
class PhotoNote:
    """One finding: ``kind`` is ``copies`` (``tile`` seen ``count`` times), ``indicator`` (both copies of the
    indicator ``tile``) or ``count`` (``count`` tiles read where ``expected`` were expected)."""

    kind: str
    tile: str | None
    count: int
    expected: tuple[int, ...] = ()


@dataclass(frozen=True)
class OneAway:
    """Reading tile ``index`` (read as ``read``) as any of ``win_with`` instead would make the hand a win.

    The okey itself (a wild tile that would always do) is offered only when no plain tile would."""

    index: int
    read: str
    win_with: tuple[str, ...]


@dataclass(frozen=True)
class PhotoCheck:
    notes: tuple[PhotoNote, ...]
    flagged: tuple[int, ...]
    """Indices of the tiles the notes concern: the page asks for a tap on each."""
    one_away: tuple[OneAway, ...]


def _wins(codes: Sequence[str], indicator: str) -> bool:
    try:
        return check_win(" ".join(codes), indicator=indicator).winning
    except (RulesError, ValueError):
        return False


def _okey(indicator: str) -> str | None:
    try:
        return okey_for(indicator).code
    except (RulesError, ValueError):
        return None


def check_photo(codes: Sequence[str], unsure: Sequence[bool], *, expect: Sequence[int] = (),
                indicator: str | None = None, win_hint: bool = False,
                wins: Callable[[Sequence[str], str], bool] | None = None) -> PhotoCheck:
    """The rule checks on ``codes`` (tiles in our notation, in photo order); ``unsure`` marks the tiles
    read with low confidence, the only ones a "one tile away" hint may change.  ``wins(codes, indicator)``: whether
    14 tiles win at this table, with its house rules (default: the rule book's, :func:`check_win` with its
    default options)."""
    judge = wins or _wins
    notes: list[PhotoNote] = []
    flagged: set[int] = set()
    counts = Counter(codes)
    for code, count in sorted(counts.items()):
        if count > 2:
            notes.append(PhotoNote("copies", code, count))
            flagged.update(i for i, c in enumerate(codes) if c == code)
    if indicator and counts.get(indicator, 0) == 2:
        notes.append(PhotoNote("indicator", indicator, 2))
        flagged.update(i for i, c in enumerate(codes) if c == indicator)
    if expect and len(codes) not in expect:
        notes.append(PhotoNote("count", None, len(codes), tuple(expect)))
    hints: list[OneAway] = []
    okey = _okey(indicator) if indicator else None
    if win_hint and okey and len(codes) == 14 and not notes and not judge(codes, str(indicator)):
        for index in (i for i, u in enumerate(unsure) if u):
            winners = [code for code in ALL_CODES if code != codes[index] and counts.get(code, 0) < 2
                    and judge([*codes[:index], code, *codes[index + 1 :]], str(indicator))]
            plain = [code for code in winners if code != okey]
            choices = plain or winners
            if choices and len(plain) <= MAX_CHOICES:
                hints.append(OneAway(index, codes[index], tuple(choices)))
    return PhotoCheck(tuple(notes), tuple(sorted(flagged)), tuple(hints[:MAX_HINTS]))
