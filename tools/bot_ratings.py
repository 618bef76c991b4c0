"""Write tavola/data/bot_ratings.json: each bot level's fixed rating per game and player count.

The numbers come from the tournaments in docs/tournaments (`tavola tournament`), rated again
here per player count (`tavola.tournament.rate_in_any_order`: the tournament's pairwise
openskill updates, averaged over shuffles of the games, so that the last games played do not
decide): every game of that player count from the sources listed below, so two tournaments that
share a bot are put on one scale by it. A level no tournament played at a player count has no rating
there, and a rated game cannot seat it. Run from the repository root::

    .venv/bin/python tools/bot_ratings.py          # writes tavola/data/bot_ratings.json
    .venv/bin/python tools/bot_ratings.py --check  # exit 1 if the file is not what it writes
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tavola.ratings import BOT_RATINGS, BotRatings  # noqa: E402
from tavola.tournament import ORDERLESS_METHOD, rate_in_any_order, read_results  # noqa: E402

COMMAND = ".venv/bin/python tools/bot_ratings.py"
# (game, players) -> tournament folders under docs/tournaments, rated together in this order
SOURCES: dict[tuple[str, int], list[str]] = {
    ("gonzaga", 2): ["2p", "gonzaga-hard-2p-6060", "gonzaga-hard-2p-8080"],
    ("gonzaga", 3): ["3p"],
    ("gonzaga", 4): ["4p", "4p-all"],
    # Signorie's mcts:hard as it plays now (tuned weights); older runs rated an earlier search
    ("signorie", 2): ["signorie-short", "signorie-tuned-700", "signorie-tuned-900"],
    ("signorie", 3): ["signorie-short", "signorie-tuned-3p"],
    ("signorie", 4): ["signorie-short", "signorie-tuned-4p"],
}


@dataclass(frozen=True)
class Played:
    """What `rate` reads of a game: who sat where, and where each seat finished."""

    seats: tuple[str, ...]
    ranks: tuple[int, ...]


def build() -> dict[str, object]:
    sources, ratings = [], []
    for (game, players), folders in SOURCES.items():
        files = [f"docs/tournaments/{f}/results.json" for f in folders]
        loaded = [read_results(ROOT / f) for f in files]
        strays = [f for f, d in zip(files, loaded, strict=True)
                  if d["parameters"]["game"] != game]
        if strays:
            raise SystemExit(f"{', '.join(strays)}: not tournaments of {game}")
        played = [Played(tuple(g["seats"]), tuple(g["ranks"]))
                  for data in loaded for g in data["games"] if len(g["seats"]) == players]
        bots = list(dict.fromkeys(b for p in played for b in p.seats))
        for r in rate_in_any_order(bots, played):
            ratings.append({"game": game, "players": players, "bot": r.bot,
                            "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                            "pairs": r.pairs})
        sources.append({"game": game, "players": players, "results": files,
                        "commands": [d["command"] for d in loaded]})
    data = {"format": "tavola-bot-ratings/1", "command": COMMAND,
            "method": ORDERLESS_METHOD + "; rated per player count", "sources": sources,
            "ratings": ratings}
    BotRatings.model_validate(data)
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    schema = ROOT / "docs" / "bot-ratings.schema.json"
    schema_text = json.dumps(BotRatings.model_json_schema(), indent=2) + "\n"
    if args.check:
        same = BOT_RATINGS.read_text(encoding="utf-8") == text and \
            schema.read_text(encoding="utf-8") == schema_text
        print("up to date" if same else "out of date: run " + COMMAND)
        return 0 if same else 1
    BOT_RATINGS.parent.mkdir(exist_ok=True)
    BOT_RATINGS.write_text(text, encoding="utf-8")
    schema.write_text(schema_text, encoding="utf-8")
    print(f"wrote {BOT_RATINGS.relative_to(ROOT)} and {schema.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
