"""A finished game reviewed by the search: every decision of the reviewed seats valued, the
biggest mistakes named, the game's course drawn; through the platform, for both games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tavola import registry as games
from tavola.bots import make_bot
from tavola.cli import app
from tavola.match import play_game
from tavola.records import dumps_record
from tavola.review import Review, reasons, result_words, review_game
from tavola.search import Settings
from tavola.testing import game_names

QUICK = Settings(iterations=24, width=4, joint_width=4)


def _finished(name: str, seed: int, bots: tuple[str, str] = ("random", "greedy"),
              names: tuple[str, str] = ("Ann", "Bea")) -> tuple[Any, Any]:
    game = games.get(name)
    players = [make_bot(game, spec, seed + i) for i, spec in enumerate(bots)]
    return game, play_game(game, players, seed=seed, names=list(names))


@pytest.mark.parametrize("name", game_names())
def test_every_decision_of_the_seat_is_valued_and_the_course_ends_at_the_scores(name):
    game, final = _finished(name, seed=11)
    review = review_game(game, final, [0], QUICK, seed=1)
    assert review.names == tuple(final.names)
    assert review.decisions and all(d.seat == 0 for d in review.decisions)
    numbers = [d.number for d in review.decisions]
    assert numbers == sorted(set(numbers))
    assert all(final.history[d.number - 1] == d.chosen for d in review.decisions)
    for d in review.decisions:
        assert d.cost >= 0
        assert d.cost == 0 or d.best != d.chosen  # a cost names a better move
        assert d.chosen_words and d.best_words
    assert len(review.course) == len(final.history) + 1
    assert review.course[-1] == tuple(float(x) for x in game.scores(final))
    # random play against the greedy bot gives something away somewhere
    assert sum(d.cost for d in review.decisions) > 0
    again = review_game(game, final, [0], QUICK, seed=1)
    assert again == review  # reproducible from its seed


def test_the_biggest_mistakes_are_the_costliest_first():
    game, final = _finished("gonzaga", seed=5)
    review = review_game(game, final, [0, 1], QUICK, seed=2)
    mistakes = review.mistakes()
    assert 1 <= len(mistakes) <= 3
    costs = [d.cost for d in mistakes]
    assert costs == sorted(costs, reverse=True)
    assert costs[0] == max(d.cost for d in review.decisions)
    assert Review(review.names, (), review.course).mistakes() == []


def _record(tmp_path: Path, name: str, names: tuple[str, str] = ("Ann", "Bea")) -> Path:
    game, final = _finished(name, seed=3, names=names)
    path = tmp_path / f"{name}.json"
    path.write_text(dumps_record(game.record(final, players=["random", "greedy"], seed=3)))
    return path


def test_the_command_prints_the_review_and_draws_the_graph(tmp_path):
    record = _record(tmp_path, "gonzaga", names=("[bold]Ann", "Bea"))
    out = tmp_path / "course.png"
    result = CliRunner().invoke(app, ["review", str(record), "--seat", "0", "--level", "easy",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Review of [bold]Ann, Bea" in result.output  # a name is shown, never obeyed
    assert "Biggest mistakes" in result.output or "No decision cost" in result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000


def test_the_command_refuses_what_it_cannot_review(tmp_path):
    record = _record(tmp_path, "signorie")
    runner = CliRunner()
    bad_seat = runner.invoke(app, ["review", str(record), "--seat", "7"])
    assert bad_seat.exit_code == 2 and "seats from 0 to 1" in bad_seat.output
    bad_level = runner.invoke(app, ["review", str(record), "--level", "genius"])
    assert bad_level.exit_code == 2 and "unknown level 'genius'" in bad_level.output
    data = json.loads(record.read_text())
    data["actions"] = data["actions"][:10]  # cut short: it no longer replays to its scores
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data))
    result = runner.invoke(app, ["review", str(cut)])
    assert result.exit_code == 1 and "cut.json" in result.output


@pytest.mark.parametrize("name", game_names())
def test_a_mistake_names_two_different_moves_and_where_the_better_one_gains(name):
    game, final = _finished(name, seed=11)
    review = review_game(game, final, [0], QUICK, seed=1)
    costly = [d for d in review.decisions if d.cost > 0]
    assert costly
    for d in costly:  # what was played and what was better never read the same
        assert d.chosen_words != d.best_words, d
    mistakes = review.mistakes()
    assert mistakes
    for d in mistakes:
        assert d.confirmed and d.gains and sum(p for _, p in d.gains) > 0
        assert {s for s, _ in d.gains} <= set(game.info.score_sources)
        why = reasons(game, d)
        assert game.source_name(d.gains[0][0]) in why  # in the end screen's words


def test_signorie_mistakes_are_borne_out_by_playouts_and_beside_the_result():
    game, final = _finished("signorie", seed=11)
    review = review_game(game, final, [0], QUICK, seed=1)
    unconfirmed = [d for d in review.decisions if not d.confirmed]
    assert all(d not in review.mistakes() for d in unconfirmed)
    assert all(sum(p for _, p in d.gains) <= 0 for d in unconfirmed)
    result = result_words(game, final, 0)
    assert f"with {game.scores(final)[0]} points" in result
    assert final.names[game.ranks(final).index(1)] in result


@pytest.mark.parametrize("name", game_names())
def test_a_followed_hint_called_a_mistake_says_why_the_review_disagrees(name):
    game, final = _finished(name, seed=11)
    plain = review_game(game, final, [0], QUICK, seed=1)
    d = plain.mistakes()[0]
    asked = d.number - 1  # the hint was given just before the move, which followed it
    hinted = review_game(game, final, [0], QUICK, seed=1,
                         hinted={asked: [d.chosen, d.best]})
    again = next(x for x in hinted.decisions if x.number == d.number)
    assert again.hinted == 1
    assert "the hint ranked this move 1" in reasons(game, again)
    others = [x for x in hinted.decisions if x.number != d.number]
    assert all(x.hinted == 0 for x in others)  # a hint is about the seat's next move only


def test_a_decision_that_costs_less_than_half_a_point_is_no_mistake():
    from tavola.review import Reviewed

    def decision(number: int, cost: float) -> Reviewed:
        return Reviewed(number, 0, 1, "a", "b", cost, "played a", "played b")

    review = Review(("Ann", "Bea"), (decision(1, 0.04), decision(2, 0.6)), ((0.0, 0.0),))
    assert [d.number for d in review.mistakes()] == [2]  # never "about 0.0 points"
