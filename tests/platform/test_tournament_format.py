"""A tournament's results carry the platform's format, name their game, and results saved in
the format named after a game still load."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from tavola import registry
from tavola.tournament import FORMAT, read_results, run_tournament

SAVED = Path(__file__).resolve().parents[2] / "docs" / "tournaments"


def test_results_are_written_in_the_platforms_format(tmp_path: Path) -> None:
    game = registry.get("signorie")
    run_tournament(game, ["random", "greedy"], [2], games=2, seed=3, workers=1, out=tmp_path,
                   console=Console(file=io.StringIO()), records=False)
    data = read_results(tmp_path / "results.json")
    assert FORMAT == data["format"] == "tavola-tournament/1"
    assert data["parameters"]["game"] == "signorie"


@pytest.mark.parametrize("folder, game", [("2p", "gonzaga"), ("signorie-short", "signorie")])
def test_results_saved_in_the_earlier_format_still_load(folder: str, game: str) -> None:
    path = SAVED / folder / "results.json"
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "gonzaga-tournament/1"
    data = read_results(path)
    assert data["parameters"]["game"] == game and data["games"]


@pytest.mark.parametrize("text, problem", [
    ('{"format": "gonzaga-record/1"}', "not a tournament's results"),
    ('{"format": "tavola-tournament/1", "parameters": {}}', "do not name their game"),
    ("[1, 2", "cannot read it"),
])
def test_what_is_not_a_tournaments_results_is_named(tmp_path: Path, text: str,
                                                    problem: str) -> None:
    path = tmp_path / "results.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=problem):
        read_results(path)
