"""The resources of the async client ``AsyncSnapgraph``: the same calls as the sync client, awaited."""

from __future__ import annotations

import time
from typing import Any, AsyncIterator

from .bind import AsyncResource, async_call, async_pager
from .calls import brains, edges, jobs, knowledge, memories, snapshots
from .calls import text as text_calls
from .calls.base import job_version
from .models.jobs import Job
from .streams import EXPORT_MEDIA_TYPE, ExportReader, check_wait, finished


class Snapshots(AsyncResource):
    """``/v1/snapshots``."""

    create = async_call(snapshots.create)
    get = async_call(snapshots.get)
    update = async_call(snapshots.update)
    delete = async_call(snapshots.delete)
    list = async_pager(snapshots.listing)
    search = async_call(snapshots.search)
    search_all = async_pager(snapshots.search_all)
    suggestions = async_call(snapshots.suggestions)


class Edges(AsyncResource):
    """``/v1/edges``."""

    create = async_call(edges.create)
    get = async_call(edges.get)
    update = async_call(edges.update)
    delete = async_call(edges.delete)
    list = async_pager(edges.listing)


class Brains(AsyncResource):
    """``/v1/brains``, with the brain as a file: ``export`` and ``import_``."""

    create = async_call(brains.create)
    get = async_call(brains.get)
    update = async_call(brains.update)
    list = async_pager(brains.listing)
    import_ = async_call(brains.import_)

    async def export(self, id: str) -> AsyncIterator[dict[str, Any]]:
        """The brain's export file (NDJSON) as it arrives, a parsed line at a time: the header,
        one ``{"kind", "data"}`` per record, and the ``end`` line with the count of each kind."""
        reader = ExportReader(id)
        async with self._transport.stream(brains.export(id), EXPORT_MEDIA_TYPE) as response:
            async for line in response.aiter_lines():
                record = reader.line(line)
                if record is not None:
                    yield record
        reader.finish()

    async def export_graphml(self, id: str) -> str:
        """The brain as a GraphML document, for graph tools."""
        async with self._transport.stream(brains.export(id, "graphml"), "application/graphml+xml") as response:
            await response.aread()
            return response.text


class Memories(AsyncResource):
    """``/v1/memories``."""

    add = async_call(memories.add)
    create = add  # the same shape as the other resources
    get = async_call(memories.get)
    update = async_call(memories.update)
    delete = async_call(memories.delete)
    list = async_pager(memories.listing)
    search = async_call(memories.search)
    history = async_call(memories.history)
    promote = async_call(memories.promote)


class Crystallize(AsyncResource):
    """``/v1/crystallize``: ``client.crystallize(text)`` or ``client.crystallize.text(text)``."""

    text = async_call(text_calls.crystallize)
    __call__ = text
    text_as_job = async_call(job_version(text_calls.crystallize))
    get_run = async_call(text_calls.get_run)
    # The same shape as the other resources: a run is what crystallize creates.
    create, create_as_job, get = text, text_as_job, get_run


class Captures(AsyncResource):
    """``/v1/captures``: what a reviewed crystallize run proposed."""

    list = async_pager(text_calls.list_captures)
    accept = async_call(text_calls.accept_capture)
    reject = async_call(text_calls.reject_capture)


class Knowledge(AsyncResource):
    """``/v1/specific-knowledge``."""

    ingest = async_call(knowledge.ingest)
    ingest_as_job = async_call(job_version(knowledge.ingest))
    search = async_call(knowledge.search)
    list_sources = async_pager(knowledge.list_sources)
    get_source = async_call(knowledge.get_source)
    delete_source = async_call(knowledge.delete_source)
    get_entry = async_call(knowledge.get_entry)
    update_entry = async_call(knowledge.update_entry)
    # The same shape as the other resources: a source is what knowledge ingests.
    create, create_as_job, list, get, delete = ingest, ingest_as_job, list_sources, get_source, delete_source


class Ingest(AsyncResource):
    """``/v1/ingest``: ``client.ingest(content)`` or ``client.ingest.text(content)``."""

    text = async_call(text_calls.ingest)
    __call__ = text
    text_as_job = async_call(job_version(text_calls.ingest))
    create, create_as_job = text, text_as_job  # the same shape as the other resources


class Jobs(AsyncResource):
    """``/v1/jobs``."""

    get = async_call(jobs.get)
    list = async_pager(jobs.listing)

    async def wait(self, id: str, *, poll_interval: float = 1.0, timeout: float | None = None) -> Job:
        """Polls the job until it finishes and returns it succeeded (``result`` is what the
        synchronous call would have answered); a failed job raises that call's error, and
        ``timeout`` seconds without an end raise ``TimeoutError``."""
        check_wait(poll_interval, timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            done = finished(await self.get(id))
            if done is not None:
                return done
            if deadline is not None and time.monotonic() + poll_interval > deadline:
                raise TimeoutError(f"job {id} did not finish within {timeout} s")
            await self._transport.sleep(poll_interval)
