// Each resource's fields are declared once, in src/fields/. These tests hold the rest of the
// service to those lists on the suite's backend: the table's columns, the OpenAPI document's
// schemas and the JSON the API returns each have exactly the declared fields, and the JSON a
// store writes itself (GET of one snapshot, edge or memory) has them in the declared order.
// (The OpenAPI schema, and so a response Fastify serializes, places a snapshot's emotion after
// its free-text fields rather than after moment: both orders are in use, and JSON readers do not
// depend on either.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { BRAIN_FIELDS } from '../src/fields/brain.js';
import { EDGE_FIELDS } from '../src/fields/edge.js';
import { fieldNames, type Fields } from '../src/fields/field.js';
import { MEMORY_FIELDS } from '../src/fields/memory.js';
import { SNAPSHOT_FIELDS } from '../src/fields/snapshot.js';
import { testBackend } from './helpers/database.js';
import { startTestApi, type TestApi, type TestKey } from './helpers/harness.js';

/** What a brain's JSON adds to its stored fields: counts read when it is read. */
const BRAIN_COUNTS = ['snapshot_count', 'edge_count', 'memory_count', 'pending_work'];

/** Columns a backend keeps beside the fields, for its own use (PostgreSQL's text search vectors). */
const STORE_ONLY: Record<string, Record<string, string[]>> = {
  sqlite: {},
  postgres: { snapshots: ['search_vector'], memories: ['search_vector'] },
};

const RESOURCES: { table: string; schema: string; fields: Fields; inTable: string[]; inJson: string[] }[] = [
  { table: 'snapshots', schema: 'Snapshot', fields: SNAPSHOT_FIELDS, inTable: ['account_id'], inJson: [] },
  { table: 'edges', schema: 'Edge', fields: EDGE_FIELDS, inTable: ['account_id'], inJson: [] },
  { table: 'memories', schema: 'Memory', fields: MEMORY_FIELDS, inTable: ['account_id'], inJson: [] },
  { table: 'brains', schema: 'Brain', fields: BRAIN_FIELDS, inTable: [], inJson: BRAIN_COUNTS },
];

async function tableColumns(databaseUrl: string, table: string): Promise<string[]> {
  if (testBackend === 'sqlite') {
    const db = new Database(databaseUrl, { readonly: true });
    try {
      return db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
        .all()
        .map((column) => column.name);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
      [table],
    );
    return rows.map((row) => row.column_name);
  } finally {
    await client.end();
  }
}

const sorted = (names: readonly string[]) => [...names].sort();

describe("one list of each resource's fields", () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  for (const resource of RESOURCES) {
    it(`${resource.table}: the table has a column for each declared field, and no other but the store's own`, async () => {
      const columns = await tableColumns(api.databasePath, resource.table);
      const expected = [
        ...resource.inTable,
        ...fieldNames(resource.fields),
        ...(STORE_ONLY[testBackend]![resource.table] ?? []),
      ];
      assert.deepEqual(sorted(columns), sorted(expected));
    });

    it(`${resource.table}: the OpenAPI schema ${resource.schema} has the declared fields`, async () => {
      const doc = await api.request('GET', '/v1/openapi.json');
      assert.equal(doc.status, 200);
      const properties = Object.keys(doc.body.components.schemas[resource.schema].properties);
      assert.deepEqual(sorted(properties), sorted([...fieldNames(resource.fields), ...resource.inJson]));
    });
  }

  it('the JSON of each resource has the declared fields; as a store writes it, in their order', async () => {
    const made = async (path: string, body: unknown) => {
      const response = await api.request('POST', path, { key, body });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body.data;
    };
    const read = async (path: string) => {
      const response = await api.request('GET', path, { key });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body.data;
    };
    const a = await made('/v1/snapshots', { name: 'A', core: 'a' });
    const b = await made('/v1/snapshots', { name: 'B', core: 'b' });
    const edge = await made('/v1/edges', { source_id: a.id, target_id: b.id, edge_type: 'supports' });
    const memory = await made('/v1/memories', { content: 'The fields are declared once' });
    const brain = await read(`/v1/brains/${key.brainId}`);
    for (const [record, fields, extra] of [
      [a, SNAPSHOT_FIELDS, []],
      [edge, EDGE_FIELDS, []],
      [memory, MEMORY_FIELDS, []],
      [brain, BRAIN_FIELDS, BRAIN_COUNTS],
    ] as const) {
      assert.deepEqual(sorted(Object.keys(record)), sorted([...fieldNames(fields), ...extra]));
    }
    for (const [path, fields] of [
      [`/v1/snapshots/${a.id}`, SNAPSHOT_FIELDS],
      [`/v1/edges/${edge.id}`, EDGE_FIELDS],
      [`/v1/memories/${memory.id}`, MEMORY_FIELDS],
    ] as const) {
      assert.deepEqual(Object.keys(await read(path)), fieldNames(fields), path);
    }
  });
});
