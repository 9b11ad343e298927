import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SnapgraphClient } from '@snapgraph/client';

/** What every tool module gets: the MCP server to register on and the client it calls. */
export interface ToolContext {
  server: McpServer;
  client: SnapgraphClient;
}

/** One module per tool: `register` adds it to the server. */
export type RegisterTool = (context: ToolContext) => void;
