"""Notifications on the server, delivered to real receivers on loopback: an SMTP server the test
reads messages from, and an HTTP server that receives webhooks. The clock is the test's."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from mail_and_hooks import Hooks, Mailbox, html_of, text_of

from tavola.web.account_store import open_account_store
from tavola.web.app import GameServer, Limits
from tavola.web.notices import Config, Notifier
from tavola.web.notices.channels import Refused, Relay, check_webhook
from tavola.web.notices.sender import next_digest
from tavola.web.site import load_sites
from tavola.web.storage import SeqConflict, open_store

HOUR = 3600
SITE = "https://tavola.example"


class Clock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def mailbox():
    with Mailbox() as box:
        yield box


@pytest.fixture
def hooks():
    with Hooks() as receiver:
        yield receiver


class Table:
    """A server with notifications, two accounts (Ann, Bea) and a turn-based Signorie game
    between them."""

    def __init__(self, db_url: str, clock: Clock, mailbox: Mailbox | None = None) -> None:
        self.clock = clock
        self.server = GameServer(open_store(db_url), load_sites(["signorie"]),
                                 bot_processes=False, clock=clock, bot_delay=0,
                                 limits=Limits(undo_wait=0))
        relay = Relay.parse(mailbox.url, "games@tavola.example") if mailbox else None
        self.config = Config(site_url=SITE, relay=relay, loopback_webhooks=True,
                             titles={"signorie": "Signorie"})
        self.notifier = Notifier(self.server, self.config)
        self.server.notifier = self.notifier
        self.accounts = open_account_store(self.server.store)
        self.users = [self.accounts.add_user(n, n.lower(), "x") for n in ("Ann", "Bea")]
        self.room = self.server.create({"game": "signorie", "seats": [
            {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}],
            "timing": {"move_seconds": HOUR, "misses": 3}})
        for seat, user in enumerate(self.users):
            assert user is not None and self.accounts.hold(self.room.id, seat, user.id)

    def user_of(self, seat: int) -> int:
        user = self.users[seat]
        assert user is not None
        return user.id

    def choose(self, seat: int, **choices: Any) -> None:
        s = self.notifier.store.settings_or_default(self.user_of(seat), "en")
        for name, value in choices.items():
            setattr(s, name, value)
        self.notifier.store.save(s)

    def outbox(self) -> list[tuple[Any, ...]]:
        return self.notifier.store.db.rows(
            "SELECT kind, seat, state FROM outbox WHERE game_id=? ORDER BY created, key",
            (self.room.id,))

    async def play_turn(self) -> int:
        """The seat to move plays until the other is asked; returns who played."""
        mover = self.room.state.to_move()[0]
        while not self.room.state.is_over and list(self.room.state.to_move()) == [mover]:
            option = self.room.message_for(mover)["legal"]["options"][0]["action"]
            await self.server.act(self.room, mover, option, self.room.seq)
        return mover

    def send(self) -> None:
        while self.notifier.sender.step(self.clock()):
            pass


def test_a_move_writes_the_next_seats_turn_with_it_and_a_refused_move_writes_none(db_url):
    table = Table(db_url, Clock())

    async def main() -> None:
        first = table.room.state.to_move()[0]
        assert table.outbox() == []  # the first seat was asked at creation: at the table
        mover = await table.play_turn()
        assert mover == first
        other = 1 - first
        assert ("turn", other, "new") in table.outbox()
        # a move stored by nobody (out of sequence) leaves no notice behind
        before = table.outbox()
        with pytest.raises(SeqConflict):
            table.server.store.append(table.room.id, table.room.seq + 5, {"x": 1},
                                      notices=table.room.outbox_notices(table.room.state, 99))
        assert table.outbox() == before
        # the asked seat moves: its pending turn is settled, the first seat is asked anew
        await table.play_turn()
        states = {(k, s): st for k, s, st in table.outbox()}
        assert states[("turn", other)] == "settled"
        assert states[("turn", first)] == "new"

    asyncio.run(main())


def test_a_players_turn_reaches_a_real_smtp_server_and_webhook_once(db_url, mailbox, hooks):
    table = Table(db_url, Clock(), mailbox)

    async def main() -> None:
        first = table.room.state.to_move()[0]
        other = 1 - first
        table.choose(other, email="bea@example.org", email_verified=True, lang="de",
                     webhook=hooks.url(), webhook_format="json")
        await table.play_turn()
        table.send()
        table.send()  # a second pass sends nothing again
        [mail] = mailbox.wait_for(1)
        [call] = hooks.wait_for(1)
        assert mailbox.recipients == [["bea@example.org"]]
        assert mail["Subject"] == "Signorie: Du bist am Zug"
        seat_link = f"{SITE}/game/{table.room.id}#{table.room.tokens[other]}"
        assert seat_link in text_of(mail) and seat_link in html_of(mail)
        assert f"mit {('Ann', 'Bea')[first]}." in text_of(mail)  # who the game is with
        unsubscribe = str(mail["List-Unsubscribe"]).strip()
        assert unsubscribe.startswith(f"<{SITE}/unsubscribe/")
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert call["body"]["event"] == "turn" and call["body"]["url"] == seat_link
        assert call["headers"]["Idempotency-Key"] == call["body"]["key"]
        assert "bea@example.org" not in json.dumps(call["body"])
        await asyncio.sleep(0.2)
        assert len(mailbox.messages) == 1 and len(hooks.calls) == 1

    asyncio.run(main())


def test_an_unverified_address_or_an_unwanted_event_gets_nothing(db_url, mailbox):
    table = Table(db_url, Clock(), mailbox)

    async def main() -> None:
        other = 1 - table.room.state.to_move()[0]
        table.choose(other, email="bea@example.org", email_verified=False)
        await table.play_turn()
        table.send()
        table.choose(1 - other, email="ann@example.org", email_verified=True,
                     events=["finished"])
        await table.play_turn()
        table.send()
        assert mailbox.messages == []
        assert {st for _, _, st in table.outbox()} <= {"done", "settled"}

    asyncio.run(main())


def test_a_turn_wanted_after_minutes_away_is_dropped_when_the_player_moves_first(db_url,
                                                                                 hooks):
    clock = Clock()
    table = Table(db_url, clock)

    async def main() -> None:
        first = table.room.state.to_move()[0]
        other = 1 - first
        table.choose(other, webhook=hooks.url(), turn_mode="after", turn_after=30)
        await table.play_turn()
        clock.now += 29 * 60
        table.send()
        assert hooks.calls == []  # not yet
        await table.play_turn()  # Bea came back and moved: nothing to tell her
        clock.now += 60 * 60
        table.send()
        assert hooks.calls == []
        # next time she stays away: told after 30 minutes, not before
        await table.play_turn()
        table.send()
        assert hooks.calls == []
        clock.now += 10 * 60
        table.notifier.at_table(table.user_of(other), table.room.id)  # she looks in
        clock.now += 25 * 60
        table.send()
        assert hooks.calls == []  # 30 minutes from her visit, not from the move
        clock.now += 6 * 60
        table.send()
        assert len(hooks.wait_for(1)) == 1

    asyncio.run(main())


def test_a_daily_digest_gathers_every_waiting_game_in_one_message(db_url, mailbox):
    clock = Clock()
    table = Table(db_url, clock, mailbox)

    async def main() -> None:
        first = table.room.state.to_move()[0]
        other = 1 - first
        table.choose(other, email="bea@example.org", email_verified=True, turn_mode="digest",
                     digest_hour=18)
        await table.play_turn()
        table.send()
        assert mailbox.messages == []
        clock.now = next_digest(clock.now, 18) + 1
        table.send()
        [mail] = mailbox.wait_for(1)
        assert mail["Subject"] == "1 game waits for your move"
        assert f"/game/{table.room.id}#" in text_of(mail)

    asyncio.run(main())


def test_a_failing_webhook_is_tried_again_later_and_delivered_once(db_url, hooks):
    clock = Clock()
    table = Table(db_url, clock)
    hooks.answer = lambda n: 503 if n < 2 else 200

    async def main() -> None:
        other = 1 - table.room.state.to_move()[0]
        table.choose(other, webhook=hooks.url())
        await table.play_turn()
        table.send()
        assert [c["status"] for c in hooks.calls] == [503]
        table.send()
        assert len(hooks.calls) == 1  # backing off: not before 30 s
        clock.now += 31
        table.send()
        assert [c["status"] for c in hooks.calls] == [503, 503]
        clock.now += 61
        table.send()
        assert [c["status"] for c in hooks.calls] == [503, 503, 200]
        keys = {c["headers"]["Idempotency-Key"] for c in hooks.calls}
        assert len(keys) == 1  # the same event each time
        clock.now += 3600
        table.send()
        assert len(hooks.calls) == 3

    asyncio.run(main())


def test_the_metrics_count_deliveries_queued_sent_and_failed_by_channel(db_url, hooks):
    from prometheus_client import REGISTRY

    def count(state: str) -> float:
        return REGISTRY.get_sample_value("tavola_notices_total",
                                         {"state": state, "channel": "webhook"}) or 0.0
    table = Table(db_url, Clock())
    hooks.answer = lambda n: 200 if n < 1 else 410  # the second one refused for good
    before = {state: count(state) for state in ("queued", "sent", "failed")}

    async def main() -> None:
        for seat in (0, 1):
            table.choose(seat, webhook=hooks.url())
        await table.play_turn()
        table.send()
        await table.play_turn()
        table.send()

    asyncio.run(main())
    assert [c["status"] for c in hooks.calls] == [200, 410]
    assert {state: count(state) - was for state, was in before.items()} == {
        "queued": 2, "sent": 1, "failed": 1}


def test_a_sender_that_dies_mid_delivery_leaves_it_to_another_after_its_lease(db_url, hooks):
    clock = Clock()
    table = Table(db_url, clock)

    async def main() -> None:
        other = 1 - table.room.state.to_move()[0]
        table.choose(other, webhook=hooks.url())
        await table.play_turn()
        sender = table.notifier.sender
        assert sender.expand(clock()) == 1
        # the process dies here, holding the delivery's lease: claim it and never send
        with table.notifier.store.tx() as db:
            db.execute("UPDATE deliveries SET lease=?", (clock() + 120,))
        assert sender.deliver(clock()) == 0  # nobody else takes it while the lease holds
        clock.now += 121
        assert sender.deliver(clock()) == 1
        assert len(hooks.wait_for(1)) == 1

    asyncio.run(main())


def test_a_clock_under_a_tenth_of_its_time_is_told_once(db_url, hooks):
    clock = Clock()
    table = Table(db_url, clock)

    async def main() -> None:
        mover = table.room.state.to_move()[0]
        table.choose(mover, webhook=hooks.url(), webhook_format="slack", events=["clock"])
        clock.now += 0.89 * HOUR
        table.server.turns.check()
        table.send()
        assert hooks.calls == []
        clock.now += 0.02 * HOUR
        table.server.turns.check()
        table.server.turns.check()
        table.send()
        [call] = hooks.wait_for(1)
        assert "5 minutes" in call["body"]["text"]  # 0.09 h left, in words
        assert set(call["body"]) == {"text"}  # Slack's own form

    asyncio.run(main())


@pytest.mark.parametrize("url", [
    "http://93.184.216.34/hook",  # http to anywhere but loopback
    "https://127.0.0.1/hook",  # loopback, where it is not allowed
    "https://10.1.2.3/hook", "https://192.168.0.10/x", "https://169.254.169.254/latest",
    "https://[::1]/x", "https://[fd00::1]/x", "https://[::ffff:10.0.0.1]/x",
    "https://user:secret@93.184.216.34/x", "ftp://93.184.216.34/x", "https:///nohost",
    "https://93.184.216.34:99999/x", "https://host name/x", "x" * 600,
])
def test_a_webhook_to_a_private_address_or_of_a_bad_form_is_refused(url):
    with pytest.raises(Refused):
        check_webhook(url, loopback=False)


def test_a_webhook_to_a_public_address_passes_the_check():
    target = check_webhook("https://93.184.216.34:8443/api/hook?x=1")
    assert (target.host, target.port, target.address, target.path) == \
        ("93.184.216.34", 8443, "93.184.216.34", "/api/hook?x=1")


def test_an_invitation_tells_the_invited_player_who_asks_and_where_to_answer(db_url, mailbox):
    table = Table(db_url, Clock(), mailbox)
    table.choose(1, email="bea@example.org", email_verified=True, lang="it")
    # what the friends' code calls when an invitation is stored
    table.server.accounts = type("Accounts", (), {"store": table.accounts})()
    table.server.invited(table.user_of(1), table.room.id, 1, table.user_of(0))
    table.server.invited(table.user_of(1), table.room.id, 1, table.user_of(0))  # once
    table.send()
    [mail] = mailbox.wait_for(1)
    assert mail["Subject"] == "Ann ti invita a giocare a Signorie"
    assert f"{SITE}/friends" in text_of(mail)
    assert len(mailbox.messages) == 1


def test_the_players_asked_what_becomes_of_a_leavers_seat_are_told(db_url, mailbox):
    table = Table(db_url, Clock(), mailbox)
    table.choose(1, email="bea@example.org", email_verified=True, events=["turn"])
    table.server.leavers.told(table.room, 0, [1])  # what the clocks call
    table.send()
    [mail] = mailbox.wait_for(1)
    assert mail["Subject"] == "Signorie: a player ran out of time; your choice"
    assert "Ann ran out of time for good" in text_of(mail)
    assert f"/game/{table.room.id}#{table.room.tokens[1]}" in text_of(mail)
