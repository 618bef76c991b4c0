"""`tavola backup` and `tavola restore`, on SQLite and on PostgreSQL: a backup taken while a
server plays a game restores into a new database where the game goes on to its end; a restore
that would lose data, or that is given the wrong file, is refused and changes nothing."""

from __future__ import annotations

import os
import stat
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_web_restart import SEATS, comparable, play_until
from test_web_server import Client, create, token_of
from typer.testing import CliRunner
from web_server import launch

from tavola.cli import app
from tavola.games.gonzaga.record import verify_record
from tavola.web import backup as backups
from tavola.web.backup import BackupError, backup, restore
from tavola.web.loadbench import http_json
from tavola.web.storage import StoredGame, open_store

runner = CliRunner()


def new_database(db_url: str, request: pytest.FixtureRequest, tmp_path: Path,
                 name: str = "restored") -> str:
    """Another fresh database of the same kind as `db_url`."""
    if db_url.startswith("sqlite:///"):
        return f"sqlite:///{tmp_path / name}.db"
    return str(request.getfixturevalue("pg_cluster").new_database())


def said(result: object) -> str:
    """A command's output on one line (the console wraps long messages)."""
    return " ".join(result.output.split())  # type: ignore[attr-defined]


def with_game(url: str, game_id: str) -> None:
    store = open_store(url)
    try:
        store.create(StoredGame(game_id, time.time(), {"seats": []}, "playing",
                                tokens={0: f"token-{game_id}"}, spectator=f"watch-{game_id}"))
    finally:
        store.close()


def game_ids(url: str) -> list[str]:
    store = open_store(url)
    try:
        return store.game_ids()
    finally:
        store.close()


def test_a_backup_taken_while_serving_restores_and_the_game_finishes_there(
        db_url, request, tmp_path):
    srv = launch(db_url)
    try:
        game = create(srv, SEATS, seed=31, public=True)
        c = Client(f"{srv.ws}/ws/{game['id']}")
        c.send({"type": "hello", "token": token_of(game, 0)})
        c.expect("state")
        play_until(c, 0, lambda v: v["round"] == 3 and v["phase"] == "placing"
                   and v["legal"] is not None)
        before = comparable(c.fresh_state())
        # the server runs, the client stays connected: the backup is taken meanwhile
        made = runner.invoke(app, ["backup", "--db", db_url, str(tmp_path)])
        assert made.exit_code == 0, made.output
        c.close()
    finally:
        srv.stop()
    (file,) = [p for p in tmp_path.iterdir() if p.suffix in (".sqlite3", ".dump")]
    assert file.name in made.output and "bytes" in made.output
    assert backups.kind_of(file) == ("sqlite" if db_url.startswith("sqlite") else "postgresql")
    assert stat.S_IMODE(file.stat().st_mode) == 0o600  # password hashes: the owner's only

    target = new_database(db_url, request, tmp_path)
    done = runner.invoke(app, ["restore", "--db", target, str(file)])
    assert done.exit_code == 0, done.output
    assert "1 games" in done.output
    srv = launch(target)
    try:
        c = Client(f"{srv.ws}/ws/{game['id']}")
        c.send({"type": "hello", "token": token_of(game, 0)})
        assert c.expect("welcome")["seat"] == 0
        assert comparable(c.expect("state")) == before
        final = play_until(c, 0, lambda v: v["phase"] == "over")
        c.close()
        record = http_json(f"{srv.base}/api/games/{game['id']}/record")
        state = verify_record(record)
        assert [p.score for p in state.players] == [p["score"] for p in final["players"]]
    finally:
        srv.stop()


def test_a_restore_over_data_is_refused_unless_forced_which_replaces_it(
        db_url, request, tmp_path):
    with_game(db_url, "kept")
    file = backup(db_url, tmp_path / "site.bak").path
    target = new_database(db_url, request, tmp_path, "busy")
    with_game(target, "other")

    refused = runner.invoke(app, ["restore", "--db", target, str(file)])
    assert refused.exit_code == 1
    assert "already holds 1 game:" in said(refused) and "--force" in said(refused)
    assert game_ids(target) == ["other"]  # nothing changed

    forced = runner.invoke(app, ["restore", "--db", target, str(file), "--force"])
    assert forced.exit_code == 0, forced.output
    assert game_ids(target) == ["kept"]
    with_game(target, "after")  # the store writes as usual after the restore
    assert game_ids(target) == ["kept", "after"]


def test_a_database_a_server_opened_but_left_empty_takes_a_restore(db_url, request,
                                                                    tmp_path):
    with_game(db_url, "kept")
    file = backup(db_url, tmp_path / "site.bak").path
    target = new_database(db_url, request, tmp_path, "opened")
    open_store(target).close()  # the site's tables, no rows
    assert restore(target, file).games == 1
    assert game_ids(target) == ["kept"]


