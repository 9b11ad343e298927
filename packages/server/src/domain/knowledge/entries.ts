// A knowledge source's entries, read and corrected one at a time (design §13.2).
import { AppError, notFound } from '../../errors.js';
import type { KnowledgeEntry, Principal } from '../../model.js';
import type { Domain } from '../context.js';
import { checkIdOfMissing, checkReadOnly, nextUpdatedAt, Problems } from '../validate.js';
import { ENTRY_LIMITS } from './extract.js';

export async function getEntry(domain: Domain, principal: Principal, id: string): Promise<KnowledgeEntry> {
  const entry = await domain.store.knowledge.getEntry(principal.accountId, id);
  if (!entry) throw notFound('knowledge entry');
  return entry;
}

export const ENTRY_READ_ONLY_FIELDS = [
  'id',
  'brain_id',
  'source_id',
  'entry_type',
  'created_at',
  'updated_at',
] as const;

export interface EntryPatch {
  title?: string;
  content?: string;
  domain?: string | null;
  mastery?: number;
  [readOnly: string]: unknown;
}

/** PUT …/entries/:id: title, content, domain and mastery, with the rules of snapshot updates. */
export async function updateEntry(
  domain: Domain,
  principal: Principal,
  id: string,
  patch: EntryPatch,
): Promise<KnowledgeEntry> {
  const problems = new Problems();
  const title = patch.title === undefined ? undefined : problems.trimmed('title', patch.title, 1, ENTRY_LIMITS.title);
  const content =
    patch.content === undefined ? undefined : problems.trimmed('content', patch.content, 1, ENTRY_LIMITS.content);
  problems.throwIfAny();
  const editable = ['title', 'content', 'domain', 'mastery'].some((field) => field in patch);
  const now = domain.clock.now();
  const updated = await domain.store.knowledge.updateEntry(principal.accountId, id, (current) => {
    checkReadOnly(patch, current as unknown as Record<string, unknown>, ENTRY_READ_ONLY_FIELDS);
    if (!editable) throw new AppError('BAD_REQUEST', 'nothing to update: send title, content, domain or mastery');
    return {
      ...current,
      title: title ?? current.title,
      content: content ?? current.content,
      domain: patch.domain === undefined ? current.domain : patch.domain === null ? null : patch.domain.trim() || null,
      mastery: patch.mastery ?? current.mastery,
      updated_at: nextUpdatedAt(current.updated_at, now),
    };
  });
  if (!updated) {
    checkIdOfMissing(patch, id);
    throw notFound('knowledge entry');
  }
  return updated;
}
