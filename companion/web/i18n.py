"""Languages of the web app: Flask-Babel wiring, catalogue compilation and locale-aware text filters.

Only the gettext ``.po`` catalogues are committed (``companion/translations/<lang>/LC_MESSAGES``).
A wheel carries them compiled (``messages.mo`` beside each ``.po``, built by ``setup.py``) and
Flask-Babel reads them in place; a source checkout has no ``.mo``, so :func:`compile_catalogues` turns
the ``.po`` files into ``.mo`` files under ``<DATA_DIR>/translations`` when the app starts.

The language is the ``lang`` cookie if set (the switcher in the page footer), else the best match of
``Accept-Language``, else English.

Turkish casing needs care: ``"i".upper()`` is ``"I"`` in Python but ``"İ"`` in Turkish.

>>> upper_for("tr", "gösterge ıstaka")
'GÖSTERGE ISTAKA'
>>> upper_for("tr", "bitiş"), upper_for("en", "bitiş")
('BİTİŞ', 'BITIŞ')
>>> lower_for("tr", "IŞIK İÇİN")
'ışık için'
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, request
from flask_babel import Babel, get_locale

from companion.resources import source_checkout, translations_dir

CATALOGUES = translations_dir()

LANGUAGES: dict[str, str] = {"en": "English", "tr": "Türkçe", "ru": "Русский", "th": "ไทย"}
"""Language code → the language's own name (shown in the switcher)."""

LANG_COOKIE = "lang"

_DOTTED_CASING = {"tr", "az"}


def _dotted(locale: str) -> bool:
    return locale.split("_")[0].split("-")[0].lower() in _DOTTED_CASING


def upper_for(locale: str, text: str) -> str:
    """``text`` in capitals by the rules of ``locale`` (Turkish and Azeri keep the dot: i → İ, ı → I)."""
    if _dotted(locale):
        text = text.replace("i", "İ")
    return text.upper()


def sentence_for(locale: str, text: str) -> str:
    """``text`` with a capital first letter, by the rules of ``locale``.

    >>> sentence_for("en", "the 14 tiles"), sentence_for("tr", "ışık"), sentence_for("tr", "iki")
    ('The 14 tiles', 'Işık', 'İki')
    """
    return upper_for(locale, text[:1]) + text[1:]


def lower_for(locale: str, text: str) -> str:
    """``text`` in small letters by the rules of ``locale`` (Turkish: I → ı, İ → i)."""
    if _dotted(locale):
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def current_language() -> str:
    """The language code of the current request (``en`` outside a request)."""
    locale = get_locale()
    return locale.language if locale is not None else "en"


def select_language() -> str:
    """Flask-Babel's locale selector: the ``lang`` cookie, else ``Accept-Language``, else English."""
    chosen = request.cookies.get(LANG_COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def compile_catalogues(source: Path, target: Path) -> Path:
    """Compile every ``<lang>/LC_MESSAGES/messages.po`` under ``source`` into ``.mo`` files under ``target``.

    A catalogue is recompiled only when its ``.po`` is newer than the ``.mo``.  Returns ``target``.
    """
    for po_path in sorted(source.glob("*/LC_MESSAGES/messages.po")):
        mo_path = target / po_path.relative_to(source).with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        with po_path.open("rb") as po_file:
            catalogue = read_po(po_file, locale=po_path.parent.parent.name)
        tmp = mo_path.with_suffix(".mo.tmp")
        with tmp.open("wb") as mo_file:
            write_mo(mo_file, catalogue)
        tmp.replace(mo_path)
    return target


def shipped_catalogues(source: Path) -> bool:
    """Whether every ``.po`` under ``source`` has a compiled ``.mo`` beside it (as in a wheel)."""
    catalogues = list(source.glob("*/LC_MESSAGES/messages.po"))
    return bool(catalogues) and all(po.with_suffix(".mo").is_file() for po in catalogues)


def init_i18n(app: Flask) -> None:
    """Find the compiled catalogues (or compile them into the data dir), start Flask-Babel, add the filters."""
    if source_checkout() is None and shipped_catalogues(CATALOGUES):
        compiled = CATALOGUES
    else:
        try:
            compiled = compile_catalogues(CATALOGUES, Path(app.config["DATA_DIR"]) / "translations")
        except OSError:  # a read-only data dir: the tables can still be read, in every language
            compiled = compile_catalogues(CATALOGUES, Path(tempfile.mkdtemp(prefix="okey-companion-translations-")))
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=select_language)
    app.jinja_env.filters["upper_l"] = lambda text: upper_for(current_language(), str(text))
    app.jinja_env.filters["sentence"] = lambda text: sentence_for(current_language(), str(text))
    app.jinja_env.filters["lower_l"] = lambda text: lower_for(current_language(), str(text))
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["current_language"] = current_language
