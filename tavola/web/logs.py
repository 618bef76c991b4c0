"""The server's log as text (uvicorn's own format) or as JSON lines (`serve --log-format json`).

A JSON line is one object: `time` (UTC, ISO 8601), `level`, `logger`, `message`, and what it
happened in: `request_id` for an HTTP request or a WebSocket (the id the response's
`X-Request-ID` header gives the client), `game_id` for a game's events (its connections, its
bots, or `extra={"game_id": ...}`); uvicorn's access log adds `client`, `method`, `path`,
`http_version` and `status`. The standard library's `logging` with the small formatter below:
nothing else is needed to write a dict.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import secrets
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
GAME_ID: ContextVar[str | None] = ContextVar("game_id", default=None)
FORMATS = ("text", "json")
_ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")
#: paths whose rest is a secret (an unsubscribe link's token): the log shows only the prefix
SECRET_PATHS = ("/unsubscribe/",)


class JsonLines(logging.Formatter):
    """A record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        args = record.args if isinstance(record.args, tuple) else ()
        access = record.name == "uvicorn.access" and len(args) == len(_ACCESS_FIELDS)
        fields = dict(zip(_ACCESS_FIELDS, args, strict=True)) if access else {}
        if fields:
            fields["path"] = without_secrets(str(fields["path"]))
        message = record.msg % tuple(fields.values()) if fields else record.getMessage()
        entry: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "message": message}
        for name, var in (("request_id", REQUEST_ID), ("game_id", GAME_ID)):
            value = getattr(record, name, None) or var.get()  # `extra=` names it first
            if value is not None:
                entry[name] = value
        entry.update(fields)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def without_secrets(path: str) -> str:
    """A request's path as the log shows it: a secret in it (`SECRET_PATHS`) left out."""
    for prefix in SECRET_PATHS:
        if path.startswith(prefix):
            return prefix + "..."
    return path


def log_config(log_format: str, level: str) -> dict[str, Any] | None:
    """uvicorn's `log_config` for `log_format`: None keeps uvicorn's text; JSON sends every
    logger, uvicorn's access log included, through `JsonLines` on standard error, from INFO
    (a line per request, a game's creation and end) or `level` if it says more."""
    if log_format not in FORMATS:
        raise ValueError(f"a log format is one of {', '.join(FORMATS)}, not {log_format!r}")
    if log_format == "text":
        return None
    named = logging.getLevelName(level.upper())
    level = logging.getLevelName(min(named, logging.INFO) if isinstance(named, int)
                                 else logging.INFO)
    handler = {"handlers": ["json"], "propagate": False}
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {"json": {"()": f"{__name__}.JsonLines"}},
            "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json",
                                  "stream": "ext://sys.stderr"}},
            "loggers": {"uvicorn": {**handler, "level": level},
                        "uvicorn.error": {"level": level},
                        "uvicorn.access": {**handler, "level": "INFO"}},
            "root": {"handlers": ["json"], "level": level}}


class RequestIds:
    """ASGI middleware, outside every other: each HTTP request and WebSocket gets an id, in
    the log lines written while it is handled (uvicorn's access line included) and in the
    response's `X-Request-ID`; an exception nobody caught is counted (`ops`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = secrets.token_hex(8)
        header = (b"x-request-id", request_id.encode())

        async def send_with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        token = REQUEST_ID.set(request_id)
        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            metrics.count_server_error(scope["type"])
            raise
        finally:
            REQUEST_ID.reset(token)
