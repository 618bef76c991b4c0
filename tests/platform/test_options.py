"""Every option a game declares reaches every command, spelled alike and read by one function
(`tavola.game.read_options`): play, simulate, tournament, bench and the web lobby."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from platform_helpers import TINY_BOARD as TINY
from typer.testing import CliRunner

from tavola.cli import app
from tavola.game import option_words, read_options
from tavola.games.gonzaga.game import GAME as GONZAGA
from tavola.games.signorie.game import GAME as SIGNORIE

runner = CliRunner()
VARIANT = "one-league-per-sea"
#: Gonzaga's three options, as a command line sets them (a small board keeps games short)
GONZAGA_OPTIONS = ["--option", f"variants={VARIANT}", "--option", "scenario=Duo",
                   "--option", f"board={TINY}"]


def test_a_list_option_is_read_from_words_as_the_game_declares_it():
    read = read_options(GONZAGA.info, option_words([f"variants={VARIANT}", "scenario=Duo"]))
    assert read == {"variants": [VARIANT], "scenario": "Duo"}
    assert read_options(GONZAGA.info, {"variants": f" {VARIANT} ,"}) == {"variants": [VARIANT]}
    assert read_options(GONZAGA.info, {"variants": [VARIANT]}) == {"variants": [VARIANT]}


@pytest.mark.parametrize(("given", "problem"), [
    ({"variants": ["two-leagues"]}, "has no two-leagues (it takes: one-league-per-sea)"),
    ({"scenario": ["Duo", "Trio"]}, "takes one value, not 2"),
    ({"scenario": 3}, "takes words"),
    ({"colour": ["red"]}, "Gonzaga has no option colour (its options: scenario, variants"),
])
def test_a_bad_option_is_named(given, problem):
    with pytest.raises(ValueError) as err:
        read_options(GONZAGA.info, given)
    assert problem in str(err.value)


def test_signorie_declares_no_option_and_every_command_says_so():
    with pytest.raises(ValueError, match="Signorie has no option variants"):
        read_options(SIGNORIE.info, {"variants": VARIANT})
    for command in (["simulate", "--games", "1"], ["tournament", "--games", "2"],
                    ["bench", "--games", "1", "--mcts", "0"], ["play"]):
        result = runner.invoke(app, [*command, "--game", "signorie",
                                     "--option", f"variants={VARIANT}"])
        assert result.exit_code == 2, command
        assert "Signorie has no option variants (its options: none)" in result.output


def _variants_of(records: Path) -> set[tuple[str, ...]]:
    """The rule variants of each record in a folder (and below)."""
    files = list(records.rglob("*.json"))
    assert files
    return {tuple(json.loads(f.read_text())["variants"]) for f in files
            if "variants" in json.loads(f.read_text())}


def test_simulate_plays_gonzagas_options(tmp_path):
    result = runner.invoke(app, ["simulate", "--games", "1", "--players", "random,random",
                                 "--records", str(tmp_path), *GONZAGA_OPTIONS])
    assert result.exit_code == 0, result.output
    assert _variants_of(tmp_path) == {(VARIANT,)}


def test_tournament_plays_gonzagas_options(tmp_path):
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--bots", "random,greedy", "--players", "2",
                                 "--games", "2", "--workers", "1", "--out", str(out),
                                 *GONZAGA_OPTIONS])
    assert result.exit_code == 0, result.output
    assert _variants_of(out / "records") == {(VARIANT,)}
    assert f"--option variants={VARIANT}" in (out / "results.md").read_text(encoding="utf-8")


def test_play_takes_gonzagas_options_and_variant_is_their_shortcut(monkeypatch):
    from tavola.games.gonzaga.terminal import loop

    seen: list[dict] = []
    monkeypatch.setattr(loop, "play_in_terminal", lambda specs, **kw: seen.append(kw))
    for args in (GONZAGA_OPTIONS, ["--variant", VARIANT, "--scenario", "Duo"]):
        result = runner.invoke(app, ["play", "--players", "random,random", *args])
        assert result.exit_code == 0, result.output
    assert [kw["variants"] for kw in seen] == [[VARIANT], [VARIANT]]
    assert [kw["scenario"] for kw in seen] == ["Duo", "Duo"]
    assert seen[0]["board"] is not None and seen[1]["board"] is None


def test_bench_times_games_with_gonzagas_options(monkeypatch):
    from tavola.games.gonzaga import game as gonzaga_game

    dealt: list[dict] = []
    real = gonzaga_game.Gonzaga.new_game

    def spy(self, names, seed=None, options=None):
        dealt.append(dict(options or {}))
        return real(self, names, seed, options)

    monkeypatch.setattr(gonzaga_game.Gonzaga, "new_game", spy)
    result = runner.invoke(app, ["bench", "--json", "--games", "1", "--mcts", "0",
                                 "--option", f"variants={VARIANT}", "--option", f"board={TINY}"])
    assert result.exit_code == 0, result.output
    assert dealt and all(d["variants"] == [VARIANT] for d in dealt)
    # a scenario is for one player count; the bench's 4-player games refuse a 2-player one
    result = runner.invoke(app, ["bench", "--games", "1", "--mcts", "0", *GONZAGA_OPTIONS])
    assert result.exit_code == 2 and "scenario Duo is for 2 players, not 4" in result.output


def test_bench_on_the_server_sets_only_what_the_lobby_offers():
    result = runner.invoke(app, ["bench", "--server", "--option", f"board={TINY}"])
    assert result.exit_code == 2
    assert "the lobby does not offer board" in result.output


def test_the_lobby_reads_gonzagas_options_with_the_same_reader():
    from tavola.web.errors import ClientError
    from tavola.web.site import load_sites

    site = load_sites()["gonzaga"]
    assert site.parse_options({"variants": [VARIANT], "scenario": "Colombo"}) == {
        "scenario": "Colombo", "variants": [VARIANT]}
    assert site.parse_options({}) == {"scenario": None, "variants": []}
    for bad in ({"variants": ["two-leagues"]}, {"scenario": ["a", "b"]}):
        with pytest.raises(ClientError) as err:
            site.parse_options(bad)
        assert err.value.code == "bad-options"
    assert site.parse_options({"board": "/etc/passwd"})["variants"] == [], \
        "a file on the server is not the lobby's to name"
