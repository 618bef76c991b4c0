"""Seat-rotated Signorie tournaments through the platform's `run_tournament`, results only.

    .venv/bin/python tools/signorie_tournament.py mcts:hard,greedy --games 40 \\
        --out docs/tournaments/signorie-2p

Writes results.md, results.json and scores.png into --out. Per-game records are left out:
the games replay from their seeds (listed in results.json) with the same bots.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.signorie.game import GAME
from tabletop.tournament import print_tournament, run_tournament, write_outputs

RECORDS_LINE = ("Every game's record is in `records/`; `gonzaga replay --verify FILE` re-plays "
                "it.")
NO_RECORDS = ("Per-game records are not kept; each game replays from its seed (in "
              "`results.json`) with the same bots, seeded as the tournament seeds them.")


def note_no_records(path: Path) -> None:
    """The platform's report points at records; these runs keep none."""
    path.write_text(path.read_text(encoding="utf-8").replace(RECORDS_LINE, NO_RECORDS),
                    encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", help="bot specs, comma-separated (mcts:hard,greedy)")
    parser.add_argument("--players", default="2", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=40, help="games per line-up")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    console = Console()
    tour = run_tournament(GAME, args.bots.split(","),
                          [int(p) for p in args.players.split(",")], games=args.games,
                          seed=args.seed, workers=args.workers, out=None, console=console)
    args.out.mkdir(parents=True, exist_ok=True)
    command = ".venv/bin/python tools/signorie_tournament.py " + shlex.join(
        argv if argv is not None else sys.argv[1:])
    write_outputs(tour, args.out, command)
    note_no_records(args.out / "results.md")
    print_tournament(tour, console)


if __name__ == "__main__":
    main()
