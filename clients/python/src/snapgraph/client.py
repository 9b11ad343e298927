"""``Snapgraph`` and ``AsyncSnapgraph``: one object per service and key, holding every resource."""

from __future__ import annotations

import os
from types import TracebackType
from typing import Mapping

import httpx

from . import resources as sync
from . import resources_async as aio
from .retry import RetryPolicy
from .transport import DEFAULT_BASE_URL, DEFAULT_TIMEOUT, AsyncTransport, SyncTransport


def _settings(base_url: str | None, api_key: str | None) -> tuple[str, str]:
    """The address and key given, else ``SNAPGRAPH_URL`` and ``SNAPGRAPH_API_KEY`` (the names the
    MCP server reads), else the default address; a missing key is refused here, not at the first call."""
    key = api_key if api_key is not None else os.environ.get("SNAPGRAPH_API_KEY", "")
    if not key:
        raise ValueError("api_key is required (or set SNAPGRAPH_API_KEY)")
    return base_url or os.environ.get("SNAPGRAPH_URL") or DEFAULT_BASE_URL, key


class Snapgraph:
    """The sync client. ``max_retries`` bounds the 429 retries of one call (design §5.8: wait
    Retry-After, else 1 s, 2 s, 4 s … 30 s); ``http_client`` lends your own ``httpx.Client``."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 5,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        url, key = _settings(base_url, api_key)
        policy = retry or RetryPolicy(max_retries=max_retries)
        self._transport = SyncTransport(
            url, key, retry=policy, timeout=timeout, headers=headers, http_client=http_client
        )
        self.base_url = self._transport.base_url
        self.snapshots = sync.Snapshots(self._transport)
        self.edges = sync.Edges(self._transport)
        self.brains = sync.Brains(self._transport)
        self.memories = sync.Memories(self._transport)
        self.crystallize = sync.Crystallize(self._transport)
        self.captures = sync.Captures(self._transport)
        self.knowledge = sync.Knowledge(self._transport)
        self.ingest = sync.Ingest(self._transport)
        self.jobs = sync.Jobs(self._transport)

    def close(self) -> None:
        """Closes the connections (not those of an ``http_client`` you passed in)."""
        self._transport.close()

    def __enter__(self) -> Snapgraph:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class AsyncSnapgraph:
    """The async client: the same resources as ``Snapgraph``, each method awaited, each list
    walked with ``async for``."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 5,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        url, key = _settings(base_url, api_key)
        policy = retry or RetryPolicy(max_retries=max_retries)
        self._transport = AsyncTransport(
            url, key, retry=policy, timeout=timeout, headers=headers, http_client=http_client
        )
        self.base_url = self._transport.base_url
        self.snapshots = aio.Snapshots(self._transport)
        self.edges = aio.Edges(self._transport)
        self.brains = aio.Brains(self._transport)
        self.memories = aio.Memories(self._transport)
        self.crystallize = aio.Crystallize(self._transport)
        self.captures = aio.Captures(self._transport)
        self.knowledge = aio.Knowledge(self._transport)
        self.ingest = aio.Ingest(self._transport)
        self.jobs = aio.Jobs(self._transport)

    async def close(self) -> None:
        await self._transport.close()

    async def __aenter__(self) -> AsyncSnapgraph:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()
