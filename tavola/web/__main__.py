"""`python -m tavola.web --port N --db URL [--game NAME ...]`: the server alone, as tests and
benchmarks start it (every game with a web side, or only those named)."""

from __future__ import annotations

import argparse
import dataclasses

from . import proxy, serve
from .app import Limits


def _limit(text: str) -> tuple[str, float]:
    """`name=value` for a field of `Limits`."""
    name, _, value = text.partition("=")
    fields = {f.name for f in dataclasses.fields(Limits)}
    if name not in fields:
        raise argparse.ArgumentTypeError(f"unknown limit {name!r}; one of {', '.join(fields)}")
    return name, float(value)


def _proxy(text: str) -> str:
    try:
        return proxy(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tavola.web")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default="sqlite:///tavola.db")
    parser.add_argument("--game", action="append", default=None,
                        help="host only this game (repeat for several); default: every game")
    parser.add_argument("--bot-delay", type=float, default=0.35)
    parser.add_argument("--redis", default=None,
                        help="redis://HOST:PORT: one of several processes on one database")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes sharing the port (needs --redis)")
    parser.add_argument("--proxy", type=_proxy, action="append", default=[],
                        help="ADDRESS or NETWORK of a reverse proxy whose X-Forwarded-For and "
                             "X-Forwarded-Proto are believed (repeat for several); default: "
                             "none, every client is the address it connects from")
    parser.add_argument("--limit", type=_limit, action="append", default=[],
                        help="NAME=VALUE overrides a server limit, e.g. creates_per_minute=0")
    parser.add_argument("--smtp", default=None,
                        help="smtp://USER:PASSWORD@HOST:587 (STARTTLS) or smtps://...:465: the "
                             "relay that sends e-mail; default: none, e-mail is off")
    parser.add_argument("--mail-from", default=None, help="the From address of e-mails")
    parser.add_argument("--site-url", default=None,
                        help="the address players reach the site at, for links in messages")
    parser.add_argument("--metrics-token", default=None,
                        help="bearer token that reads /metrics from beyond loopback; "
                             "default: $TAVOLA_METRICS_TOKEN, else loopback only")
    parser.add_argument("--log-format", choices=["text", "json"], default="text",
                        help="json: one JSON object a line, with a line per request")
    parser.add_argument("--loopback-webhooks", action="store_true",
                        help="tests only: let webhooks go to this machine over http")
    args = parser.parse_args()
    limits = {name: (int(v) if isinstance(getattr(Limits, name), int) else v)
              for name, v in args.limit}
    serve(args.host, args.port, args.db, games=args.game, bot_delay=args.bot_delay,
          limits=limits, redis=args.redis, workers=args.workers, proxies=args.proxy,
          notices={"smtp": args.smtp, "mail_from": args.mail_from, "site_url": args.site_url,
                   "loopback_webhooks": args.loopback_webhooks},
          metrics_token=args.metrics_token, log_format=args.log_format)


if __name__ == "__main__":
    main()
