import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { IMPORT_MEDIA_TYPES, mediaTypeOf, partName, uploadName, type ImportFormat } from './import-files.js';

/** An export file received: on disk, never in memory (design §15.3). */
export interface UploadedFile {
  path: string;
  format: ImportFormat;
  bytes: number;
  /** Set once a job owns the file (and will remove it); any other file is removed with the response. */
  queued?: boolean;
  /** What Idempotency-Key compares: the same file sent again is the same request. */
  toJSON(): { format: ImportFormat; bytes: number; sha256: string };
}

/**
 * Bodies of the import's two media types are streamed to a file in `dir` as they arrive, up to
 * `maxBytes` (past it: 413, and the part written is removed). Registered in the import route's
 * own scope: every other route still answers 415 to these types.
 */
export function registerUploadBody(scope: FastifyInstance, dir: string, maxBytes: number): void {
  // A file no job took — the query failed validation, an Idempotency-Key replayed the first
  // answer — is removed as soon as the request is answered.
  scope.addHook('onResponse', async (request) => {
    const upload = request.body as Partial<UploadedFile> | undefined;
    if (typeof upload?.path === 'string' && upload.queued !== true) await rm(upload.path, { force: true });
  });
  scope.addContentTypeParser(Object.keys(IMPORT_MEDIA_TYPES), (request, payload, done) => {
    receive(request, payload, dir, maxBytes).then(
      (file) => done(null, file),
      (err: Error) => done(err, undefined),
    );
  });
}

async function receive(
  request: FastifyRequest,
  payload: IncomingMessage,
  dir: string,
  maxBytes: number,
): Promise<UploadedFile> {
  const format = IMPORT_MEDIA_TYPES[mediaTypeOf(request.headers['content-type']) as keyof typeof IMPORT_MEDIA_TYPES];
  const name = uploadName(request.principal.accountId, format);
  const path = join(dir, name);
  const part = join(dir, partName(name));
  await mkdir(dir, { recursive: true });
  const hash = createHash('sha256');
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) return callback(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await copy(payload, measure, part);
    // Renamed only once whole: a file under its final name is never a cut-off upload.
    await rename(part, path);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  const sha256 = hash.digest('hex');
  return { path, format, bytes, toJSON: () => ({ format, bytes, sha256 }) };
}

/**
 * The body through `measure` into the file. Not stream.pipeline: on an error it destroys the
 * request, and with it the connection the 413 must go back on; here the rest of a refused body
 * is read and dropped instead.
 */
function copy(payload: IncomingMessage, measure: Transform, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path, { flags: 'wx' });
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      payload.unpipe(measure);
      payload.resume();
      out.destroy();
      reject(err);
    };
    payload.on('error', fail);
    payload.on('aborted', () => fail(new Error('the upload was cut off')));
    measure.on('error', fail);
    out.on('error', fail);
    out.on('finish', () => {
      if (!failed) resolve();
    });
    payload.pipe(measure).pipe(out);
  });
}
