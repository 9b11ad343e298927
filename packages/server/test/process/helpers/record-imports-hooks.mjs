// Module hooks (they run on their own thread): record each resolved URL, synchronously, so that
// nothing is lost when the process exits.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(file, `${result.url}\n`);
  return result;
}
