"""The command line: ``okey-companion check|opening|meld|deal|score|options|batch|recognize|serve|service``.

Human-readable output by default, ``--json`` for machines.  Bad input never ends in a traceback: the
message goes to stderr and the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from companion import __version__
from companion.rules import GameSpec, find_game
from companion.rules.options import option_choices, options_for, options_to_dict
from companion.rules.registry import dealt_without_dice, games
from companion.rules.schema import short_repr

EXIT_BAD_INPUT = 2


class CommandError(ValueError):
    """A request the command line cannot serve (a missing file, a bad JSON field …)."""


# ---------------------------------------------------------------------------------------------------------
# The operations, shared by the sub-commands and by ``batch``: each takes a JSON-like request, returns a dict.


def _require(request: Mapping[str, Any], field: str) -> Any:
    if field not in request or request[field] in (None, ""):
        raise CommandError(f"missing field {field!r} in request")
    return request[field]


def _options(request: Mapping[str, Any], game: str) -> Any:
    overrides = request.get("options") or {}
    return options_for(game, overrides, profile=request.get("profile") or "reference")


def _game_of(request: Mapping[str, Any], op: str) -> GameSpec:
    """The request's game; without one, the first registered game that answers ``op`` (``check`` → okey,
    ``opening`` → okey101)."""
    if request.get("game") not in (None, ""):
        return find_game(request["game"])
    if op == "score":
        raise CommandError("missing field 'game' in request")
    for spec in games():
        if op in spec.ops or op == "options":
            return spec
    raise CommandError(f"no game answers {op!r}")  # pragma: no cover — only registered ops are dispatched


def _check_answers(spec: GameSpec, op: str) -> None:
    """Refuse ``op`` where the game's registry entry does not list it, naming the operations it answers."""
    if op not in spec.ops:
        offered = ", ".join(sorted({*spec.ops, "score", "options"}))
        raise CommandError(f"{spec.title} has no {op!r} operation; it answers: {offered}")


