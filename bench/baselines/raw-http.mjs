// The ceiling: plain node:http answering every request with the same bytes (the exact body of
// one Snapgraph response, read from BODY_FILE) and the same content-type. Nothing is computed.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE);
const headers = { 'content-type': process.env.CONTENT_TYPE ?? 'application/json', 'content-length': body.length };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
