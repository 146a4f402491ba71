"""One headless Chromium for every end-to-end test (each test opens its own context: its own cookies)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e.live import chromium


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    pytest.importorskip("playwright.sync_api")
    with chromium() as launched:
        yield launched
