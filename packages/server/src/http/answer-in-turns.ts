import { setImmediate } from 'node:timers/promises';
import type { TSchema } from 'typebox';
import type { FastifyReply } from 'fastify';
import { sendJsonText } from './json-text.js';

/** Items of a long array serialized in one turn of the event loop. */
const ITEMS_PER_TURN = 500;

/**
 * Sends `{ data }` as the route's response schema for the reply's status serializes it, with the
 * long arrays that end `data` (`tail`, in the schema's order) serialized ITEMS_PER_TURN items a
 * turn of the event loop: the same text, without one long synchronous pass. A 1 MB knowledge
 * ingest answers 12,000 entries and as many snapshots, some 10 MB of JSON, which took the
 * serializer 0.2 s on a quiet machine, the whole event loop held (docs/performance.md, "Large
 * writes beside small ones"). The head is the route's own serialization of `data` with those
 * arrays empty; should it not end as they would (a schema changed), the whole body is
 * serialized at once instead.
 */
export async function sendInTurns(
  reply: FastifyReply,
  data: Record<string, unknown>,
  tail: { key: string; items: TSchema }[],
): Promise<FastifyReply> {
  const emptied = Object.fromEntries(tail.map(({ key }) => [key, []]));
  const head = reply.serialize({ data: { ...data, ...emptied } });
  const emptyTail = `${tail.map(({ key }) => `${JSON.stringify(key)}:[]`).join(',')}}}`;
  if (typeof head !== 'string' || !head.endsWith(emptyTail)) return reply.send({ data });
  const pieces = [head.slice(0, -emptyTail.length)];
  for (const [n, { key, items }] of tail.entries()) {
    const serialize = reply.compileSerializationSchema(
      items as unknown as Record<string, unknown>,
      String(reply.statusCode),
    );
    const rows = (data[key] ?? []) as Record<string, unknown>[];
    pieces.push(`${n === 0 ? '' : ','}${JSON.stringify(key)}:[`);
    for (let at = 0; at < rows.length; at += ITEMS_PER_TURN) {
      if (at > 0) await setImmediate();
      const end = Math.min(rows.length, at + ITEMS_PER_TURN);
      for (let i = at; i < end; i++)
        pieces.push(`${i === 0 ? '' : ','}${serialize(rows[i] as Record<string, unknown>)}`);
    }
    pieces.push(']');
  }
  pieces.push('}}');
  sendJsonText(reply, pieces.join(''));
  return reply;
}
