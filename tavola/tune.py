"""Tune a bot's evaluation weights by a black-box optimiser over games (`tavola tune`).

The optimiser is the cross-entropy method (Rubinstein 1999), a few lines of numpy: each
generation draws a population of weight vectors from a normal distribution over the
*logarithms* of the weights relative to their starting values (a weight may halve or double as
easily), plays every candidate on the same deals, and moves the distribution to the mean and
spread of the best quarter. Hand-set weights differ by orders of magnitude; working on
log-ratios makes one step size fit them all, and keeps every weight positive.

A candidate is scored on duplicate deals: every candidate of a generation meets the opponent
bot on the same seeds, in every seat, so the luck of the deal is the same for all of them.
Its fitness is its mean share of the wins plus a little of its mean lead in points
(`MARGIN_WEIGHT`), which tells apart candidates that win equally often.

Everything is drawn from one seed: the same command gives the same weights.

What a game lends (`tavola/games/NAME/bots/tuning.py`, `tuning(player)`): the names and starting
values of its weights, the bot that plays with a candidate's weights, and the opponent.
The result is a versioned JSON file (`TunedWeights`) that the game loads at start.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from . import registry
from .bots import Bot, make_bot
from .game import Game
from .match import play_game
from .simulate import bot_seed

MARGIN_WEIGHT = 0.005  # fitness per point of lead: 10 points are worth 5% of wins
ELITE_SHARE = 0.25  # the best quarter of a generation sets the next distribution
SMOOTHING = 0.7  # how far the distribution moves towards the elite each generation
MIN_SPREAD = 0.05  # a floor on the spread (log-ratio), so the search never freezes
MAX_LOG_RATIO = 1.5  # a weight stays within e^±1.5 (about ×0.22 to ×4.5) of its start
SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "tuned-weights.schema.json"


class Tunable(Protocol):
    """What a game lends the tuner for one kind of player."""

    names: tuple[str, ...]  # the weights' names, in order
    start: tuple[float, ...]  # their starting values (all positive)
    opponent: str  # the bot spec every candidate plays against

    def player(self, values: dict[str, float], seed: int) -> Bot:
        """The bot that plays with these weights."""
        ...


def tunable(game: Game, player: str) -> Tunable:
    """The game's tuning for `player` (a cheap bot spec such as `planner`); ValueError if the
    game has nothing to tune or cannot tune with that player."""
    part = registry.kit(game.info.name).tuning
    if part is None:
        raise ValueError(f"{game.info.title} has no weights to tune")
    tuning: Tunable = part.load()(player)
    return tuning


# -- the optimiser ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Generation:
    """One generation's outcome, for the progress display and the weights file."""

    number: int
    best: float  # the best candidate's fitness
    mean_fitness: float  # over the population
    centre: tuple[float, ...]  # the distribution's mean after the update (log-ratios)
    spread: tuple[float, ...]


Fitness = Callable[[np.ndarray, int], np.ndarray]  # (population, dims), generation -> scores


def cross_entropy(fitness: Fitness, dims: int, *, rng: np.random.Generator, generations: int,
                  population: int, spread: float = 0.4,
                  on_generation: Callable[[Generation], None] | None = None
                  ) -> tuple[np.ndarray, list[Generation]]:
    """Maximise `fitness` over log-ratios (start = 0); return the final centre and history.

    The current centre is always one of the candidates, so a generation can tell whether any
    change beats it on the same deals.
    """
    if generations < 1 or population < 2:
        raise ValueError("the tuner needs at least 1 generation and a population of 2")
    centre = np.zeros(dims)
    sd = np.full(dims, float(spread))
    elite = max(2, math.ceil(population * ELITE_SHARE))
    history: list[Generation] = []
    for g in range(generations):
        draws = centre + sd * rng.standard_normal((population - 1, dims))
        candidates = np.clip(np.vstack([centre, draws]), -MAX_LOG_RATIO, MAX_LOG_RATIO)
        scores = np.asarray(fitness(candidates, g), dtype=np.float64)
        best = candidates[np.argsort(-scores, kind="stable")[:elite]]
        centre = (1 - SMOOTHING) * centre + SMOOTHING * best.mean(axis=0)
        sd = np.maximum(MIN_SPREAD, (1 - SMOOTHING) * sd + SMOOTHING * best.std(axis=0))
        history.append(Generation(g + 1, float(scores.max()), float(scores.mean()),
                                  tuple(centre.round(4)), tuple(sd.round(4))))
        if on_generation is not None:
            on_generation(history[-1])
    return centre, history


# -- scoring candidates on duplicate deals ----------------------------------------------------


def seatings(players: int) -> list[int]:
    """The seats a candidate takes on each deal: every one, so no seat favours anyone."""
    return list(range(players))


