"""The one place HTTP happens: the key, JSON in and out, errors as SnapgraphError and 429 retries
(design §5.8), once for the sync client and once for the async one, around shared helpers."""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager, contextmanager
from typing import Any, AsyncIterator, Callable, Iterator, Mapping, TypeVar

import httpx

from .calls.base import Call
from .errors import APIConnectionError, SnapgraphError, error_from_response
from .retry import RetryPolicy, retry_after_seconds

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 60.0
USER_AGENT = "snapgraph-python"


def base_headers(api_key: str, headers: Mapping[str, str] | None) -> dict[str, str]:
    if not isinstance(api_key, str) or api_key == "":
        raise ValueError("api_key is required")
    return {"user-agent": USER_AGENT, **(headers or {}), "authorization": f"Bearer {api_key}"}


def request_args(base_url: str, headers: Mapping[str, str], call: Call[Any], accept: str) -> dict[str, Any]:
    """The arguments of ``build_request`` for a call (the same for sync and async). The address and
    headers go with each request, so that an ``http_client`` lent by the caller is left as it was."""
    headers = {**headers, "accept": accept}
    # The same key goes with every 429 retry of the call: the server checks it only for
    # admitted requests, so a retry is the first time it sees it.
    if call.idempotency_key is not None:
        headers["idempotency-key"] = call.idempotency_key
    if call.respond_async:
        headers["prefer"] = "respond-async"
    args: dict[str, Any] = {"method": call.method, "url": f"{base_url}{call.path}", "headers": headers}
    query = {name: _query_text(value) for name, value in call.query.items() if value is not None}
    if query:
        args["params"] = query
    if call.content is not None:
        headers["content-type"] = call.content_type or "application/octet-stream"
        args["content"] = call.content
    elif call.json is not None:
        headers["content-type"] = "application/json"
        args["content"] = json.dumps(call.json).encode()
    return args


def _query_text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def read_json(response: httpx.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text


def raise_for_answer(response: httpx.Response, retry_after: float | None) -> None:
    """Raises the SnapgraphError a non-2xx answer stands for (its body is read already)."""
    if response.is_success:
        return
    seconds = None if retry_after is None else int(-(-retry_after // 1))
    request_id = response.headers.get("x-request-id")
    raise error_from_response(response.status_code, read_json(response), request_id, seconds)


def connection_error(base_url: str, err: httpx.TransportError) -> APIConnectionError:
    return APIConnectionError(
        f"the service at {base_url} could not be reached or did not answer ({type(err).__name__}: {err})",
        status=0,
        code="NETWORK_ERROR",
    )


class SyncTransport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        retry: RetryPolicy,
        timeout: float,
        headers: Mapping[str, str] | None,
        http_client: httpx.Client | None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.retry = retry
        self.sleep = sleep
        self._own_client = http_client is None
        self.headers = base_headers(api_key, headers)
        self.http = http_client or httpx.Client(timeout=timeout)

    def run(self, call: Call[T]) -> T:
        response = self.send(call)
        return call.parse(read_json(response))

    def send(self, call: Call[Any], accept: str = "application/json", stream: bool = False) -> httpx.Response:
        """Sends the call, waits out 429s, raises any other error; a streamed answer is the caller's to close."""
        request = self.http.build_request(**request_args(self.base_url, self.headers, call, accept))
        for retry in range(self.retry.max_retries + 1):
            try:
                response = self.http.send(request, stream=stream)
            except httpx.TransportError as err:
                raise connection_error(self.base_url, err) from err
            wait = retry_after_seconds(response.headers.get("retry-after"))
            if response.status_code == 429 and retry < self.retry.max_retries:
                # A refused request consumed nothing (design §5.4): even a POST is safe to resend.
                response.close()
                self.sleep(self.retry.delay(retry, wait))
                continue
            if not response.is_success:
                response.read()
                raise_for_answer(response, wait)
            return response
        raise AssertionError("unreachable: the last attempt returns or raises")

    @contextmanager
    def stream(self, call: Call[Any], accept: str) -> Iterator[httpx.Response]:
        """An answer whose body is a file (an export), read as it arrives, closed at the end."""
        response = self.send(call, accept, stream=True)
        try:
            yield response
        finally:
            response.close()

    def close(self) -> None:
        if self._own_client:
            self.http.close()


class AsyncTransport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        retry: RetryPolicy,
        timeout: float,
        headers: Mapping[str, str] | None,
        http_client: httpx.AsyncClient | None,
        sleep: Callable[[float], Any] = asyncio.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.retry = retry
        self.sleep = sleep
        self._own_client = http_client is None
        self.headers = base_headers(api_key, headers)
        self.http = http_client or httpx.AsyncClient(timeout=timeout)

    async def run(self, call: Call[T]) -> T:
        response = await self.send(call)
        return call.parse(read_json(response))

    async def send(self, call: Call[Any], accept: str = "application/json", stream: bool = False) -> httpx.Response:
        request = self.http.build_request(**request_args(self.base_url, self.headers, call, accept))
        for retry in range(self.retry.max_retries + 1):
            try:
                response = await self.http.send(request, stream=stream)
            except httpx.TransportError as err:
                raise connection_error(self.base_url, err) from err
            wait = retry_after_seconds(response.headers.get("retry-after"))
            if response.status_code == 429 and retry < self.retry.max_retries:
                await response.aclose()
                await self.sleep(self.retry.delay(retry, wait))
                continue
            if not response.is_success:
                await response.aread()
                raise_for_answer(response, wait)
            return response
        raise AssertionError("unreachable: the last attempt returns or raises")

    @asynccontextmanager
    async def stream(self, call: Call[Any], accept: str) -> AsyncIterator[httpx.Response]:
        response = await self.send(call, accept, stream=True)
        try:
            yield response
        finally:
            await response.aclose()

    async def close(self) -> None:
        if self._own_client:
            await self.http.aclose()


__all__ = ["AsyncTransport", "SnapgraphError", "SyncTransport"]
