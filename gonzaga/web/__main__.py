"""`python -m gonzaga.web --port N --db URL`: the server alone, as tests and benchmarks start it."""

from __future__ import annotations

import argparse

from . import serve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gonzaga.web")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default="sqlite:///gonzaga.db")
    parser.add_argument("--bot-delay", type=float, default=0.35)
    args = parser.parse_args()
    serve(args.host, args.port, args.db, bot_delay=args.bot_delay)


if __name__ == "__main__":
    main()
