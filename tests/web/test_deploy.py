"""The shipped deployment files as their own tools read them: `nginx -t` on
deploy/nginx/tavola.conf, `systemd-analyze verify` on deploy/systemd/, and the units' `tavola`
command lines parsed by the command itself. Without nginx or systemd these tests skip locally
and fail in CI (CI=true), where .ci/run installs them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import typer.main
from nginx_site import NGINX, UNITS, certificate, main_conf, render, require

from tavola.cli import app as cli_app


def test_the_shipped_nginx_config_passes_nginx_t(tmp_path: Path) -> None:
    """The file as shipped (only its certificate paths pointing at a real certificate)."""
    nginx = require(NGINX, "nginx")
    _, chain, key = certificate(tmp_path)
    conf = main_conf(tmp_path, render(chain, key))
    done = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(tmp_path), "-e",
                           str(tmp_path / "error.log")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr


# -- the systemd units ----------------------------------------------------------------------------


def test_the_shipped_systemd_units_are_valid_for_systemd(tmp_path: Path) -> None:
    """`systemd-analyze verify` knows every setting (an unknown one is only a warning, which
    fails here), with the venv's command replaced by one that exists on this machine."""
    analyze = require(shutil.which("systemd-analyze"), "systemd (systemd-analyze)")
    names = []
    for unit in sorted(UNITS.iterdir()):
        text = unit.read_text(encoding="utf-8").replace("/opt/tavola/venv/bin/tavola",
                                                         shutil.which("true") or "/bin/true")
        name = unit.name.replace("@.", "@8001.")
        (tmp_path / name).write_text(text, encoding="utf-8")
        names.append(f"./{name}")
    assert "./tavola-web@8001.service" in names and "./tavola-backup.timer" in names
    done = subprocess.run([analyze, "verify", *names], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if "redis-server" not in line or "not executable" not in line]
    assert done.returncode == 0 and said == [], said


def _tavola_commands() -> list[tuple[str, list[str]]]:
    """Each unit's `tavola` command line, its settings filled in as docs/deploy.md has them."""
    values = {"%i": "8001", "${TAVOLA_DB}": "postgresql:///tavola?host=/run/postgresql",
              "${TAVOLA_REDIS}": "redis://127.0.0.1:6380/0",
              "${TAVOLA_SITE_URL}": "https://example.org", "$TAVOLA_OPTIONS": ""}
    found = []
    for unit in sorted(UNITS.glob("*.service")):
        for line in unit.read_text(encoding="utf-8").splitlines():
            if line.startswith("ExecStart=/opt/tavola/venv/bin/tavola "):
                words = line.split()[1:]
                found.append((unit.name, [w for w in (values.get(w, w) for w in words) if w]))
    return found


@pytest.mark.parametrize("unit", ["tavola-web@.service", "tavola-backup.service"])
def test_the_units_commands_are_the_clis_own(unit: str) -> None:
    """Every option a unit passes to `tavola` is one the command takes (parsed by it)."""
    command = typer.main.get_command(cli_app)
    [(name, words)] = [(n, w) for n, w in _tavola_commands() if n == unit]
    sub = command.commands.get(words[0])  # type: ignore[attr-defined]
    if sub is None and words[0] == "backup":
        pytest.skip("`tavola backup` is not in this tree yet")
    assert sub is not None, f"{name}: no command tavola {words[0]}"
    ctx = sub.make_context(words[0], words[1:])  # an unknown option raises here
    if words[0] == "serve":
        assert ctx.params["proxy"] == ["127.0.0.1"] and ctx.params["host"] == "127.0.0.1"
