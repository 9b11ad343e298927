import type { Store } from '../../store/store.js';
import type { Domain } from '../context.js';

/**
 * The domain a job's work runs with: the same, except that each write of the work's output
 * (store.knowledge.write: crystallize, ingestion, knowledge; store.transfer.writeRows: an
 * import's batches) first renews the job's lease, and is not made when the lease was lost.
 * After a renewal the lease is this runner's for a whole JOB_LEASE_MS, far more than one write
 * transaction takes, so no other runner can have claimed the job while the write commits: a
 * runner that lost its lease (it stalled; another took the job over) commits nothing, and the
 * job's output is written once, by the run whose result the job reports. The output write
 * checks it once more inside its transaction, where it records the output as the job's
 * (KnowledgeWrite.job, JobRun).
 */
export function fencedDomain(domain: Domain, holdLease: () => Promise<void>): Domain {
  const { store } = domain;
  const knowledge = bound(store.knowledge, {
    write: (async (...args: Parameters<Store['knowledge']['write']>) => {
      await holdLease();
      return store.knowledge.write(...args);
    }) as Store['knowledge']['write'],
  });
  const transfer = bound(store.transfer, {
    writeRows: async (...args: Parameters<Store['transfer']['writeRows']>) => {
      await holdLease();
      return store.transfer.writeRows(...args);
    },
  });
  return { ...domain, store: bound(store, { knowledge, transfer }) };
}

/** `target` with some members replaced; every other method still called on `target` itself. */
function bound<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(replaced, property)) return replaced[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(object) : value;
    },
  });
}
