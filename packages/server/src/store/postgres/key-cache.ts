import pg from 'pg';
import type { ApiKeyRecord } from '../../model.js';
import { KEY_CACHE_SIZE, ReadCache } from '../read-cache.js';

/** The channel the `api_keys` trigger (migration 2) notifies on every update or delete. */
export const KEY_CHANGES_CHANNEL = 'snapgraph_api_keys';
/** The first schema version whose `api_keys` has that trigger. */
const TRIGGER_SCHEMA_VERSION = 2;
const RECONNECT_AFTER_MS = 1000;
/** A connection that dies without a word (no FIN, no error) is found by a query this often. */
const HEARTBEAT_EVERY_MS = 5000;

/**
 * API keys cached on PostgreSQL, for as long as this instance is told about every change.
 *
 * Every instance of a scale-out deployment may revoke or change a key (and so may the CLI), so
 * a cache here is only safe while someone says when it goes stale: a trigger on `api_keys`
 * sends a NOTIFY on commit of any update or delete, and a dedicated connection LISTENs. Any
 * notification empties the cache. While that connection is not listening — before it has
 * started, after it drops, until it is back — nothing is served from the cache, so a missed
 * notification can never leave a revoked key working. A lookup that raced a notification is not
 * kept (the generation moved). The instance that makes a change empties its own cache at once;
 * the others within the notification's delivery, a millisecond or so on one network. A
 * connection that dies silently (a network partition, no error) is found by a heartbeat query
 * within 10 s; that is the longest a change can go unseen.
 *
 * The connection is opened on the first lookup, so CLI commands never open it.
 */
/** The `application_name` of the connection that listens for key changes. */
export const KEY_LISTENER_NAME = 'snapgraph key listener';

export class KeyCache {
  private readonly entries = new ReadCache<ApiKeyRecord>(KEY_CACHE_SIZE);
  private generation = 0;
  private listener: pg.Client | undefined;
  private live = false;
  private started = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly schemaVersion: () => Promise<number>,
  ) {}

  /** The cached key, or undefined (then look it up, and `remember` what came back). */
  get(keyHash: string): ApiKeyRecord | undefined {
    if (!this.started) this.start();
    return this.live ? this.entries.get(keyHash) : undefined;
  }

  /** A token to pass to `remember`: the lookup result is kept only if nothing changed since. */
  ticket(): number {
    return this.generation;
  }

  remember(ticket: number, keyHash: string, record: ApiKeyRecord | undefined): void {
    if (!record || !this.live || ticket !== this.generation) return;
    this.entries.set(keyHash, record);
  }

  /** Empties the cache: a key changed, or the notifications may have been missed. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopListening();
    clearTimeout(this.retry);
    await this.listener?.end().catch(() => undefined);
  }

  private start(): void {
    this.started = true;
    void this.listen();
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    let version: number;
    try {
      version = await this.schemaVersion();
    } catch {
      return this.listenLater();
    }
    // Without the trigger nobody would say when a key changes: then nothing is ever cached.
    if (version < TRIGGER_SCHEMA_VERSION || this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      query_timeout: HEARTBEAT_EVERY_MS,
      // Named, so that an operator (or a test) tells it from the pool in pg_stat_activity.
      application_name: KEY_LISTENER_NAME,
    });
    this.listener = client;
    client.on('notification', () => this.invalidate());
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      if (this.closed || this.listener !== client) return;
      this.invalidate(); // whatever changed while nobody listened
      this.live = true;
      this.heartbeat = setInterval(() => {
        client.query('SELECT 1').catch(() => this.reconnect(client));
      }, HEARTBEAT_EVERY_MS).unref();
    } catch {
      this.reconnect(client);
    }
  }

  private listenLater(): void {
    if (!this.closed) this.retry = setTimeout(() => void this.listen(), RECONNECT_AFTER_MS).unref();
  }

  private reconnect(client: pg.Client): void {
    if (this.listener !== client) return;
    this.stopListening();
    this.listener = undefined;
    client.end().catch(() => undefined);
    this.listenLater();
  }

  private stopListening(): void {
    clearInterval(this.heartbeat);
    this.live = false;
    this.invalidate();
  }
}
