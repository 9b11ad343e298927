import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';

/** What every domain operation needs: where data lives and what time it is. */
export interface Domain {
  store: Store;
  clock: Clock;
}
