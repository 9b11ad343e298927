"""``/v1/memories``: memories kept as they were said, searched, versioned and promoted (design §12)."""

from __future__ import annotations

from typing import Any

from ..models.memories import Memory, MemoryPromoted, MemorySearchResult, MemoryType
from ..models.pages import Page, SearchPage
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path

from .fields import OMIT, Omit, changes


def add(
    content: str,
    *,
    memory_type: MemoryType | None = None,
    speaker: str | None = None,
    tags: list[str] | None = None,
    source_emotion: str | None = None,
    emotional_valence: float | None = None,
    emotional_intensity: float | None = None,
    occurred_at: str | None = None,
    session_id: str | None = None,
    brain_id: str | None = None,
    idempotency_key: str | None = None,
) -> Call[Memory]:
    """Keeps a memory; ``memory_type`` defaults to ``fact``, ``occurred_at`` to now."""
    optional = given(
        memory_type=memory_type,
        speaker=speaker,
        tags=tags,
        source_emotion=source_emotion,
        emotional_valence=emotional_valence,
        emotional_intensity=emotional_intensity,
        occurred_at=occurred_at,
        session_id=session_id,
        brain_id=brain_id,
    )
    body = {"content": content, **optional}
    return Call("POST", "/v1/memories", data_of(Memory.from_json), json=body, idempotency_key=idempotency_key)


def get(id: str) -> Call[Memory]:
    return Call("GET", path("/v1/memories/{}", id), data_of(Memory.from_json))


def update(
    id: str,
    *,
    content: str | Omit = OMIT,
    memory_type: MemoryType | Omit = OMIT,
    speaker: str | None | Omit = OMIT,
    tags: list[str] | None | Omit = OMIT,
    source_emotion: str | None | Omit = OMIT,
    emotional_valence: float | None | Omit = OMIT,
    emotional_intensity: float | None | Omit = OMIT,
    occurred_at: str | Omit = OMIT,
    session_id: str | None | Omit = OMIT,
    superseded_by: str | None | Omit = OMIT,
) -> Call[Memory]:
    """Only the fields given change; None clears an optional field; ``superseded_by`` corrects
    which memory replaced this one (None makes it current again)."""
    body = changes(
        content=content,
        memory_type=memory_type,
        speaker=speaker,
        tags=tags,
        source_emotion=source_emotion,
        emotional_valence=emotional_valence,
        emotional_intensity=emotional_intensity,
        occurred_at=occurred_at,
        session_id=session_id,
        superseded_by=superseded_by,
    )
    return Call("PUT", path("/v1/memories/{}", id), data_of(Memory.from_json), json=body)


def delete(id: str) -> Call[bool]:
    """Deletes the memory; snapshots promoted from it stay."""
    return Call("DELETE", path("/v1/memories/{}", id), lambda body: bool(body["data"]["success"]))


def history(id: str) -> Call[list[Memory]]:
    """The chain of versions the memory belongs to, oldest first (design §12)."""
    return Call(
        "GET", path("/v1/memories/{}/history", id), lambda body: [Memory.from_json(m) for m in body["data"]]
    )


def listing(
    *,
    brain_id: str | None = None,
    memory_type: MemoryType | None = None,
    speaker: str | None = None,
    tag: str | None = None,
    session_id: str | None = None,
    since: str | None = None,
    until: str | None = None,
    current_only: bool | None = None,
    as_of: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> PagedCall[Memory]:
    """Every memory, newest first, walked by cursor; filters as the service takes them
    (``since``/``until`` on ``occurred_at``)."""

    def page(at: Paging) -> Call[Page[Memory]]:
        query = given(
            brain_id=brain_id,
            memory_type=memory_type,
            speaker=speaker,
            tag=tag,
            session_id=session_id,
            since=since,
            until=until,
            current_only=current_only,
            as_of=as_of,
            limit=limit,
            cursor=at.cursor,
        )
        return Call("GET", "/v1/memories", page_of(Memory.from_json), query=query)

    return paged(page, "cursor", cursor, None)


def read_search(body: Any) -> SearchPage[MemorySearchResult]:
    return SearchPage(
        data=[MemorySearchResult.from_json(m) for m in body["data"]], count=body["count"], query=body.get("query", "")
    )


def search(
    query: str,
    *,
    brain_id: str | None = None,
    memory_type: MemoryType | None = None,
    speaker: str | None = None,
    session_id: str | None = None,
    since: str | None = None,
    until: str | None = None,
    context: int | None = None,
    current_only: bool | None = None,
    as_of: str | None = None,
    limit: int | None = None,
) -> Call[SearchPage[MemorySearchResult]]:
    """Memories matching ``query``, best first; ``context`` adds that many turns of the same
    session around each result."""
    body = given(
        query=query,
        brain_id=brain_id,
        memory_type=memory_type,
        speaker=speaker,
        session_id=session_id,
        since=since,
        until=until,
        context=context,
        current_only=current_only,
        as_of=as_of,
        limit=limit,
    )
    return Call("POST", "/v1/memories/search", read_search, json=body)


def promote(id: str, *, auto_link: bool | None = None, idempotency_key: str | None = None) -> Call[MemoryPromoted]:
    """Promotes the memory into snapshots; promoting it again answers the same snapshots."""
    return Call(
        "POST",
        path("/v1/memories/{}/promote", id),
        data_of(MemoryPromoted.from_json),
        json=given(auto_link=auto_link),
        idempotency_key=idempotency_key,
    )
