"""The `gonzaga` command: play, simulate, run tournaments, replay, check and draw boards,
benchmark."""

from __future__ import annotations

import errno
import json
import socket
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .bots import LEVELS

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Gonzaga: fiefs, rings and sea leagues on a hex map of Europe.")
board_app = typer.Typer(no_args_is_help=True, help="Check and draw board files.")
app.add_typer(board_app, name="board")
console = Console()
err = Console(stderr=True)
#: The seats of `gonzaga play` (and so of `make play`) when none are given: you against the
#: planner and the search bot.
DEFAULT_PLAYERS = "human,planner,mcts:medium"


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def _load_board(path: Path | None):  # type: ignore[no-untyped-def]
    from .board import BoardError, load_board

    try:
        return load_board(path)
    except BoardError as exc:
        raise _fail(str(exc)) from None


def _split(specs: str) -> list[str]:
    return [s.strip() for s in specs.split(",") if s.strip()]


@board_app.command("check")
def board_check(file: Annotated[Path | None, typer.Argument(help="Board file (default: the "
                                                                 "shipped board).")] = None
                ) -> None:
    """Validate a board file against every invariant; exit 1 naming each violation."""
    from .board import BoardError, load_board
    from .boardcheck import check_board

    try:
        board = load_board(file)
    except BoardError as exc:
        for problem in exc.problems:
            err.print(f"[red]✗[/] {problem}", highlight=False)
        raise typer.Exit(1) from None
    problems = check_board(board)
    for problem in problems:
        err.print(f"[red]✗[/] {problem}", highlight=False)
    if problems:
        err.print(f"{len(problems)} problem(s) in {board.name}")
        raise typer.Exit(1)
    console.print(f"[green]✓[/] {board.name}: {board.hex_count} hexes, "
                  f"{len(board.cities)} cities, {len(board.harbors)} harbors, "
                  f"{len(board.fiefs)} fiefs, {len(board.scenarios)} scenarios, "
                  f"{len(board.objectives)} objectives; hash {board.content_hash[:12]}")


@board_app.command("show")
def board_show(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output file, .svg or .png.")],
    file: Annotated[Path | None, typer.Option("--board", help="Board file.")] = None,
) -> None:
    """Draw the board: regions, seas, cities, harbors, sea routes, barriers, seals, church."""
    from .render import draw_board

    board = _load_board(file)
    if out.suffix.lower() not in (".svg", ".png"):
        raise _fail(f"--out must end in .svg or .png, not {out.suffix or 'nothing'!r}")
    try:
        draw_board(board, out)
    except (OSError, ValueError) as exc:
        raise _fail(f"cannot write {out}: {exc}") from None
    console.print(f"wrote {out}")


@app.command()
def scenarios(players: Annotated[int | None, typer.Option(help="Only for this many players.")]
              = None) -> None:
    """List the scenario tiles."""
    from rich.table import Table

    board = _load_board(None)
    table = Table("name", "players", "flourishing", "inactive", "person")
    for s in board.scenarios.values():
        if players is None or s.players == players:
            table.add_row(s.name, str(s.players),
                          ", ".join(board.regions[r].name for r in s.flourishing),
                          ", ".join(board.regions[r].name for r in board.inactive_regions(s)),
                          s.person)
    console.print(table)


@app.command()
def play(
    players: Annotated[str, typer.Option(help="Comma-separated seats, 2 to 4: human or a bot ("
                                              + ", ".join(LEVELS) + ", mcts:iterations=N).")]
    = DEFAULT_PLAYERS,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal.")] = None,
    scenario: Annotated[str | None, typer.Option(help="Scenario name (default: random).")]
    = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
    variant: Annotated[list[str] | None, typer.Option(help="Rule variant (repeatable).")]
    = None,
) -> None:
    """Play a game in the terminal."""
    from .tui import play_in_terminal

    specs = _split(players)
    try:
        play_in_terminal(specs, seed=seed, scenario=scenario, record=record,
                         variants=variant or [], console=console)
    except ValueError as exc:
        raise _fail(str(exc)) from None


