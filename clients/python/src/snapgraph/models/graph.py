"""Edges and brains: the links between snapshots and the containers that hold them (design §2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ._fields import known_fields
from .snapshots import EdgeType


@dataclass(frozen=True, kw_only=True)
class Edge:
    """A typed, weighted, directed link between two snapshots of one brain."""

    id: str
    brain_id: str
    source_id: str
    target_id: str
    edge_type: EdgeType
    strength: float
    label: str | None = None
    origin: Literal["manual", "auto"] = "manual"
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Edge:
        return cls(**known_fields(cls, data))


@dataclass(frozen=True, kw_only=True)
class Brain:
    """A brain with its counts and the automatic work still waiting (``pending_work``)."""

    id: str
    account_id: str
    name: str
    auto_link: bool = False
    snapshot_count: int = 0
    edge_count: int = 0
    memory_count: int | None = None
    pending_work: dict[str, int] = field(default_factory=dict)
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Brain:
        return cls(**known_fields(cls, data))
