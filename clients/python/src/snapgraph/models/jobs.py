"""Jobs: work that runs after its request answered 202 (design §14), and import's result (§15.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ._fields import known_fields

JobStatus = Literal["queued", "running", "succeeded", "failed"]


@dataclass(frozen=True, kw_only=True)
class Job:
    """A job as it is now. ``result`` is the body the synchronous call would have answered;
    ``error`` the error body it would have failed with."""

    id: str
    kind: str
    status: JobStatus
    progress: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    error: Any = None
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Job:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class JobAccepted:
    """The 202 of a call run as a job: follow ``job_id`` with ``jobs.wait``."""

    job_id: str
    status: JobStatus

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JobAccepted:
        return cls(job_id=data.get("job_id") or data["id"], status=data["status"])


@dataclass(frozen=True, kw_only=True)
class ImportResult:
    """The ``result`` of a succeeded import job: where the records went and how many of each kind."""

    brain_id: str
    counts: dict[str, int]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ImportResult:
        return cls(**known_fields(cls, data))
