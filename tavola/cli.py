"""The `tavola` command: simulate, run tournaments, replay and benchmark any game (chosen
with `--game`, the registry's default when left out), serve the web app; each game adds its own
commands, and its options are set alike in every command with `--option NAME=VALUE`.

Each command imports what it runs when it runs (inside its function): `tavola --help` and a
short command start without loading the web server, plotting or the games' engines.
"""

from __future__ import annotations

import errno
import json
import socket
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from . import i18n
from . import registry as catalogue
from .editions_cli import app as editions_app
from .game import option_words, read_options
from .i18n_cli import app as i18n_app

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Tavola: play the installed games (" + ", ".join(catalogue.available())
                       + ") in the terminal or the browser, between bots or people; "
                         "`tavola games` lists them.")
console = Console()
err = Console(stderr=True)

GameName = Annotated[str, typer.Option("--game", help="The game: "
                                       + ", ".join(catalogue.available()) + ".")]
RayAddress = Annotated[str | None, typer.Option(
    "--ray", metavar="[ADDRESS]",
    help="Play the games as Ray tasks: on a Ray instance started here (--ray alone, with "
         "--workers CPUs) or on the cluster at ADDRESS (auto, ray://head:10001). Needs "
         "the optional Ray package (the project's ray extra).")]
OptionWords = Annotated[list[str] | None, typer.Option(
    "--option", help="A game option NAME=VALUE (repeatable; a list as a,b); `tavola games` "
                     "lists each game's options.")]


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)  # text, not markup
    return typer.Exit(code)


def report_problems(problems: list[str], where: str) -> None:
    """Print each problem a check found and exit 1, or return when there are none."""
    for problem in problems:
        err.print(f"[red]✗[/] {problem}", highlight=False)
    if problems:
        err.print(f"{len(problems)} problem(s) in {where}")
        raise typer.Exit(1)


def split(specs: str) -> list[str]:
    return [s.strip() for s in specs.split(",") if s.strip()]


def game_named(name: str) -> Any:
    try:
        return catalogue.get(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


#: What a command taking a game's options lets through: its old shortcuts (`old_flags`).
OLD_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def game_options(game: Any, option: list[str] | None = None, old: list[str] | None = None
                 ) -> dict[str, Any]:
    """Options for `game` from the command line: `--option NAME=VALUE`, and the shortcuts
    `--NAME VALUE` of older versions (`old_flags`), read as the game declares each
    (`tavola.game.read_options`, the lobby's reader too)."""
    try:
        words = list(option or []) + old_flags(game.info, old or [])
        return read_options(game.info, option_words(words))
    except ValueError as exc:
        raise fail(str(exc)) from None


def old_flags(info: Any, args: list[str]) -> list[str]:
    """`--NAME VALUE` (or `--NAME=VALUE`) words left over by a command as `NAME=VALUE`: the
    shortcuts for a game's options older versions had (a list option's is its singular,
    `--variant`). Each says, on stderr, what to write instead; they will go."""
    words: list[str] = []
    rest = list(args)
    while rest:
        flag, sep, value = rest.pop(0).partition("=")
        if not flag.startswith("--") or not (sep or rest):
            raise ValueError(f"unexpected {flag!r}: a game's option is --option NAME=VALUE")
        value = value if sep else rest.pop(0)
        name = flag[2:]
        plural = info.options.get(name + "s")
        if name not in info.options and plural is not None and plural.kind == "names":
            name += "s"
        if name in info.options:  # an unknown name is refused by read_options
            err.print(f"{flag} is deprecated: write --option {name}={value}", highlight=False)
        words.append(f"{name}={value}")
    return words


@app.command("games")
def list_games() -> None:
    """List the games, their player counts and their bots."""
    from .bots import bot_names

    for name in catalogue.available():
        game = catalogue.get(name)
        info = game.info
        console.print(f"[bold]{name}[/]: {info.title}, {info.min_players}-{info.max_players} "
                      f"players; bots: {', '.join(bot_names(game))}", highlight=False)
        for option, spec in info.options.items():
            console.print(f"  --option {option}=...: {spec.help}", highlight=False)


@app.command("compile")
def compile_games(
    game: Annotated[list[str] | None, typer.Option(
        "--game", help="A game to compile (repeatable; default: every game that declares "
                       "modules to compile).")] = None,
    clean: Annotated[bool, typer.Option("--clean", help="Remove the compiled modules: the "
                                                        "games run as Python.")] = False,
) -> None:
    """Compile each game's hot modules with mypyc, beside their source (optional: without
    them the same source runs as Python and plays the same games; needs a C compiler)."""
    from . import compiling

    kits = [catalogue.kit(name) for name in game] if game else \
        [k for k in catalogue.kits().values() if k.compiled]
    for kit in kits:
        if clean:
            removed = compiling.clean(kit)
            console.print(f"{kit.name}: removed {len(removed)} compiled files", highlight=False)
            continue
        try:
            done = compiling.build(kit)
        except compiling.CompileError as exc:
            raise fail(f"{kit.name}: {exc}", 1) from None
        console.print(f"{kit.name}: compiled {', '.join(done.modules) or 'nothing'} in "
                      f"{done.seconds} s", highlight=False)


@app.command(context_settings=OLD_FLAGS)
def simulate(
    ctx: typer.Context,
    game: GameName = catalogue.DEFAULT,
    players: Annotated[str, typer.Option(help="Comma-separated bots, one per seat.")]
    = "random,greedy",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    records: Annotated[Path | None, typer.Option(help="Folder for game records.")] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default 1), "
                                                            "or a local Ray's CPUs.")] = None,
    ray: RayAddress = None,
    option: OptionWords = None,
) -> None:
    """Play many bot games and summarise wins, scores, rounds and points by source."""
    from .simulate import print_summary, run_simulation

    chosen = game_named(game)
    specs = split(players)
    try:
        summary = run_simulation(chosen, specs, games=games, seed=seed, records=records,
                                 workers=workers if workers or ray else 1, console=console,
                                 options=game_options(chosen, option, ctx.args), ray=ray)
    except ValueError as exc:
        raise fail(str(exc)) from None
    print_summary(summary, console)


