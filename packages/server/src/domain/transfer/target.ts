import { createHash } from 'node:crypto';
import { notFound } from '../../errors.js';
import type { TableShape } from '../../store/transfer-store.js';
import type { Domain } from '../context.js';
import type { ImportSource } from './source.js';
import { remappedId } from './remap.js';
import type { ImportTarget, Section } from './section.js';
import { SECTIONS } from './sections/index.js';

/** Ids looked up at once while looking for any that is taken. */
const IDS_PER_LOOKUP = 500;

export interface PlannedImport extends ImportTarget {
  /** Names this file's import into this target: its checkpoint's id. */
  runId: string;
}

/**
 * Where a checked file's records go, and under which ids (design §15.3, §15):
 * - into an existing brain (`intoBrainId`, the CLI's --brain): new ids derived from that brain;
 * - otherwise into a new brain of the account: the file's own ids when every one of them is
 *   free on this server, or new ids for all of them (the brain's too) when any is taken, in any
 *   account — so that no record ever refers to a row of another account, and none is silently
 *   skipped while the counts say it was written.
 * The new ids are derived from the account and the file's fingerprint, and an import already
 * begun (its checkpoint) is taken up again: running an import twice, or after a crash, makes no
 * copy — except for a job (`freshBrainId`), whose new ids are its own, so the same file imported
 * by a second job is a second brain. `accountId`: the caller's (HTTP), else the account the file
 * names (the CLI, run by the operator).
 */
export async function planImport(
  domain: Domain,
  source: ImportSource,
  file: { brainId: string; brain: Record<string, unknown>; fingerprint: string },
  options: { brainId?: string | undefined; accountId?: string | undefined; freshBrainId?: string | undefined },
): Promise<PlannedImport> {
  const runIdOf = (brainId: string, how: string) =>
    createHash('sha256').update(`${file.fingerprint}\0${brainId}\0${how}`).digest('hex');
  const { brainId: intoBrainId, accountId: callerAccount } = options;
  // Also when it is the file's own brain: exported and imported back with `--brain`, its records
  // join it a second time under new ids, as into any other brain.
  if (intoBrainId !== undefined) {
    const existing = await domain.store.brains.getUnscoped(intoBrainId);
    if (!existing || (callerAccount !== undefined && existing.account_id !== callerAccount)) throw notFound('brain');
    return {
      brainId: intoBrainId,
      accountId: existing.account_id,
      keepIds: false,
      mapId: (id) => remappedId(id, intoBrainId),
      runId: runIdOf(intoBrainId, 'remapped'),
    };
  }
  const accountId = callerAccount ?? (file.brain.account_id as string);
  const kept: PlannedImport = {
    brainId: file.brainId,
    accountId,
    keepIds: true,
    mapId: (id) => id,
    runId: runIdOf(file.brainId, 'kept'),
  };
  const mintedBrainId = options.freshBrainId ?? remappedId(file.brainId, `import\0${accountId}\0${file.fingerprint}`);
  const minted: PlannedImport = {
    brainId: mintedBrainId,
    accountId,
    keepIds: false,
    createsBrain: true,
    mapId: (id) => (id === file.brainId ? mintedBrainId : remappedId(id, mintedBrainId)),
    runId: runIdOf(mintedBrainId, 'minted'),
  };
  // An import of this file begun before (finished, or cut short) is taken up where it is. A job
  // (freshBrainId) takes up only its own run: one cut short, not another job's finished one.
  for (const plan of [kept, minted]) {
    const brain = await domain.store.brains.getUnscoped(plan.brainId);
    const began = brain?.account_id === accountId ? await domain.store.transfer.checkpoint(plan.runId) : undefined;
    if (began && (options.freshBrainId === undefined || plan === minted || !began.finished)) return plan;
  }
  return (await anyIdTaken(domain, source, file.brainId)) ? minted : kept;
}

/** Whether any id in the file (its brain's, its records') is already a row's on this server. */
async function anyIdTaken(domain: Domain, source: ImportSource, brainId: string): Promise<boolean> {
  const brains = SECTIONS.find((s) => s.kind === 'brain') as Section;
  if ((await domain.store.transfer.takenIds(brains.shape, [brainId])).length > 0) return true;
  const sectionOf = new Map(SECTIONS.map((section) => [section.kind, section]));
  const pending = new Map<TableShape, string[]>();
  const lookUp = async (shape: TableShape) => {
    const ids = pending.get(shape) ?? [];
    pending.set(shape, []);
    return (await domain.store.transfer.takenIds(shape, ids)).length > 0;
  };
  for await (const item of source.lines()) {
    if (item.error !== undefined) continue;
    const record = item.value as { kind?: unknown; data?: { id?: unknown } } | null;
    const section = typeof record?.kind === 'string' ? sectionOf.get(record.kind) : undefined;
    const id = record?.data?.id;
    if (!section || section.kind === 'brain' || typeof id !== 'string' || !('id' in section.shape.columns)) continue;
    const ids = pending.get(section.shape) ?? [];
    ids.push(id);
    pending.set(section.shape, ids);
    if (ids.length >= IDS_PER_LOOKUP && (await lookUp(section.shape))) return true;
  }
  for (const shape of pending.keys()) if (await lookUp(shape)) return true;
  return false;
}
