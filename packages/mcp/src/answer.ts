import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SnapgraphError } from '@snapgraph/client';

/**
 * A tool's answer: the JSON as text (what every assistant reads) and the same object as
 * structured content (what a program reads).
 */
export function answer(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * A failure as an MCP tool error (isError), not a protocol error, so the assistant sees it and
 * can correct its call: our error code and message first, then the details that say what to fix.
 */
export function toolError(err: unknown): CallToolResult {
  if (err instanceof SnapgraphError && err.code !== 'NETWORK_ERROR') {
    const error = {
      code: err.code,
      status: err.status,
      message: err.message,
      ...(err.details ? { details: err.details } : {}),
      ...(err.requestId ? { request_id: err.requestId } : {}),
    };
    return {
      isError: true,
      content: [
        { type: 'text', text: `${err.code}: ${err.message}` },
        { type: 'text', text: JSON.stringify({ error }) },
      ],
      structuredContent: { error },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  // No answer came (the client's NETWORK_ERROR, whose message names the address and the cause):
  // worth trying again later. Anything else is a fault of this server, not of the call.
  const code = err instanceof SnapgraphError ? 'UNAVAILABLE' : 'INTERNAL';
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message } },
  };
}

/** Runs a tool's work and turns any failure into a tool error. */
export async function run(work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return answer(await work());
  } catch (err) {
    return toolError(err);
  }
}
