"""Specific knowledge (sources and their entries) and text ingestion (design §13)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ._fields import known_fields
from .graph import Edge
from .memories import Memory
from .snapshots import Snapshot

EntryType = Literal["concept", "framework", "protocol", "principle", "technique", "quote", "case_study", "definition"]


@dataclass(frozen=True, kw_only=True)
class KnowledgeEntry:
    """One piece of a source: a definition, a technique, a quote…, with the reader's ``mastery``."""

    id: str
    brain_id: str
    source_id: str
    entry_type: EntryType
    title: str
    content: str
    domain: str | None = None
    mastery: float = 0.0
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KnowledgeEntry:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class KnowledgeSearchResult(KnowledgeEntry):
    """An entry as knowledge search ranks it."""

    score: float
    similarity: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KnowledgeSearchResult:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class KnowledgeSource:
    """A book, course, document… that was ingested; ``entries`` is filled when read one by one."""

    id: str
    brain_id: str
    source_type: str
    title: str
    author: str | None = None
    url: str | None = None
    domain: str | None = None
    tags: list[str] = field(default_factory=list)
    entries_count: int = 0
    snapshot_ids: list[str] = field(default_factory=list)
    entries: list[KnowledgeEntry] = field(default_factory=list)
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KnowledgeSource:
        entries = [KnowledgeEntry.from_json(e) for e in data.get("entries") or []]
        return cls(**known_fields(cls, data, skip=("entries",)), entries=entries)


@dataclass(frozen=True, kw_only=True)
class KnowledgeIngestResult:
    """What a specific-knowledge ingest made: the source's entries, and snapshots unless turned off."""

    source_id: str
    title: str
    author: str | None
    entries_count: int
    entries: list[KnowledgeEntry]
    snapshots: list[Snapshot]
    edges: list[Edge]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KnowledgeIngestResult:
        return cls(
            **known_fields(cls, data, skip=("entries", "snapshots", "edges")),
            entries=[KnowledgeEntry.from_json(e) for e in data.get("entries") or []],
            snapshots=[Snapshot.from_json(s) for s in data.get("snapshots") or []],
            edges=[Edge.from_json(e) for e in data.get("edges") or []],
        )


@dataclass(frozen=True, kw_only=True)
class IngestResult:
    """What ``POST /v1/ingest`` made of a text: snapshots, memories when asked, automatic edges."""

    ingestion_id: str
    title: str | None
    source_type: Literal["manual", "document", "article", "url"]
    snapshots: list[Snapshot]
    memories: list[Memory]
    edges: list[Edge]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> IngestResult:
        return cls(
            **known_fields(cls, data, skip=("snapshots", "memories", "edges")),
            snapshots=[Snapshot.from_json(s) for s in data.get("snapshots") or []],
            memories=[Memory.from_json(m) for m in data.get("memories") or []],
            edges=[Edge.from_json(e) for e in data.get("edges") or []],
        )
