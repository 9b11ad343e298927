"""Free text in, snapshots out: ``/v1/crystallize`` (design §11), its captures, and ``/v1/ingest`` (§13.3)."""

from __future__ import annotations

from typing import Literal

from ..models.crystallize import Capture, CrystallizeResult, CrystallizeRun
from ..models.knowledge import IngestResult
from ..models.pages import Page
from ..models.snapshots import Snapshot
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path

IngestSourceType = Literal["manual", "document", "article", "url"]


def crystallize(
    text: str,
    *,
    brain_id: str | None = None,
    source_type: str | None = None,
    review: bool | None = None,
    agent_id: str | None = None,
    session_id: str | None = None,
    auto_link: bool | None = None,
    idempotency_key: str | None = None,
) -> Call[CrystallizeResult]:
    """Extracts, merges and stores the insights of ``text`` (50 to 100,000 characters); with
    ``review=True`` they wait in captures instead of becoming snapshots."""
    body = given(
        text=text,
        brain_id=brain_id,
        source_type=source_type,
        review=review,
        agent_id=agent_id,
        session_id=session_id,
        auto_link=auto_link,
    )
    return Call("POST", "/v1/crystallize", CrystallizeResult.from_json, json=body, idempotency_key=idempotency_key)


def get_run(run_id: str) -> Call[CrystallizeRun]:
    """A run: its status, the snapshots and captures it made, and what it cost."""
    return Call("GET", path("/v1/crystallize/{}", run_id), data_of(CrystallizeRun.from_json))


def list_captures(
    *, brain_id: str | None = None, limit: int | None = None, cursor: str | None = None
) -> PagedCall[Capture]:
    """Pending captures, newest first, walked by cursor."""

    def page(at: Paging) -> Call[Page[Capture]]:
        query = given(brain_id=brain_id, limit=limit, cursor=at.cursor)
        return Call("GET", "/v1/captures", page_of(Capture.from_json), query=query)

    return paged(page, "cursor", cursor, None)


def accept_capture(id: str, *, idempotency_key: str | None = None) -> Call[Snapshot]:
    """Makes the capture a snapshot (linked automatically); it leaves the pending list."""
    return Call(
        "POST",
        path("/v1/captures/{}/accept", id),
        data_of(Snapshot.from_json),
        json={},
        idempotency_key=idempotency_key,
    )


def reject_capture(id: str, *, idempotency_key: str | None = None) -> Call[bool]:
    """Drops the capture; nothing is stored."""
    return Call(
        "POST",
        path("/v1/captures/{}/reject", id),
        lambda body: bool(body["data"]["success"]),
        json={},
        idempotency_key=idempotency_key,
    )


def ingest(
    content: str,
    *,
    title: str | None = None,
    source_type: IngestSourceType | None = None,
    tags: list[str] | None = None,
    brain_id: str | None = None,
    extract_memories: bool | None = None,
    auto_link: bool | None = None,
    idempotency_key: str | None = None,
) -> Call[IngestResult]:
    """Text (20 to 1,000,000 characters) into snapshots, and with ``extract_memories`` the
    memories it holds; a ``url`` source is never fetched: the text must be sent."""
    body = given(
        content=content,
        title=title,
        source_type=source_type,
        tags=tags,
        brain_id=brain_id,
        extract_memories=extract_memories,
        auto_link=auto_link,
    )
    return Call("POST", "/v1/ingest", data_of(IngestResult.from_json), json=body, idempotency_key=idempotency_key)
