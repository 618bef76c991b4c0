"""Fixtures for the web tests: one server process and one Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browsers import ARGS, CHROMIUM, require_browser, sync_api
from web_server import Server, launch


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("web") / "games.db")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (see `browsers`), one per module."""
    require_browser()
    assert sync_api is not None and CHROMIUM is not None
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
