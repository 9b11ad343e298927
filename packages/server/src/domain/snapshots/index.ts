import { isoTime } from '../../clock.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import {
  SNAPSHOT_TEXT_FIELDS,
  type EmotionObject,
  type JsonRow,
  type ListPage,
  type Principal,
  type Snapshot,
  type SnapshotTextField,
  type SnapshotType,
} from '../../model.js';
import { SNAPSHOT_EDITABLE_FIELDS, SNAPSHOT_READ_ONLY_FIELDS } from '../../fields/snapshot.js';
import type { MaybePromise } from '../../maybe.js';
import { resolveBrainId } from '../brains/index.js';
import { pageQuery, pageResult, type PageRequest } from '../cursor.js';
import type { Domain } from '../context.js';
import { checkIdOfMissing, checkReadOnly, nextUpdatedAt, Problems } from '../validate.js';

export const SNAPSHOT_LIMITS = {
  name: 200,
  core: 10_000,
  one_liner: 500,
  text: 20_000,
  tags: 50,
  tag: 64,
  emotionBytes: 4096,
} as const;

/** Fields the service sets (declared in fields/snapshot.ts); a client may send them back on update, unchanged. */
export { SNAPSHOT_READ_ONLY_FIELDS };

export type SnapshotFields = {
  name: string;
  core: string;
  type: SnapshotType;
  emotion: EmotionObject | null;
  confidence: number;
  significance_score: number;
  tags: string[] | null;
} & Record<SnapshotTextField, string | null>;

export type SnapshotCreateInput = Partial<SnapshotFields> & { name: string; core: string; brain_id?: string };
export type SnapshotPatch = Partial<SnapshotFields> &
  Partial<Record<(typeof SNAPSHOT_READ_ONLY_FIELDS)[number], unknown>>;

const EDITABLE_FIELDS: readonly (keyof SnapshotFields)[] = SNAPSHOT_EDITABLE_FIELDS;

/**
 * The checks a JSON schema cannot express: lengths after trimming, tag clean-up and the
 * size of the emotion object. Returns the fields as they will be stored.
 */
function normalizeFields(input: Partial<SnapshotFields>): Partial<Snapshot> {
  const problems = new Problems();
  const out: Partial<Snapshot> = {};
  for (const field of EDITABLE_FIELDS) {
    if (!(field in input)) continue;
    const value = input[field];
    switch (field) {
      case 'name':
        out.name = problems.trimmed('name', value as string, 1, SNAPSHOT_LIMITS.name);
        break;
      case 'core':
        out.core = problems.trimmed('core', value as string, 1, SNAPSHOT_LIMITS.core);
        break;
      case 'tags':
        out.tags = normalizeTags(value as string[] | null, problems);
        break;
      case 'emotion':
        if (value !== null && Buffer.byteLength(JSON.stringify(value)) > SNAPSHOT_LIMITS.emotionBytes) {
          problems.add('emotion', `must be at most ${SNAPSHOT_LIMITS.emotionBytes} bytes as JSON`);
        }
        out.emotion = value as EmotionObject | null;
        break;
      default:
        (out as Record<string, unknown>)[field] = value;
    }
  }
  problems.throwIfAny();
  return out;
}

/** Tags are trimmed and de-duplicated (the first occurrence keeps its place); null means none. */
export function normalizeTags(tags: string[] | null, problems: Problems): string[] {
  if (tags === null) return [];
  const seen = new Set<string>();
  tags.forEach((tag, index) => {
    const text = problems.trimmed(`tags[${index}]`, tag, 1, SNAPSHOT_LIMITS.tag);
    seen.add(text);
  });
  return [...seen];
}

export async function createSnapshot(
  domain: Domain,
  principal: Principal,
  input: SnapshotCreateInput,
): Promise<Snapshot> {
  const fields = normalizeFields(input);
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  const snapshot = newSnapshot(
    fields as NewSnapshotFields,
    brainId,
    { source_type: 'manual', source_id: null },
    domain.clock.now(),
  );
  await domain.store.snapshots.insert(principal.accountId, snapshot);
  domain.background?.nudge();
  return snapshot;
}