def test_the_wrong_file_or_a_missing_one_is_named_and_nothing_changes(db_url, tmp_path):
    with_game(db_url, "kept")
    sqlite = db_url.startswith("sqlite")
    other = tmp_path / "other-kind"
    if sqlite:
        other.write_bytes(b"PGDMP\x01\x0e\x00" + bytes(100))
    else:
        lite = f"sqlite:///{tmp_path / 'lite.db'}"
        open_store(lite).close()
        backup(lite, other)
    text = tmp_path / "notes.txt"
    text.write_text("not a backup\n")
    cases = {other: "a PostgreSQL dump" if sqlite else "an SQLite backup",
             text: "is not a backup", tmp_path / "missing.bak": "no backup file"}
    for file, words in cases.items():
        result = runner.invoke(app, ["restore", "--db", db_url, str(file), "--force"])
        assert result.exit_code == 1, result.output
        assert words in said(result), (file, result.output)
    assert game_ids(db_url) == ["kept"]


def test_a_backup_of_another_application_is_refused(tmp_path):
    import sqlite3

    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as con:
        con.execute("CREATE TABLE notes (x TEXT)")
    with pytest.raises(BackupError, match="holds no games table"):
        restore(f"sqlite:///{tmp_path / 'new.db'}", foreign)


def test_keep_leaves_the_newest_backups_of_this_database_only(db_url, tmp_path):
    with_game(db_url, "kept")
    folder = tmp_path / "backups"
    folder.mkdir()
    stranger = folder / "notes.txt"
    stranger.write_text("mine")
    t0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    made = [backup(db_url, folder, keep=3, now=t0 + timedelta(hours=h)).path
            for h in range(5)]
    name = made[0].name
    assert name.endswith("-20260102-030405." + ("sqlite3" if "sqlite" in db_url else "dump"))
    left = sorted(p for p in folder.iterdir() if p != stranger)
    assert left == made[2:]
    assert stranger.read_text() == "mine"
    result = runner.invoke(app, ["backup", "--db", db_url, str(folder), "--keep", "1"])
    assert result.exit_code == 0, result.output
    assert "removed" in result.output
    assert len([p for p in folder.iterdir() if p != stranger]) == 1


def test_keep_needs_a_directory(tmp_path):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    open_store(url).close()
    result = runner.invoke(app, ["backup", "--db", url, str(tmp_path / "one.bak"),
                                 "--keep", "2"])
    assert result.exit_code == 1 and "--keep N needs" in said(result)
    assert not (tmp_path / "one.bak").exists()


def test_a_missing_pg_program_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(backups, "PG_BINDIRS", str(tmp_path / "none" / "*" / "bin"))
    with pytest.raises(BackupError, match="pg_dump is not installed"):
        backup("postgresql://nobody@127.0.0.1:1/site", tmp_path)
    assert os.listdir(tmp_path) == []  # no partial file left


def test_the_password_reaches_pg_programs_by_the_environment_not_the_command_line():
    url, env = backups._libpq("postgresql://site:s%40cret@db.example:5433/games")
    assert url == "postgresql://site@db.example:5433/games"
    assert env["PGPASSWORD"] == "s@cret"


def test_the_backup_bench_restores_every_finished_game(db_url):
    from tavola.web.backupbench import run_backup_bench

    figures = run_backup_bench(games=2, db=db_url)
    assert figures["games"] == figures["finished games (restored)"] == 2
    assert figures["backup size (kB)"] > 0


def test_a_sqlite_backup_is_one_moment_of_a_database_being_written(tmp_path):
    """Moves stored while the backup runs, game after game: the copy is one moment of them
    (every log whole, the first games at most one move ahead), a sound database in one
    file."""
    import sqlite3

    url = f"sqlite:///{tmp_path / 'busy.db'}"
    for g in range(20):
        with_game(url, f"g{g}")
    store = open_store(url)
    stop, started = threading.Event(), threading.Event()

    def write() -> None:
        seq = 0
        while not stop.is_set():
            for g in range(20):
                store.append(f"g{g}", seq, {"move": seq})
            seq += 1
            started.set()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert started.wait(60)
        copies = [backup(url, tmp_path / f"copy{i}.sqlite3").path for i in range(5)]
    finally:
        stop.set()
        writer.join()
        store.close()
    for copy in copies:
        assert not Path(f"{copy}-wal").exists()
        with sqlite3.connect(copy) as con:
            assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)
            logs = [[s for (s,) in con.execute(
                "SELECT seq FROM actions WHERE game_id=? ORDER BY seq", (f"g{g}",))]
                for g in range(20)]
        assert all(seqs == list(range(len(seqs))) for seqs in logs)
        # the moves are written game after game: one moment sees the first games one ahead
        lengths = [len(seqs) for seqs in logs]
        assert lengths[-1] >= 1
        assert lengths == sorted(lengths, reverse=True) and lengths[0] - lengths[-1] <= 1


def test_a_backup_of_a_database_that_is_not_there_is_refused_and_writes_nothing(tmp_path):
    result = runner.invoke(app, ["backup", "--db", f"sqlite:///{tmp_path / 'none.db'}",
                                 str(tmp_path)])
    assert result.exit_code == 1 and "no SQLite database" in said(result)
    assert os.listdir(tmp_path) == []  # neither the database nor a backup file


def test_a_restore_into_a_postgresql_database_that_does_not_exist_says_to_create_it(
        pg_url, tmp_path):
    with_game(pg_url, "kept")
    file = backup(pg_url, tmp_path / "site.dump").path
    missing = pg_url.rsplit("/", 1)[0] + "/nowhere"
    result = runner.invoke(app, ["restore", "--db", missing, str(file)])
    assert result.exit_code == 1 and "createdb it first" in said(result)
