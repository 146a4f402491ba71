"""The end-of-hand route factory (``companion/web/hand_form.py``): each game's form gets the same three routes,
and a game wired with a missing or mismatched piece is refused when its module is imported."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flask import Blueprint, Flask

from companion.rules.registry import find_game
from companion.web.hand_form import hand_form_routes


def _fill(record):
    return {}


def _read(state):
    return {}


def test_the_routes_are_the_endpoint_the_registry_names():
    game = replace(find_game("rummikub"), templates=replace(find_game("rummikub").templates, form="toy.hand"))
    bp = Blueprint("toy", __name__, url_prefix="/t")
    hand_form_routes(bp, game, "toy", read=_read, fill=_fill)
    app = Flask(__name__)
    app.register_blueprint(bp)
    assert sorted((rule.endpoint, rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"}))
                  for rule in app.url_map.iter_rules() if rule.endpoint.startswith("toy.")) == [
        ("toy.hand", "/t/<table_id>/toy", ["GET"]),
        ("toy.hand_check", "/t/<table_id>/toy/check", ["POST"]),
        ("toy.hand_record_post", "/t/<table_id>/toy", ["POST"]),
    ]


def test_a_blueprint_other_than_the_registry_entry_names_is_refused():
    with pytest.raises(ValueError, match=r"endpoint toy\.hand, but its registry entry names 'rummikub\.hand'"):
        hand_form_routes(Blueprint("toy", __name__), find_game("rummikub"), "toy", read=_read, fill=_fill)


def test_a_missing_reader_or_filler_is_refused():
    game = find_game("okey_points")
    with pytest.raises(TypeError, match="the hand form of okey_points needs read"):
        hand_form_routes(Blueprint("okey_points", __name__), game, "points", read=None, fill=_fill)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs read.state. and fill.record."):
        hand_form_routes(Blueprint("okey_points", __name__), game, "points", read=_read, fill=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["okey_points", "rummikub", "thai"])
def test_each_game_form_has_its_three_routes(app, game):
    form = find_game(game).templates.form
    endpoints = {rule.endpoint: rule for rule in app.url_map.iter_rules()}
    blueprint = form.split(".")[0]
    page, check, post = endpoints[form], endpoints[f"{blueprint}.hand_check"], endpoints[f"{blueprint}.hand_record_post"]
    assert page.methods >= {"GET"} and check.methods >= {"POST"} and post.methods >= {"POST"}
    assert check.rule == f"{page.rule}/check" and post.rule == page.rule