/** What a new snapshot is made of: name and core, and any other fields (the rest take their defaults). */
export type NewSnapshotFields = Pick<Snapshot, 'name' | 'core'> & Partial<Omit<Snapshot, 'name' | 'core'>>;

/**
 * A snapshot with every field: those given, the defaults of design §2.1 for the rest, a new id and
 * the origin (`source_type`, `source_id`). Nothing is checked here: the fields are already valid.
 */
export function newSnapshot(
  fields: NewSnapshotFields,
  brainId: string,
  origin: Pick<Snapshot, 'source_type' | 'source_id'>,
  now: number,
): Snapshot {
  const at = isoTime(now);
  const snapshot: Snapshot = {
    id: newId('snap', now),
    brain_id: brainId,
    name: fields.name,
    core: fields.core,
    type: fields.type ?? 'Belief',
    one_liner: null,
    story: null,
    moment: null,
    emotion: fields.emotion ?? null,
    source: null,
    trigger_pattern: null,
    method: null,
    steps: null,
    filter: null,
    challenge: null,
    break_test: null,
    risks: null,
    proof: null,
    confidence: fields.confidence ?? 0.5,
    significance_score: fields.significance_score ?? 0.5,
    tags: fields.tags ?? [],
    ...origin,
    created_at: at,
    updated_at: at,
  };
  for (const field of SNAPSHOT_TEXT_FIELDS) snapshot[field] = fields[field] ?? null;
  return snapshot;
}

/** GET of one snapshot, as JSON text straight from the store: the hottest read path. */
export function getSnapshotJson(domain: Domain, principal: Principal, id: string): MaybePromise<string> {
  const reads = domain.store.capabilities.immediateReads;
  if (reads !== undefined) return foundJson(reads.getSnapshotJson(principal.accountId, id));
  return domain.store.snapshots.getJson(principal.accountId, id).then(foundJson);
}

function foundJson(json: string | undefined): string {
  if (json === undefined) throw notFound('snapshot');
  return json;
}

export interface SnapshotListQuery extends PageRequest {
  brain_id?: string | undefined;
  type?: SnapshotType | undefined;
  tag?: string | undefined;
}

export async function listSnapshots(
  domain: Domain,
  principal: Principal,
  query: SnapshotListQuery,
): Promise<ListPage<JsonRow>> {
  const page = pageQuery(query, 'snap');
  const brainId = await resolveBrainId(domain, principal, query.brain_id);
  // Stored tags are trimmed, so the filter is too, as search's is.
  const found = await domain.store.snapshots.list({ brainId, type: query.type, tag: query.tag?.trim(), ...page });
  return { ...pageResult(found.rows, query.limit), total: found.total };
}

export async function updateSnapshot(
  domain: Domain,
  principal: Principal,
  id: string,
  patch: SnapshotPatch,
): Promise<Snapshot> {
  const editable = EDITABLE_FIELDS.some((field) => field in patch);
  const fields = normalizeFields(patch);
  const now = domain.clock.now();
  const updated = await domain.store.snapshots.update(principal.accountId, id, (current) => {
    checkReadOnly(patch, current as unknown as Record<string, unknown>, SNAPSHOT_READ_ONLY_FIELDS);
    // Checked against the stored snapshot, so that a read-only field sent alone with a
    // different value is named above; equal ones alone change nothing.
    if (!editable) throw new AppError('BAD_REQUEST', 'nothing to update: send at least one field to change');
    return { ...current, ...fields, updated_at: nextUpdatedAt(current.updated_at, now) };
  });
  if (!updated) {
    checkIdOfMissing(patch, id);
    throw notFound('snapshot');
  }
  domain.background?.nudge();
  return updated;
}

export async function deleteSnapshot(domain: Domain, principal: Principal, id: string): Promise<void> {
  const at = new Date(domain.clock.now()).toISOString();
  if (!(await domain.store.snapshots.delete(principal.accountId, id, at))) throw notFound('snapshot');
}