@app.command()
def simulate(
    players: Annotated[str, typer.Option(help="Comma-separated bots, one per seat.")]
    = "random,greedy",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    records: Annotated[Path | None, typer.Option(help="Folder for game records.")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    scenario: Annotated[str | None, typer.Option(help="Scenario (default: random).")] = None,
) -> None:
    """Play many bot games and summarise wins, scores, rounds and points by source."""
    from .simulate import print_summary, run_simulation

    specs = _split(players)
    try:
        summary = run_simulation(specs, games=games, seed=seed, records=records,
                                 workers=workers, scenario=scenario, console=console)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    print_summary(summary, console)


@app.command()
def tournament(
    bots: Annotated[str, typer.Option(help="Comma-separated bot specs (at least 2), e.g. "
                                           "mcts:hard,greedy,random.")] = "greedy,random",
    players: Annotated[str, typer.Option(help="Comma-separated player counts, 2 to 4.")] = "2",
    games: Annotated[int, typer.Option(min=1, help="Games per line-up, rounded up to whole "
                                                   "seat rotations.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.")] = 0,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: "
                                                            "the usable CPUs).")] = None,
    out: Annotated[Path | None, typer.Option(help="Output folder (default: "
                                                  "tournament-SEED).")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the results of an "
                                                                "earlier run in --out.")]
    = False,
    solo: Annotated[str | None, typer.Option(help="Only line-ups where this bot holds one seat "
                                                  "(e.g. one mcts:hard against three greedy)."
                                             )] = None,
) -> None:
    """Seat-rotated bot matches: win rates with 95% intervals, ratings, a report and records."""
    from .tournament import default_workers, print_tournament, run_tournament

    counts: list[int] = []
    for part in _split(players):
        try:
            counts.append(int(part))
        except ValueError:
            raise _fail(f"--players takes player counts from 2 to 4, not {part!r}") from None
    folder = out if out is not None else Path(f"tournament-{seed}")
    k = workers if workers is not None else default_workers()
    command = (f"gonzaga tournament --bots {bots} --players {players} --games {games} "
               f"--seed {seed} --workers {k} --out {folder}"
               + (f" --solo {solo}" if solo else ""))
    try:
        result = run_tournament(_split(bots), counts, games=games, seed=seed, workers=k,
                                out=folder, console=console, overwrite=overwrite,
                                command=command, solo=solo)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"cannot write to {folder}: {exc}") from None
    print_tournament(result, console)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    verify: Annotated[bool, typer.Option("--verify", help="Re-play through the engine and "
                                                          "check every score.")] = False,
    board_file: Annotated[Path | None, typer.Option("--board", help="Board file the game was "
                                                                    "played on.")] = None,
) -> None:
    """Show a game record, or verify it against the rules."""
    from .record import RecordError, load_record, summarize_record, verify_record

    board = _load_board(board_file) if board_file is not None else None
    try:
        data = load_record(file)
        if verify:
            state = verify_record(data, board=board)
            console.print(f"[green]✓[/] {file.name}: {len(state.history)} actions over "
                          f"{state.round} rounds replay exactly; final scores "
                          f"{[p.score for p in state.players]}")
        else:
            console.print(summarize_record(data))
    except RecordError as exc:
        raise _fail(f"{file.name}: {exc}", 1) from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(help="Database URL, sqlite:///PATH.")]
    = "sqlite:///gonzaga.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.35,
) -> None:
    """Play in the browser: the web app, its lobby and saved games."""
    from .web import StoreError, open_store
    from .web import serve as run_server

    try:
        open_store(db).close()
    except StoreError as exc:
        raise _fail(str(exc)) from None
    problem = _cannot_listen(host, port)
    if problem:
        raise _fail(problem, 1)
    console.print(f"Gonzaga is at [bold]http://{host}:{port}[/] (database {db}); Ctrl-C stops it")
    run_server(host, port, db, bot_delay=bot_delay)


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (bound here as the server will bind it),
    or None; so a busy port is reported before the address is announced."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                other = _free_port(host, port)
                return (f"port {port} is in use (another server, perhaps another Gonzaga): "
                        f"stop the other server or run `make run PORT={other}` (or "
                        f"`gonzaga serve --port {other}`)")
            if exc.errno == errno.EACCES:
                return (f"port {port} needs administrator rights: choose a port above 1023, "
                        "e.g. `make run PORT=8000`")
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _free_port(host: str, port: int) -> int:
    """The first port after `port` that is free now (port + 1 if none of the next 20 is)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in range(port + 1, min(port + 21, 65536)):
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, candidate))
            except OSError:
                continue
            return candidate
    return port + 1


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print figures as JSON.")] = False,
    games: Annotated[int, typer.Option(help="Random 4-player games to time.")] = 200,
    mcts: Annotated[int, typer.Option(help="Search decisions to time (0: none).")] = 16,
    bot: Annotated[str, typer.Option(help="The search bot to time.")] = "mcts:hard",
    server: Annotated[bool, typer.Option("--server", help="Load-test the web server over "
                                                          "WebSockets instead.")] = False,
    server_games: Annotated[int, typer.Option(help="--server: concurrent games.")] = 50,
    think: Annotated[float, typer.Option(help="--server: mean seconds a client waits before "
                                              "each move (0: saturate the server).")] = 0.5,
    memory: Annotated[bool, typer.Option("--memory", help="--server: the server's memory "
                                         "over --server-games finished games instead.")] = False,
    lobby_pollers: Annotated[int, typer.Option(help="--server: clients reading the lobby in a "
                                                    "loop meanwhile.")] = 0,
) -> None:
    """Measure speed on one core: games per second, placement listing, clone+apply, search;
    or, with --server, the web server's latency under load (or its memory, with --memory)."""
    if server:
        from .web.loadbench import run_load_bench, run_memory_bench

        figures = run_memory_bench(server_games) if memory else \
            run_load_bench(games=server_games, think=think, lobby_pollers=lobby_pollers)
        _print_figures(figures, as_json)
        return
    from .bench import run_bench

    if games < 1 or mcts < 0:
        raise _fail("--games must be at least 1 and --mcts at least 0", 2)
    try:
        figures = run_bench(games=games, mcts_decisions=mcts, mcts_spec=bot)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    _print_figures(figures, as_json)


def _print_figures(figures: dict[str, object], as_json: bool) -> None:
    if as_json:
        console.print_json(json.dumps(figures))
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        console.print(f"{key:>{width}}: {value}", soft_wrap=True, highlight=False)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
