import { hash, randomBytes } from 'node:crypto';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { isoTime } from '../../clock.js';
import type { ApiKeyRecord, Plan, Principal } from '../../model.js';
import type { Domain } from '../context.js';
import type { KeyProvisioning } from '../../store/store.js';
import type { MaybePromise } from '../../maybe.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_RANDOM_CHARS = 40; // ~238 bits
const KEY_PATTERN = /^sg_[A-Za-z0-9]{32,128}$/;
const PREFIX_LENGTH = 11; // "sg_" and the first 8 random characters: enough to tell keys apart

export function generateApiKey(): string {
  // Rejection sampling keeps every base62 character equally likely.
  let out = 'sg_';
  while (out.length < 3 + KEY_RANDOM_CHARS) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < 3 + KEY_RANDOM_CHARS) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  // The one-shot form: several times faster than createHash() for a string this short.
  return hash('sha256', key, 'hex');
}

export interface NewKeyOptions {
  plan: Plan;
  /** Give the key this existing brain (and its account); without it a new account and brain are made. */
  brainId?: string | undefined;
  rpm?: number | undefined;
  burst?: number | undefined;
}

export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
}

/** Issues a key. The key itself is returned once, here; only its hash is stored. */
export async function issueApiKey(domain: Domain, options: NewKeyOptions): Promise<IssuedKey> {
  const hasCustomLimits = options.rpm !== undefined || options.burst !== undefined;
  if (hasCustomLimits && options.plan !== 'enterprise') {
    throw new AppError('BAD_REQUEST', '--rpm and --burst apply to enterprise keys only');
  }
  const now = domain.clock.now();
  const createdAt = isoTime(now);
  const provisioning: Omit<KeyProvisioning, 'key'> = {};
  let accountId: string;
  let brainId: string;
  if (options.brainId !== undefined) {
    const brain = await domain.store.brains.getUnscoped(options.brainId);
    if (!brain) throw notFound('brain');
    accountId = brain.account_id;
    brainId = brain.id;
  } else {
    accountId = newId('acct', now);
    brainId = newId('brain', now);
    provisioning.account = { id: accountId, created_at: createdAt };
    provisioning.brain = {
      id: brainId,
      account_id: accountId,
      name: 'Default brain',
      auto_link: false,
      created_at: createdAt,
      updated_at: createdAt,
    };
  }
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('key', now),
    account_id: accountId,
    brain_id: brainId,
    key_hash: hashApiKey(key),
    prefix: key.slice(0, PREFIX_LENGTH),
    plan: options.plan,
    rpm: options.rpm ?? null,
    burst: options.burst ?? null,
    created_at: createdAt,
    revoked_at: null,
  };
  await domain.store.keys.provision({ ...provisioning, key: record });
  return { key, record };
}

export async function revokeApiKey(domain: Domain, keyId: string): Promise<ApiKeyRecord> {
  const revokedAt = isoTime(domain.clock.now());
  const updated = await domain.store.keys.update(keyId, (current) => ({
    ...current,
    revoked_at: current.revoked_at ?? revokedAt,
  }));
  if (!updated) throw notFound('key');
  return updated;
}

const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);

/** The caller a stored key stands for, or a 401 when there is none or it was revoked. */
export function principalOf(record: ApiKeyRecord | undefined): Principal {
  if (!record) throw unauthorized('invalid API key');
  if (record.revoked_at !== null) throw unauthorized('API key has been revoked');
  return {
    keyId: record.id,
    accountId: record.account_id,
    defaultBrainId: record.brain_id,
    plan: record.plan,
    rpm: record.rpm,
    burst: record.burst,
  };
}

/**
 * The stored hash of the key an `Authorization` header carries, or throws a 401 when the header
 * cannot carry one of our keys (refused without a database lookup).
 */
export function keyHashOfHeader(header: string | undefined): string {
  if (header === undefined || header === '') {
    throw unauthorized('missing API key: send the header Authorization: Bearer <key>');
  }
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  const key = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme.toLowerCase() !== 'bearer' || key === '') {
    throw unauthorized('malformed Authorization header: expected Bearer <key>');
  }
  if (!KEY_PATTERN.test(key)) throw unauthorized('invalid API key');
  return hashApiKey(key);
}

/**
 * Resolves an `Authorization` header to the caller, or throws (or rejects with) a 401 —
 * synchronously when the store can answer synchronously.
 */
export function authenticate(domain: Domain, header: string | undefined): MaybePromise<Principal> {
  const keyHash = keyHashOfHeader(header);
  const known = domain.store.keys.findByHashNow(keyHash);
  if (known !== undefined) return principalOf(known);
  return domain.store.keys.findByHash(keyHash).then(principalOf);
}

export interface KeyLimitsChange {
  plan?: Plan | undefined;
  rpm?: number | undefined;
  burst?: number | undefined;
}

/** Changes a key's plan or its enterprise limits; takes effect on the key's next request. */
export async function updateApiKeyLimits(
  domain: Domain,
  keyId: string,
  change: KeyLimitsChange,
): Promise<ApiKeyRecord> {
  if (change.plan === undefined && change.rpm === undefined && change.burst === undefined) {
    throw new AppError('BAD_REQUEST', 'nothing to update: give --plan, --rpm or --burst');
  }
  const updated = await domain.store.keys.update(keyId, (current) => {
    const plan = change.plan ?? current.plan;
    const custom = plan === 'enterprise';
    if (!custom && (change.rpm !== undefined || change.burst !== undefined)) {
      throw new AppError('BAD_REQUEST', '--rpm and --burst apply to enterprise keys only');
    }
    return {
      ...current,
      plan,
      rpm: custom ? (change.rpm ?? current.rpm) : null,
      burst: custom ? (change.burst ?? current.burst) : null,
    };
  });
  if (!updated) throw notFound('key');
  return updated;
}
