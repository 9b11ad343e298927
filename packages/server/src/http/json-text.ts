import type { FastifyReply } from 'fastify';
import type { JsonRow, ListPage } from '../model.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** `{"data":…}` around one resource that is already JSON text. */
export const dataEnvelope = (json: string): string => `{"data":${json}}`;

/**
 * Sends JSON that is already text (built by the database) as is: Fastify does not serialize a
 * string payload. The route's response schema still documents its shape.
 */
export function sendJsonText(reply: FastifyReply, json: string): void {
  reply.type(JSON_CONTENT_TYPE).send(json);
}

/**
 * A list body from rows that are JSON text: `{"data":[…],"<total field>":n}`, and
 * `next_cursor` when the request asked for cursor pagination.
 */
export function listBody(page: ListPage<JsonRow>, totalField: 'count' | 'total', withCursor: boolean): string {
  let body = '{"data":[';
  for (let i = 0; i < page.rows.length; i++) body += (i === 0 ? '' : ',') + (page.rows[i] as JsonRow).json;
  body += `],"${totalField}":${page.total}`;
  if (withCursor) body += `,"next_cursor":${JSON.stringify(page.nextCursor)}`;
  return `${body}}`;
}
