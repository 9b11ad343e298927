"""Errors as SnapgraphError subclasses, and 429s waited out as design §5.8 says."""

from __future__ import annotations

import time

import httpx
import pytest

from server import Key, Server, free_port
from snapgraph import (
    APIConnectionError,
    AuthenticationError,
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    Snapgraph,
    SnapgraphError,
    ValidationError,
)
from snapgraph.retry import retry_after_seconds


def test_errors_carry_code_status_message_and_request_id(client: Snapgraph) -> None:
    with pytest.raises(ValidationError) as invalid:
        client.snapshots.create(name="", core="An empty name is refused.")
    error = invalid.value
    assert isinstance(error, SnapgraphError)
    assert (error.status, error.code) == (400, "BAD_REQUEST")
    assert error.request_id and error.request_id.startswith("req_")
    assert isinstance(error.details, dict) and error.details["field"] == "name"
    assert error.code in str(error) and error.request_id in str(error)

    with pytest.raises(NotFoundError) as missing:
        client.memories.get("mem_doesnotexist")
    assert missing.value.status == 404 and missing.value.request_id


def test_a_bad_key_is_an_authentication_error(server: Server) -> None:
    with Snapgraph(base_url=server.url, api_key="sg_not_a_real_key") as bad:
        with pytest.raises(AuthenticationError) as caught:
            bad.snapshots.search("anything")
    assert (caught.value.status, caught.value.code) == (401, "UNAUTHORIZED") and caught.value.request_id


def test_no_server_is_a_connection_error() -> None:
    with Snapgraph(base_url=f"http://127.0.0.1:{free_port()}", api_key="sg_x") as nowhere:
        with pytest.raises(APIConnectionError) as caught:
            nowhere.brains.list().first_page()
    assert (caught.value.status, caught.value.code) == (0, "NETWORK_ERROR")


def test_a_missing_key_is_refused_before_any_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SNAPGRAPH_API_KEY", raising=False)
    with pytest.raises(ValueError):
        Snapgraph(base_url="http://127.0.0.1:1")


def test_a_real_429_is_waited_out_with_retry_after(server: Server, free_key: Key) -> None:
    # A Free key's knowledge group admits 2 requests a second: the third in the same second is a
    # 429 with Retry-After, and the client waits that long and sends it again.
    with Snapgraph(base_url=server.url, api_key=free_key.key, max_retries=0) as impatient:
        with pytest.raises(RateLimitError) as caught:
            for _ in range(4):
                impatient.knowledge.search("anything")
    refused = caught.value
    assert (refused.status, refused.code) == (429, "RATE_LIMITED") and refused.request_id
    assert refused.retry_after is not None and refused.retry_after >= 1

    time.sleep(refused.retry_after)
    with Snapgraph(base_url=server.url, api_key=free_key.key) as patient:
        started = time.monotonic()
        answers = [patient.knowledge.search("anything") for _ in range(4)]
        waited = time.monotonic() - started
    assert all(a.count == 0 for a in answers)
    # The 2 s of answers could not have come without waiting at least one Retry-After (1 s).
    assert waited >= 0.9


def test_without_retry_after_the_waits_double_up_to_30_seconds() -> None:
    assert [RetryPolicy().delay(n, None) for n in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    assert RetryPolicy().delay(3, 7.0) == 7.0
    assert retry_after_seconds("5") == 5.0 and retry_after_seconds(None) is None
    assert retry_after_seconds("Thu, 01 Jan 2026 00:00:10 GMT", now=1767225600.0) == 10.0
    with pytest.raises(ValueError):
        RetryPolicy(max_retries=-1)


def test_the_client_follows_the_waits_and_stops_after_max_retries() -> None:
    # Timing logic only: a stand-in answer that never says Retry-After (the real server always does).
    sent: list[float] = []

    def always_limited(request: httpx.Request) -> httpx.Response:
        assert request.headers["authorization"] == "Bearer sg_x" and request.url.path == "/v1/snapshots/snap_x"
        sent.append(time.monotonic())
        body = {"error": {"code": "RATE_LIMITED", "message": "slow down"}, "request_id": "req_x"}
        return httpx.Response(429, json=body)

    policy = RetryPolicy(max_retries=3, initial_delay=0.05, max_delay=0.1)
    http = httpx.Client(transport=httpx.MockTransport(always_limited))
    with Snapgraph(base_url="http://snapgraph.test", api_key="sg_x", retry=policy, http_client=http) as limited:
        with pytest.raises(RateLimitError) as caught:
            limited.snapshots.get("snap_x")
    assert len(sent) == 4 and caught.value.request_id == "req_x"
    # A lent httpx client is left as it was (and open: it is the caller's to close).
    assert "authorization" not in http.headers and not http.is_closed
    gaps = [later - earlier for earlier, later in zip(sent, sent[1:])]
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1 and gaps[2] >= 0.1
