"""Crystallize runs and the captures a reviewed run leaves (design §11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._fields import known_fields
from .graph import Edge
from .snapshots import Snapshot


@dataclass(frozen=True, kw_only=True)
class Capture:
    """A snapshot a reviewed run proposed (``snapshot`` holds its fields), waiting for accept or reject."""

    id: str
    run_id: str
    brain_id: str
    snapshot: dict[str, Any]
    created_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Capture:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class CrystallizeResult:
    """What a run made: snapshots (or captures with review) and edges, its ``usage`` and ``meta``."""

    run_id: str
    snapshots: list[Snapshot]
    edges: list[Edge]
    captures: list[Capture]
    count: int
    usage: dict[str, Any]
    meta: dict[str, Any]

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> CrystallizeResult:
        data = body["data"]
        return cls(
            run_id=body.get("run_id", ""),
            snapshots=[Snapshot.from_json(s) for s in data.get("snapshots") or []],
            edges=[Edge.from_json(e) for e in data.get("edges") or []],
            captures=[Capture.from_json(c) for c in data.get("captures") or []],
            count=data.get("count", 0),
            usage=body.get("usage") or {},
            meta=body.get("meta") or {},
        )


@dataclass(frozen=True, kw_only=True)
class CrystallizeRun:
    """A run as stored: its status, the snapshots and captures it made, and what it cost."""

    id: str
    brain_id: str
    status: str
    source_type: str = "manual"
    agent_id: str | None = None
    session_id: str | None = None
    snapshot_ids: list[str] = field(default_factory=list)
    capture_ids: list[str] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CrystallizeRun:
        return cls(**known_fields(cls, data))
