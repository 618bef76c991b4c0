"""Languages on the web: each request and connection speaks its player's language, and each page
gets its catalogs from the server.

The language is the `lang` cookie when the player chose one (the selector in every page's
header sets it, and localStorage keeps it for the next visit), else the browser's
Accept-Language. Pages load `/i18n.js?domains=…` before their scripts: the catalogs of the
page's domains in that language, so `t()` in common.js finds every sentence at once; the same
catalogs are served as JSON under `/api/i18n/{lang}/{domain}`, cached by browsers.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import i18n
from .errors import ClientError


def language_of(headers: Any, cookies: Any) -> str:
    """The language a client asks for: its chosen cookie, else its Accept-Language."""
    chosen = cookies.get(i18n.COOKIE) if cookies is not None else None
    if chosen and i18n.language(chosen) == chosen.strip().lower()[:2]:
        return i18n.language(chosen)
    return i18n.negotiate(headers.get("accept-language") if headers is not None else None)


class LanguageMiddleware:
    """Every HTTP request runs in its client's language (errors, lobby words, board names)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            from starlette.requests import HTTPConnection

            conn = HTTPConnection(scope)
            with i18n.use(language_of(conn.headers, conn.cookies)):
                await self.app(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _domains(value: str | None) -> list[str]:
    names = [d.strip() for d in (value or "tavola").split(",")[:8] if d.strip()]
    unknown = [d for d in names if d not in i18n.DOMAINS]
    if unknown:
        raise ClientError("bad-request", f"no message domain {unknown[0][:40]!r}; the domains "
                                         f"are {', '.join(i18n.DOMAINS)}")
    return names


def page_catalog(lang: str, domains: list[str]) -> dict[str, Any]:
    """What a page needs to speak `lang`: the language, the offered ones, the messages."""
    messages: dict[str, str] = {}
    for d in domains:
        messages.update(i18n.catalog(d, lang))
    return {"lang": lang, "languages": i18n.LANGUAGES, "cookie": i18n.COOKIE,
            "messages": messages}


def routes(app: FastAPI) -> None:
    """The catalogs: as a script for a page, as JSON for anyone."""
    app.add_middleware(LanguageMiddleware)

    @app.get("/i18n.js")
    async def page_script(request: Request, domains: str | None = None) -> Response:
        lang = i18n.current()
        body = "window.I18N = " + json.dumps(page_catalog(lang, _domains(domains)),
                                             ensure_ascii=False) + ";\n"
        etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:20] + '"'
        headers = {"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language", "ETag": etag}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)

    @app.get("/api/i18n/{lang}/{domain}")
    async def catalog_json(lang: str, domain: str) -> JSONResponse:
        if lang not in i18n.LANGUAGES:
            raise ClientError("not-found", f"no language {lang[:10]!r}; the languages are "
                                           f"{', '.join(i18n.LANGUAGES)}")
        _domains(domain)
        return JSONResponse({"lang": lang, "domain": domain,
                             "messages": i18n.catalog(domain, lang)},
                            headers={"Cache-Control": "public, max-age=3600"})
