"""Chat on the server alone: limits, storage, rate limits, spectators, what is sent."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tavola.web.app import GameServer, Limits
from tavola.web.chat import HISTORY, MAX_CHARS, MAX_LINES, Chat, ChatStore, clean_line
from tavola.web.errors import ClientError
from tavola.web.site import load_sites
from tavola.web.storage import open_store


class FakeConnection:
    """What the chat needs of a connection: its seat, whether it joined, its outbox."""

    def __init__(self, seat: int | None, joined: bool = True, address: str = "192.0.2.1"
                 ) -> None:
        self.seat = seat
        self.joined = joined
        self.address = address
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def make(db_url: str, **limits: Any) -> tuple[GameServer, Any]:
    """A server on the database (SQLite or PostgreSQL: the storing tests run on both)."""
    server = GameServer(open_store(db_url), load_sites(["signorie"]),
                        bot_processes=False, limits=Limits(**limits))
    room = server.create({"game": "signorie", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]})
    return server, room


def test_a_line_is_text_of_limited_length_without_control_codes():
    assert clean_line("  buongiorno  ") == "buongiorno"
    assert clean_line("<script>alert(1)</script>") == "<script>alert(1)</script>"  # kept as text
    assert clean_line("x" * MAX_CHARS) == "x" * MAX_CHARS
    for bad in ("", "   ", "x" * (MAX_CHARS + 1), "a\nb", "a\u202eb", None, 5, ["a"]):
        with pytest.raises(ClientError) as exc:
            clean_line(bad)
        assert exc.value.code == "bad-chat"


def test_a_players_line_is_stored_and_sent_to_everyone_who_joined(db_url):
    server, room = make(db_url)
    ann, bea, watcher, stranger = (FakeConnection(0), FakeConnection(1), FakeConnection(None),
                                   FakeConnection(None, joined=False))
    line = server.chat.post(ann, room, "<b>hi</b> & welcome", [ann, bea, watcher, stranger])
    assert line["name"] == "Ann" and line["seat"] == 0 and line["text"] == "<b>hi</b> & welcome"
    for conn in (ann, bea, watcher):
        assert conn.sent == [{"type": "chat", "lines": [line]}]
    assert stranger.sent == []
    # stored with the game: a later connection gets the history
    history = json.loads(server.chat.history(room))
    assert history["history"] is True and history["lines"] == [line]
    assert ChatStore(open_store(db_url)).recent(room.id) == [line]


def test_spectators_read_but_may_not_write(db_url):
    server, room = make(db_url)
    watcher = FakeConnection(None)
    with pytest.raises(ClientError) as exc:
        server.chat.post(watcher, room, "hello", [watcher])
    assert exc.value.code == "spectator" and watcher.sent == []
    assert server.chat.history(room) is None  # nothing was stored


def test_a_refused_line_changes_nothing(db_url):
    server, room = make(db_url)
    ann = FakeConnection(0)
    with pytest.raises(ClientError):
        server.chat.post(ann, room, "x" * (MAX_CHARS + 1), [ann])
    assert ann.sent == [] and server.chat.history(room) is None


def test_each_seat_is_rate_limited_however_often_it_reconnects(db_url):
    """The limit is the seat's: a new connection (a reconnect, a second tab, from elsewhere)
    does not reset it; the other seat, and the same seat of another game, have their own."""
    server, room = make(db_url, chat_per_second=0.001, chat_burst=3, address_chat_per_second=0)
    anns = [FakeConnection(0) for _ in range(3)] + [FakeConnection(0, address="198.51.100.7")]
    for i, ann in enumerate(anns[:3]):
        server.chat.post(ann, room, f"line {i}", [])  # a new connection each time
    for ann in anns[2:]:
        with pytest.raises(ClientError) as exc:
            server.chat.post(ann, room, "one too many", [])
        assert exc.value.code == "rate-limited"
    server.chat.post(FakeConnection(1), room, "my own allowance", [])  # the other seat may
    assert [x["text"] for x in json.loads(server.chat.history(room))["lines"]] == \
        ["line 0", "line 1", "line 2", "my own allowance"]
    other_game = server.create({"game": "signorie", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]})
    server.chat.post(anns[0], other_game, "seat 0 of another game", [])


def test_each_address_is_rate_limited_whatever_its_seats(db_url):
    server, room = make(db_url, chat_per_second=0, address_chat_per_second=0.001,
                        address_chat_burst=4)
    for i in range(4):
        server.chat.post(FakeConnection(i % 2), room, f"line {i}", [])
    with pytest.raises(ClientError) as exc:
        server.chat.post(FakeConnection(1), room, "one too many", [])
    assert exc.value.code == "rate-limited"
    server.chat.post(FakeConnection(1, address="198.51.100.7"), room, "another address", [])


def test_the_history_is_the_last_lines_and_a_full_chat_refuses_more(db_url):
    chat = Chat(open_store(db_url), lambda: 5.0, rate=0, burst=1)
    for i in range(MAX_LINES):
        chat.store.add("g", i % 2, "Ann", f"{i}", float(i), share=MAX_LINES // 2)
    recent = chat.store.recent("g")
    assert len(recent) == HISTORY and recent[-1]["text"] == str(MAX_LINES - 1)
    assert [r["n"] for r in recent] == list(range(MAX_LINES - HISTORY, MAX_LINES))
    with pytest.raises(ClientError) as exc:
        chat.store.add("g", 0, "Ann", "more", 9.0)
    assert exc.value.code == "chat-full"
    assert chat.store.recent("other") == []


def test_a_seat_that_wrote_its_share_does_not_stop_the_other_seat(db_url):
    """Each of a game's seats may write its share of the game's lines (here two seats: half
    each); one seat filling its share, from as many connections as it likes, leaves the other
    seat free to write."""
    server, room = make(db_url, chat_per_second=0, address_chat_per_second=0)
    share = MAX_LINES // 2
    for i in range(share):
        server.chat.store.add(room.id, 0, "Ann", f"{i}", float(i), share=share)
    with pytest.raises(ClientError) as exc:
        server.chat.post(FakeConnection(0), room, "one more", [])
    assert exc.value.code == "chat-full" and str(share) in exc.value.message
    line = server.chat.post(FakeConnection(1), room, "my turn", [])
    assert line["n"] == share and line["seat"] == 1

