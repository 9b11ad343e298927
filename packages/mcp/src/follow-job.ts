import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SnapgraphClient } from '@snapgraph/client';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const POLL_MS = 500;

/**
 * Follows a job the tool started with `{ async: true }` until it finishes, and resolves with its
 * result (the synchronous call's body); a failed job throws the error that call would have.
 * Long work (crystallizing a book through an LLM) outlasts an assistant's request timeout: a job
 * plus MCP progress notifications keeps the call alive where the client resets its timeout on
 * progress, and cancelling the tool call stops the polling.
 */
export async function followJob<R>(client: SnapgraphClient, jobId: string, extra: Extra): Promise<R> {
  const token = extra._meta?.progressToken;
  let sent = 0;
  let last = '';
  const job = await client.waitForJob<R>(jobId, {
    signal: extra.signal,
    pollMs: POLL_MS,
    onProgress: async ({ status, progress }) => {
      const message = progress.total > 0 ? `${progress.phase} ${progress.done}/${progress.total}` : status;
      if (token === undefined || message === last) return;
      last = message;
      // MCP wants progress to grow with each notification; phases restart their counts, so the
      // number is the count of changes and the phase goes in the message.
      sent += 1;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: sent, message },
      });
    },
  });
  return job.result;
}
