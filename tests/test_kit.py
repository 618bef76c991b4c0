"""Each game is declared once, in its kit: the registry finds kits by entry point (a game of
another package appears like ours) and the platform loads every part from them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import fields
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavola import registry
from tavola.bots import make_bot
from tavola.cli import app
from tavola.game import Game
from tavola.kit import GameKit, MoveWords, Part
from tavola.tutorial import Tutorial

OURS = ("gonzaga", "signorie")

# What each optional part is when loaded, and the module a game's package keeps it in by our
# habit (so a part a game has but its kit forgets is caught).
LOADED: dict[str, Callable[[object], bool]] = {
    "words": callable, "site": callable, "tuning": callable, "commands": callable,
    "bench": callable, "prepare": callable, "encoding": callable,
    "moves": lambda part: isinstance(part, MoveWords),
    "tutorial": lambda part: isinstance(part, Tutorial),
    "terminal": lambda part: callable(part.play) and isinstance(part.DEFAULT_PLAYERS, str),
    "rules": lambda part: callable(part.fields) and callable(part.facts),
}
HABITS = {"site": "web/site.py", "terminal": "terminal/__init__.py", "tutorial": "tutorial.py",
          "rules": "rules/__init__.py", "tuning": "bots/tuning.py", "commands": "commands.py",
          "bench": "bench.py"}


def _clear() -> None:
    for cached in (registry.kits, registry.get, registry.move_words):
        cached.cache_clear()


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """The registry reads the entry points again, here and after the test."""
    _clear()
    yield
    _clear()


def _scratch(root: Path, entry_points: str) -> None:
    """An installed distribution `scratch-game` (a dist-info on sys.path) bringing a game
    called scratch: Signorie's rules under another name, and a second kit called gonzaga."""
    package = root / "scratch_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "game.py").write_text(textwrap.dedent("""\
        from dataclasses import replace
        from tavola.games.signorie.game import SignorieGame

        class Scratch(SignorieGame):
            info = replace(SignorieGame.info, name="scratch", title="Scratch",
                           record_format="scratch-record")

        GAME = Scratch()
        """))
    (package / "kit.py").write_text(textwrap.dedent("""\
        from tavola.kit import GameKit, Part

        KIT = GameKit(name="scratch", package="scratch_game",
                      game=Part("scratch_game.game:GAME"), record_format="scratch-record",
                      levels=("random", "greedy"))
        OTHER_GONZAGA = GameKit(name="gonzaga", package="scratch_game",
                                game=Part("scratch_game.game:GAME"),
                                record_format="scratch-record", levels=("greedy",))
        """))
    dist = root / "scratch_game-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: scratch-game\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[tavola.games]\n" + entry_points)


@pytest.mark.parametrize("name", OURS)
def test_every_part_a_kit_declares_loads_as_what_it_is(name: str) -> None:
    kit = registry.kit(name)
    game: Game = kit.game.load()
    assert (game.info.name, game.info.record_format) == (kit.name, kit.record_format)
    assert kit.text_domain == name
    for field, is_it in LOADED.items():
        part = getattr(kit, field)
        if part is None:
            assert (name, field) == ("signorie", "prepare"), f"{name} declares no {field}"
            continue
        assert is_it(part.load()), f"{name}'s {field} ({part.path}) is not what it should be"
    assert list(kit.words.load()())  # its names kept in data, for its catalogs
    assert tuple(kit.site.load()().levels) == tuple(kit.levels)
    assert all(make_bot(game, spec, seed=1) for spec in kit.levels)  # each level is a bot
    assert kit.encoding.load()(game.new_game(["a", "b", "c"], seed=1)).action_count > 0


@pytest.mark.parametrize("name", OURS)
def test_a_kit_leaves_out_no_part_its_package_has(name: str) -> None:
    kit = registry.kit(name)
    folder = resources.files(kit.package)
    for field, habit in HABITS.items():
        if folder.joinpath(habit).is_file():
            assert getattr(kit, field) is not None, f"{name} has {habit} but declares no {field}"
    assert (kit.prepare is None) == (name == "signorie")  # only Gonzaga builds tables first


def test_declaring_the_games_imports_no_game() -> None:
    """Finding the games reads their kits only: no rules, web or terminal is imported."""
    code = ("import sys; from tavola import registry; registry.kits(); "
            "print(*sorted(m for m in sys.modules if m.startswith('tavola.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["tavola.games.gonzaga", "tavola.games.gonzaga.kit",
                           "tavola.games.signorie", "tavola.games.signorie.kit"]


def test_a_game_declared_by_an_entry_point_is_played_like_ours(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    _scratch(tmp_path, "scratch = scratch_game.kit:KIT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _clear()
    assert registry.available() == ("gonzaga", "scratch", "signorie")
    assert registry.get("scratch").info.title == "Scratch"
    assert registry.for_record_format("scratch-record/1") is registry.get("scratch")
    from tavola.rl.table import Table
    with pytest.raises(ValueError, match="Scratch cannot be played by the learning environments"):
        Table("scratch")  # its rules could, but its kit declares no encoding
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "scratch: Scratch, 2-4 players" in result.output


def test_our_own_entry_points_name_the_kits_already_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    """Installed, our distribution's entry points name the kits of `tavola.games`: the same."""
    _scratch(tmp_path, "gonzaga = tavola.games.gonzaga.kit:KIT\n"
                       "signorie = tavola.games.signorie.kit:KIT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _clear()
    assert registry.available() == OURS


def test_an_entry_point_naming_a_game_already_found_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    _scratch(tmp_path, "gonzaga = scratch_game.kit:OTHER_GONZAGA\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _clear()
    with pytest.raises(registry.KitError, match=r"two games are called 'gonzaga': the entry "
                       r"point gonzaga = scratch_game.kit:OTHER_GONZAGA \(distribution "
                       r"scratch-game\) and tavola.games.gonzaga"):
        registry.available()


def test_an_entry_point_is_named_as_its_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    _scratch(tmp_path, "other = scratch_game.kit:KIT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _clear()
    with pytest.raises(registry.KitError, match="declares the game 'scratch'"):
        registry.available()


def test_an_entry_point_must_name_a_kit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    _scratch(tmp_path, "scratch = scratch_game.game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _clear()
    with pytest.raises(registry.KitError, match=r"is not a tavola\.kit\.GameKit but Scratch"):
        registry.available()


def test_a_cover_bot_is_one_of_the_levels() -> None:
    with pytest.raises(ValueError, match="cover bot 'greedy' is not one of its levels"):
        GameKit(name="x", package="x", game=Part("x:GAME"), record_format="x-record",
                levels=("random",))


def test_a_part_is_imported_only_when_loaded() -> None:
    part = Part("no_such_package.anywhere:THING")  # declaring it imports nothing
    with pytest.raises(ModuleNotFoundError):
        part.load()
    assert {f.name for f in fields(GameKit)} >= set(LOADED) | {"cover_bot", "levels"}


def test_a_bot_worker_builds_what_each_kit_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    from tavola.games.gonzaga.placement import placement_tables
    from tavola.web import botpool

    built: list[object] = []
    monkeypatch.setattr("tavola.games.gonzaga.game.placement_tables",
                        lambda board: built.append(board) or placement_tables(board))
    assert botpool.prepare_games() == ["gonzaga"]  # Signorie declares nothing to build
    assert len(built) == 1


def test_our_distribution_names_each_of_our_kits() -> None:
    """Installed, our games are found by the entry points pyproject.toml declares."""
    import tomllib
    from importlib.metadata import EntryPoint

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    declared = project["project"]["entry-points"][registry.GROUP]
    assert sorted(declared) == sorted(OURS)
    for name, value in declared.items():
        assert EntryPoint(name, value, registry.GROUP).load() is registry.kit(name)
