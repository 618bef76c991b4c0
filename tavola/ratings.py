"""Ratings of players and bots: openskill (Plackett-Luce), per game and player count.

People start at openskill's default (mu 25, sigma 25/3) and move once per rated game they
finish. Bots never move: each bot level carries the rating its tournaments measured at that
player count (`tavola/data/bot_ratings.json`, written by `tools/bot_ratings.py` from the
tournaments' results), so beating a strong bot is worth more than beating a weak one, and a bot's
number means the same in every game it sits in. Players are ranked by the conservative
`ordinal` = mu - 3 sigma.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

BOT_RATINGS = Path(__file__).parent / "data" / "bot_ratings.json"


class BotRating(BaseModel):
    """One bot level's fixed rating in one game at one player count."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    game: str = Field(min_length=1)
    players: int = Field(ge=2, le=8)
    bot: str = Field(min_length=1, description="the bot spec, as the lobby offers it")
    mu: float
    sigma: float = Field(gt=0)
    pairs: int = Field(ge=1, description="1-v-1 results that went into it")


class RatingSource(BaseModel):
    """The tournaments measured for one game and player count, and how they were run."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    game: str
    players: int = Field(ge=2, le=8)
    results: list[str] = Field(min_length=1, description="results.json files, repo-relative")
    commands: list[str] = Field(min_length=1, description="the commands that played them")


class BotRatings(BaseModel):
    """The bot rating file: the numbers, their sources and the command that wrote them."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    format: str = Field(pattern=r"^tavola-bot-ratings/1$")
    command: str
    method: str
    sources: list[RatingSource]
    ratings: list[BotRating]


@cache
def bot_ratings() -> dict[tuple[str, int, str], BotRating]:
    """(game, players, bot spec) -> its fixed rating."""
    data = BotRatings.model_validate(json.loads(BOT_RATINGS.read_text(encoding="utf-8")))
    return {(r.game, r.players, r.bot): r for r in data.ratings}


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
