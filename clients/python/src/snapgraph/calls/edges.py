"""``/v1/edges``: typed, weighted, directed links between two snapshots of one brain."""

from __future__ import annotations

from ..models.graph import Edge
from ..models.pages import Page
from ..models.snapshots import EdgeType
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path

from .fields import OMIT, Omit, changes


def create(
    *,
    source_id: str,
    target_id: str,
    edge_type: EdgeType,
    strength: float | None = None,
    label: str | None = None,
    idempotency_key: str | None = None,
) -> Call[Edge]:
    body = {"source_id": source_id, "target_id": target_id, "edge_type": edge_type}
    body.update(given(strength=strength, label=label))
    return Call("POST", "/v1/edges", data_of(Edge.from_json), json=body, idempotency_key=idempotency_key)


def get(id: str) -> Call[Edge]:
    return Call("GET", path("/v1/edges/{}", id), data_of(Edge.from_json))


def update(
    id: str,
    *,
    edge_type: EdgeType | Omit = OMIT,
    strength: float | Omit = OMIT,
    label: str | None | Omit = OMIT,
) -> Call[Edge]:
    """Changes ``edge_type``, ``strength`` or ``label``; an automatic edge becomes the user's."""
    body = changes(
        edge_type=edge_type,
        strength=strength,
        label=label,
    )
    return Call("PUT", path("/v1/edges/{}", id), data_of(Edge.from_json), json=body)


def delete(id: str) -> Call[None]:
    """Removes the edge; both snapshots stay, and the service never re-creates it by itself."""
    return Call("DELETE", path("/v1/edges/{}", id), lambda body: None)


def listing(
    *,
    snapshot_id: str | None = None,
    brain_id: str | None = None,
    edge_type: EdgeType | None = None,
    min_strength: float | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> PagedCall[Edge]:
    """A snapshot's edges (``snapshot_id``, both directions) or a brain's (``brain_id``), by cursor."""

    def page(at: Paging) -> Call[Page[Edge]]:
        query = given(
            snapshot_id=snapshot_id,
            brain_id=brain_id,
            edge_type=edge_type,
            min_strength=min_strength,
            limit=limit,
            cursor=at.cursor,
        )
        return Call("GET", "/v1/edges", page_of(Edge.from_json, "total"), query=query)

    return paged(page, "cursor", cursor, None)
