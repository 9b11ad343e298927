import type { Worker } from 'node:worker_threads';

/** A worker's answer to a call: the call's id with its result, or with the error it met. */
export type WorkerAnswer<Result extends object> =
  ({ id: number } & Result) | { id: number; error: { message: string; name: string; code?: string | undefined } };

/** What a worker of WorkerCalls is sent: a call with its id, or `{ id: 0, close: true }` at the end. */
export type WorkerRequest<Call extends object> = (Call & { id: number }) | { id: 0; close: true };

/**
 * Calls answered by a worker thread of our own (OffThreadWrites, OffThreadFts): each call posted
 * with an id and settled by the answer with that id. The worker starts at the first call and
 * stays; it holds the process open only while a call is under way. If it dies, the calls under
 * way fail and the next call starts another.
 */
export class WorkerCalls<Call extends object, Result extends object> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Result) => void; reject: (e: Error) => void }>();
  private readonly underWay = new Set<Promise<Result>>();

  constructor(
    private readonly start: () => Worker,
    /** Names the worker in the error its exit gives the calls under way. */
    private readonly name: string,
  ) {}

  call(call: Call): Promise<Result> {
    const worker = this.started();
    const id = this.nextId++;
    const answered = new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...call, id } satisfies WorkerRequest<Call>);
    });
    this.underWay.add(answered);
    const forget = () => this.underWay.delete(answered);
    answered.then(forget, forget);
    return answered;
  }

  /** Waits for the calls under way, then has the worker close its connection and exit. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await Promise.allSettled(this.underWay);
    this.worker = undefined;
    // Held until it has exited: a process otherwise idle would end before the promise settles.
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ id: 0, close: true } satisfies WorkerRequest<Call>);
    await exited;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.start();
    worker.unref();
    worker.on('message', (answer: WorkerAnswer<Result>) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error.message), answer.error));
      else waiting.resolve(answer);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`${this.name} exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}
