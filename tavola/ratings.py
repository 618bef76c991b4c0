"""Ratings of players and bots: openskill (Plackett-Luce), per game and player count.

People start at openskill's default (mu 25, sigma 25/3) and move once per rated game they
finish. Bots never move: each bot level carries the rating its tournaments measured at that
player count (each game's own file, declared by its kit's `bot_ratings`, e.g.
`tavola/games/gonzaga/data/bot_ratings.json`, written by `tools/bot_ratings.py` from the
tournaments' results), so beating a strong bot is worth more than beating a weak one, and a
bot's number means the same in every game it sits in. Players are ranked by the conservative
`ordinal` = mu - 3 sigma.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from . import registry
from .kit import GameKit

FORMAT = "tavola-bot-ratings/2"


class BotRating(BaseModel):
    """One bot level's fixed rating at one player count."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: int = Field(ge=2, le=8)
    bot: str = Field(min_length=1, description="the bot spec, as the lobby offers it")
    mu: float
    sigma: float = Field(gt=0)
    pairs: int = Field(ge=1, description="1-v-1 results that went into it")


class RatingSource(BaseModel):
    """The tournaments measured for one player count, and how they were run."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: int = Field(ge=2, le=8)
    results: list[str] = Field(min_length=1, description="results.json files, repo-relative")
    commands: list[str] = Field(min_length=1, description="the commands that played them")


class BotRatings(BaseModel):
    """A game's bot rating file: the numbers, their sources and the command that wrote them."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    format: str = Field(pattern=r"^tavola-bot-ratings/2$")
    game: str = Field(min_length=1, description="the game rated: its kit's name")
    command: str
    method: str
    sources: list[RatingSource]
    ratings: list[BotRating]


def ratings_file(kit: GameKit) -> Path | None:
    """Where a game keeps its bots' ratings (`GameKit.bot_ratings`); None: it has none."""
    if kit.bot_ratings is None:
        return None
    return Path(str(resources.files(kit.package) / kit.bot_ratings))


def read_ratings(kit: GameKit) -> BotRatings | None:
    """A game's bot ratings as its kit declares them; ValueError for a file of another game."""
    path = ratings_file(kit)
    if path is None:
        return None
    data = BotRatings.model_validate(json.loads(path.read_text(encoding="utf-8")))
    if data.game != kit.name:
        raise ValueError(f"{path} holds the bot ratings of {data.game!r}, not of {kit.name!r}")
    return data


@cache
def bot_ratings() -> dict[tuple[str, int, str], BotRating]:
    """(game, players, bot spec) -> its fixed rating, for every game that declares some."""
    found: dict[tuple[str, int, str], BotRating] = {}
    for kit in registry.kits().values():
        data = read_ratings(kit)
        if data is not None:
            found.update({(kit.name, r.players, r.bot): r for r in data.ratings})
    return found


def bot_rating(game: str, players: int, bot: str) -> BotRating | None:
    return bot_ratings().get((game, players, bot))


def bot_ordinal(game: str, players: int, bot: str | None) -> int | None:
    """A bot's rating as shown next to its name (None: a person, or a level not measured)."""
    r = None if bot is None else bot_ratings().get((game, players, bot))
    return None if r is None else round(r.mu - 3 * r.sigma)


def bot_table(game: str) -> dict[str, dict[str, float]]:
    """A game's bot ratings for the lobby: player count -> bot spec -> ordinal, rounded."""
    out: dict[str, dict[str, float]] = {}
    for (g, players, bot), r in sorted(bot_ratings().items()):
        if g == game:
            out.setdefault(str(players), {})[bot] = round(r.mu - 3 * r.sigma, 1)
    return out


def update(seats: Sequence[tuple[float, float]], ranks: Sequence[int]
           ) -> list[tuple[float, float]]:
    """Every seat's (mu, sigma) after one game, each seat a team of one, ranks 1 = first
    (ties share a rank). The caller keeps only the people's new numbers: bots stay fixed."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in seats]
    rated = model.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def default_rating() -> tuple[float, float]:
    from openskill.models import PlackettLuce

    r = PlackettLuce().rating()
    return r.mu, r.sigma
