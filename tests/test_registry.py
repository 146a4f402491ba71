"""The game registry: one entry per game, looked up by name; nothing else asks which game it serves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.rules.errors import InvalidOptionError
from companion.rules.options import options_for
from companion.rules.registry import GameSpec, Templates, event_owners, find_game, games, register
from companion.rules.scoring import score_okey_hand

ROOT = Path(__file__).resolve().parents[1]


def test_games_are_found_by_id_or_alias_in_any_case():
    assert [spec.id for spec in games()][:3] == ["okey", "okey101", "okey_points"]
    assert find_game("OKEY").id == "okey" and find_game("  Düz   Okey ").id == "okey"
    assert find_game("101").id == "okey101" and find_game("okey-101").id == "okey101"
    with pytest.raises(InvalidOptionError, match="unknown game 'tavla'; use one of: okey, okey101, okey_points"):
        find_game("tavla")
    with pytest.raises(InvalidOptionError, match="unknown game 7"):
        find_game(7)  # type: ignore[arg-type]


def test_a_name_belongs_to_one_game_and_reference_rules_override_nothing():
    okey = find_game("okey")
    fields = dict(id="copy", title="Copy", players=(2,), options=okey.options, score_hand=score_okey_hand,
                  standings=okey.standings, sheet="countdown", picker="tiles", templates=Templates("a", "b.c", "d"))
    with pytest.raises(ValueError, match="'101' of 'copy' is already taken by 'okey101'"):
        register(GameSpec(**fields, aliases=("101",)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'reference' profile must exist"):
        register(GameSpec(**fields, profiles={"reference": {"start_points": 3}}))  # type: ignore[arg-type]
    assert "copy" not in [spec.id for spec in games()]


@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.id)
def test_every_entry_is_complete(spec: GameSpec):
    assert spec.hand_event == f"{spec.id}_hand"
    assert spec.sheet in ("countdown", "penalty", "zero_sum", "race") and spec.picker in ("tiles", "cards")
    assert spec.players and all(2 <= n <= 6 for n in spec.players)
    assert list(spec.profiles)[0] == "reference"
    for profile in spec.profiles:
        assert isinstance(options_for(spec.id, profile=profile), spec.options)
    for template in (spec.templates.hand, spec.templates.actions, spec.templates.tools):
        assert template is None or (ROOT / "templates" / template).is_file(), template
    assert len(set(spec.event_types)) == len(spec.event_types)
    assert ("deal" in spec.events) == (spec.deal_tiles is not None)
    assert spec.standings(spec.players[-1], [], options_for(spec.id)).finished is False


def test_an_event_type_names_the_games_that_take_it():
    assert [spec.id for spec in event_owners("gosterme")] == ["okey"]
    assert [spec.id for spec in event_owners("penalty")] == ["okey101"]
    assert {spec.id for spec in event_owners("deal")} >= {"okey", "okey101", "okey_points"}
    assert event_owners("fold") == ()


def test_every_game_has_a_label_in_every_language():
    from babel.messages.pofile import read_po

    from companion.web.i18n import CATALOGUES
    from companion.web.views_text import GAME_LABELS

    for lang in ("tr", "ru", "th"):
        with (Path(CATALOGUES) / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            translated = {message.id for message in read_po(po) if message.string}
        for spec in games():
            assert spec.id in GAME_LABELS, spec.id
            assert GAME_LABELS[spec.id]._args[0] in translated, (lang, spec.id)


GAME_BRANCH = re.compile(r"""(==|!=|\bin)\s*\(?["'](okey|okey101|okey_points)["']|isinstance\([^)]*(Okey|Okey101)Options""")


@pytest.mark.parametrize("path", [
    "companion/tables.py", "companion/store.py", "companion/cli.py", "companion/rules/deal.py",
    "companion/rules/options.py", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "companion/web").glob("*.py")),
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "templates").rglob("*.html")),
])
def test_no_if_game_branches_outside_the_games(path: str):
    """The reducer, the store, the command line, the pages and the exports read the registry."""
    source = (ROOT / path).read_text(encoding="utf-8")
    assert not GAME_BRANCH.findall(source), path


def test_a_game_operation_is_a_batch_op_and_a_command(monkeypatch, capsys):
    """An op in an entry's ``ops`` answers batch requests and gets a command with FIELD=VALUE arguments (the toy's
    op is one no real game answers: a request without a game goes to the first game offering it)."""
    from dataclasses import replace

    from companion import cli
    from companion.rules import registry

    def puzzle(request, options):
        return {"explain": [f"solved {request['rack']} for {request['game']}"], "wrap": options.wrap_13_1}

    toy = replace(find_game("okey"), id="toy", title="Toy", aliases=(), ops={"puzzle": puzzle})
    monkeypatch.setitem(registry._GAMES, "toy", toy)
    monkeypatch.setitem(registry._NAMES, "toy", "toy")
    monkeypatch.setitem(cli.OPERATIONS, "puzzle", cli.game_op("puzzle"))
    assert cli.answer({"op": "puzzle", "rack": "R1", "options": {"wrap_13_1": False}}) == {
        "explain": ["solved R1 for toy"], "wrap": False}
    assert "Okey has no 'puzzle' operation; it answers: check, deal, options, score" in cli.answer(
        {"op": "puzzle", "game": "okey", "rack": "R1"})["error"]
    assert cli.main(["puzzle", "rack=R1 R2", "-o", "wrap_13_1=false"]) == 0
    assert capsys.readouterr().out.strip() == "solved R1 R2 for toy"
    assert cli.main(["puzzle", "--json", "rack=R3"]) == 0
    assert '"wrap": true' in capsys.readouterr().out
