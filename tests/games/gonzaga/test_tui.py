"""The terminal game: pure renderers, menus that survive bad typing, and whole scripted games."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from gonzaga_helpers import game, plan_all, put
from rich.console import Console

from tavola.games.gonzaga.actions import Donate, PlaceFief, Wedding
from tavola.games.gonzaga.board import default_board_path
from tavola.games.gonzaga.engine import legal_actions, view
from tavola.games.gonzaga.state import Phase
from tavola.games.gonzaga.terminal.final import render_final
from tavola.games.gonzaga.terminal.hexmap import PLAYER_BG, Highlight, render_map
from tavola.games.gonzaga.terminal.input import GameAbandoned, Retry, parse_position
from tavola.games.gonzaga.terminal.loop import Terminal, play_in_terminal
from tavola.games.gonzaga.terminal.render import render_fief_shape, render_objective, render_screen


def capture(width: int = 160, height: int = 60) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, force_terminal=False)


def output(console: Console) -> str:
    return console.file.getvalue()  # type: ignore[attr-defined]


class Script:
    """Answers prompts by words they contain: first the scripted answers, then a default.

    Garbage is scripted before the sensible answers, so every menu has to explain and ask
    again. A "Your move" that follows a "Your move" gets `d` (there was nothing to pick).
    """

    def __init__(self, answers: dict[str, Iterable[str]], defaults: dict[str, Any]) -> None:
        self.answers = {k: list(v) for k, v in answers.items()}
        self.defaults = defaults
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > 5000:
            raise AssertionError("the game does not move on: " + " | ".join(self.prompts[-6:]))
        for key, queue in self.answers.items():
            if key in prompt and queue:
                return queue.pop(0)
        for key, answer in self.defaults.items():
            if key in prompt:
                if key == "Your move" and len(self.prompts) > 1 and "Your move" in \
                        self.prompts[-2]:
                    return "d"
                return answer(prompt) if callable(answer) else answer
        raise AssertionError(f"unexpected prompt {prompt!r}")


def first_key(prompt: str) -> str:
    """The first key a menu's hint offers: `[1-5]` -> 1, `[2, 3, 5]` -> 2, `[c, a, ...` -> c."""
    return re.search(r"\[(\w+)", prompt).group(1)


DEFAULTS: dict[str, Any] = {
    "Region card": first_key,
    "Action card": first_key,
    "King's Privilege": "y",
    "Your move": "1",
    "Place it here": "y",
    "Donate fief": "y",
    "press Enter": "",
    "First ring": "1",
    "Second ring": "0",
}


def scripted(**answers: Iterable[str]) -> Script:
    keys = {"region": "Region card", "action": "Action card", "privilege": "King's Privilege",
            "move": "Your move", "place": "Place it here", "donate": "Donate fief"}
    return Script({keys[k]: v for k, v in answers.items()}, DEFAULTS)


# -- rendering -------------------------------------------------------------------------------


