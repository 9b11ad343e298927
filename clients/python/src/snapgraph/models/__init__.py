"""The resources of the API as dataclasses, read from the service's JSON."""

from .crystallize import Capture, CrystallizeResult, CrystallizeRun
from .graph import Brain, Edge
from .jobs import ImportResult, Job, JobAccepted, JobStatus
from .knowledge import (
    EntryType,
    IngestResult,
    KnowledgeEntry,
    KnowledgeIngestResult,
    KnowledgeSearchResult,
    KnowledgeSource,
)
from .memories import Memory, MemoryPromoted, MemorySearchResult, MemoryType
from .pages import Page, SearchPage
from .snapshots import Contradiction, EdgeType, Snapshot, SnapshotSearchResult, SnapshotType, Suggestion

__all__ = [
    "Brain",
    "Capture",
    "Contradiction",
    "CrystallizeResult",
    "CrystallizeRun",
    "Edge",
    "EdgeType",
    "EntryType",
    "ImportResult",
    "IngestResult",
    "Job",
    "JobAccepted",
    "JobStatus",
    "KnowledgeEntry",
    "KnowledgeIngestResult",
    "KnowledgeSearchResult",
    "KnowledgeSource",
    "Memory",
    "MemoryPromoted",
    "MemorySearchResult",
    "MemoryType",
    "Page",
    "SearchPage",
    "Snapshot",
    "SnapshotSearchResult",
    "SnapshotType",
    "Suggestion",
]
