"""Where the app's own files are: in the installed package (a wheel) or in the source checkout.

The design card keeps ``templates/``, ``models/`` and ``docs/`` at the top of the repository.  A wheel
cannot install top-level folders, so the build step (``setup.py``) maps them into the packages:
``templates/`` → ``companion/templates``, ``docs/rules.md`` → ``companion/docs/rules.md`` and
``models/*`` → ``vision/models`` (see :mod:`vision.recognizer`).  The translations are compiled into
``companion/translations/<lang>/LC_MESSAGES/messages.mo`` at the same time.

A source checkout (an editable install, or ``PYTHONPATH``) is recognised by the ``pyproject.toml`` beside
the package, and its top-level folders win; otherwise the copies inside the installed package are used,
found through :mod:`importlib.resources`.

>>> templates_dir().joinpath("base.html").is_file()
True
>>> static_dir().joinpath("app.css").is_file()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGE = "companion"


class ResourceError(RuntimeError):
    """The package's files cannot be found (a broken or zipped installation)."""


def package_root() -> Path:
    """The installed ``companion`` package folder."""
    root = resources.files(PACKAGE)
    if not isinstance(root, Path):  # a zip import: Flask and onnxruntime need real files
        raise ResourceError(f"the companion package is not a plain folder ({root}): a folder called 'companion' in "
                            "the current directory can hide it (run from another directory), or it was installed "
                            "as a zip (install the wheel with pip)")
    return root


def source_checkout() -> Path | None:
    """The repository folder when the code runs from a source checkout, else ``None``."""
    top = package_root().parent
    return top if (top / "pyproject.toml").is_file() and (top / "templates").is_dir() else None


def _shipped(source_relative: str, packaged_relative: str) -> Path:
    checkout = source_checkout()
    if checkout is not None:
        return checkout / source_relative
    path = package_root() / packaged_relative
    if not path.exists():
        raise ResourceError(f"{path} is missing from the installed package: reinstall okey-companion "
                            "(pip install --force-reinstall okey-companion)")
    return path


def templates_dir() -> Path:
    """The Jinja templates (``templates/`` of the checkout, ``companion/templates`` in a wheel)."""
    return _shipped("templates", "templates")


def static_dir() -> Path:
    """CSS, JavaScript and icons (``companion/static`` in both)."""
    return package_root() / "static"


def translations_dir() -> Path:
    """The gettext catalogues: ``<lang>/LC_MESSAGES/messages.po`` (and ``.mo`` in a wheel)."""
    return package_root() / "translations"


def rule_book_path() -> Path | None:
    """The rule book ``docs/rules.md``, or ``None`` when it is not there."""
    checkout = source_checkout()
    path = checkout / "docs" / "rules.md" if checkout is not None else package_root() / "docs" / "rules.md"
    return path if path.is_file() else None
