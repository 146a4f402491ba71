"""The HTML pages of the table companion: home (new table, past tables) and language switching.

The table pages live in ``views_table`` (seats, sheet, live updates, PIN, history), ``views_deal`` (the
deal assistant) and ``views_hands`` (wins, 101 hands, the opening checker, photos).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion.rules.options import normalise_game, option_choices, options_for, options_to_dict
from companion.rules.registry import find_game, games
from companion.web import i18n
from companion.web.api import get_store, remember_pin
from companion.web.views_base import csrf_token, event_token, form_int, form_text, html_blueprint, render
from companion.web.views_deal import dice_rng
from companion.web.views_text import (
    PROFILE_LABELS,
    engine_text,
    event_label,
    event_summary,
    record_lines,
    explain,
    game_label,
    table_title,
    option_rows,
    penalty_reason,
)

bp = html_blueprint("pages", __name__)

MAX_PLAYERS = 4
MIN_PLAYERS = 2
MAX_NAME = 24
LANG_COOKIE_AGE = 365 * 24 * 3600

EARLIER_PROFILES = 8
"""How many of the latest tables of the game offer their house rules as a profile."""

TABLE_PROFILE = "table:"
"""Profile values that start a table with the house rules of an earlier table (``table:K7P2Q``)."""


def _profile_options(game: str, profile: str) -> tuple[str, dict[str, Any]]:
    """The profile the store records and the option values it stands for.

    A named profile of the game stands for itself; ``table:<id>`` for that earlier table's rules (the new
    table records them as overrides of the reference rules); anything else for the reference rules.
    """
    if profile in find_game(game).profiles:
        return profile, options_to_dict(options_for(game, profile=profile))
    if profile.startswith(TABLE_PROFILE):
        try:
            earlier = get_store().get(profile.removeprefix(TABLE_PROFILE))
        except LookupError:
            earlier = None
        if earlier is not None and earlier.game == game:
            return "reference", earlier.options_dict
    return "reference", options_to_dict(options_for(game))


def _options_context(game: str, profile: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
    game = normalise_game(game)
    current = _profile_options(game, profile)[1]
    current.update(values or {})
    earlier = [(f"{TABLE_PROFILE}{t.id}", _("Rules of “%(name)s”", name=t.name))
               for t in get_store().list_tables() if t.game == game][:EARLIER_PROFILES]
    return {
        "game": game,
        "profile": profile,
        "profiles": [(name, PROFILE_LABELS.get(name, name)) for name in find_game(game).profiles] + earlier,
        "option_rows": option_rows(option_choices(game), current),
    }


def _home_context(**extra: Any) -> dict[str, Any]:
    store = get_store()
    context: dict[str, Any] = {
        "games": [(spec.id, game_label(spec.id)) for spec in games()],
        "tables": store.list_tables(),
        "known_names": store.known_player_names(),
        "form": {},
        "max_players": MAX_PLAYERS,
    }
    context.update(_options_context(games()[0].id, "reference"))
    context.update(extra)
    return context


@bp.get("/")
def home() -> Response:
    return render("home.html", **_home_context())


@bp.get("/new/options")
def new_table_options() -> Response:
    """The house-rule fieldset for a game and profile (htmx swaps it when either changes)."""
    context = _options_context(request.args.get("game", games()[0].id), request.args.get("profile", "reference"))
    return render("home.html", block="options", **_home_context(**context))


def _submitted_options(game: str) -> dict[str, Any]:
    """The option fields of the form: unchecked boxes are ``False`` (when the rules were on the form at all),
    blank fields keep the profile's value."""
    shown = "options_shown" in request.form
    values: dict[str, Any] = {}
    for name, kind in option_choices(game).items():
        field = f"opt_{name}"
        if kind is bool and shown:
            values[name] = field in request.form
        elif form_text(field):
            values[name] = form_text(field)
    return values


def _players() -> list[str]:
    names = [form_text(f"player{seat}") for seat in range(MAX_PLAYERS)]
    players = [name for name in names if name]
    if len(players) < MIN_PLAYERS:
        raise ValueError(_("Type at least two player names."))
    # a blank seat between names would silently move the later players (and the first dealer) round the table
    if "" in names[:len(players)]:
        raise ValueError(_("Seat %(n)d has no name, but a later seat has one: type a name in seat %(n)d, "
                           "or move the later names up.", n=names.index("") + 1))
    for name in players:
        if len(name) > MAX_NAME:
            raise ValueError(_("The name %(name)r is too long: use at most %(n)d letters.", name=name, n=MAX_NAME))
    if len({name.casefold() for name in players}) != len(players):
        raise ValueError(_("Two players have the same name: add an initial to tell them apart."))
    return players


