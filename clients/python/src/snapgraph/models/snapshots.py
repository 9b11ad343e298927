"""Snapshots, their search results and link suggestions (design §2, §8, §9)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ._fields import known_fields

SnapshotType = Literal["Belief", "Model", "Rule", "Conviction", "Principle"]
EdgeType = Literal["supports", "contradicts", "elaborates", "caused_by", "evolved_from", "related_to"]


@dataclass(frozen=True, kw_only=True)
class Snapshot:
    """A crystallized insight: a name, its core, and the optional fields that explain it."""

    id: str
    brain_id: str
    name: str
    core: str
    type: SnapshotType
    one_liner: str | None = None
    story: str | None = None
    moment: str | None = None
    source: str | None = None
    trigger_pattern: str | None = None
    method: str | None = None
    steps: str | None = None
    filter: str | None = None
    challenge: str | None = None
    break_test: str | None = None
    risks: str | None = None
    proof: str | None = None
    emotion: dict[str, Any] | None = None
    confidence: float = 0.5
    significance_score: float = 0.5
    tags: list[str] = field(default_factory=list)
    source_type: str = "manual"
    source_id: str | None = None
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Snapshot:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class Contradiction:
    """A snapshot that contradicts a search result, through the edge ``edge_id``."""

    snapshot_id: str
    name: str
    edge_id: str
    strength: float


@dataclass(frozen=True, kw_only=True)
class SnapshotSearchResult(Snapshot):
    """A snapshot as search ranks it: ``score`` 0–1, ``similarity`` the same as text."""

    score: float
    similarity: str = ""
    contradicted_by: list[Contradiction] = field(default_factory=list)
    # With explain=true: the parts of the score and the edges that moved it.
    explain: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SnapshotSearchResult:
        contradictions = [Contradiction(**known_fields(Contradiction, c)) for c in data.get("contradicted_by") or []]
        return cls(**known_fields(cls, data, skip=("contradicted_by",)), contradicted_by=contradictions)


@dataclass(frozen=True, kw_only=True)
class Suggestion:
    """An edge the service would make for a snapshot; accept it with ``edges.create``."""

    source_id: str
    target_id: str
    edge_type: EdgeType
    strength: float
    score: float
    reason: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Suggestion:
        return cls(**known_fields(cls, data))
