import { isoTime } from '../../clock.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type {
  Edge,
  EntryType,
  KnowledgeEntry,
  KnowledgeSource,
  KnowledgeSourceType,
  ListPage,
  Principal,
  ProposedSnapshot,
  Snapshot,
  SnapshotType,
} from '../../model.js';
import type { JobOutput } from '../../store/job-store.js';
import { resolveBrainId } from '../brains/index.js';
import type { Domain } from '../context.js';
import { compute } from '../compute/index.js';
import { clip, dropKnown, jobWrite, type WorkOptions } from '../crystallize/index.js';
import { inTurnWithSameText } from '../crystallize/same-text-runs.js';
import { pageQuery, pageResult, type PageRequest } from '../cursor.js';
import type { TextFormat } from '../extraction/index.js';
import { CandidateSearch, proposeEdgesForNew } from '../linking/index.js';
import { parseQuery } from '../search/query.js';
import { scoredByText } from '../search/ranking.js';
import { newSnapshot, SNAPSHOT_LIMITS } from '../snapshots/index.js';
import { mapInTurns } from '../turns.js';
import { extractEntries, type ProposedEntry } from './extract.js';

export { ENTRY_LIMITS } from './extract.js';

/** Source types whose content the service has in the request or nowhere: the rest could be fetched, but never are. */
const CONTENT_REQUIRED: readonly KnowledgeSourceType[] = ['document', 'manual'];

const WITHOUT_LLM = 'is required without an LLM provider';

export interface KnowledgeIngestInput {
  source_type: KnowledgeSourceType;
  title: string;
  author?: string | undefined;
  url?: string | undefined;
  content?: string | undefined;
  domain?: string | undefined;
  tags?: string[] | undefined;
  brain_id?: string | undefined;
  create_snapshots?: boolean | undefined;
  auto_link?: boolean | undefined;
  /** How to read the content (design §13.4); detected when not given. */
  format?: TextFormat | undefined;
}

export interface KnowledgeIngestResult {
  data: {
    source_id: string;
    title: string;
    author: string | null;
    entries_count: number;
    entries: KnowledgeEntry[];
    snapshots: Snapshot[];
    edges: Edge[];
  };
}

/** The snapshot type an entry becomes. */
const SNAPSHOT_TYPE_OF: Record<EntryType, SnapshotType> = {
  concept: 'Model',
  framework: 'Model',
  protocol: 'Rule',
  principle: 'Principle',
  technique: 'Rule',
  quote: 'Belief',
  case_study: 'Belief',
  definition: 'Model',
};

/** The body's rule a schema cannot state: some source types need content. A 400, so checked before a job is queued. */
export function checkIngestBody(input: Pick<KnowledgeIngestInput, 'source_type' | 'content'>): void {
  if (!input.content?.trim() && CONTENT_REQUIRED.includes(input.source_type)) {
    throw validationError([{ field: 'content', reason: `is required for source_type "${input.source_type}"` }]);
  }
}

/**
 * A 422 when the work cannot be done here: no content, and no LLM to learn the source from its
 * title. Known before any work starts, so an async request is refused at once too.
 */
export function checkIngestable(domain: Domain, input: Pick<KnowledgeIngestInput, 'source_type' | 'content'>): void {
  if (input.content?.trim() || domain.llm) return;
  throw new AppError(
    'UNPROCESSABLE',
    `content is required: without an LLM configured the service cannot learn a ${input.source_type} from its title, and it fetches nothing from the network`,
    { field: 'content', reason: WITHOUT_LLM, errors: [{ field: 'content', reason: WITHOUT_LLM }] },
  );
}

/**
 * POST /v1/specific-knowledge/ingest (design §13.1): a source's entries, and snapshots made from
 * them (those the brain does not already hold), linked automatically; all in one transaction.
 * The service never fetches anything: without content, only an LLM can work, from the title.
 */
export async function ingestKnowledge(
  domain: Domain,
  principal: Principal,
  input: KnowledgeIngestInput,
  options: WorkOptions = {},
): Promise<KnowledgeIngestResult> {
  if (options.job?.written) return withEdges(options.job.written as JobOutput<KnowledgeIngestResult>);
  checkIngestBody(input);
  const content = input.content?.trim() || undefined;
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  checkIngestable(domain, input);
  const title = input.title.trim();
  // Snapshots are made once when the same source is sent twice at once (same-text-runs.ts).
  return inTurnWithSameText(
    brainId,
    `${title}\n${content ?? ''}`,
    () => ingestInto(domain, principal, brainId, title, content, input, options),
    options.signal,
  );
}

