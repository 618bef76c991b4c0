"""Golden games on the shipped board: recorded once, they must replay to the same result.

An engine change that alters any legal move, turn order, scoring event or the final scoring
fails here. Regenerating them is a deliberate act: rerun the games (see `play_golden`) and
update the expected results below in the same commit, saying why they changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tavola.games.gonzaga.game import make_bot
from tavola.games.gonzaga.match import play_game
from tavola.games.gonzaga.record import game_record, load_record, verify_record

GOLDEN = Path(__file__).parent / "golden"

#: file -> (seat specs, seed, scenario, rounds, final scores, winners)
EXPECTED = {
    "europa-2p-greedy-random-seed101.json":
        (["greedy", "random"], 101, "Gutenberg", 12, [102, 34], [0]),
    "europa-3p-greedy-greedy-random-seed102.json":
        (["greedy", "greedy", "random"], 102, "Petrarca", 12, [114, 80, 16], [0]),
    "europa-4p-greedy-random-greedy-random-seed103.json":
        (["greedy", "random", "greedy", "random"], 103, "Mantegna", 12, [101, 16, 79, 32], [0]),
}


def play_golden(specs: list[str], seed: int):
    bots = [make_bot(s, seed=seed * 8 + i) for i, s in enumerate(specs)]
    return play_game(bots, seed=seed)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_record_replays_exactly(name):
    specs, seed, scenario, rounds, scores, winners = EXPECTED[name]
    assert [p["spec"] for p in load_record(GOLDEN / name)["players"]] == specs
    data = load_record(GOLDEN / name)
    assert data["scenario"] == scenario and data["seed"] == seed
    state = verify_record(data)
    assert state.round == rounds
    assert [p.score for p in state.players] == scores
    assert list(state.winners) == winners


@pytest.mark.parametrize("name", sorted(EXPECTED)[:1])
def test_bots_replay_the_golden_game(name):
    """Bots and engine together are deterministic: the same seeds give the same record."""
    specs, seed, *_ = EXPECTED[name]
    state = play_golden(specs, seed)
    again = game_record(state, players=specs, seed=seed)
    stored = load_record(GOLDEN / name)
    assert again["rounds"] == stored["rounds"]
