"""Snapgraph's Python client: ``Snapgraph`` (sync) and ``AsyncSnapgraph`` (async) over httpx.

    from snapgraph import Snapgraph
    client = Snapgraph(base_url="http://127.0.0.1:8080", api_key="sg_…")
    snapshot = client.snapshots.create(name="Compounding", core="Small gains add up.")
    results = client.snapshots.search("compounding")
"""

from .client import AsyncSnapgraph, Snapgraph
from .errors import (
    APIConnectionError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    SnapgraphError,
    UnprocessableError,
    ValidationError,
)
from .models import *  # noqa: F403 (the models are the client's vocabulary)
from .models import __all__ as _models
from .paging import AsyncPager, SyncPager
from .retry import RetryPolicy

__version__ = "0.1.0"

__all__ = [
    "APIConnectionError",
    "AsyncPager",
    "AsyncSnapgraph",
    "AuthenticationError",
    "ConflictError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "Snapgraph",
    "SnapgraphError",
    "SyncPager",
    "UnprocessableError",
    "ValidationError",
    *_models,
]
