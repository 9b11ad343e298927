import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, callFailing } from './support.js';

export const TOOL_NAMES = [
  'search_snapshots',
  'open_snapshot',
  'create_snapshot',
  'update_snapshot',
  'delete_snapshot',
  'link_snapshots',
  'unlink_snapshots',
  'list_neighbours',
  'suggest_links',
  'list_brains',
  'crystallize_text',
  'review_captures',
  'accept_capture',
  'reject_capture',
  'ingest_knowledge',
  'search_knowledge',
  'open_knowledge',
  'ingest_text',
  'remember',
  'recall',
  'open_memory',
  'promote_memory',
];

/** A text the built-in extractor turns into several insights (no LLM configured). */
const NOTES = `Always write the test before you fix a bug, because a fix without a test comes back.
I believe small pull requests get better reviews than large ones. Reviewers lose focus after a few hundred lines.
To apply this, split the work into steps that each leave the build green.`;

const REVIEW = `I believe code review is a conversation, not a gate. Reviewers who explain their reasons get fewer arguments.
Always name the reason when you ask for a change, because a request without a reason reads as an order.
To apply this, write one comment per concern and say which ones block the merge.`;

const SOURCE = `Spaced repetition is defined as reviewing material at increasing intervals to strengthen memory.
The Feynman technique: first, pick a concept; second, explain it in plain words to a child; third, find the gaps and go back to the source.`;

const FIELD_NOTES =
  'The arctic fox grows a thick white winter coat for camouflage in the snow. ' +
  'We decided to film the foxes in February, when the snow is deepest. ' +
  'Arctic foxes always cache food in summer to survive the long winter.';

/**
 * The same checks over any transport: the tool list, each tool called against the real
 * service, paging, and errors as MCP tool errors carrying the service's code.
 */
