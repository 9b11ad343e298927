"""Text in: crystallize (and its captures), specific knowledge, ingest; and the jobs they can run as."""

from __future__ import annotations

import secrets

import pytest

from snapgraph import CrystallizeResult, Snapgraph, UnprocessableError, ValidationError

NOTES = (
    "Compounding works because small daily improvements accumulate into large results over years. "
    "Always write the failing test first because it keeps the design honest and the bug fixed."
)

OTHER_NOTES = (
    "Sleep consolidates memory: a rested mind learns faster than a tired one that studies longer. "
    "Protect eight hours of sleep before an exam rather than cramming through the night."
)

BOOK = """# Spaced repetition

Spaced repetition is a learning technique where reviews are spaced out over increasing intervals.

## The method works in three steps

First, learn the card. Second, review it the next day. Third, double the interval after each success.
"""


def test_crystallize_makes_snapshots_and_keeps_its_run(client: Snapgraph, brain_id: str) -> None:
    result = client.crystallize(NOTES, brain_id=brain_id, session_id="notes-1")
    assert isinstance(result, CrystallizeResult) and result.run_id.startswith("cry_")
    assert result.count == len(result.snapshots) >= 1
    assert all(s.brain_id == brain_id for s in result.snapshots)
    assert result.usage["model"] == "builtin" and "finalCount" in result.meta
    run = client.crystallize.get_run(result.run_id)
    assert run.id == result.run_id and run.snapshot_ids == [s.id for s in result.snapshots]
    assert run.session_id == "notes-1"


def test_crystallize_as_a_job_then_wait(client: Snapgraph, brain_id: str) -> None:
    accepted = client.crystallize.text_as_job(NOTES, brain_id=brain_id)
    assert accepted.job_id.startswith("job_") and accepted.status == "queued"
    done = client.jobs.wait(accepted.job_id, poll_interval=0.1, timeout=60)
    assert done.status == "succeeded" and done.kind == "crystallize"
    made = CrystallizeResult.from_json(done.result)
    assert made.snapshots and all(s.brain_id == brain_id for s in made.snapshots)
    assert accepted.job_id in {j.id for j in client.jobs.list(kind="crystallize")}
    assert client.jobs.get(accepted.job_id).status == "succeeded"


def test_review_leaves_captures_to_accept_or_reject(client: Snapgraph, brain_id: str) -> None:
    runs = [client.crystallize.text(text, brain_id=brain_id, review=True) for text in (NOTES, OTHER_NOTES)]
    assert all(run.snapshots == [] and run.captures for run in runs)
    pending = list(client.captures.list(brain_id=brain_id, limit=1))
    assert {c.id for c in pending} == {c.id for run in runs for c in run.captures}
    first, second = pending[0], pending[1]
    accepted = client.captures.accept(first.id)
    assert accepted.name == first.snapshot["name"] and accepted.brain_id == brain_id
    assert client.captures.reject(second.id) is True
    left = {c.id for c in client.captures.list(brain_id=brain_id)}
    assert first.id not in left and second.id not in left


def test_too_short_a_text_is_refused(client: Snapgraph) -> None:
    with pytest.raises(ValidationError) as caught:
        client.crystallize("too short")
    assert isinstance(caught.value.details, dict) and caught.value.details["field"] == "text"


def test_knowledge_ingest_search_sources_entries(client: Snapgraph, brain_id: str) -> None:
    made = client.knowledge.ingest(
        title="Learning notes", source_type="book", content=BOOK, author="Ada", domain="learning", brain_id=brain_id
    )
    assert made.entries_count == len(made.entries) >= 1 and made.author == "Ada"
    found = client.knowledge.search("spaced repetition", brain_id=brain_id)
    assert found.data and found.data[0].source_id == made.source_id and 0 < found.data[0].score <= 1
    sources = list(client.knowledge.list_sources(brain_id=brain_id))
    assert [s.id for s in sources] == [made.source_id]
    source = client.knowledge.get_source(made.source_id)
    assert [e.id for e in source.entries] == [e.id for e in made.entries]
    entry = client.knowledge.update_entry(made.entries[0].id, mastery=0.75)
    assert entry.mastery == 0.75 and client.knowledge.get_entry(entry.id).mastery == 0.75
    assert client.knowledge.delete_source(made.source_id) is True
    assert list(client.knowledge.list_sources(brain_id=brain_id)) == []


def test_knowledge_ingest_as_a_job(client: Snapgraph, brain_id: str) -> None:
    title = f"Notes {secrets.token_hex(3)}"
    accepted = client.knowledge.ingest_as_job(title=title, source_type="document", content=BOOK, brain_id=brain_id)
    done = client.jobs.wait(accepted.job_id, poll_interval=0.1, timeout=60)
    assert done.result["data"]["title"] == title


def test_ingest_text_with_memories(client: Snapgraph, brain_id: str) -> None:
    text = f"{NOTES} Ada: we decided to ship on Friday."
    made = client.ingest(text, title="Field notes", source_type="article", extract_memories=True, brain_id=brain_id)
    assert made.ingestion_id.startswith("ing_") and made.title == "Field notes" and made.source_type == "article"
    assert made.snapshots and all(s.source_id == made.ingestion_id for s in made.snapshots)
    assert all(m.brain_id == brain_id for m in made.memories)
    job = client.ingest.text_as_job(text, brain_id=brain_id)
    assert client.jobs.wait(job.job_id, poll_interval=0.1, timeout=60).status == "succeeded"


def test_knowledge_without_content_is_unprocessable(client: Snapgraph) -> None:
    # Without an LLM the service cannot learn a book from its title (design §13.1): a 422 naming content.
    with pytest.raises(UnprocessableError) as caught:
        client.knowledge.ingest(title="A book I have not pasted", source_type="book")
    assert caught.value.status == 422 and caught.value.request_id
    assert isinstance(caught.value.details, dict) and caught.value.details["field"] == "content"


def test_the_same_shape_as_the_other_resources(client: Snapgraph, brain_id: str) -> None:
    run = client.crystallize.create(NOTES, brain_id=brain_id)
    assert client.crystallize.get(run.run_id).snapshot_ids == [s.id for s in run.snapshots]
    source = client.knowledge.create(title="Shape", source_type="document", content=BOOK, brain_id=brain_id)
    assert client.knowledge.get(source.source_id).title == "Shape"
    assert [s.id for s in client.knowledge.list(brain_id=brain_id)] == [source.source_id]
    assert client.knowledge.delete(source.source_id) is True
    memory = client.memories.create("Shapes alike are easier to guess", brain_id=brain_id)
    assert client.memories.get(memory.id).content == memory.content
    assert client.ingest.create(OTHER_NOTES, brain_id=brain_id).ingestion_id.startswith("ing_")
