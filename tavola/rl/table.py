"""One game played by action indices: the core every environment shares (numpy only).

The table keeps the full state, but a seat's observation, mask and legal actions are made from
that seat's view (`Game.view`), so nothing secret can reach it. Chance comes from the state's
own generator, seeded by `Game.new_game`: the same seed and indices replay the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..game import Game, IllegalAction
from ..registry import get, kit
from .encoding import Encoding

#: How a finished game pays each seat (nothing is paid before the end).
REWARDS = {
    "score": "final points minus the best final points of the other seats",
    "win": "+1 for a seat ranked first (after the game's tie-breaks), -1 for the others",
}


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def game_of(game: str | Game) -> Game:
    return get(game) if isinstance(game, str) else game


def encoding_of(game: Game) -> Callable[[Any], Encoding]:
    """The game's fixed-size spaces, as its kit declares them (`GameKit.encoding`: for games
    like a position's, its board, its most seats); ValueError for a game without."""
    part = kit(game.info.name).encoding
    if part is None:
        raise ValueError(f"{game.info.title} cannot be played by the learning environments: "
                         "it declares no encoding")
    encoding: Callable[[Any], Encoding] = part.load()
    return encoding


class Table:
    """A game, its state, and what each seat observes and may do, as arrays and indices."""

    def __init__(self, game: str | Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None, reward: str = "score") -> None:
        self.game = game_of(game)
        self.players = players or self.game.info.default_players
        self.game.info.check_players(self.players)
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose from {', '.join(REWARDS)}")
        self.reward = reward
        self.options = dict(options or {})
        self.names = [agent_name(s) for s in range(self.players)]
        self.reset(0)
        self.encoding: Encoding = encoding_of(self.game)(self.state)

    def reset(self, seed: int | None) -> None:
        self.state = self.game.new_game(self.names, seed, self.options)
        self.moves = 0
        self._known: dict[int, tuple[int, Any, Sequence[Any], np.ndarray]] = {}

    @property
    def over(self) -> bool:
        return bool(self.state.is_over)

    def movers(self) -> tuple[int, ...]:
        return tuple(self.state.to_move())

    def view(self, seat: int) -> Any:
        return self._seen(seat)[0]

    def legal(self, seat: int) -> Sequence[Any]:
        """The seat's legal actions, listed from its view."""
        return self._seen(seat)[1]

    def mask(self, seat: int) -> np.ndarray:
        return self._seen(seat)[2]

    def _seen(self, seat: int) -> tuple[Any, Sequence[Any], np.ndarray]:
        """The seat's view, legal actions and mask, made once per move."""
        known = self._known.get(seat)
        if known is None or known[0] != self.moves:
            view = self.game.view(self.state, seat)
            legal = self.game.legal_actions(view, seat)
            known = (self.moves, view, legal, self.encoding.action_mask(view, seat, legal))
            self._known[seat] = known
        return known[1:]

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        view, _, mask = self._seen(seat)
        return {"observation": self.encoding.observe(view, seat), "action_mask": mask.copy()}

    def action(self, seat: int, index: int) -> Any:
        """The legal action at `index` for `seat`; IllegalAction names a closed index."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise IllegalAction("action-index", f"an action is an integer index, not {index!r}")
        try:
            action = self.encoding.action_at(seat, int(index))
        except ValueError as error:
            raise IllegalAction("action-index", str(error)) from None
        if not self.mask(seat)[int(index)]:
            words = self.game.describe_action(self.view(seat), action)
            raise IllegalAction("masked", f"action {index} ({words}) is not open to "
                                          f"{agent_name(seat)} now; take one its mask allows")
        return action

    def play(self, action: Any) -> None:
        self.game.apply_in_place(self.state, action)
        self.moves += 1

    def step(self, seat: int, index: int) -> None:
        """Play the seat's action at `index`; an index its mask closes changes nothing."""
        self.play(self.action(seat, index))

    def rewards(self) -> tuple[float, ...]:
        """Each seat's reward: zero until the game is over (`REWARDS`)."""
        if not self.over:
            return (0.0,) * self.players
        if self.reward == "win":
            return tuple(1.0 if r == 1 else -1.0 for r in self.game.ranks(self.state))
        scores = self.game.scores(self.state)
        return tuple(float(s - max(o for j, o in enumerate(scores) if j != i))
                     for i, s in enumerate(scores))