@app.command()
def tournament(
    game: GameName = catalogue.DEFAULT,
    bots: Annotated[str, typer.Option(help="Comma-separated bot specs (at least 2), e.g. "
                                           "mcts:hard,greedy,random.")] = "greedy,random",
    players: Annotated[str, typer.Option(help="Comma-separated player counts, 2 to 4.")] = "2",
    games: Annotated[int, typer.Option(min=1, help="Games per line-up, rounded up to whole "
                                                   "seat rotations.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.")] = 0,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: "
                                                            "the usable CPUs), or a local "
                                                            "Ray's CPUs.")] = None,
    ray: RayAddress = None,
    out: Annotated[Path | None, typer.Option(help="Output folder (default: "
                                                  "tournament-SEED).")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the results of an "
                                                                "earlier run in --out.")]
    = False,
    resume: Annotated[bool, typer.Option("--resume", help="Finish an interrupted run in --out: "
                                                          "play only the games it did not "
                                                          "finish (same arguments).")] = False,
    records: Annotated[bool, typer.Option("--records/--no-records", help="Write every game's "
                                          "record into --out/records.")] = True,
    solo: Annotated[str | None, typer.Option(help="Only line-ups where this bot holds one seat "
                                                  "(e.g. one mcts:hard against three greedy)."
                                             )] = None,
    option: OptionWords = None,
) -> None:
    """Seat-rotated bot matches: win rates with 95% intervals, ratings, a report and records."""
    from .parallel import LOCAL
    from .tournament import default_workers, print_tournament, run_tournament

    chosen = game_named(game)
    options = game_options(chosen, option=option)
    counts: list[int] = []
    for part in split(players):
        try:
            counts.append(int(part))
        except ValueError:
            raise fail(f"--players takes player counts, not {part!r}") from None
    folder = out if out is not None else Path(f"tournament-{seed}")
    k = workers if workers is not None or ray is not None else default_workers()
    where = (f" --workers {k}" if ray is None else
             " --ray" + ("" if ray == LOCAL else f" {ray}") + (f" --workers {k}" if k else ""))
    command = (f"tavola tournament{'' if game == catalogue.DEFAULT else ' --game ' + game} "
               f"--bots {bots} --players {players} --games {games} "
               f"--seed {seed}{where} --out {folder}"
               + (f" --solo {solo}" if solo else "") + ("" if records else " --no-records")
               + "".join(f" --option {o}" for o in option or []))
    try:
        result = run_tournament(chosen, split(bots), counts, games=games, seed=seed, workers=k,
                                out=folder, console=console, overwrite=overwrite,
                                command=command, solo=solo, records=records, ray=ray,
                                options=options, resume=resume)
    except ValueError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write to {folder}: {exc}") from None
    print_tournament(result, console)


