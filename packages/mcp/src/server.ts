import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SnapgraphClient } from '@snapgraph/client';
import { TOOLS } from './tools/index.js';
import { VERSION } from './version.js';

const INSTRUCTIONS =
  'Snapgraph is a knowledge graph of snapshots (beliefs, models, rules, convictions, principles) joined by typed edges. ' +
  'Search before you create; lists give ids, names and one-liners, open_snapshot reads one in full; ' +
  'pass next_cursor back to page. Errors carry the service code (NOT_FOUND, BAD_REQUEST with the field to fix, CONFLICT, RATE_LIMITED).';

/** An MCP server with every Snapgraph tool, calling the service through `client`. */
export function createServer(client: SnapgraphClient): McpServer {
  const server = new McpServer({ name: 'snapgraph', version: VERSION }, { instructions: INSTRUCTIONS });
  for (const register of TOOLS) register({ server, client });
  return server;
}
