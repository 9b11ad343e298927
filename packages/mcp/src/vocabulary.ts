import { z } from 'zod';

// The service's enumerations (design §2.1 and §2.2). The service validates them too; listing them
// here lets an assistant see the choices in the tool's schema.
export const SnapshotType = z
  .enum(['Belief', 'Model', 'Rule', 'Conviction', 'Principle'])
  .describe('Belief, Model, Rule, Conviction or Principle');

export const EdgeType = z
  .enum(['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'])
  .describe(
    'supports (source backs target), contradicts, elaborates (source adds detail to target), caused_by, evolved_from (source is the newer version), related_to (non-directional)',
  );

export const SnapshotId = z.string().min(1).describe('A snapshot id (snap_…)');
export const Unit = (what: string) => z.number().min(0).max(1).describe(what);
export const Cursor = z
  .string()
  .optional()
  .describe('Omit for the first page; then pass the next_cursor of the previous answer');
export const PageSize = (fallback: number, max: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`How many to return, 1 to ${max} (default ${fallback})`);

export const BrainId = (what: string) =>
  z.string().min(1).optional().describe(`${what} (brain_…); default: the key's brain`);

export const EntryType = z
  .enum(['concept', 'framework', 'protocol', 'principle', 'technique', 'quote', 'case_study', 'definition'])
  .describe('concept, framework, protocol, principle, technique, quote, case_study or definition');

export const AutoLink = z
  .boolean()
  .optional()
  .describe('Link the new snapshots to each other and to existing ones (default true)');

export const MemoryType = z
  .enum(['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'])
  .describe('fact, decision, insight, story, framework, preference or event');