export function toolBehaviour(client: () => Client) {
  it('lists every tool with a schema, a description and read-only/destructive hints', async () => {
    const { tools } = await client().listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok((tool.description ?? '').length > 60, `${tool.name} needs a description an assistant can act on`);
      assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean', tool.name);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of [
      'search_snapshots',
      'open_snapshot',
      'list_neighbours',
      'suggest_links',
      'list_brains',
      'review_captures',
      'search_knowledge',
      'open_knowledge',
      'recall',
      'open_memory',
    ]) {
      assert.equal(byName[name]!.annotations?.readOnlyHint, true, name);
    }
    for (const name of ['delete_snapshot', 'unlink_snapshots', 'reject_capture']) {
      assert.equal(byName[name]!.annotations?.destructiveHint, true, name);
    }
    for (const name of [
      'crystallize_text',
      'accept_capture',
      'ingest_knowledge',
      'ingest_text',
      'remember',
      'promote_memory',
    ]) {
      assert.equal(byName[name]!.annotations?.readOnlyHint, false, name);
      assert.equal(byName[name]!.annotations?.destructiveHint, false, name);
    }
    assert.deepEqual(byName.crystallize_text!.inputSchema.required, ['text']);
    assert.deepEqual(byName.ingest_knowledge!.inputSchema.required?.sort(), ['source_type', 'title']);
    assert.equal(byName.create_snapshot!.annotations?.destructiveHint, false);
    assert.deepEqual(byName.create_snapshot!.inputSchema.required?.sort(), ['core', 'name']);
    assert.deepEqual(byName.remember!.inputSchema.required, ['content']);
    assert.deepEqual(byName.recall!.inputSchema.required, ['query']);
    assert.deepEqual(byName.ingest_text!.inputSchema.required, ['content']);
    assert.equal(byName.promote_memory!.annotations?.idempotentHint, true);
  });

  it('create, open, update, search, link, neighbours (paged), suggestions, unlink, delete', async () => {
    const hub = (
      await call(client(), 'create_snapshot', {
        name: 'Spaced repetition',
        core: 'Reviewing at growing intervals makes memories last',
        tags: ['learning'],
      })
    ).created;
    assert.match(hub.id, /^snap_/);
    assert.equal(hub.one_liner, 'Reviewing at growing intervals makes memories last');

    const leaves = [];
    for (let i = 0; i < 5; i++) {
      leaves.push(
        (
          await call(client(), 'create_snapshot', {
            name: `Review habit ${i}`,
            core: `Learning review habit number ${i}`,
            tags: ['learning'],
          })
        ).created,
      );
    }
    const opened = (await call(client(), 'open_snapshot', { id: hub.id })).snapshot;
    assert.equal(opened.core, 'Reviewing at growing intervals makes memories last');
    assert.deepEqual(opened.tags, ['learning']);
    assert.equal(opened.story, null);

    const updated = (
      await call(client(), 'update_snapshot', { id: hub.id, one_liner: 'Space your reviews', confidence: 0.8 })
    ).updated;
    assert.equal(updated.id, hub.id);
    assert.equal((await call(client(), 'open_snapshot', { id: hub.id })).snapshot.confidence, 0.8);

    // Search: bounded results (no full objects), paged by cursor.
    const first = await call(client(), 'search_snapshots', { query: 'habit', limit: 2 });
    assert.equal(first.count, 5);
    assert.equal(first.results.length, 2);
    assert.deepEqual(Object.keys(first.results[0]).sort(), ['id', 'name', 'one_liner', 'score', 'type']);
    const seen = first.results.map((r: { id: string }) => r.id);
    let cursor = first.next_cursor;
    while (cursor) {
      const next = await call(client(), 'search_snapshots', { query: 'habit', limit: 2, cursor });
      seen.push(...next.results.map((r: { id: string }) => r.id));
      cursor = next.next_cursor;
    }
    assert.deepEqual([...seen].sort(), leaves.map((l) => l.id).sort());

    const edges = [];
    for (const leaf of leaves) {
      edges.push(
        (
          await call(client(), 'link_snapshots', {
            source_id: leaf.id,
            target_id: hub.id,
            edge_type: 'supports',
            strength: 0.7,
          })
        ).edge,
      );
    }
    assert.match(edges[0].id, /^edge_/);

    // Neighbours, two at a time, until next_cursor is null.
    const neighbours = [];
    let page = await call(client(), 'list_neighbours', { id: hub.id, limit: 2 });
    assert.equal(page.total, 5);
    neighbours.push(...page.neighbours);
    while (page.next_cursor) {
      page = await call(client(), 'list_neighbours', { id: hub.id, limit: 2, cursor: page.next_cursor });
      neighbours.push(...page.neighbours);
    }
    assert.equal(neighbours.length, 5);
    for (const n of neighbours) {
      assert.equal(n.direction, 'incoming');
      assert.equal(n.edge_type, 'supports');
      assert.match(n.snapshot.name, /^Review habit \d$/);
    }
    const outgoing = await call(client(), 'list_neighbours', { id: leaves[0].id });
    assert.equal(outgoing.neighbours[0].direction, 'outgoing');
    assert.equal(outgoing.neighbours[0].snapshot.name, 'Spaced repetition');

    const suggested = await call(client(), 'suggest_links', { id: leaves[0].id, limit: 3 });
    // count is every suggestion, the list the best `limit` of them.
    assert.equal(suggested.suggestions.length, Math.min(3, suggested.count));
    for (const s of suggested.suggestions) {
      assert.match(s.other.name, /^Review habit \d$/);
      assert.equal(typeof s.reason, 'string');
    }
    // Paged two at a time by next_cursor: the same suggestions, in the same order, as one call.
    const all = await call(client(), 'suggest_links', { id: leaves[0].id, limit: 50 });
    assert.equal(all.next_cursor, null);
    assert.ok(all.suggestions.length >= 3, `${all.suggestions.length} suggestions`);
    const paged = [];
    let slice = await call(client(), 'suggest_links', { id: leaves[0].id, limit: 2 });
    paged.push(...slice.suggestions);
    while (slice.next_cursor) {
      slice = await call(client(), 'suggest_links', { id: leaves[0].id, limit: 2, cursor: slice.next_cursor });
      paged.push(...slice.suggestions);
    }
    const pair = (s: { source_id: string; target_id: string; edge_type: string }) =>
      `${s.source_id} ${s.target_id} ${s.edge_type}`;
    assert.deepEqual(paged.map(pair), all.suggestions.map(pair));

    assert.deepEqual((await call(client(), 'unlink_snapshots', { edge_id: edges[0].id })).deleted, {
      edge_id: edges[0].id,
    });
    assert.equal((await call(client(), 'list_neighbours', { id: hub.id })).total, 4);

    const brains = await call(client(), 'list_brains', {});
    assert.equal(brains.count, 1);
    assert.equal(brains.brains[0].snapshot_count, 6);

    assert.deepEqual((await call(client(), 'delete_snapshot', { id: hub.id })).deleted, { id: hub.id });
    assert.equal((await call(client(), 'list_neighbours', { id: leaves[1].id })).total, 0);
  });

  it("errors are tool errors carrying the service's code and message", async () => {
    const missing = await callFailing(client(), 'open_snapshot', { id: 'snap_doesnotexist' });
    assert.match(missing.text, /^NOT_FOUND: /);
    assert.equal(missing.error.code, 'NOT_FOUND');
    assert.equal(missing.error.status, 404);
    assert.match(missing.error.request_id, /^req_/);

    const a = (await call(client(), 'create_snapshot', { name: 'A', core: 'first' })).created;
    const b = (await call(client(), 'create_snapshot', { name: 'B', core: 'second' })).created;
    await call(client(), 'link_snapshots', { source_id: a.id, target_id: b.id, edge_type: 'contradicts' });
    const duplicate = await callFailing(client(), 'link_snapshots', {
      source_id: a.id,
      target_id: b.id,
      edge_type: 'contradicts',
    });
    assert.equal(duplicate.error.code, 'CONFLICT');

    const nothing = await callFailing(client(), 'update_snapshot', { id: a.id });
    assert.equal(nothing.error.code, 'BAD_REQUEST');

    const tooLong = await callFailing(client(), 'create_snapshot', { name: 'x'.repeat(150), core: 'y'.repeat(10_001) });
    assert.match(tooLong.text, /core/);

    const badEnum = await callFailing(client(), 'link_snapshots', {
      source_id: a.id,
      target_id: b.id,
      edge_type: 'likes',
    });
    assert.match(badEnum.text, /edge_type/);

    // A cursor no tool gave is the caller's to fix, not an outage.
    const badCursor = await callFailing(client(), 'search_snapshots', { query: 'first', cursor: 'garbage' });
    assert.equal(badCursor.error.code, 'BAD_REQUEST');
    assert.match(badCursor.text, /^BAD_REQUEST: cursor must be a next_cursor from search_snapshots/);
  });

  it('crystallize_text stores summaries; with review, captures are listed, accepted and rejected', async () => {
    const made = await call(client(), 'crystallize_text', { text: REVIEW, source_type: 'chat' });
    assert.match(made.run_id, /^cry_/);
    assert.ok(made.count >= 1, JSON.stringify(made));
    assert.equal(made.snapshots.length, made.count);
    assert.deepEqual(Object.keys(made.snapshots[0]).sort(), ['id', 'name', 'one_liner', 'type']);
    assert.equal(made.model, 'builtin');
    const opened = (await call(client(), 'open_snapshot', { id: made.snapshots[0].id })).snapshot;
    assert.equal(opened.source_type, 'chat');
    assert.equal(opened.source_id, made.run_id);

    const proposed = await call(client(), 'crystallize_text', {
      text: NOTES,
      review: true,
    });
    assert.equal(proposed.count, 0);
    const pending = await call(client(), 'review_captures', { limit: 1 });
    assert.equal(pending.count, proposed.captures.length);
    const listed = [...pending.captures];
    let cursor = pending.next_cursor;
    while (cursor) {
      const next = await call(client(), 'review_captures', { limit: 1, cursor });
      listed.push(...next.captures);
      cursor = next.next_cursor;
    }
    assert.deepEqual(
      listed.map((c: { id: string }) => c.id).sort(),
      proposed.captures.map((c: { id: string }) => c.id).sort(),
    );
    const accepted = (await call(client(), 'accept_capture', { id: proposed.captures[0].id })).created;
    assert.match(accepted.id, /^snap_/);
    assert.equal(accepted.name, proposed.captures[0].name);
    const again = await callFailing(client(), 'accept_capture', { id: proposed.captures[0].id });
    assert.equal(again.error.code, 'NOT_FOUND');
    assert.ok(proposed.captures.length >= 2, JSON.stringify(proposed));
    assert.deepEqual((await call(client(), 'reject_capture', { id: proposed.captures[1].id })).rejected, {
      id: proposed.captures[1].id,
    });
    assert.equal((await call(client(), 'review_captures', {})).count, proposed.captures.length - 2);

    const tooShort = await callFailing(client(), 'crystallize_text', { text: 'short' });
    assert.match(tooShort.text, /text/);
  });

  it('ingest_knowledge, search_knowledge and open_knowledge', async () => {
    const source = await call(client(), 'ingest_knowledge', {
      source_type: 'manual',
      title: 'Learning how to learn',
      content: SOURCE,
      domain: 'learning',
    });
    assert.match(source.source_id, /^src_/);
    assert.ok(source.entries_count >= 2, JSON.stringify(source));
    assert.deepEqual(Object.keys(source.entries[0]).sort(), ['entry_type', 'id', 'title']);
    assert.ok(source.snapshots.length >= 1);

    const found = await call(client(), 'search_knowledge', { query: 'Feynman', limit: 5 });
    assert.ok(found.count >= 1, JSON.stringify(found));
    assert.equal(found.next_cursor, found.count > 5 ? '5' : null);
    const hit = found.results[0];
    assert.equal(hit.source_id, source.source_id);
    assert.equal(typeof hit.excerpt, 'string');

    const entry = (await call(client(), 'open_knowledge', { id: hit.id })).entry;
    assert.equal(entry.id, hit.id);
    assert.equal(entry.domain, 'learning');
    assert.ok(entry.content.length >= hit.excerpt.length - 1);
    const opened = (await call(client(), 'open_knowledge', { id: source.source_id })).source;
    assert.equal(opened.title, 'Learning how to learn');
    assert.equal(opened.entries.length, source.entries_count);

    const noContent = await callFailing(client(), 'ingest_knowledge', { source_type: 'document', title: 'Empty' });
    assert.equal(noContent.error.code, 'BAD_REQUEST');
    assert.equal(noContent.error.details.field, 'content');
    const wrongId = await callFailing(client(), 'open_knowledge', { id: 'snap_x' });
    assert.match(wrongId.text, /ske_/);
  });

  it('remember, recall and promote_memory; ingest_text with extract_memories', async () => {
    const kept = (
      await call(client(), 'remember', {
        content: 'Always write the test before you fix a bug, because a fix without a test comes back.',
        memory_type: 'insight',
        speaker: 'Ana',
        tags: ['testing'],
      })
    ).memory;
    assert.match(kept.id, /^mem_/);
    assert.equal(kept.memory_type, 'insight');
    assert.equal(kept.promoted_to, null);

    const recalled = await call(client(), 'recall', { query: 'bug', limit: 5 });
    assert.equal(recalled.query, 'bug');
    assert.ok(recalled.count >= 1, JSON.stringify(recalled));
    const hit = recalled.results.find((r: { id: string }) => r.id === kept.id);
    assert.ok(hit, JSON.stringify(recalled));
    assert.deepEqual(Object.keys(hit).sort(), [
      'excerpt',
      'id',
      'memory_type',
      'occurred_at',
      'promoted_to',
      'score',
      'session_id',
      'speaker',
      'superseded_at',
      'superseded_by',
      'tags',
    ]);
    assert.equal(hit.speaker, 'Ana');
    assert.equal(hit.superseded_by, null);
    // A newer value of the same fact (design §6.1): recall shows which memory replaced which.
    const first = (
      await call(client(), 'remember', { content: 'The bug bash is on May 12.', occurred_at: '2026-02-01T10:00:00Z' })
    ).memory;
    const moved = (
      await call(client(), 'remember', {
        content: 'The bug bash moved to May 19.',
        occurred_at: '2026-02-02T10:00:00Z',
      })
    ).memory;
    const bash = await call(client(), 'recall', { query: 'bug bash', limit: 5 });
    const ids = bash.results.map((r: { id: string }) => r.id);
    assert.ok(ids.indexOf(moved.id) >= 0 && ids.indexOf(moved.id) < ids.indexOf(first.id), JSON.stringify(bash));
    const old = bash.results.find((r: { id: string }) => r.id === first.id);
    assert.equal(old.superseded_by, moved.id);
    assert.equal(old.superseded_at, '2026-02-02T10:00:00.000Z');
    const current = await call(client(), 'recall', { query: 'bug bash', current_only: true, limit: 5 });
    assert.ok(!current.results.some((r: { id: string }) => r.id === first.id), JSON.stringify(current));
    // Paged by cursor, one at a time, to the end: every match once, in the order of one page.
    for (const content of ['A bug report needs the steps', 'Bug triage happens on Mondays']) {
      await call(client(), 'remember', { content });
    }
    const whole = await call(client(), 'recall', { query: 'bug', limit: 50 });
    assert.equal(whole.next_cursor, null);
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(client(), 'recall', { query: 'bug', limit: 1, ...(cursor ? { cursor } : {}) });
      assert.equal(page.count, whole.count);
      walked.push(...page.results.map((r: { id: string }) => r.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(
      walked,
      whole.results.map((r: { id: string }) => r.id),
    );
    assert.ok(walked.length >= 3);
    // context: the turns around each hit in its session, in the answer's short form.
    const turns = ['Did the deploy go out?', 'It failed: the cache key bug again.', 'Then we roll back.'];
    const said = [];
    for (const [i, content] of turns.entries()) {
      const at = `2026-03-0${i + 1}T10:00:00Z`;
      said.push(
        (
          await call(client(), 'remember', {
            content,
            speaker: i % 2 ? 'Bo' : 'Ana',
            session_id: 'standup',
            occurred_at: at,
          })
        ).memory,
      );
    }
    const inContext = await call(client(), 'recall', { query: 'cache key', session_id: 'standup', context: 1 });
    assert.equal(inContext.results[0].id, said[1].id, JSON.stringify(inContext));
    assert.deepEqual(
      inContext.results[0].context.map((t: { id: string }) => t.id),
      [said[0].id, said[2].id],
    );
    assert.deepEqual(Object.keys(inContext.results[0].context[0]).sort(), ['excerpt', 'id', 'occurred_at', 'speaker']);
    assert.equal(inContext.results[0].context[0].excerpt, 'Did the deploy go out?');
    const tooWide = await callFailing(client(), 'recall', { query: 'cache', context: 6 });
    assert.match(tooWide.text, /context/);

    const openedMemory = (await call(client(), 'open_memory', { id: hit.id })).memory;
    assert.deepEqual(openedMemory, kept);

    const promoted = await call(client(), 'promote_memory', { id: kept.id });
    assert.equal(promoted.memory_id, kept.id);
    assert.ok(promoted.snapshots.length >= 1, JSON.stringify(promoted));
    assert.equal(promoted.promoted_to, promoted.snapshots[0].id);
    assert.deepEqual(Object.keys(promoted.snapshots[0]).sort(), ['id', 'name', 'one_liner', 'type']);
    const again = await call(client(), 'promote_memory', { id: kept.id });
    assert.deepEqual(again.snapshots, promoted.snapshots);
    assert.equal(again.edges_made, 0);
    const opened = (await call(client(), 'open_snapshot', { id: promoted.promoted_to })).snapshot;
    assert.equal(opened.source_type, 'memory');
    assert.equal(opened.source_id, kept.id);

    const ingested = await call(client(), 'ingest_text', {
      content: FIELD_NOTES,
      title: 'Fox field notes',
      extract_memories: true,
    });
    assert.match(ingested.ingestion_id, /^ing_/);
    assert.equal(ingested.source_type, 'manual');
    assert.ok(ingested.snapshots.length >= 1, JSON.stringify(ingested));
    assert.ok(ingested.memories_count >= 1, JSON.stringify(ingested));
    assert.deepEqual(Object.keys(ingested.memories[0]).sort(), ['excerpt', 'id', 'memory_type']);
    const foxes = await call(client(), 'recall', { query: 'foxes' });
    assert.ok(
      foxes.results.some((r: { id: string }) => r.id === ingested.memories[0].id),
      JSON.stringify(foxes),
    );

    const empty = await callFailing(client(), 'remember', { content: '' });
    assert.match(empty.text, /content/);
    const short = await callFailing(client(), 'ingest_text', { content: 'too short' });
    assert.match(short.text, /content/);
    const unknown = await callFailing(client(), 'promote_memory', { id: 'mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7' });
    assert.equal(unknown.error.code, 'NOT_FOUND');
    assert.equal((await callFailing(client(), 'open_memory', { id: kept.id + 'x' })).error.code, 'NOT_FOUND');
  });
}
