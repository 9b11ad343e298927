import { createHash } from 'node:crypto';
import { notFound } from '../../errors.js';
import type { TableShape } from '../../store/transfer-store.js';
import type { Domain } from '../context.js';
import type { ImportSource } from './source.js';
import { referencedIds } from './references.js';
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
  options: {
    brainId?: string | undefined;
    accountId?: string | undefined;
    freshBrainId?: string | undefined;
    /** The file's brain id was just taken by another import: new ids for all (claimTarget). */
    keptTaken?: boolean;
  },
): Promise<PlannedImport> {
  // A job's runs are its own (design §15.3): the same file in another job never takes one up.
  const runOf = options.freshBrainId === undefined ? '' : `\0${options.freshBrainId}`;
  const runIdOf = (brainId: string, how: string) =>
    createHash('sha256').update(`${file.fingerprint}\0${brainId}\0${how}${runOf}`).digest('hex');
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
  // (freshBrainId) finds only its own runs: their ids are its own.
  for (const plan of options.keptTaken ? [minted] : [kept, minted]) {
    const brain = await domain.store.brains.getUnscoped(plan.brainId);
    const began = brain?.account_id === accountId ? await domain.store.transfer.checkpoint(plan.runId) : undefined;
    if (began) return plan;
  }
  return options.keptTaken || (await anyIdTaken(domain, source, file.brainId)) ? minted : kept;
}

/**
 * Creates the planned brain, when the import makes one, together with its first checkpoint, as
 * one atomic step (TransferStore.claimBrain): false when another import took its id since it
 * was found free. A run taken up again (its checkpoint there) has its brain already.
 */
export async function claimTarget(
  domain: Domain,
  plan: PlannedImport,
  brain: Record<string, unknown>,
): Promise<boolean> {
  if (!plan.keepIds && !plan.createsBrain) return true;
  const owner = (await domain.store.brains.getUnscoped(plan.brainId))?.account_id;
  if (owner === plan.accountId && (await domain.store.transfer.checkpoint(plan.runId))) return true;
  const brains = SECTIONS.find((s) => s.kind === 'brain') as Section;
  return domain.store.transfer.claimBrain(brains.toRows(brain, plan), {
    id: plan.runId,
    linesDone: 0,
    finished: false,
  });
}

/** Whether any id in the file (its brain's, its records', those they name) is already a row's on this server. */
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
    if (!section || section.kind === 'brain') continue;
    // The ids its references name too: the check (validate.ts) found each among the file's ids by
    // a hash, and a reference kept as it is must never name a row of this server (issue 46).
    const named: [Section, string][] = (section.references ?? []).flatMap((reference) =>
      referencedIds(record?.data as Record<string, unknown>, reference).map((id): [Section, string] => [
        sectionOf.get(reference.kind) as Section,
        id,
      ]),
    );
    const id = record?.data?.id;
    if (typeof id === 'string' && 'id' in section.shape.columns) named.push([section, id]);
    for (const [of, taken] of named) {
      const ids = pending.get(of.shape) ?? [];
      ids.push(taken);
      pending.set(of.shape, ids);
      if (ids.length >= IDS_PER_LOOKUP && (await lookUp(of.shape))) return true;
    }
  }
  for (const shape of pending.keys()) if (await lookUp(shape)) return true;
  return false;
}
