"""Memories: what was said, kept as it was said, and their search results (design §12)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ._fields import known_fields
from .graph import Edge
from .snapshots import Snapshot

MemoryType = Literal["fact", "decision", "insight", "story", "framework", "preference", "event"]


@dataclass(frozen=True, kw_only=True)
class Memory:
    """A memory. ``superseded_by`` names the memory that replaced it (None while it is current)."""

    id: str
    brain_id: str
    content: str
    memory_type: MemoryType = "fact"
    speaker: str | None = None
    tags: list[str] = field(default_factory=list)
    source_emotion: str | None = None
    emotional_valence: float | None = None
    emotional_intensity: float | None = None
    occurred_at: str = ""
    session_id: str | None = None
    promoted_to: str | None = None
    superseded_by: str | None = None
    superseded_at: str | None = None
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Memory:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class MemorySearchResult(Memory):
    """A memory as search ranks it, with the turns around it when ``context`` was asked for."""

    score: float
    similarity: str = ""
    context: list[Memory] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MemorySearchResult:
        context = [Memory.from_json(m) for m in data.get("context") or []]
        return cls(**known_fields(cls, data, skip=("context",)), context=context)


@dataclass(frozen=True, kw_only=True)
class MemoryPromoted:
    """A promoted memory and the snapshots (and automatic edges) it became."""

    memory: Memory
    snapshots: list[Snapshot]
    edges: list[Edge]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MemoryPromoted:
        return cls(
            memory=Memory.from_json(data["memory"]),
            snapshots=[Snapshot.from_json(s) for s in data.get("snapshots") or []],
            edges=[Edge.from_json(e) for e in data.get("edges") or []],
        )
