import { isoTime } from '../../clock.js';
import { newId } from '../../ids.js';
import {
  MEMORY_TYPES,
  type Edge,
  type IngestSourceType,
  type Memory,
  type MemoryType,
  type Principal,
  type Snapshot,
} from '../../model.js';
import type { JobOutput } from '../../store/job-store.js';
import { resolveBrainId } from '../brains/index.js';
import type { Domain } from '../context.js';
import { clip, jobWrite, proposeFromText, type WorkOptions } from '../crystallize/index.js';
import { inTurnWithSameText } from '../crystallize/same-text-runs.js';
import { compute } from '../compute/index.js';
import { CandidateSearch, proposeEdgesForNew } from '../linking/index.js';
import { MEMORY_LIMITS, settleArrivals } from '../memories/index.js';
import { newSnapshot, SNAPSHOT_LIMITS } from '../snapshots/index.js';
import { mapInTurns, turnAfterRows } from '../turns.js';
import type { CalendarDate, ExtractedMemory, TextFormat } from '../extraction/index.js';

/** The most text one ingestion takes (characters); the body limit of the route allows it. */
export const INGEST_CONTENT_MAX = 1_000_000;
/** Less than this after trimming is not worth extracting from (design §13). */
export const INGEST_CONTENT_MIN = 20;
export const INGEST_TITLE_MAX = 500;

export interface IngestInput {
  content: string;
  title?: string | undefined;
  source_type?: IngestSourceType | undefined;
  tags?: string[] | undefined;
  brain_id?: string | undefined;
  extract_memories?: boolean | undefined;
  auto_link?: boolean | undefined;
  /** How to read the content (design §13.4); detected when not given. */
  format?: TextFormat | undefined;
}

export interface IngestResult {
  data: {
    ingestion_id: string;
    title: string | null;
    source_type: IngestSourceType;
    snapshots: Snapshot[];
    memories: Memory[];
    edges: Edge[];
  };
}

/**
 * POST /v1/ingest (design §13.3): text in, snapshots out (source_type the body's, source_id the
 * ingestion's `ing_` id), and with `extract_memories` the memories the text holds; linked
 * automatically unless `auto_link` is false, and all written in one transaction. The text comes
 * in the request, whatever its source type: the service never fetches a url.
 */
export async function ingest(
  domain: Domain,
  principal: Principal,
  input: IngestInput,
  options: WorkOptions = {},
): Promise<IngestResult> {
  if (options.job?.written) return withEdges(options.job.written as JobOutput<IngestResult>);
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  const content = input.content.trim();
  return inTurnWithSameText(
    brainId,
    content,
    () => ingestInto(domain, principal, brainId, content, input, options),
    options.signal,
  );
}

/** A run of ingest (above) into its brain, with the content trimmed. */
async function ingestInto(
  domain: Domain,
  principal: Principal,
  brainId: string,
  content: string,
  input: IngestInput,
  options: WorkOptions,
): Promise<IngestResult> {
  const title = input.title?.trim() || null;
  const sourceType = input.source_type ?? 'manual';
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()))];

  const search = new CandidateSearch(domain, brainId);
  const { proposals } = await proposeFromText(domain, brainId, content, { ...options, search, format: input.format });
  const now = domain.clock.now();
  const ingestionId = newId('ing', now);
  const snapshots = await mapInTurns(proposals, (p) =>
    newSnapshot(
      {
        ...p,
        tags: [...new Set([...tags, ...p.tags])].slice(0, SNAPSHOT_LIMITS.tags),
        source: sourceOf(title, p.source),
      },
      brainId,
      { source_type: sourceType, source_id: ingestionId },
      now,
    ),
  );
  const found = input.extract_memories
    ? await compute(domain, 'extractMemories', [content, input.format], options.signal)
    : [];
  const memories = await memoriesOf(found, brainId, tags, now);
  const autoEdges =
    input.auto_link === false || snapshots.length === 0 ? [] : await proposeEdgesForNew(domain, snapshots, search);
  options.signal?.throwIfAborted();
  const draft: IngestResult = {
    data: { ingestion_id: ingestionId, title, source_type: sourceType, snapshots, memories, edges: [] },
  };
  const { edges } = await domain.store.knowledge.write(principal.accountId, {
    snapshots,
    autoEdges,
    memories,
    job: jobWrite(options, draft),
  });
  domain.background?.nudge();
  // Design §6.1: the memories the text holds may restate facts the brain has, with other values.
  const settled = await settleArrivals(domain, principal.accountId, memories);
  return withEdges({ draft: { data: { ...draft.data, memories: settled } }, edges });
}

/** A snapshot's source: the title, then the heading path in a Markdown document ("Runbook > Deploy"). */
function sourceOf(title: string | null, section: string | null | undefined): string | null {
  const path = [title, section].filter((part): part is string => typeof part === 'string' && part !== '');
  return path.length === 0 ? null : (clip(path.join(' > '), SNAPSHOT_LIMITS.text) ?? null);
}

/** The answer: the draft with the automatic edges the write made. */
const withEdges = ({ draft, edges }: JobOutput<IngestResult>): IngestResult => ({ data: { ...draft.data, edges } });

/**
 * A date the text gives as a time: midnight UTC of that day. Without a year, the latest such day
 * that is not after today ("March 12" written in January is last year's).
 */
function occurredAt(date: CalendarDate, now: number): string {
  const today = new Date(now);
  const at = (year: number) => Date.UTC(year, date.month - 1, date.day);
  let year = date.year ?? today.getUTCFullYear();
  if (date.year === null && at(year) > now) year -= 1;
  const time = at(year);
  // "February 30" and the like roll over in Date.UTC: a date that is not one is no date.
  return new Date(time).getUTCDate() === date.day ? isoTime(time) : isoTime(now);
}

/** The built-in extractor's memories of the text, made valid, each once, with the body's tags; a megabyte's in turns. */
async function memoriesOf(extracted: ExtractedMemory[], brainId: string, tags: string[], now: number) {
  const at = isoTime(now);
  const seen = new Set<string>();
  const memories: Memory[] = [];
  for (const [i, found] of extracted.entries()) {
    await turnAfterRows(i);
    const text = clip(found.content, MEMORY_LIMITS.content);
    if (text === undefined || seen.has(text)) continue;
    seen.add(text);
    const ownTags = (found.tags ?? [])
      .map((t) => clip(t, SNAPSHOT_LIMITS.tag))
      .filter((t): t is string => t !== undefined && !t.endsWith('…'));
    memories.push({
      id: newId('mem', now),
      brain_id: brainId,
      content: text,
      memory_type: MEMORY_TYPES.includes(found.memory_type as MemoryType) ? (found.memory_type as MemoryType) : 'fact',
      // Who and when, as the text says them (a speaker turn, "Tom prefers …", "March 12").
      speaker: clip(found.speaker, MEMORY_LIMITS.speaker) ?? null,
      tags: [...new Set([...tags, ...ownTags])].slice(0, SNAPSHOT_LIMITS.tags),
      source_emotion: null,
      emotional_valence: null,
      emotional_intensity: null,
      occurred_at: found.occurred_on ? occurredAt(found.occurred_on, now) : at,
      session_id: null,
      promoted_to: null,
      superseded_by: null,
      superseded_at: null,
      created_at: at,
      updated_at: at,
    });
  }
  return memories;
}
