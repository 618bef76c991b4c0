"""The learning environments: PettingZoo's API tests, seeds, secrets, masks, the Gymnasium seat."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env

from tavola.game import IllegalAction
from tavola.games.gonzaga.actions import Plan
from tavola.registry import get
from tavola.rl.aec import env
from tavola.rl.describe import spaces_table
from tavola.rl.parallel import parallel_env
from tavola.rl.single import SeatEnv
from tavola.rl.table import Table
from tavola.testing import game_names

#: Each game with an encoding, at its usual table (PettingZoo's API tests of every player
#: count are the conformance suite's: `tavola.testing.check_learning_environments`)
GAMES = [(name, get(name).info.default_players) for name in game_names("encoding")]
DOCS = Path(__file__).parents[2] / "docs" / "research.md"


def masked_choice(rng: random.Random, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_masked(aec, rng: random.Random, steps: int) -> list[np.ndarray]:
    """Observations seen while playing masked-random indices for `steps` steps."""
    seen = []
    for _ in range(steps):
        if aec.terminations[aec.agent_selection]:
            break
        obs = aec.observe(aec.agent_selection)
        seen.append(obs["observation"])
        aec.step(masked_choice(rng, obs["action_mask"]))
    return seen


def test_parallel_refused_for_a_sequential_game():
    with pytest.raises(ValueError, match="no simultaneous phase"):
        parallel_env("signorie")


def test_parallel_plans_are_played_at_once():
    par = parallel_env("gonzaga", players=3)
    obs, _ = par.reset(seed=5)
    rng = random.Random(0)
    assert all(o["action_mask"][par.wait] == 0 for o in obs.values())  # everyone plans
    obs, *_ = par.step({a: masked_choice(rng, o["action_mask"]) for a, o in obs.items()})
    waiting = [a for a, o in obs.items() if o["action_mask"][par.wait]]
    assert len(waiting) == 2  # the plans are revealed: one seat places, two wait
    assert par.table.state.round == 1 and par.table.state.phase == "placing"


def test_parallel_refuses_a_step_with_one_closed_index():
    par = parallel_env("gonzaga", players=3)
    obs, _ = par.reset(seed=5)
    actions = {a: masked_choice(random.Random(1), o["action_mask"]) for a, o in obs.items()}
    actions["seat_2"] = par.wait  # it must plan
    with pytest.raises(IllegalAction, match="is to move"):
        par.step(actions)
    assert not any(p.has_planned for p in par.table.state.players)  # nobody's plan was played


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_same_seed_same_actions_same_observations(name, players):
    runs = []
    for _ in range(2):
        aec = env(name, players=players)
        aec.reset(seed=11)
        runs.append(play_masked(aec, random.Random(3), 60))
    assert len(runs[0]) == len(runs[1]) > 10
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    other = env(name, players=players)
    other.reset(seed=12)
    assert not all(np.array_equal(a, b) for a, b in zip(
        runs[0], play_masked(other, random.Random(3), 60), strict=False))


def test_gonzaga_observation_ignores_other_seats_secrets():
    aec = env("gonzaga", players=3)
    aec.reset(seed=2)
    aec.step(masked_choice(random.Random(0), aec.observe("seat_0")["action_mask"]))
    assert aec.agent_selection == "seat_1"  # seat 0 has planned in secret
    state = aec.table.state
    before = {a: aec.observe(a)["observation"] for a in ("seat_1", "seat_2")}
    own = aec.observe("seat_0")["observation"]
    p0 = state.players[0]
    others = [o for o in state.rules.board.objectives if o not in
              {p.objective for p in state.players}]
    p0.objective = others[0]
    p0.deck.reverse()
    p0.plan = next(p for p in _plans(aec, 0) if p != p0.plan)
    aec.table.moves += 1  # the table made its views before the change
    for agent, obs in before.items():
        assert np.array_equal(aec.observe(agent)["observation"], obs), agent
    assert not np.array_equal(aec.observe("seat_0")["observation"], own)  # its own secrets


def _plans(aec, seat: int) -> list[Plan]:
    state = aec.table.state
    saved, state.players[seat].plan = state.players[seat].plan, None
    plans = list(get("gonzaga").legal_actions(state, seat))
    state.players[seat].plan = saved
    return plans


def test_signorie_observation_ignores_hidden_tiles():
    aec = env("signorie", players=4)
    aec.reset(seed=4)
    play_masked(aec, random.Random(5), 150)
    state = aec.table.state
    before = {a: aec.observe(a)["observation"] for a in aec.agents}
    tiles = state.deck + state.removed + [x for rows in state.down_tiles for r in rows
                                          for x in r]
    random.Random(6).shuffle(tiles)
    state.deck[:] = tiles[:len(state.deck)]
    del tiles[:len(state.deck)]
    state.removed[:] = tiles[:len(state.removed)]
    del tiles[:len(state.removed)]
    for rows in state.down_tiles:
        for r in rows:
            r[:] = tiles[:len(r)]
            del tiles[:len(r)]
    state.rng.seed(99)
    aec.table.moves += 1
    for agent, obs in before.items():
        assert np.array_equal(aec.observe(agent)["observation"], obs), agent


def random_positions(name: str, players: int, count: int):
    """(table, seat to move) at `count` positions of masked-random games."""
    table = Table(name, players)
    rng = random.Random(7)
    seed = 0
    while count > 0:
        table.reset(seed)
        seed += 1
        while not table.over and count > 0:
            seat = table.movers()[rng.randrange(len(table.movers()))]
            if rng.random() < 0.3:
                count -= 1
                yield table, seat
            table.step(seat, masked_choice(rng, table.mask(seat)))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_masks_match_the_legal_actions(name, players):
    game = get(name)
    for table, seat in random_positions(name, players, 40):
        legal = set(game.legal_actions(table.state, seat))  # from the state, not the view
        mask = table.mask(seat)
        assert mask.dtype == np.int8 and int(mask.sum()) == len(legal) > 0
        encoding = table.encoding
        assert all(mask[encoding.action_index(a)] for a in legal)
        assert all(encoding.action_at(seat, int(i)) in legal for i in np.flatnonzero(mask))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_index_names_one_action(name, players):
    encoding = Table(name, players).encoding
    decoded = 0
    for i in range(encoding.action_count):
        try:
            action = encoding.action_at(1, i)
        except ValueError:
            continue  # a Wedding's second ring past the map's edge
        assert encoding.action_index(action) == i
        decoded += 1
    assert decoded > 0.9 * encoding.action_count
    with pytest.raises(ValueError, match="outside"):
        encoding.action_at(0, encoding.action_count)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_closed_index_is_refused_and_changes_nothing(name, players):
    aec = env(name, players=players)
    aec.reset(seed=3)
    agent = aec.agent_selection
    obs = aec.observe(agent)
    closed = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (closed, -1, 10**9, 1.5, None):
        with pytest.raises(IllegalAction):
            aec.step(bad)
    assert aec.agent_selection == agent
    assert np.array_equal(aec.observe(agent)["observation"], obs["observation"])


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_win_rewards(name, players):
    aec = env(name, players=players, reward="win")
    aec.reset(seed=1)
    play_masked(aec, random.Random(2), 10_000)
    assert all(aec.terminations.values())
    rewards = sorted(aec.rewards.values())
    assert rewards[-1] == 1.0 and set(rewards) <= {1.0, -1.0}


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_gymnasium_seat_passes_check_env(name, players):
    # check_env steps with unmasked random indices: the seat loses on one instead of raising
    check_env(SeatEnv(name, seat=1, opponents="random", players=players, illegal="lose"),
              skip_render_check=True)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_gymnasium_seat_plays_against_greedy_bots(name, players):
    seat_env = SeatEnv(name, seat=0, opponents="greedy", players=players)
    obs, _ = seat_env.reset(seed=8)
    rng, done, reward = random.Random(0), False, 0.0
    while not done:
        assert np.array_equal(obs["action_mask"], seat_env.action_masks())
        obs, reward, done, truncated, _ = seat_env.step(masked_choice(rng, obs["action_mask"]))
        assert not truncated
    assert reward == seat_env.table.rewards()[0]
    with pytest.raises(RuntimeError, match="reset"):
        seat_env.step(0)


def test_unknown_bot_and_reward_are_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        SeatEnv("signorie", opponents="nobody")
    with pytest.raises(ValueError, match="unknown reward"):
        env("signorie", reward="money")


@pytest.mark.parametrize("name", game_names("encoding"))
def test_docs_show_the_spaces_as_built(name):
    assert spaces_table(name) in DOCS.read_text(encoding="utf-8")
