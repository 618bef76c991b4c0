"""A value over the map for the end of the search's horizon (`tavola train-value --map`).

Reweighting the hand-made estimate's five parts (`value.py`) bought nothing: what the parts
miss is where the pieces stand. This value keeps the parts and adds, for each player, a
learned worth of every hex their fiefs and their rings cover: room to grow next to a group,
a harbor that opens a league, a hex that only blocks. The worths and the parts' coefficients
are fitted together by ridge regression to how far apart the two players of self-play games
finished, one row per stretch of rounds left, the strength of the ridge chosen on a fifth of
the games held out. It is fitted for one board and one number of players (2); elsewhere the
search keeps the hand-made estimate.

Everything is drawn from one seed: the same command writes the same file. At run time it is
two sums over a player's hexes, once per position the search values.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tavola.game import Game

from .evaluation import PARTS, UNWEIGHTED, estimate_parts, rounds_left
from .value import FROM_ROUNDS_LEFT, SELF_PLAY, correlation, self_play

FORMAT: Literal["tavola-gonzaga-map-value/1"] = "tavola-gonzaga-map-value/1"
MAP_VALUE_PATH = Path(__file__).with_name("map-value.json")
SCHEMA_PATH = Path(__file__).resolve().parents[4] / "docs" / "gonzaga-map-value.schema.json"
PLAYERS: Literal[2] = 2  # the value reads one player's pieces against the other's
RIDGES = (30.0, 100.0, 300.0, 1000.0, 3000.0)  # strengths tried on the held-out games
HELD_OUT = 5  # every fifth game chooses the ridge


class MapRow(BaseModel):
    """The parts' worths and every hex's, from `from_rounds_left` rounds left up to the next
    row's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    from_rounds_left: int = Field(ge=1)
    coefficients: tuple[float, ...] = Field(
        min_length=5, max_length=5, description="What a point of each part is worth, in the "
                                                "order of `evaluation.PARTS`.")
    fief: tuple[float, ...] = Field(description="Per hex: a player's fief covering it.")
    ring: tuple[float, ...] = Field(description="Per hex: a player's ring on it.")
    ridge: float = Field(gt=0, description="The ridge strength chosen on the held-out games.")
    pairs: int = Field(ge=0)
    correlation_before: float = Field(description="On the held-out games: the hand-made "
                                                  "estimate's differences with the final ones.")
    correlation_after: float = Field(description="On the held-out games: this value's.")

    @field_validator("coefficients", "fief", "ring")
    @classmethod
    def _finite(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if not all(math.isfinite(v) and -20 <= v <= 20 for v in values):
            raise ValueError("a worth must be a finite number between -20 and 20")
        return values


class MapValueModel(BaseModel):
    """A map value file: what the search loads at start, and how to make it again."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["tavola-gonzaga-map-value/1"]
    version: int = Field(ge=1)
    command: str = Field(description="The command that wrote the file.")
    seed: int
    games: int = Field(ge=1, description="Self-play games it was fitted on.")
    bots: tuple[str, ...] = Field(default=SELF_PLAY, min_length=1)
    board: str = Field(description="The content hash of the board it was fitted on.")
    hexes: int = Field(ge=1)
    players: Literal[2]
    parts: tuple[str, ...]
    rows: tuple[MapRow, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> MapValueModel:
        if self.parts != PARTS:
            raise ValueError(f"parts must be {', '.join(PARTS)}")
        starts = [r.from_rounds_left for r in self.rows]
        if starts[0] != 1 or starts != sorted(set(starts)):
            raise ValueError("rows must start at 1 round left and climb")
        if any(len(r.fief) != self.hexes or len(r.ring) != self.hexes for r in self.rows):
            raise ValueError(f"every row needs a worth for each of the {self.hexes} hexes")
        return self

    def index(self, left: int) -> int:
        """The row for `left` rounds left."""
        return max(k for k, row in enumerate(self.rows) if left >= row.from_rounds_left or k == 0)

    def row(self, left: int) -> MapRow:
        return self.rows[self.index(left)]


@dataclass(frozen=True)
class MapValue:
    """The model ready for the search: its worths as arrays."""

    model: MapValueModel
    fief: tuple[np.ndarray, ...]
    ring: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, model: MapValueModel) -> MapValue:
        return cls(model, tuple(np.array(r.fief) for r in model.rows),
                   tuple(np.array(r.ring) for r in model.rows))

    def fits(self, state: Any) -> bool:
        return (len(state.players) == self.model.players
                and state.board.content_hash == self.model.board)

    def coefficients(self, players: int, left: int) -> tuple[float, ...]:
        if players != self.model.players:
            return UNWEIGHTED
        return self.model.row(left).coefficients

    def map_term(self, state: Any) -> np.ndarray | None:
        """Per player, the worth of the hexes their pieces cover (None: another board or
        number of players, where the value adds nothing)."""
        if not self.fits(state):
            return None
        k = self.model.index(rounds_left(state))
        fief, ring = self.fief[k], self.ring[k]
        fiefs, rings = state.fief_owner, state.ring_owner
        return np.array([fief[fiefs == i].sum() + ring[rings == i].sum()
                         for i in range(len(state.players))])


def map_value_schema() -> dict[str, object]:
    return MapValueModel.model_json_schema()


def load_map_value(path: Path = MAP_VALUE_PATH) -> MapValueModel:
    return MapValueModel.model_validate_json(path.read_text(encoding="utf-8"))


# -- training ---------------------------------------------------------------------------------


def map_snapshot(state: Any) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Rounds left, each player's parts, and who covers each hex."""
    left, parts = estimate_parts(state)
    return left, parts, state.fief_owner.copy(), state.ring_owner.copy()


Pair = tuple[int, np.ndarray, np.ndarray, float]


def pair_rows(snapshots: Sequence[tuple[int, np.ndarray, np.ndarray, np.ndarray]],
              final: np.ndarray) -> list[Pair]:
    """At every snapshot: rounds left; the first player's parts less the second's; their
    hexes likewise (fiefs, then rings: 1 the first's, -1 the second's); the difference of
    their final scores."""
    out = []
    for left, parts, fiefs, rings in snapshots:
        hexes = np.concatenate([_mine(fiefs, 0) - _mine(fiefs, 1),
                                _mine(rings, 0) - _mine(rings, 1)])
        out.append((left, parts[0] - parts[1], hexes, float(final[0] - final[1])))
    return out


def _mine(owners: np.ndarray, player: int) -> np.ndarray:
    mine: np.ndarray = (owners == player).astype(np.int8)  # thousands of games kept at once
    return mine


def fit_rows(games: Sequence[list[Pair]], hexes: int) -> tuple[MapRow, ...]:
    """One row per stretch of `FROM_ROUNDS_LEFT`: the ridge fit whose held-out correlation
    is best, refitted on every game."""
    rows = []
    bounds = (*FROM_ROUNDS_LEFT, math.inf)
    for start, end in itertools.pairwise(bounds):
        x, y, held_out = _stretch(games, start, end)
        if len(y) < 20 or held_out.sum() < 2 or (~held_out).sum() < 2:
            continue
        every = (x, y)
        fitted, held = (x[~held_out], y[~held_out]), (x[held_out], y[held_out])
        ridge, before, after = max(
            ((r, *_held_out(fitted, held, r)) for r in RIDGES), key=lambda t: t[2])
        w = _ridge(*every, ridge)
        rows.append(MapRow(from_rounds_left=int(start),
                           coefficients=_rounded([1.0, *w[:len(PARTS) - 1]]),
                           fief=_rounded(w[len(PARTS) - 1:len(PARTS) - 1 + hexes]),
                           ring=_rounded(w[len(PARTS) - 1 + hexes:]), ridge=ridge,
                           pairs=len(every[1]), correlation_before=before,
                           correlation_after=after))
    if not rows or rows[0].from_rounds_left != 1:
        raise ValueError("too few games to fit the last round: play more")
    return tuple(rows)


def _stretch(games: Sequence[list[Pair]], start: float, end: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions with `start <= rounds left < end`: parts and hexes (one row each, as
    floats), the final differences, and which belong to the held-out games."""
    chosen = [(parts, hexes, y, g % HELD_OUT == HELD_OUT - 1) for g, rows in enumerate(games)
              for left, parts, hexes, y in rows if start <= left < end]
    if not chosen:
        return np.zeros((0, 0)), np.zeros(0), np.zeros(0, dtype=bool)
    x = np.hstack([np.array([c[0] for c in chosen]),
                   np.array([c[1] for c in chosen], dtype=np.float64)])
    return x, np.array([c[2] for c in chosen]), np.array([c[3] for c in chosen])


def _ridge(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """A point on the score track stays a point; the other parts and the hexes are fitted to
    what is left. Hexes no piece covered in these games keep a worth of 0."""
    a, target = x[:, 1:], y - x[:, 0]
    used = np.flatnonzero(np.abs(a).sum(0) > 0)
    sub = a[:, used]
    w = np.zeros(a.shape[1])
    w[used] = np.linalg.solve(sub.T @ sub + ridge * np.eye(len(used)), sub.T @ target)
    return w


def _held_out(fitted: tuple[np.ndarray, np.ndarray], held: tuple[np.ndarray, np.ndarray],
              ridge: float) -> tuple[float, float]:
    w = _ridge(*fitted, ridge)
    x, y = held
    hand = x[:, :len(PARTS)].sum(1)
    return correlation(hand, y), correlation(x[:, 0] + x[:, 1:] @ w, y)


def _rounded(values: Any) -> tuple[float, ...]:
    return tuple(round(float(v), 4) for v in values)


def train_map(game: Game, games: int, seed: int, command: str, version: int = 1,
              specs: Sequence[str] = SELF_PLAY) -> MapValueModel:
    """Play `games` 2-player games of `specs` (seeds `seed`, `seed + 1`, ...) and fit."""
    from tavola.bench import seats

    board = game.new_game(seats(game, PLAYERS), seed, {}).board
    played = [pair_rows(*self_play(game, seed + g, PLAYERS, specs, map_snapshot))
              for g in range(games)]
    return MapValueModel(format=FORMAT, version=version, command=command, seed=seed,
                         games=games, bots=tuple(specs), board=board.content_hash,
                         hexes=len(board.coords), players=PLAYERS, parts=PARTS,
                         rows=fit_rows(played, len(board.coords)))


def write_map_value(model: MapValueModel, path: Path) -> None:
    path.write_text(json.dumps(model.model_dump(mode="json")) + "\n", encoding="utf-8")


def write_schema() -> None:
    SCHEMA_PATH.write_text(json.dumps(map_value_schema(), indent=2) + "\n", encoding="utf-8")
