"""``/v1/brains``: the containers of an account's snapshots, edges and memories, and the brain as
a file (export, design §15.1; import over HTTP, §15.3)."""

from __future__ import annotations

from typing import Literal

from ..models.graph import Brain
from ..models.jobs import Job
from ..models.pages import Page
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path

from .fields import OMIT, Omit, changes

ImportFormat = Literal["jsonl", "graphml"]
MEDIA_TYPES: dict[str, str] = {"jsonl": "application/x-ndjson", "graphml": "application/graphml+xml"}


def create(*, name: str, auto_link: bool | None = None, idempotency_key: str | None = None) -> Call[Brain]:
    body = {"name": name, **given(auto_link=auto_link)}
    return Call("POST", "/v1/brains", data_of(Brain.from_json), json=body, idempotency_key=idempotency_key)


def get(id: str) -> Call[Brain]:
    """One brain with its counts."""
    return Call("GET", path("/v1/brains/{}", id), data_of(Brain.from_json))


def update(
    id: str,
    *,
    name: str | Omit = OMIT,
    auto_link: bool | Omit = OMIT,
) -> Call[Brain]:
    """Renames the brain or turns automatic linking on or off."""
    body = changes(
        name=name,
        auto_link=auto_link,
    )
    return Call("PUT", path("/v1/brains/{}", id), data_of(Brain.from_json), json=body)


def listing(*, limit: int | None = None, offset: int | None = None) -> PagedCall[Brain]:
    """Every brain of the account, by offset (the brain list has no cursor)."""

    def page(at: Paging) -> Call[Page[Brain]]:
        return Call("GET", "/v1/brains", page_of(Brain.from_json), query=given(limit=limit, offset=at.offset))

    return paged(page, "offset", None, offset)


def export(id: str, format: ImportFormat = "jsonl") -> Call[None]:
    """The export file's request; its body is read as it arrives, not parsed here."""
    query = given(format=format if format != "jsonl" else None)
    return Call("GET", path("/v1/brains/{}/export", id), lambda body: None, query=query)


def import_(
    file: str | bytes,
    *,
    format: ImportFormat = "jsonl",
    brain_id: str | None = None,
    idempotency_key: str | None = None,
) -> Call[Job]:
    """Sends an export file; the answer is the queued import job (``jobs.wait`` follows it: its
    result is ``{ brain_id, counts }``, read with ``ImportResult.from_json``)."""
    content = file.encode() if isinstance(file, str) else bytes(file)
    return Call(
        "POST",
        "/v1/brains/import",
        data_of(Job.from_json),
        query=given(brain_id=brain_id),
        content=content,
        content_type=MEDIA_TYPES[format],
        idempotency_key=idempotency_key,
    )
