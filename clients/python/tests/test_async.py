"""AsyncSnapgraph: the same resources as Snapgraph, awaited, lists walked with ``async for``."""

from __future__ import annotations

import asyncio
import json
import secrets

import pytest

from server import Key, Server
from snapgraph import AsyncSnapgraph, ImportResult, NotFoundError, RateLimitError, Snapgraph, SnapshotSearchResult


def make(server: Server, key: Key, max_retries: int = 5) -> AsyncSnapgraph:
    return AsyncSnapgraph(base_url=server.url, api_key=key.key, max_retries=max_retries)


async def test_snapshots_edges_and_search(server: Server, key: Key) -> None:
    async with make(server, key) as client:
        brain = await client.brains.create(name=f"async {secrets.token_hex(3)}")
        word = f"osprey{secrets.token_hex(3)}"
        made = await asyncio.gather(
            *(client.snapshots.create(name=f"{word} {n}", core="It dives.", brain_id=brain.id) for n in range(3))
        )
        assert (await client.snapshots.get(made[0].id)).id == made[0].id
        changed = await client.snapshots.update(made[0].id, tags=["birds"])
        assert changed.tags == ["birds"]
        found = await client.snapshots.search(word, brain_id=brain.id)
        assert found.count == 3 and isinstance(found.data[0], SnapshotSearchResult) and found.data[0].score > 0
        every = {r.id async for r in client.snapshots.search_all(word, brain_id=brain.id, limit=2)}
        assert every == {s.id for s in made}

        pages = [p async for p in client.snapshots.list(brain_id=brain.id, limit=2).pages()]
        assert [len(p.data) for p in pages] == [2, 1]
        listed = {s.id async for s in client.snapshots.list(brain_id=brain.id, limit=1)}
        assert listed == {s.id for s in made}

        edge = await client.edges.create(source_id=made[0].id, target_id=made[1].id, edge_type="supports")
        assert [e.id async for e in client.edges.list(snapshot_id=made[0].id)] == [edge.id]
        assert (await client.edges.update(edge.id, strength=0.2)).strength == 0.2
        await client.edges.delete(edge.id)
        assert await client.snapshots.delete(made[2].id) is True
        with pytest.raises(NotFoundError) as caught:
            await client.snapshots.get(made[2].id)
        assert caught.value.request_id


async def test_memories_jobs_and_export(server: Server, key: Key) -> None:
    async with make(server, key) as client:
        brain = await client.brains.create(name=f"async {secrets.token_hex(3)}")
        memory = await client.memories.add("Ada prefers tea to coffee", memory_type="preference", brain_id=brain.id)
        assert (await client.memories.get(memory.id)).memory_type == "preference"
        found = await client.memories.search("tea", brain_id=brain.id, context=2)
        assert found.data[0].id == memory.id
        assert [m.id async for m in client.memories.list(brain_id=brain.id)] == [memory.id]
        assert (await client.memories.update(memory.id, tags=["drinks"])).tags == ["drinks"]
        promoted = await client.memories.promote(memory.id)
        assert promoted.memory.promoted_to == promoted.snapshots[0].id

        job = await client.crystallize.text_as_job(
            "Compounding works because small daily improvements accumulate into large results over years.",
            brain_id=brain.id,
        )
        done = await client.jobs.wait(job.job_id, poll_interval=0.1, timeout=60)
        assert done.status == "succeeded"
        assert job.job_id in {j.id async for j in client.jobs.list(kind="crystallize")}

        lines = [line async for line in client.brains.export(brain.id)]
        assert lines[0]["format"] == "snapgraph-export" and lines[-1]["kind"] == "end"
        assert "<graphml" in await client.brains.export_graphml(brain.id)
        target = await client.brains.create(name=f"async copy {secrets.token_hex(3)}")
        text = "".join(f"{json.dumps(line)}\n" for line in lines)
        imported = await client.jobs.wait((await client.brains.import_(text, brain_id=target.id)).id, poll_interval=0.1)
        assert ImportResult.from_json(imported.result).counts["memory"] == 1
        assert [b.id async for b in client.brains.list() if b.id == target.id] == [target.id]

        knowledge = await client.knowledge.ingest(
            title="Tea",
            source_type="article",
            content="Green tea is steeped at eighty degrees for two minutes.",
            brain_id=brain.id,
        )
        assert (await client.knowledge.search("green tea", brain_id=brain.id)).data[0].source_id == knowledge.source_id
        ingested = await client.ingest("Black tea is steeped at 95 degrees for four minutes.", brain_id=brain.id)
        assert ingested.snapshots
        assert await client.memories.delete(memory.id) is True


async def test_async_429_is_a_rate_limit_error(server: Server, free_key: Key) -> None:
    async with make(server, free_key, max_retries=0) as client:
        with pytest.raises(RateLimitError) as caught:
            for _ in range(4):
                await client.knowledge.search("anything")
    assert caught.value.retry_after is not None and caught.value.retry_after >= 1


def test_both_clients_have_the_same_methods() -> None:
    sync, aio = Snapgraph(api_key="sg_x"), AsyncSnapgraph(api_key="sg_x")
    for name in ("snapshots", "edges", "brains", "memories", "crystallize", "captures", "knowledge", "ingest", "jobs"):
        sync_methods = {m for m in dir(getattr(sync, name)) if not m.startswith("_")}
        async_methods = {m for m in dir(getattr(aio, name)) if not m.startswith("_")}
        assert sync_methods == async_methods, name
