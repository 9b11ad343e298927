"""A page of a list and a page of search results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Page(Generic[T]):
    """One page of a list. ``count`` is the number of all matches (the edge list's ``total``);
    ``next_cursor`` continues a list walked by cursor (None on the last page)."""

    data: list[T]
    count: int
    next_cursor: str | None = None


@dataclass(frozen=True, kw_only=True)
class SearchPage(Generic[T]):
    """Search results, best first: ``data`` (each with ``.id`` and ``.score``), ``count`` of all
    matches, and the ``query`` as the service read it."""

    data: list[T]
    count: int
    query: str
