import type { FastifyReply } from 'fastify';
import type { JsonRow, ListPage } from '../model.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** `{"data":…}` around one resource that is already JSON text. */
export const dataEnvelope = (json: string): string => `{"data":${json}}`;

/**
 * Sends JSON that is already text (built by the database), or already its UTF-8 bytes, as is:
 * Fastify serializes neither a string nor a Buffer payload. The route's response schema still
 * documents its shape.
 */
export function sendJsonText(reply: FastifyReply, json: string | Buffer): void {
  reply.type(JSON_CONTENT_TYPE).send(json);
}

/**
 * listBody as UTF-8 bytes, built once per page object and kind of body: a page that a store
 * keeps (edge pages, until the next write) is answered again without building its text (for 200
 * edges, some 400 pieces and 60 KB) and encoding it on every request.
 */
export function listBodyBytes(page: ListPage<JsonRow>, totalField: 'count' | 'total', withCursor: boolean): Buffer {
  let built = listBodies.get(page);
  if (built === undefined) {
    built = new Map();
    listBodies.set(page, built);
  }
  const kind = withCursor ? `${totalField} next_cursor` : totalField;
  let bytes = built.get(kind);
  if (bytes === undefined) {
    bytes = Buffer.from(listBody(page, totalField, withCursor));
    built.set(kind, bytes);
  }
  return bytes;
}

const listBodies = new WeakMap<ListPage<JsonRow>, Map<string, Buffer>>();

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

/**
 * A list body from rows that are objects (serialized by the route's schema), with `count` and,
 * when the request asked for cursor pagination, `next_cursor`: the shape of listBody.
 */
export function pageBody<T>(page: ListPage<T>, withCursor: boolean) {
  return { data: page.rows, count: page.total, ...(withCursor ? { next_cursor: page.nextCursor } : {}) };
}
