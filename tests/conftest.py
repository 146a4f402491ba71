"""Shared fixtures: an app on a temporary data dir, its test client, and a table store on the same database."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import TableStore
from companion.web import create_app


@pytest.fixture
def app(tmp_path) -> Flask:
    """The app with its data (tables.sqlite, secret key) in a fresh temporary directory."""
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "SECRET_KEY": "test-secret"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def store(tmp_path) -> Iterator[TableStore]:
    """A table store on the same database file as ``app`` (dice rolled by a seeded generator)."""
    with TableStore(tmp_path / "tables.sqlite", rng=random.Random(7)) as opened:
        yield opened
