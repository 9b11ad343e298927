"""What the sync and async clients share when they read an export file or follow a job."""

from __future__ import annotations

import json
from typing import Any

from .errors import APIConnectionError, error_from_job
from .models.jobs import Job

EXPORT_MEDIA_TYPE = "application/x-ndjson"


class ExportReader:
    """Parses an export file line by line; an answer that stops before its ``end`` line (a
    dropped connection) raises instead of ending quietly."""

    def __init__(self, brain_id: str) -> None:
        self.brain_id = brain_id
        self.ended = False

    def line(self, text: str) -> dict[str, Any] | None:
        if text.strip() == "":
            return None
        record: dict[str, Any] = json.loads(text)
        if record.get("kind") == "end":
            self.ended = True
        return record

    def finish(self) -> None:
        if not self.ended:
            raise APIConnectionError(
                f"the export of {self.brain_id} stopped before its end line", status=0, code="NETWORK_ERROR"
            )


def finished(job: Job) -> Job | None:
    """The job when it succeeded, None while it runs; a failed job raises the error its
    synchronous call would have raised (PROVIDER_UNAVAILABLE, UNPROCESSABLE, …)."""
    if job.status == "failed":
        raise error_from_job(job.error)
    return job if job.status == "succeeded" else None


def check_wait(poll_interval: float, timeout: float | None) -> None:
    if poll_interval < 0:
        raise ValueError("poll_interval must be 0 or more seconds")
    if timeout is not None and timeout < 0:
        raise ValueError("timeout must be 0 or more seconds")
