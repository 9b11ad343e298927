"""``/v1/specific-knowledge``: sources (books, courses, documents…), their entries, and search (design §13)."""

from __future__ import annotations

from ..models.knowledge import EntryType, KnowledgeEntry, KnowledgeIngestResult, KnowledgeSearchResult, KnowledgeSource
from ..models.pages import Page, SearchPage
from .base import Call, PagedCall, Paging, data_of, given, page_of, paged, path

from .fields import OMIT, Omit, changes




def ingest(
    *,
    title: str,
    source_type: str,
    content: str | None = None,
    author: str | None = None,
    url: str | None = None,
    domain: str | None = None,
    tags: list[str] | None = None,
    brain_id: str | None = None,
    create_snapshots: bool | None = None,
    auto_link: bool | None = None,
    idempotency_key: str | None = None,
) -> Call[KnowledgeIngestResult]:
    """Ingests a source into entries, and snapshots made from them unless ``create_snapshots=False``."""
    body = given(
        title=title,
        source_type=source_type,
        content=content,
        author=author,
        url=url,
        domain=domain,
        tags=tags,
        brain_id=brain_id,
        create_snapshots=create_snapshots,
        auto_link=auto_link,
    )
    return Call(
        "POST",
        "/v1/specific-knowledge/ingest",
        data_of(KnowledgeIngestResult.from_json),
        json=body,
        idempotency_key=idempotency_key,
    )


def search(
    query: str,
    *,
    brain_id: str | None = None,
    domain: str | None = None,
    entry_type: EntryType | None = None,
    limit: int | None = None,
) -> Call[SearchPage[KnowledgeSearchResult]]:
    """Entries matching ``query``, best first."""
    body = given(query=query, brain_id=brain_id, domain=domain, entry_type=entry_type, limit=limit)
    return Call(
        "POST",
        "/v1/specific-knowledge/search",
        lambda b: SearchPage(
            data=[KnowledgeSearchResult.from_json(e) for e in b["data"]], count=b["count"], query=b.get("query", "")
        ),
        json=body,
    )


def list_sources(
    *, brain_id: str | None = None, limit: int | None = None, cursor: str | None = None
) -> PagedCall[KnowledgeSource]:
    """Every source, newest first, walked by cursor."""

    def page(at: Paging) -> Call[Page[KnowledgeSource]]:
        query = given(brain_id=brain_id, limit=limit, cursor=at.cursor)
        return Call("GET", "/v1/specific-knowledge/sources", page_of(KnowledgeSource.from_json), query=query)

    return paged(page, "cursor", cursor, None)


def get_source(id: str) -> Call[KnowledgeSource]:
    """A source with its entries, in the order they were extracted."""
    return Call("GET", path("/v1/specific-knowledge/sources/{}", id), data_of(KnowledgeSource.from_json))


def delete_source(id: str) -> Call[bool]:
    """Deletes the source and its entries; snapshots made from it stay."""
    return Call(
        "DELETE", path("/v1/specific-knowledge/sources/{}", id), lambda body: bool(body["data"]["success"])
    )


def get_entry(id: str) -> Call[KnowledgeEntry]:
    return Call("GET", path("/v1/specific-knowledge/entries/{}", id), data_of(KnowledgeEntry.from_json))


def update_entry(
    id: str,
    *,
    title: str | Omit = OMIT,
    content: str | Omit = OMIT,
    domain: str | None | Omit = OMIT,
    mastery: float | Omit = OMIT,
) -> Call[KnowledgeEntry]:
    """Changes ``mastery`` (0 to 1), ``title``, ``content`` or ``domain``."""
    body = changes(title=title, content=content, domain=domain, mastery=mastery)
    return Call("PUT", path("/v1/specific-knowledge/entries/{}", id), data_of(KnowledgeEntry.from_json), json=body)
