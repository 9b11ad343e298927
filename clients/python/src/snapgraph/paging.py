"""Lists as iterators: ``for item in client.snapshots.list()`` walks every page, and ``.pages()``
gives the pages themselves (with ``count`` and ``next_cursor``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, AsyncIterator, Generic, Iterator, TypeVar

from .calls.base import PagedCall, Paging, next_paging
from .models.pages import Page

if TYPE_CHECKING:
    from .transport import AsyncTransport, SyncTransport

T = TypeVar("T")


class SyncPager(Generic[T]):
    """Every item of a list, one page fetched at a time as the loop reaches it."""

    def __init__(self, transport: SyncTransport, paged: PagedCall[T]) -> None:
        self._transport = transport
        self._paged = paged

    def pages(self) -> Iterator[Page[T]]:
        at: Paging | None = self._paged.start
        while at is not None:
            page = self._transport.run(self._paged.page(at))
            yield page
            at = next_paging(self._paged.by, at, page, self._paged.max_offset)

    def first_page(self) -> Page[T]:
        """The first page only (its ``count`` counts every match)."""
        return self._transport.run(self._paged.page(self._paged.start))

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data


class AsyncPager(Generic[T]):
    """``async for item in client.snapshots.list()``: every item, a page at a time."""

    def __init__(self, transport: AsyncTransport, paged: PagedCall[T]) -> None:
        self._transport = transport
        self._paged = paged

    async def pages(self) -> AsyncIterator[Page[T]]:
        at: Paging | None = self._paged.start
        while at is not None:
            page = await self._transport.run(self._paged.page(at))
            yield page
            at = next_paging(self._paged.by, at, page, self._paged.max_offset)

    async def first_page(self) -> Page[T]:
        return await self._transport.run(self._paged.page(self._paged.start))

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.data:
                yield item
