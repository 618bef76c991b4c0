"""The web server of every game: storage, rooms, bot workers, connections, input limits.

Nothing in a game's rules imports this package; it drives them like any other client.

`serve` and the other entry points import the server (`app`, uvicorn) when called: a module
of the package, such as a bot worker's `botpool`, runs this file first and stays light.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from typing import Any

from .storage import GameStore, SeqConflict, SqliteStore, StoreError, open_store

__all__ = ["GameStore", "SeqConflict", "SqliteStore", "StoreError", "open_store", "proxy",
           "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///tavola.db",
          *, games: list[str] | None = None, bot_delay: float = 0.35, log_level: str = "warning",
          limits: dict[str, float] | None = None, redis: str | None = None,
          workers: int = 1, proxies: Sequence[str] = (), notices: dict[str, Any] | None = None,
          metrics_token: str | None = None, log_format: str = "text") -> None:
    """Run the web app of `games` (default: every game with a web side) with uvicorn until
    interrupted; `limits` overrides fields of `app.Limits` (rates of 0: no limit). With
    `workers` > 1, that many processes share the port and the database, and hear of each
    other's moves through Redis at `redis` (required then). Only a connection from one of
    `proxies` (addresses or networks) is believed when it names the client's address and
    scheme (`X-Forwarded-For`, `-Proto`); with none, every client's own headers are ignored,
    so no client can choose the address its limits count against. `notices`: `smtp` (a relay
    URL; none: no e-mail), `mail_from`, `site_url` (where messages' links point) and
    `loopback_webhooks` (tests only), as `notices.Config` takes them. `metrics_token` reads
    /metrics from beyond loopback (default: `$TAVOLA_METRICS_TOKEN`); `log_format`: text
    (uvicorn's) or json (`logs`: one object a line, a line per request)."""
    import uvicorn

    from .logs import log_config

    if workers > 1 and not redis:
        raise ValueError("several workers need --redis redis://HOST:PORT to hear of each "
                         "other's moves")
    options = {"db": db, "games": games, "bot_delay": bot_delay, "limits": limits or {},
               "redis": redis, "notices": notices or {}, "metrics_token": metrics_token}
    log_setup = log_config(log_format, log_level)  # an unknown format stops it here
    notice_config(options["notices"], host, port)  # a bad relay URL stops it here
    from .app import RESTART_SECONDS
    from .deadline import RequestDeadline
    from .restart import Restartable

    common = {"host": host, "port": port, "ws_max_size": 1 << 16,
              "log_level": log_level if log_setup is None else log_setup["root"]["level"].lower(),
              "log_config": log_setup,
              "ws_per_message_deflate": False, "http": RequestDeadline,
              "proxy_headers": bool(proxies),
              "forwarded_allow_ips": ",".join(proxy(p) for p in proxies)}
    # no WebSocket message is near 64 KiB (the server refuses over 16 KiB with a clear error);
    # a request must arrive within `Limits.request_seconds` (`deadline`)
    if log_setup is None:
        del common["log_config"]  # uvicorn's own, as ever
    if workers > 1:
        _serve_workers(options, workers, common)
        return
    app = _app(options)
    config = uvicorn.Config(app, timeout_graceful_shutdown=RESTART_SECONDS,
                            **common)  # type: ignore[arg-type]
    server = Restartable(config, app.state.server)
    server.run()
    if not server.started:
        raise SystemExit(3)  # as uvicorn.run: the app did not start (its log says why)


def _serve_workers(options: dict[str, Any], workers: int, common: dict[str, Any]) -> None:
    """uvicorn's worker processes, each building its app from `options`; their metrics go to
    files in a fresh private folder (`metrics`: Prometheus' multiprocess mode), named to them
    before they start, so before any imports the metrics library; removed at the end."""
    import uvicorn

    from .app import RESTART_SECONDS
    from .metrics import MULTIPROC

    folder = tempfile.mkdtemp(prefix="tavola-metrics-")  # mode 0700: this user's only
    os.environ[_OPTIONS] = json.dumps(options)
    os.environ[MULTIPROC] = folder
    try:
        uvicorn.run("tavola.web:app_from_environment", factory=True, workers=workers,
                    timeout_graceful_shutdown=RESTART_SECONDS, **common)
    finally:
        os.environ.pop(MULTIPROC, None)
        shutil.rmtree(folder, ignore_errors=True)


def proxy(text: str) -> str:
    """A trusted proxy as `serve` takes it: an IP address or network, checked here because
    uvicorn would take anything else for a name no connection ever has."""
    text = text.strip()
    try:
        if "/" not in text:
            return str(ipaddress.ip_address(text))
        return str(ipaddress.ip_network(text, strict=False))  # uvicorn 0.31 and later
    except ValueError:
        raise ValueError(f"a proxy is an IP address or network such as 127.0.0.1 or "
                         f"10.0.0.0/8, not {text!r}") from None


_OPTIONS = "TAVOLA_SERVE_OPTIONS"  # how `serve` hands its options to its worker processes


def app_from_environment() -> Any:
    """The app of one worker process of `serve(workers=N)`."""
    return _app(json.loads(os.environ[_OPTIONS]))


def _app(options: dict[str, Any]) -> Any:
    from .app import Limits, create_app
    from .deadline import RequestDeadline

    limits = Limits(**options["limits"])
    RequestDeadline.seconds = limits.request_seconds  # this process's HTTP connections
    return create_app(options["db"], games=options["games"], bot_delay=options["bot_delay"],
                      limits=limits, redis=options["redis"],
                      notices=notice_config(options.get("notices") or {}, None, None),
                      metrics_token=options.get("metrics_token"))


def notice_config(options: dict[str, Any], host: str | None, port: int | None) -> Any:
    """`notices.Config` from `serve`'s options (a relay URL that cannot be read: ValueError)."""
    from .notices import Config
    from .notices.channels import Relay

    smtp = options.get("smtp")
    site = options.get("site_url") or (f"http://{host}:{port}" if host else None)
    if site:
        options["site_url"] = site
    return Config(site_url=site or Config.site_url,
                  relay=Relay.parse(smtp, options.get("mail_from")) if smtp else None,
                  loopback_webhooks=bool(options.get("loopback_webhooks")))
