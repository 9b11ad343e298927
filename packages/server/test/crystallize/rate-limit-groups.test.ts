import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../helpers/harness.js';
import { NOTES } from './fixtures.js';

/**
 * Design §5.2 and §13: crystallize and knowledge work have windows of their own (Free: 10 a
 * minute); reading runs, captures and sources counts as a snapshot read, and deciding a capture
 * or editing an entry as a snapshot write.
 */
describe('rate-limit groups of crystallize and knowledge', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ rateLimits: true });
  });
  after(() => api.close());

  const limits = (res: { headers: Record<string, unknown> }) => [
    res.headers['x-ratelimit-limit'],
    res.headers['x-ratelimit-remaining'],
  ];

  it('POST /crystallize counts in "crystallize"; its run and captures in the read and write windows', async () => {
    const key = await api.newKey({ plan: 'free' });
    const run = await api.request('POST', '/v1/crystallize', { key, body: { text: NOTES, review: true } });
    assert.equal(run.status, 201, JSON.stringify(run.body));
    assert.deepEqual(limits(run), ['10', '9']);
    const mirror = await api.request('POST', '/api/v1/crystallize', { key, body: { text: NOTES, review: true } });
    assert.deepEqual(limits(mirror), ['10', '8'], 'both prefixes share one window');

    assert.deepEqual(limits(await api.request('GET', `/v1/crystallize/${run.body.run_id}`, { key })), ['60', '59']);
    assert.deepEqual(limits(await api.request('GET', '/v1/captures', { key })), ['60', '58']);
    const capture = run.body.data.captures[0].id;
    assert.deepEqual(limits(await api.request('POST', `/v1/captures/${capture}/reject`, { key })), ['30', '29']);
  });

  it('knowledge ingest and search share "knowledge"; sources and entries are reads and writes', async () => {
    const key = await api.newKey({ plan: 'free' });
    const made = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'manual', title: 'Notes', content: NOTES },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(limits(made), ['10', '9']);
    const search = await api.request('POST', '/v1/specific-knowledge/search', { key, body: { query: 'test' } });
    assert.deepEqual(limits(search), ['10', '8']);
    const sourceId = made.body.data.source_id;
    assert.deepEqual(limits(await api.request('GET', `/v1/specific-knowledge/sources/${sourceId}`, { key })), [
      '60',
      '59',
    ]);
    const entry = made.body.data.entries[0].id;
    const put = await api.request('PUT', `/v1/specific-knowledge/entries/${entry}`, { key, body: { mastery: 0.5 } });
    assert.deepEqual(limits(put), ['30', '29']);
  });
});
