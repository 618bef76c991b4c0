"""The words of a notification, in its recipient's language: an e-mail's subject, plain text
and HTML, and a webhook's line. Every sentence comes from the text layer (`say`)."""

from __future__ import annotations

import html
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from ... import i18n
from ...text import say


def say_n(key: str, n: int, **fields: Any) -> str:
    """A message with a count: its `.one` form for 1, else `.many` (the catalogs translate
    each; English, German and Italian need no more forms)."""
    return say(f"{key}.{'one' if n == 1 else 'many'}", n=n, **fields)


@dataclass(frozen=True)
class Message:
    subject: str
    lines: list[str]  # the body's paragraphs, plain text
    link: str | None  # the one thing to open (the seat, a review, a confirmation)
    link_label: str

    def text(self) -> str:
        """One line for a chat webhook: what happened and the link."""
        return " ".join([*self.lines[:1], *([self.link] if self.link else [])])


def _others(facts: dict[str, Any]) -> str:
    seats = facts.get("seats") or []
    mine = facts.get("seat")
    names = [str(s.get("name") or "") for i, s in enumerate(seats) if i != mine]
    return ", ".join(n for n in names if n) or "-"


def _result(facts: dict[str, Any]) -> str:
    seats = facts.get("seats") or []
    winners = [str(seats[i].get("name")) for i in facts.get("winners") or []
               if isinstance(i, int) and 0 <= i < len(seats)]
    scores = ", ".join(f"{s.get('name')} {s.get('score')}" for s in seats
                       if s.get("score") is not None)
    if facts.get("seat") in (facts.get("winners") or []):
        head = say("notice.you-won")
    else:
        head = say("notice.winners", names=", ".join(winners) or "-")
    return f"{head} ({scores})" if scores else head


def compose(kind: str, facts: dict[str, Any], site_url: str, lang: str) -> Message:
    """The message of one event (`facts`: the event's data with its game's lobby line)."""
    with i18n.use(lang):
        return _compose(kind, facts, site_url.rstrip("/"))


def _compose(kind: str, f: dict[str, Any], site: str) -> Message:
    title, others = str(f.get("title") or ""), _others(f)
    seat_link = f"{site}{f['link']}" if f.get("link") else None
    play = say("notice.open-seat")
    if kind == "turn":
        return Message(say("notice.turn-subject", title=title),
                       [say("notice.turn", title=title, others=others)], seat_link, play)
    if kind == "clock":
        return Message(say("notice.clock-subject", title=title),
                       [say("notice.clock", title=title, others=others,
                            left=str(f.get("left") or ""))], seat_link, play)
    if kind == "choice":
        return Message(say("notice.choice-subject", title=title),
                       [say("notice.choice", title=title, name=str(f.get("name") or ""))],
                       seat_link, play)
    if kind == "nudge":
        return Message(say("notice.nudge-subject", title=title),
                       [say("notice.nudge", title=title, by=str(f.get("by") or ""),
                            others=others)], seat_link, play)
    if kind == "invite":
        return Message(say("notice.invite-subject", title=title, by=str(f.get("by") or "")),
                       [say("notice.invite", title=title, by=str(f.get("by") or ""))],
                       f"{site}{f.get('answer') or '/account'}", say("notice.open-invite"))
    if kind == "finished":
        review = f"{site}/game/{f['game_id']}/review?seat={f.get('seat', 0)}"
        return Message(say("notice.finished-subject", title=title),
                       [say("notice.finished", title=title, others=others),
                        _result(f)], review, say("notice.open-review"))
    if kind == "digest":
        games = f.get("games") or []
        lines = [say_n("notice.digest", len(games))]
        lines += [f"{g.get('title')} ({_others(g)}): {site}{g.get('link')}" for g in games]
        return Message(say_n("notice.digest-subject", len(games)), lines,
                       f"{site}/me", say("notice.open-games"))
    if kind == "verify":
        return Message(say("notice.verify-subject"),
                       [say("notice.verify", name=str(f.get("name") or ""))],
                       f"{site}/verify-email#{f.get('token')}", say("notice.open-verify"))
    if kind == "reset":
        return Message(say("notice.reset-subject"),
                       [say("notice.reset", name=str(f.get("name") or ""))],
                       f"{site}/reset-password#{f.get('token')}", say("notice.open-reset"))
    raise ValueError(f"no message for a notice of kind {kind!r}")


def email(message: Message, to: str, key: str, site_url: str, unsubscribe: str | None,
          lang: str) -> EmailMessage:
    """An e-mail with a plain-text and an HTML part; `unsubscribe` (a token) adds the
    one-click unsubscribe headers (RFC 8058) and a link that works without signing in."""
    site = site_url.rstrip("/")
    with i18n.use(lang):
        footer = [say("notice.footer", account=f"{site}/account")]
        stop = say("notice.unsubscribe") if unsubscribe else None
    out = EmailMessage()
    out["To"] = to
    out["Subject"] = message.subject
    host = site.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0] or "localhost"
    out["Message-ID"] = f"<{key.replace(':', '.')}@{host}>"  # the same on a retry
    out["Auto-Submitted"] = "auto-generated"
    unsub_url = f"{site}/unsubscribe/{unsubscribe}" if unsubscribe else None
    if unsub_url:
        out["List-Unsubscribe"] = f"<{unsub_url}>"
        out["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    paragraphs = [*message.lines]
    if message.link:
        paragraphs.append(f"{message.link_label}: {message.link}")
    small = [*footer, *([f"{stop}: {unsub_url}"] if unsub_url and stop else [])]
    out.set_content("\n\n".join(paragraphs) + "\n\n-- \n" + "\n".join(small) + "\n")
    out.add_alternative(_html(message, footer, stop, unsub_url, lang), subtype="html")
    return out


def _html(message: Message, footer: list[str], stop: str | None, unsub_url: str | None,
          lang: str) -> str:
    e = html.escape
    body = "".join(f"<p>{e(line)}</p>" for line in message.lines)
    if message.link:
        body += f'<p><a href="{e(message.link)}">{e(message.link_label)}</a></p>'
    small = "".join(f"<p>{e(line)}</p>" for line in footer)
    if unsub_url and stop:
        small += f'<p><a href="{e(unsub_url)}">{e(stop)}</a></p>'
    return (f'<!doctype html><html lang="{e(lang)}"><body>{body}'
            f'<hr><div style="font-size:smaller;color:#555">{small}</div></body></html>')
