import type { FastifyReply } from 'fastify';

/**
 * Sends JSON that is already text (built by the database) as is: Fastify does not serialize a
 * string payload. The route's response schema still documents its shape.
 */
export function sendJsonText(reply: FastifyReply, json: string): void {
  reply.type('application/json; charset=utf-8').send(json);
}
