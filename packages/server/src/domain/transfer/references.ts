import type { Reference, SeenRecords } from './section.js';

/** The ids a reference field holds: none (null or missing), one, or a list. */
export function referencedIds(record: Record<string, unknown>, reference: Reference): string[] {
  const value = record[reference.field];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * Why a record's references are refused: each must name a record of the same file seen before
 * it. Only the brain of each record was checked once, and a file could then name another
 * account's knowledge source or snapshots and write into them (issue 46).
 */
export function referenceProblems(
  record: Record<string, unknown>,
  references: readonly Reference[],
  seen: SeenRecords,
): string[] {
  const problems: string[] = [];
  for (const reference of references) {
    for (const id of referencedIds(record, reference)) {
      if (!seen.has(id)) problems.push(`${reference.field} ${id} is not a ${reference.kind} of this file`);
    }
  }
  return problems;
}
