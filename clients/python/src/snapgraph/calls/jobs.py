"""``/v1/jobs``: work that runs after its request answered 202 (design §14)."""

from __future__ import annotations

from ..models.jobs import Job, JobStatus
from ..models.pages import Page
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path


def get(id: str) -> Call[Job]:
    """The job as it is now: queued, running, succeeded (with ``result``) or failed (with ``error``)."""
    return Call("GET", path("/v1/jobs/{}", id), data_of(Job.from_json))


def listing(
    *, status: JobStatus | None = None, kind: str | None = None, limit: int | None = None, cursor: str | None = None
) -> PagedCall[Job]:
    """Your jobs, newest first, optionally of one ``status`` or ``kind``, walked by cursor."""

    def page(at: Paging) -> Call[Page[Job]]:
        query = given(status=status, kind=kind, limit=limit, cursor=at.cursor)
        return Call("GET", "/v1/jobs", page_of(Job.from_json), query=query)

    return paged(page, "cursor", cursor, None)
