"""The one error a client is told about: what it sent that the server refuses, and why."""

from __future__ import annotations

from typing import Any


class ClientError(Exception):
    """A message a client should not have sent: `code` for programs, `message` for people."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


class Refused(ClientError):
    """A connection the server will not serve: the error is sent, then the socket closed
    with `close_code` (4429: too many connections, as HTTP's 429)."""

    def __init__(self, code: str, message: str, close_code: int = 4429) -> None:
        super().__init__(code, message)
        self.close_code = close_code
