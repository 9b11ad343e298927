"""One real server per test session (see server.py); each test gets clients on its key."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Iterator

import pytest

from server import Key, Server, start, stop
from snapgraph import Snapgraph


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running, dropped = start(tmp_path_factory.mktemp("snapgraph-server"))
    try:
        yield running
    finally:
        stop(running, dropped)


@pytest.fixture(scope="session")
def key(server: Server) -> Key:
    """An enterprise key (6,000 requests a minute): the tests never meet a limit by accident."""
    return server.keys["enterprise"]


@pytest.fixture()
def free_key(server: Server) -> Key:
    """A Free key of a new account: its own rate-limit windows, untouched by other tests."""
    return server.make_key("free")


@pytest.fixture()
def client(server: Server, key: Key) -> Iterator[Snapgraph]:
    with Snapgraph(base_url=server.url, api_key=key.key) as made:
        yield made


@pytest.fixture()
def brain_id(client: Snapgraph) -> str:
    """A brain of its own for a test that counts or pages what it made."""
    return client.brains.create(name=f"test {secrets.token_hex(4)}").id


@pytest.fixture()
def repo() -> Path:
    return Path(__file__).resolve().parents[3]
