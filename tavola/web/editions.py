"""Editions on the web server: a player's own transcription of a game's components, saved,
checked, shared, and played on (see docs/editions.md).

The platform never reads inside an edition's data: the game's `EditionKind`
(`GameKit.editions`) checks it, describes it and turns it into the options of a new game. An
edition is hostile input: its request is size-limited (the game's `max_bytes` and the
platform's `MAX_EDITION_BYTES`), its nesting bounded, its name cleaned; an account keeps at
most `Limits.editions_per_account`, saves and checks are rate-limited. The data is only ever
JSON: nothing in it is run, fetched or written into a page as markup.

A game created on an edition stores `{id, version, hash, name}` in its parameters; its setup
holds what the game needs to replay (`Game.setup_of`), the edition's data included, but the
store keeps that data once, in the version: a stored setup names it by its content hash
(`tavola.editions.setup_stored`). On a restart the platform reads the version again, checks
its hash, puts the data back into the setup and gives the room the edition's options (for a
rematch).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from .. import i18n, registry
from ..editions import EditionKind, Finding, canonical, content_hash
from ..text import say
from . import pages
from .account_store import User
from .editions_store import Edition, EditionStore, NewVersion, Version
from .errors import ClientError
from .limits import MAX_BODY, RateLimiter, address_key, parse_json

if TYPE_CHECKING:
    from .accounts import Accounts
    from .app import GameServer

log = logging.getLogger("tavola.web.editions")
MAX_EDITION_BYTES = 2 * 1024 * 1024  # an edition's data, whatever its game allows
#: a request carrying an edition: its data, its name and a little JSON around them
MAX_EDITION_BODY = MAX_EDITION_BYTES + MAX_BODY
EDITION_DEPTH = 24  # nesting of an edition request's JSON (a board nests 5 deep)
NAME_LENGTH = 60  # characters of an edition's name
MAX_FINDINGS = 200  # findings sent back for one check: enough to work through
LISTED_PUBLIC = 100  # public editions a list offers per game, newest first
VISIBILITIES = ("private", "link", "public")
DEFAULT = "default"  # the id the shipped reconstruction goes by
API = "/api/editions"
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class Checked:
    """What the game's checks said of some data."""

    findings: list[Finding]
    describe: str  # in the language of the moment
    hash: str
    text: str  # the data as canonical JSON text
    described: str = ""  # as stored: the line in every offered language (`described`)

    @property
    def playable(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {"findings": [f.as_json() for f in self.findings[:MAX_FINDINGS]],
                "more_findings": max(0, len(self.findings) - MAX_FINDINGS),
                "describe": self.describe, "hash": self.hash, "playable": self.playable}


@dataclass(frozen=True)
class Chosen:
    """The edition a new game is played on: what its parameters store, and its options."""

    ref: dict[str, Any]  # id, version, hash, name
    options: dict[str, Any]
    data: Any  # the version's data, which a game's setup holds (and its stored setup names)


def kinds_of(games: list[str]) -> dict[str, EditionKind]:
    """The edition kinds of the games that declare one (`GameKit.editions`)."""
    found: dict[str, EditionKind] = {}
    for name in games:
        try:
            part = registry.kit(name).editions
        except ValueError:
            continue  # a game the registry does not know (one given to the server directly)
        if part is not None:
            found[name] = part.load()
    return found


def asked(data: Any) -> Any:
    """The edition a lobby request names; None for the default."""
    wanted = data.get("edition") if isinstance(data, dict) else None
    return None if wanted in (None, "", DEFAULT) else wanted


def clean_edition_name(value: Any) -> str:
    """An edition's name as typed: text, 1 to `NAME_LENGTH` characters, no control codes."""
    if not isinstance(value, str):
        raise ClientError("bad-edition", say("edition.name-type"))
    value = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(value) <= NAME_LENGTH:
        raise ClientError("bad-edition", say("edition.name-length", most=NAME_LENGTH))
    if _CONTROL.search(value):
        raise ClientError("bad-edition", say("edition.name-control"))
    return str(value)


def _visibility(value: Any) -> str:
    value = "private" if value is None else value
    if value not in VISIBILITIES:
        raise ClientError("bad-edition", say("edition.visibility"))
    return str(value)


class Editions:
    """The editions of one server: checks through the game's kind, storage, sharing."""

    def __init__(self, server: GameServer, store: EditionStore,
                 kinds: Mapping[str, EditionKind]) -> None:
        self.server = server
        self.store = store
        self.kinds = dict(kinds)
        lim = server.limits
        self.save_limit = RateLimiter(lim.edition_saves_per_hour / 3600, lim.edition_save_burst)
        self.check_limit = RateLimiter(lim.edition_checks_per_minute / 60,
                                       lim.edition_check_burst)
        self.most = int(lim.editions_per_account)  # `--limit` gives numbers as floats

    def kind(self, game: Any) -> EditionKind:
        kind = self.kinds.get(game) if isinstance(game, str) else None
        if kind is None:
            raise ClientError("no-editions", say("edition.no-game"))
        return kind

    # -- checks --------------------------------------------------------------------------

    def max_bytes(self, kind: EditionKind) -> int:
        return min(int(kind.max_bytes), MAX_EDITION_BYTES)

    def check(self, game: Any, data: Any) -> Checked:
        """The game's findings on `data`; `ClientError` if it is too large to look at."""
        kind = self.kind(game)
        try:
            text = canonical(data).decode("utf-8")
        except (ValueError, TypeError):  # NaN or Infinity: not JSON anywhere else
            raise ClientError("bad-json", say("edition.not-json")) from None
        size, most = len(text.encode("utf-8")), self.max_bytes(kind)
        if size > most:
            raise ClientError("too-large", say("edition.too-large", size=size, most=most))
        try:
            findings = list(kind.check(data))
        except Exception:  # a game's check must not fail on hostile data; if it does, say so
            log.exception("the %s edition check failed", game)
            findings = [Finding(say("edition.check-failed"))]
        if findings:
            return Checked(findings, "", content_hash(data), text)
        return Checked(findings, self._describe(kind, data), content_hash(data), text,
                       described(kind, data))

    @staticmethod
    def _describe(kind: EditionKind, data: Any) -> str:
        try:
            return str(kind.describe(data))[:200]
        except Exception:
            log.exception("describing an edition failed")
            return ""

    async def check_request(self, request: Request) -> dict[str, Any]:
        """POST /api/editions/check: anyone may check, limited per address."""
        self.check_limit.check(address_key(_client(request)), say("limit.edition-checks"))
        body = await _body(request)
        checked = await asyncio.to_thread(self.check, body.get("game"), body.get("data"))
        return checked.to_json()

    # -- reading -------------------------------------------------------------------------

    def default_json(self, game: Any) -> dict[str, Any]:
        kind = self.kind(game)
        data = kind.default()
        return {"id": DEFAULT, "game": game, "name": say("edition.default-name"),
                "version": 0, "author": None, "hash": content_hash(data),
                "visibility": "public", "playable": True, "playable_version": 0,
                "describe": self._describe(kind, data), "updated": None, "mine": False,
                "format": kind.format, "max_bytes": self.max_bytes(kind)}

    def listing(self, game: Any, user: User | None) -> dict[str, Any]:
        """The default, the account's own editions and the public ones of `game`."""
        self.kind(game)
        own = self.store.of_author(user.id, game) if user is not None else []
        public = [e for e in self.store.listed(game, LISTED_PUBLIC)
                  if user is None or e.author != user.id]
        return {"default": self.default_json(game),
                "editions": [self._line(e, user) for e in own + public]}

    @staticmethod
    def _line(e: Edition, user: User | None) -> dict[str, Any]:
        mine = user is not None and e.author == user.id
        return {"id": e.id, "game": e.game, "name": e.name, "version": e.latest,
                "author": e.author_name, "hash": e.hash, "visibility": e.visibility,
                "playable": e.latest_playable, "playable_version": e.playable,
                "describe": in_language(e.describe), "updated": e.updated, "mine": mine,
                **({"key": e.share_key} if mine else {})}

    def readable(self, edition_id: Any, user: User | None, key: Any = None) -> Edition:
        """An edition `user` may read: their own, a public one, a link one with its key.
        Anything else is "not found", whether it exists or not."""
        e = self.store.edition(edition_id) if isinstance(edition_id, str) \
            and _ID.fullmatch(edition_id) else None
        mine = e is not None and user is not None and e.author == user.id
        shared = e is not None and (e.visibility == "public" or (
            e.visibility == "link" and isinstance(key, str)
            and secrets.compare_digest(key.encode(), e.share_key.encode())))
        if e is None or e.deleted or not (mine or shared):
            raise ClientError("not-found", say("edition.not-found"))
        return e

    def get(self, edition_id: str, user: User | None, version: Any = None,
            key: Any = None) -> dict[str, Any]:
        """An edition with its data (the newest version, or `version`)."""
        e = self.readable(edition_id, user, key)
        v = self._version(e, version)
        return {**self._line(e, user), "version": v.version, "hash": v.hash,
                "playable": v.playable, "describe": in_language(v.describe),
                "data": json.loads(v.data)}

    def _version(self, e: Edition, version: Any) -> Version:
        number = e.latest if version in (None, "") else _whole(version)
        v = self.store.version(e.id, number) if number is not None else None
        if v is None:
            raise ClientError("not-found", say("edition.no-version"))
        return v

    def holding(self, game: str, data: Any, user: User) -> tuple[str, int] | None:
        """Which of the user's own editions `data` is, by name and version (the newest version
        with this very content); None when none holds it."""
        try:
            digest = content_hash(data)
        except (TypeError, ValueError):
            return None
        return self.store.holding(user.id, game, digest)

    # -- writing -------------------------------------------------------------------------

    async def save(self, user: User, body: dict[str, Any],
                   edition_id: str | None = None) -> dict[str, Any]:
        """A new edition, or a new version of the author's own; saved even with findings
        (a draft no game can be played on)."""
        name = clean_edition_name(body.get("name"))
        visibility = _visibility(body.get("visibility"))
        existing = None if edition_id is None else self._own(edition_id, user)
        game = body.get("game") if existing is None else existing.game
        self.kind(game)
        if existing is None and self.store.count(user.id) >= self.most:
            raise ClientError("too-many-editions", say("edition.too-many", most=self.most))
        self.save_limit.check(str(user.id), say("limit.edition-saves"))
        checked = await asyncio.to_thread(self.check, game, body.get("data"))
        new = NewVersion(checked.hash, checked.text, checked.playable, checked.described)
        if existing is None:
            edition_id = secrets.token_urlsafe(12)
            self.store.create(edition_id, str(game), name, user.id, visibility,
                              secrets.token_urlsafe(18), new)
            number = 1
        else:
            assert edition_id is not None
            number = self.store.add_version(edition_id, name, visibility, new)
        return {"id": edition_id, "name": name, "version": number, "hash": checked.hash,
                "playable": checked.playable, **checked.to_json()}

    def _own(self, edition_id: str, user: User) -> Edition:
        e = self.readable(edition_id, user)
        if e.author != user.id:
            raise ClientError("not-found", say("edition.not-found"))
        return e

    def delete(self, user: User, edition_id: str) -> None:
        self.store.delete(self._own(edition_id, user).id)

    # -- games on an edition -------------------------------------------------------------

    def choose(self, game: str, data: Any, account: int | None) -> Chosen | None:
        """The edition a lobby request asks a new game on (None: the default); an unknown,
        unreadable or unplayable one is refused."""
        wanted = asked(data)
        if wanted is None:
            return None
        if game not in self.kinds:
            raise ClientError("no-editions", say("edition.no-game"))
        user = None if account is None else User(account, "")
        e = self.readable(wanted, user, data.get("edition_key"))
        if e.game != game:
            raise ClientError("not-found", say("edition.not-found"))
        number = data.get("edition_version")
        if number in (None, ""):
            number = e.playable
            if number is None:
                raise ClientError("edition-unplayable", say("edition.unplayable", name=e.name))
        v = self._version(e, number)
        if not v.playable:
            raise ClientError("edition-unplayable", say("edition.unplayable", name=e.name))
        data = json.loads(v.data)
        return Chosen({"id": e.id, "version": v.version, "hash": v.hash, "name": e.name},
                      self.kinds[game].options(data), data)

    def lobby(self, game: str, edition_id: str, user: User | None, key: Any = None
              ) -> dict[str, Any]:
        """The game's lobby options on a readable, playable edition (Gonzaga: the scenarios of
        its board), so that the lobby offers only what a game on it accepts."""
        site = self.server.sites.get(game)
        chosen = self.choose(game, {"edition": edition_id, "edition_key": key},
                             None if user is None else user.id)
        if site is None or chosen is None:
            raise ClientError("no-editions", say("edition.no-game"))
        return {"options": site.lobby_json(chosen.options)["options"]}

    def used(self, chosen: Chosen) -> None:
        self.store.use(chosen.ref["id"], chosen.ref["version"])

    def data_of(self, game: str, ref: Mapping[str, Any]) -> Any:
        """The data of the very edition version a stored game was created on (its setup names
        the data by hash, `GameParams.to_json`); ValueError if that version is not on this
        server or its data changed."""
        v = self.store.version(str(ref.get("id")), int(ref.get("version", 0)))
        if game not in self.kinds or v is None:
            raise ValueError(f"the edition {ref.get('name')!r} (version {ref.get('version')}) "
                             "of this game is not on this server")
        if v.hash != ref.get("hash"):
            raise ValueError(f"the edition {ref.get('name')!r} changed since the game began")
        return json.loads(v.data)


def described(kind: EditionKind, data: Any) -> str:
    """An edition's line in every offered language, as stored with its version: each reader
    of a list reads it in their own language without the data being read again."""
    lines = {}
    for lang in i18n.LANGUAGES:
        with i18n.use(lang):
            lines[lang] = Editions._describe(kind, data)
    return json.dumps(lines, ensure_ascii=False)


def in_language(stored: str) -> str:
    """A stored line in the reader's language (English when it has none); a line stored before
    lines were kept in every language is shown as it was written."""
    try:
        lines = json.loads(stored) if stored.startswith("{") else None
    except ValueError:
        lines = None
    if not isinstance(lines, dict):
        return stored
    line = lines.get(i18n.current(), lines.get(i18n.DEFAULT, ""))
    return line if isinstance(line, str) else ""


def _whole(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 10:
        return int(value)
    return None


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


async def _body(request: Request) -> dict[str, Any]:
    data = parse_json(await request.body(), what="request body", limit=MAX_EDITION_BODY,
                      depth=EDITION_DEPTH)
    if not isinstance(data, dict):
        raise ClientError("bad-request", say("edition.body"))
    return data


def open_editions(server: GameServer, where: Any,
                  kinds: Mapping[str, EditionKind]) -> Editions:
    """The editions of `server`, in the database of the game store `where` (before the
    server resumes its games: a game on an edition needs it)."""
    editions = Editions(server, EditionStore(where), kinds)
    server.editions = editions
    return editions


def install(app: FastAPI, editions: Editions, accounts: Accounts) -> None:
    _routes(app, editions, accounts)
    _pages(app)


def _routes(app: FastAPI, editions: Editions, accounts: Accounts) -> None:

    def user_of(request: Request, *, changes: bool = True) -> User:
        session = accounts.signed_in(request, changes=changes)
        if session is None:
            raise ClientError("sign-in", say("edition.sign-in"))
        return session.user

    def reader(request: Request) -> User | None:
        accounts.reading(request)
        session = accounts.signed_in(request, changes=False)
        return None if session is None else session.user

    @app.get(API)
    async def listing(request: Request, game: str = "") -> dict[str, Any]:
        return editions.listing(game, reader(request))

    @app.get(API + "/default")
    async def default(request: Request, game: str = "", download: str = "") -> Response:
        accounts.reading(request)
        data = editions.kind(game).default()
        return _data_response(data, f"{game}-default.json" if download else None)

    @app.post(API + "/check")
    async def check(request: Request) -> dict[str, Any]:
        return await editions.check_request(request)

    @app.get(API + "/{edition_id}")
    async def one(edition_id: str, request: Request, version: str = "", key: str = "",
                  download: str = "") -> Response:
        found = editions.get(edition_id, reader(request), version or None, key or None)
        if download:
            return _data_response(found["data"], f"{found['game']}-edition-{edition_id}-"
                                                 f"{found['version']}.json")
        return Response(json.dumps(found, ensure_ascii=False), media_type="application/json")

    @app.get(API + "/{edition_id}/lobby")
    async def lobby(edition_id: str, request: Request, game: str = "", key: str = ""
                    ) -> dict[str, Any]:
        return editions.lobby(game, edition_id, reader(request), key or None)

    @app.post(API)
    async def create(request: Request) -> dict[str, Any]:
        user = user_of(request)
        return await editions.save(user, await _body(request))

    @app.put(API + "/{edition_id}")
    async def update(edition_id: str, request: Request) -> dict[str, Any]:
        user = user_of(request)
        return await editions.save(user, await _body(request), edition_id)

    @app.delete(API + "/{edition_id}")
    async def delete(edition_id: str, request: Request) -> dict[str, Any]:
        editions.delete(user_of(request), edition_id)
        return {"ok": True}


def _data_response(data: Any, filename: str | None) -> Response:
    """An edition's data as the documented JSON file (as an attachment when `filename`)."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    headers = {} if filename is None else {
        "Content-Disposition": f'attachment; filename="{filename}"'}
    return Response(text, media_type="application/json", headers=headers)


def _pages(app: FastAPI) -> None:
    @app.get("/editions")
    async def editions_page() -> HTMLResponse:
        return pages.ACCOUNT_PAGES["editions"].response()

    @app.get("/editions/edit")
    async def editor_page() -> HTMLResponse:
        return pages.ACCOUNT_PAGES["edition"].response()
