"""``/v1/snapshots``: create, read, update, delete, list, search and link suggestions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..models.pages import Page, SearchPage
from ..models.snapshots import Snapshot, SnapshotSearchResult, SnapshotType, Suggestion
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path

from .fields import OMIT, Omit, changes

if TYPE_CHECKING:
    from ..models.snapshots import EdgeType

# The deepest offset search takes: the service reaches its first 10,000 results.
SEARCH_OFFSET_MAX = 9_900


def create(
    *,
    name: str,
    core: str,
    type: SnapshotType | None = None,
    one_liner: str | None = None,
    story: str | None = None,
    moment: str | None = None,
    source: str | None = None,
    trigger_pattern: str | None = None,
    method: str | None = None,
    steps: str | None = None,
    filter: str | None = None,
    challenge: str | None = None,
    break_test: str | None = None,
    risks: str | None = None,
    proof: str | None = None,
    emotion: dict[str, Any] | None = None,
    confidence: float | None = None,
    significance_score: float | None = None,
    tags: list[str] | None = None,
    brain_id: str | None = None,
    idempotency_key: str | None = None,
) -> Call[Snapshot]:
    """Creates a snapshot (``name`` and ``core`` required; the key's brain unless ``brain_id``).
    The fields left out take the service's defaults (type Belief, confidence 0.5, …)."""
    optional = given(
        type=type,
        one_liner=one_liner,
        story=story,
        moment=moment,
        source=source,
        trigger_pattern=trigger_pattern,
        method=method,
        steps=steps,
        filter=filter,
        challenge=challenge,
        break_test=break_test,
        risks=risks,
        proof=proof,
        emotion=emotion,
        confidence=confidence,
        significance_score=significance_score,
        tags=tags,
        brain_id=brain_id,
    )
    body = {"name": name, "core": core, **optional}
    return Call("POST", "/v1/snapshots", data_of(Snapshot.from_json), json=body, idempotency_key=idempotency_key)


def get(id: str) -> Call[Snapshot]:
    return Call("GET", path("/v1/snapshots/{}", id), data_of(Snapshot.from_json))


def update(
    id: str,
    *,
    name: str | Omit = OMIT,
    core: str | Omit = OMIT,
    type: SnapshotType | Omit = OMIT,
    one_liner: str | None | Omit = OMIT,
    story: str | None | Omit = OMIT,
    moment: str | None | Omit = OMIT,
    source: str | None | Omit = OMIT,
    trigger_pattern: str | None | Omit = OMIT,
    method: str | None | Omit = OMIT,
    steps: str | None | Omit = OMIT,
    filter: str | None | Omit = OMIT,
    challenge: str | None | Omit = OMIT,
    break_test: str | None | Omit = OMIT,
    risks: str | None | Omit = OMIT,
    proof: str | None | Omit = OMIT,
    emotion: dict[str, Any] | None | Omit = OMIT,
    confidence: float | Omit = OMIT,
    significance_score: float | Omit = OMIT,
    tags: list[str] | None | Omit = OMIT,
) -> Call[Snapshot]:
    """Only the fields given change; ``tags`` replaces the tags; None clears an optional field."""
    body = changes(
        name=name,
        core=core,
        type=type,
        one_liner=one_liner,
        story=story,
        moment=moment,
        source=source,
        trigger_pattern=trigger_pattern,
        method=method,
        steps=steps,
        filter=filter,
        challenge=challenge,
        break_test=break_test,
        risks=risks,
        proof=proof,
        emotion=emotion,
        confidence=confidence,
        significance_score=significance_score,
        tags=tags,
    )
    return Call("PUT", path("/v1/snapshots/{}", id), data_of(Snapshot.from_json), json=body)


def delete(id: str) -> Call[bool]:
    """Deletes the snapshot and every edge attached to it; irreversible."""
    return Call("DELETE", path("/v1/snapshots/{}", id), lambda body: bool(body["data"]["success"]))


def listing(
    *,
    brain_id: str | None = None,
    type: SnapshotType | None = None,
    tag: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> PagedCall[Snapshot]:
    """Every snapshot, newest first, walked by cursor; ``limit`` sets the page size."""

    def page(at: Paging) -> Call[Page[Snapshot]]:
        query = given(brain_id=brain_id, type=type, tag=tag, limit=limit, cursor=at.cursor)
        return Call("GET", "/v1/snapshots", page_of(Snapshot.from_json), query=query)

    return paged(page, "cursor", cursor, None)


def search_query(
    q: str,
    *,
    brain_id: str | None,
    type: SnapshotType | None,
    tag: str | None,
    limit: int | None,
    offset: int | None,
    graph: bool | None,
    explain: bool | None,
) -> dict[str, Any]:
    return given(q=q, brain_id=brain_id, type=type, tag=tag, limit=limit, offset=offset, graph=graph, explain=explain)


def read_search(body: Any) -> SearchPage[SnapshotSearchResult]:
    return SearchPage(
        data=[SnapshotSearchResult.from_json(item) for item in body["data"]],
        count=body["count"],
        query=body.get("query", ""),
    )


def search(
    q: str,
    *,
    brain_id: str | None = None,
    type: SnapshotType | None = None,
    tag: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
    graph: bool | None = None,
    explain: bool | None = None,
) -> Call[SearchPage[SnapshotSearchResult]]:
    """Ranked search (design §8): text relevance, meaning when configured, and the graph."""
    query = search_query(
        q, brain_id=brain_id, type=type, tag=tag, limit=limit, offset=offset, graph=graph, explain=explain
    )
    return Call("GET", "/v1/snapshots/search", read_search, query=query)


def search_all(
    q: str,
    *,
    brain_id: str | None = None,
    type: SnapshotType | None = None,
    tag: str | None = None,
    limit: int | None = None,
    graph: bool | None = None,
) -> PagedCall[SnapshotSearchResult]:
    """Every result of a search, best first, page by page by offset, up to the first 10,000."""

    def page(at: Paging) -> Call[Page[SnapshotSearchResult]]:
        query = search_query(
            q, brain_id=brain_id, type=type, tag=tag, limit=limit, offset=at.offset, graph=graph, explain=None
        )
        return Call("GET", "/v1/snapshots/search", page_of(SnapshotSearchResult.from_json), query=query)

    return paged(page, "offset", None, 0, SEARCH_OFFSET_MAX)


def suggestions(id: str, *, limit: int | None = None, edge_type: EdgeType | None = None) -> Call[list[Suggestion]]:
    """Edges the service would make for this snapshot, best first; accept one with ``edges.create``."""
    return Call(
        "GET",
        path("/v1/snapshots/{}/suggestions", id),
        lambda body: [Suggestion.from_json(s) for s in body["data"]],
        query=given(limit=limit, edge_type=edge_type),
    )
