"""A throwaway PostgreSQL cluster for the tests: initdb and pg_ctl from Debian's `postgresql`
package, in a temporary folder, on a free loopback port, removed at the end.

PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user the package
creates (or `nobody`), in a folder that user owns.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SUPERUSER = "tavola"


def pg_bindir() -> Path | None:
    """Where initdb and pg_ctl are: on PATH, or Debian's versioned folder (newest first)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> str | None:
    """The user the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run PostgreSQL")


@dataclass
class Cluster:
    bindir: Path
    folder: Path
    port: int
    user: str | None
    _names: Iterator[int] = field(default_factory=itertools.count)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                        "immediate", "-w", "stop"], user=self.user, capture_output=True,
                       check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(bindir: Path, *, durable: bool = False) -> Cluster:
    """initdb + pg_ctl start, trust on loopback only; fsync off (a throwaway cluster) unless
    `durable` (PostgreSQL's defaults, to measure)."""
    user = _run_as()
    folder = Path(tempfile.mkdtemp(prefix="tavola-pg-"))
    if user is not None:
        info = pwd.getpwnam(user)
        os.chown(folder, info.pw_uid, info.pw_gid)
    cluster = Cluster(bindir, folder, _free_port(), user)
    data = folder / "data"
    try:
        subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER,
                        "--auth=trust", "-E", "UTF8", "--no-sync"], user=user,
                       capture_output=True, check=True, cwd=folder)
        options = f"-p {cluster.port} -k {folder} -c listen_addresses=127.0.0.1"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
                        "-o", options, "-w", "-t", "60", "start"], user=user,
                       capture_output=True, check=True, cwd=folder)
    except subprocess.CalledProcessError as exc:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        cluster.stop()
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr.decode()[-2000:]}"
                           f"{log[-2000:]}") from None
    _wait(cluster)
    return cluster


def _wait(cluster: Cluster) -> None:
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            psycopg.connect(cluster.url(), connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