/** A run of ingestKnowledge (above) into its brain, with the title and content trimmed. */
async function ingestInto(
  domain: Domain,
  principal: Principal,
  brainId: string,
  title: string,
  content: string | undefined,
  input: KnowledgeIngestInput,
  options: WorkOptions,
): Promise<KnowledgeIngestResult> {
  const author = input.author?.trim() || null;
  const domainName = input.domain?.trim() || null;
  const { entries: proposed } = await extractEntries(
    domain,
    { title, author, domain: domainName, source_type: input.source_type },
    content,
    { ...options, format: input.format },
  );

  const now = domain.clock.now();
  const at = isoTime(now);
  const sourceId = newId('src', now);
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()))];
  const entries = await mapInTurns(proposed, (e): KnowledgeEntry => ({
    id: newId('ske', now),
    brain_id: brainId,
    source_id: sourceId,
    entry_type: e.entry_type,
    title: e.title,
    content: e.content,
    domain: domainName,
    mastery: 0,
    created_at: at,
    updated_at: at,
  }));

  let snapshots: Snapshot[] = [];
  // One search of the brain per entry, for the near-duplicate check and the linker both.
  const search = new CandidateSearch(domain, brainId);
  if (input.create_snapshots !== false) {
    options.progress?.({ phase: 'synthesize', done: 0, total: entries.length });
    const fresh = await dropKnown(
      domain,
      brainId,
      await compute(
        domain,
        'mergeNearDuplicates',
        [await mapInTurns(proposed, (e) => asSnapshot(e, tags, domainName, sourceLine(title, author)))],
        options.signal,
      ),
      search,
    );
    snapshots = await mapInTurns(fresh, (fields) =>
      newSnapshot(
        { ...fields, source: fields.source ?? sourceLine(title, author) },
        brainId,
        { source_type: input.source_type, source_id: sourceId },
        now,
      ),
    );
  }
  const autoEdges =
    input.auto_link === false || snapshots.length === 0 ? [] : await proposeEdgesForNew(domain, snapshots, search);
  const source: KnowledgeSource = {
    id: sourceId,
    brain_id: brainId,
    source_type: input.source_type,
    title,
    author,
    url: input.url?.trim() || null,
    domain: domainName,
    tags,
    entries_count: entries.length,
    snapshot_ids: snapshots.map((s) => s.id),
    created_at: at,
    updated_at: at,
  };
  options.signal?.throwIfAborted();
  const draft: KnowledgeIngestResult = {
    data: { source_id: sourceId, title, author, entries_count: entries.length, entries, snapshots, edges: [] },
  };
  const { edges } = await domain.store.knowledge.write(principal.accountId, {
    source,
    entries,
    snapshots,
    autoEdges,
    job: jobWrite(options, draft),
  });
  domain.background?.nudge();
  return withEdges({ draft, edges });
}

/** The answer: the draft with the automatic edges the write made. */
const withEdges = ({ draft, edges }: JobOutput<KnowledgeIngestResult>): KnowledgeIngestResult => ({
  data: { ...draft.data, edges },
});

/** An entry as snapshot fields: its title the name, its content the core, tags from the request and domain. */
function asSnapshot(
  entry: ProposedEntry,
  tags: string[],
  domainName: string | null,
  sourceOf: string,
): ProposedSnapshot {
  // The entry's text is already valid; only its length may exceed a snapshot field's.
  const name = clip(entry.title, SNAPSHOT_LIMITS.name) as string;
  const core = clip(entry.content, SNAPSHOT_LIMITS.core) as string;
  const extra = domainName && domainName.length <= SNAPSHOT_LIMITS.tag ? [domainName.toLowerCase()] : [];
  return {
    name,
    core,
    type: SNAPSHOT_TYPE_OF[entry.entry_type],
    confidence: 0.5,
    significance_score: 0.5,
    tags: [...new Set([...tags, ...extra, entry.entry_type])].slice(0, SNAPSHOT_LIMITS.tags),
    story: entry.entry_type === 'case_study' ? entry.content.slice(0, SNAPSHOT_LIMITS.text) : null,
    // The source, and in a Markdown document the heading path the entry came from.
    source: (entry.section ? `${sourceOf} > ${entry.section}` : sourceOf).slice(0, SNAPSHOT_LIMITS.text),
  };
}

const sourceLine = (title: string, author: string | null) =>
  (author ? `${title} — ${author}` : title).slice(0, SNAPSHOT_LIMITS.text);

export interface KnowledgeSearchInput {
  query: string;
  brain_id?: string | undefined;
  domain?: string | undefined;
  entry_type?: EntryType | undefined;
  limit: number;
}

/**
 * POST /v1/specific-knowledge/search: entries ranked by full-text relevance (title above content),
 * `score` the relevance relative to the best match, scaled as snapshot search scales text (the
 * best scores RANKING.textCeiling), `similarity` its
 * 4-decimal text as in snapshot search.
 */
export async function searchKnowledge(domain: Domain, principal: Principal, input: KnowledgeSearchInput) {
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  const query = input.query.trim();
  const found = await domain.store.knowledge.searchEntries({
    brainId,
    query: parseQuery(query),
    domain: input.domain,
    entryType: input.entry_type,
    limit: input.limit,
  });
  const data = scoredByText(found.hits, (hit) => hit.entry);
  return { data, count: found.total, query };
}

export async function listSources(
  domain: Domain,
  principal: Principal,
  query: PageRequest & { brain_id?: string | undefined },
): Promise<ListPage<KnowledgeSource>> {
  const brainId = await resolveBrainId(domain, principal, query.brain_id);
  const page = await domain.store.knowledge.listSources(brainId, pageQuery(query, 'src'));
  return { ...pageResult(page.rows, query.limit), total: page.total };
}

export async function getSource(
  domain: Domain,
  principal: Principal,
  id: string,
): Promise<KnowledgeSource & { entries: KnowledgeEntry[] }> {
  const source = await domain.store.knowledge.getSource(principal.accountId, id);
  if (!source) throw notFound('knowledge source');
  return { ...source, entries: await domain.store.knowledge.entriesOf(id) };
}

/** Deletes the source and its entries; the snapshots made from it stay (they are the user's now). */
export async function deleteSource(domain: Domain, principal: Principal, id: string): Promise<void> {
  if (!(await domain.store.knowledge.deleteSource(principal.accountId, id))) throw notFound('knowledge source');
}

export { ENTRY_READ_ONLY_FIELDS, getEntry, updateEntry, type EntryPatch } from './entries.js';
