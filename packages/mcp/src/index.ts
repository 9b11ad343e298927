export { createServer } from './server.js';
export { serveHttp, endpointOf, MCP_PATH } from './http.js';
export { serveStdio } from './stdio.js';
export { TOOLS } from './tools/index.js';
export type { RegisterTool, ToolContext } from './tools/context.js';
