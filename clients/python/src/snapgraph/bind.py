"""Turns a call builder (``calls/…``) into a method of a sync or async resource, keeping the
builder's signature and documentation, so that each request is written once for both clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Concatenate, ParamSpec, TypeVar

from .calls.base import Call, PagedCall
from .paging import AsyncPager, SyncPager

if TYPE_CHECKING:
    from .transport import AsyncTransport, SyncTransport

P = ParamSpec("P")
T = TypeVar("T")


class SyncResource:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport


class AsyncResource:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport


def _named(method: Any, build: Callable[..., Any]) -> None:
    method.__doc__ = build.__doc__
    method.__name__ = build.__name__
    method.__qualname__ = build.__qualname__


def sync_call(build: Callable[P, Call[T]]) -> Callable[Concatenate[SyncResource, P], T]:
    def method(self: SyncResource, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._transport.run(build(*args, **kwargs))

    _named(method, build)
    return method


def async_call(build: Callable[P, Call[T]]) -> Callable[Concatenate[AsyncResource, P], Awaitable[T]]:
    async def method(self: AsyncResource, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._transport.run(build(*args, **kwargs))

    _named(method, build)
    return method


def sync_pager(build: Callable[P, PagedCall[T]]) -> Callable[Concatenate[SyncResource, P], SyncPager[T]]:
    def method(self: SyncResource, /, *args: P.args, **kwargs: P.kwargs) -> SyncPager[T]:
        return SyncPager(self._transport, build(*args, **kwargs))

    _named(method, build)
    return method


def async_pager(build: Callable[P, PagedCall[T]]) -> Callable[Concatenate[AsyncResource, P], AsyncPager[T]]:
    def method(self: AsyncResource, /, *args: P.args, **kwargs: P.kwargs) -> AsyncPager[T]:
        return AsyncPager(self._transport, build(*args, **kwargs))

    _named(method, build)
    return method
