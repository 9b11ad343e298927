import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../module-worker.js';
import { AppError } from '../../errors.js';

export interface ComputeSettings {
  /** Threads doing text work at once (COMPUTE_THREADS). */
  threads: number;
  /** Calls that may wait for a thread; one more is refused with 503 (COMPUTE_QUEUE_MAX). */
  queueMax: number;
  /** The longest one call may run; its thread is then stopped and the call fails (COMPUTE_TIMEOUT_MS). */
  timeoutMs: number;
}

interface Call {
  id: number;
  task: string;
  args: unknown[];
  signal: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  onAbort?: () => void;
}

interface Running {
  call: Call;
  startedAt: number;
  timer: NodeJS.Timeout;
}

/**
 * A small pool of worker threads for CPU-heavy text work (extraction, linking a run's new
 * snapshots): the thread that answers requests only hands the text over and waits, so
 * `/healthz` and every other request keep answering while a megabyte of text is read.
 * Bounded three ways: `threads` at once, `queueMax` waiting (then 503 with Retry-After), and
 * `timeoutMs` per call (the thread is terminated, which stops even a runaway regular
 * expression, and a fresh one takes its place). Threads start on first use and are unref'd, so
 * an idle pool never keeps a process alive.
 */
export class ComputePool {
  private readonly idle: Worker[] = [];
  /** Threads loading their code and model: not ready for a call yet. */
  private readonly starting = new Set<Worker>();
  private readonly running = new Map<Worker, Running>();
  private readonly waiting: Call[] = [];
  private threads = 0;
  private nextId = 1;
  private closed = false;
  /** Mean milliseconds of recent calls, for Retry-After. */
  private meanMs = 1000;

  constructor(private readonly settings: ComputeSettings) {}

  /** Runs the task of tasks.ts named `task` on a thread (compute() in index.ts types it). */
  run(task: string, args: unknown[], signal?: AbortSignal): Promise<unknown> {
    if (this.closed)
      return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'the server is shutting down; try again'));
    signal?.throwIfAborted();
    const free = this.idle.length > 0 || this.threads < this.settings.threads;
    if (!free && this.waiting.length >= this.settings.queueMax) return Promise.reject(this.busy());
    return new Promise<unknown>((resolve, reject) => {
      const call: Call = { id: this.nextId++, task, args, signal, resolve: resolve as (v: unknown) => void, reject };
      if (signal) {
        call.onAbort = () => this.abort(call);
        signal.addEventListener('abort', call.onAbort, { once: true });
      }
      this.waiting.push(call);
      this.dispatch();
    });
  }

  /** Calls waiting for a thread, and threads at work: for metrics and tests. */
  load(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.running.size };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const call of this.waiting.splice(0)) this.settle(call, new AppError('SERVICE_UNAVAILABLE', 'shutting down'));
    const workers = [...this.idle.splice(0), ...this.running.keys(), ...this.starting];
    this.starting.clear();
    for (const [worker, { call, timer }] of this.running) {
      clearTimeout(timer);
      this.running.delete(worker);
      this.settle(call, new AppError('SERVICE_UNAVAILABLE', 'the server is shutting down; try again'));
    }
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private busy(): AppError {
    const perThread = ((this.waiting.length + this.running.size) * this.meanMs) / this.settings.threads;
    const retryAfter = Math.max(1, Math.min(60, Math.ceil(perThread / 1000)));
    return new AppError('SERVICE_UNAVAILABLE', 'the server is busy with other text work; try again shortly', {
      retry_after: retryAfter,
    });
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const worker = this.idle.pop();
      if (!worker) {
        while (this.threads < this.settings.threads && this.starting.size < this.waiting.length) this.spawn();
        return;
      }
      const call = this.waiting.shift() as Call;
      const timer = setTimeout(() => this.timedOut(worker), this.settings.timeoutMs);
      this.running.set(worker, { call, startedAt: performance.now(), timer });
      worker.postMessage({ id: call.id, task: call.task, args: call.args });
    }
  }

  private spawn(): void {
    this.threads++;
    const worker = moduleWorker(import.meta.url, 'worker');
    this.starting.add(worker);
    worker.unref();
    worker.on('message', (answer: { ready?: true; id: number; ok: boolean; value?: unknown; message?: string }) => {
      if (answer.ready) {
        this.starting.delete(worker);
        if (this.closed) return void worker.terminate();
        this.idle.push(worker);
        return this.dispatch();
      }
      const running = this.running.get(worker);
      if (!running || running.call.id !== answer.id) return;
      clearTimeout(running.timer);
      this.running.delete(worker);
      this.meanMs = 0.8 * this.meanMs + 0.2 * (performance.now() - running.startedAt);
      if (answer.ok) this.settle(running.call, undefined, answer.value);
      else this.settle(running.call, new Error(answer.message));
      if (!this.closed) this.idle.push(worker);
      this.dispatch();
    });
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', () => this.lost(worker, new Error('a compute thread stopped')));
  }

  private timedOut(worker: Worker): void {
    const seconds = Math.round(this.settings.timeoutMs / 100) / 10;
    this.lost(
      worker,
      new AppError('SERVICE_UNAVAILABLE', `the text took longer than ${seconds} s to process; try again later`, {
        retry_after: Math.max(1, Math.ceil(this.meanMs / 1000)),
      }),
    );
  }

  /** The thread is gone (stopped, crashed, timed out): its call fails and another thread may start. */
  private lost(worker: Worker, err: unknown): void {
    if (this.starting.delete(worker)) {
      // A thread that cannot start would fail again: the oldest waiting call gets the reason.
      this.threads--;
      const call = this.waiting.shift();
      if (call) this.settle(call, err);
      this.dispatch();
      return;
    }
    const running = this.running.get(worker);
    const idleAt = this.idle.indexOf(worker);
    if (!running && idleAt < 0) return;
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    this.threads--;
    if (running) {
      clearTimeout(running.timer);
      this.running.delete(worker);
      this.settle(running.call, err);
    }
    void worker.terminate();
    this.dispatch();
  }

  private abort(call: Call): void {
    const at = this.waiting.indexOf(call);
    if (at >= 0) {
      this.waiting.splice(at, 1);
      this.settle(call, call.signal?.reason);
      return;
    }
    for (const [worker, running] of this.running) if (running.call === call) this.lost(worker, call.signal?.reason);
  }

  private settle(call: Call, err: unknown, value?: unknown): void {
    if (call.onAbort) call.signal?.removeEventListener('abort', call.onAbort);
    if (err !== undefined) call.reject(err);
    else call.resolve(value);
  }
}
