"""A request described as data, and a list described by how to fetch any of its pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Literal, Mapping, ParamSpec, TypeVar
from urllib.parse import quote

from ..models.jobs import JobAccepted
from ..models.pages import Page

T = TypeVar("T")

QueryValue = str | int | float | bool | None


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request: ``parse`` turns the answer's JSON body into the value the method returns."""

    method: str
    path: str
    parse: Callable[[Any], T]
    query: Mapping[str, QueryValue] = field(default_factory=dict)
    json: Any = None
    # A body that is a file, not JSON (an import), sent as it is with its media type.
    content: bytes | None = None
    content_type: str | None = None
    idempotency_key: str | None = None
    # Prefer: respond-async: the call answers 202 with a job.
    respond_async: bool = False


@dataclass(frozen=True)
class Paging:
    """Where a walk starts: a cursor (``""`` asks for the first page) or an offset."""

    cursor: str | None = None
    offset: int = 0


@dataclass(frozen=True)
class PagedCall(Generic[T]):
    """A list: ``page`` makes the call for one page. Lists that take a cursor are walked by keyset
    (no item skipped or repeated while others write); the others by offset, up to ``max_offset``."""

    page: Callable[[Paging], Call[Page[T]]]
    by: Literal["cursor", "offset"]
    start: Paging
    max_offset: int = 2**62


def path(template: str, *ids: str) -> str:
    """The path with each ``{}`` replaced by an id, percent-encoded; an empty id is refused here
    rather than sent as another route."""
    parts = template.split("{}")
    if len(parts) != len(ids) + 1:
        raise TypeError(f"{template} takes {len(parts) - 1} id(s)")
    out = parts[0]
    for value, rest in zip(ids, parts[1:]):
        if not isinstance(value, str) or value == "":
            raise ValueError(f"an id is required for {template}")
        out += quote(value, safe="") + rest
    return out


def data_of(parse: Callable[[Any], T]) -> Callable[[Any], T]:
    """Reads the ``data`` of an answer shaped ``{ data }``, as every route about one object answers."""
    return lambda body: parse(body["data"])


def page_of(parse: Callable[[Any], T], total_key: str = "count") -> Callable[[Any], Page[T]]:
    def read(body: Any) -> Page[T]:
        return Page(
            data=[parse(item) for item in body["data"]],
            count=body.get(total_key, len(body["data"])),
            next_cursor=body.get("next_cursor"),
        )

    return read


def given(**values: Any) -> dict[str, Any]:
    """The values the caller gave (None means "not given" for filters and optional fields)."""
    return {name: value for name, value in values.items() if value is not None}


def paged(
    make: Callable[[Paging], Call[Page[T]]],
    by: Literal["cursor", "offset"],
    cursor: str | None,
    offset: int | None,
    max_offset: int = 2**62,
) -> PagedCall[T]:
    start = Paging(cursor="" if by == "cursor" and cursor is None else cursor, offset=offset or 0)
    return PagedCall(page=make, by=by, start=start, max_offset=max_offset)


def next_paging(by: Literal["cursor", "offset"], current: Paging, page: Page[Any], max_offset: int) -> Paging | None:
    """Where the next page starts, or None after the last one."""
    if not page.data:
        return None
    if by == "cursor":
        return Paging(cursor=page.next_cursor) if page.next_cursor else None
    offset = current.offset + len(page.data)
    if offset >= page.count or offset > max_offset:
        return None
    return Paging(offset=offset)


def as_job(call: Call[Any]) -> Call[JobAccepted]:
    """The same request run as a job (``Prefer: respond-async``): it answers 202 at once with the
    job's id, and ``jobs.wait`` gives the result the call would have answered."""
    return Call(
        call.method,
        call.path,
        data_of(JobAccepted.from_json),
        query=call.query,
        json=call.json,
        idempotency_key=call.idempotency_key,
        respond_async=True,
    )


P = ParamSpec("P")


def job_version(build: Callable[P, Call[Any]]) -> Callable[P, Call[JobAccepted]]:
    """The builder of a call, making the call run as a job instead (same arguments)."""

    def make(*args: P.args, **kwargs: P.kwargs) -> Call[JobAccepted]:
        return as_job(build(*args, **kwargs))

    prefix = "Runs as a job: answers ``JobAccepted`` at once; ``jobs.wait(job_id)`` gives the result."
    make.__doc__ = f"{prefix}\n\n{build.__doc__ or ''}"
    return make