def _check_player_count(game: str, players: list[str]) -> None:
    """As many names as the game is played by (its registry entry), said in the reader's language."""
    allowed = find_game(game).players
    if len(players) in allowed:
        return
    if len(allowed) == 1:
        raise ValueError(_("%(game)s is played by %(n)d players: type %(n)d names.", game=game_label(game), n=allowed[0]))
    raise ValueError(_("%(game)s is played by %(low)d to %(high)d players.", game=game_label(game),
                       low=min(allowed), high=max(allowed)))


@bp.post("/new")
def new_table() -> Response:
    game = normalise_game(form_text("game", games()[0].id))
    chosen = form_text("profile", "reference")
    profile, profile_values = _profile_options(game, chosen)
    options = _submitted_options(game)
    if profile == "reference" and chosen.startswith(TABLE_PROFILE):
        options = {**profile_values, **options}
    try:
        players = _players()
        _check_player_count(game, players)
        pin = form_text("pin")
        if len(pin) != 4 or not pin.isdigit():
            raise ValueError(_("The PIN must be exactly 4 digits, for example 0427."))
        if form_text("first_dealer") == "random":  # O2.1: the first dealer is chosen at random
            first_dealer = dice_rng().randrange(len(players))
        else:
            first_dealer = form_int("first_dealer", _("The first dealer"), low=0, high=len(players) - 1, default=0)
        table_id = get_store().create_table(
            game=game, players=players, pin=pin, options=options, profile=profile,
            first_dealer=first_dealer, name=form_text("name") or None,
        )
    except ValueError as error:
        context = _home_context(error=engine_text(str(error)), form=request.form,
                                **_options_context(game, chosen, options))
        return render("home.html", status=422, **context)
    remember_pin(table_id)
    return redirect(url_for("table.show", table_id=table_id), 303)


def _safe_next(target: str) -> str:
    """Only same-site paths (never another host) after switching language."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("pages.home")
    return target


@bp.get("/lang")
def set_language() -> Response:
    """Remember the chosen language in a cookie and go back to the page it was chosen on."""
    lang = request.args.get("lang", "")
    response = redirect(_safe_next(request.args.get("next", "/")), 303)
    if lang in i18n.LANGUAGES:
        response.set_cookie(i18n.LANG_COOKIE, lang, max_age=LANG_COOKIE_AGE, samesite="Lax")
    return response


def local_time(stamp: str, *, seconds: bool = False) -> str:
    """A stored UTC time (ISO 8601) as the wall-clock time of the machine the app runs on — the room's.

    >>> len(local_time("2026-11-29T15:51:07+00:00")), len(local_time("2026-11-29T15:51:07+00:00", seconds=True))
    (16, 19)
    >>> local_time("yesterday")
    'yesterday'
    """
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    return moment.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


@bp.get("/favicon.ico")
def favicon() -> Response:
    return redirect(url_for("static", filename="icon.svg"), 301)


PAGE_ERRORS: dict[int, Any] = {
    404: _l("There is no such page here. Check the address, or start from the home page."),
    405: _l("This address cannot be opened like that. Go back and use the page's buttons."),
    413: _l("That is too much to send at once: a form takes at most 64 KB, a photo at most 25 MB."),
}
"""Readable pages for HTTP errors outside the blueprints (an unknown address, a wrong method, a huge body)."""


def _page_error_handler(app: Flask) -> Callable[[HTTPException], Any]:
    """An error handler for :data:`PAGE_ERRORS`: the error page, except under ``/api`` where the API's own
    handler answers with JSON as before."""
    api_handler = app.error_handler_spec[None][None].get(HTTPException)

    def handle(error: HTTPException) -> Any:
        if request.path.startswith("/api") and api_handler is not None:
            return api_handler(error)
        message = str(PAGE_ERRORS.get(error.code or 0, error.name))
        return render("error.html", block="error", status=error.code or 500, message=message)

    return handle


def init_app(app: Flask) -> None:
    """Register the HTML blueprints, languages, the CSRF token and the error pages."""
    from companion.web import views_cards, views_deal, views_hands, views_okey_points, views_rummikub, views_table, views_thai

    i18n.init_i18n(app)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["event_token"] = event_token
    app.jinja_env.globals["on_host"] = views_hands.on_host
    app.jinja_env.globals["game_label"] = game_label
    app.jinja_env.globals["table_title"] = table_title
    app.jinja_env.globals["penalty_reason"] = penalty_reason
    app.jinja_env.globals["event_label"] = event_label
    app.jinja_env.globals["event_summary"] = event_summary
    app.jinja_env.globals["record_lines"] = record_lines
    app.jinja_env.filters["explain"] = explain
    app.jinja_env.filters["local_time"] = local_time
    app.jinja_env.filters["engine_text"] = engine_text
    for blueprint in (bp, views_table.bp, views_deal.bp, views_hands.bp, views_okey_points.bp, views_cards.bp,
                      views_rummikub.bp, views_thai.bp):
        app.register_blueprint(blueprint)
    handler = _page_error_handler(app)
    for code in PAGE_ERRORS:
        app.register_error_handler(code, handler)
