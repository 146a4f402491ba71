"""Build step of the wheel: map the top-level source folders into the packages, compile the translations.

Everything else is in ``pyproject.toml``.  The design card keeps ``templates/``, ``models/`` and ``docs/``
at the top of the repository; a wheel can only carry packages, so ``build_py`` copies

    templates/**        → companion/templates/
    docs/rules.md       → companion/docs/rules.md
    models/* (files)    → vision/models/          (whatever models and cards are there)

and compiles ``companion/translations/*/LC_MESSAGES/messages.po`` into ``messages.mo`` beside them.
At run time :mod:`companion.resources` and :mod:`vision.recognizer` find them through importlib.resources.
An editable install (``pip install -e .``) copies nothing: it reads the top-level folders directly.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

MAPPED = (
    # (source folder, glob, target inside the build)
    ("templates", "**/*.html", "companion/templates"),
    ("docs", "rules.md", "companion/docs"),
    ("models", "*", "vision/models"),
)


def compile_catalogues(translations: Path) -> list[Path]:
    """Compile every ``messages.po`` under ``translations`` into ``messages.mo`` beside it (needs Babel)."""
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # the app compiles them into its data dir at start-up instead
        print("warning: Babel is not installed: the translations are compiled when the app starts")
        return []
    written = []
    for po_path in sorted(translations.glob("*/LC_MESSAGES/messages.po")):
        with po_path.open("rb") as po_file:
            catalogue = read_po(po_file, locale=po_path.parent.parent.name)
        mo_path = po_path.with_suffix(".mo")
        with mo_path.open("wb") as mo_file:
            write_mo(mo_file, catalogue)
        written.append(mo_path)
    return written


class BuildPy(build_py):
    """``build_py`` plus the mapped folders and the compiled catalogues (not in editable mode)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        build = Path(self.build_lib)
        for source, pattern, target in MAPPED:
            destination = build / target
            if destination.exists():  # never ship a file that was deleted from the source
                shutil.rmtree(destination)
            for path in sorted((ROOT / source).glob(pattern)):
                if path.is_file() and not path.name.startswith("."):
                    copied = destination / path.relative_to(ROOT / source)
                    copied.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, copied)
        for mo_path in build.glob("companion/translations/*/LC_MESSAGES/messages.mo"):
            mo_path.unlink()
        compile_catalogues(build / "companion" / "translations")


setup(cmdclass={"build_py": BuildPy})
