"""The rule book page (``/rules``): ``docs/rules.md`` rendered, and rule ids in page text linked to it.

``docs/rules.md`` puts ``<a id="O5"></a>`` on the line before each rule's heading or list item; the page
keeps those anchors, so ``/rules#O5`` opens rule O5.  The book is written in English; the page around it
follows the visitor's language.

:func:`link_rule_ids` turns the rule ids that a text cites in parentheses — ``(H4)``, ``(H4, O4)``,
``(runs 12-13-1 are off, H1)``, ``(O2.3)`` — into links, but only ids the book has an anchor for, and
never tile codes: ``(e.g. R4)`` and ``(R5, K13, F)`` are tiles and stay as they are.

>>> anchors = {"H1", "H4", "O4", "O2", "R5"}
>>> str(link_rule_ids("Does not open (H4, O4).", anchors))
'Does not open (<a class="rule" href="/rules#H4">H4</a>, <a class="rule" href="/rules#O4">O4</a>).'
>>> str(link_rule_ids("runs may not wrap (12-13-1 is off, H1)", anchors))
'runs may not wrap (12-13-1 is off, <a class="rule" href="/rules#H1">H1</a>)'
>>> str(link_rule_ids("a false okey goes back (O2.3)", anchors))
'a false okey goes back (<a class="rule" href="/rules#O2">O2.3</a>)'
>>> str(link_rule_ids("tiles (R5, K13, F) and (e.g. R4) and (K13, R5) & <b>", anchors))
'tiles (R5, K13, F) and (e.g. R4) and (K13, R5) &amp; &lt;b&gt;'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, render_template
from markupsafe import Markup, escape

from companion.resources import rule_book_path

bp = Blueprint("rulebook", __name__)

ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
_RULE_ID = re.compile(r"[OHRMTD][1-9][0-9]?(?:\.[1-9][0-9]?)?")
_TILE = re.compile(r"(?:[RYBK](?:1[0-3]|[1-9])|F|J)")
_GROUP = re.compile(r"\(([^()]*)\)")
# An anchor alone on the line above a list item goes into the item, so the list stays one list.
_ANCHOR_BEFORE_ITEM = re.compile(r'^(<a id="[^"]+"></a>)[ \t]*\n([ \t]*(?:\d+\.|[-*+])[ \t]+)', re.M)
_RULE_CELL = re.compile(r"<td>([OHRMTD][1-9][0-9]?(?:\.[1-9][0-9]?)?)</td>")
_ANCHOR_PARAGRAPH = re.compile(r'<p>((?:<a id="[^"]+"></a>\s*)+)</p>\s*<(h[1-6])>')


@functools.lru_cache(maxsize=4)
def _render(path: Path, mtime_ns: int) -> tuple[Markup, frozenset[str]]:
    import markdown

    text = path.read_text(encoding="utf-8")
    text = _ANCHOR_BEFORE_ITEM.sub(r"\2\1", text)
    html = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    html = _ANCHOR_PARAGRAPH.sub(lambda m: f"<{m.group(2)}>{m.group(1).strip()}", html)
    anchors = frozenset(ANCHOR.findall(text))

    def cell(match: re.Match[str]) -> str:  # the "rule" column of the option tables links its rule
        target = _anchor_for(match.group(1), anchors)
        return f'<td><a href="#{target}">{match.group(1)}</a></td>' if target else match.group(0)

    html = _RULE_CELL.sub(cell, html)
    return Markup(html), anchors


@functools.lru_cache(maxsize=2)
def _book_path(find: Callable[[], Path | None]) -> Path | None:
    """Where the rule book is, found once per finder (finding it looks at the file system, and every row
    of the sheet asks)."""
    return find()


def rule_book(path: Path | None = None) -> tuple[Markup, frozenset[str]]:
    """The rule book as HTML and the set of its anchors (empty when there is no rule book)."""
    path = path or _book_path(rule_book_path)
    if path is None:
        return Markup(""), frozenset()
    return _render(path, path.stat().st_mtime_ns)


def rule_anchors() -> frozenset[str]:
    """The anchor ids of the rule book (``O5``, ``O2.3``, ``okey-options`` …)."""
    return rule_book()[1]


def _anchor_for(rule_id: str, anchors: frozenset[str] | set[str]) -> str | None:
    if rule_id in anchors:
        return rule_id
    main = rule_id.split(".")[0]
    return main if main in anchors else None


def link_rule_ids(text: str, anchors: frozenset[str] | set[str] | None = None) -> Markup:
    """``text`` escaped, with the rule ids it cites in parentheses linked to ``/rules#ID``."""
    anchors = rule_anchors() if anchors is None else anchors
    escaped = str(escape(text))

    def group(match: re.Match[str]) -> str:
        items = match.group(1).split(", ")
        linked = list(items)
        index = len(items)
        while index > 0 and _RULE_ID.fullmatch(items[index - 1]) and _anchor_for(items[index - 1], anchors):
            index -= 1
        if index == len(items) or (index > 0 and _TILE.fullmatch(items[index - 1])):
            return match.group(0)  # no rule id, or a list of tiles such as (K13, R5)
        for position in range(index, len(items)):
            anchor = _anchor_for(items[position], anchors)
            linked[position] = f'<a class="rule" href="/rules#{anchor}">{items[position]}</a>'
        return "(" + ", ".join(linked) + ")"

    return Markup(_GROUP.sub(group, escaped))


@bp.get("/rules")
def show() -> str:
    """The whole rule book on one page; each rule's anchor is its id."""
    html, _ = rule_book()
    return render_template("rules.html", book=html)


def _linking(text_filter: Callable[..., Any]) -> Callable[..., Markup]:
    @functools.wraps(text_filter)
    def linked(value: Any, *args: Any) -> Markup:
        return link_rule_ids(str(text_filter(value, *args)))

    return linked


def init_app(app: Flask) -> None:
    """Register ``/rules`` and the ``rule_links`` filter; the pages' ``explain`` and ``engine_text`` filters
    (registered before, by :mod:`companion.web.pages`) get their rule ids linked too."""
    app.register_blueprint(bp)
    app.jinja_env.filters["rule_links"] = link_rule_ids
    for name in ("explain", "engine_text"):
        if name in app.jinja_env.filters:
            app.jinja_env.filters[name] = _linking(app.jinja_env.filters[name])