def cell(text: str, board, col: int, row: int, hex_width: int = 3) -> tuple[int, str]:
    """Offset in the rendered map of the hex's glyph, and the hex's characters."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: row + 1])  # the ruler is line 0
    x = 3 + (hex_width // 2 if row & 1 else 0) + col * hex_width
    line = lines[row + 1]
    glyph = x + (0 if hex_width == 2 else 1)
    return start + glyph, line[x: x + hex_width]


def test_map_shows_places_fiefs_rings_and_a_preview(board):
    state = game(board, 3)
    put(state, 0, [(1, 6), (2, 6), (1, 5)], fief=30)  # red fief 30 over a city
    put(state, 1, [(5, 6)], kind="ring")  # a yellow ring on a city
    put(state, 2, [(8, 4), (9, 4)], fief=10)
    v = view(state, 0)
    text = render_map(v, hex_width=3)
    plain = text.plain
    console = capture()
    # Cities by symbol letter (upper case), harbors by sea letter (lower case).
    off, chars = cell(plain, board, 0, 6)
    assert chars.strip() == "C"  # Crown city of Hispania, still free
    assert cell(plain, board, 0, 7)[1].strip() == "s"
    # The red fief colours its hexes and keeps the city's letter visible.
    off, chars = cell(plain, board, 1, 6)
    assert chars.strip() == "M"
    assert text.get_style_at_offset(console, off).bgcolor.triplet.hex == PLAYER_BG["red"]
    # Castles of fief 30 (anchor and its east neighbour) show as ▲ where there is no place.
    assert cell(plain, board, 1, 5)[1].strip() in ("▲", "")
    # The ring frames its hex.
    assert cell(plain, board, 5, 6)[1] == "(M)"
    ring_off = cell(plain, board, 5, 6)[0] - 1
    assert text.get_style_at_offset(console, ring_off).bgcolor.triplet.hex == PLAYER_BG["yellow"]
    # Column ruler and row labels to type positions by.
    assert plain.split("\n")[0].split()[:3] == ["0", "1", "2"]
    assert plain.split("\n")[7].startswith(" 6 ")
    # A preview marks its hexes with *.
    preview = render_map(v, hex_width=3, highlight=Highlight((board.index_of[(3, 3)],),
                                                             colour="red")).plain
    assert cell(preview, board, 3, 3)[1] == "***"


@pytest.mark.parametrize("width", [2, 3, 4])
def test_map_lines_have_the_announced_width(board, width):
    v = view(game(board, 2), 0)
    lines = render_map(v, hex_width=width).plain.split("\n")
    assert len(lines) == board.rows + 1
    assert {len(line) for line in lines[1:]} == {3 + board.columns * width + width // 2}


def test_screen_has_players_score_track_status_and_log(board):
    state = game(board, 3)
    state = plan_all(state, {})
    v = view(state, 0)
    console = capture()
    console.print(render_screen(v, width=160))
    text = output(console)
    for word in ("Players", "Score track", "Log", "Round 1", "Last Turn: you count after",
                 "Red (you)", "fief 10 · card 11", "plan Hispania + Cities", "Plans:", "Cities",
                 "Harbors", "Your objective", "Legend", "HISPANIA ★", "GERMANIA"):
        assert word in text, word
    assert max(len(line) for line in text.splitlines()) <= 160
    # the holder of the Last Turn card is named to the others ("You counts" was said to them)
    console = capture()
    console.print(render_screen(view(state, 1), width=160))
    assert "Last Turn: Red counts after" in output(console)


def test_fief_shape_and_objective(board):
    shape = board.fiefs[50]
    drawn = render_fief_shape(shape, 0).plain
    assert drawn.count("▲") == len(shape.castles)
    assert "◆" in drawn
    assert render_fief_shape(shape, 3).plain.count("▲") == len(shape.castles)
    v = view(game(board, 2), 0)
    text = render_objective(v, 0).plain
    assert "Objective card" in text and text.count("\n  ") == 7  # six cities and a total
    assert "objective hidden" in render_objective(v, 1).plain


def test_parse_position():
    assert parse_position("12,7 r3") == (12, 7, 3)
    assert parse_position(" 12 , 7 R0 ") == (12, 7, 0)
    assert parse_position("12,7") == (12, 7, None)
    assert parse_position("xyz") is None
    assert parse_position("") is None
    with pytest.raises(Retry, match="r0 to r5"):
        parse_position("99,99 r9")


# -- menus -----------------------------------------------------------------------------------


def placing_state(board, action: str = "cities"):
    state = game(board, 2, tops=[[50], [10]])
    return plan_all(state, {0: ("hispania", action, True), 1: ("francia", "harbors")})


def run_place(board, answers: list[str], action: str = "cities"):
    state = placing_state(board, action)
    assert state.current_player == 0
    console = capture()
    feed = iter(answers)

    def input_fn(prompt: str) -> str:
        return next(feed)

    terminal = Terminal(console, input_fn)
    legal = legal_actions(state, 0)
    chosen = terminal.place(view(state, 0), 0, legal)
    return state, chosen, output(console), legal


def test_typed_position_is_checked_then_placed(board):
    state = placing_state(board)
    legal = legal_actions(state, 0)
    target = legal[len(legal.fixed)]
    assert isinstance(target, PlaceFief)
    typed = f"{target.anchor[0]},{target.anchor[1]} r{target.rotation}"
    _, chosen, text, _ = run_place(board, ["", "xyz", "999", "99,99 r9", "99,99 r3", "20,2 r0",
                                           typed, "maybe", "y"])
    assert chosen == target
    assert "Type a number from the list" in text
    assert "I did not understand 'xyz'" in text
    assert "999 is not on the list" in text
    assert "Rotation r9 does not exist" in text
    assert "Not there:" in text and "not on the map" in text
    assert "the planned region" in text  # 20,2 is Orientalis, the plan says Hispania
    assert "Please answer y" in text
    assert "Preview" in text


def test_pick_from_list_filter_by_hex_and_donate(board):
    state = placing_state(board)
    legal = legal_actions(state, 0)
    # A hex filter, then the first of the filtered list, declined; then a donation.
    _, chosen, text, _ = run_place(board, ["1,6", "1", "n", "n", "p", "all", "d", "y"])
    assert chosen == Donate(0)
    assert "covering City 01 (1,6)" in text
    assert legal.placement_count > 0


def test_best_placement_is_listed_first(board):
    _, chosen, text, legal = run_place(board, ["1", "y"])
    assert isinstance(chosen, PlaceFief)
    from tavola.games.gonzaga.engine import action_events, placement_points

    state = placing_state(board)
    best = int(placement_points(state, 0, 50, legal.placement_arrays().rows).max())
    assert sum(e.points for e in action_events(state, chosen)) == best
    assert "Hispania + Cities + King's Privilege: best placements 1-" in text


def test_ranking_offers_distinct_choices_best_first(board):
    from tavola.games.gonzaga.terminal.placing import RankedPlacements

    state = placing_state(board)
    put(state, 0, [(10, 4)], kind="ring")  # a piece of red's own, to join
    legal = legal_actions(state, 0)
    ranked = RankedPlacements.of(view(state, 0), 0, legal)
    cells = legal.placement_arrays().cells
    special = board.is_city | board.is_harbor
    keys = [(tuple(sorted(int(h) for h in cells[i] if special[h])), int(ranked.joins[i]))
            for i in ranked.distinct]
    assert len(keys) == len(set(keys))  # one line per set of places covered
    assert sum(ranked.ways.values()) == legal.placement_count
    pts = ranked.points[ranked.order]
    assert list(pts) == sorted(pts, reverse=True)
    assert ranked.points[ranked.distinct[0]] == ranked.points.max()

def test_wedding_with_two_rings(board):
    state = placing_state(board, "alliance")
    legal = legal_actions(state, 0)
    assert len(legal.wedding_pairs)
    _, chosen, text, _ = run_place(board, ["w", "zz", "1", "99", "1", "y"], action="alliance")
    assert isinstance(chosen, Wedding)
    assert chosen.second is not None
    assert "Wedding" in text


def test_wedding_refused_without_alliance(board):
    _, chosen, text, _ = run_place(board, ["w", "d", "y"])
    assert chosen == Donate(0)
    assert "A Wedding needs the Alliance card" in text


# -- whole games -------------------------------------------------------------------------------


def play(board, specs: list[str], script: Callable[[str], str], **kw):
    console = capture()
    state = play_in_terminal(specs, seed=kw.pop("seed", 5), scenario=kw.pop("scenario", None),
                             record=kw.pop("record", None), variants=kw.pop("variants", []),
                             console=console, board=board, input_fn=script)
    return state, output(console)


def test_scripted_human_game_reaches_the_end(board, tmp_path: Path):
    script = scripted(region=["", "xyz", "999", "1"], action=["0", "b", "1", "1"],
                      privilege=["maybe", "n"], move=["", "xyz", "999", "99,99 r9", "1"],
                      place=["what", "y"])
    record = tmp_path / "game.json"
    state, text = play(board, ["human", "greedy", "random"], script, record=record)
    assert state.is_over and state.winners
    assert 7 <= state.round <= 12
    mine = [a for a in state.history if a.player == 0]
    assert any(isinstance(a, PlaceFief) for a in mine)  # the human really placed fiefs
    for message in ("Type a number from 1", "'xyz' is not an option", "999 is not on the list",
                    "Rotation r9 does not exist", "Please answer y", "Final scores",
                    "Objectives revealed", "Gonzaga tile"):
        assert message in text, message
    assert ("Winner:" in text) or ("Shared victory:" in text)
    assert "Traceback" not in text
    assert "Game record written" in text
    from tavola.games.gonzaga.record import load_record, verify_record

    replayed = verify_record(load_record(record), board=board)
    assert [p.score for p in replayed.players] == [p.score for p in state.players]
    data = json.loads(record.read_text())
    assert data["seed"] == 5
    assert "human" in json.dumps(data["players"])


def test_a_hint_shows_the_search_s_three_best_moves_and_the_record_counts_it(board, tmp_path):
    script = scripted(region=["?", "hint"], move=["?"])
    record = tmp_path / "game.json"
    state, text = play(board, ["human", "random"], script, record=record, seed=4)
    assert state.is_over
    assert text.count("Hint: the search's three best moves") >= 3
    lines = [line for line in text.splitlines() if "points at the end" in line]
    assert any(line.lstrip().startswith("1. ") for line in lines)
    assert any(line.lstrip().startswith("3. ") for line in lines)
    # each move's share of the search (a long line may wrap before it)
    assert len(re.findall(r"\d+%\s+of\s+the\s+search", text)) == text.count("points at the end")
    data = json.loads(record.read_text())
    assert [p["hints"] for p in data["players"]] == [3, 0]  # asked three times, the bot never
    from tavola.games.gonzaga.record import load_record, verify_record

    verify_record(load_record(record), board=board)


def test_no_hint_is_offered_outside_a_person_s_turn(board):
    from tavola.games.gonzaga.terminal.loop import Terminal

    terminal = Terminal(capture(), lambda prompt: "")
    assert terminal.hinter is None  # `?` is then an ordinary (wrong) answer


def test_hot_seat_passes_the_device(board):
    script = scripted()
    state, text = play(board, ["human", "human"], script, seed=8)
    assert state.is_over
    assert "Pass the device to" in text
    passes = [p for p in script.prompts if "press Enter" in p]
    assert len(passes) >= state.round  # at least once a round
    assert "Player 1" in text and "Player 2" in text


def test_bots_only_game_narrates(board):
    state, text = play(board, ["greedy", "random"], scripted(), seed=2)
    assert state.is_over
    assert "Round 1" in text and "Final scores" in text


@pytest.mark.parametrize("error", [EOFError, KeyboardInterrupt])
def test_end_of_input_quits_cleanly(board, error):
    def closed(prompt: str) -> str:
        raise error

    state, text = play(board, ["human", "random"], closed)
    assert not state.is_over and state.phase is Phase.PLANNING
    assert "Game abandoned in round 1" in text
    assert "Traceback" not in text


def test_quit_command_asks_first(board):
    answers = iter(["q", "n", "q", "yes"])
    state, text = play(board, ["human", "random"], lambda prompt: next(answers))
    assert not state.is_over
    assert "Game abandoned" in text


def test_seat_count_and_bot_names_are_checked(board):
    with pytest.raises(ValueError, match="2 to 4 players"):
        play(board, ["human"], scripted())
    with pytest.raises(ValueError, match="2 to 4 players"):
        play(board, ["random"] * 5, scripted())
    with pytest.raises(ValueError, match="unknown bot"):
        play(board, ["human", "cheater"], scripted())


def test_final_screen_names_the_winner(board):
    state, _ = play(board, ["greedy", "greedy"], scripted(), seed=3)
    console = capture()
    console.print(render_final(view(state, None)))
    text = output(console)
    assert "Final scores" in text and "Objectives revealed" in text
    for seat, p in enumerate(state.players):  # every card revealed, with its six cities
        symbols = state.board.objectives[p.objective].symbols
        names = " + ".join(state.board.symbols[s].name for s in symbols)
        assert names in text, seat
    assert ("Winner:" in text) or ("Shared victory:" in text)


@pytest.mark.skipif(not default_board_path().exists(), reason="the real board is not built yet")
def test_human_and_two_bots_on_the_real_board():
    from tavola.games.gonzaga.board import load_board

    board = load_board()
    script = scripted(move=["", "xyz", "999", "99,99 r9", "1"])
    state, text = play(board, ["human", "greedy", "random"], script, seed=3)
    assert state.is_over and state.winners
    assert "Final scores" in text and "Traceback" not in text
    width = max(len(line) for line in text.splitlines())
    assert width <= 160


def test_a_screen_shows_only_its_viewers_secrets(board):
    state = game(board, 2)  # objectives 1 (Crown + Tower) and 2 (Crown + Bell)
    text = {}
    for seat in (0, 1):
        console = capture()
        console.print(render_screen(view(state, seat), width=160))
        text[seat] = output(console)
    assert "Crown + Tower" in text[0] and "Crown + Bell" not in text[0]
    assert "Crown + Bell" in text[1] and "Crown + Tower" not in text[1]
    state = plan_all(state, {0: ("hispania", "cities", True)})
    console = capture()
    console.print(render_screen(view(state, 1), width=160))
    # plans are public once revealed
    assert "plan Hispania + Cities + King's Privilege" in output(console)


@pytest.mark.parametrize("width", [80, 120, 200])
def test_screen_fits_narrow_and_wide_consoles(board, width):
    console = capture(width)
    v = view(plan_all(game(board, 4), {}), 2)
    console.print(render_screen(v, width=width))
    lines = output(console).splitlines()
    assert max(len(line) for line in lines) <= width
    assert any("Score track" in line for line in lines)


def test_map_size_cycles_and_quit_from_a_nested_prompt(board):
    state = placing_state(board)
    console = capture()
    answers = iter(["m", "m", "m", "m", "d", "q", "no", "n", "q", "y"])
    terminal = Terminal(console, lambda prompt: next(answers))
    with pytest.raises(GameAbandoned):
        terminal.place(view(state, 0), 0, legal_actions(state, 0))
    assert terminal.hex_width in (2, 3, 4)
    assert "Please answer y" not in output(console)  # "no" is a fine answer


def test_bot_seats_get_readable_names():
    from tavola.games.gonzaga.bots import bot_title
    from tavola.games.gonzaga.terminal.loop import seat_names

    assert bot_title("mcts:hard") == "MCTS (hard)"
    assert bot_title("mcts:iterations=50:time=1") == "MCTS (iterations=50, time=1)"
    assert seat_names(["human", "planner", "planner", "mcts:easy"]) == [
        "You", "Planner 1", "Planner 2", "MCTS (easy)"]


# -- the screen fits the terminal ------------------------------------------------------------


class ScreenConsole(Console):
    """A terminal of a fixed size that keeps only what is on the screen: what was printed
    since the last clear."""

    def clear(self, home: bool = True) -> None:
        self.export_text(clear=True)


def name_words(state) -> set[str]:
    """Every word of the names a player reads: regions, seas, cities, symbols, players."""
    board = state.board
    names = [*(r.name for r in board.regions.values()), *(s.name for s in board.seas.values()),
             *(c.name for c in board.cities.values()), *(h.name for h in board.harbors.values()),
             *(s.name for s in board.symbols.values()), *(p.name for p in state.players)]
    return {w for name in names for w in re.findall(r"[A-Za-zÀ-ÿ']+", name)}


def assert_readable(screen: str, words: set[str], width: int, height: int) -> None:
    """The screen fits the terminal and shows every name whole: no word on it is a name cut
    short (Hispa, MCTS (med), Nürnb…)."""
    lines = screen.split("\n")
    assert len(lines) <= height, f"{len(lines)} lines:\n{screen}"
    assert max(len(line) for line in lines) <= width, screen
    assert "…" not in screen, screen
    for token in re.findall(r"[A-Za-zÀ-ÿ']+", screen):
        cut = [w for w in words if len(token) >= 2 and w != token and w.startswith(token)]
        assert not cut or token in words, f"{token!r} cuts {cut}:\n{screen}"


def screens_of_a_turn(width: int, height: int):
    """Plan and place one fief on the real board at this terminal size; the screen as it is
    at each question (the last line is the question)."""
    from tavola.games.gonzaga.board import load_board
    from tavola.games.gonzaga.engine import apply, new_game

    state = new_game(["You", "Planner", "MCTS (medium)"], 3, None, board=load_board())
    console = ScreenConsole(width=width, height=height, record=True, file=io.StringIO(),
                            force_terminal=False)
    screens: list[tuple[str, str]] = []
    answers = {"Region card": "3", "Action card": "c", "King's Privilege": "y",
               "Your move": "1", "Place it here": "y"}

    def input_fn(prompt: str) -> str:
        screens.append((prompt, console.export_text(clear=False) + prompt))
        assert len(screens) < 20, "an answer was refused: " + screens[-2][1]
        return next(a for key, a in answers.items() if key in prompt)

    terminal = Terminal(console, input_fn)
    plan = terminal.plan(view(state, 0), 0, list(legal_actions(state, 0)))
    state = apply(state, plan)
    for seat in (1, 2):
        state = apply(state, next(iter(legal_actions(state, seat))))
    assert state.current_player == 0
    placed = terminal.place(view(state, 0), 0, legal_actions(state, 0))
    return state, screens, placed


@pytest.mark.skipif(not default_board_path().exists(), reason="the real board is not built yet")
@pytest.mark.parametrize(("width", "height"), [(80, 24), (140, 50)])
def test_every_question_fits_the_terminal_with_whole_names(width, height):
    state, screens, placed = screens_of_a_turn(width, height)
    asked = [prompt for prompt, _ in screens]
    assert any("Region card" in p for p in asked) and any("Your move" in p for p in asked)
    words = name_words(state)
    for _, screen in screens:
        assert_readable(screen, words, width, height)
    planning = next(s for p, s in screens if "Region card" in p)
    for region in ("Hispania", "Francia", "Italia", "Germania"):
        assert region in planning
    placing = next(s for p, s in screens if "Your move" in p)
    assert "best placements" in placing and "You" in placing
    # At the confirmation, the preview is on the map together with the question.
    confirm = next(s for p, s in screens if "Place it here" in p)
    assert confirm.rstrip().endswith("Place it here? (y/n) ›")
    assert "Preview" in confirm
    lines = confirm.split("\n")
    board = state.board
    assert isinstance(placed, PlaceFief)
    from tavola.games.gonzaga.engine import covered_hexes

    for h in covered_hexes(view(state, 0), placed):
        _, row = board.coords[h]
        line = next((x for x in lines if x.startswith(f"{row:>2} ")), None)
        assert line is not None, f"row {row} of the preview is off the screen:\n{confirm}"
        assert "*" in line


# -- card keys -------------------------------------------------------------------------------


def plan_by_keys(state, region: str, action: str):
    """Plan `region` + `action` by typing the keys the menus show next to those names; the
    keys read and the plan made."""
    console = capture()
    keys: dict[str, str] = {}

    def input_fn(prompt: str) -> str:
        screen = output(console)
        console.file.seek(0)
        console.file.truncate()
        if "Region card" in prompt:
            found = re.findall(rf"^\s*(\w+)\)?\s+{region}\b", screen, re.M)
            keys[region] = found[-1]
            return found[-1]
        if "Action card" in prompt:
            found = re.findall(rf"^\s*(\w+)\)\s+{action}\b", screen, re.M)
            keys[action] = found[-1]
            return found[-1]
        return "n"

    plan = Terminal(console, input_fn).plan(view(state, 0), 0, list(legal_actions(state, 0)))
    return keys, plan


def test_card_keys_stay_the_same_when_other_cards_rest(board):
    fresh = game(board, 2)
    resting = game(board, 2)
    resting.players[0].resting = ("hispania", "harbors")  # played last round
    assert not any(p.region == "hispania" or p.action == "harbors"
                   for p in legal_actions(resting, 0))
    keys_fresh, plan_fresh = plan_by_keys(fresh, "Britannia", "Alliance")
    keys_resting, plan_resting = plan_by_keys(resting, "Britannia", "Alliance")
    assert keys_fresh == keys_resting
    assert (plan_fresh.region, plan_fresh.action) == ("britannia", "alliance")
    assert (plan_resting.region, plan_resting.action) == ("britannia", "alliance")


def test_final_scores_fit_a_narrow_terminal(board):
    state, _ = play(board, ["greedy", "planner", "random"], scripted(), seed=3)
    console = capture(80)
    console.print(render_final(view(state, None), width=80))
    text = output(console)
    assert "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= 80
    for p in state.players:
        assert f"{p.name}" in text and f" {p.score} pts" in text
    assert text.count("largest group") == len(state.players)


@pytest.mark.skipif(not default_board_path().exists(), reason="the real board is not built yet")
def test_a_small_terminal_says_what_the_others_did_since_your_move():
    """At 80x24 the side panel gives way to a status bar; the newest lines of the log stay
    above the map, so the player sees the bots' placements made after theirs."""
    from tavola.games.gonzaga.board import load_board
    from tavola.games.gonzaga.engine import apply, new_game

    state = new_game(["You", "Planner", "Greedy"], 3, None, board=load_board())
    for seat in range(3):
        state = apply(state, next(iter(legal_actions(state, seat))))
    placed = False  # play on until the person has placed and the bots after them too
    movers: list[int] = []
    while not (placed and 0 in state.to_move()):
        (seat,) = state.to_move()[:1]
        placed = placed or seat == 0
        if placed and seat != 0:
            movers.append(seat)
        legal = list(legal_actions(state, seat))
        state = apply(state, next((a for a in legal if isinstance(a, PlaceFief)), legal[0]))
    console = capture(80, 24)
    console.print(render_screen(view(state, 0), width=80, height=14))
    text = output(console)
    others = [state.players[seat].name for seat in movers]
    assert others, "the bots placed after the person"
    for name in others:
        assert re.search(rf"^{name} fief \d+ at \d+,\d+ r\d", text, re.M), text
    assert len(text.splitlines()) <= 14
