"""The resources of the sync client ``Snapgraph``: each method sends one call built in ``calls/``."""

from __future__ import annotations

import time
from typing import Any, Iterator

from .bind import SyncResource, sync_call, sync_pager
from .calls import brains, edges, jobs, knowledge, memories, snapshots
from .calls import text as text_calls
from .calls.base import job_version
from .models.jobs import Job
from .streams import EXPORT_MEDIA_TYPE, ExportReader, check_wait, finished


class Snapshots(SyncResource):
    """``/v1/snapshots``."""

    create = sync_call(snapshots.create)
    get = sync_call(snapshots.get)
    update = sync_call(snapshots.update)
    delete = sync_call(snapshots.delete)
    list = sync_pager(snapshots.listing)
    search = sync_call(snapshots.search)
    search_all = sync_pager(snapshots.search_all)
    suggestions = sync_call(snapshots.suggestions)


class Edges(SyncResource):
    """``/v1/edges``."""

    create = sync_call(edges.create)
    get = sync_call(edges.get)
    update = sync_call(edges.update)
    delete = sync_call(edges.delete)
    list = sync_pager(edges.listing)


class Brains(SyncResource):
    """``/v1/brains``, with the brain as a file: ``export`` and ``import_``."""

    create = sync_call(brains.create)
    get = sync_call(brains.get)
    update = sync_call(brains.update)
    list = sync_pager(brains.listing)
    import_ = sync_call(brains.import_)

    def export(self, id: str) -> Iterator[dict[str, Any]]:
        """The brain's export file (NDJSON) as it arrives, a parsed line at a time: the header,
        one ``{"kind", "data"}`` per record, and the ``end`` line with the count of each kind."""
        reader = ExportReader(id)
        with self._transport.stream(brains.export(id), EXPORT_MEDIA_TYPE) as response:
            for line in response.iter_lines():
                record = reader.line(line)
                if record is not None:
                    yield record
        reader.finish()

    def export_graphml(self, id: str) -> str:
        """The brain as a GraphML document, for graph tools."""
        with self._transport.stream(brains.export(id, "graphml"), "application/graphml+xml") as response:
            response.read()
            return response.text


class Memories(SyncResource):
    """``/v1/memories``."""

    add = sync_call(memories.add)
    create = add  # the same shape as the other resources
    get = sync_call(memories.get)
    update = sync_call(memories.update)
    delete = sync_call(memories.delete)
    list = sync_pager(memories.listing)
    search = sync_call(memories.search)
    history = sync_call(memories.history)
    promote = sync_call(memories.promote)


class Crystallize(SyncResource):
    """``/v1/crystallize``: ``client.crystallize(text)`` or ``client.crystallize.text(text)``."""

    text = sync_call(text_calls.crystallize)
    __call__ = text
    text_as_job = sync_call(job_version(text_calls.crystallize))
    get_run = sync_call(text_calls.get_run)
    # The same shape as the other resources: a run is what crystallize creates.
    create, create_as_job, get = text, text_as_job, get_run


class Captures(SyncResource):
    """``/v1/captures``: what a reviewed crystallize run proposed."""

    list = sync_pager(text_calls.list_captures)
    accept = sync_call(text_calls.accept_capture)
    reject = sync_call(text_calls.reject_capture)


class Knowledge(SyncResource):
    """``/v1/specific-knowledge``."""

    ingest = sync_call(knowledge.ingest)
    ingest_as_job = sync_call(job_version(knowledge.ingest))
    search = sync_call(knowledge.search)
    list_sources = sync_pager(knowledge.list_sources)
    get_source = sync_call(knowledge.get_source)
    delete_source = sync_call(knowledge.delete_source)
    get_entry = sync_call(knowledge.get_entry)
    update_entry = sync_call(knowledge.update_entry)
    # The same shape as the other resources: a source is what knowledge ingests.
    create, create_as_job, list, get, delete = ingest, ingest_as_job, list_sources, get_source, delete_source


class Ingest(SyncResource):
    """``/v1/ingest``: ``client.ingest(content)`` or ``client.ingest.text(content)``."""

    text = sync_call(text_calls.ingest)
    __call__ = text
    text_as_job = sync_call(job_version(text_calls.ingest))
    create, create_as_job = text, text_as_job  # the same shape as the other resources


class Jobs(SyncResource):
    """``/v1/jobs``."""

    get = sync_call(jobs.get)
    list = sync_pager(jobs.listing)

    def wait(self, id: str, *, poll_interval: float = 1.0, timeout: float | None = None) -> Job:
        """Polls the job until it finishes and returns it succeeded (``result`` is what the
        synchronous call would have answered); a failed job raises that call's error, and
        ``timeout`` seconds without an end raise ``TimeoutError``."""
        check_wait(poll_interval, timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            done = finished(self.get(id))
            if done is not None:
                return done
            if deadline is not None and time.monotonic() + poll_interval > deadline:
                raise TimeoutError(f"job {id} did not finish within {timeout} s")
            self._transport.sleep(poll_interval)
