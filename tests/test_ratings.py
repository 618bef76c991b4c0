"""Ratings: the bot rating file is valid and what its tool writes, and a game moves people's
ratings the way its result says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tabletop import ratings

ROOT = Path(__file__).resolve().parents[1]


def test_the_bot_rating_file_is_valid_and_up_to_date():
    done = subprocess.run([sys.executable, "tools/bot_ratings.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_rated_bot_is_a_level_the_lobby_offers():
    from tabletop.web.site import load_sites

    sites = load_sites()
    for game, players, bot in ratings.bot_ratings():
        assert bot in sites[game].levels, (game, players, bot)
        info = sites[game].game.info
        assert info.min_players <= players <= info.max_players


def test_stronger_levels_carry_higher_ratings():
    for game in ("gonzaga", "signorie"):
        for table in ratings.bot_table(game).values():
            if "random" in table and "greedy" in table:
                assert table["greedy"] > table["random"]
            if "planner" in table and "greedy" in table and game == "gonzaga":
                assert table["planner"] > table["greedy"]


def test_a_win_raises_and_a_loss_lowers_and_a_stronger_beaten_bot_is_worth_more():
    start = ratings.default_rating()
    weak, strong = (5.0, 2.0), (40.0, 2.0)
    (win_weak, _) = ratings.update([start, weak], [1, 2])
    (win_strong, _) = ratings.update([start, strong], [1, 2])
    (lose, _) = ratings.update([start, weak], [2, 1])
    assert win_strong[0] > win_weak[0] > start[0] > lose[0]
    assert win_weak[1] < start[1]  # a result makes the rating surer