@app.command()
def tune(
    game: GameName = catalogue.DEFAULT,
    seed: Annotated[int, typer.Option(help="Seed of the whole run (candidates and deals).")] = 0,
    generations: Annotated[int, typer.Option(min=1, help="Generations of the optimiser.")] = 8,
    population: Annotated[int, typer.Option(min=2, help="Candidates per generation.")] = 8,
    games: Annotated[int, typer.Option(min=1, help="Games per candidate, rounded up to whole "
                                                   "seat rotations.")] = 16,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players at each table.")] = 2,
    player: Annotated[str, typer.Option(help="The bot that plays the candidates' weights "
                                             "(planner, or mcts:iterations=N).")]
    = "planner",
    out: Annotated[Path, typer.Option(help="The weights file to write.")] = Path("weights.json"),
) -> None:
    """Tune a bot's evaluation weights by the cross-entropy method over seat-rotated games."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from .tune import TunedWeights, games_in, next_version, run_tune, tunable

    chosen = game_named(game)
    try:
        spec = tunable(chosen, player)
    except ValueError as exc:
        raise fail(str(exc)) from None
    command = (f"tavola tune{'' if game == catalogue.DEFAULT else ' --game ' + game} "
               f"--seed {seed} --generations {generations} --population {population} "
               f"--games {games} --players {players} --player {player} --out {out.name}")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("generation 1", total=games_in(generations, population, games,
                                                                 players))

        def generation_done(g: Any) -> None:
            progress.console.print(f"generation {g.number}: best {g.best:.3f}, mean "
                                   f"{g.mean_fitness:.3f}, spread {max(g.spread):.2f}")
            progress.update(task, description=f"generation {g.number + 1}")

        result = run_tune(chosen, spec, seed=seed, generations=generations,
                          population=population, games=games, players=players,
                          on_game=lambda: progress.advance(task), on_generation=generation_done)
    tuned = TunedWeights(version=next_version(out), game=chosen.info.name, command=command,
                         seed=seed, player=player, opponent=spec.opponent,
                         games_per_candidate=games_in(1, 1, games, players),
                         weights=result.weights, history=[g.best for g in result.history])
    try:
        out.write_text(tuned.model_dump_json(indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc}") from None
    console.print(f"weights (version {tuned.version}) written to {out}: {result.weights}")


def _terminal_of(name: str) -> Any:
    """The terminal game a game declares (`GameKit.terminal`), or None."""
    part = catalogue.kit(name).terminal
    return part.load() if part else None


def _default_line_ups() -> str:
    """Each game's own seats when `--players` is left out, as `play --help` shows them."""
    shown = [f"{name}: {terminal.DEFAULT_PLAYERS}" for name in catalogue.available()
             if (terminal := _terminal_of(name)) is not None]
    return "; ".join(shown)


