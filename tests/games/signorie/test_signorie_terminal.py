"""Signorie in the terminal: whole games typed at a scripted keyboard (bad typing included),
hot-seat, records that replay, the table drawn mid-game, previews and the command line."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tavola.cli import app
from tavola.games.signorie import text as words
from tavola.games.signorie.engine import die_cost
from tavola.games.signorie.game import GAME
from tavola.games.signorie.preview import full_state, preview
from tavola.games.signorie.state import SignorieState
from tavola.games.signorie.terminal import render
from tavola.games.signorie.terminal.input import Command, Retry, parse_choice
from tavola.games.signorie.terminal.loop import play_in_terminal, seat_names

say = words.say
runner = CliRunner()


def capture(width: int = 120) -> Console:
    return Console(file=io.StringIO(), width=width, height=50, force_terminal=False)


def output(console: Console) -> str:
    return console.file.getvalue()  # type: ignore[attr-defined]


class Keyboard:
    """Types the scripted answers first, then `default` at every prompt; keeps the prompts."""

    def __init__(self, answers: Iterable[str] = (),
                 default: str | Callable[[str], str] = "1") -> None:
        self.answers = list(answers)
        self.default = default
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > 3000:
            raise AssertionError("the game does not move on: " + " | ".join(self.prompts[-4:]))
        if self.answers:
            return self.answers.pop(0)
        return self.default(prompt) if callable(self.default) else self.default


def play(specs: list[str], keyboard: Callable[[str], str], *, seed: int = 5,
         record: Path | None = None, width: int = 120, **kw) -> tuple[SignorieState, str]:
    console = capture(width)
    state = play_in_terminal(specs, seed=seed, record=record, console=console,
                             input_fn=keyboard, **kw)
    return state, output(console)


def random_position(players: int = 4, steps: int = 90, seed: int = 3) -> SignorieState:
    state = GAME.new_game(seat_names(["human"] + ["greedy"] * (players - 1)), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        GAME.apply_in_place(state, legal[rng.randrange(len(legal))])
    return state


# -- typing -------------------------------------------------------------------------------------


def test_numbers_pick_lines_and_words_are_commands_or_explained():
    assert parse_choice("3", 5) == 2
    assert parse_choice(" 1) ", 5) == 0
    assert parse_choice("HELP", 5) == Command("help")
    assert parse_choice("b", 5) == Command("board")
    assert parse_choice("log", 5) == Command("log")
    assert parse_choice("q", 5) == Command("quit")
    assert parse_choice("hint", 5) == parse_choice("!", 5) == Command("hint")
    for bad, key in (("", "retry.empty"), ("0", "retry.range"), ("6", "retry.range"),
                     ("fish", "retry.word"), ("-2", "retry.word")):
        with pytest.raises(Retry) as caught:
            parse_choice(bad, 5)
        assert str(caught.value) == say(key, answer=bad, last=5)


def test_a_hint_names_three_menu_lines_and_the_record_counts_it(tmp_path: Path):
    keyboard = Keyboard(["hint", "!"])
    record = tmp_path / "game.json"
    state, shown = play(["human", "greedy"], keyboard, record=record, seed=8)
    assert state.is_over
    flat = " ".join(shown.replace("│", " ").split())
    assert flat.count(say("hint.title")) == 2
    lines = re.findall(r"(\d)\. line (\d+): .*?; at the end (\d+\.\d) VP (?:ahead|behind)",
                       flat)
    assert [rank for rank, _, _ in lines][:3] == ["1", "2", "3"]
    last = int(re.search(r"\[1-(\d+),", keyboard.prompts[0]).group(1))
    assert all(1 <= int(line) <= last for _, line, _ in lines[:3])  # lines of the menu shown
    data = json.loads(record.read_text())
    assert [p["hints"] for p in data["players"]] == [2, 0]
    assert GAME.verify_record(data).is_over


# -- whole games --------------------------------------------------------------------------------


BAD = ["", "abc", "99", "0", "help", "board", "log", "q", "n"]


def test_a_whole_game_against_a_bot_survives_bad_typing(tmp_path: Path):
    keyboard = Keyboard(BAD)
    state, shown = play(["human", "greedy"], keyboard, record=tmp_path / "game.json")
    assert state.is_over
    last = int(re.search(r"\[1-(\d+),", keyboard.prompts[0]).group(1))
    flat = " ".join(shown.split())
    for key, fields in (("retry.empty", {}), ("retry.word", {"answer": "abc"}),
                        ("retry.range", {"answer": "99"}), ("retry.range", {"answer": "0"})):
        assert say(key, last=last, **fields) in flat
    assert " ".join(say("help").split())[:60] in " ".join(shown.replace("│", " ").split())
    assert say("log.title") in shown
    assert say("quit.kept") in shown
    assert say("ask.quit") in keyboard.prompts
    # the bot's moves were told as sentences, the reward step and the final scoring shown
    public = GAME.view(state, None)
    bot_lines = [GAME.describe_log(public, e) for e in state.log if e.seat == 1]
    assert bot_lines and all(line[:40] in shown for line in bot_lines[:20])
    assert say("rewards.step", round=1) in shown and say("final.title") in shown
    winner = GAME.winners(state)[0]
    assert say("final.winner", name=state.names[winner], vp=state.vp[winner]) in shown
    assert "Traceback" not in shown


def test_a_typed_number_plays_that_line_of_the_menu():
    """Choose the 2nd line at every question: the game follows exactly those choices."""
    keyboard = Keyboard(default=lambda prompt: "1" if "[1-1," in prompt else "2")
    state, _ = play(["human", "random"], keyboard, seed=9)
    replay = GAME.new_game(list(state.names), state.seed)
    for action in state.history:
        seat = replay.to_move()[0]
        legal = GAME.legal_actions(replay, seat)
        if seat == 0:
            assert action == legal[min(1, len(legal) - 1)] or len(legal) == 1
        GAME.apply_in_place(replay, action)
    assert replay.vp == state.vp


def test_hot_seat_hands_the_device_over_between_people():
    keyboard = Keyboard()
    state, shown = play(["human", "human", "greedy"], keyboard, seed=2)
    assert state.is_over
    asked = [p for p in keyboard.prompts if "[1-" in p]
    enter = {say("ask.enter", name=n) for n in state.names[:2]}
    handovers = [p for p in keyboard.prompts if p in enter]
    # one hand-over each time the person asked changes (the first asked gets one too)
    askers = [p.split(",")[0] for p in asked]
    changes = 1 + sum(1 for a, b in itertools.pairwise(askers) if a != b)
    assert len(handovers) == changes > 2
    for i, prompt in enumerate(keyboard.prompts):  # each hand-over names who is asked next
        if prompt in enter:
            following = next(p for p in keyboard.prompts[i + 1:] if "[1-" in p)
            assert prompt == say("ask.enter", name=following.split(",")[0])
    assert say("pass.device", tag="[R]", name=state.names[1]).split(".")[0] in shown
    assert state.names[:2] == tuple(say("seat.human", colour=c.title())
                                    for c in GAME.info.seat_colours[:2])


def test_quitting_asks_first_and_keeps_a_record_that_replays(tmp_path: Path):
    path = tmp_path / "left.json"
    keyboard = Keyboard(["1", "1", "quit", "y"])
    state, shown = play(["human", "greedy", "greedy"], keyboard, record=path)
    assert not state.is_over
    assert say("abandoned", round=state.round) in shown
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["finished"] is False
    verified = runner.invoke(app, ["replay", "--verify", str(path)])
    assert verified.exit_code == 0, verified.output
    assert "replay exactly" in verified.output


def test_end_of_input_leaves_the_game_without_a_traceback():
    def closed(prompt: str) -> str:
        raise EOFError

    state, shown = play(["human", "greedy"], closed)
    assert not state.is_over and say("abandoned", round=1) in shown


def test_bots_moves_pause_when_asked():
    waits: list[float] = []
    state, shown = play(["greedy", "random"], Keyboard(), pause=0.25, sleep=waits.append)
    assert state.is_over and waits == [0.25] * len(state.history)
    assert say("final.title") in shown


def test_record_of_a_finished_game_verifies_from_the_command_line(tmp_path: Path):
    path = tmp_path / "game.json"
    state, shown = play(["human", "planner"], Keyboard(), seed=11, record=path)
    assert say("record.written", path=path) in shown.replace("\n", "")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"].startswith(GAME.info.record_format)
    assert [p["spec"] for p in data["players"]] == ["human", "planner"]
    verified = runner.invoke(app, ["replay", "--verify", str(path)])
    assert verified.exit_code == 0, verified.output
    assert str(list(state.vp)) in verified.output


# -- drawing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_table_mid_game_shows_names_values_and_costs(width: int):
    state = random_position()
    v = GAME.view(state, 0)
    console = capture(width)
    console.print(render.render_table(v, width))
    shown = output(console)
    assert all(len(line) <= width for line in shown.splitlines())
    assert "…" not in shown  # no word cut short, however narrow the terminal
    t = v.t
    for seat in range(v.n):
        assert f"[{render.letter(v, seat)}] {v.names[seat]}" in shown
        assert say("board.title", tag=f"[{render.letter(v, seat)}]", name=v.names[seat],
                   vp=v.vp[seat], florins=v.florins[seat]) in shown
    for c, dice in enumerate(v.dice):
        for value in dice:
            assert f"{value} ({die_cost(v, c, value)})" in shown
    for city in v.cities:
        assert t.city_names[city] in shown
        for tile in v.city_tiles[city]:
            if tile >= 0:
                assert words.tile_text(t, tile) in shown
    flat = " ".join(shown.split())
    for tile in v.rewards[:5]:
        assert words.effect_text(t.bonus_tiles[tile]) in flat
    assert say("title", round=v.round, rounds=t.rounds, phase=say("phase.actions")) in shown
    for name in (*map(words.track_title, t.tracks), *map(words.SIGNORIA.get, t.signoria_name)):
        assert name in flat


def test_pieces_on_tracks_and_cities_carry_their_seat_letter():
    state = random_position(steps=160, seed=8)
    v = GAME.view(state, None)
    console = capture(120)
    console.print(render.render_cities(v), render.render_tracks(v))
    shown = output(console)
    for city in v.cities:
        for seat, sex in v.city_meeples[city]:
            assert render.letter(v, seat) + words.SEX_SIGNS[sex] in shown
    on_tracks = {seat for seat in range(v.n) if any(map(any, v.career[seat]))}
    assert on_tracks and all(render.letter(v, s) in shown for s in on_tracks)
    assert len({render.letter(v, s) for s in range(v.n)}) == v.n  # a distinct cue per seat


def test_the_menu_lists_costs_and_previews_what_each_action_gains():
    state = random_position(steps=40, seed=4)
    seat = state.to_move()[0]
    v = GAME.view(state, seat)
    legal = GAME.legal_actions(v, seat)
    gains = [preview(v, a) for a in legal]
    console = capture(120)
    console.print(render.render_menu(v, legal, gains))
    shown = output(console)
    for i, (action, gain) in enumerate(zip(legal, gains, strict=True), start=1):
        assert f"{i})" in shown
        assert words.option_text(v, action)[:30] in shown
        if gain.florins:
            assert f"{gain.florins:+d}" in shown


def test_previews_agree_with_the_rules():
    """What a preview says an action gains is what applying it gives, whenever the action
    does not also close the phase (which scores for everyone) or roll dice."""
    checked = 0
    for seed in range(4):
        state = GAME.new_game(["A", "B", "C"], seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move()[0]
            legal = GAME.legal_actions(state, seat)
            base = full_state(state)
            for action in legal:
                after = GAME.apply(state, action)
                gain = preview(state, action, base)
                new = after.log[len(state.log):]
                if gain.chance or any(e.kind in ("rewards", "round", "game_over", "reward")
                                      for e in new):
                    continue
                if after.stack and after.stack[-1][1] == seat and \
                        after.stack[-1][0] == "helpers":
                    assert gain.vp == after.vp[seat] - state.vp[seat]
                    assert gain.florins == after.florins[seat] - state.florins[seat]
                    checked += 1
            state = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 100


def test_seat_names_tell_people_from_bots():
    assert seat_names(["human", "greedy"])[0] == say("seat.you", colour="Yellow")
    names = seat_names(["greedy", "greedy", "mcts:easy"])
    assert len(set(names)) == 3 and names[2] == "MCTS (easy)"


# -- the command line ---------------------------------------------------------------------------


def test_play_game_signorie_from_the_command_line(tmp_path: Path):
    path = tmp_path / "cli.json"
    typed = "\n".join(["abc", "7777"] + ["1"] * 2500) + "\n"
    result = runner.invoke(app, ["play", "--game", "signorie", "--players", "human,greedy",
                                 "--seed", "3", "--record", str(path)], input=typed)
    assert result.exit_code == 0, result.output
    assert say("retry.word", answer="abc", last=1).split(":")[0] in result.output
    assert say("final.title") in result.output
    verified = runner.invoke(app, ["replay", "--verify", str(path)])
    assert verified.exit_code == 0 and "replay exactly" in verified.output


@pytest.mark.parametrize("args, problem", [
    (["--players", "human,wizard"], "unknown bot"),
    (["--players", "human,greedy,greedy,greedy,greedy"], "2 to 4 players"),
    (["--scenario", "Wedding"], "Signorie has no option scenario (its options: none)"),
    (["--variant", "one-league-per-sea"], "Signorie has no option variant "),
    (["--option", "variants=one-league-per-sea"], "Signorie has no option variants"),
])
def test_what_signorie_cannot_play_is_refused_by_name(args: list[str], problem: str):
    result = runner.invoke(app, ["play", "--game", "signorie", *args])
    assert result.exit_code == 2
    assert problem in " ".join(result.output.split())


def test_play_without_players_uses_the_games_own_line_up(monkeypatch):
    from tavola.games.signorie.terminal import DEFAULT_PLAYERS, loop

    seen: list[list[str]] = []
    monkeypatch.setattr(loop, "play_in_terminal", lambda specs, **kw: seen.append(specs))
    assert runner.invoke(app, ["play", "--game", "signorie"]).exit_code == 0
    assert seen == [DEFAULT_PLAYERS.split(",")]
    shown = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    assert f"signorie: {DEFAULT_PLAYERS}" in " ".join(shown.replace("│", " ").split())


# -- one screen per question --------------------------------------------------------------------


class ScreenConsole(Console):
    """A terminal of a fixed size that keeps only what is on the screen: what was printed
    since the last clear."""

    def clear(self, home: bool = True) -> None:
        self.export_text(clear=True)


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_each_question_is_asked_on_one_screen_with_the_table(width, height):
    """At 80x24 and 120x40 every question's screen fits the terminal: the round and turn
    order, each seat's line, the question and every line of its menu, the prompt last (the
    whole table used to be printed above the menu, so only the menu showed)."""
    console = ScreenConsole(width=width, height=height, record=True, file=io.StringIO(),
                            force_terminal=False)
    rng = random.Random(width)
    screens: list[tuple[str, str]] = []

    def keyboard(prompt: str) -> str:
        screens.append((prompt, console.export_text(clear=False)))
        if len(screens) > 60:
            raise EOFError  # two rounds or so are enough
        return str(rng.randint(1, int(re.search(r"\[1-(\d+)", prompt).group(1))))

    specs = ["human", "greedy", "greedy"]
    names = seat_names(specs)
    play_in_terminal(specs, seed=7, record=None, console=console, input_fn=keyboard)
    kinds = set()
    for prompt, screen in screens[:-1]:
        lines = screen.rstrip("\n").split("\n")
        typed = -(-len(prompt) // width)  # the prompt's lines, wrapped by the terminal
        assert len(lines) + typed <= height, f"{len(lines)} lines:\n{screen}{prompt}"
        assert max(len(x) for x in lines) <= width, screen
        assert re.search(r"round \d+ of \d+", screen), screen
        assert all(name in screen for name in names), screen
        last = int(re.search(r"\[1-(\d+)", prompt).group(1))
        assert all(f"{k})" in screen for k in range(1, last + 1)), screen
        question = prompt.split(", ", 1)[1].split(" [")[0]
        assert question[0].upper() + question[1:] in screen
        kinds.add(question)
    assert len(kinds) >= 3  # a turn, a die's action and the follow-ups
