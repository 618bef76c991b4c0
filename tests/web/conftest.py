"""Fixtures for the web tests: one server process per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_server import Server, launch


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("web") / "games.db")
    yield srv
    srv.stop()
