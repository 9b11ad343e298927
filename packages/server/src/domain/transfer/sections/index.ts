import type { Section } from '../section.js';
import { brainSection } from './brain.js';
import { edgeSection } from './edges.js';
import { knowledgeEntrySection, knowledgeSourceSection } from './knowledge.js';
import { memorySection } from './memories.js';
import { snapshotSection } from './snapshots.js';
import { tombstoneSection } from './tombstones.js';

/**
 * Every kind of record in an export file, in the order the file holds them: a record may only
 * refer to records of earlier sections. (Crystallize runs and their captures are not exported:
 * they are a run's history, and its snapshots carry the run's id as their source_id.)
 */
export const SECTIONS: readonly Section[] = [
  brainSection,
  snapshotSection,
  edgeSection,
  tombstoneSection,
  memorySection,
  knowledgeSourceSection,
  knowledgeEntrySection,
];
