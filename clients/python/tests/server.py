"""A real Snapgraph server for the tests: the built CLI (``packages/server/bin/snapgraph.js``) on a
free port, over a fresh SQLite file, or a fresh PostgreSQL database when
``SNAPGRAPH_TEST_BACKEND=postgres`` (the admin URL in ``SNAPGRAPH_TEST_POSTGRES_URL``, as the
server's own suite reads it)."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[3]
SERVER_DIR = REPO / "packages" / "server"
CLI = SERVER_DIR / "bin" / "snapgraph.js"
POSTGRES_ADMIN_URL = os.environ.get("SNAPGRAPH_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
# How long the server may take to answer /healthz after it is started (see start()).
START_TIMEOUT_S = 180


@dataclass
class Key:
    key: str
    brain_id: str
    account_id: str


@dataclass
class Server:
    url: str
    database_url: str
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    keys: dict[str, Key] = field(default_factory=dict)

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            ["node", str(CLI), *args], env=self.env, capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"snapgraph {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def make_key(self, plan: str) -> Key:
        made = json.loads(self.cli("keys", "create", "--plan", plan, "--json"))
        return Key(key=made["key"], brain_id=made["brain_id"], account_id=made["account_id"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres(sql: str, url: str = POSTGRES_ADMIN_URL) -> None:
    """Runs one statement with the ``pg`` package the server already depends on (no Python driver
    is needed, and none is installed)."""
    script = "const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1]});" \
        "c.connect().then(()=>c.query(process.argv[2])).then(()=>c.end(),e=>{console.error(e.message);process.exit(1)})"
    subprocess.run(["node", "-e", script, url, sql], cwd=SERVER_DIR, check=True, timeout=60)


def database(tmp: Path) -> tuple[str, str | None]:
    """The DATABASE_URL for this session, and the PostgreSQL database to drop afterwards. Without
    PostgreSQL the session's tests are skipped with a notice, except under CI=true."""
    if os.environ.get("SNAPGRAPH_TEST_BACKEND") != "postgres":
        return str(tmp / "snapgraph.db"), None
    name = f"sg_python_{secrets.token_hex(6)}"
    try:
        postgres(f'CREATE DATABASE "{name}"')
    except subprocess.CalledProcessError:
        if os.environ.get("CI") in ("true", "1"):
            raise
        pytest.skip(f"NOTICE: PostgreSQL does not answer at {POSTGRES_ADMIN_URL}: the PostgreSQL run is SKIPPED")
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0]
    return f"{base}/{name}", name


def start(tmp: Path) -> tuple[Server, str | None]:
    if not (SERVER_DIR / "dist").is_dir():
        raise RuntimeError("the server is not built: run `npm run build` at the repository root")
    database_url, dropped = database(tmp)
    port = free_port()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", str(tmp)),
        "DATABASE_URL": database_url,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "LOG_LEVEL": "warn",
    }
    server = Server(url=f"http://127.0.0.1:{port}", database_url=database_url, env=env)
    server.cli("migrate")
    server.keys = {"enterprise": server.make_key("enterprise")}
    log = open(tmp / "server.log", "wb")
    server.process = subprocess.Popen(["node", str(CLI), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    # A guard against a server that never starts, not a judgement of speed: on two cores busy
    # with CI's other suites (load 30 and more), starting Node and answering /healthz took over
    # a minute.
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server exited: {(tmp / 'server.log').read_text()}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200:
                return server, dropped
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    server.process.kill()
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT_S} s: {(tmp / 'server.log').read_text()}")


def stop(server: Server, dropped: str | None) -> None:
    if server.process is not None:
        server.process.terminate()
        try:
            server.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()
    if dropped is not None:
        postgres(f'DROP DATABASE IF EXISTS "{dropped}" WITH (FORCE)')
