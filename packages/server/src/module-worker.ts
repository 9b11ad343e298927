import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module `name` that sits beside the caller (`from`, its
 * import.meta.url): the compiled `name.js`, or under tsx (the tests run the TypeScript sources)
 * `name.ts`, loaded after registering tsx in the thread, which a worker does not inherit.
 */
export function moduleWorker(from: string, name: string, workerData?: unknown): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), { workerData });
  const source = new URL(`./${name}.ts`, from).href;
  const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(code, { eval: true, workerData });
}
