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

MAX_UPLOAD_BYTES = 16 * 1024 * 1024


def default_data_dir() -> Path:
    """Where tables live unless ``--data-dir`` says otherwise: ``$OKEY_COMPANION_DATA`` or ``~/.okey-companion``."""
    return Path(os.environ.get("OKEY_COMPANION_DATA", Path.home() / ".okey-companion"))


def _secret_key(data_dir: Path) -> str:
    """A per-installation secret kept in the data dir, so PIN cookies survive a restart."""
    path = data_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory.  ``test_config`` overrides settings (``DATA_DIR``, ``TESTING`` …)."""
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.config.from_mapping(DATA_DIR=str(default_data_dir()), MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES)
    if test_config:
        app.config.update(test_config)
    data_dir = Path(app.config["DATA_DIR"])
    data_dir.mkdir(parents=True, exist_ok=True)
    app.config.setdefault("DATABASE", str(data_dir / "tables.sqlite"))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(data_dir)

    from companion.web import api, pages, rulebook

    api.init_app(app)
    pages.init_app(app)
    rulebook.init_app(app)
    return app
