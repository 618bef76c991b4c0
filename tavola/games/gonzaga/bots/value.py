"""A learned value for the end of the search's horizon (`tavola train-value`).

The search values the position where an iteration stops (the end of the round) by the
hand-made estimate: for each player the sum of five parts (`evaluation.PARTS`: the score, the
objective card's prospect, sea leagues within reach, rings in hand, a share of the Gonzaga
tile). Self-play shows the parts are not worth the same: a sea league within reach is worth
less than its face, the tile's share more. The learned value keeps the parts and fits what
each is worth against a point on the score track, by least squares, to how far apart the
players of planner self-play games finished: one row of coefficients for each stretch of
rounds left and each number of players. It reads differences between players, as the
search's reward does (a lead), so it needs no constant term.

Everything is drawn from one seed: the same command writes the same file. The runtime is five
multiplications per player.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tavola.game import Game

from .evaluation import PARTS, estimate_parts

FORMAT: Literal["tavola-gonzaga-value/1"] = "tavola-gonzaga-value/1"
VALUE_PATH = Path(__file__).with_name("value.json")
SCHEMA_PATH = Path(__file__).resolve().parents[4] / "docs" / "gonzaga-value.schema.json"
#: where each row of coefficients starts, in rounds left (the current round counted)
FROM_ROUNDS_LEFT = (1, 2, 3, 5, 8)
SELF_PLAY = ("planner",)  # the bots of the training games, by default


class Row(BaseModel):
    """The worth of each part from `from_rounds_left` rounds left up to the next row's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    from_rounds_left: int = Field(ge=1)
    coefficients: tuple[float, ...] = Field(
        min_length=5, max_length=5,
        description="What a point of each part is worth, in the order of `parts`.")
    pairs: int = Field(ge=0, description="Pairs of players the row was fitted on.")
    correlation_before: float = Field(description="Of the hand-made estimate's differences "
                                                  "with the final ones.")
    correlation_after: float = Field(description="Of the learned value's differences.")

    @field_validator("coefficients")
    @classmethod
    def _finite(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if not all(math.isfinite(v) and -10 <= v <= 10 for v in values):
            raise ValueError("a coefficient must be a finite number between -10 and 10")
        return values


class ValueModel(BaseModel):
    """A learned value file: what the search loads at start, and how to make it again."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["tavola-gonzaga-value/1"]
    version: int = Field(ge=1, description="Raised by one each time the value is trained again.")
    command: str = Field(description="The command that wrote the file.")
    seed: int
    games: int = Field(ge=1, description="Self-play games per number of players.")
    bots: tuple[str, ...] = Field(default=SELF_PLAY, min_length=1, description=(
        "The bots of the training games, seated in turn from the seed (`mcts:hard,planner`: "
        "the search against planners, its seat rotating)."))
    parts: tuple[str, ...] = Field(description="The estimate's parts, in coefficient order.")
    by_players: dict[int, tuple[Row, ...]] = Field(
        description="Per number of players, rows by rounds left, the first from 1.")

    @model_validator(mode="after")
    def _rows_in_order(self) -> ValueModel:
        if self.parts != PARTS:
            raise ValueError(f"parts must be {', '.join(PARTS)}")
        for players, rows in self.by_players.items():
            starts = [r.from_rounds_left for r in rows]
            if not 2 <= players <= 4 or not starts or starts[0] != 1 or \
                    starts != sorted(set(starts)):
                raise ValueError(f"{players} players: rows must start at 1 round left and "
                                 "climb (and 2 to 4 players)")
        return self

    def coefficients(self, players: int, left: int) -> tuple[float, ...]:
        """The row for `left` rounds left, of the nearest number of players trained."""
        nearest = min(self.by_players, key=lambda n: (abs(n - players), n))
        chosen = self.by_players[nearest][0]
        for row in self.by_players[nearest]:
            if left >= row.from_rounds_left:
                chosen = row
        return chosen.coefficients


def value_schema() -> dict[str, object]:
    return ValueModel.model_json_schema()


def load_value(path: Path = VALUE_PATH) -> ValueModel:
    return ValueModel.model_validate_json(path.read_text(encoding="utf-8"))


# -- training ---------------------------------------------------------------------------------


def self_play(game: Game, seed: int, players: int, specs: Sequence[str] = SELF_PLAY,
              snapshot: Callable[[Any], Any] = estimate_parts) -> tuple[list[Any], np.ndarray]:
    """One game of the bots `specs` (`game` is Gonzaga's, which imports its search, and so
    this module: it is passed in), the first of them seated at `seed % players`, the others
    after it in turn: at the start of every round, the `snapshot` of the position (the rounds
    left and each player's parts); and the final scores."""
    from tavola.bench import seats
    from tavola.bots import make_bot

    state = game.new_game(seats(game, players), seed, {})
    bots = [make_bot(game, specs[(i - seed) % players % len(specs)], seed * 8 + i)
            for i in range(players)]
    snapshots: list[Any] = []
    last_round = None
    while not state.is_over:
        if state.round != last_round:
            last_round = state.round
            snapshots.append(snapshot(state))
        seat = state.to_move()[0]
        game.apply_in_place(state, bots[seat].decide(game.view(state, seat),
                                                     game.legal_actions(state, seat)))
    return snapshots, np.array([float(p.score) for p in state.players])


def pair_differences(snapshots: Sequence[tuple[int, np.ndarray]], final: np.ndarray
                     ) -> list[tuple[int, np.ndarray, float]]:
    """Every pair of players at every snapshot: rounds left, the difference of their parts,
    the difference of their final scores."""
    out = []
    for left, parts in snapshots:
        for a, b in itertools.combinations(range(len(final)), 2):
            out.append((left, parts[a] - parts[b], float(final[a] - final[b])))
    return out


def fit(pairs: Sequence[tuple[int, np.ndarray, float]]) -> tuple[Row, ...]:
    """One row of coefficients per stretch of `FROM_ROUNDS_LEFT`, by least squares."""
    rows = []
    bounds = (*FROM_ROUNDS_LEFT, math.inf)
    for start, end in itertools.pairwise(bounds):
        chosen = [(x, y) for left, x, y in pairs if start <= left < end]
        if len(chosen) < 2 * len(PARTS):
            continue
        x = np.array([c[0] for c in chosen])
        y = np.array([c[1] for c in chosen])
        # a point on the score track stays a point: the others are fitted to what is left
        rest = np.linalg.lstsq(x[:, 1:], y - x[:, 0], rcond=None)[0]
        coefficients = np.concatenate([[1.0], rest])
        rows.append(Row(from_rounds_left=int(start),
                        coefficients=tuple(round(float(c), 4) for c in coefficients),
                        pairs=len(chosen), correlation_before=correlation(x.sum(1), y),
                        correlation_after=correlation(x @ coefficients, y)))
    if not rows or rows[0].from_rounds_left != 1:
        raise ValueError("too few games to fit the last round: play more")
    return tuple(rows)


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    if a.std() == 0 or b.std() == 0:
        return 0.0
    return round(float(np.corrcoef(a, b)[0, 1]), 4)


def train(game: Game, games: int, seed: int, players: Sequence[int], command: str,
          version: int = 1, specs: Sequence[str] = SELF_PLAY) -> ValueModel:
    """Play `games` games of `specs` for each number of players (seeds `seed`, `seed + 1`,
    ...) and fit the value."""
    by_players = {}
    for n in players:
        pairs = []
        for g in range(games):
            pairs += pair_differences(*self_play(game, seed + g, n, specs))
        by_players[n] = fit(pairs)
    return ValueModel(format=FORMAT, version=version, command=command, seed=seed,
                      games=games, bots=tuple(specs), parts=PARTS, by_players=by_players)


def write_value(model: ValueModel, path: Path) -> None:
    path.write_text(json.dumps(model.model_dump(mode="json"), indent=2) + "\n",
                    encoding="utf-8")


def write_schema() -> None:
    SCHEMA_PATH.write_text(json.dumps(value_schema(), indent=2) + "\n", encoding="utf-8")
