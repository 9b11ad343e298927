import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SnapgraphClient } from '@snapgraph/client';
import type { McpConfig } from './config.js';
import { createServer } from './server.js';

/** One server on stdin/stdout, as desktop assistants launch it; ends when stdin closes. */
export async function serveStdio(config: McpConfig & { apiKey: string }): Promise<void> {
  const client = new SnapgraphClient({ baseUrl: config.baseUrl, apiKey: config.apiKey });
  const server = createServer(client);
  await server.connect(new StdioServerTransport());
}
