"""Every API call described once, as data (a ``Call``: method, path, query, body, and how to read
the answer), so that the sync and async clients send exactly the same requests and differ only in
how they wait."""

from .base import Call, PagedCall, Paging

__all__ = ["Call", "PagedCall", "Paging"]
