import { parseArgs } from 'node:util';
import { issueApiKey, revokeApiKey, updateApiKeyLimits } from '../../domain/keys/index.js';
import { PLANS, type Plan } from '../../model.js';
import { ENTERPRISE_DEFAULT_LIMITS } from '../../ratelimit/policy.js';
import { positiveInteger, table, UsageError, type CliIo } from '../io.js';
import { withDomain } from '../with-domain.js';
import { findCliBrain } from '../brain-scope.js';

function parsePlan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(value)) throw new UsageError(`--plan must be one of: ${PLANS.join(', ')}`);
  return value as Plan;
}

export async function keysCommand(args: string[], io: CliIo): Promise<void> {
  const [action, ...rest] = args;
  switch (action) {
    case 'create':
      return createKey(rest, io);
    case 'list':
      return listKeys(rest, io);
    case 'revoke':
      return revokeKey(rest, io);
    case 'update':
      return updateKey(rest, io);
    default:
      throw new UsageError('usage: snapgraph keys create|list|revoke|update');
  }
}

async function createKey(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      plan: { type: 'string' },
      brain: { type: 'string' },
      rpm: { type: 'string' },
      burst: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  // Without --plan the key is its owner's, on their own machine (design §16.2): an enterprise key
  // whose limits are written on it, so `keys list` shows them and no hosted plan is ever met.
  // Free and Pro stay for keys handed to others, asked for by name.
  const plan = parsePlan(values.plan) ?? 'enterprise';
  const ownersDefault = values.plan === undefined;
  const rpm = positiveInteger('--rpm', values.rpm) ?? (ownersDefault ? ENTERPRISE_DEFAULT_LIMITS.perMinute : undefined);
  const burst =
    positiveInteger('--burst', values.burst) ?? (ownersDefault ? ENTERPRISE_DEFAULT_LIMITS.perSecond : undefined);
  const { key, record } = await withDomain(async (domain) => {
    const brainId = values.brain === undefined ? undefined : (await findCliBrain(domain, values.brain)).id;
    return issueApiKey(domain, { plan, brainId, rpm, burst });
  });
  const summary = {
    key,
    key_id: record.id,
    account_id: record.account_id,
    brain_id: record.brain_id,
    plan: record.plan,
    rpm: record.rpm,
    burst: record.burst,
    prefix: record.prefix,
    created_at: record.created_at,
  };
  if (values.json) {
    io.out(JSON.stringify(summary));
    return;
  }
  io.out('API key created. It is shown only this once: store it now.');
  io.out('');
  io.out(`  ${key}`);
  io.out('');
  io.out(
    `key_id:     ${record.id}\naccount_id: ${record.account_id}\nbrain_id:   ${record.brain_id}\nplan:       ${record.plan}`,
  );
  if (record.rpm !== null || record.burst !== null)
    io.out(`limits:     ${record.rpm ?? '-'} req/min, ${record.burst ?? '-'} req/s`);
}

async function listKeys(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { account: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const keys = await withDomain((domain) => domain.store.keys.list(values.account));
  // Only the prefix is ever shown: the key itself was never stored.
  const rows = keys.map(shownKey);
  if (values.json) {
    io.out(JSON.stringify(rows));
    return;
  }
  if (rows.length === 0) {
    io.out('No API keys. Create one with: snapgraph keys create');
    return;
  }
  io.out(table(rows, ['id', 'prefix', 'plan', 'rpm', 'burst', 'account_id', 'brain_id', 'created_at', 'revoked_at']));
}

async function revokeKey(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [keyId] = positionals;
  if (!keyId) throw new UsageError('usage: snapgraph keys revoke <key_id> [--json]');
  const record = await withDomain((domain) => revokeApiKey(domain, keyId));
  io.out(
    values.json ? JSON.stringify(shownKey(record)) : `Revoked ${record.id} (${record.prefix}…) at ${record.revoked_at}`,
  );
}

async function updateKey(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      plan: { type: 'string' },
      rpm: { type: 'string' },
      burst: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [keyId] = positionals;
  if (!keyId) throw new UsageError('usage: snapgraph keys update <key_id> [--plan P] [--rpm N] [--burst N]');
  const record = await withDomain((domain) =>
    updateApiKeyLimits(domain, keyId, {
      plan: parsePlan(values.plan),
      rpm: positiveInteger('--rpm', values.rpm),
      burst: positiveInteger('--burst', values.burst),
    }),
  );
  io.out(
    values.json
      ? JSON.stringify(shownKey(record))
      : `Updated ${record.id}: plan ${record.plan}, rpm ${record.rpm ?? '-'}, burst ${record.burst ?? '-'}`,
  );
}

/**
 * A key as the CLI shows it: never its hash (the key itself was never stored), and its id as
 * `key_id` too, the name `keys create --json` gives it.
 */
function shownKey<K extends { id: string; key_hash: unknown }>({ key_hash: _hash, ...rest }: K) {
  return { key_id: rest.id, ...rest };
}
