"""The ways out: e-mail through an SMTP relay, and webhooks (Discord, Slack or plain JSON).

Both are blocking and run in the sender's threads. A webhook URL is a player's input that
makes the server open a connection: it must be https to a public address (http to loopback
only where the server allows it, for tests), it is resolved here and the connection goes to
the address that was checked (the certificate is still checked for the name), so a name that
resolves elsewhere a second later reaches nothing private.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import smtplib
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

import urllib3

WEBHOOK_LENGTH = 500  # characters of a webhook URL
WEBHOOK_SECONDS = 5.0  # connect and read timeout of one webhook call
SMTP_SECONDS = 20.0


class Refused(ValueError):
    """A webhook URL or an SMTP relay URL the server will not use (the message says why)."""


class SendFailed(RuntimeError):
    """A message that did not go out; `permanent`: trying again will not help."""

    def __init__(self, why: str, permanent: bool = False) -> None:
        super().__init__(why)
        self.permanent = permanent


# -- e-mail ----------------------------------------------------------------------------------

_CONNECTIONS = threading.local()  # each sending thread's open connection, per relay


@dataclass(frozen=True)
class Relay:
    """An SMTP relay, from `smtp://user:pass@host:587` (STARTTLS when the relay offers it,
    required unless the relay is on loopback) or `smtps://...:465` (TLS from the start)."""

    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool  # TLS from the first byte (smtps)
    sender: str  # the From address

    @staticmethod
    def parse(url: str, sender: str | None = None) -> Relay:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise Refused("an SMTP relay is smtp://[user:password@]host[:port] or smtps://...")
        port = parts.port or (465 if parts.scheme == "smtps" else 587)
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return Relay(parts.hostname, port, user, password, parts.scheme == "smtps",
                     sender or f"noreply@{parts.hostname}")

    def loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"

    def send(self, message: EmailMessage, then: Callable[[], None] | None = None) -> None:
        """Hand one message to the relay; `SendFailed` (permanent for a refused recipient).
        Each sending thread keeps its connection open for the next message (a relay that
        closed it meanwhile gets a new one). `then` runs the moment the relay has accepted
        the message: the shorter the time between the two, the rarer a message a crash
        makes the sender send again."""
        message["From"] = self.sender
        for fresh in (False, True):
            smtp = self._open(fresh)
            try:
                smtp.send_message(message)
                break
            except smtplib.SMTPRecipientsRefused as exc:
                raise SendFailed(f"the relay refused the recipient: {exc}",
                                 permanent=True) from None
            except (smtplib.SMTPServerDisconnected, ConnectionError) as exc:
                self._drop()
                if fresh:
                    raise SendFailed(f"the SMTP relay failed: {exc}") from None
            except (smtplib.SMTPException, OSError) as exc:
                self._drop()
                raise SendFailed(f"the SMTP relay failed: {exc}") from None
        if then is not None:
            then()

    def _open(self, fresh: bool) -> smtplib.SMTP:
        held = getattr(_CONNECTIONS, "held", None)
        if held is None:
            held = _CONNECTIONS.held = {}
        if fresh or self not in held:
            self._drop()
            try:
                held[self] = self._connect()
            except (smtplib.SMTPException, OSError) as exc:
                raise SendFailed(f"the SMTP relay failed: {exc}") from None
        return held[self]  # type: ignore[no-any-return]

    def _drop(self) -> None:
        smtp = getattr(_CONNECTIONS, "held", {}).pop(self, None)
        if smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                smtp.close()

    def _connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        if self.tls:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=SMTP_SECONDS,
                                                  context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=SMTP_SECONDS)
            smtp.ehlo()
            if smtp.has_extn("starttls"):
                smtp.starttls(context=context)
                smtp.ehlo()
            elif not self.loopback():
                smtp.close()
                raise SendFailed("the SMTP relay offers no STARTTLS: refusing to send the "
                                 "password and addresses in clear")
        if self.user is not None:
            smtp.login(self.user, self.password or "")
        return smtp


# -- webhooks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A checked webhook URL and the address it was resolved to."""

    url: str
    scheme: str
    host: str
    port: int
    address: str
    path: str


