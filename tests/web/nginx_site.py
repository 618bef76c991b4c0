"""Debian's nginx for the deployment tests: the shipped `deploy/nginx/tavola.conf` rendered
with only its ports, certificate paths and server name changed, a main nginx.conf of the test's
own (no root needed), and a throwaway certificate authority (trustme)."""

from __future__ import annotations

import os
import re
import shutil
import socket
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "nginx" / "tavola.conf"
UNITS = ROOT / "deploy" / "systemd"
NGINX = "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else shutil.which("nginx")


def require(tool: str | None, what: str) -> str:
    """The tool's path; without it the test skips, and fails in CI (.ci/run installs it)."""
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} is not installed; .ci/run installs it", pytrace=False)
        pytest.skip(f"{what} is not installed: deployment tests skipped")
    return tool


def render(cert: Path, key: Path, ports: dict[int, int] | None = None,
           name: str | None = None) -> str:
    """The shipped configuration with its certificate paths and, if given, its ports (shipped
    port: test port) and server name replaced; each must be found, so a changed file fails
    here rather than testing something else. Without IPv6 on this machine its listen lines go."""
    text = SHIPPED.read_text(encoding="utf-8")
    swaps = [("/etc/letsencrypt/live/example.org/fullchain.pem", str(cert)),
             ("/etc/letsencrypt/live/example.org/privkey.pem", str(key))]
    if name:
        swaps.append(("server_name example.org;", f"server_name {name};"))
    for old, new in swaps:
        assert old in text, f"{SHIPPED.name} no longer has {old!r}"
        text = text.replace(old, new)
    for shipped, port in (ports or {}).items():
        pattern = (rf"(listen (?:\[::\]:)?){shipped}\b" if shipped in (80, 443)
                   else rf"(server 127\.0\.0\.1:){shipped}\b")
        text, count = re.subn(pattern, rf"\g<1>{port}", text)
        assert count, f"{SHIPPED.name} no longer has port {shipped}"
    if not _has_ipv6():
        text = re.sub(r"^\s*listen \[::\].*\n", "", text, flags=re.M)
    return text


def _has_ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


def main_conf(folder: Path, site: str) -> Path:
    """A main nginx.conf of our own (no root needed): pid, logs and temporary files in
    `folder`, and the site included as Debian includes sites-enabled/."""
    (folder / "tavola.conf").write_text(site, encoding="utf-8")
    temps = "\n".join(f"    {kind}_temp_path {folder / kind};"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = folder / "nginx.conf"
    conf.write_text(f"""pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'};
worker_processes 1;
events {{ worker_connections 512; }}
http {{
    access_log {folder / 'access.log'};
{temps}
    include {folder / 'tavola.conf'};
}}
""", encoding="utf-8")
    return conf


def certificate(folder: Path) -> tuple[Any, Path, Path]:
    """A throwaway CA and its certificate for 127.0.0.1 and localhost (trustme)."""
    import trustme

    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    chain, key = folder / "fullchain.pem", folder / "privkey.pem"
    cert.private_key_pem.write_to_path(str(key))
    chain.write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    return ca, chain, key
