"""Every game the registry finds passes the conformance suite (`tavola.testing`)."""

from __future__ import annotations

import pytest

from tavola.kit import GameKit
from tavola.testing import CHECKS, Check, every_game


@pytest.mark.parametrize("check", CHECKS.values(), ids=list(CHECKS))
@pytest.mark.parametrize("kit", every_game(), ids=lambda kit: kit.name)
def test_every_game_conforms(kit: GameKit, check: Check) -> None:
    check(kit)
