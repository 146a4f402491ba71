"""The end of a hand: an Okey win (O5, O6), an Okey 101 hand (H6, H7), the opening checker (H4) and
tile photos.  Every verdict comes from the rules engine; the page only collects the tiles.

Forms preview with htmx (``…/check`` answers the verdict fragment) and record with a plain POST, so a
phone without JavaScript can still score.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from flask import current_app, flash, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.rules.errors import RulesError
from companion.rules.melds import OpeningCheck as LaidOpening
from companion.rules.melds import check_laid_opening, needed_to_open, opening_to_beat
from companion.rules.options import Okey101Options, OkeyOptions
from companion.rules.photo import PhotoCheck, PhotoNote, check_photo
from companion.rules.scoring_101 import (
    MAX_RACK_SUM,
    OKEY_IN_HAND_POINTS,
    admit_okey101_hand,
    rack_points,
    score_okey101_hand,
)
from companion.rules.scoring_okey import pending_gosterme, score_okey_hand
from companion.rules.tiles import format_tiles, okey_for, parse_tiles
from companion.rules.win import check_win
from companion.tables import HandRow, TableState
from companion.web.api import get_store
from companion.web.security import host_is_local, peer_is_loopback
from companion.web.views_base import form_int, form_text, html_blueprint, render
from companion.web.views_table import record, recorded_before, require_editor
from companion.web.views_text import COLOUR_NAMES, engine_text, game_label

bp = html_blueprint("hands", __name__, url_prefix="/t")

OPENED_CHOICES = ("none", "melds", "pairs")


def _state(table_id: str) -> TableState:
    return get_store().get(table_id)


def amending(state: TableState) -> HandRow | None:
    """The recorded hand a form corrects (``?amend=N``, or the form's ``amend`` field), else ``None``."""
    raw = str(request.values.get("amend", "")).strip()
    if not raw:
        return None
    number = int(raw) if raw.isdecimal() else 0
    if not 1 <= number <= len(state.hands):
        raise ValueError(_("There is no recorded hand %(n)s to correct.", n=raw))
    return state.hands[number - 1]


def indicator_of(state: TableState) -> str:
    """The indicator of the hand in play, or the one typed on the form (none turned up in the app, or a
    recorded hand being corrected)."""
    if state.deal.indicator is None or amending(state) is not None:
        indicator = form_text("indicator")
        tiles = parse_tiles(indicator) if indicator else ()
        if len(tiles) != 1:
            raise ValueError(_("Enter the indicator first (the deal assistant), or type it here, e.g. R4."))
        return tiles[0].code
    return state.deal.indicator.code


def after_recording(before: TableState, state: TableState, corrected: HandRow | None = None) -> Response:
    """Back to the table, saying what happened and who deals next (journey 3)."""
    if corrected is not None:
        flash(_("Hand %(n)d corrected: every total after it is recomputed. The history keeps both versions.",
                n=corrected.number))
    elif len(state.hands) == len(before.hands) and state.deal.wrong_declarations:
        wrong = state.deal.wrong_declarations[-1]
        seat = wrong.winner if wrong.winner is not None else 0
        flash(_("Wrong declaration: %(name)s loses %(points)d (already in the totals). The hand goes on: "
                "still hand %(n)d, %(dealer)s deals.", name=state.players[seat], points=-min(wrong.deltas),
                n=len(state.hands) + 1, dealer=state.players[state.dealer]))
    elif state.finished:
        flash(_("Hand recorded. The match is over."))
    else:
        flash(_("Hand recorded. %(name)s deals next.", name=state.players[state.dealer]))
    return redirect(url_for("table.show", table_id=state.id), 303)


def sent_again(state: TableState, corrected: HandRow | None = None) -> Response | None:
    """The answer to an end-of-hand form that was recorded already, sent again and now refused because it no
    longer reads against the table as it is (the next hand's indicator is not turned up yet, so the form asks
    for one): the table, as after the first sending.  A 422 form would invite the players to enter the hand
    again, with a new event id, and record it twice.  ``None`` when the form was not recorded before."""
    if not recorded_before(state.id):
        return None
    return after_recording(state, state, corrected)


# -- Okey: declare a win -------------------------------------------------------------------------------


def _okey_hand(state: TableState) -> dict[str, Any]:
    """The hand record of the win form (see ``companion.rules.scoring_okey``)."""
    if not form_text("winner"):
        raise ValueError(_("Tap who won."))
    winner = form_int("winner", _("The winner"), low=0, high=len(state.players) - 1)
    tiles = parse_tiles(form_text("tiles"))
    if len(tiles) != 14:
        raise ValueError(_("Enter the 14 tiles the winner shows (you entered %(n)d).", n=len(tiles)))
    discard = parse_tiles(form_text("discard"))
    if len(discard) != 1:
        raise ValueError(_("Enter the one tile the winner discarded last (you entered %(n)d).", n=len(discard)))
    return {"winner": winner, "tiles": format_tiles(tiles), "discard": discard[0].code,
            "indicator": indicator_of(state)}


def _okey_verdict(state: TableState) -> dict[str, Any]:
    hand = _okey_hand(state)
    options = cast(OkeyOptions, state.options)  # only_for checked the game
    corrected = amending(state)
    shown = list(corrected.record.get("gosterme", [])) if corrected else list(state.deal.gosterme)
    score = score_okey_hand({**hand, "players": len(state.players), "gosterme": shown}, options)
    waiting: tuple[Any, ...] = ()
    if not score.valid:  # the hand goes on (O5): a gösterme still counts only when the hand is recorded
        score = score_okey_hand({**hand, "players": len(state.players), "gosterme": []}, options)
        waiting = pending_gosterme(shown, options)
    win = check_win(hand["tiles"], indicator=hand["indicator"], options=options)
    return {"hand": hand, "score": score, "win": win, "waiting": waiting}


def refusal(state: TableState, hand: Mapping[str, Any]) -> str | None:
    """Why recording ``hand`` now would be refused (the game's ``admit_hand``), in the reader's language, or None.

    A live preview says it beside the scores rather than in their place: while a hand is being typed, a blank rack
    or hand is often only not typed yet.  A correction is checked without the standings (the record checks it
    against those before the hand it corrects)."""
    if state.spec.admit_hand is None:
        return None
    try:
        state.spec.admit_hand(dict(hand), state.options, None if amending(state) else state.standings)
    except ValueError as error:
        return engine_text(str(error))
    return None


def verdict_fragment(template: str, verdict_of: Callable[[TableState], dict[str, Any]], state: TableState) -> Response:
    """The ``verdict`` block of ``template``: what the form would record, or why it cannot (422); nothing recorded."""
    try:
        verdict = verdict_of(state)
    except ValueError as error:
        return render(template, block="verdict", status=422, state=state, table_id=state.id, form={},
                      error=engine_text(str(error)), error_step=getattr(error, "step", None))
    return render(template, block="verdict", state=state, table_id=state.id, form={}, **verdict)


def only_for(state: TableState, game: str) -> None:
    """Refuse a game's own form on a table of another game (its scorekeeper card links the right one)."""
    if state.game != game:
        raise ValueError(_("This table plays %(game)s: use the end-of-hand button of its table page.",
                           game=game_label(state.game)))


@bp.get("/<table_id>/win")
def okey_win(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    corrected = amending(state)
    form = _okey_form(corrected.record) if corrected else {}
    return render("okey_win.html", state=state, table_id=state.id, form=form, amend=corrected)


def _okey_form(record: Mapping[str, Any]) -> dict[str, str]:
    """The win form filled in from a recorded hand (to correct it)."""
    winner = record.get("winner")
    return {"winner": "" if winner is None else str(winner), "tiles": str(record.get("tiles") or ""),
            "discard": str(record.get("discard") or ""), "indicator": str(record.get("indicator") or "")}


@bp.post("/<table_id>/win/check")
def okey_win_check(table_id: str) -> Response:
    """The verdict fragment: the arrangement found (or why not) and what it scores, nothing recorded."""
    state = _state(table_id)
    only_for(state, "okey")
    return verdict_fragment("okey_win.html", _okey_verdict, state)


@bp.post("/<table_id>/win")
def okey_win_record(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    only_for(state, "okey")
    corrected = amending(state)
    try:
        if "stock_exhausted" in request.form:
            hand: dict[str, Any] = {"winner": None}
            if state.deal.indicator is None or corrected is not None:
                hand["indicator"] = indicator_of(state)
        else:
            hand = _okey_hand(state)
        recorded = record(table_id, hand_event("okey_hand", hand, corrected))
    except ValueError as error:
        if (again := sent_again(state, corrected)) is not None:
            return again
        return render("okey_win.html", status=422, state=state, table_id=state.id, error=engine_text(str(error)),
                      form=request.form, amend=corrected)
    return after_recording(state, recorded, corrected)


def hand_event(kind: str, hand: dict[str, Any], corrected: HandRow | None) -> dict[str, Any]:
    """The event a hand form records: the hand, or the correction of a recorded one (``amend``)."""
    if corrected is None:
        return {"type": kind, "hand": hand}
    return {"type": "amend", "hand": corrected.number, "record": hand}


# -- Okey 101: the end of a hand -----------------------------------------------------------------------


class HandFormError(ValueError):
    """A refused field of the 101 end-of-hand form, with the step of the form that holds it (``finish``,
    ``seat2``), so that the page opens that step."""

    def __init__(self, message: str, step: str) -> None:
        super().__init__(message)
        self.step = step


def _okey101_hand(state: TableState) -> dict[str, Any]:
    """The hand record of the 101 form (see ``companion.rules.scoring_101``)."""
    finisher_text = form_text("finisher")
    try:
        if not finisher_text:
            raise ValueError(_("Tap who finished, or “nobody: stock exhausted”."))
        finisher = None if finisher_text == "none" else form_int("finisher", _("The finisher"), low=0,
                                                                 high=len(state.players) - 1)
        indicator = indicator_of(state)
    except ValueError as error:
        raise HandFormError(str(error), "finish") from None
    elden = "elden" in request.form
    finish = "okey_discard" if form_text("finish") == "okey_discard" else "normal"
    if finisher is None and (elden or finish == "okey_discard"):
        raise HandFormError(_("Nobody finished (stock exhausted), so there is no okey discard and no elden: choose "
                              "“normal finish” and untick elden, or tap who finished."), "finish")
    players = [_okey101_entry(seat, name, seat == finisher) for seat, name in enumerate(state.players)]
    opened = [state.players[seat] for seat, entry in enumerate(players) if seat != finisher and entry["opened"]]
    if elden and finisher is not None and opened:
        raise HandFormError(_("Elden means nobody else had opened, but %(names)s opened: untick elden, or mark "
                              "them as not opened.", names=", ".join(opened)), "finish")
    if elden and finisher is not None and players[finisher]["opened"] == "pairs":
        raise HandFormError(_("Elden cannot follow a pairs opening: the finisher lays 21 tiles in one turn, and pairs "
                              "take an even number (H4). Untick elden, or mark how they opened as melds."), "finish")
    return {
        "indicator": indicator,
        "finisher": finisher,
        "finish": finish,
        "elden": elden,
        "players": players,
    }


def _okey101_entry(seat: int, name: str, finished: bool) -> dict[str, Any]:
    """One player's part of the 101 form: how they opened and what their rack holds, tapped or typed.
    Whoever finished has laid every tile (H5): a rack, sum or okeys given for them is refused, not dropped."""
    step = f"seat{seat}"
    opened = form_text(f"opened{seat}", "none")
    if opened not in OPENED_CHOICES:
        raise HandFormError(_("Choose how %(name)s opened.", name=name), step)
    rack, typed_sum, okeys = form_text(f"rack{seat}"), form_text(f"sum{seat}"), form_text(f"okeys{seat}")
    if finished:
        if rack or typed_sum.strip("0") or okeys.strip("0"):
            raise HandFormError(_("%(name)s finished, so no tiles are left on their rack: clear the tiles, the sum "
                                  "and the okeys of %(name)s, or tap who really finished.", name=name), step)
        return {"opened": "melds" if opened == "none" else opened, "rack": ""}  # whoever finished has opened (H5)
    if rack and (typed_sum or okeys.strip("0")):
        raise HandFormError(_("%(name)s has tiles and a typed sum: keep one of them (clear the tiles or the sum).",
                              name=name), step)
    entry: dict[str, Any] = {"opened": None if opened == "none" else opened}
    try:
        if typed_sum or okeys.strip("0"):  # okeys alone: a rack of nothing but okeys
            entry["sum"] = form_int(f"sum{seat}", _("The sum of %(name)s", name=name), low=0, high=MAX_RACK_SUM,
                                    default=0)
            entry["okeys"] = form_int(f"okeys{seat}", _("The okeys of %(name)s", name=name), low=0, high=2,
                                      default=0)
        else:
            entry["rack"] = format_tiles(parse_tiles(rack))
    except ValueError as error:
        raise HandFormError(str(error), step) from None
    return entry


def _rack_sums(hand: dict[str, Any]) -> list[int]:
    """What each rack is worth (H6): its face sum with an okey counted 101, tapped or typed."""
    return [
        rack_points(entry["rack"], indicator=hand["indicator"]) if "rack" in entry
        else entry["sum"] + OKEY_IN_HAND_POINTS * entry["okeys"]
        for entry in hand["players"]
    ]


def _okey101_verdict(state: TableState) -> dict[str, Any]:
    hand = _okey101_hand(state)
    options = cast(Okey101Options, state.options)  # only_for checked the game
    corrected = amending(state)
    pending = ([{"player": p["seat"], "reason": p["reason"]} for p in corrected.result.get("penalty_entries", [])]
               if corrected else [{"player": p.player, "reason": p.reason} for p in state.deal.penalties])
    admit_okey101_hand(hand, options)  # the preview says what recording would refuse
    score = score_okey101_hand({**hand, "penalties": pending}, options)
    return {"hand": hand, "score": score, "sums": _rack_sums(hand)}


@bp.get("/<table_id>/hand")
def okey101_hand(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    corrected = amending(state)
    form = _okey101_form(corrected.record) if corrected else {}
    return render("okey101_hand.html", state=state, table_id=state.id, form=form, amend=corrected)


def _okey101_form(record: Mapping[str, Any]) -> dict[str, str]:
    """The end-of-hand form filled in from a recorded hand (to correct it)."""
    finisher = record.get("finisher")
    form = {"finisher": "none" if finisher is None else str(finisher), "finish": str(record.get("finish") or "normal"),
            "indicator": str(record.get("indicator") or "")}
    if record.get("elden"):
        form["elden"] = "1"
    for seat, entry in enumerate(record.get("players") or []):
        if not isinstance(entry, Mapping):
            continue
        form[f"opened{seat}"] = str(entry.get("opened") or "none")
        if "sum" in entry:
            form[f"sum{seat}"] = str(entry["sum"])
            form[f"okeys{seat}"] = str(entry.get("okeys") or "")
        else:
            form[f"rack{seat}"] = str(entry.get("rack") or "")
    return form


@bp.post("/<table_id>/hand/check")
def okey101_hand_check(table_id: str) -> Response:
    state = _state(table_id)
    only_for(state, "okey101")
    return verdict_fragment("okey101_hand.html", _okey101_verdict, state)


@bp.post("/<table_id>/hand")
def okey101_hand_record(table_id: str) -> Response:
    if (denied := require_editor(table_id)) is not None:
        return denied
    state = _state(table_id)
    only_for(state, "okey101")
    corrected = amending(state)
    if "void" in request.form and corrected is None:
        record(table_id, {"type": "void_hand"})
        flash(_("The hand is void: %(name)s deals it again.", name=state.players[state.dealer]))
        return redirect(url_for("table.show", table_id=state.id), 303)
    try:
        recorded = record(table_id, hand_event("okey101_hand", _okey101_hand(state), corrected))
    except ValueError as error:
        if (again := sent_again(state, corrected)) is not None:
            return again
        return render("okey101_hand.html", status=422, state=state, table_id=state.id, error=engine_text(str(error)),
                      error_step=getattr(error, "step", "check"), form=request.form, amend=corrected)
    return after_recording(state, recorded, corrected)


# -- the opening checker (H4) --------------------------------------------------------------------------


@dataclass(frozen=True)
class OpeningCheck:
    """The rules' verdict on an opening (:func:`check_laid_opening`) and the bars the page shows beside it."""

    verdict: LaidOpening
    minimum: int
    pairs_needed: int
    highest_so_far: int | None = None
    most_pairs_so_far: int | None = None

    @property
    def verdicts(self) -> tuple[Any, ...]:
        return self.verdict.verdicts

    @property
    def total(self) -> int:
        return self.verdict.total

    @property
    def pairs(self) -> int:
        return sum(1 for v in self.verdicts if v.valid and v.meld is not None and v.meld.kind == "pair")

    @property
    def all_valid(self) -> bool:
        return self.verdict.valid

    @property
    def opens(self) -> bool:
        return self.verdict.opens

    @property
    def okey_twin(self) -> str | None:
        return self.verdict.okey_twin.code if self.verdict.okey_twin is not None else None


def check_opening(melds_text: str, *, indicator: str, options: Okey101Options, highest_so_far: int | None = None,
                  most_pairs_so_far: int | None = None) -> OpeningCheck:
    """Judge each meld (one per line or separated by ``|``) and the opening as a whole (H4) with the rules'
    :func:`check_laid_opening`; with option ``opening_ratchet`` melds must beat ``highest_so_far`` and pairs
    ``most_pairs_so_far``."""
    lines = [line for chunk in melds_text.replace("|", "\n").splitlines() if (line := chunk.strip(" ,"))]
    verdict = check_laid_opening(" | ".join(lines), indicator=indicator, options=options,
                                 highest_so_far=highest_so_far, most_pairs_so_far=most_pairs_so_far)
    highest = opening_to_beat(options, highest_so_far)
    most_pairs = opening_to_beat(options, most_pairs_so_far, "most_pairs_so_far")
    return OpeningCheck(verdict, needed_to_open(options.opening_minimum, highest),
                        needed_to_open(options.opening_pairs, most_pairs), highest, most_pairs)


def _so_far(name: str, label: str, options: Okey101Options) -> int | None:
    """An opening laid earlier in the hand, typed on the page while option ``opening_ratchet`` is on (H4)."""
    if not options.opening_ratchet or not form_text(name):
        return None
    return form_int(name, label, low=0, high=10_000)


@bp.route("/<table_id>/opening", methods=["GET", "POST"])
def opening(table_id: str) -> Response:
    """Lay out the melds: each meld's value or why it is illegal, and the total against 101."""
    state = _state(table_id)
    # the opening rules of the table's game (H4), or the rule book's when its game has none
    options = state.options if hasattr(state.options, "opening_minimum") else Okey101Options()
    context: dict[str, Any] = {"state": state, "table_id": state.id, "melds": form_text("melds"),
                               "indicator": state.deal.indicator.code if state.deal.indicator else form_text("indicator")}
    status = 200
    if request.method == "POST":
        try:
            indicator = indicator_of(state)
            context["indicator"] = indicator
            highest = _so_far("highest_so_far", _("The highest opening so far"), options)
            most_pairs = _so_far("most_pairs_so_far", _("The most pairs opened with so far"), options)
            context.update(highest_so_far=highest, most_pairs_so_far=most_pairs)
            context["check"] = check_opening(form_text("melds"), indicator=indicator, options=options,
                                             highest_so_far=highest, most_pairs_so_far=most_pairs)
        except ValueError as error:
            context["error"] = engine_text(str(error))
            status = 422
    return render("opening.html", block="verdict", status=status, **context)


# -- photos -------------------------------------------------------------------------------------------


def recognizer() -> Any:
    """The tile recogniser, created once per app on first use; ``None`` while it cannot load (vision or
    its model files missing), so the page falls back to tapping tiles."""
    if "recognizer" not in current_app.extensions:
        try:
            from vision import Recognizer

            current_app.extensions["recognizer"] = Recognizer.default(current_app.config.get("SECOND_LOOK", True))
        except Exception as error:  # an ONNX load failure has no narrower base class
            current_app.logger.warning("photo recognition unavailable: %s", error)
            return None
    return current_app.extensions["recognizer"]


def _image_size(data: bytes, recognition: Any) -> tuple[int, int]:
    width, height = getattr(recognition, "width", None), getattr(recognition, "height", None)
    if width and height:
        return int(width), int(height)
    from vision.imageio import header_info

    header = header_info(data)
    if header.orientation in (5, 6, 7, 8):
        return header.height, header.width
    return header.width, header.height


def recolour_offers(codes: Sequence[str], unsure: Sequence[bool],
                    others: Sequence[str | None]) -> list[tuple[str, str, int]]:
    """(colour read, the colour it may be instead, how many) for every two or more dashed numbered tiles read in one
    colour whose colour the reader doubted for the same other (``others``: each tile's other colour, or None).  A warm
    lamp reads a photo's reds yellow, a dim one its blues black, all alike: one tap mends them all.

    >>> recolour_offers(["Y5", "Y7", "Y8", "K2", "K9", "F"], [True, True, True, True, False, True],
    ...                 ["R", "R", None, "B", "B", None])
    [('Y', 'R', 2)]
    """
    counts = Counter((code[0], other) for code, low, other in zip(codes, unsure, others)
                     if low and other and code[1:].isdigit() and other != code[0])
    return [(read, other, n) for (read, other), n in sorted(counts.items(), key=lambda item: -item[1]) if n >= 2]


VIEW_MARGIN = 0.5
"""Round the tiles a photo shows, the page shows this many tile heights of the photo more on each side."""
VIEW_WHOLE_FROM = 0.6
"""Where the tiles and that margin take this share of the photo's area or more, the page shows the whole photo."""


def photo_view(boxes: Sequence[Sequence[float]], width: int, height: int) -> tuple[int, int, int, int]:
    """The part of a ``width`` × ``height`` photo the page shows under the boxes found (x, y, width, height in the
    photo's pixels): the tiles' region with half a tile round it and room for the labels above, inside the photo.

    A rack photographed from the seat is often a strip across the middle of the photo: shown whole on a phone its
    tiles are a few pixels tall and their labels run into each other.  Shown as its region, the rack fills the
    page's width.  The whole photo where the region is most of it anyway, or where nothing was found.

    >>> photo_view([(400, 300, 440, 350), (440, 300, 480, 350)], 1000, 750)   # a small rack in the middle
    (375, 258, 130, 117)
    >>> photo_view([(0, 0, 40, 50), (960, 700, 1000, 750)], 1000, 750)        # tiles in the corners: all of it
    (0, 0, 1000, 750)
    >>> photo_view([], 1000, 750)
    (0, 0, 1000, 750)
    """
    whole = (0, 0, int(width), int(height))
    if not len(boxes) or width <= 0 or height <= 0:
        return whole
    sides = sorted(float(box[3]) - float(box[1]) for box in boxes)
    margin = VIEW_MARGIN * sides[len(sides) // 2]
    x1 = min(float(box[0]) for box in boxes) - margin
    x2 = max(float(box[2]) for box in boxes) + margin
    y2 = max(float(box[3]) for box in boxes) + margin
    y1 = min(float(box[1]) for box in boxes) - margin
    y1 -= 1.2 * _label_px(x2 - x1, y2 - y1)  # the labels stand above the top row's boxes
    x1, y1, x2, y2 = max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2)
    if (x2 - x1) * (y2 - y1) >= VIEW_WHOLE_FROM * width * height:
        return whole
    return int(x1), int(y1), int(math.ceil(x2 - int(x1))), int(math.ceil(y2 - int(y1)))


def _label_px(width: float, height: float) -> int:
    """The labels' size over the boxes, in the shown part's pixels: about a thirtieth of its longer side."""
    return max(14, round(max(width, height) / 30))


def _image_url(data: bytes, mimetype: str, recognition: Any = None) -> str:
    """The photo to draw the boxes on, as a data URL: the upload, or where it is large or turned by its EXIF tag the
    photo as it was read (``vision.imageio.preview``: upright, working size, from the pixels the recogniser read where
    it kept them), so a phone's 12 MP photo does not go back over the Wi-Fi whole.  The page stretches it over the
    boxes' coordinates, those of the whole photo."""
    from vision.imageio import preview

    try:
        smaller = preview(data, pixels=getattr(recognition, "photo", None))
    except ValueError:  # read already; a fake recogniser in tests may take bytes the decoder refuses
        smaller = None
    if smaller is not None:
        data, mimetype = smaller, "image/jpeg"
    return f"data:{mimetype};base64,{base64.b64encode(data).decode('ascii')}"


def _recognised(context: dict[str, Any], data: bytes, mimetype: str) -> Response:
    """The tiles recognised on ``data``, drawn over it for the picker in ``context`` (or why not)."""
    engine = recognizer()
    if engine is None:
        return render("photo.html", block="result", status=422,
                      error=_("Photo recognition is not available here: tap the tiles instead."), **context)
    table = form_text("table") == "1"
    try:
        last = _last_photo(form_text("after"))
    except ValueError as error:
        return render("photo.html", block="result", status=422, error=str(error), **context)
    try:
        # A picker of melds (an opening, a Rummikub table) is sent a photo of melds laid on the table.
        recognition = engine.recognize(data, table=table)
        width, height = _image_size(data, recognition)
    except (ValueError, RulesError) as error:
        return render("photo.html", block="result", status=422, error=engine_text(str(error)), **context)
    # A set has one kind of special tile, the picker's (``special``): an okey set's false okey F, or
    # Rummikub's joker J.  A tile read as the other kind is most likely this set's, to be confirmed.
    special = "J" if form_text("special") == "J" else "F"
    other = "F" if special == "J" else "J"
    codes = [special if t.tile == other else t.tile for t in recognition.tiles]
    unsure = [bool(t.low_confidence) or t.tile == other for t in recognition.tiles]
    # A photo added to the last one shows part of the rack: its own tile count says nothing.
    indicator = _photo_indicator(context.get("state"))
    checks = _photo_checks(context, codes, unsure, indicator, part=last is not None)
    for index in checks.flagged:
        unsure[index] = True
    from vision.melds import photo_melds
    from vision.pairs import CUT, Seen, photo_rows, same_tiles

    boxes = [t.box for t in recognition.tiles]
    cut = [_warned(t, CUT) for t in recognition.tiles]
    seen = [Seen(code, tuple(float(v) for v in t.box), (CUT,) if c else ())
            for code, t, c in zip(codes, recognition.tiles, cut)]
    same = same_tiles(last[1], last[0], seen, (width, height)) if last else [None] * len(codes)
    others = [getattr(t, "other_colour", None) for t in recognition.tiles]
    from vision.recognizer import NO_NUMBER_WARNING

    # A tile on which the number reader saw no number may be the set's special tile (a false okey's emblem).
    no_number = [_warned(t, NO_NUMBER_WARNING) and code != special for t, code in zip(recognition.tiles, codes)]
    view = photo_view([t.box for t in (*recognition.tiles, *(getattr(recognition, "set_aside", ()) or ()))], width, height)
    context.update(
        kept=_keep(data, (width, height), recognition.tiles, codes, unsure, table),
        codes=codes,
        special=special,
        others=others,
        no_number=no_number,
        recolour=recolour_offers(codes, unsure, others),
        colour_names=COLOUR_NAMES,
        unsure=unsure,
        warnings=_photo_warnings(recognition.warnings, unsure),
        places=photo_rows(boxes),
        # A photo of melds on the table is split where the hand's okey may stand in for any tile.
        melds=photo_melds(boxes, codes, None if indicator is None else okey_for(indicator).code),
        cut=cut,
        same=same,
        linked=sum(link is not None for link in same),
        after_sent=last is not None,
        check_notes=[_photo_note(note) for note in checks.notes],
        one_away=checks.one_away,
        retake=_retake_advice(recognition, checks),
        recognition=recognition,
        width=width,
        height=height,
        view=view,
        label_px=_label_px(view[2], view[3]),
        line_px=max(2, round(max(view[2], view[3]) / 250)),
        image_url=_image_url(data, mimetype, recognition),
    )
    return render("photo.html", block="result", **context)


def _kept_photos() -> Any:
    """The kept photos of this app's data dir when the host keeps them (``serve --keep-photos``), else ``None``."""
    if not current_app.config.get("KEEP_PHOTOS"):
        return None
    from companion.kept_photos import kept_photos

    return kept_photos(Path(current_app.config["DATA_DIR"]))


def _keep(data: bytes, size: tuple[int, int], tiles: Sequence[Any], codes: list[str], unsure: list[bool],
          table: bool) -> str | None:
    """Keep the photo and its reading when the host keeps photos (``table``: it shows melds laid on the table): the kept
    photo's id (the page sends its labels back under it), ``None`` when photos are not kept, the folder is full, or it
    cannot be written."""
    kept = _kept_photos()
    if kept is None:
        return None
    try:
        ident: str | None = kept.keep(data, size, [{"code": code, "box": t.box, "confidence": t.confidence, "unsure": u}
                                                   for t, code, u in zip(tiles, codes, unsure)], table=table)
    except OSError as error:  # a full card must not stop the photo being read
        current_app.logger.warning("photo not kept: %s", error)
        return None
    if ident is None:
        current_app.logger.warning("photo not kept: %s is full (%d photos or %d bytes at most)", kept.root, kept.most,
                                   kept.most_bytes)
    return ident


@bp.post("/<table_id>/photo/<photo_id>/labels")
def photo_labels(table_id: str, photo_id: str) -> Response:
    """The tiles of a kept photo as the players used them (``companion.kept_photos.KeptPhotos.label``): 204, or
    422 with what was wrong (nothing kept then)."""
    from companion.kept_photos import LabelError

    _state(table_id)
    kept = _kept_photos()
    if kept is None:
        return Response("photos are not kept here (the app was not started with --keep-photos)\n", 404,
                        mimetype="text/plain")
    try:
        kept.label(photo_id, request.get_json(silent=True))
    except LabelError as error:
        return Response(f"{error}\n", 422, mimetype="text/plain")
    return Response(status=204)


LOW_CONFIDENCE = re.compile(r"^\d+ tile\(s\) read with low confidence")


def _photo_warnings(warnings: Sequence[str], unsure: Sequence[bool]) -> list[str]:
    """The recogniser's warnings in the reader's words, its count of unsure tiles replaced by the count the
    page asks to confirm (a joker read as F and a tile a rule check flags are unsure too)."""
    shown = [engine_text(w) for w in warnings if not LOW_CONFIDENCE.match(w)]
    if any(unsure):
        shown.insert(0, _("Tiles to confirm: %(n)d (dashed). Tap each one to confirm it or pick the right tile.",
                          n=sum(unsure)))
    return shown


def _photo_checks(context: dict[str, Any], codes: list[str], unsure: list[bool], indicator: str | None,
                  part: bool = False) -> PhotoCheck:
    """The rule checks on a photo's tiles: the picker says how many tiles it expects and whether a
    "one tile away" hint makes sense there (an Okey win), neither on ``part`` of a rack (a photo to add
    to the last one); ``indicator`` is the table's (:func:`_photo_indicator`)."""
    expect: list[int] = []
    for token in ("" if part else form_text("expect")).split():  # "14", or a range "0-22"
        low, _dash, high = token.partition("-")
        if low.isdigit() and (high.isdigit() or not _dash):
            expect.extend(range(int(low), int(high or low) + 1))
    state = context.get("state")
    return check_photo(codes, unsure, expect=tuple(expect), indicator=indicator,
                       win_hint=form_text("win_hint") == "1" and not part,
                       wins=None if state is None else _wins_at(state))


def _photo_indicator(state: TableState | None) -> str | None:
    """The indicator a photo's tiles are checked against: the one the form it fills in means (``indicator_of``: the
    deal's, or the one typed where none was turned up or a recorded hand is being corrected); ``None`` where there
    is none yet, or what was typed is no indicator (the form says so when it is sent)."""
    if state is None:
        return None
    try:
        code = indicator_of(state)
    except ValueError:
        return None
    return code if parse_tiles(code)[0].is_numbered else None


def _wins_at(state: TableState) -> Callable[[Sequence[str], str], bool]:
    """Whether 14 tiles win at the table of ``state``: its game's ``check`` with its house rules (wrap_13_1,
    okey_pair_of_okeys: O4, O5); a game without one offers no win."""
    check = state.spec.ops.get("check")

    def wins(codes: Sequence[str], indicator: str) -> bool:
        if check is None:
            return False
        try:
            return bool(check({"tiles": " ".join(codes), "indicator": indicator}, state.options).get("winning"))
        except ValueError:  # RulesError: not a hand this game's check reads
            return False

    return wins


def _photo_note(note: PhotoNote) -> str:
    if note.kind == "copies":
        return _("%(tile)s read %(n)d times, but a set has only two: tap each to check it.", tile=note.tile, n=note.count)
    if note.kind == "indicator":
        return _("Both %(tile)s read, but one %(tile)s is the indicator on the table: tap each to check it.",
                 tile=note.tile)
    wanted = note.expected
    spread = f"{min(wanted)}–{max(wanted)}" if len(wanted) > 2 and len(wanted) == max(wanted) - min(wanted) + 1 else \
        " / ".join(str(n) for n in wanted)
    return _("%(n)d tiles read where %(expected)s are expected: retake the photo with the whole rack in it, "
             "or add the missing tiles.", n=note.count, expected=spread)


def _warned(tile: Any, warning: str) -> bool:
    """Whether the recogniser said ``warning`` of ``tile`` (a stand-in tile without warnings has none)."""
    return warning in (getattr(tile, "warnings", ()) or ())


def _retake_advice(recognition: Any, checks: PhotoCheck) -> str | None:
    """What to do differently with the camera, in plain words, when this photo is not good enough."""
    tiles = list(recognition.tiles)
    if not tiles:
        return None
    from vision.pairs import CUT

    cut = sum(_warned(t, CUT) for t in tiles + list(getattr(recognition, "set_aside", ())))
    unsure = sum(bool(t.low_confidence) for t in tiles)
    if cut:
        return _("Retake: step back so no tile is cut by the edge of the photo.")
    glare = any(str(w).startswith("glare washes out") for w in getattr(recognition, "warnings", ()))
    if glare and (unsure * 3 >= len(tiles) or any(note.kind == "count" for note in checks.notes)):
        return _("Retake without the glare: tilt the phone a little, or turn off the flash, so that no tile shines "
                 "white.")
    if any(str(w).startswith("blurred photo") for w in getattr(recognition, "warnings", ())):
        return _("Retake holding the phone still (rest your elbows on the table) and let it focus on the rack: this "
                 "photo is blurred.")
    faint = any(str(w).startswith("faint colours") for w in getattr(recognition, "warnings", ()))
    if faint and unsure * 3 >= len(tiles):
        return _("Retake in brighter light (a lamp over the table, no flash glare): the colours in this photo are faint.")
    if unsure * 3 >= len(tiles):
        return _("Retake: hold the phone closer and straight in front of the rack, in good light, without flash glare.")
    if any(note.kind == "count" for note in checks.notes):
        return _("A wide rack reads better in two photos: the left half, then the right half with the last two or three "
                 "tiles of the left in it again (add the second to the first).")
    return None


LAST_PHOTO_MOST = 64
"""At most this many tiles of the last photo are taken back with the next (a 101 rack has 22)."""


def _last_photo(text: str) -> tuple[tuple[int, int], list[Any]] | None:
    """The tiles of the photo taken before this one, as the page sends them back with a second photo of the
    same rack (``{"size": [w, h], "tiles": [{"code": "R7", "box": [x1, y1, x2, y2], "cut": false}, …]}``),
    or None where there is none.  Raises ValueError, in the reader's words, for anything else."""
    if not text.strip():
        return None
    from vision.pairs import CUT, Seen

    problem = _("The tiles of the last photo came back unreadable, so this photo was not added to them. "
                "Reload the page and take both photos again.")
    if len(text) > LAST_PHOTO_MOST * 120:
        raise ValueError(problem)
    try:
        sent = json.loads(text)
        (w, h), tiles = sent["size"], sent["tiles"]
        size = (int(w), int(h))
        if not (0 < size[0] <= 20000 and 0 < size[1] <= 20000) or not isinstance(tiles, list) or len(tiles) > LAST_PHOTO_MOST:
            raise ValueError(problem)
        seen = []
        for tile in tiles:
            code = parse_tiles(str(tile["code"]))
            box = [float(v) for v in tile["box"]]
            if len(code) != 1 or len(box) != 4 or not all(math.isfinite(v) and -1 <= v <= 20001 for v in box) \
                    or box[2] <= box[0] or box[3] <= box[1]:
                raise ValueError(problem)
            seen.append(Seen(code[0].code, (box[0], box[1], box[2], box[3]), (CUT,) if tile.get("cut") is True else ()))
    except (KeyError, TypeError, ValueError, RulesError, AttributeError, RecursionError):
        raise ValueError(problem) from None
    return size, seen


@bp.post("/<table_id>/photo")
def photo(table_id: str) -> Response:
    """Recognise the tiles on an uploaded photo: boxes drawn over it, unsure tiles to confirm."""
    state = _state(table_id)
    context: dict[str, Any] = {"picker": form_text("picker") or "picker", "table_id": table_id, "state": state}
    upload = request.files.get("photo")
    if upload is None or not upload.filename:
        return render("photo.html", block="result", status=422, error=_("Choose or take a photo first."), **context)
    mimetype = upload.mimetype if (upload.mimetype or "").startswith("image/") else "image/jpeg"
    from vision.imageio import without_trailer

    # A motion photo's video, after its JPEG, is neither sent back with the boxes nor kept.
    return _recognised(context, without_trailer(upload.read()), mimetype)


def on_host() -> bool:
    """Whether this request comes from the machine the app runs on (its own browser, not a phone): the
    peer is loopback *and* the ``Host`` header names this machine (not a site rebound to 127.0.0.1)."""
    return peer_is_loopback() and host_is_local()


@bp.post("/<table_id>/camera")
def camera(table_id: str) -> Response:
    """A frame from the camera attached to the host, recognised like an uploaded photo.  Only the host's
    own browser may use it: a phone on the Wi-Fi must not switch on the laptop's camera."""
    state = _state(table_id)
    context: dict[str, Any] = {"picker": form_text("picker") or "picker", "table_id": table_id, "state": state}
    if not on_host():
        return render("photo.html", block="result", status=403,
                      error=_("The camera of the computer running the app can only be used from that computer itself."), **context)
    from vision import camera as host_camera  # the module, so tests can swap its capture functions
    from vision.camera import CameraError

    try:  # --camera: the Pi camera module (picamera2) or a USB camera (OpenCV); see vision/camera.py
        data = host_camera.capture(current_app.config.get("CAMERA", "auto"))
    except CameraError as error:
        current_app.logger.warning("host camera: %s", error)
        return render("photo.html", block="result", status=422,
                      error=_("No camera answered on this computer: plug one in, or take the photo with a phone."),
                      **context)
    return _recognised(context, data, "image/jpeg")
