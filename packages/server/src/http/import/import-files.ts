import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Domain } from '../../domain/context.js';

/** The two export formats an import takes, by their media types (design §15.3). */
export const IMPORT_MEDIA_TYPES = { 'application/x-ndjson': 'jsonl', 'application/graphml+xml': 'graphml' } as const;
export type ImportFormat = (typeof IMPORT_MEDIA_TYPES)[keyof typeof IMPORT_MEDIA_TYPES];

/** A Content-Type header's media type, lower-cased, without its parameters ('' when none). */
export const mediaTypeOf = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** An upload still arriving; one left over from a killed process is removed after this long. */
const PART_SUFFIX = '.part';
const ABANDONED_PART_MS = 60 * 60 * 1000;

/**
 * Where uploaded files wait for their job: IMPORT_DIR, or a folder of the system's temporary
 * directory named after the database, so that servers of different databases on one machine
 * never take each other's files for leftovers.
 */
export function importDir(configured: string | undefined, databaseUrl: string): string {
  if (configured !== undefined) return configured;
  const name = createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
  return join(tmpdir(), `snapgraph-imports-${name}`);
}

/**
 * A new file name for an account's upload. The account is in the name so that the clean-up
 * at start can ask that account's jobs whether the file is still wanted.
 */
export function uploadName(accountId: string, format: ImportFormat): string {
  return `${accountId}.${randomBytes(12).toString('hex')}.${format === 'graphml' ? 'graphml' : 'ndjson'}`;
}

export const partName = (name: string): string => `${name}${PART_SUFFIX}`;

/**
 * Removes what no import job will read: uploads cut off by a killed process, and files whose
 * job finished while its process was dying (a job deletes its file when it ends). Run at start,
 * in the background; a file a job still waits for is kept.
 */
export async function removeLeftoverUploads(domain: Domain, dir: string, log: FastifyBaseLogger): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // no upload ever came
  }
  const wanted = new Map<string, Promise<Set<string>>>();
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (name.endsWith(PART_SUFFIX)) {
        if (Date.now() - (await stat(path)).mtimeMs > ABANDONED_PART_MS) await rm(path, { force: true });
        continue;
      }
      const accountId = name.split('.')[0] as string;
      if (!wanted.has(accountId)) wanted.set(accountId, filesOfUnfinishedJobs(domain, accountId));
      if (!(await (wanted.get(accountId) as Promise<Set<string>>)).has(path)) await rm(path, { force: true });
    } catch (err) {
      log.warn({ err, path }, 'imports: could not clean up a leftover upload');
    }
  }
}

/** The files the account's queued and running import jobs will read. */
async function filesOfUnfinishedJobs(domain: Domain, accountId: string): Promise<Set<string>> {
  const files = new Set<string>();
  for (const status of ['queued', 'running'] as const) {
    for (let offset = 0; ; offset += 100) {
      const page = await domain.store.jobs.list(accountId, { status, kind: 'import' }, { limit: 100, offset });
      for (const job of page.rows) {
        const file = (JSON.parse(job.input) as { body?: { file?: unknown } }).body?.file;
        if (typeof file === 'string') files.add(file);
      }
      if (page.rows.length < 100) break;
    }
  }
  return files;
}
