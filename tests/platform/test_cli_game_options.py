"""A platform command takes a game's options as `--option NAME=VALUE` only: the help names no
game, `replay` takes them too, and the shortcuts of older versions (`--scenario`, `--variant`,
`--board`) still work, each saying what to write instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from platform_helpers import TINY_BOARD
from typer.testing import CliRunner

from tavola import registry
from tavola.cli import app, old_flags
from tavola.i18n import DOMAINS

runner = CliRunner()
TINY = TINY_BOARD


def test_the_help_lists_the_registered_games_and_domains() -> None:
    told = " ".join(runner.invoke(app, ["--help"]).output.split())
    assert all(name in told for name in registry.available())
    domains = " ".join(runner.invoke(app, ["i18n", "check", "--help"]).output.split())
    assert f"({', '.join(DOMAINS)};" in domains


@pytest.mark.parametrize("command", ["play", "simulate", "replay"])
def test_a_commands_own_options_name_no_game(command: str) -> None:
    told = runner.invoke(app, [command, "--help"]).output
    for name in registry.available():
        title = registry.get(name).info.title
        assert f"{title}:" not in told, f"`{command} --help` has an option of {title}'s"


def test_replay_takes_the_options_a_record_does_not_hold(tmp_path: Path) -> None:
    made = runner.invoke(app, ["simulate", "--players", "random,random", "--games", "1",
                               "--records", str(tmp_path), "--option", f"board={TINY}"])
    assert made.exit_code == 0, made.output
    record = next(tmp_path.glob("*.json"))
    verified = runner.invoke(app, ["replay", "--verify", str(record),
                                   "--option", f"board={TINY}"])
    assert verified.exit_code == 0 and "replay exactly" in verified.output, verified.output
    old = runner.invoke(app, ["replay", "--verify", str(record), "--board", str(TINY)])
    assert old.exit_code == 0 and "replay exactly" in old.output, old.output
    assert f"--board is deprecated: write --option board={TINY}" in " ".join(old.output.split())
    assert runner.invoke(app, ["replay", "--verify", str(record)]).exit_code == 1  # not on it


def test_an_old_shortcut_says_what_to_write_instead() -> None:
    result = runner.invoke(app, ["simulate", "--players", "random,random", "--games", "1",
                                 "--option", f"board={TINY}", "--scenario", "Duo"])
    assert result.exit_code == 0, result.output
    assert "--scenario is deprecated: write --option scenario=Duo" in result.output


def test_old_shortcuts_are_read_as_the_game_declares_its_options() -> None:
    info = registry.get("gonzaga").info
    assert old_flags(info, ["--variant", "a", "--scenario=Duo", "--board", "b.json"]) \
        == ["variants=a", "scenario=Duo", "board=b.json"]
    assert old_flags(info, ["--colour", "red"]) == ["colour=red"]  # read_options refuses it
    for stray in (["Duo"], ["--scenario"]):
        with pytest.raises(ValueError, match="a game's option is --option NAME=VALUE"):
            old_flags(info, stray)
