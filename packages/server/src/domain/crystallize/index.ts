import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type {
  Capture,
  CrystallizeRun,
  Edge,
  ListPage,
  Principal,
  ProposedSnapshot,
  RunMeta,
  RunUsage,
  Snapshot,
} from '../../model.js';
import type { ChatUsage } from '../../providers/index.js';
import type { JobOutput, JobWrite } from '../../store/job-store.js';
import { resolveBrainId } from '../brains/index.js';
import type { Domain } from '../context.js';
import { pageQuery, pageResult, type PageRequest } from '../cursor.js';
import { compute } from '../compute/index.js';
import type { JobRun } from '../jobs/index.js';
import type { TextFormat } from '../extraction/index.js';
import { CandidateSearch, proposeEdgesForNew } from '../linking/index.js';
import { noEdgeReason } from './edges-meta.js';
import { newSnapshot } from '../snapshots/index.js';
import { extractInsights } from './extract.js';
import { cleanProposal } from './proposal.js';
import { inTurnWithSameText } from './same-text-runs.js';
import { dropKnown, dropPending } from './synthesize.js';

export { cleanProposal, clip, type RawProposal } from './proposal.js';
export { dropKnown, mergeNearDuplicates } from './synthesize.js';

/** POST /v1/crystallize (design §11), after schema validation. */
export interface CrystallizeInput {
  text: string;
  source_type?: string | undefined;
  brain_id?: string | undefined;
  review?: boolean | undefined;
  agent_id?: string | undefined;
  session_id?: string | undefined;
  auto_link?: boolean | undefined;
  /** How to read the text (design §13.4); detected when not given. */
  format?: TextFormat | undefined;
}

/** Long work reports where it is (a job's progress) and stops when told (a job cancelled, a shutdown). */
export interface WorkOptions {
  signal?: AbortSignal | undefined;
  progress?: ((p: { phase: string; done: number; total: number }) => void) | undefined;
  /** Run as this job: the output is recorded as the job's, and a rerun answers from it (JobRun). */
  job?: JobRun | undefined;
}

/** What a run knows of its answer before its write: all but the automatic edges the write makes. */
interface CrystallizeDraft {
  result: CrystallizeResult;
  autoLink: boolean;
}

export interface CrystallizeResult {
  data: { snapshots: Snapshot[]; count: number; edges: Edge[]; captures?: Capture[] };
  usage: RunUsage;
  meta: RunMeta;
  run_id: string;
}

/**
 * Text in, snapshots out, in three phases: extract the insights (the LLM or the built-in
 * extractor), synthesize (merge near-duplicates among them, drop those the brain already holds:
 * crystallizing the same text twice creates nothing the second time), crystallize (make each a
 * valid snapshot, linked to the others and to the brain). Everything is written in one
 * transaction with the run's record; with `review`, captures are written instead of snapshots.
 */
export async function crystallize(
  domain: Domain,
  principal: Principal,
  input: CrystallizeInput,
  options: WorkOptions = {},
): Promise<CrystallizeResult> {
  if (options.job?.written) return answer(options.job.written as JobOutput<CrystallizeDraft>);
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  const text = input.text.trim();
  return inTurnWithSameText(
    brainId,
    text,
    () => crystallizeInto(domain, principal, brainId, text, input, options),
    options.signal,
  );
}

