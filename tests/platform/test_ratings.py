"""Ratings: the bot rating file is valid and what its tool writes, and a game moves people's
ratings the way its result says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tavola import ratings

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_rating_file_is_valid_and_up_to_date():
    done = subprocess.run([sys.executable, "tools/bot_ratings.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_each_game_keeps_its_bot_ratings_in_its_own_package_named_by_its_kit():
    """The platform holds no game's numbers: each game's file is in its package, declared by
    its kit, and names its game; a game that declares none has none."""
    from tavola.kit import GameKit, Part
    from tavola.testing import every_game

    assert not (ROOT / "tavola" / "data" / "bot_ratings.json").exists()
    rated = [kit for kit in every_game() if kit.bot_ratings is not None]
    assert rated, "no game declares bot ratings"
    for kit in rated:
        name = kit.name
        path = ratings.ratings_file(kit)
        assert path is not None and path.is_relative_to(ROOT / "tavola" / "games" / name)
        data = ratings.read_ratings(kit)
        assert data is not None and data.game == name and data.ratings
        assert {(g, b) for g, _, b in ratings.bot_ratings() if g == name} == \
            {(name, r.bot) for r in data.ratings}
    unrated = GameKit(name="unrated", package="tavola.games.gonzaga", game=Part("x:GAME"),
                      record_format="unrated-record", levels=("greedy",))
    assert ratings.ratings_file(unrated) is None and ratings.read_ratings(unrated) is None
    mislabelled = GameKit(name="signorie", package="tavola.games.gonzaga",
                          game=Part("x:GAME"), record_format="signorie-record",
                          levels=("greedy",), bot_ratings="data/bot_ratings.json")
    with pytest.raises(ValueError, match="of 'gonzaga', not of 'signorie'"):
        ratings.read_ratings(mislabelled)


def test_every_rated_bot_is_a_level_the_lobby_offers():
    from tavola.web.site import load_sites

    sites = load_sites()
    for game, players, bot in ratings.bot_ratings():
        assert bot in sites[game].levels, (game, players, bot)
        info = sites[game].game.info
        assert info.min_players <= players <= info.max_players


def test_stronger_levels_carry_higher_ratings():
    """The lobby lists the levels from easiest to strongest and shows their ratings: at every
    player count the measured ratings climb in that order (Signorie's search once stood below
    its Planner at 4 players, because the last games played decided its rating)."""
    from tavola.web.site import load_sites

    for game, site in load_sites().items():
        for players, table in ratings.bot_table(game).items():
            climb = [(level, table[level]) for level in site.levels if level in table]
            assert [r for _, r in climb] == sorted(r for _, r in climb), (game, players, climb)
            assert len({r for _, r in climb}) == len(climb), (game, players, climb)


def test_a_rating_does_not_depend_on_the_order_the_games_were_played():
    import json
    from types import SimpleNamespace

    from tavola.tournament import rate, rate_in_any_order

    data = json.loads((ROOT / "docs/tournaments/signorie-tuned-4p/results.json").read_text())
    played = [SimpleNamespace(seats=tuple(g["seats"]), ranks=tuple(g["ranks"]))
              for g in data["games"]]
    bots = ["mcts:hard", "planner"]

    def mus(rated: list) -> dict[str, float]:
        return {r.bot: r.mu for r in rated}

    once, backwards = mus(rate(bots, played)), mus(rate(bots, played[::-1]))
    assert abs(once["mcts:hard"] - backwards["mcts:hard"]) > 5  # one order decides a lot
    any_order = mus(rate_in_any_order(bots, played))
    reversed_any = mus(rate_in_any_order(bots, played[::-1]))
    assert abs(any_order["mcts:hard"] - reversed_any["mcts:hard"]) < 1.5
    assert any_order["mcts:hard"] > any_order["planner"]  # it won 46 of its 72 pairs


def test_a_win_raises_and_a_loss_lowers_and_a_stronger_beaten_bot_is_worth_more():
    start = ratings.default_rating()
    weak, strong = (5.0, 2.0), (40.0, 2.0)
    (win_weak, _) = ratings.update([start, weak], [1, 2])
    (win_strong, _) = ratings.update([start, strong], [1, 2])
    (lose, _) = ratings.update([start, weak], [2, 1])
    assert win_strong[0] > win_weak[0] > start[0] > lose[0]
    assert win_weak[1] < start[1]  # a result makes the rating surer
