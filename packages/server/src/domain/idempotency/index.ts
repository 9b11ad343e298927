/**
 * `Idempotency-Key` (design §3.8): a client's name for one request, so that sending it again —
 * after a timeout, a dropped connection — returns the first response instead of doing the work
 * twice. Keys are scoped to the caller's account and kept 24 hours. The HTTP side (which
 * requests, which responses, the replay) is http/plugins/idempotency.ts; this is what is kept and when.
 */
import { createHash, randomBytes } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { StoredResponse } from '../../store/job-store.js';
import type { Domain } from '../context.js';

/** How long a key and its response are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/**
 * A first request still in flight after this is taken for dead (its process stopped) and the
 * key is free again: longer than any request runs, short enough that a crash does not block a
 * retry for long.
 */
export const IN_FLIGHT_LIMIT_MS = 5 * 60_000;
export const KEY_MAX_LENGTH = 255;
/** Printable ASCII, as HTTP header values are; a UUID, a ULID or any token a client makes. */
const KEY_PATTERN = /^[\x20-\x7e]+$/;
const PURGE_EVERY_MS = 60_000;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The key of a request, checked: a 400 naming the header when it is empty, too long or not ASCII. */
export function checkIdempotencyKey(value: string | string[]): string {
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key.length === 0 || key.length > KEY_MAX_LENGTH || !KEY_PATTERN.test(key)) {
    const reason = `must be 1 to ${KEY_MAX_LENGTH} printable ASCII characters`;
    throw new AppError('BAD_REQUEST', `${IDEMPOTENCY_HEADER} ${reason}`, {
      field: IDEMPOTENCY_HEADER,
      reason,
      errors: [{ field: IDEMPOTENCY_HEADER, reason }],
    });
  }
  return key;
}

/** Routes with two names (design §12): the alias, then the name it stands for. */
const ROUTE_ALIASES: readonly [RegExp, string][] = [
  [/^\/v1\/memories\/remember(?=$|\?)/, '/v1/memories'],
  [/^(\/v1\/memories\/[^/?]+)\/promote(?=$|\?)/, '$1/crystallize'],
];

/**
 * What makes two requests the same request: method, path (either API prefix, and either name of
 * a route that has two) and query, and the body's content — parsed JSON with its keys sorted, so
 * the order of fields and the spacing do not matter, but every value does.
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  let path = url.replace(/^\/api\/v1\//, '/v1/');
  for (const [alias, route] of ROUTE_ALIASES) path = path.replace(alias, route);
  return createHash('sha256')
    .update(`${method} ${path}\n${body === undefined ? '' : stringify(body)}`)
    .digest('base64url');
}

/** A response as it is kept and replayed. */
export interface KeptResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** This request's hold on its key. */
export interface KeyHold {
  accountId: string;
  key: string;
  token: string;
}

export type Reservation = { held: KeyHold } | { replay: KeptResponse };

const conflict = (reason: string) =>
  new AppError('CONFLICT', `${IDEMPOTENCY_HEADER} ${reason}`, {
    field: IDEMPOTENCY_HEADER,
    reason,
    errors: [{ field: IDEMPOTENCY_HEADER, reason }],
  });

let lastPurge = 0;

/**
 * Holds the key for this request (it is new, or its last use expired), or gives back the first
 * response to replay. 409 CONFLICT when the key was used with another request, or when the
 * first request with it is still being answered.
 */
export async function reserveKey(
  domain: Domain,
  accountId: string,
  key: string,
  fingerprint: string,
): Promise<Reservation> {
  const now = domain.clock.now();
  const token = randomBytes(12).toString('base64url');
  const stored = await domain.store.idempotency.reserve({
    accountId,
    key,
    fingerprint,
    token,
    now: isoTime(now),
    expiredBefore: isoTime(now - IDEMPOTENCY_TTL_MS),
    abandonedBefore: isoTime(now - IN_FLIGHT_LIMIT_MS),
  });
  purgeNowAndThen(domain, now);
  if (stored === undefined) return { held: { accountId, key, token } };
  if (stored.fingerprint !== fingerprint) {
    throw conflict('was already used with another request (another method, path or body) in the last 24 hours');
  }
  return { replay: keptResponse(stored) };
}

function keptResponse(stored: StoredResponse): KeptResponse {
  if (stored.status === null) {
    throw conflict('belongs to a request that is still being answered; retry once it has been');
  }
  return {
    status: stored.status,
    headers: JSON.parse(stored.headers ?? '{}') as Record<string, string>,
    body: stored.body ?? '',
  };
}

export async function keepResponse(domain: Domain, hold: KeyHold, response: KeptResponse): Promise<void> {
  const headers = JSON.stringify(response.headers);
  await domain.store.idempotency.save(hold.accountId, hold.key, hold.token, response.status, headers, response.body);
}

/** Lets the key go: the request is worth trying again (a server error, a rate limit). */
export async function releaseKey(domain: Domain, hold: KeyHold): Promise<void> {
  await domain.store.idempotency.release(hold.accountId, hold.key, hold.token);
}

/** Expired keys are deleted lazily: at most once a minute per process, off the request's path. */
function purgeNowAndThen(domain: Domain, now: number): void {
  if (now - lastPurge < PURGE_EVERY_MS && now >= lastPurge) return;
  lastPurge = now;
  domain.store.idempotency.purge(isoTime(now - IDEMPOTENCY_TTL_MS)).catch(() => undefined);
}