def _address_allowed(address: str, loopback: bool) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return loopback
    return ip.is_global and not ip.is_multicast


def check_webhook(url: Any, *, loopback: bool = False, resolve: bool = True) -> Target:
    """A webhook URL the server may call, or `Refused` naming the problem: https to a public
    address (`loopback`: http or https to this machine too, for tests); no user or password
    in it. `resolve`: look the name up now (the account page checks the form only when the
    name does not resolve yet)."""
    if not isinstance(url, str) or not url or len(url) > WEBHOOK_LENGTH:
        raise Refused(f"a webhook URL is text of at most {WEBHOOK_LENGTH} characters")
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise Refused("a webhook URL has no spaces or control characters")
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise Refused("the webhook URL's port is not a number from 1 to 65535") from None
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http") or not host:
        raise Refused("a webhook URL starts with https:// and names a host")
    if parts.username or parts.password:
        raise Refused("a webhook URL carries no user name or password")
    if parts.scheme == "http" and not loopback:
        raise Refused("a webhook URL must use https")
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if not resolve:
        return Target(url, parts.scheme, host, port, "", path)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"the webhook's host {host} does not resolve") from None
    addresses = sorted({str(info[4][0]) for info in infos})
    bad = [a for a in addresses if not _address_allowed(a, loopback)]
    if bad or not addresses:
        raise Refused(f"the webhook's host {host} is a private or local address ({bad[0]})"
                      if bad else f"the webhook's host {host} has no address")
    if parts.scheme == "http" and not all(ipaddress.ip_address(a).is_loopback
                                          for a in addresses):
        raise Refused("a webhook URL must use https")
    return Target(url, parts.scheme, host, port, addresses[0], path)


def webhook_body(fmt: str, url: str, text: str, facts: dict[str, Any]) -> dict[str, Any]:
    """The JSON a webhook is sent: Discord's and Slack's own forms, or the facts for anything
    else (`auto` tells Discord and Slack apart by their hosts)."""
    if fmt == "auto":
        host = (urlsplit(url).hostname or "").lower()
        fmt = "discord" if host.endswith(("discord.com", "discordapp.com")) else \
            "slack" if host.endswith("hooks.slack.com") else "json"
    if fmt == "discord":
        return {"content": text[:2000], "allowed_mentions": {"parse": []}}
    if fmt == "slack":
        return {"text": text}
    return {**facts, "text": text}


def post_webhook(target: Target, body: dict[str, Any], key: str) -> None:
    """POST `body` to the checked address; `SendFailed` (permanent for a 4xx other than 408
    and 429: the hook is gone or refuses us). Redirects are not followed."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": key,
               "Host": target.host if target.port in (80, 443) else
               f"{target.host}:{target.port}", "User-Agent": "tavola-notices/1"}
    timeout = urllib3.Timeout(connect=WEBHOOK_SECONDS, read=WEBHOOK_SECONDS)
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(target.address, target.port, timeout=timeout,
                                           server_hostname=target.host,
                                           assert_hostname=target.host, retries=False,
                                           cert_reqs="CERT_REQUIRED")
    else:
        pool = urllib3.HTTPConnectionPool(target.address, target.port, timeout=timeout,
                                          retries=False)
    try:
        with pool:
            reply = pool.urlopen("POST", target.path, body=json.dumps(body).encode(),
                                 headers=headers, redirect=False, preload_content=False)
            reply.read(1024)
            reply.release_conn()
    except urllib3.exceptions.HTTPError as exc:
        raise SendFailed(f"the webhook could not be reached: {exc}") from None
    if 200 <= reply.status < 300:
        return
    permanent = 400 <= reply.status < 500 and reply.status not in (408, 429)
    raise SendFailed(f"the webhook answered {reply.status}", permanent=permanent)