@app.command(context_settings=OLD_FLAGS)
def play(
    ctx: typer.Context,
    game: GameName = catalogue.DEFAULT,
    players: Annotated[str | None, typer.Option(
        help="Comma-separated seats, 2 to 4: human or a bot (`tavola games` lists each "
             "game's; mcts takes a level, e.g. mcts:easy). Several humans play hot-seat.",
        show_default=_default_line_ups())] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal.")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
    pause: Annotated[float, typer.Option(min=0, help="Seconds to wait after each bot move, "
                                                     "to follow the game (a game whose "
                                                     "terminal cannot wait says so).")] = 0.0,
    lang: Annotated[str, typer.Option(help="The language: " + ", ".join(i18n.LANGUAGES)
                                      + ".")] = i18n.DEFAULT,
    option: OptionWords = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat; each game draws its own table."""
    if lang not in i18n.LANGUAGES:
        raise fail(f"no language {lang!r}; the languages are {', '.join(i18n.LANGUAGES)}")
    i18n.set_language(lang)
    chosen = game_named(game)
    terminal = _terminal_of(chosen.info.name)
    if terminal is None:
        raise fail(f"{chosen.info.title} cannot be played in the terminal yet")
    specs = split(players if players is not None else terminal.DEFAULT_PLAYERS)
    options = game_options(chosen, option, ctx.args)
    try:
        terminal.play(specs, seed=seed, record=record, console=console, options=options,
                      pause=pause)
    except ValueError as exc:
        raise fail(str(exc)) from None


@app.command(context_settings=OLD_FLAGS)
def replay(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    verify: Annotated[bool, typer.Option("--verify", help="Re-play through the rules and "
                                                          "check every score.")] = False,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A game option NAME=VALUE the game was played with and its record "
                         "does not hold (a board file, say); `tavola games` lists them.")]
    = None,
) -> None:
    """Show a game record of any game, or verify it against the rules."""
    from .records import RecordError, game_of, read_json

    try:
        data = read_json(file)
        game = game_of(data)
        options = game_options(game, option, ctx.args)
        if verify:
            state = game.verify_record(data, options)
            actions = len(getattr(state, "history", ()))
            console.print(f"[green]✓[/] {file.name}: {actions} actions over "
                          f"{game.round(state)} rounds replay exactly; final scores "
                          f"{list(game.scores(state))}")
        else:
            console.print(game.summarize_record(data))
    except RecordError as exc:
        raise fail(f"{file.name}: {exc}", 1) from None


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="A finished game's record (JSON).")],
    seat: Annotated[list[int] | None, typer.Option(help="Seat to review, from 0 (repeat for "
                                                        "several; default: every seat).")]
    = None,
    level: Annotated[str, typer.Option(help="The search's level: easy, medium or hard.")]
    = "medium",
    out: Annotated[Path | None, typer.Option(help="Also draw each player's expected final "
                                                  "score over the game to this PNG.")] = None,
    seed: Annotated[int, typer.Option(help="The search's seed (a review is reproducible).")]
    = 0,
) -> None:
    """Review a finished game: for each decision, the move the search prefers and what the
    one played cost in expected final points; the biggest mistakes; a graph of the game."""
    from rich.progress import Progress
    from rich.text import Text

    from .records import RecordError, game_of, read_json
    from .review import result_words, review_game, review_settings
    from .text import say

    try:
        data = read_json(file)
        game = game_of(data)
        final = game.verify_record(data)
    except RecordError as exc:
        raise fail(f"{file.name}: {exc}", 1) from None
    seats = sorted(set(seat)) if seat else list(range(len(final.names)))
    if not final.is_over or any(not 0 <= s < len(final.names) for s in seats):
        raise fail(f"{file.name}: a review needs a finished game and seats from 0 to "
                   f"{len(final.names) - 1}", 2)
    try:
        settings = review_settings(game, level)
    except ValueError as exc:
        raise fail(str(exc), 2) from None
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(say("review.progress"), total=len(final.history))
        result = review_game(game, final, seats, settings, seed=seed,
                             progress=lambda done, _: bar.update(task, completed=done))
    _print_review(game, result, seats)
    for s in seats:
        console.print(Text(result_words(game, final, s)))
    if out is not None:
        _draw_review(result, out)


def _print_review(game: Any, result: Any, seats: list[int]) -> None:
    """The review as a table and its biggest mistakes; names and moves from the record are
    printed as plain text, never as markup."""
    from rich.table import Table
    from rich.text import Text

    from .review import reasons
    from .text import say

    console.print(Text(say("review.title", names=", ".join(result.names),
                           decisions=len(result.decisions), seats=len(seats))))
    table = Table(*say("review.columns").split("|"))
    for d in result.decisions:
        cost = f"{d.cost:.1f}" if d.cost else "—"
        table.add_row(*(Text(x) for x in (
            str(d.number), str(d.round), result.names[d.seat], d.chosen_words,
            "" if d.best == d.chosen else d.best_words, cost)))
    console.print(table)
    mistakes = result.mistakes()
    console.print(Text(say("review.mistakes") if mistakes else say("review.none"), "bold"))
    for rank, d in enumerate(mistakes, 1):
        console.print(Text(say("review.mistake", rank=rank, number=d.number, round=d.round,
                               name=result.names[d.seat], played=d.chosen_words,
                               best=d.best_words, cost=f"{d.cost:.1f}")))
        why = reasons(game, d)
        if why:
            console.print(Text("   " + why))


def _draw_review(result: Any, out: Path) -> None:
    from .review import draw_course
    from .text import say

    try:
        draw_course(result, out, title=say("review.graph-title"),
                    axis=(say("review.graph-x"), say("review.graph-y")))
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}", 1) from None
    console.print(say("review.written", path=out))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(help="Database URL: sqlite:///PATH or "
                                         "postgresql://USER:PASSWORD@HOST:PORT/DBNAME.")]
    = "sqlite:///tavola.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.35,
    workers: Annotated[int, typer.Option(help="Server processes sharing the port and the "
                                              "database (more than 1 needs --redis).")] = 1,
    redis: Annotated[str | None, typer.Option(help="redis://HOST:PORT through which several "
                                                   "server processes hear of each other's "
                                                   "moves.")] = None,
    proxy: Annotated[list[str] | None, typer.Option(
        help="Address (or network) of a reverse proxy in front: its X-Forwarded-For and "
             "X-Forwarded-Proto name the client; repeat for several. Default: none, every "
             "client is the address it connects from.")] = None,
    smtp: Annotated[str | None, typer.Option(
        help="E-mail relay: smtp://USER:PASSWORD@HOST:587 (STARTTLS) or smtps://...:465. "
             "Default: none, e-mail is off (the account page says so).")] = None,
    mail_from: Annotated[str | None, typer.Option(help="The From address of e-mails.")] = None,
    site_url: Annotated[str | None, typer.Option(
        help="The address players reach the site at (https://...), for the links in "
             "e-mails and webhooks. Default: http://HOST:PORT.")] = None,
    metrics_token: Annotated[str | None, typer.Option(
        envvar="TAVOLA_METRICS_TOKEN", show_envvar=True,
        help="Bearer token that reads /metrics from beyond loopback (better given in the "
             "environment variable, which other users cannot list). Default: loopback "
             "only.")] = None,
    log_format: Annotated[str, typer.Option(
        help="text (as uvicorn writes it) or json: one JSON object a line, with a line per "
             "request.")] = "text",
) -> None:
    """Play in the browser: the web app, its lobby and saved games."""
    if workers < 1 or (workers > 1 and not redis):
        raise fail("--workers is at least 1, and more than 1 needs --redis redis://HOST:PORT "
                   "(the processes hear of each other's moves through it)")
    if log_format not in ("text", "json"):
        raise fail(f"--log-format is text or json, not {log_format!r}")
    from tavola.web import StoreError, open_store
    from tavola.web import proxy as trusted_proxy
    from tavola.web import serve as run_server

    try:
        proxies = [trusted_proxy(p) for p in proxy or []]
    except ValueError as exc:
        raise fail(f"--proxy: {exc}") from None

    try:
        open_store(db).close()
    except StoreError as exc:
        raise fail(str(exc)) from None
    problem = _cannot_listen(host, port)
    if problem:
        raise fail(problem, 1)
    from tavola.web.site import load_sites

    titles = " and ".join(site.game.info.title for site in load_sites().values())
    console.print(f"Tavola ({titles}): [bold]http://{host}:{port}[/] (database {db}); "
                  "Ctrl-C stops it")
    try:
        run_server(host, port, db, bot_delay=bot_delay, redis=redis, workers=workers,
                   proxies=proxies, notices={"smtp": smtp, "mail_from": mail_from,
                                             "site_url": site_url},
                   metrics_token=metrics_token, log_format=log_format)
    except ValueError as exc:
        raise fail(f"--smtp: {exc}") from None


DatabaseUrl = Annotated[str, typer.Option(help="The site's database: sqlite:///PATH or "
                                              "postgresql://USER:PASSWORD@HOST:PORT/DBNAME.")]


@app.command("backup")
def backup_command(
    db: DatabaseUrl,
    path: Annotated[Path, typer.Argument(help="The backup file, or an existing directory "
                                              "to write DBNAME-YYYYmmdd-HHMMSS.sqlite3 (or "
                                              ".dump, PostgreSQL) into (UTC).")],
    keep: Annotated[int | None, typer.Option(min=1, help="With a directory: keep only the N "
                                                         "newest backups of this database "
                                                         "there.")] = None,
) -> None:
    """Back up the whole site (games, accounts, chat...) while the server runs: SQLite through
    its online backup API, PostgreSQL with pg_dump."""
    from tavola.web.backup import BackupError, backup

    try:
        made = backup(db, path, keep=keep)
    except (BackupError, OSError) as exc:
        raise fail(str(exc), 1) from None
    console.print(f"{made.path}: {made.size:,} bytes in {made.seconds:.2f} s", highlight=False,
                  soft_wrap=True)
    for old in made.pruned:
        console.print(f"removed {old} (--keep {keep})", highlight=False, soft_wrap=True)


@app.command("restore")
def restore_command(
    db: DatabaseUrl,
    path: Annotated[Path, typer.Argument(help="A backup `tavola backup` wrote.")],
    force: Annotated[bool, typer.Option("--force", help="Replace a database that holds "
                                                        "data already.")] = False,
) -> None:
    """Restore a backup into an empty database (an SQLite file, or a PostgreSQL database that
    exists); with --force, over one that holds data, which it replaces."""
    from tavola.web import StoreError
    from tavola.web.backup import BackupError, restore, safe_url

    try:
        done = restore(db, path, force=force)
    except (BackupError, StoreError, OSError) as exc:
        raise fail(str(exc), 1) from None
    console.print(f"restored {path} into {safe_url(db)}: {done.games} games, in "
                  f"{done.seconds:.2f} s", highlight=False, soft_wrap=True)


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
                return (f"port {port} is in use (another server, perhaps another Tavola): "
                        f"stop the other server or run `make run PORT={other}` (or "
                        f"`tavola serve --port {other}`)")
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
    game: Annotated[str | None, typer.Option(
        "--game", help="The game: " + ", ".join(catalogue.available()) + " (default: "
        + catalogue.DEFAULT + "; --notices: the first played in turns).")] = None,
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
    every_game: Annotated[bool, typer.Option("--every-game", help="Every game's figures, one "
                                             "game after the other (--server: games of every "
                                             "game the server hosts, in turn), instead of "
                                             "--game's.")] = False,
    db: Annotated[str | None, typer.Option(help="--server: the server's database URL, e.g. "
                                           "postgresql://USER@HOST/DB (its games stay there); "
                                           "default: a fresh SQLite file.")] = None,
    workers: Annotated[int, typer.Option(help="--server: server processes on one database, "
                                              "with a Redis the benchmark starts.")] = 1,
    route: Annotated[str, typer.Option(help="--server --workers: 'game' puts every connection "
                                            "of a game on one process (as a proxy hashing the "
                                            "game's address does); 'seat' puts a game's seats "
                                            "on different processes (the worst case).")
                     ] = "game",
    option: OptionWords = None,
    notices: Annotated[bool, typer.Option("--notices", help="Deliver your-turn events of "
                                          "turn-based games to an SMTP server and a webhook "
                                          "receiver on loopback while the server process is "
                                          "killed again and again; nothing may be lost.")
                       ] = False,
    events: Annotated[int, typer.Option(help="--notices: your-turn events to make.")] = 10_000,
    kills: Annotated[int, typer.Option(help="--notices: times the server process is killed "
                                            "with SIGKILL meanwhile.")] = 20,
    backups: Annotated[bool, typer.Option("--backup", help="Time `tavola backup` and "
                                          "`tavola restore` of a database (--db, default a "
                                          "fresh SQLite file) filled with --server-games "
                                          "finished games.")] = False,
    rolling_restart: Annotated[bool, typer.Option(
        "--rolling-restart", help="Play --server-games games on two server processes (one "
        "database, one Redis) while each in turn is stopped with SIGTERM and started again; "
        "no acknowledged move may be lost.")] = False,
    restarts: Annotated[int, typer.Option(help="--rolling-restart: times each process is "
                                               "restarted.")] = 3,
) -> None:
    """Measure speed on one core: games per second, placement listing, clone+apply, search;
    or, with --server, the web server's latency under load (or its memory, with --memory);
    or, with --notices, notifications delivered through crashes (`--server-games` games);
    or, with --backup, a backup and its restore; or, with --rolling-restart, games played
    through restarts of the server's processes."""
    if game is not None:
        game_named(game)  # an unknown game is refused before any benchmark starts
    if backups:
        from tavola.web.backupbench import run_backup_bench

        _print_figures(run_backup_bench(games=server_games, db=db), as_json)
        return
    if rolling_restart:
        from tavola.web.restartbench import run_restart_bench

        _print_figures(run_restart_bench(games=server_games, rounds=restarts, db=db,
                                         think=think, game=game or catalogue.DEFAULT), as_json)
        return
    if notices:
        from tavola.web.noticebench import run_notice_bench

        _print_figures(run_notice_bench(games=server_games, events=events, kills=kills, db=db,
                                        game=game), as_json)
        return
    chosen = game_named(game or catalogue.DEFAULT)
    options = game_options(chosen, option=option)
    if server:
        from tavola.web.loadbench import run_load_bench, run_memory_bench
        from tavola.web.site import load_sites

        _check_lobby_options(chosen, options, every_game or memory)
        names = list(load_sites()) if every_game else [chosen.info.name]
        figures = run_memory_bench(server_games) if memory else \
            run_load_bench(games=server_games, think=think, lobby_pollers=lobby_pollers,
                           names=names, db=db, workers=workers, route=route, options=options)
        _print_figures(figures, as_json)
        return
    if games < 1 or mcts < 0:
        raise fail("--games must be at least 1 and --mcts at least 0", 2)
    if every_game and options:
        raise fail("--option sets one game's options: not with --every-game")
    chosen_games = [game_named(name) for name in catalogue.available()] if every_game \
        else [chosen]
    _print_engine_figures(chosen_games, games, mcts, bot, options, as_json)


def _print_engine_figures(chosen: list[Any], games: int, mcts: int, bot: str,
                          options: dict[str, Any], as_json: bool) -> None:
    """Each game's engine and search figures; several games one block after the other (JSON:
    an object by game name)."""
    from .bench import run_bench

    every: dict[str, dict[str, object]] = {}
    for one in chosen:
        try:
            every[one.info.name] = run_bench(one, games=games, mcts_decisions=mcts,
                                             mcts_spec=bot, options=options)
        except ValueError as exc:
            raise fail(str(exc), 2) from None
    if len(every) == 1:
        _print_figures(next(iter(every.values())), as_json)
    elif as_json:
        console.print_json(json.dumps(every))
    else:
        for i, figures in enumerate(every.values()):
            if i:
                console.print()
            _print_figures(figures, False)


def _check_lobby_options(game: Any, options: dict[str, Any], mixed: bool) -> None:
    """`bench --server` sets options as the lobby does: only those it offers, for one game."""
    if options and mixed:
        raise fail("--option sets one game's options: not with --every-game or --memory")
    offstage = [name for name in options if not game.info.options[name].lobby]
    if offstage:
        raise fail(f"the lobby does not offer {', '.join(offstage)}: the server chooses it")


def _print_figures(figures: dict[str, object], as_json: bool) -> None:
    if as_json:
        console.print_json(json.dumps(figures))
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        console.print(f"{key:>{width}}: {value}", soft_wrap=True, highlight=False)


def _add_game_commands() -> None:
    """Each game may bring commands of its own (`GameKit.commands`: `register(app)`)."""
    for declared in catalogue.kits().values():
        if declared.commands:
            declared.commands.load()(app)


_add_game_commands()
app.add_typer(i18n_app, name="i18n")
app.add_typer(editions_app, name="editions")
admin_app = typer.Typer(no_args_is_help=True, help="Moderators and admins of the web site: "
                                                   "roles are given and taken only here.")
app.add_typer(admin_app, name="admin")
Database = Annotated[str, typer.Option(help="Database URL, as for serve.")]
Role = Annotated[str, typer.Argument(help="moderator or admin")]


def _moderation(db: str) -> tuple[Any, Any, Any]:
    """The game store, account store and moderation tables of the database `db`."""
    from tavola.web import StoreError, open_store
    from tavola.web.account_store import open_account_store
    from tavola.web.moderation import ModerationStore

    try:
        store = open_store(db)
        return store, open_account_store(store), ModerationStore(store)
    except StoreError as exc:
        raise fail(str(exc)) from None


def _account(accounts: Any, name: str) -> Any:
    from tavola.text import say
    from tavola.web.user_names import name_key

    found = accounts.user_by_key(name_key(name))
    if found is None:
        raise fail(say("admin.no-user", name=name), 1)
    return found[0]


def _role(role: str) -> str:
    from tavola.text import say
    from tavola.web.moderation import ROLES

    if role not in ROLES:
        raise fail(say("admin.bad-role"))
    return role


@admin_app.command()
def grant(name: str, role: Role, db: Database = "sqlite:///tavola.db") -> None:
    """Give an account a role (an account has one: admin replaces moderator)."""
    import time

    from tavola.text import say

    role = _role(role)
    store, accounts, moderation = _moderation(db)
    try:
        user = _account(accounts, name)
        moderation.grant(user.id, role, time.time())
        console.print(say("admin.granted", name=user.name, role=role), highlight=False)
    finally:
        for part in (moderation, accounts, store):
            part.close()


@admin_app.command()
def revoke(name: str, role: Role, db: Database = "sqlite:///tavola.db") -> None:
    """Take a role from an account."""
    import time

    from tavola.text import say

    role = _role(role)
    store, accounts, moderation = _moderation(db)
    try:
        user = _account(accounts, name)
        if not moderation.revoke(user.id, role, time.time()):
            raise fail(say("admin.not-role", name=user.name, role=role), 1)
        console.print(say("admin.revoked", name=user.name, role=role), highlight=False)
    finally:
        for part in (moderation, accounts, store):
            part.close()


@admin_app.command(name="list")
def list_roles(db: Database = "sqlite:///tavola.db") -> None:
    """The accounts with a role."""
    from tavola.text import say

    store, accounts, moderation = _moderation(db)
    try:
        roles = moderation.roles()
        if not roles:
            console.print(say("admin.nobody"), highlight=False)
        for user_id, role, _ in roles:
            user = accounts.user_by_id(user_id)
            console.print(f"{role}\t{escape(user.name if user else str(user_id))}",
                          highlight=False)
    finally:
        for part in (moderation, accounts, store):
            part.close()


def ray_alone(argv: list[str]) -> list[str]:
    """`--ray` may come without an address (a local Ray instance): give it the LOCAL one.

    Typer has no option with an optional value, so a bare `--ray` (last, or followed by
    another option) is spelled out before parsing.
    """
    from .parallel import LOCAL

    out = []
    for i, arg in enumerate(argv):
        bare = arg == "--ray" and (i + 1 == len(argv) or argv[i + 1].startswith("-"))
        out.append(f"--ray={LOCAL}" if bare else arg)
    return out


def main() -> None:
    import sys

    from .collector import tune

    tune()
    app(args=ray_alone(sys.argv[1:]), prog_name="tavola")


def renamed() -> None:
    """The command's name before it was `tavola`: says so on stderr, then does the same."""
    import sys

    print(f"`{Path(sys.argv[0]).name}` is now called `tavola`: this time it runs `tavola "
          + " ".join(sys.argv[1:]) + "`.", file=sys.stderr)
    main()


if __name__ == "__main__":
    main()
