"""Edges and brains, and a brain as a file (export, then import), through the sync client."""

from __future__ import annotations

import json
import secrets

import pytest

from snapgraph import Brain, Edge, ImportResult, NotFoundError, Snapgraph, UnprocessableError, ValidationError


def test_edges_create_get_update_list_delete(client: Snapgraph, brain_id: str) -> None:
    a, b, c = (client.snapshots.create(name=f"Node {n}", core=f"Core {n}", brain_id=brain_id) for n in "abc")
    edge = client.edges.create(source_id=a.id, target_id=b.id, edge_type="supports", strength=0.9, label="because")
    assert isinstance(edge, Edge)
    assert (edge.source_id, edge.target_id, edge.edge_type, edge.strength, edge.label, edge.origin) == (
        a.id,
        b.id,
        "supports",
        0.9,
        "because",
        "manual",
    )
    assert client.edges.get(edge.id) == edge
    changed = client.edges.update(edge.id, edge_type="contradicts", label=None)
    assert (changed.edge_type, changed.label, changed.strength) == ("contradicts", None, 0.9)

    other = client.edges.create(source_id=c.id, target_id=a.id, edge_type="elaborates")
    assert other.strength == 0.5
    # The edge list counts in `total`; the client shows it as the page's `count`, like every list.
    pages = list(client.edges.list(brain_id=brain_id, limit=1).pages())
    assert [len(p.data) for p in pages] == [1, 1] and pages[0].count == 2
    assert {e.id for e in client.edges.list(snapshot_id=a.id)} == {edge.id, other.id}
    assert [e.id for e in client.edges.list(brain_id=brain_id, edge_type="contradicts")] == [edge.id]

    assert client.edges.delete(edge.id) is None
    with pytest.raises(NotFoundError):
        client.edges.get(edge.id)
    assert client.snapshots.get(a.id).id == a.id


def test_bad_edges_are_refused_with_the_documented_errors(client: Snapgraph, brain_id: str) -> None:
    a = client.snapshots.create(name="Here", core="In one brain.", brain_id=brain_id)
    elsewhere = client.brains.create(name=f"elsewhere {secrets.token_hex(3)}")
    b = client.snapshots.create(name="There", core="In another brain.", brain_id=elsewhere.id)
    with pytest.raises(UnprocessableError) as across:
        client.edges.create(source_id=a.id, target_id=b.id, edge_type="supports")
    assert across.value.status == 422 and across.value.code == "UNPROCESSABLE"
    assert across.value.request_id and "same brain" in across.value.message
    with pytest.raises(ValidationError) as invalid:
        client.edges.create(source_id=a.id, target_id=a.id, edge_type="supports", strength=2)
    assert invalid.value.status == 400 and invalid.value.code == "BAD_REQUEST"
    assert isinstance(invalid.value.details, dict) and invalid.value.details.get("field") == "strength"


def test_brains_create_get_update_list(client: Snapgraph) -> None:
    name = f"brain {secrets.token_hex(4)}"
    made = client.brains.create(name=name)
    assert isinstance(made, Brain) and made.name == name and made.snapshot_count == 0
    client.snapshots.create(name="Counted", core="One snapshot.", brain_id=made.id)
    assert client.brains.get(made.id).snapshot_count == 1
    renamed = client.brains.update(made.id, name=f"{name} renamed", auto_link=True)
    assert (renamed.name, renamed.auto_link) == (f"{name} renamed", True)
    every = list(client.brains.list(limit=1))
    assert made.id in {b.id for b in every}
    assert len(every) == client.brains.list().first_page().count


def test_export_then_import_into_another_brain(client: Snapgraph, brain_id: str) -> None:
    a = client.snapshots.create(name="Exported one", core="Travels in the file.", brain_id=brain_id)
    b = client.snapshots.create(name="Exported two", core="Travels too.", brain_id=brain_id)
    client.edges.create(source_id=a.id, target_id=b.id, edge_type="related_to")

    lines = list(client.brains.export(brain_id))
    assert lines[0]["format"] == "snapgraph-export" and lines[0]["brain_id"] == brain_id
    assert lines[-1]["kind"] == "end" and lines[-1]["counts"]["snapshot"] == 2
    assert {line["data"]["id"] for line in lines if line.get("kind") == "snapshot"} == {a.id, b.id}

    target = client.brains.create(name=f"imported {secrets.token_hex(3)}")
    text = "".join(f"{json.dumps(line)}\n" for line in lines)
    job = client.brains.import_(text, brain_id=target.id)
    assert job.kind == "import" and job.status in ("queued", "running", "succeeded")
    done = client.jobs.wait(job.id, poll_interval=0.1, timeout=60)
    result = ImportResult.from_json(done.result)
    assert result.brain_id == target.id and result.counts["snapshot"] == 2 and result.counts["edge"] == 1
    names = sorted(s.name for s in client.snapshots.list(brain_id=target.id))
    assert names == ["Exported one", "Exported two"]


def test_export_graphml(client: Snapgraph, brain_id: str) -> None:
    client.snapshots.create(name="In GraphML", core="A node.", brain_id=brain_id)
    document = client.brains.export_graphml(brain_id)
    assert document.lstrip().startswith("<?xml") and "<graphml" in document and "In GraphML" in document


def test_import_of_a_bad_file_fails_naming_its_lines(client: Snapgraph, brain_id: str) -> None:
    job = client.brains.import_('{"format":"snapgraph-export","version":1}\nnot json\n', brain_id=brain_id)
    with pytest.raises(ValidationError) as caught:
        client.jobs.wait(job.id, poll_interval=0.1, timeout=60)
    assert isinstance(caught.value.details, list) and caught.value.details
    assert {"line", "reason"} <= set(caught.value.details[0])
