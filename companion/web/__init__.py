"""The Flask app: ``create_app`` wires the blueprints, the table store and long-lived objects."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from companion.resources import static_dir, templates_dir

TEMPLATES = templates_dir()
STATIC = static_dir()

MAX_UPLOAD_BYTES = 25 * 1024 * 1024 + 64 * 1024
"""A photo of up to 25 MB (vision.imageio.MAX_BYTES: a phone's 50 MP photo, 10-20 MB) and the form around it."""


def default_data_dir() -> Path:
    """Where tables live unless ``--data-dir`` says otherwise: ``$OKEY_COMPANION_DATA`` or ``~/.okey-companion``."""
    return Path(os.environ.get("OKEY_COMPANION_DATA", Path.home() / ".okey-companion"))


class DataDirError(ValueError):
    """The data dir (or a file in it) cannot be created, read or written: the message says which and why."""


def _private_dir(data_dir: Path) -> None:
    """Create the data dir readable by this user only (0700): the database holds the PIN hashes."""
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise DataDirError(
            f"cannot create the data dir {str(data_dir)!r}: {error.strerror or error}; "
            "choose a writable folder with --data-dir"
        ) from None
    if not data_dir.is_dir():
        raise DataDirError(f"the data dir {str(data_dir)!r} is not a folder: choose another with --data-dir")


def _secret_key(data_dir: Path) -> str:
    """A per-installation secret kept in the data dir, so PIN cookies survive a restart.

    A new key is written to a file created 0600 (never readable by others, not even for a moment).
    """
    path = data_dir / "secret_key"
    key = secrets.token_hex(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_secret_key(path)
    except OSError as error:
        raise DataDirError(
            f"cannot write the secret key {str(path)!r}: {error.strerror or error}; "
            "choose a writable folder with --data-dir"
        ) from None
    with os.fdopen(descriptor, "w") as out:
        out.write(key)
    return key


def _read_secret_key(path: Path) -> str:
    try:
        key = path.read_text().strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise DataDirError(
            f"cannot read the secret key {str(path)!r}: {reason}; make it readable by this user "
            "(chmod 600), or delete it to make a new one (browsers then enter the PIN again)"
        ) from None
    if not key:
        raise DataDirError(
            f"the secret key {str(path)!r} is empty: delete it to make a new one (browsers then enter the PIN again)"
        )
    return key


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory.  ``test_config`` overrides settings (``DATA_DIR``, ``TESTING`` …)."""
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.config.from_mapping(DATA_DIR=str(default_data_dir()), MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES)
    if test_config:
        app.config.update(test_config)
    data_dir = Path(app.config["DATA_DIR"])
    _private_dir(data_dir)
    app.config.setdefault("DATABASE", str(data_dir / "tables.sqlite"))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(data_dir)

    from companion.web import api, kiosk, pages, rulebook
    from companion.web.security import init_security

    init_security(app)
    api.init_app(app)
    pages.init_app(app)
    rulebook.init_app(app)
    kiosk.init_app(app)
    return app
