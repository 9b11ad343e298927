import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { errorBody } from './error-handler.js';
import { JSON_CONTENT_TYPE } from '../json-text.js';
import { freshRequestId } from './request-id.js';

/**
 * A request Node cannot parse (headers over its 16 KiB limit, a malformed line, one that does
 * not arrive in time) never becomes a request Fastify sees; Fastify's default answer has a body
 * of its own shape. Answer in the documented error body instead, with a request id, and close
 * the connection: nothing after a broken request on it can be trusted.
 */
export function answerClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('HEADERS_TOO_LARGE', 'the request headers are larger than 16 KiB')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT', 'the request did not arrive in time')
        : new AppError('BAD_REQUEST', 'the request is not valid HTTP/1.1');
  const requestId = freshRequestId();
  this.log.debug({ err, request_id: requestId }, 'unparsable request');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(error, requestId));
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
        `content-type: ${JSON_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