/** A run of crystallize (above) into its brain, with the text trimmed. */
async function crystallizeInto(
  domain: Domain,
  principal: Principal,
  brainId: string,
  text: string,
  input: CrystallizeInput,
  options: WorkOptions,
): Promise<CrystallizeResult> {
  // The run's own time (meta.durationMs), not the wait for a run of the same text before it.
  const started = performance.now();
  // One search of the brain per insight, for the near-duplicate check and the linker both.
  const search = new CandidateSearch(domain, brainId);
  const found = await proposeFromText(domain, brainId, text, { ...options, search, format: input.format });
  const { usage: extractUsage, counts } = found;
  // For review, what is already pending is known too.
  const final = input.review ? await dropPending(domain, brainId, found.proposals) : found.proposals;
  counts.finalCount = final.length;

  options.progress?.({ phase: 'crystallize', done: 0, total: final.length });
  const now = domain.clock.now();
  const at = isoTime(now);
  const runId = newId('cry', now);
  const sourceType = input.source_type ?? 'api';
  const usage = runUsage(domain.llm?.model, extractUsage);
  const run: CrystallizeRun = {
    id: runId,
    brain_id: brainId,
    status: input.review ? 'review' : 'succeeded',
    source_type: sourceType,
    agent_id: input.agent_id ?? null,
    session_id: input.session_id ?? null,
    snapshot_ids: [],
    capture_ids: [],
    usage,
    meta: { ...counts, durationMs: 0 },
    created_at: at,
  };

  if (input.review) {
    const captures = final.map((snapshot): Capture => ({
      id: newId('cap', now),
      run_id: runId,
      brain_id: brainId,
      snapshot,
      created_at: at,
    }));
    run.capture_ids = captures.map((c) => c.id);
    Object.assign(run.meta, { edgeCount: 0, noEdgeReason: noEdgeReason({ review: true }) });
    run.meta.durationMs = Math.round(performance.now() - started);
    const result = { data: { snapshots: [], count: 0, edges: [], captures }, usage, meta: run.meta, run_id: runId };
    const draft: CrystallizeDraft = { result, autoLink: false };
    await domain.store.knowledge.write(principal.accountId, { run, captures, job: jobWrite(options, draft) });
    options.progress?.({ phase: 'crystallize', done: final.length, total: final.length });
    return result;
  }

  const snapshots = final.map((fields) =>
    newSnapshot(fields, brainId, { source_type: sourceType, source_id: runId }, now),
  );
  const proposed =
    input.auto_link === false || snapshots.length === 0 ? [] : await proposeEdgesForNew(domain, snapshots, search);
  run.snapshot_ids = snapshots.map((s) => s.id);
  // The stored run counts the edges proposed; the store leaves out only those that an edge or a
  // tombstone made during the run forbids, and the answer (answer()) counts what it wrote.
  const autoLink = input.auto_link !== false;
  run.meta.edgeCount = proposed.length;
  const before = noEdgeReason({
    autoLink,
    snapshots: snapshots.length,
    proposed: proposed.length,
    written: proposed.length,
  });
  if (before !== undefined) run.meta.noEdgeReason = before;
  run.meta.durationMs = Math.round(performance.now() - started);
  options.signal?.throwIfAborted();
  const draft: CrystallizeDraft = {
    result: { data: { snapshots, count: snapshots.length, edges: [] }, usage, meta: run.meta, run_id: runId },
    autoLink,
  };
  const { edges } = await domain.store.knowledge.write(principal.accountId, {
    snapshots,
    autoEdges: proposed,
    run,
    job: jobWrite(options, draft),
  });
  domain.background?.nudge();
  options.progress?.({ phase: 'crystallize', done: snapshots.length, total: snapshots.length });
  return answer({ draft, edges });
}

/** A job's output write (KnowledgeWrite.job) when the work runs as a job. */
export const jobWrite = (options: WorkOptions, draft: unknown): JobWrite | undefined =>
  options.job && { id: options.job.id, owner: options.job.owner, draft };

/** A run's answer: its draft with the automatic edges its write made, and their count. */
function answer({ draft, edges }: JobOutput<CrystallizeDraft>): CrystallizeResult {
  const { result, autoLink } = draft;
  if (result.data.captures) return result;
  const meta = { ...result.meta, edgeCount: edges.length };
  const proposed = result.meta.edgeCount ?? 0;
  const after = noEdgeReason({ autoLink, snapshots: result.data.count, proposed, written: edges.length });
  if (after !== undefined) meta.noEdgeReason = after;
  return { ...result, data: { ...result.data, edges }, meta };
}

