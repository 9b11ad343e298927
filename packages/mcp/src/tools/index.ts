import { registerAcceptCapture } from './accept-capture.js';
import type { RegisterTool } from './context.js';
import { registerCreateSnapshot } from './create-snapshot.js';
import { registerCrystallizeText } from './crystallize-text.js';
import { registerDeleteSnapshot } from './delete-snapshot.js';
import { registerIngestKnowledge } from './ingest-knowledge.js';
import { registerIngestText } from './ingest-text.js';
import { registerLinkSnapshots } from './link-snapshots.js';
import { registerListBrains } from './list-brains.js';
import { registerListNeighbours } from './list-neighbours.js';
import { registerOpenKnowledge } from './open-knowledge.js';
import { registerOpenMemory } from './open-memory.js';
import { registerOpenSnapshot } from './open-snapshot.js';
import { registerPromoteMemory } from './promote-memory.js';
import { registerRecall } from './recall.js';
import { registerRejectCapture } from './reject-capture.js';
import { registerRemember } from './remember.js';
import { registerReviewCaptures } from './review-captures.js';
import { registerSearchKnowledge } from './search-knowledge.js';
import { registerSearchSnapshots } from './search-snapshots.js';
import { registerSuggestLinks } from './suggest-links.js';
import { registerUnlinkSnapshots } from './unlink-snapshots.js';
import { registerUpdateSnapshot } from './update-snapshot.js';

/** Every tool the server offers, one module each: the table of contents. */
export const TOOLS: readonly RegisterTool[] = [
  registerSearchSnapshots,
  registerOpenSnapshot,
  registerCreateSnapshot,
  registerUpdateSnapshot,
  registerDeleteSnapshot,
  registerLinkSnapshots,
  registerUnlinkSnapshots,
  registerListNeighbours,
  registerSuggestLinks,
  registerListBrains,
  registerCrystallizeText,
  registerReviewCaptures,
  registerAcceptCapture,
  registerRejectCapture,
  registerIngestKnowledge,
  registerSearchKnowledge,
  registerOpenKnowledge,
  registerIngestText,
  registerRemember,
  registerRecall,
  registerOpenMemory,
  registerPromoteMemory,
];