def game_op(op: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """The batch operation ``op`` as the games answer it: the request's game (see :func:`_game_of`), its
    options, then the function its registry entry lists for ``op``."""

    def run(request: Mapping[str, Any]) -> dict[str, Any]:
        spec = _game_of(request, op)
        _check_answers(spec, op)
        options = _options(request, spec.id)
        return spec.ops[op]({**request, "game": spec.id}, options)

    run.__doc__ = f"Batch ``{op}`` for the games whose registry entry lists it."
    return run


def op_score(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one recorded hand with the game's scoring function (O6, H6–H7, O7 …)."""
    spec = _game_of(request, "score")
    hand = _require(request, "hand")
    if not isinstance(hand, Mapping):
        raise CommandError(f"field 'hand' must be an object, not {hand!r}")
    options = _options(request, spec.id)
    if spec.admit_hand is not None:
        spec.admit_hand(hand, options, None)
    result: dict[str, Any] = spec.score_hand(hand, options).to_dict()
    return result


def op_recognize(request: Mapping[str, Any]) -> dict[str, Any]:
    """Recognise the tiles in a photo (issue 4)."""
    from vision import recognize_file

    path = Path(str(_require(request, "image")))
    try:
        found = path.is_file()
    except OSError:  # a name too long for the file system
        found = False
    if not found:
        raise CommandError(f"no such image file: {short_repr(str(path))}")
    second_look = request.get("second_look", True)
    if not isinstance(second_look, bool):
        raise CommandError(f"field 'second_look' must be true or false, not {second_look!r}")
    table = request.get("table", False)
    if not isinstance(table, bool):
        raise CommandError(f"field 'table' must be true or false, not {table!r}")
    result: dict[str, Any] = recognize_file(path, second_look=second_look, table=table)
    return result


def op_options(request: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a game with their values in a profile."""
    game = _game_of(request, "options").id
    return {"game": game, "options": options_to_dict(_options(request, game))}


OPERATIONS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    **{op: game_op(op) for spec in games() for op in spec.ops},
    "score": op_score,
    "recognize": op_recognize,
    "options": op_options,
}
"""Every batch ``op``: those the games' registry entries list (``check``, ``opening``, ``deal`` …), and
``score``, ``options``, ``recognize``."""


MAX_REQUEST_DEPTH = 16
"""How deep a batch request may nest lists and objects; no op needs more than four levels."""
MAX_REQUEST_TEXT = 10_000
"""The longest string a batch request may hold (a Rummikub table of all 106 tiles is under 600 characters)."""
MAX_REQUEST_ITEMS = 10_000
"""How many values (strings, numbers, list items, fields) one batch request may hold in all."""


def _oversized(request: Mapping[str, Any]) -> str | None:
    """Why ``request`` is too deep or too big to answer, or None; walked without recursion, so a request nested
    thousands of levels deep by a library caller is refused like any other and its values are never quoted."""
    stack: list[tuple[Any, str, int]] = [(request, "request", 0)]
    items = 0
    while stack:
        value, where, depth = stack.pop()
        items += 1
        if items > MAX_REQUEST_ITEMS:
            return f"the request holds more than {MAX_REQUEST_ITEMS:,} values; no op needs that many"
        if isinstance(value, str):
            if len(value) > MAX_REQUEST_TEXT:
                return (f"{where} is {len(value):,} characters long; a request's texts are at most "
                        f"{MAX_REQUEST_TEXT:,} characters")
            continue
        if not isinstance(value, (Mapping, list, tuple)):
            continue
        if depth >= MAX_REQUEST_DEPTH:
            return f"{where} is nested too deeply: at most {MAX_REQUEST_DEPTH} levels, and no op needs more than four"
        if isinstance(value, Mapping):
            for key, inner in value.items():
                name = f"field {short_repr(key, 40)}" if depth == 0 else where
                stack.append((key, name, depth + 1))
                stack.append((inner, name, depth + 1))
        else:
            stack.extend((inner, where, depth + 1) for inner in value)
    return None


def answer(request: Any) -> dict[str, Any]:
    """Answer one batch request; bad requests get ``{"error": ...}``, never an exception."""
    if not isinstance(request, Mapping):
        return {"error": f"a request must be a JSON object, not {short_repr(request)}"}
    oversized = _oversized(request)
    if oversized is not None:
        return {"error": oversized}
    op = request.get("op")
    if not isinstance(op, str) or op not in OPERATIONS:  # a list or an object is no op either (and not hashable)
        return {"error": f"unknown op {short_repr(op)}; use one of: {', '.join(OPERATIONS)}"}
    try:
        return OPERATIONS[op](request)
    except ValueError as error:  # RulesError, CommandError, vision.ImageError: bad input
        return {"error": str(error)}
    except Exception as error:  # noqa: BLE001 — batch must go on whatever happens
        return {"error": f"internal error while answering {op!r}: {type(error).__name__}: {error}"}


def run_batch(stdin: TextIO, stdout: TextIO) -> int:
    """Read one JSON request per line, answer one JSON line each, in order."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            response: dict[str, Any] = {"error": f"invalid JSON: {error.msg} at column {error.colno}"}
        except RecursionError:  # a line nested thousands deep: answered, and the batch goes on
            response = {"error": "invalid JSON: nested too deeply"}
        else:
            response = answer(request)
        stdout.write(json.dumps(response, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


# ---------------------------------------------------------------------------------------------------------
# Human-readable rendering.


def _melds_text(melds: Sequence[Sequence[str]]) -> str:
    return " | ".join(" ".join(meld) for meld in melds)


def render_knock(result: Mapping[str, Any]) -> str:
    """A knock check (Thai Rummy D4): the melds, the lay-offs and the card to put face down."""
    if not result["knocks"]:
        return result["reason"]
    lines = [result["reason"], *("  meld: " + " ".join(meld) for meld in result["melds"])]
    lines += [f"  lay off on table meld {item['meld'] + 1}: {' '.join(item['cards'])}" for item in result["layoffs"]]
    if len(result["knock_cards"]) > 1:
        lines.append(f"  could also knock with: {' '.join(result['knock_cards'][1:])}")
    return "\n".join(lines)


def render_check(result: Mapping[str, Any]) -> str:
    if "knocks" in result:
        return render_knock(result)
    if "winning_discards" in result:
        discards = result["winning_discards"]
        if not discards:
            return "not winning: no discard leaves a winning hand"
        lines = [f"winning discards: {' '.join(discards)}"]
        for detail in result.get("details", []):
            okey = "  (okey discard: double win)" if detail.get("okey_discard") else ""
            win = detail["win"]
            kind = "seven pairs" if win["kind"] == "pairs" else "melds"
            lines.append(f"  discard {detail['tile']}: {kind}: {_melds_text(win['melds'])}{okey}")
        return "\n".join(lines)
    if not result["winning"]:
        return "not winning: " + result.get("reason", "the 14 tiles do not split into melds or seven pairs")
    kind = "seven pairs" if result["kind"] == "pairs" else "melds"
    colour = f", colour hand ({result['colour_hand']})" if result.get("colour_hand") else ""
    return f"winning ({kind}{colour}): {_melds_text(result['melds'])}"


def render_opening(result: Mapping[str, Any]) -> str:
    verdict = "opens" if result["opens"] else "does not open"
    lines = [f"best opening: {result['value']} points ({verdict} with melds)"]
    if result["melds"]:
        lines.append(f"  melds: {_melds_text(result['melds'])}")
    if "pairs" in result:
        pairs_verdict = "opens" if result.get("pairs_open") else "does not open"
        lines.append(f"  pairs: {result['pairs']} ({pairs_verdict} with pairs)")
    if result.get("left"):
        lines.append(f"  left: {result['left']}")
    return "\n".join(lines)


def render_meld(result: Mapping[str, Any]) -> str:
    if "verdicts" in result:
        lines = [
            f"  {' '.join(v.get('tiles') or v.get('cards', '').split())}: valid, {v['value']}"
            + (f" ({v['reason']})" if v.get("reason") else "")
            if v["valid"] else f"  INVALID: {v['reason']}"
            for v in result["verdicts"]
        ]
        verdict = "opens" if result["opens"] else "does not open"
        return "\n".join([f"total {result['total']}: {verdict}", *lines] + ([result["reason"]] if result.get("reason") else []))
    if result["valid"]:
        return f"valid meld worth {result['value']}" + (f" ({result['reason']})" if result.get("reason") else "")
    return f"invalid meld: {result['reason']}"


def render_deal(result: Mapping[str, Any]) -> str:
    explain = result.get("explain")
    if explain:
        return "\n".join(explain)
    return json.dumps(result, indent=2, ensure_ascii=False)


def render_score(result: Mapping[str, Any]) -> str:
    numbers = result.get("deltas", result.get("scores"))
    lines = [f"scores: {' '.join(str(n) for n in numbers)}"]
    lines += [f"  {line}" for line in result.get("explain", [])]
    return "\n".join(lines)


def render_options(result: Mapping[str, Any]) -> str:
    choices = option_choices(result["game"])
    lines = [f"options of {result['game']}:"]
    for name, value in result["options"].items():
        allowed = choices[name]
        shown = " | ".join(str(a) for a in allowed) if isinstance(allowed, tuple) else allowed.__name__
        lines.append(f"  {name} = {json.dumps(value)}    ({shown})")
    return "\n".join(lines)


def render_solve(result: Mapping[str, Any]) -> str:
    """The lay-down assistant's answer (R4): the new table, rack tiles marked ``*``, jokers with their tile."""
    lines = [("possible: " if result["possible"] else "impossible: ") + result["reason"]]
    if result["cannot"]:
        lines.append(f"  cannot go: {' '.join(result['cannot'])}")
    for tiles, faces, rack, kept in zip(result["melds"], result["faces"], result["from_rack"], result["kept"]):
        shown = [f"{t}({f})" if t == "J" else t for t, f in zip(tiles, faces)]
        shown = [f"*{t}" if r else t for t, r in zip(shown, rack)]
        lines.append(f"  {' '.join(shown)}" + ("   (unchanged)" if kept else ""))
    if result["placed"]:
        lines.append(f"  laid from the rack (*): {' '.join(result['placed'])} = {result['value']} points")
    return "\n".join(lines)


def render_any(result: Mapping[str, Any]) -> str:
    """A game operation's answer for people: its explanation lines, else its JSON, indented."""
    explain = result.get("explain")
    if isinstance(explain, list) and explain and all(isinstance(line, str) for line in explain):
        return "\n".join(explain)
    return json.dumps(result, indent=2, ensure_ascii=False)


def render_recognition(result: Mapping[str, Any]) -> str:
    tiles = " ".join(t["tile"] + ("?" if t.get("low_confidence") else "") for t in result["tiles"])
    lines = [f"{result['image']}: {len(result['tiles'])} tiles in {result['elapsed_ms']:.0f} ms", f"  {tiles}"]
    lines += [f"  warning: {w}" for w in result.get("warnings", [])]
    if any(t.get("low_confidence") for t in result["tiles"]):
        lines.append("  (? = low confidence: check these tiles)")
    return "\n".join(lines)


def same_rack(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Photos of one rack's parts, left to right (:func:`op_recognize` results) → the rack they make."""
    from vision.pairs import Seen, rack_from_photos

    photos = [([Seen(t["tile"], tuple(t["box"]), tuple(t["warnings"])) for t in r["tiles"]], (r["width"], r["height"]))
              for r in results]
    rows, linked = rack_from_photos(photos)
    counted = [sum(link is not None for link in links) for links in linked]
    return {"photos": results, "rack": [[t.code for t in row] for row in rows], "counted_once": counted,
            "unsure": sum(t["low_confidence"] for r in results for t in r["tiles"])}


def render_rack(rack: Mapping[str, Any]) -> str:
    tiles = sum(len(row) for row in rack["rack"])
    lines = [f"the rack from {len(rack['photos'])} photos: {tiles} tiles, in rows"]
    lines += [f"  {' '.join(row)}" for row in rack["rack"]]
    for number, counted in enumerate(rack["counted_once"], start=2):
        lines.append(f"  photo {number}: {counted} tile(s) the photo before shows too, counted once" if counted else
                     f"  photo {number}: not laid over the photo before; rows joined where their codes agree")
    if rack["unsure"]:
        lines.append("  (check the tiles marked ? above before using this rack)")
    return "\n".join(lines)


def render_pickup(result: Mapping[str, Any]) -> str:
    """A pick-up from the discard row (Thai Rummy D2, D3): what is taken and how the card can be melded."""
    lines = [result["reason"]]
    lines += ["  meld: " + " ".join(meld) for meld in result["melds"]]
    lines += ["  lay off on: " + " ".join(meld) for meld in result["layoffs"]]
    return "\n".join(lines)


def render_going_out(result: Mapping[str, Any]) -> str:
    """Going out in one turn (M6, T6): the melds laid, the last discard, and why."""
    lines = [result["reason"]]
    lines += ["  meld: " + " ".join(meld) for meld in result.get("melds") or ()]
    if result.get("discard"):
        lines.append(f"  then discard: {result['discard']}")
    if result.get("possible") and result.get("value") is not None:
        lines.append(f"  melds worth {result['value']}")
    return "\n".join(lines)


def render_joker(result: Mapping[str, Any]) -> str:
    """Taking a laid meld's joker (M5, T4): allowed or not, and the meld as it stands after."""
    lines = [result["reason"]]
    if result.get("allowed") and result.get("meld_after"):  # refused, the meld stays as it was
        lines.append(f"  the meld after: {result['meld_after']}")
    return "\n".join(lines)


def render_turn(result: Mapping[str, Any]) -> str:
    """A Rummikub turn refereed (R3-R5): legal or not, why, and the rack tiles it laid."""
    lines = [result["reason"]]
    if result.get("laid") and not result["valid"]:
        lines.append(f"  tiles it lays: {' '.join(result['laid'])} (worth {result['value']})")
    elif result.get("laid"):
        lines.append(f"  worth {result['value']}")
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "check": render_check,
    "opening": render_opening,
    "meld": render_meld,
    "deal": render_deal,
    "score": render_score,
    "options": render_options,
    "pickup": render_pickup,
    "going_out": render_going_out,
    "joker": render_joker,
    "solve": render_solve,
    "turn": render_turn,
}
"""How an operation's answer reads for people (a game operation without one: :func:`render_any`)."""


# ---------------------------------------------------------------------------------------------------------
# Argument parsing.


def _parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"invalid option {text!r}: use NAME=VALUE, e.g. wrap_13_1=false")
    name, value = text.split("=", 1)
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    except RecursionError:
        raise argparse.ArgumentTypeError(f"invalid value for {name.strip()!r}: nested too deeply") from None
    return name.strip(), parsed


def _game_names() -> str:
    return ", ".join(spec.id for spec in games())


def _add_common(parser: argparse.ArgumentParser, *, game: str | None) -> None:
    if game is not None:
        parser.add_argument("--game", default=game, help=f"one of {_game_names()} (default {game})")
    parser.add_argument(
        "--option", "-o", action="append", type=_parse_option, default=[], metavar="NAME=VALUE",
        help="a house-rule option of RULES.md, e.g. -o wrap_13_1=false (repeatable)",
    )
    parser.add_argument("--profile", default="reference", help="a named house-rule profile (default reference)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_game_op(sub: Any, op: str) -> None:
    """A sub-command for a game operation without a parser of its own: its request fields as NAME=VALUE."""
    default = next(spec.id for spec in games() if op in spec.ops)
    parser = sub.add_parser(op, help=op_help(op))
    _add_common(parser, game=default)
    parser.add_argument("fields", nargs="*", type=_parse_option, metavar="FIELD=VALUE",
                        help="the request's fields as in batch, e.g. rack='R1 R2' (JSON values are parsed)")


def op_help(op: str) -> str:
    """A game operation's line in ``--help``: the games that answer it and the first sentence of the first one's
    operation, its batch wording and reStructuredText marks left out.

    >>> op_help("pickup")
    "Thai Rummy: may 'card' be picked up from the discard 'row' with this 'cards' hand?"
    """
    answering = [spec for spec in games() if op in spec.ops]
    doc = (answering[0].ops[op].__doc__ or "").strip().split("\n\n")[0].replace("\n", " ") if answering else ""
    doc = re.sub(r"^(?:The )?[Bb]atch/CLI ``\w+``(?: operation)?(?: \([^)]*\))?:?\s*", "", re.sub(r"\s+", " ", doc))
    if len({spec.ops[op].__doc__ for spec in answering}) > 1:  # the games' requests differ: their fields are in the README
        doc = re.sub(r"\s*\(\{[^)]*\}\)", "", doc)
    text = re.sub(r"``([^`]+)``", r"'\1'", doc) or f"the {op} operation"
    return (", ".join(spec.title for spec in answering) + ": " + text).replace("%", "%%")


KEEP_PHOTOS_HELP = ("keep the photos the pickers read, with the tiles as the players confirm them, in the data dir's "
                    "kept-photos folder (on this computer only), to measure the tile reader on real racks: see "
                    "'okey-companion photos export'")
SECOND_LOOK_HELP = ("read each tile with one classifier, not two: quicker (about 0.8 s less a 15-tile rack on a "
                    "Raspberry Pi 4), but fewer misread tiles are flagged for a tap, and a tile the two would read red "
                    "and yellow is not settled by the photo's own inks")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="okey-companion",
        description="Table companion and scorekeeper for " + ", ".join(spec.title for spec in games()) + ".",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = sub.add_parser("check", help="is this 14-tile hand a win? which discards of 15 tiles win? (O5); "
                                         "Thai Rummy: can these cards knock? (D4)")
    _add_common(check, game="okey")
    check.add_argument("--indicator", help="the face-up indicator tile, e.g. R4 (tile games)")
    check.add_argument("--table", help="Thai Rummy: the melds on the table to lay off on, '|' between melds")
    check.add_argument("tiles", nargs="+", help="14 or 15 tiles, e.g. R1 R2 R3 …; or cards, e.g. 8H 9H 10H 5S")

    opening = sub.add_parser("opening", help="the best opening of a rack or hand (H4, R3; M4, T3 for the card games)")
    _add_common(opening, game="okey101")
    opening.add_argument("--indicator", help="the face-up indicator tile (tile games)")
    _add_so_far(opening)
    opening.add_argument("tiles", nargs="+", help="the rack, e.g. 21 or 22 tiles, or the cards, e.g. QH KH AH *")

    meld = sub.add_parser("meld", help="referee melds as laid out on the table; '|' separates melds (O4, H4, M3-M4, T2, D2)")
    _add_common(meld, game="okey101")
    meld.add_argument("--indicator", help="the face-up indicator tile (tile games)")
    _add_so_far(meld)
    meld.add_argument("tiles", nargs="+", help="e.g. R12 R13 F   or   R10 R11 R12 '|' K1 K2 K3   or   QH KH AH")

    deal = sub.add_parser("deal", help="walk the formal deal (O2): stacks, indicator, who takes what")
    _add_common(deal, game="okey")
    deal.add_argument("--players", type=int, default=4)
    deal.add_argument("--dealer", type=int, default=1, help="the dealer's seat, 1-based (default 1)")
    deal.add_argument("--dice", type=int, nargs=2, metavar=("FIRST", "SECOND"), help="the two rolls; omit to roll")
    deal.add_argument("--seed", type=int, help="seed for rolling the dice")

    score = sub.add_parser("score", help="score a recorded hand (O6, H6-H7, O7 …)")
    _add_common(score, game=None)
    score.add_argument("--game", required=True, help=f"one of {_game_names()}")
    score.add_argument("--hand", required=True, help="a JSON file with the hand (- for stdin)")

    options = sub.add_parser("options", help="list the house-rule options of a game")
    _add_common(options, game="okey")

    for op in dict.fromkeys(op for spec in games() for op in spec.ops):
        if op not in sub.choices:
            _add_game_op(sub, op)

    sub.add_parser("batch", help="answer JSON requests, one per line on stdin (see README)")

    recognize = sub.add_parser("recognize", help="recognise the tiles in photos")
    recognize.add_argument("photos", nargs="+")
    recognize.add_argument("--json", action="store_true")
    recognize.add_argument("--same-rack", action="store_true",
                           help="the photos show one rack, left part first: print the rack they make, "
                                "a tile two photos show counted once")
    recognize.add_argument("--no-second-look", action="store_false", dest="second_look", help=SECOND_LOOK_HELP)
    recognize.add_argument("--table", action="store_true",
                           help="the photos show melds laid on the table (an opening, a Rummikub table), not a rack: "
                                "their tiles are found with the table's own detector")

    serve = sub.add_parser("serve", help="run the table companion web app")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default all interfaces)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", help="where tables are kept (default ~/.okey-companion)")
    serve.add_argument("--threads", type=int, default=8)
    serve.add_argument("--camera", default="auto",
                       help="the host camera: auto (default: the Raspberry Pi camera if picamera2 sees one, else "
                            "camera 0), picamera2, a USB camera number such as 0, or a path such as /dev/video0")
    serve.add_argument("--keep-photos", action="store_true", help=KEEP_PHOTOS_HELP)
    serve.add_argument("--no-second-look", action="store_false", dest="second_look", help=SECOND_LOOK_HELP)

    service = sub.add_parser("service", help="a systemd unit that starts the companion at boot (Raspberry Pi)")
    action = service.add_mutually_exclusive_group(required=True)
    action.add_argument("--print", action="store_true", dest="print_unit", help="print the unit")
    action.add_argument("--install", action="store_true",
                        help="write it to /etc/systemd/system (as root), enable and start it")
    service.add_argument("--user", help="the user it runs as (default: the one who ran sudo, else you)")
    service.add_argument("--data-dir", help="where tables are kept (default: that user's ~/.okey-companion)")
    service.add_argument("--host", default="0.0.0.0")
    service.add_argument("--port", type=int, default=8000)
    service.add_argument("--camera", default="auto", help="as for serve: auto, picamera2, 0, /dev/video0 …")
    service.add_argument("--unit-dir", help="write the unit here instead (default $OKEY_COMPANION_UNIT_DIR or "
                                            "/etc/systemd/system)")
    service.add_argument("--keep-photos", action="store_true", help="as for serve: " + KEEP_PHOTOS_HELP)
    service.add_argument("--no-second-look", action="store_false", dest="second_look",
                         help="as for serve: " + SECOND_LOOK_HELP)
    service.add_argument("--no-start", action="store_true", help="with --install: write it, do not enable it")

    photos = sub.add_parser("photos", help="the photos kept at the table (serve --keep-photos): export them to "
                                           "measure the tile reader on")
    photos_sub = photos.add_subparsers(dest="photos_command", required=True, metavar="ACTION")
    export = photos_sub.add_parser("export", help="write the labelled kept photos to a folder: images/, labels.csv, "
                                                  "and drawn/ (each photo with its labels drawn, to look over)")
    export.add_argument("out", help="the folder to write (made if missing)")
    export.add_argument("--data-dir", help="where tables are kept (default ~/.okey-companion)")
    return parser


def _service(args: argparse.Namespace) -> int:
    from companion import service

    settings = service.build_settings(user=args.user, data_dir=args.data_dir, host=args.host, port=args.port,
                                      camera=args.camera, keep_photos=args.keep_photos,
                                      second_look=args.second_look)
    if args.print_unit:
        sys.stdout.write(service.render_unit(settings))
        return 0
    for line in service.install(settings, service.unit_dir(args.unit_dir), start=not args.no_start):
        print(line)
    return 0


def _export_photos(args: argparse.Namespace) -> int:
    """``photos export OUT``: the labelled kept photos as a folder ``scripts/eval_vision.py --labelled`` reads."""
    from companion.kept_photos import TABLE_FOLDER, kept_photos
    from companion.web import default_data_dir

    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    kept = kept_photos(data_dir)
    if not kept.root.is_dir():
        raise CommandError(f"no kept photos in {str(data_dir)!r}: start the app with 'okey-companion serve "
                           "--keep-photos', take photos of racks with the pickers and tap 'Use these tiles'")
    out = Path(args.out).expanduser()
    try:
        photos, tiles, checked, tables = kept.export(out)
    except OSError as error:
        raise CommandError(f"cannot write {str(out)!r}: {error.strerror or error}: choose a writable folder") from None
    table = out / TABLE_FOLDER
    if photos > tables:
        _draw_labels(out)
    if tables:
        _draw_labels(table)
    print(f"{photos} labelled photos, {tiles} tiles ({checked['fixed']} picked from the list, {checked['confirmed']} "
          f"tapped as read right, {checked['accepted']} taken as read) written to {out}")
    if tables:
        print(f"{tables} of them show melds laid on the table (taken with a picker of melds): written to {table}")
    if kept.unlabelled():
        print(f"kept photos without labels: {kept.unlabelled()} (nothing found on them, or no one tapped 'Use these "
              f"tiles'), left out; what the reader said of them is in {kept.root / 'read'}")
    if photos > tables:
        print(f"Look over {out / 'drawn'} and mend labels.csv where a label is wrong or a tile has no box; then measure "
              f"with: python scripts/eval_vision.py --labelled {out}")
    if tables:
        print(f"Look over {table / 'drawn'} and mend its labels.csv likewise; then measure with the table's detector: "
              f"python scripts/eval_vision.py --labelled {table} --table")
    return 0


def _draw_labels(out: Path) -> None:
    """``drawn/``: each exported photo, upright, with its labelled boxes and codes drawn on it (red where a player
    picked another tile than the one read)."""
    import csv

    import cv2

    from vision.imageio import load_image

    rows: dict[str, list[dict[str, str]]] = {}
    with open(out / "labels.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            rows.setdefault(row["image"], []).append(row)
    (out / "drawn").mkdir(exist_ok=True)
    for image, group in rows.items():
        pixels = load_image(out / image).copy()  # BGR, upright
        line = max(2, round(max(pixels.shape[:2]) / 400))
        for row in group:
            x1, y1, x2, y2 = (round(float(row[k])) for k in ("x1", "y1", "x2", "y2"))
            colour = (0, 0, 255) if row["tile"] != row["read"] else (0, 200, 0)
            cv2.rectangle(pixels, (x1, y1), (x2, y2), colour, line)
            scale = line / 3
            (w, h), base = cv2.getTextSize(row["tile"], cv2.FONT_HERSHEY_SIMPLEX, scale, line)
            top = max(y1 - h - base - line, 0)
            cv2.rectangle(pixels, (x1, top), (x1 + w, top + h + base), (255, 255, 255), -1)
            cv2.putText(pixels, row["tile"], (x1, top + h), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, line)
        cv2.imwrite(str(out / "drawn" / (Path(image).stem + ".jpg")), pixels, [cv2.IMWRITE_JPEG_QUALITY, 85])


def _add_so_far(parser: argparse.ArgumentParser) -> None:
    """Option ``opening_ratchet`` (H4): the hand's highest openings so far, which a later opener must beat."""
    parser.add_argument("--highest-so-far", type=int, metavar="POINTS",
                        help="with -o opening_ratchet=true: the highest melds opening laid so far in the hand (H4)")
    parser.add_argument("--most-pairs-so-far", type=int, metavar="PAIRS",
                        help="with -o opening_ratchet=true: the most pairs opened with so far in the hand (H4)")


def _need_indicator(args: argparse.Namespace) -> None:
    """Check, opening and meld need the indicator (O3) in a game that turns one up: its registry entry lists the
    ``indicator`` event.  A card game or Rummikub has none; a game that does not answer the command says so first.
    """
    spec = find_game(args.game)
    _check_answers(spec, args.command)
    if getattr(args, "indicator", None) is None and "indicator" in spec.events:
        raise CommandError(f"--indicator is required for {spec.title}: the face-up tile, e.g. R4")


def _request(args: argparse.Namespace, op: str, **fields: Any) -> dict[str, Any]:
    request: dict[str, Any] = {"op": op, "options": dict(args.option), "profile": args.profile, **fields}
    if getattr(args, "game", None) is not None:
        request["game"] = args.game
    return request


def _read_hand(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read hand file {path!r}: {error.strerror}") from None
    try:
        hand = json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"hand file {path!r} is not valid JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise CommandError(f"hand file {path!r} is not valid JSON: nested too deeply") from None
    problem = _oversized({"hand": hand})  # the batch's bounds, as a hand sent there would meet them
    if problem:
        raise CommandError(f"hand file {path!r}: {problem}")
    return hand


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        status = _dispatch(args)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return status
    except ValueError as error:  # RulesError, CommandError, vision.ImageError: bad input
        print(f"okey-companion {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader stopped early (``okey-companion options | head -1``): nothing is wrong to report, and no
        # traceback.  Python's own flush at exit would fail on the closed pipe again, so stdout goes nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line parsed, tiles, cards and FIELD=VALUE pairs taken wherever they stand among the options
    (``check R1 R2 --indicator R4 R3``, ``going_out cards=… --json opened=false``), as argparse alone does not.

    >>> parse_arguments(["check", "R1", "--indicator", "R4", "R2"]).tiles
    ['R1', 'R2']
    >>> parse_arguments(["going_out", "cards=7H", "--json", "opened=false"]).fields
    [('cards', '7H'), ('opened', False)]
    """
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if not rest:
        return args
    if isinstance(getattr(args, "fields", None), list) and not any(word.startswith("-") for word in rest):
        try:
            args.fields += [_parse_option(word) for word in rest]
        except argparse.ArgumentTypeError as error:
            parser.error(str(error))
    elif isinstance(getattr(args, "tiles", None), list) and not any(word.startswith("-") for word in rest):
        args.tiles += rest
    else:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return args


def _emit(args: argparse.Namespace, result: Mapping[str, Any], render: Callable[[Mapping[str, Any]], str]) -> int:
    print(json.dumps(result, ensure_ascii=False) if args.json else render(result))
    return 0


def _dispatch(args: argparse.Namespace) -> int:
    command = args.command
    if command == "batch":
        return run_batch(sys.stdin, sys.stdout)
    if command == "serve":
        from companion.web.serve import serve

        serve(host=args.host, port=args.port, data_dir=args.data_dir, threads=args.threads, camera=args.camera,
              keep_photos=args.keep_photos, second_look=args.second_look)
        return 0
    if command == "photos":
        return _export_photos(args)
    if command == "service":
        return _service(args)
    if command == "recognize":
        if args.same_rack and len(args.photos) < 2:
            raise CommandError("--same-rack needs two photos or more of one rack: its left part, then its right part")
        results = [op_recognize({"image": photo, "second_look": args.second_look, "table": args.table})
                   for photo in args.photos]
        rack = same_rack(results) if args.same_rack else None
        if args.json:
            print(json.dumps(rack or (results if len(results) > 1 else results[0]), ensure_ascii=False))
        else:
            print("\n".join([render_recognition(r) for r in results] + ([render_rack(rack)] if rack else [])))
        return 0
    tiles = " ".join(getattr(args, "tiles", []) or [])
    if command in ("check", "opening", "meld"):
        _need_indicator(args)
    if command == "check":
        extra = {"table": args.table} if args.table else {}
        result = OPERATIONS["check"](_request(args, "check", indicator=args.indicator, tiles=tiles, **extra))
        return _emit(args, result, render_check)
    if command in ("opening", "meld"):
        # The tile games read "tiles" and "indicator", the card games "cards": the same positional text.
        fields = {"tiles": tiles, "cards": tiles}
        if args.indicator is not None:
            fields["indicator"] = args.indicator
        fields.update({name: getattr(args, name) for name in ("highest_so_far", "most_pairs_so_far")
                       if getattr(args, name) is not None})
        result = OPERATIONS[command](_request(args, command, **fields))
        return _emit(args, result, RENDERERS[command])
    if command == "deal":
        if args.dealer < 1 or args.dealer > args.players:
            raise CommandError(f"--dealer {args.dealer} is not a seat: use 1-{args.players}")
        spec = find_game(args.game)
        if spec.deal_tiles is None and (args.dice or args.seed is not None):  # said with the flags' names
            raise CommandError(dealt_without_dice(spec, "--dice and --seed are"))
        fields: dict[str, Any] = {"players": args.players, "dealer": args.dealer - 1, "seed": args.seed}
        if args.dice:
            fields["dice"] = list(args.dice)
        return _emit(args, OPERATIONS["deal"](_request(args, "deal", **fields)), render_deal)
    if command == "score":
        return _emit(args, op_score(_request(args, "score", hand=_read_hand(args.hand))), render_score)
    if command == "options":
        return _emit(args, op_options(_request(args, "options")), render_options)
    if command in OPERATIONS:
        result = OPERATIONS[command](_request(args, command, **dict(args.fields)))
        return _emit(args, result, RENDERERS.get(command, render_any))
    raise CommandError(f"unknown command {command!r}")  # pragma: no cover — argparse rejects it first
