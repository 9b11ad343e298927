"""Snapshots through the sync client, against the real server."""

from __future__ import annotations

import secrets

import pytest

from snapgraph import ConflictError, NotFoundError, Snapgraph, Snapshot, SnapshotSearchResult


def test_create_get_update_delete(client: Snapgraph, brain_id: str) -> None:
    made = client.snapshots.create(
        name="Compounding",
        core="Small gains add up over time.",
        type="Principle",
        story="Reading ten pages a day.",
        tags=["habits"],
        brain_id=brain_id,
    )
    assert isinstance(made, Snapshot)
    assert made.id.startswith("snap_") and made.brain_id == brain_id
    assert (made.type, made.story, made.tags) == ("Principle", "Reading ten pages a day.", ["habits"])
    assert made.confidence == 0.5

    assert client.snapshots.get(made.id) == made

    # Only what is given changes; None clears an optional field.
    changed = client.snapshots.update(made.id, confidence=0.9, story=None)
    assert (changed.confidence, changed.story, changed.name, changed.tags) == (0.9, None, "Compounding", ["habits"])

    assert client.snapshots.delete(made.id) is True
    with pytest.raises(NotFoundError) as caught:
        client.snapshots.get(made.id)
    assert caught.value.status == 404 and caught.value.code == "NOT_FOUND"


def test_list_walks_every_page_by_cursor(client: Snapgraph, brain_id: str) -> None:
    made = {client.snapshots.create(name=f"Item {n}", core=f"Core {n}", brain_id=brain_id).id for n in range(5)}
    pages = list(client.snapshots.list(brain_id=brain_id, limit=2).pages())
    assert [len(p.data) for p in pages] == [2, 2, 1]
    assert all(p.count == 5 for p in pages)
    assert pages[0].next_cursor and pages[-1].next_cursor is None
    seen = [s.id for s in client.snapshots.list(brain_id=brain_id, limit=2)]
    assert len(seen) == 5 and set(seen) == made
    first = client.snapshots.list(brain_id=brain_id, limit=3).first_page()
    assert len(first.data) == 3 and first.count == 5
    # Resuming from a page's cursor gives the rest, without repeats.
    rest = [s.id for s in client.snapshots.list(brain_id=brain_id, limit=3, cursor=first.next_cursor)]
    assert rest == seen[3:]


def test_search_finds_it_with_id_and_score(client: Snapgraph, brain_id: str) -> None:
    word = f"zebrafinch{secrets.token_hex(3)}"
    made = client.snapshots.create(name=f"The {word} sings at dawn", core="Birdsong is learned.", brain_id=brain_id)
    client.snapshots.create(name="Unrelated", core="Nothing to see.", brain_id=brain_id)
    found = client.snapshots.search(word, brain_id=brain_id)
    assert found.count == 1 and found.query == word
    assert isinstance(found.data[0], SnapshotSearchResult)
    assert found.data[0].id == made.id and 0 < found.data[0].score <= 1
    assert found.data[0].contradicted_by == []
    explained = client.snapshots.search(word, brain_id=brain_id, explain=True)
    assert explained.data[0].explain is not None and "text" in explained.data[0].explain


def test_search_all_pages_by_offset(client: Snapgraph, brain_id: str) -> None:
    word = f"heron{secrets.token_hex(3)}"
    made = {client.snapshots.create(name=f"{word} {n}", core=f"{word} wades.", brain_id=brain_id).id for n in range(5)}
    pager = client.snapshots.search_all(word, brain_id=brain_id, limit=2)
    assert [len(p.data) for p in pager.pages()] == [2, 2, 1]
    assert {r.id for r in pager} == made


def test_suggestions_name_a_related_snapshot(client: Snapgraph, brain_id: str) -> None:
    a = client.snapshots.create(name="Arctic fox winter coat", core="It turns white in winter.", brain_id=brain_id)
    b = client.snapshots.create(name="Arctic fox winter hunting", core="It hunts under snow.", brain_id=brain_id)
    suggested = client.snapshots.suggestions(a.id)
    assert [s.target_id for s in suggested] == [b.id]
    assert suggested[0].source_id == a.id and suggested[0].reason


def test_idempotency_key_creates_once(client: Snapgraph, brain_id: str) -> None:
    key = f"py-{secrets.token_hex(8)}"
    first = client.snapshots.create(name="Once", core="Created once.", brain_id=brain_id, idempotency_key=key)
    again = client.snapshots.create(name="Once", core="Created once.", brain_id=brain_id, idempotency_key=key)
    assert again.id == first.id
    assert [s.id for s in client.snapshots.list(brain_id=brain_id)] == [first.id]
    with pytest.raises(ConflictError) as caught:
        client.snapshots.create(name="Other", core="Another body.", brain_id=brain_id, idempotency_key=key)
    assert caught.value.status == 409 and caught.value.request_id
