"""Write each game's bot ratings: each bot level's fixed rating per player count, in the file
its kit declares (`GameKit.bot_ratings`, ours `tavola/games/NAME/data/bot_ratings.json`).

The numbers come from the tournaments (`tavola tournament`) the game's file names as its
`sources`, rated again here per player count (`tavola.tournament.rate_in_any_order`: the
tournament's pairwise openskill updates, averaged over shuffles of the games, so that the last
games played do not decide): every game of that player count from the listed results, so two
tournaments that share a bot are put on one scale by it. A level no tournament played at a
player count has no rating there, and a rated game cannot seat it. To rate from another
tournament, add its results.json to the file's `sources` (a game's first file needs no more
than `{"sources": [{"players": 2, "results": [...]}]}`) and run from the repository root::

    .venv/bin/python tools/bot_ratings.py          # writes every game's file
    .venv/bin/python tools/bot_ratings.py --check  # exit 1 if a file is not what it writes
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tavola import registry  # noqa: E402
from tavola.kit import GameKit  # noqa: E402
from tavola.ratings import FORMAT, BotRatings, ratings_file  # noqa: E402
from tavola.tournament import ORDERLESS_METHOD, rate_in_any_order, read_results  # noqa: E402

COMMAND = ".venv/bin/python tools/bot_ratings.py"
SCHEMA = ROOT / "docs" / "bot-ratings.schema.json"


@dataclass(frozen=True)
class Played:
    """What `rate` reads of a game: who sat where, and where each seat finished."""

    seats: tuple[str, ...]
    ranks: tuple[int, ...]


def build(game: str, named: list[dict[str, object]]) -> dict[str, object]:
    """A game's file, rated from the sources it names: [{"players", "results"}]."""
    sources, ratings = [], []
    for source in named:
        players, files = source["players"], source["results"]
        assert isinstance(players, int) and isinstance(files, list)
        loaded = [read_results(ROOT / f) for f in files]
        strays = [f for f, d in zip(files, loaded, strict=True)
                  if d["parameters"]["game"] != game]
        if strays:
            raise SystemExit(f"{', '.join(strays)}: not tournaments of {game}")
        played = [Played(tuple(g["seats"]), tuple(g["ranks"]))
                  for data in loaded for g in data["games"] if len(g["seats"]) == players]
        bots = list(dict.fromkeys(b for p in played for b in p.seats))
        for r in rate_in_any_order(bots, played):
            ratings.append({"players": players, "bot": r.bot, "mu": round(r.mu, 3),
                            "sigma": round(r.sigma, 3), "pairs": r.pairs})
        sources.append({"players": players, "results": files,
                        "commands": [d["command"] for d in loaded]})
    data = {"format": FORMAT, "game": game, "command": COMMAND,
            "method": ORDERLESS_METHOD + "; rated per player count", "sources": sources,
            "ratings": ratings}
    BotRatings.model_validate(data)
    return data


def written(kit: GameKit, path: Path) -> str:
    """The text of a game's file, rated again from the sources its present file names."""
    named = json.loads(path.read_text(encoding="utf-8"))["sources"]
    return json.dumps(build(kit.name, named), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    files = {path: written(kit, path) for kit in registry.kits().values()  # ours, not others'
             if (path := ratings_file(kit)) is not None and ROOT in path.parents}
    files[SCHEMA] = json.dumps(BotRatings.model_json_schema(), indent=2) + "\n"
    if args.check:
        stale = [p for p, text in files.items() if p.read_text(encoding="utf-8") != text]
        print("up to date" if not stale else
              f"out of date: {', '.join(str(p.relative_to(ROOT)) for p in stale)}; run {COMMAND}")
        return 0 if not stale else 1
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
