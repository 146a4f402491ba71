"""The rule book in the app (issue 13): ``/rules`` renders docs/rules.md with an anchor per rule id, and a
rule id cited on a page links to its paragraph (``/rules#H4``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.store import TableStore
from companion.web import rulebook
from companion.web.rulebook import link_rule_ids, rule_book

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "rules-token"
EMPTY_ANCHOR_PARAGRAPH = re.compile(r'<p>\s*(?:<a id="[^"]+"></a>\s*)+</p>')

PLACEHOLDER = """# A small rule book

<a id="okey"></a>
## Okey

<a id="O1"></a>
### O1 Tiles

Two of each tile.

<a id="O2"></a>
### O2 Deal

<a id="O2.1"></a>
1. **O2.1 Stacks.** Build 21 stacks.

<a id="O2.2"></a>
2. **O2.2 First roll.** Roll a die
   and count.

| option | default | rule |
|---|---|---|
| `wrap_13_1` | `true` | O4 |
| `quick_deal` | `false` | O2.6 |
"""


@pytest.fixture
def placeholder(tmp_path: Path) -> Path:
    path = tmp_path / "rules.md"
    path.write_text(PLACEHOLDER, encoding="utf-8")
    return path


def test_anchors_sit_in_their_headings_and_list_items(placeholder: Path) -> None:
    html, anchors = rule_book(placeholder)
    assert anchors == {"okey", "O1", "O2", "O2.1", "O2.2"}
    assert '<h3><a id="O1"></a>O1 Tiles</h3>' in html and '<h2><a id="okey"></a>Okey</h2>' in html
    assert not EMPTY_ANCHOR_PARAGRAPH.search(html), "no empty paragraph around an anchor"
    items = re.findall(r"<li>\s*(?:<p>)?(.*?)</li>", str(html), re.S)
    assert len(items) == 2 and html.count("<ol>") == 1, "O2.1 and O2.2 stay one numbered list"
    assert items[0].startswith('<a id="O2.1"></a><strong>O2.1 Stacks.</strong>')
    assert "<table>" in html and "<code>wrap_13_1</code>" in html
    assert "<td>O4</td>" in html, "O4 has no anchor in this book: no link"
    assert '<td><a href="#O2">O2.6</a></td>' in html


def test_the_rule_book_is_re_read_when_it_changes(placeholder: Path) -> None:
    import os

    first, _ = rule_book(placeholder)
    placeholder.write_text(PLACEHOLDER.replace("Two of each tile.", "Two of every tile."), encoding="utf-8")
    stat = placeholder.stat()
    os.utime(placeholder, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert "Two of every tile." in rule_book(placeholder)[0] and first != rule_book(placeholder)[0]


ANCHORS = {"H1", "H4", "H7", "O2", "O4", "O6", "R5"}


@pytest.mark.parametrize(("text", "linked"), [
    ("Player 1 won: every opponent loses 2 (O6).", ["O6"]),
    ("Does not open (H4, O4).", ["H4", "O4"]),
    ("runs may not wrap (12-13-1 is off, H1)", ["H1"]),
    ("the die is rolled again (O2.3)", ["O2"]),
    ("Eşi bitirdi (H7).", ["H7"]),
    ("a Rummikub joker may be taken back (R5)", ["R5"]),
    ("an id without an anchor in the book (R9)", []),
    ("tiles such as (e.g. R4)", []),
    ("tiles (R5, K13, F)", []),
    ("tiles (K13, R5)", []),
    ("H4 without parentheses, or R5 as a tile", []),
])
def test_rule_ids_in_parentheses_link_to_their_paragraph(text: str, linked: list[str]) -> None:
    html = str(link_rule_ids(text, ANCHORS))
    assert re.findall(r'href="/rules#([^"]+)"', html) == linked
    assert re.sub(r"<[^>]+>", "", html) == text.replace("&", "&amp;")


def test_linking_escapes_the_text() -> None:
    assert str(link_rule_ids("<script>x</script> (H4)", ANCHORS)) == \
        '&lt;script&gt;x&lt;/script&gt; (<a class="rule" href="/rules#H4">H4</a>)'


def test_rules_page_shows_every_rule_of_the_book(client: FlaskClient) -> None:
    response = client.get("/rules")
    assert response.status_code == 200
    book = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    wanted = re.findall(r'<a id="([^"]+)"></a>', book)
    assert {"O5", "H6", "R4", "M3", "T5", "D6"} <= set(wanted)
    for anchor in wanted:
        assert f'<a id="{anchor}"></a>' in response.text, anchor
    assert not EMPTY_ANCHOR_PARAGRAPH.search(response.text)
    assert "written in English" not in response.text


def test_rules_page_in_another_language_says_the_book_is_english(client: FlaskClient) -> None:
    client.set_cookie("lang", "tr")
    page = client.get("/rules").text
    assert "Kural kitabı İngilizce yazılmıştır." in page and '<article class="rulebook" lang="en">' in page


def test_every_page_links_the_rule_book(client: FlaskClient) -> None:
    assert 'href="/rules"' in client.get("/").text


def test_a_missing_rule_book_says_so(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "rule_book_path", lambda: None)
    response = client.get("/rules")
    assert response.status_code == 200 and "The rule book is missing from this installation" in response.text
    assert rulebook.rule_anchors() == frozenset()
    assert str(link_rule_ids("(H4)")) == "(H4)", "no book, no links"


def test_H4_verdict_on_a_page_links_to_the_rule(client: FlaskClient, store: TableStore) -> None:
    table = store.create_table(game="okey101", players=["Ali", "Can", "Eda"], pin="1234")
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
        session["pins"] = {table: True}
    response = client.post(f"/t/{table}/opening",
                           data={"csrf_token": TOKEN, "melds": "R1 R2 R3", "indicator": "B2"})
    assert 'at least 101 needed (<a class="rule" href="/rules#H4">H4</a>)' in response.text


def test_explanations_on_the_sheet_link_their_rules(app, client: FlaskClient) -> None:
    from companion.rules.explain import Explanation

    line = Explanation("unknown.key", {}, "Player 1 pays +101 for a discarded okey (H7).")
    with app.test_request_context():
        html = str(app.jinja_env.filters["explain"](line, ["Ali", "Can"]))
        assert html == 'Ali pays +101 for a discarded okey (<a class="rule" href="/rules#H7">H7</a>).'
        assert str(app.jinja_env.filters["engine_text"]("a <b> (O4)")) == \
            'a &lt;b&gt; (<a class="rule" href="/rules#O4">O4</a>)'
