import type { FastifyReply } from 'fastify';

/**
 * 201 with `{ data }`, and the new object's address in `Location`, under the prefix it was
 * created through (`/v1` or `/api/v1`), so a client can follow it without building the URL.
 */
export function sendCreated<T extends { id: string }>(reply: FastifyReply, collectionPath: string, data: T) {
  return reply.code(201).header('location', `${collectionPath}/${data.id}`).send({ data });
}