def play_candidate(game: Game, tune: Tunable, values: dict[str, float], deal: int, seat: int,
                   players: int, options: dict[str, Any] | None = None) -> tuple[float, float]:
    """One game of the candidate at `seat` against the opponent elsewhere: (win share, lead)."""
    bots = [tune.player(values, bot_seed(deal, s)) if s == seat
            else make_bot(game, tune.opponent, seed=bot_seed(deal, s)) for s in range(players)]
    state = play_game(game, bots, seed=deal, options=options)
    winners = list(game.winners(state))
    scores = game.scores(state)
    share = 1.0 / len(winners) if seat in winners else 0.0
    lead = scores[seat] - max(x for s, x in enumerate(scores) if s != seat)
    return share, float(lead)


def values_of(tune: Tunable, ratios: Iterable[float]) -> dict[str, float]:
    """The weights a vector of log-ratios stands for."""
    return {name: round(start * math.exp(r), 4)
            for name, start, r in zip(tune.names, tune.start, ratios, strict=True)}


# -- the weights file -------------------------------------------------------------------------


class TunedWeights(BaseModel):
    """A tuned weights file: what a game loads at start, and how to make it again."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = Field(ge=1, description="Raised by one each time the file is tuned again.")
    game: str = Field(min_length=1, description="The game whose bots read these weights.")
    command: str = Field(min_length=1, description="The command that made this file.")
    seed: int = Field(description="The tuner's seed.")
    player: str = Field(min_length=1, description="The bot that played the candidates.")
    opponent: str = Field(min_length=1, description="The bot every candidate played against.")
    games_per_candidate: int = Field(ge=1)
    weights: dict[str, float] = Field(description="Each weight's tuned value, by name.")
    history: list[float] = Field(default_factory=list,
                                 description="The best fitness of each generation.")

    @field_validator("weights")
    @classmethod
    def _finite_positive(cls, weights: dict[str, float]) -> dict[str, float]:
        for name, value in weights.items():
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"weight {name!r} must be a positive number, not {value!r}")
        return weights


def tuned_schema() -> dict[str, Any]:
    return TunedWeights.model_json_schema()


def write_tuned_schema() -> None:
    """Export the file's JSON Schema to docs/ (a test checks it is current)."""
    SCHEMA_PATH.write_text(json.dumps(tuned_schema(), indent=2) + "\n", encoding="utf-8")


def load_tuned(path: Path, game: str, names: Sequence[str]) -> TunedWeights:
    """A weights file, checked: its game, and only weights the game knows."""
    data = TunedWeights.model_validate_json(path.read_text(encoding="utf-8"))
    if data.game != game:
        raise ValueError(f"{path.name} holds weights for {data.game!r}, not {game!r}")
    unknown = sorted(set(data.weights) - set(names))
    if unknown:  # a weight left out keeps its hand-set value; an unknown one is a mistake
        raise ValueError(f"{path.name}: unknown weights {', '.join(unknown)}")
    return data


def next_version(path: Path) -> int:
    """One more than the version of the file being replaced (1 for a new file)."""
    try:
        return TunedWeights.model_validate_json(path.read_text(encoding="utf-8")).version + 1
    except (OSError, ValueError):
        return 1


# -- a tuning run -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TuneResult:
    weights: dict[str, float]
    history: list[Generation]


def run_tune(game: Game, tune: Tunable, *, seed: int, generations: int, population: int,
             games: int, players: int = 2, options: dict[str, Any] | None = None,
             on_game: Callable[[], None] | None = None,
             on_generation: Callable[[Generation], None] | None = None) -> TuneResult:
    """Tune `tune`'s weights; every candidate plays `games` games (rounded up to whole seat
    rotations) on the same deals as the rest of its generation."""
    rng = np.random.default_rng(seed)
    seats = seatings(players)
    deals = max(1, math.ceil(games / len(seats)))

    def fitness(population_: np.ndarray, generation: int) -> np.ndarray:
        first = int(rng.integers(0, 2**31 - deals))  # this generation's deals
        out = []
        for ratios in population_:
            values = values_of(tune, ratios)
            results = []
            for deal in range(first, first + deals):
                for seat in seats:
                    results.append(play_candidate(game, tune, values, deal, seat, players,
                                                  options))
                    if on_game is not None:
                        on_game()
            share, lead = np.mean(results, axis=0)
            out.append(share + MARGIN_WEIGHT * lead)
        return np.array(out)

    centre, history = cross_entropy(fitness, len(tune.names), rng=rng, generations=generations,
                                    population=population, on_generation=on_generation)
    return TuneResult(values_of(tune, centre), history)


def games_in(generations: int, population: int, games: int, players: int) -> int:
    """How many games a run plays, for its progress bar."""
    return generations * population * math.ceil(games / players) * players
