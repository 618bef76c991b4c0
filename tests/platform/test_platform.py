"""The platform on every game: discovery, the Game interface, records, the generic search."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import pytest

from tavola import registry as games
from tavola.bench import random_game
from tavola.bots import make_bot
from tavola.records import RecordError
from tavola.search import (
    MCTSBot,
    RandomHooks,
    Settings,
    _Arm,
    _chosen,
    leads,
    parse_settings,
    per_players,
)


def test_the_games_are_found_and_gonzaga_is_the_default() -> None:
    """(What every game found must do is the conformance suite's: test_conformance.py.)"""
    assert games.available()[0] == "gonzaga"
    assert games.get("Signorie").info.title == "Signorie"
    with pytest.raises(ValueError, match="unknown game 'chess'; choose from gonzaga"):
        games.get("chess")
    assert games.for_record_format("signorie-record/1") is games.get("signorie")


def test_a_signorie_record_that_lies_is_caught() -> None:
    game = games.get("signorie")
    state = random_game(game, seed=8, players=2)
    data = game.record(state)
    wrong_score = copy.deepcopy(data)
    wrong_score["scores"][0] += 1
    with pytest.raises(RecordError, match="scores differ"):
        game.verify_record(wrong_score)
    wrong_log = copy.deepcopy(data)
    wrong_log["log"][3]["data"] = {"forged": True}
    with pytest.raises(RecordError, match="log entry 4 differs"):
        game.verify_record(wrong_log)
    cut = copy.deepcopy(data)
    cut["actions"] = cut["actions"][:-5]
    with pytest.raises(RecordError):
        game.verify_record(cut)
    with pytest.raises(RecordError, match="not a Signorie record"):
        game.verify_record({**data, "format": "signorie-record/9"})


def test_the_generic_search_plays_signorie_legally_and_reproducibly() -> None:
    game = games.get("signorie")
    state = game.new_game(["Ann", "Bo"], seed=2)
    seat = state.to_move()[0]
    legal = game.legal_actions(state, seat)
    picks = [make_bot(game, "mcts:iterations=30", seed=4).decide(game.view(state, seat), legal)
             for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in legal


# -- the search on a toy game with chance, where the right moves are known ------------------


@dataclass
class Toy:
    """Seat 0 may `take` 3 points and stop, or `roll` a die; after a roll it may `keep` the
    die's points or `swap` them for 7 minus them. Seat 0 wins with 4 points or more."""

    rng: random.Random
    points: int = 0
    rolled: bool = False
    done: bool = False
    chance: list[int] = field(default_factory=list)
    viewer: int | None = 0

    @property
    def is_over(self) -> bool:
        return self.done

    def to_move(self) -> tuple[int, ...]:
        return () if self.done else (0,)


class ToyGame:
    search = None

    def legal_actions(self, state: Toy, seat: int) -> list[str]:
        if state.done:
            return []
        return ["keep", "swap"] if state.rolled else ["roll", "take"]

    def apply_in_place(self, state: Toy, action: str) -> None:
        if action == "roll":
            state.points, state.rolled = state.rng.randint(1, 6), True
            state.chance.append(state.points)
            return
        state.points = {"take": 3, "keep": state.points, "swap": 7 - state.points}[action]
        state.done = True

    def resample(self, view: Toy, rng: random.Random) -> Toy:
        return Toy(random.Random(rng.getrandbits(32)), view.points, view.rolled, view.done,
                   list(view.chance))

    def chance_events(self, state: Toy) -> list[int]:
        return state.chance

    def winners(self, state: Toy) -> tuple[int, ...]:
        return (0,) if state.points >= 4 else (1,)

    def scores(self, state: Toy) -> tuple[int, int]:
        return (state.points, 0)


def test_the_search_splits_its_tree_on_chance_outcomes() -> None:
    from tavola.search import RandomHooks

    game = ToyGame()
    bot = MCTSBot(game, seed=1, settings=Settings(iterations=600))  # type: ignore[arg-type]
    view = Toy(random.Random(0))
    rng = random.Random(5)
    root = bot._search(view, RandomHooks(game, rng), rng, bot.settings)  # type: ignore[arg-type]
    outcomes = {key[1][0] for key in root.children if isinstance(key, tuple) and
                len(key) == 2 and isinstance(key[1], tuple)}
    assert outcomes == {1, 2, 3, 4, 5, 6}  # one chance node per die face after `roll`
    for key, child in root.children.items():
        best = max(child.arms[0], key=lambda a: a.visits).action
        assert best == ("keep" if key[1][0] >= 4 else "swap")  # each face learns its own move
    # rolling then choosing well always wins; taking never does
    assert bot.decide(view, ["roll", "take"]) == "roll"


def test_the_command_lists_games_and_takes_game_commands(tmp_path) -> None:
    from typer.testing import CliRunner

    from tavola.cli import app

    runner = CliRunner()
    listing = runner.invoke(app, ["games"])
    assert listing.exit_code == 0
    assert "gonzaga: Gonzaga, 2-4 players" in listing.output
    assert "signorie: Signorie, 2-4 players" in listing.output
    ok = runner.invoke(app, ["components", "check"])
    assert ok.exit_code == 0 and "provisional" in ok.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "signorie-components/1"}', encoding="utf-8")
    refused = runner.invoke(app, ["components", "check", str(bad)])
    assert refused.exit_code == 1 and "action_slots" in refused.output
    unknown = runner.invoke(app, ["simulate", "--game", "chess"])
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output
    option = runner.invoke(app, ["simulate", "--game", "signorie", "--scenario", "Duo"])
    assert option.exit_code == 2 and "Signorie has no option scenario" in option.output


def test_signorie_records_replay_from_the_command_line(tmp_path) -> None:
    from typer.testing import CliRunner

    from tavola.cli import app

    runner = CliRunner()
    made = runner.invoke(app, ["simulate", "--game", "signorie", "--players",
                               "random,random", "--games", "2", "--records", str(tmp_path)])
    assert made.exit_code == 0, made.output
    verified = runner.invoke(app, ["replay", "--verify", str(tmp_path / "game-00001.json")])
    assert verified.exit_code == 0 and "replay exactly" in verified.output


# -- the anchor: the heuristic's favourite unless the search finds a clear gain --------------


def _arm(action: str, visits: int, lead: float) -> _Arm:
    return _Arm(action, 0.0, visits=visits, total=visits * 0.5, lead=lead * visits)


def test_without_an_anchor_the_most_visited_option_is_chosen() -> None:
    arms = [_arm("favourite", 40, 1.0), _arm("other", 60, 1.5)]
    assert _chosen(arms, 0.0).action == "other"


def test_an_anchor_keeps_the_favourite_unless_another_option_leads_by_enough() -> None:
    arms = [_arm("favourite", 40, 1.0), _arm("other", 60, 1.5)]
    assert _chosen(arms, 1.0).action == "favourite"  # 0.5 points better: not enough
    assert _chosen(arms, 0.5).action == "other"  # exactly the anchor: a clear gain
    arms = [_arm("favourite", 70, 1.0), _arm("other", 30, 9.0)]
    assert _chosen(arms, 1.0).action == "favourite"  # the most visited is the favourite


def test_the_prior_weight_and_the_reward_scale_are_options_of_the_search_spec() -> None:
    settings = parse_settings("hard:prior=0.6:scale=5")
    assert (settings.prior_weight, settings.reward_scale) == (0.6, 5.0)
    assert parse_settings("hard").reward_scale is None  # the game's own scale
    for bad in ("prior=-1", "scale=0"):
        with pytest.raises(ValueError, match="scale=POINTS"):
            parse_settings(bad)


def test_a_reward_scale_in_the_settings_replaces_the_games() -> None:
    """A smaller scale makes the same lead a reward nearer 1: the root's mean rewards move."""
    game = ToyGame()
    totals = []
    for scale in (None, 0.05):
        settings = Settings(iterations=200, reward_scale=scale)
        bot = MCTSBot(game, seed=1, settings=settings)  # type: ignore[arg-type]
        rng = random.Random(5)
        root = bot._search(Toy(random.Random(0)), RandomHooks(game, rng), rng,  # type: ignore[arg-type]
                           settings)
        totals.append([round(arm.total / arm.visits, 3) for arm in root.arms[0] if arm.visits])
    assert totals[0] != totals[1]


def test_the_anchor_is_an_option_of_the_search_spec() -> None:
    assert parse_settings("hard:anchor=1.5").anchor == 1.5
    assert parse_settings("hard").anchor == 0.0
    with pytest.raises(ValueError, match="anchor"):
        parse_settings("anchor=-1")


def test_an_anchor_may_depend_on_the_number_of_players() -> None:
    settings = Settings(anchor=1.0, by_players=per_players({2: {"anchor": 2.0}}))
    assert (settings.at(2).anchor, settings.at(4).anchor) == (2.0, 1.0)
    assert parse_settings("hard:anchor=1.5", {"hard": settings, "medium": settings}
                          ).at(2).anchor == 1.5  # an explicit anchor holds at every count
    from tavola.games.gonzaga.bots.mcts import LEVELS

    assert [LEVELS["hard"].at(n).anchor for n in (2, 3, 4)] == [1.0, 0.0, 0.0]


def test_settings_by_players_change_only_the_fields_they_name() -> None:
    settings = Settings(iterations=100, exploration=0.5, by_players=per_players(
        {2: {"iterations": 600, "exploration": 0.25}, 3: {"iterations": 300}}))
    two, three, four = (settings.at(n) for n in (2, 3, 4))
    assert (two.iterations, two.exploration) == (600, 0.25)
    assert (three.iterations, three.exploration) == (300, 0.5)
    assert four == replace(settings, by_players=()) and two.by_players == ()
    spec = parse_settings("hard:c=0.75", {"hard": settings, "medium": settings})
    assert [spec.at(n).exploration for n in (2, 3)] == [0.75, 0.75]
    assert [spec.at(n).iterations for n in (2, 3, 4)] == [600, 300, 100]  # the rest stays
    with pytest.raises(ValueError, match="cannot differ"):
        Settings(by_players=per_players({2: {"by_players": ()}}))
    with pytest.raises(ValueError, match="budget"):
        Settings(time_limit=None, by_players=per_players({2: {"iterations": None}}))


class _TakeFirst(RandomHooks):
    """The toy's options with the losing one (`take`) first: the favourite an anchor holds."""

    def options(self, state: Any, seat: int, settings: Settings) -> list[tuple[Any, float]]:
        return sorted(super().options(state, seat, settings), key=lambda o: o[0] != "take")


class _TakeFirstSpec:
    levels: ClassVar[dict[str, Settings]] = {"medium": Settings()}

    def hooks(self, view: Any, seat: int, settings: Settings) -> _TakeFirst:
        return _TakeFirst(ToyGame(), random.Random(seat))  # type: ignore[arg-type]


def test_a_decision_uses_the_anchor_of_its_number_of_players() -> None:
    """The toy has 2 players: an anchor set for 2 holds the favourite, which loses; one set
    for 3 players does not, and the search rolls."""
    game = ToyGame()
    view = Toy(random.Random(0))
    chosen = {}
    for players in (2, 3):
        settings = Settings(iterations=600, by_players=per_players({players: {"anchor": 1e9}}))
        bot = MCTSBot(game, seed=1, settings=settings,  # type: ignore[arg-type]
                      search=_TakeFirstSpec())
        chosen[players] = bot.decide(view, ["roll", "take"])
    assert chosen == {2: "take", 3: "roll"}


def test_leads_are_each_seats_estimate_less_the_best_other_seats() -> None:
    """`leads` finds the best and second best once; each lead is still the plain difference,
    ties at the top included."""
    rng = random.Random(5)
    for _ in range(3000):
        n = rng.randint(2, 5)
        estimates = [float(rng.choice([0, 1, 2, 3.5])) + rng.choice([0.0, rng.random()])
                     for _ in range(n)]
        plain = [e - max(x for j, x in enumerate(estimates) if j != i)
                 for i, e in enumerate(estimates)]
        assert leads(estimates) == plain
