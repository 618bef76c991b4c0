"""The conformance suite: the properties every game on the platform has, one check each.

Each check takes a game's kit (`tavola.kit.GameKit`) and a seed, plays random games through
the `Game` interface only, and raises `ConformanceError` (an AssertionError) naming the game
and what broke. A game's own tests run them all over the games the registry finds:

    import pytest
    from tavola.testing import CHECKS, every_game

    @pytest.mark.parametrize("check", CHECKS.values(), ids=list(CHECKS))
    @pytest.mark.parametrize("kit", every_game(), ids=lambda kit: kit.name)
    def test_conformance(kit, check):
        check(kit)

or, without pytest, `python -m tavola.testing [NAME...]`. Nothing here imports pytest; the
learning environments' check needs PettingZoo (the `rl` extra) for games with an encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .. import registry
from ..kit import GameKit
from .play import ConformanceError
from .rules import (
    check_actions_round_trip,
    check_apply_is_pure,
    check_clone_is_independent,
    check_pickling_round_trip,
    check_random_games_end,
    check_records_replay,
)
from .secrecy import check_secrets_stay_hidden
from .surfaces import check_learning_environments, check_web_side
from .words import check_text_in_every_language

Check = Callable[[GameKit], None]

#: Every check by a short name, cheapest first.
CHECKS: dict[str, Check] = {
    "random-games-end": check_random_games_end,
    "apply-is-pure": check_apply_is_pure,
    "clone-is-independent": check_clone_is_independent,
    "actions-round-trip": check_actions_round_trip,
    "pickling-round-trip": check_pickling_round_trip,
    "records-replay": check_records_replay,
    "secrets-stay-hidden": check_secrets_stay_hidden,
    "text-in-every-language": check_text_in_every_language,
    "web-side": check_web_side,
    "learning-environments": check_learning_environments,
}


def every_game() -> list[GameKit]:
    """The kit of every game the registry finds (ours and installed ones), default first."""
    return [registry.kit(name) for name in registry.available()]


def game_names(*parts: str) -> list[str]:
    """The name of every game the registry finds whose kit declares each part named (`site`,
    `tutorial`, `encoding`...), for parametrizing tests by name."""
    return [kit.name for kit in every_game() if all(getattr(kit, p) is not None for p in parts)]


def failures(kit: GameKit, checks: dict[str, Check] | None = None) -> Iterator[str]:
    """The message of each check the game fails."""
    for check in (checks or CHECKS).values():
        try:
            check(kit)
        except ConformanceError as exc:
            yield str(exc)


__all__ = ["CHECKS", "ConformanceError", "every_game", "failures", "game_names",
           *[check.__name__ for check in CHECKS.values()]]
