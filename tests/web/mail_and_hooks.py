"""Real receivers on loopback for the notification tests: an SMTP server (aiosmtpd) that keeps
every message it accepts, and an HTTP server that keeps every webhook call it answers."""

from __future__ import annotations

import email
import email.policy
import json
import socket
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mailbox:
    """An SMTP server on 127.0.0.1; `messages` are parsed e-mails in arrival order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self.port = free_port()
        self._arrived = threading.Condition()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._arrived:
            self.messages.append(message)  # type: ignore[arg-type]
            self.recipients.append(list(envelope.rcpt_tos))
            self._arrived.notify_all()
        return "250 OK"

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def wait_for(self, count: int, seconds: float = 60.0) -> list[EmailMessage]:
        """At least `count` messages, or an AssertionError after `seconds` (wide: a loaded
        machine)."""
        end = time.monotonic() + seconds
        with self._arrived:
            while len(self.messages) < count:
                left = end - time.monotonic()
                assert left > 0, f"{len(self.messages)} of {count} e-mails arrived"
                self._arrived.wait(left)
            return list(self.messages)

    def __enter__(self) -> Mailbox:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, "no plain-text part"
    return str(part.get_content())


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None, "no HTML part"
    return str(part.get_content())


class Hooks:
    """A webhook receiver on 127.0.0.1; `answer` decides each call's status (default 204)."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.answer: Callable[[int], int] = lambda n: 204
        self._arrived = threading.Condition()
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with hooks._arrived:
                    status = hooks.answer(len(hooks.calls))
                    hooks.calls.append({"path": self.path, "headers": dict(self.headers),
                                        "body": json.loads(body), "status": status})
                    hooks._arrived.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def delivered(self) -> list[dict[str, Any]]:
        return [c for c in self.calls if 200 <= c["status"] < 300]

    def wait_for(self, count: int, seconds: float = 60.0) -> list[dict[str, Any]]:
        end = time.monotonic() + seconds
        with self._arrived:
            while len(self.delivered()) < count:
                left = end - time.monotonic()
                assert left > 0, f"{len(self.delivered())} of {count} webhook calls arrived"
                self._arrived.wait(left)
            return self.delivered()

    def __enter__(self) -> Hooks:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
