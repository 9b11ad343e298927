import type { ProviderService } from './errors.js';

/** One call to a provider as metrics see it: which, how it ended, how long it took. */
export interface ProviderCall {
  service: ProviderService;
  /** `ok`, or the failure's kind (`unavailable`: timeout, refusal, 429/5xx; `error`: an unusable answer), or `cancelled`. */
  outcome: 'ok' | 'unavailable' | 'error' | 'cancelled';
  seconds: number;
}

export type ProviderCallObserver = (call: ProviderCall) => void;

const observers = new Set<ProviderCallObserver>();

/**
 * Watches every provider call of this process; returns the function that stops watching.
 * Every call goes through postJson, so it is seen there once, whoever made the provider (the
 * start-up probe, the background worker, search, crystallize) — rather than handing a metrics
 * object to each of them.
 */
export function observeProviderCalls(observer: ProviderCallObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

export function reportProviderCall(call: ProviderCall): void {
  for (const observer of observers) observer(call);
}
