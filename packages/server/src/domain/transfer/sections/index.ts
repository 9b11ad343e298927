import type { Section } from '../section.js';
import { brainSection } from './brain.js';
import { edgeSection } from './edges.js';
import { snapshotSection } from './snapshots.js';
import { tombstoneSection } from './tombstones.js';

/**
 * Every kind of record in an export file, in the order the file holds them: a record may only
 * refer to records of earlier sections. Memories and knowledge sources and entries are sections
 * to add here (after tombstones) as their tables arrive.
 */
export const SECTIONS: readonly Section[] = [brainSection, snapshotSection, edgeSection, tombstoneSection];