/**
 * The extract and synthesize phases, for every route that turns text into snapshots
 * (crystallize, memory promotion, ingestion): the valid, distinct insights of the text that the
 * brain does not already hold, what the extraction cost, and how many there were at each step.
 * `options.search`: the run's, to be handed on to its linker.
 */
export async function proposeFromText(
  domain: Domain,
  brainId: string,
  text: string,
  options: WorkOptions & { search?: CandidateSearch; format?: TextFormat | undefined } = {},
): Promise<{
  proposals: ProposedSnapshot[];
  usage: ChatUsage;
  counts: Pick<RunMeta, 'rawInsightCount' | 'refinedCount' | 'finalCount'>;
}> {
  // A job shows its phase from the start, not 'queued' until its first chunk is done.
  options.progress?.({ phase: 'extract', done: 0, total: 0 });
  const extraction = await extractInsights(domain, text, {
    signal: options.signal,
    onChunkDone: (done, total) => options.progress?.({ phase: 'extract', done, total }),
    format: options.format,
  });
  const raw = extraction.proposals.map(cleanProposal).filter((p): p is ProposedSnapshot => p !== undefined);
  options.progress?.({ phase: 'synthesize', done: 0, total: raw.length });
  const refined = await compute(domain, 'mergeNearDuplicates', [raw], options.signal);
  const final = await dropKnown(domain, brainId, refined, options.search);
  options.signal?.throwIfAborted();
  return {
    proposals: final,
    usage: extraction.usage,
    counts: { rawInsightCount: raw.length, refinedCount: refined.length, finalCount: final.length },
  };
}

/** The whole cost in the documented shape: the LLM's tokens are the extract phase's. */
function runUsage(model: string | undefined, extract: ChatUsage): RunUsage {
  const none = { tokensIn: 0, tokensOut: 0 };
  return {
    totalTokensIn: extract.tokensIn,
    totalTokensOut: extract.tokensOut,
    model: model ?? 'builtin',
    phases: { extract: { ...extract }, synthesize: none, crystallize: { ...none } },
    // Vectors are computed by the background queue after the write, not by the run.
    embeddingTokens: 0,
    totalTokens: extract.tokensIn + extract.tokensOut,
  };
}

export async function getRun(domain: Domain, principal: Principal, id: string): Promise<CrystallizeRun> {
  const run = await domain.store.knowledge.getRun(principal.accountId, id);
  if (!run) throw notFound('crystallize run');
  return run;
}

export async function listCaptures(
  domain: Domain,
  principal: Principal,
  query: PageRequest & { brain_id?: string | undefined },
): Promise<ListPage<Capture>> {
  const brainId = await resolveBrainId(domain, principal, query.brain_id);
  const page = await domain.store.knowledge.listPendingCaptures(brainId, pageQuery(query, 'cap'));
  return { ...pageResult(page.rows, query.limit), total: page.total };
}

/** A pending capture becomes a snapshot, as if its run had made it, linked automatically. */
export async function acceptCapture(domain: Domain, principal: Principal, id: string): Promise<Snapshot> {
  const pending = await domain.store.knowledge.getPendingCapture(principal.accountId, id);
  if (!pending) throw notFound('capture');
  const { capture } = pending;
  const now = domain.clock.now();
  const snapshot = newSnapshot(
    capture.snapshot,
    capture.brain_id,
    { source_type: pending.sourceType, source_id: capture.run_id },
    now,
  );
  const autoEdges = await proposeEdgesForNew(domain, [snapshot]);
  // The decision is written only if the capture is still pending: of two accepts, one wins.
  await domain.store.knowledge.write(principal.accountId, {
    decision: { id, status: 'accepted', snapshotId: snapshot.id, at: isoTime(now) },
    snapshots: [snapshot],
    autoEdges,
  });
  domain.background?.nudge();
  return snapshot;
}

export async function rejectCapture(domain: Domain, principal: Principal, id: string): Promise<void> {
  await domain.store.knowledge.write(principal.accountId, {
    decision: { id, status: 'rejected', snapshotId: null, at: isoTime(domain.clock.now()) },
  });
}
